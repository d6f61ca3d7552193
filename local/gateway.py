"""An in-process stand-in for API Gateway's REST API: route matching as API Gateway does it, the TOKEN
authorizer, REST proxy events, gateway responses from template.yaml, and the deployed size limits."""

from __future__ import annotations

import base64
import importlib
import json
import os
import threading
import time
import uuid
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import parse_qs, urlsplit

from local import gateway_responses
from local.lambda_runtime import LambdaContext, load_handler
from local.template import V1_API, Function, Route, Template, load

API_GATEWAY_MAX_BODY = 10 * 1024 * 1024
# Lambda's synchronous payload limit is 6 MB for the whole event; the body is what a caller controls.
LAMBDA_MAX_PAYLOAD = 6 * 1024 * 1024
STAGE = "v1"
MISSING_TOKEN = b'{"message":"Missing Authentication Token"}'


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


# bench.load's own runner only: a module whose `functions()` adds bare handlers to the routes (the floor
# each operation is measured against, in the same runner and environments); unset, only template.yaml's.
BENCH_FUNCTIONS = "BINDERY_BENCH_FUNCTIONS"


def served_template() -> Template:
    """template.yaml's functions, plus those of the module BINDERY_BENCH_FUNCTIONS names (bench.load sets
    it for the runner it starts; a deployed stack and `make run` never have them)."""
    template = load()
    module = os.environ.get(BENCH_FUNCTIONS)
    if not module:
        return template
    extra: dict[str, Function] = importlib.import_module(module).functions()
    return replace(template, functions={**template.functions, **extra})


def _specificity(route: Route) -> tuple[int, ...]:
    # API Gateway prefers literal segments to {params}, and {params} to {proxy+}, level by level.
    ranks = [2 if seg.endswith("+}") else 1 if seg.startswith("{") else 0 for seg in route.segments]
    return (*ranks, 3)


def match(routes: list[Route], method: str, path: str) -> tuple[Route, dict[str, str]] | None:
    parts = [part for part in path.split("/") if part]
    candidates: list[tuple[tuple[int, ...], int, Route, dict[str, str]]] = []
    for route in routes:
        params = _match_segments(route.segments, parts)
        if params is None or route.method not in (method, "ANY"):
            continue
        candidates.append((_specificity(route), 0 if route.method == method else 1, route, params))
    if not candidates:
        return None
    candidates.sort(key=lambda c: (c[0], c[1]))
    return candidates[0][2], candidates[0][3]


def _match_segments(segments: list[str], parts: list[str]) -> dict[str, str] | None:
    params: dict[str, str] = {}
    for index, segment in enumerate(segments):
        if segment.endswith("+}"):
            rest = parts[index:]
            if not rest:
                return None
            params[segment[1:-2]] = "/".join(rest)
            return params
        if index >= len(parts):
            return None
        if segment.startswith("{"):
            params[segment[1:-1]] = parts[index]
        elif segment != parts[index]:
            return None
    return params if len(parts) == len(segments) else None


