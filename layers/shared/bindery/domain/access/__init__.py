"""Who may see and change what: organization roles, space and collection grants and the
effective role on content; docs/permissions.md has the rules."""
