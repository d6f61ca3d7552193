"""How the content routes show what the domain read (the domain's results carry the records, bindery.api.wire
shapes them): the wire's `View` of a revision read, a change request with the users it names, and link
checks and backlinks with what their locations embed."""

from __future__ import annotations

from bindery.api.wire.change_requests import change_request_to_wire
from bindery.api.wire.content import View
from bindery.api.wire.links import Where, locations_to_wire, usages_to_wire, where
from bindery.api.wire.models.change_requests import ChangeRequest
from bindery.api.wire.models.content import ContentLocationList, ContentReferenceUsageList
from bindery.domain.change_requests.records import ChangeRequestView
from bindery.domain.content_reads import Opened
from bindery.domain.links import Backlinks, Links, Scene


def view_of(opened: Opened) -> View:
    return View(opened.space.id, opened.revision.id, opened.current, opened.metadata)


def change_request_of(view: ChangeRequestView) -> ChangeRequest:
    return ChangeRequest.model_validate(
        change_request_to_wire(view.change_request, view.users, outdated=view.outdated))


def _where(scene: Scene, change_request: ChangeRequest | None) -> Where:
    return where(scene.organization, scene.org_role, scene.space, scene.space_role,
                 revision_id=scene.revision.id, current=scene.current, change_request=change_request)


def links_of(found: Links, change_request: ChangeRequest | None = None) -> ContentReferenceUsageList:
    """`change_request`: the change request whose revision was read (each location names it)."""
    return usages_to_wire(_where(found.scene, change_request), found.usages, total=found.stats.total,
                          broken=found.stats.broken, broken_by_change_request=found.stats.change_request)


def backlinks_of(found: Backlinks, change_request: ChangeRequest | None = None) -> ContentLocationList:
    return locations_to_wire(_where(found.scene, change_request), found.locations)
