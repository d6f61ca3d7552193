"""A function's Lambda handler called as API Gateway calls it, for the in-process benches that measure an
execution environment's CPU: the REST proxy event built once (by local.gateway, with the authorizer's
answer for the caller in it, as API Gateway caches that answer per token), then the handler alone on
every call. Route matching, event building and the authorizer are API Gateway's work on AWS, not the
function's, so none of them is in a call.

    authorizer = authorizer_answer(api, who)
    call = handler_call(api, authorizer, f"/spaces/{space_id}/search", query="query=installation")
    call()  # the handler's reply; raises unless it answered 200
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from local.gateway import build_event, match
from local.lambda_runtime import LambdaContext, load_handler
from local.template import V1_API
from tests.client import ApiClient, Identity


def authorizer_answer(api: ApiClient, who: Identity) -> dict[str, Any]:
    """What API Gateway puts in the event's `requestContext.authorizer` for the caller's token: the
    template's authorizer run once, as the gateway runs it (its answer is cached per token under load)."""
    template = api.gateway.template
    assert template.authorizer is not None
    handler = load_handler(template.functions[template.authorizer])
    policy = handler({"type": "TOKEN", "authorizationToken": f"Bearer {who.token}",
                      "methodArn": "arn:aws:execute-api:us-east-1:000000000000:local/v1/GET/"},
                     LambdaContext(template.authorizer))
    return {"principalId": policy.get("principalId"), **(policy.get("context") or {})}


def handler_call(api: ApiClient, authorizer: dict[str, Any], path: str,
                 query: str = "") -> Callable[[], dict[str, Any]]:
    """The function's Lambda handler called with the REST proxy event API Gateway sends for
    `GET /v1{path}?{query}` (built once: the gateway's own work is not the execution environment's)."""
    template = api.gateway.template
    found = match(template.routes_of(V1_API), "GET", path)
    if found is None:
        raise RuntimeError(f"no route for GET {path}")
    route, params = found
    headers = {"Authorization": "Bearer (cached)", "Host": "127.0.0.1"}
    event = build_event("GET", path, route, params, headers=headers, query=query, body=None,
                        authorizer=authorizer)
    function = template.functions[route.function]
    handler, context = load_handler(function), LambdaContext(function.name)

    def call() -> dict[str, Any]:
        reply: dict[str, Any] = handler(event, context)
        if reply.get("statusCode") != 200:
            raise RuntimeError(f"GET {path} answered {reply.get('statusCode')}: {reply.get('body')!r:.200}")
        return reply

    return call
