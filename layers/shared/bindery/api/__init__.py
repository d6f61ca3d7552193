"""The HTTP layer shared by every API function: the resolver factory (http), request parsing
(dependencies, route_params), request bodies (schemas) and response shaping (wire)."""
