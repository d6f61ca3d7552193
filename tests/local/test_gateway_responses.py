"""Every gateway response of the v1 API, rendered with API Gateway's substitution, is the API's error shape
(`{"error": {"code", "message"}}`, tests/reference's `Error`) with `code` equal to the status sent; the
local gateway answers with the same rendering."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from local.gateway import Gateway
from local.gateway_responses import RESPONSE_TYPES, render, render_template
from local.template import load

REFERENCE = Path(__file__).resolve().parents[1] / "reference" / "gitbook-openapi-0.146.0-seed-ops.json"
# Messages API Gateway may put in $context.error.message: its defaults, and ones that need escaping.
MESSAGES = ["Internal server error", 'Invalid request body: expected "}"', "back\\slash\nnew line", ""]


@pytest.mark.parametrize("response_type", sorted(RESPONSE_TYPES))
@pytest.mark.parametrize("message", MESSAGES)
def test_every_response_type_renders_as_the_error_shape_with_its_status_as_code(response_type, message):
    rendered = render(load().gateway_responses, response_type, message)
    body = json.loads(rendered.body)
    assert body == {"error": {"code": rendered.status, "message": body["error"]["message"]}}
    assert isinstance(body["error"]["message"], str)


def test_the_shape_is_the_official_error_schema():
    spec = json.loads(REFERENCE.read_text())
    error = spec["components"]["schemas"]["Error"]["properties"]["error"]
    assert error["properties"]["code"]["type"] == "integer"
    assert set(error["required"]) == {"code", "message"}


def test_every_response_type_is_configured_with_a_status():
    responses = load().gateway_responses
    assert set(responses) == set(RESPONSE_TYPES)
    for name, spec in responses.items():
        assert "StatusCode" in spec, name
        assert json.loads(render(responses, name).body)["error"]["code"] == spec["StatusCode"], name


def test_the_message_is_relayed_once_quoted():
    # The defect this guards: quotes around messageString made `""Internal server error""`.
    template = '{"error":{"code":500,"message":$context.error.messageString}}'
    assert json.loads(render_template(template, "DEFAULT_5XX", 'say "hi"')) == {
        "error": {"code": 500, "message": 'say "hi"'}}
    with pytest.raises(json.JSONDecodeError):
        json.loads(render_template('{"message":"$context.error.messageString"}', "DEFAULT_5XX", "x"))
    with pytest.raises(ValueError, match=r"context\.requestId"):
        render_template('{"id":"$context.requestId"}', "DEFAULT_5XX", "x")


def test_the_local_gateway_answers_with_the_rendered_response():
    reply = Gateway().dispatch("GET", "/v1/no/such/route")
    expected = render(load().gateway_responses, "MISSING_AUTHENTICATION_TOKEN")
    assert (reply.status, reply.body.decode()) == (expected.status, expected.body)
    assert reply.json()["error"]["code"] == reply.status == 404
