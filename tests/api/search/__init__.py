"""Search of a space and of an organization."""
