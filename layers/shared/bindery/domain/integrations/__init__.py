"""Integrations (docs/integrations.md): publishing, installations on organizations, spaces and sites."""
