"""The REST resolver every API function uses, with Bindery's one mapping of errors to HTTP, and the
one Lambda handler over it (logs, trace and per-route metrics: bindery.platform.observability)."""

from __future__ import annotations

import base64
import importlib
import json
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayRestResolver, Response, content_types
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.event_handler.middlewares import NextMiddleware
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestUnsupportedContentType,
    RequestValidationError,
)
from aws_lambda_powertools.utilities.typing import LambdaContext

from bindery.api import path_params, snapshot
from bindery.api.route_signatures import settle_annotations
from bindery.api.wire.urls import remember_request_base
from bindery.platform import observability
from bindery.platform.errors import BinderyError, ServiceUnavailable, error_body, unavailable


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> Response[str]:
    return Response(
        status_code=status,
        content_type=content_types.APPLICATION_JSON,
        body=json.dumps(error_body(status, message)),
        headers=headers,
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


def _path_parameters(resolver: APIGatewayRestResolver) -> list[tuple[str, str]]:
    """The path's parameters in the route's order, all of them: the route's arguments hold only those its
    function declares (Powertools drops the others, such as the `organizationId` a dependency reads), and
    API Gateway's `pathParameters` only `proxy` under a proxy resource; the route's own pattern, matched
    again, has every one."""
    route, path = resolver.context.get("_route"), resolver.context.get("_path")
    matched = route.rule.match(path) if route is not None and isinstance(path, str) else None
    values = matched.groupdict() if matched else (resolver.context.get("_route_args") or {})
    return [(name, value) for name, value in values.items() if isinstance(value, str)]


def _raw_body(event: dict[str, Any]) -> bytes:
    """The body's bytes, as the caller sent them (API Gateway base64-encodes those that are not text)."""
    body = event.get("body") or ""
    if event.get("isBase64Encoded"):
        return base64.b64decode(body)
    return str(body).encode("utf-8", errors="surrogatepass")


def _body_text(event: dict[str, Any]) -> str:
    return _raw_body(event).decode("utf-8", errors="replace")


def _nesting_exceeds(text: str, limit: int) -> bool:
    """Do arrays and objects in `text` nest deeper than `limit`? (A scan, not a parse: parsing is what
    overflowed.) Brackets inside strings do not count."""
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _utf8_body(event: dict[str, Any]) -> bool:
    if not event.get("isBase64Encoded"):
        return True  # text already (API Gateway only passes UTF-8 bodies through as text)
    try:
        _raw_body(event).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return False
    return True


def _content_type(event: dict[str, Any]) -> str:
    headers = event.get("headers") or {}
    return next((str(value).strip().lower() for name, value in headers.items()
                 if name.lower() == "content-type"), "")


UNSUPPORTED_MEDIA_TYPE = "Content-Type: send the body as application/json"
# How deep request JSON may nest: documents nest a few dozen levels at most.
MAX_BODY_NESTING = 256
# What the access checks every function shares import on first need: an installation token's scopes
# and its installation (bindery.domain.access.auth, .organization, .content), imported before a
# SnapStart snapshot with each function's own (`Resolver.import_before_snapshot`).
ACCESS_ON_NEED = ("bindery.domain.access.installation_scopes", "bindery.domain.access.installations")
# The `route` dimension of an event no route matched (a 404 from the resolver).
NO_ROUTE = "(no route)"
_UNMATCHED = "bindery_unmatched"


class Resolver(APIGatewayRestResolver):
    """Powertools' REST resolver, knowing its service and the route template the last event matched, with
    routers whose modules are imported only when a request needs them (`include_later`)."""

    def __init__(self, service: str) -> None:
        super().__init__(enable_validation=True)
        self.service = service
        self.matched_route: str | None = None
        self.unmatched = False
        self._deferred: list[str] = []
        self._imported_on_need: list[str] = list(ACCESS_ON_NEED)

    def include_later(self, *modules: str) -> None:
        """Include the `router` of each module (by name) only when a request matches no route included so
        far (`api_handler` then includes them and resolves it again), when the OpenAPI schema is asked
        for, or before a SnapStart snapshot: a function's rarely used routes, whose domain modules would
        otherwise cost every cold start their import. Their routes come after all others, so give them
        last, in the order `include_router` would have had them (the first matching route wins)."""
        self._deferred.extend(modules)

    def import_before_snapshot(self, *modules: str) -> None:
        """Modules that rare cases of this function's eager routes import on first need (inside the
        functions that use them), for a SnapStart snapshot to hold: restored environments then pay
        nothing for them, as for the routers of `include_later`."""
        self._imported_on_need.extend(modules)

    def include_deferred(self) -> bool:
        """Import the deferred route modules and include their routers; False if none were left."""
        modules, self._deferred = self._deferred, []
        for name in modules:
            self.include_router(importlib.import_module(name).router)
        return bool(modules)

    def build_for_snapshot(self) -> None:
        """Before a SnapStart snapshot: every route included, the modules imported on first need
        (`import_before_snapshot`), and what their first requests would build (bindery.api.snapshot), so
        that restored environments build none of it."""
        self.include_deferred()
        for name in self._imported_on_need:
            importlib.import_module(name)
        snapshot.build((*self._static_routes, *self._dynamic_routes))

    def clear_context(self) -> None:
        # resolve() clears the routing context, matched route included, when it ends (whatever the
        # outcome: validation error, domain error, crash); keep the route's template for the metrics.
        # An unmatched event has a route too, made up by Powertools from the concrete path: not kept.
        self.unmatched = bool(self.context.get(_UNMATCHED))
        route = None if self.unmatched else self.context.get("_route")
        self.matched_route = f"{route.method} {route.path}" if route is not None else None
        super().clear_context()  # type: ignore[no-untyped-call]  # Powertools leaves it unannotated


def create_app(service: str) -> Resolver:
    logger = observability.logger(service)
    app = Resolver(service)

    def _prepared(resolver: APIGatewayRestResolver, next_middleware: NextMiddleware) -> Response[Any]:
        """What every matched request needs before its dependencies and route run, in one middleware (each
        middleware is a Powertools frame of its own, paid on every request):
        - the route's annotations evaluated once, on its first request, before Powertools resolves its
          dependencies (bindery.api.route_signatures.settle_annotations says why);
        - every value the route's path names (`spaceId`, `specSlug`…): one that cannot name anything is
          answered here, before it reaches a key (bindery.api.path_params);
        - the request's base URL, for the URLs the answer holds (bindery.api.wire.urls)."""
        route = resolver.context.get("_route")
        if route is not None:
            settle_annotations(route.func)
        judged = path_params.refusal(resolver.current_event.http_method, _path_parameters(resolver))
        if judged is not None:
            if judged.status == 204:
                return Response(status_code=204, body="")
            return _error(judged.status, judged.message)
        remember_request_base(resolver.current_event.raw_event)
        return next_middleware(resolver)

    app.use(middlewares=[_prepared])

    def _answer(error: BinderyError) -> Response[str]:
        if isinstance(error, ServiceUnavailable):
            logger.warning("AWS unavailable", extra={"error": type(error.__cause__ or error).__name__})
            return _error(error.status, error.message, {"Retry-After": str(error.retry_after)})
        return _error(error.status, error.message)

    @app.exception_handler(BinderyError)
    def _domain_error(error: BinderyError) -> Response[str]:
        return _answer(error)

    @app.exception_handler(RequestValidationError)
    def _invalid(error: RequestValidationError) -> Response[str]:
        return _error(400, validation_message(list(error.errors())))

    @app.exception_handler(RequestUnsupportedContentType)
    def _unsupported_media_type(_: RequestUnsupportedContentType) -> Response[str]:
        # Powertools parses JSON (or a form) only: a body declared as anything else is the caller's
        # mistake, answered as HTTP says (415), not a crash.
        return _error(415, UNSUPPORTED_MEDIA_TYPE)

    @app.exception_handler(ValueError)
    def _bad_value(error: ValueError) -> Response[str]:
        # Powertools raises a bare ValueError for a multipart body without a boundary (found by
        # schemathesis): the caller's mistake, as any other media type than JSON is. Any other
        # ValueError is ours.
        if _content_type(app.current_event.raw_event).startswith("multipart/"):
            return _error(415, UNSUPPORTED_MEDIA_TYPE)
        return _internal(error)

    @app.not_found
    def _no_route(_: NotFoundError) -> Response[str]:
        app.context[_UNMATCHED] = True
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

    @app.exception_handler(RecursionError)
    def _too_deep(error: RecursionError) -> Response[str]:
        # json.loads recurses once per level: a body nested thousands deep exhausts the stack while
        # Powertools parses it. That is the caller's mistake; a RecursionError anywhere else is ours.
        if _nesting_exceeds(_body_text(app.current_event.raw_event), MAX_BODY_NESTING):
            return _error(400, f"body: JSON nested deeper than {MAX_BODY_NESTING} levels")
        return _internal(error)

    @app.exception_handler(Exception)
    def _unexpected(error: Exception) -> Response[str]:
        # A fault of AWS that outlived botocore's retries is a 503 the caller may retry; any other
        # exception (KeyError, a ValidationException of a malformed request…) is a bug: 500.
        fault = unavailable(error)
        if fault is not None:
            fault.__cause__ = error
            return _answer(fault)
        return _internal(error)

    return app


def api_handler(app: Resolver,
                prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> observability.Handler:
    """The function's Lambda handler: `app.resolve` (after `prepare` rewrites the event, if given), with
    API Gateway's request id as the correlation id and metrics per route."""

    def run(event: dict[str, Any], context: LambdaContext,
            invocation: observability.Invocation) -> dict[str, Any]:
        app.matched_route = None
        prepared = prepare(event) if prepare else event
        try:
            response = app.resolve(prepared, context)
            if app.unmatched and app.include_deferred():
                # Perhaps a route of a module not imported yet (Resolver.include_later). The first answer
                # was the resolver's 404, which changed nothing: ask again with every route included.
                response = app.resolve(prepared, context)
        finally:
            # The route *template* (`GET /spaces/<spaceId>`), never the path: a dimension value is a
            # CloudWatch metric of its own, and the routes are a fixed few dozen per function while
            # paths (ids) are unbounded.
            invocation.dimensions["route"] = app.matched_route or NO_ROUTE
        invocation.log_fields["status"] = response.get("statusCode")
        return response

    # Under SnapStart the deferred routes and models are built before the snapshot: restored environments
    # pay nothing for them, only `sam local` and environments started without a snapshot do, on first need.
    return observability.observed(app.service, run, correlation_id=observability.gateway_request_id,
                                  before_snapshot=app.build_for_snapshot)
