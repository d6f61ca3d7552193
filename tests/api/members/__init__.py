"""Members, invites, teams and what a membership carries."""
