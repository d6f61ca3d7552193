"""Git Sync: imports, exports, real repositories."""
