"""Response models: the reference spec's response schemas (@gitbook/api 0.146.0), one module per area.

Routes declare them as their return type, so docs/openapi.json names every success response's shape and
Powertools checks each response against it before sending it. A route validates what the domain returns
(`Model.model_validate(…)`); the JSON sent is the same, field for field (see base.Omitted).
"""
