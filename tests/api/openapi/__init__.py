"""OpenAPI specifications, their processing and reference pages."""
