"""…/commenters: the members who commented on a space or a change request, each once."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.depends import Depends

from bindery.api.dependencies import page_limit
from bindery.api.route_params import PageCursor, PageLimit, Who
from bindery.api.wire.models.users import OrganizationMemberList
from bindery.domain.comments import commenters as domain
from bindery.domain.comments.targets import TargetRef
from comments_api.target import comment_target

router = Router()


@router.get("")
def list_commenters(
    who: Who, target: Annotated[TargetRef, Depends(comment_target)],
    page: PageCursor = None,
    limit: PageLimit = None,
) -> OrganizationMemberList:
    wire = domain.list_commenters(who, target, limit=page_limit(limit), cursor=page)
    return OrganizationMemberList.model_validate(wire)
