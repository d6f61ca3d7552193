"""`space_content_updated`: a space moved to a new revision (an edit, a merge, a Git Sync import, a
template, a translation's result), told to every installation set up on that space.

Recorded right after the change, not in its transaction: the move is one conditional UpdateItem (or a
transaction the merge needs whole), and a space may have more installations than a transaction holds
items. So it costs the writer one Query of the space's installations (GSI1 `SPACE#{id}#INTEGRATIONS`,
usually empty), and only when there are some, one BatchWriteItem per 25 events and one
SendMessageBatch per 10. Each event's id is derived from the revision and the installation, so writing
them again changes nothing. A failure here is logged, not raised: the content change is committed and
answering 500 would invite a retry of a change that succeeded; the lost events are the cost.

The official spec ties no event to a scope, so every space installation receives it; an installation
with `space_selection: all` and no setup on the space receives none (it declared no interest in the
space's events, and finding such installations would cost every writer a second Query).
"""

from __future__ import annotations

from aws_lambda_powertools import Logger
from botocore.exceptions import BotoCoreError, ClientError

from bindery.domain.integrations import events
from bindery.ids import derived_id
from bindery.store import integration_events as event_store
from bindery.store import integration_installations as install_store

logger = Logger(service="integrations")
KIND = "space_content_updated"


def space_content_updated(space_id: str, revision_id: str) -> None:
    try:
        setups = install_store.installed_on("space", space_id)
        if not setups:
            return
        recorded = events.Recorded([
            event for setup in setups
            for event in events.event(setup.integration, setup.installation_id, setup.org_id, KIND,
                                      event_id=derived_id(revision_id, setup.integration,
                                                          setup.installation_id),
                                      spaceId=space_id, revisionId=revision_id).events])
        event_store.put_events(recorded.events)
        recorded.queue()
    except (BotoCoreError, ClientError):
        logger.exception("could not record space_content_updated events",
                         extra={"spaceId": space_id, "revisionId": revision_id})
