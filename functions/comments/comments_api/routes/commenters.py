"""…/commenters: the members who commented on a space or a change request, each once."""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.depends import Depends

from bindery.dependencies import page_limit
from bindery.domain import commenters as domain
from bindery.domain.comment_targets import TargetRef
from bindery.route_params import PageCursor, PageLimit, Who
from comments_api.target import comment_target

router = Router()


@router.get("")
def list_commenters(
    who: Who, target: Annotated[TargetRef, Depends(comment_target)],
    page: PageCursor = None,
    limit: PageLimit = None,
) -> dict[str, Any]:
    return domain.list_commenters(who, target, limit=page_limit(limit), cursor=page)
