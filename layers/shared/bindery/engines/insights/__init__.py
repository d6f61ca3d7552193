"""Conversation insights: the issues a user's conversation raises (extraction) and the groups of issues
about the same problem across conversations (clustering). Pure library code, no I/O: the conversations
worker stores what it returns (docs/conversations.md).

The heavy dependencies (scikit-learn, scipy, numpy, yake) are installed only in the conversations
worker's container image (layers/insights/requirements.txt): they are imported inside the functions
that need them, so importing `bindery.engines.insights.model` costs nothing to the API functions."""
