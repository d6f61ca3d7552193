"""Lambda function for space content."""
