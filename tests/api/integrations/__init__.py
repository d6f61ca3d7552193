"""Integrations: publishing, installations, tokens, events and their delivery."""
