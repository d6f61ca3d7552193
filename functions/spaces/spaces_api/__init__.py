"""Lambda function for spaces and collections."""
