"""The REST resolver every function uses, with Bindery's one mapping of errors to HTTP."""

from __future__ import annotations

import base64
import json
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response, content_types
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.event_handler.middlewares import NextMiddleware
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError

from bindery.errors import BinderyError, error_body
from bindery.wire.urls import remember_request_base


def _error(status: int, message: str) -> Response[str]:
    return Response(
        status_code=status,
        content_type=content_types.APPLICATION_JSON,
        body=json.dumps(error_body(status, message)),
    )


def _location(loc: tuple[Any, ...]) -> str:
    # pydantic's loc starts with where the value came from ("body", "query", "path"); the field follows.
    parts = [str(part) for part in loc[1:]] or [str(part) for part in loc]
    return ".".join(parts) or "request"


def validation_message(errors: list[dict[str, Any]]) -> str:
    described = []
    for error in errors[:5]:
        where = _location(tuple(error.get("loc", ())))
        if error.get("type") == "json_invalid":
            described.append("body: not valid JSON")
            continue
        described.append(f"{where}: {error.get('msg', 'invalid value')}")
    return "Invalid request: " + "; ".join(described)


def _utf8_body(event: dict[str, Any]) -> bool:
    body = event.get("body")
    if not body or not event.get("isBase64Encoded"):
        return True
    try:
        base64.b64decode(body).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return False
    return True


def create_app(service: str) -> APIGatewayRestResolver:
    logger = Logger(service=service)
    app = APIGatewayRestResolver(enable_validation=True)

    def _request_base(resolver: APIGatewayRestResolver, next_middleware: NextMiddleware) -> Response[Any]:
        remember_request_base(resolver.current_event.raw_event)
        return next_middleware(resolver)

    app.use(middlewares=[_request_base])

    @app.exception_handler(BinderyError)
    def _domain_error(error: BinderyError) -> Response[str]:
        return _error(error.status, error.message)

    @app.exception_handler(RequestValidationError)
    def _invalid(error: RequestValidationError) -> Response[str]:
        return _error(400, validation_message(list(error.errors())))

    @app.not_found
    def _no_route(_: NotFoundError) -> Response[str]:
        return _error(404, f"No route for {app.current_event.http_method} {app.current_event.path}")

    def _internal(error: Exception) -> Response[str]:
        logger.exception("unhandled error", extra={"error": type(error).__name__})
        return _error(500, "Internal error")

    @app.exception_handler(UnicodeDecodeError)
    def _undecodable(error: UnicodeDecodeError) -> Response[str]:
        # Powertools decodes the body as UTF-8 while validating it: bytes that are not UTF-8 are the
        # caller's mistake. The same error from anywhere else is ours.
        if not _utf8_body(app.current_event.raw_event):
            return _error(400, "body: not valid UTF-8 (send JSON encoded as UTF-8)")
        return _internal(error)

    @app.exception_handler(Exception)
    def _unexpected(error: Exception) -> Response[str]:
        return _internal(error)

    return app
