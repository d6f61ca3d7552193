"""A Git Sync run's integration events (docs/integrations.md, "Events"): `space_gitsync_started` once the
worker knows the run's commit and revision — an import after it fetched the commit and made the
revision, an export after it made the commit it is about to push — and `space_gitsync_completed`
(`state` `success` or `failure`) when the run ends either way after that. The official payloads require
both `revisionId` and `commitId`, so a run that fails before it knows them (an unreachable repository)
records neither event.

Both events read the space's installations once (bindery.domain.integrations.content_events), and an
import passes them on to its `space_content_updated`, so a run costs the one Query a content change
costs today. Event ids derive from the run: a run attempted again (a retried delivery) records the same
two events, not two more.
"""

from __future__ import annotations

from dataclasses import dataclass

from bindery.domain.integrations.content_events import Setups, space_event

STARTED = "space_gitsync_started"
COMPLETED = "space_gitsync_completed"


@dataclass
class RunEvents:
    """One attempt of one run: what `started` learnt, for `completed`."""

    space_id: str
    run_id: str
    setups: Setups | None = None
    revision: str | None = None
    commit: str | None = None

    def started(self, revision: str, commit: str) -> None:
        self.revision, self.commit = revision, commit
        self.setups = space_event(self.space_id, STARTED, self.run_id, names=(STARTED,),
                                  revisionId=revision, commitId=commit)

    def completed(self, state: str) -> None:
        if self.revision is None or self.commit is None:
            return  # never started: there is no commit and revision to name
        space_event(self.space_id, COMPLETED, self.run_id, names=(COMPLETED,), setups=self.setups,
                    state=state, revisionId=self.revision, commitId=self.commit)
