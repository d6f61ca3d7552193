"""API Gateway TOKEN authorizer: `Authorization: Bearer <token>` → the user it belongs to.

API Gateway caches the answer per token (ReauthorizeEvery in template.yaml), so the policy allows every
method of the API and the functions, not the policy, decide what the user may do.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from bindery.domain.access.auth import bearer_token, hash_token
from bindery.domain.sso.token_validity import sso_token_stands
from bindery.platform import observability
from bindery.store.users import token_item


def _api_arn(method_arn: str) -> str:
    # arn:aws:execute-api:region:account:apiId/stage/METHOD/path → every method and path of the stage
    head, _, rest = method_arn.partition("/")
    stage = rest.split("/", 1)[0]
    return f"{head}/{stage}/*/*"


def authorize(event: dict[str, Any], context: LambdaContext,
              invocation: observability.Invocation) -> dict[str, Any]:
    token = bearer_token(event.get("authorizationToken"))
    item = token_item(hash_token(token)) if token else None
    if item and item.get("ssoOrg") and not sso_token_stands(str(item.get("samlProvider") or ""),
                                                             str(item["ssoOrg"])):
        item = None  # its SAML provider was removed, unset or expired: the login it came from is void
    user_id = str(item["userId"]) if item else None
    invocation.counts["Denied"] = int(user_id is None)
    if user_id is None:
        # The exact message "Unauthorized" makes API Gateway answer 401 (the UNAUTHORIZED response).
        raise Exception("Unauthorized")
    return {
        "principalId": user_id,
        "policyDocument": {
            "Version": "2012-10-17",
            "Statement": [{"Action": "execute-api:Invoke", "Effect": "Allow",
                           "Resource": _api_arn(event["methodArn"])}],
        },
        # Context values are strings: "" for a token no SAML login issued; an installation token's
        # installation ("{integration}/{installationId}") and scopes (space-separated), "" for others.
        "context": {"userId": user_id, "ssoOrg": (item or {}).get("ssoOrg") or "",
                    "installation": (item or {}).get("installation") or "",
                    "scopes": " ".join((item or {}).get("scopes") or [])},
    }


# A TOKEN authorizer's event has no request id: its log lines carry Lambda's (function_request_id).
lambda_handler = observability.observed("authorizer", authorize)
