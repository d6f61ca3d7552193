"""The caller's user (/user)."""
