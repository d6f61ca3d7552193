"""How the content routes show what the domain read: the wire's `View` of a revision read, and a change
request with the users it names (bindery.api.wire shapes; the domain's results carry the records)."""

from __future__ import annotations

from bindery.api.wire.change_requests import change_request_to_wire
from bindery.api.wire.content import View
from bindery.api.wire.models.change_requests import ChangeRequest
from bindery.domain.content_reads import ChangeRequestView, Opened


def view_of(opened: Opened) -> View:
    return View(opened.space.id, opened.revision.id, opened.current, opened.metadata)


def change_request_of(view: ChangeRequestView) -> ChangeRequest:
    return ChangeRequest.model_validate(
        change_request_to_wire(view.change_request, view.users, outdated=view.outdated))
