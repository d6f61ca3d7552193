"""Comments and replies on spaces and change requests: threads, bodies, reactions,
targets and the views a caller gets; docs/comments.md has the design."""
