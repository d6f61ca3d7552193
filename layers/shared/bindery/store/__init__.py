"""Data access over the single DynamoDB table: one module per entity, one method per access pattern."""
