"""Bindery's shared package: the code every function of the SAM application loads from the layer.

Seven packages name the architecture (docs/architecture.md): `api` (the HTTP layer) → `domain` (what
operations mean; it takes `requests`' bodies) → `store` (DynamoDB access) → `keys`; `engines` (content,
search, Git Sync, translation, insights, ...) the domain drives; `platform` (the glue every layer uses)."""
