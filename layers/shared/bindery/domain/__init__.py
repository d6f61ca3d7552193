"""Domain logic: what each operation means, independent of HTTP and of DynamoDB's request shapes."""
