"""Published docs sites as web pages (docs/published-sites.md)."""
