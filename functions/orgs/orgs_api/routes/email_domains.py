"""/email-domains/{emailDomain}/orgs."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.event_handler.api_gateway import Router

from bindery.domain import organizations as domain
from bindery.route_params import Who

router = Router()


@router.get("/<emailDomain>/orgs")
def orgs_for_domain(emailDomain: str, who: Who) -> dict[str, Any]:  # noqa: N803
    return domain.orgs_for_email_domain(who, emailDomain)
