"""The OpenAPI engine (docs/openapi.md): reading a specification and the files its `$ref`s name into a
filesystem (`filesystem`), validating it with openapi-spec-validator (`validation`), and the API reference
documents computed from it (`reference`). No DynamoDB here: bindery.domain.openapi stores what it makes.
"""
