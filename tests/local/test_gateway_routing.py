"""local.gateway: route precedence as API Gateway applies it, and what the gateway answers by itself
(authorizer failures, unknown paths, the body limits) before any function runs."""

from __future__ import annotations

import json

import pytest

from local import sample_events
from local.gateway import API_GATEWAY_MAX_BODY, LAMBDA_MAX_PAYLOAD, match
from local.lambda_runtime import LambdaContext, WorkerContext, load_handler
from local.queue_delivery import event_sources
from local.stream_records import stream_subscriptions
from local.template import Route, load


def _routes(*specs: str) -> list[Route]:
    return [Route("Fn" + str(index), path, method) for index, spec in enumerate(specs)
            for method, path in [spec.split(" ", 1)]]


def _chosen(routes: list[Route], method: str, path: str) -> str | None:
    found = match(routes, method, path)
    return None if found is None else f"{found[0].method} {found[0].path}"


def test_literal_beats_param_beats_proxy():
    routes = _routes("ANY /orgs/{proxy+}", "ANY /orgs/{organizationId}", "ANY /orgs/mine")
    assert _chosen(routes, "GET", "/orgs/mine") == "ANY /orgs/mine"
    assert _chosen(routes, "GET", "/orgs/abc") == "ANY /orgs/{organizationId}"
    assert _chosen(routes, "GET", "/orgs/abc/members") == "ANY /orgs/{proxy+}"


def test_precedence_is_decided_level_by_level():
    # The literal second segment wins even though the other route is literal deeper down.
    routes = _routes("GET /orgs/{organizationId}/members", "GET /orgs/mine/{proxy+}")
    assert _chosen(routes, "GET", "/orgs/mine/members") == "GET /orgs/mine/{proxy+}"


def test_exact_method_beats_any():
    routes = _routes("ANY /orgs", "GET /orgs")
    assert _chosen(routes, "GET", "/orgs") == "GET /orgs"
    assert _chosen(routes, "POST", "/orgs") == "ANY /orgs"


def test_no_match_is_none():
    routes = _routes("POST /orgs/{organizationId}/join", "GET /orgs", "ANY /users/{proxy+}")
    assert match(routes, "GET", "/orgs/abc/join") is None  # path matches, method does not
    assert match(routes, "GET", "/nowhere") is None
    assert match(routes, "GET", "/users") is None  # {proxy+} needs at least one segment
    assert match(routes, "GET", "/orgs/abc") is None


def test_parameters_are_extracted():
    routes = _routes("ANY /orgs/{organizationId}/members/{proxy+}")
    found = match(routes, "PATCH", "/orgs/o1/members/u1/extra")
    assert found is not None
    assert found[1] == {"organizationId": "o1", "proxy": "u1/extra"}


def _gateway_response(kind: str) -> dict:
    return json.loads(load().gateway_responses[kind]["ResponseTemplates"]["application/json"])


def test_missing_authorization_is_the_templates_401(api):
    reply = api.get("/orgs")
    assert reply.status == 401
    assert reply.json() == _gateway_response("UNAUTHORIZED")
    assert reply.headers["Content-Type"] == "application/json"


def test_unknown_path_is_404_in_error_shape(api):
    reply = api.get("/no-such-thing", token="anything")
    assert reply.status == 404
    assert reply.json() == {"error": {"code": 404, "message": "No such endpoint"}}


def test_path_outside_the_stage_is_404(api):
    for target in ("/orgs", "/v2/orgs", "/v1orgs"):
        reply = api.gateway.dispatch("GET", target, {})
        assert reply.status == 404, target
        assert reply.json()["error"]["code"] == 404


def test_body_over_api_gateway_limit_is_413_before_authorization(api):
    reply = api.post("/orgs", raw=b"x" * (11 * 1024 * 1024))
    assert API_GATEWAY_MAX_BODY < 11 * 1024 * 1024
    assert reply.status == 413
    assert reply.json() == _gateway_response("REQUEST_TOO_LARGE")


def test_body_over_lambda_payload_limit_is_413(api):
    ada = api.user()
    reply = api.post("/orgs", token=ada.token, raw=b"x" * (7 * 1024 * 1024))
    assert LAMBDA_MAX_PAYLOAD < 7 * 1024 * 1024 < API_GATEWAY_MAX_BODY
    assert reply.status == 413
    assert reply.json()["error"]["code"] == 413


def test_committed_sample_events_match_the_template():
    assert sample_events.check() == [], "run `python -m local.sample_events` and commit events/"


@pytest.mark.parametrize("name", sorted(sample_events.generate()))
def test_sample_events_drive_their_function(api, name):
    """What `sam local invoke -e events/<name>` does, with ids of real data substituted."""
    ada = api.org_admin()
    event = json.loads(sample_events.generate(ada.user_id, ada.token, {"organizationId": ada.org_id})[name])
    template = load()
    if "Records" in event:  # a worker's: the sample names no real run, revision or space
        source = event["Records"][0]["eventSourceARN"]
        streamed = ":dynamodb:" in source and next(iter(stream_subscriptions(template)))
        function = template.functions[streamed or next(s.function for s in event_sources(template)
                                                       if source.endswith(f":{s.queue}"))]
        result = load_handler(function)(event, WorkerContext(function.name))
        # The partial batch response Lambda reads with ReportBatchItemFailures: nothing to retry for a
        # message about a run, revision or space that does not exist.
        assert result == {"batchItemFailures": []}
        return
    if event.get("type") == "TOKEN":
        function = template.functions[template.authorizer]
    else:
        api = template.api_of_stage(event["requestContext"]["stage"])
        assert api is not None
        found = match(template.routes_of(api), event["httpMethod"], event["path"])
        assert found is not None
        assert found[0].path == event["resource"]
        function = template.functions[found[0].function]
    result = load_handler(function)(event, LambdaContext(function.name))
    if event.get("type") == "TOKEN":
        assert result["context"] == {"userId": ada.user_id, "ssoOrg": "", "installation": "", "scopes": ""}
    elif function.name in sample_events.CHOSEN:
        assert result["statusCode"] == 200, result
    else:
        # A function whose sample route is picked automatically may need ids the test has no data for;
        # it must still serve that route (Powertools' "No route" 404 means the sample is useless).
        assert "No route for" not in (result.get("body") or ""), \
            f"{function.name} does not serve {event['httpMethod']} {event['resource']}: add it to CHOSEN"
