"""OpenAPI specifications (docs/openapi.md): the API's side (`specs`, `versions`) and the worker's
(`processing`)."""
