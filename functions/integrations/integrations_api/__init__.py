"""The Integrations function (docs/integrations.md)."""
