"""/email-domains/{emailDomain}/orgs."""

from __future__ import annotations

from aws_lambda_powertools.event_handler.api_gateway import Router

from bindery.api.responses.organizations import OrganizationsForEmailDomain
from bindery.api.route_params import Who
from bindery.api.wire.organizations import org_model
from bindery.domain import organizations as domain

router = Router()


@router.get("/email-domains/<emailDomain>/orgs")
def orgs_for_domain(emailDomain: str, who: Who) -> OrganizationsForEmailDomain:
    found = domain.orgs_for_email_domain(who, emailDomain)
    return OrganizationsForEmailDomain(organizations=[org_model(view.org, view.role) for view in found])
