"""/email-domains/{emailDomain}/orgs."""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.depends import Depends

from bindery.auth import Caller
from bindery.dependencies import caller
from bindery.domain import organizations as domain

router = Router()


@router.get("/<emailDomain>/orgs")
def orgs_for_domain(emailDomain: str, who: Annotated[Caller, Depends(caller)]) -> dict[str, Any]:  # noqa: N803
    return domain.orgs_for_email_domain(who, emailDomain)