@dataclass
class Gateway:
    template: Template = field(default_factory=served_template)
    # The runner caches the authorizer's answer per token for the template's ReauthorizeEvery, as API
    # Gateway does; tests leave it off so that every request sees the authorizer's current answer.
    cache_authorizer: bool = False
    _handlers: dict[str, Any] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _authorized: dict[str, tuple[float, dict[str, Any] | Reply]] = field(default_factory=dict)

    def _handler(self, function: Function) -> Any:
        with self._lock:
            if function.name not in self._handlers:
                self._handlers[function.name] = load_handler(function)
            return self._handlers[function.name]

    def _gateway_response(self, kind: str) -> Reply:
        rendered = gateway_responses.render(self.template.gateway_responses, kind)
        return Reply(rendered.status, rendered.headers, rendered.body.encode())

    def _authorize(self, authorization: str | None) -> dict[str, Any] | Reply:
        if self.template.authorizer is None:
            return {}
        if not authorization:
            return self._gateway_response("UNAUTHORIZED")
        if not self.cache_authorizer:
            return self._run_authorizer(self.template.authorizer, authorization)[0]
        now = time.monotonic()
        cached = self._authorized.get(authorization)
        if cached is not None and cached[0] > now:
            return cached[1]
        answer, is_policy = self._run_authorizer(self.template.authorizer, authorization)
        # API Gateway caches the policy the authorizer returned (Allow or Deny), not its failures.
        if is_policy:
            with self._lock:
                if len(self._authorized) > 10_000:  # bounded: expired entries go first
                    self._authorized = {k: v for k, v in self._authorized.items() if v[0] > now}
                self._authorized[authorization] = (now + self.template.authorizer_ttl, answer)
        return answer

    def _run_authorizer(self, name: str, authorization: str) -> tuple[dict[str, Any] | Reply, bool]:
        """The authorizer's answer, and whether it was a policy (which API Gateway caches)."""
        handler = self._handler(self.template.functions[name])
        event = {"type": "TOKEN", "authorizationToken": authorization,
                 "methodArn": "arn:aws:execute-api:us-east-1:000000000000:local/v1/GET/"}
        try:
            policy = handler(event, LambdaContext(name))
        except Exception as error:  # noqa: BLE001 - API Gateway turns any authorizer failure into a response
            if str(error) == "Unauthorized":
                return self._gateway_response("UNAUTHORIZED"), False
            # What API Gateway answers when a Lambda authorizer fails (a 500 unless the template says
            # otherwise; Bindery's says 503, since what fails there is the token lookup in DynamoDB).
            return self._gateway_response("AUTHORIZER_CONFIGURATION_ERROR"), False
        statements = policy.get("policyDocument", {}).get("Statement", [])
        if not statements or any(s.get("Effect") != "Allow" for s in statements):
            return self._gateway_response("ACCESS_DENIED"), True
        return {"principalId": policy.get("principalId"), **(policy.get("context") or {})}, True

    def _no_route(self, api: str) -> Reply:
        if api != V1_API:
            # API Gateway's own answer on an API without gateway responses (the readers' pages).
            return Reply(403, {"Content-Type": "application/json"}, MISSING_TOKEN)
        return self._gateway_response("MISSING_AUTHENTICATION_TOKEN")

    def dispatch(self, method: str, target: str, headers: dict[str, str] | None = None,
                 body: bytes | None = None) -> Reply:
        headers = dict(headers or {})
        url = urlsplit(target)
        stage = url.path.split("/", 2)[1] if url.path.startswith("/") else ""
        api = self.template.api_of_stage(stage)
        if api is None:
            return self._gateway_response("MISSING_AUTHENTICATION_TOKEN")
        path = url.path[len(stage) + 1:] or "/"
        if body and len(body) > API_GATEWAY_MAX_BODY:
            return self._gateway_response("REQUEST_TOO_LARGE")
        found = match(self.template.routes_of(api), method.upper(), path)
        if found is None:
            return self._no_route(api)
        route, params = found
        lower = {k.lower(): v for k, v in headers.items()}
        # Only the v1 API has the token authorizer (the readers' API has none at all).
        authorizer = {} if route.public or api != V1_API else self._authorize(lower.get("authorization"))
        if isinstance(authorizer, Reply):
            return authorizer
        if body and len(body) > LAMBDA_MAX_PAYLOAD:
            return self._gateway_response("REQUEST_TOO_LARGE")
        event = build_event(method.upper(), path, route, params, headers=headers, query=url.query, body=body,
                            authorizer=authorizer, stage=stage)
        function = self.template.functions[route.function]
        result = self._handler(function)(event, LambdaContext(function.name))
        return _reply(result)


def build_event(method: str, path: str, route: Route, params: dict[str, str], *, headers: dict[str, str],
                query: str, body: bytes | None, authorizer: dict[str, Any],
                stage: str = STAGE) -> dict[str, Any]:
    """A REST API proxy event, shaped as API Gateway sends it."""
    multi_query = parse_qs(query, keep_blank_values=True)
    text: str | None = None
    is_base64 = False
    if body:
        try:
            text = body.decode()
        except UnicodeDecodeError:
            text, is_base64 = base64.b64encode(body).decode(), True
    return {
        "resource": route.path,
        "path": path,
        "httpMethod": method,
        "headers": headers or None,
        "multiValueHeaders": {k: [v] for k, v in headers.items()} or None,
        "queryStringParameters": {k: v[-1] for k, v in multi_query.items()} or None,
        "multiValueQueryStringParameters": multi_query or None,
        "pathParameters": params or None,
        "stageVariables": None,
        "requestContext": {
            "resourcePath": route.path,
            "httpMethod": method,
            "path": f"/{stage}{path}",
            "stage": stage,
            "requestId": str(uuid.uuid4()),
            "accountId": "000000000000",
            "apiId": "local",
            "domainName": headers.get("Host") or headers.get("host") or "127.0.0.1",
            "identity": {"sourceIp": "127.0.0.1"},
            "authorizer": authorizer or None,
        },
        "body": text,
        "isBase64Encoded": is_base64,
    }


def _reply(result: dict[str, Any]) -> Reply:
    headers = {k: str(v) for k, v in (result.get("headers") or {}).items()}
    for key, values in (result.get("multiValueHeaders") or {}).items():
        headers[key] = ", ".join(str(v) for v in values)
    raw = result.get("body") or ""
    body = base64.b64decode(raw) if result.get("isBase64Encoded") else raw.encode()
    return Reply(int(result.get("statusCode", 200)), headers, body)
