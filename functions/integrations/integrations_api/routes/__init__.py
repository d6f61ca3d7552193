"""Routers of the Integrations function, one per sub-resource."""
