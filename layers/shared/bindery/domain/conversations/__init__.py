"""Conversations ingested for analysis, the issues found in them and the clusters of those issues
(docs/conversations.md): `ingest` (the API's writes), `reads` (its reads), `processing` (the worker)."""
