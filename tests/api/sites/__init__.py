"""Docs sites: sites, site spaces, sections, publishing."""
