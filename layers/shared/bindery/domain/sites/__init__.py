"""Docs sites: sites, their site spaces, publishing (docs/sites.md)."""
