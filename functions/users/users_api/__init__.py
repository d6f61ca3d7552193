"""Lambda function for users."""
