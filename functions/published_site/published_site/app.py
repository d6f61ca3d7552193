"""Published-site function: readers' web pages of published sites, on the readers' API (stage `sites`,
no authorizer; docs/published-sites.md), and their answers for AI tools (docs/agents.md). Not a JSON API:
every answer is a page, a redirect, a stylesheet or text, so there is no Powertools resolver here, only
the shared logs, trace and metrics. Each route module answers the paths it holds (None for the others);
the first that answers wins, and the HTML pages come last. The one exception, the site's MCP server
(`POST …/~gitbook/mcp`), has its own module (mcp_route)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import partial
from typing import Any
from urllib.parse import unquote

from aws_lambda_powertools.utilities.typing import LambdaContext

from bindery.engines.site_pages.page_view import content_security_policy
from bindery.engines.site_pages.site_request import Reply, SiteRequest
from bindery.platform import observability
from published_site import markdown_routes, mcp_route, page_routes

SERVICE = "published-site"
ROUTES: tuple[Callable[[SiteRequest], Reply | None], ...] = (
    markdown_routes.route,
    page_routes.route,  # last: every other path
)


def _request(event: dict[str, Any]) -> SiteRequest:
    headers = {str(k).lower(): str(v) for k, v in (event.get("headers") or {}).items()}
    context = event.get("requestContext") or {}
    stage = str(context.get("stage") or "")
    # On the API's own domain the stage is the path's first segment; behind a custom domain it is not.
    prefix = f"/{stage}" if stage and str(context.get("path") or "").startswith(f"/{stage}/") else ""
    path = str(event.get("path") or "/")
    segments = tuple(unquote(part) for part in path.split("/") if part)
    query = {str(k): str(v) for k, v in (event.get("queryStringParameters") or {}).items()}
    return SiteRequest(host=headers.get("host", ""), stage_prefix=prefix, segments=segments, query=query,
                       cookie_header=headers.get("cookie"), if_none_match=headers.get("if-none-match"),
                       secure=headers.get("x-forwarded-proto") == "https")


def _response(reply: Reply) -> dict[str, Any]:
    headers = {"Content-Type": reply.content_type, "X-Content-Type-Options": "nosniff",
               "Referrer-Policy": "strict-origin-when-cross-origin",
               # A page that may frame embeds says so in its own reply's headers.
               "Content-Security-Policy": content_security_policy(frames=False),
               **reply.headers}
    response: dict[str, Any] = {"statusCode": reply.status, "headers": headers, "body": reply.body,
                                "isBase64Encoded": False}
    if reply.cookies:
        response["multiValueHeaders"] = {"Set-Cookie": list(reply.cookies)}
    return response


def _run(event: dict[str, Any], context: LambdaContext,
         invocation: observability.Invocation) -> dict[str, Any]:
    request = _request(event)
    if event.get("httpMethod") == "POST":  # the template's one POST route: the site's MCP server
        invocation.dimensions["route"] = "POST /{proxy+}"
        posted = mcp_route.answer(request, {str(k): str(v) for k, v in (event.get("headers") or {}).items()},
                                  event.get("body"))
        invocation.log_fields["status"] = posted["statusCode"]
        return posted
    reply = next(answer for route in ROUTES if (answer := route(request)) is not None)
    invocation.dimensions["route"] = "GET /{proxy+}"  # the template route: paths are unbounded
    invocation.log_fields["status"] = reply.status
    return _response(reply)


# A reader's first search imports the site search (the search engine, SQLite): before a SnapStart
# snapshot, so that restored environments do not.
lambda_handler = observability.observed(
    SERVICE, _run, correlation_id=observability.gateway_request_id,
    before_snapshot=partial(importlib.import_module, "bindery.engines.site_pages.site_search"))
