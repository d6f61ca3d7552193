"""Organizations (ORG)."""
