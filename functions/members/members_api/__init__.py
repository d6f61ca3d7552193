"""Lambda function for members, teams and invites."""
