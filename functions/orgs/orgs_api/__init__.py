"""Lambda function for organizations."""
