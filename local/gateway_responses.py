"""API Gateway's gateway responses (template.yaml `GatewayResponses`) rendered as API Gateway renders them,
for the local gateway and for the tests that parse every template's body.

A gateway response's body template may use `$context.error.message` (the message, raw),
`$context.error.messageString` (the same message as a quoted JSON string, quotes included) and
`$context.error.responseType`. The status is the response's `StatusCode`, else API Gateway's default for
the type: a template cannot compute it, so each type whose status differs has its own response."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

# Every response type API Gateway has, with its default status and message (AWS, "Gateway response types
# for API Gateway"). DEFAULT_4XX and DEFAULT_5XX apply to any type the API does not configure.
RESPONSE_TYPES: dict[str, tuple[int, str]] = {
    "ACCESS_DENIED": (403, "User is not authorized to access this resource with an explicit deny"),
    "API_CONFIGURATION_ERROR": (500, "Internal server error"),
    "AUTHORIZER_CONFIGURATION_ERROR": (500, "Internal server error"),
    "AUTHORIZER_FAILURE": (500, "Internal server error"),
    "BAD_REQUEST_PARAMETERS": (400, "Missing required request parameters"),
    "BAD_REQUEST_BODY": (400, "Invalid request body"),
    "EXPIRED_TOKEN": (403, "Token is expired"),
    "INTEGRATION_FAILURE": (504, "Internal server error"),
    "INTEGRATION_TIMEOUT": (504, "Endpoint request timed out"),
    "INVALID_API_KEY": (403, "Forbidden"),
    "INVALID_SIGNATURE": (403, "Invalid signature"),
    "MISSING_AUTHENTICATION_TOKEN": (403, "Missing Authentication Token"),
    "QUOTA_EXCEEDED": (429, "Limit Exceeded"),
    "REQUEST_TOO_LARGE": (413, "Request Too Long"),
    "RESOURCE_NOT_FOUND": (404, "Not Found"),
    "THROTTLED": (429, "Too Many Requests"),
    "UNAUTHORIZED": (401, "Unauthorized"),
    "UNSUPPORTED_MEDIA_TYPE": (415, "Unsupported Media Type"),
    "WAF_FILTERED": (403, "Forbidden"),
    "DEFAULT_4XX": (400, "Bad Request"),
    "DEFAULT_5XX": (500, "Internal server error"),
}

_VARIABLE = re.compile(r"\$(?:\{([A-Za-z0-9_.]+)\}|([A-Za-z][A-Za-z0-9_.]*[A-Za-z0-9_]))")


@dataclass(frozen=True)
class Rendered:
    status: int
    headers: dict[str, str]
    body: str


def render_template(template: str, response_type: str, message: str) -> str:
    """The body API Gateway sends for `template`: the `$context.error` variables substituted. Any other
    variable is refused, so a template using one the local gateway cannot fill is caught by the tests."""
    values = {"context.error.message": message, "context.error.messageString": json.dumps(message),
              "context.error.responseType": response_type}

    def substitute(found: re.Match[str]) -> str:
        name = found.group(1) or found.group(2)
        if name not in values:
            raise ValueError(f"{response_type}: gateway response template uses ${name}, not rendered here")
        return values[name]

    return _VARIABLE.sub(substitute, template)


def render(responses: dict[str, dict[str, Any]], response_type: str, message: str | None = None) -> Rendered:
    """The response API Gateway sends for `response_type` given the API's configured `responses`: the
    type's own, else DEFAULT_4XX/DEFAULT_5XX by the type's default status, else API Gateway's default."""
    default_status, default_message = RESPONSE_TYPES[response_type]
    spec = responses.get(response_type)
    if spec is None:
        spec = responses.get("DEFAULT_5XX" if default_status >= 500 else "DEFAULT_4XX", {})
    status = int(spec.get("StatusCode", default_status))
    text = default_message if message is None else message
    template = (spec.get("ResponseTemplates") or {}).get("application/json")
    if template is None:
        body = json.dumps({"message": text})
    else:
        body = render_template(template, response_type, text)
    headers = {"Content-Type": "application/json"}
    # Static header values are quoted ("'1'"), as API Gateway's mapping expressions write them.
    for name, value in ((spec.get("ResponseParameters") or {}).get("Headers") or {}).items():
        headers[name] = str(value).strip("'")
    return Rendered(status, headers, body)
