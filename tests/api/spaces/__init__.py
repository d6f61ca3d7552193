"""Spaces and collections: settings, lifecycle, moves, transfers, permissions, counts and the purge."""
