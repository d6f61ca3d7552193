"""PDF export of a space's or a change request's content."""
