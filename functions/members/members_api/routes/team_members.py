"""Routes of this sub-resource (being written)."""

from __future__ import annotations

from aws_lambda_powertools.event_handler.api_gateway import Router

router = Router()
