"""Comments and replies on spaces and change requests."""
