"""Spaces: creation and settings, listing, delete/restore and the purge after the TTL."""
