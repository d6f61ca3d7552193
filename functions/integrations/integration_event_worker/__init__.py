"""The integration event delivery worker (docs/integrations.md)."""
