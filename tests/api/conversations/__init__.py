"""Conversations: ingest and the worker that processes them."""
