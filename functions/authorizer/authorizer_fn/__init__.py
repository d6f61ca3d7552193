"""Lambda TOKEN authorizer."""
