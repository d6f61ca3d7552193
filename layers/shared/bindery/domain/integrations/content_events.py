"""Events about a space, told to every installation set up on that space: `space_content_updated` (a
new revision: an edit, a merge, a Git Sync import, a template, a translation's result),
`space_gitsync_started` / `space_gitsync_completed` (bindery.domain.git_sync.runs) and
`space_visibility_updated` (bindery.domain.tree).

Recorded right after the change, not in its transaction: the move is one conditional UpdateItem (or a
transaction the merge needs whole), and a space may have more installations than a transaction holds
items. So it costs the writer one Query of the space's installations (GSI1 `SPACE#{id}#INTEGRATIONS`,
usually empty), and only when there are some, one BatchWriteItem per 25 events and one
SendMessageBatch per 10. A writer that records several events about one change (a Git Sync run) queries
once and passes the setups on (`Setups`). Each event's id is derived from what it reports (the revision,
the run) and the installation, so writing it again changes nothing. A failure here is logged, not raised:
the change is committed and answering 500 would invite a retry of a change that succeeded; the lost
events are the cost.

The official spec ties no event to a scope, so every space installation receives them; an installation
with `space_selection: all` and no setup on the space receives none (it declared no interest in the
space's events, and finding such installations would cost every writer a second Query).
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools import Logger
from botocore.exceptions import BotoCoreError, ClientError

from bindery.domain.integrations import events
from bindery.platform.ids import derived_id
from bindery.store import integration_events as event_store
from bindery.store import integration_installations as install_store
from bindery.store.integration_installations import ContentInstallation

logger = Logger(service="integrations")
KIND = "space_content_updated"
Setups = list[ContentInstallation]


def space_event(space_id: str, kind: str, key: str, *, names: tuple[str, ...] = (),
                setups: Setups | None = None, **fields: Any) -> Setups | None:
    """Record the event `kind` (official type name; `fields` its payload beyond `spaceId`) for every
    installation set up on the space; `key` (an id of new_id's) and `names` say what it reports, and the
    event ids derive from them. Returns the setups it found, for the next event about the same change
    (None when they could not be read)."""
    try:
        if setups is None:
            setups = install_store.installed_on("space", space_id)
        if not setups:
            return setups
        recorded = events.Recorded([
            event for setup in setups
            for event in events.event(setup.integration, setup.installation_id, setup.org_id, kind,
                                      event_id=derived_id(key, *names, setup.integration,
                                                          setup.installation_id),
                                      spaceId=space_id, **fields).events])
        event_store.put_events(recorded.events)
        recorded.queue()
    except (BotoCoreError, ClientError):
        logger.exception(f"could not record {kind} events", extra={"spaceId": space_id, "key": key})
        return None
    return setups


def space_content_updated(space_id: str, revision_id: str, *, setups: Setups | None = None) -> None:
    space_event(space_id, KIND, revision_id, setups=setups, revisionId=revision_id)
