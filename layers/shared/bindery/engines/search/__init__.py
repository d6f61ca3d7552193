"""Full-text search over a space's revisions: one SQLite FTS5 index per revision (see docs/search.md)."""
