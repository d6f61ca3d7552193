"""The HTTP layer shared by every API function: the resolver factory (http), request parsing
(dependencies, route_params) and response shaping (wire). Request bodies live below the domain, in
bindery.requests."""
