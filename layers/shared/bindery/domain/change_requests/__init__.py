"""Change requests: create and read them, edit their content, review, update from and
merge into the space, revert, export; docs/change-requests.md has the design."""
