"""ConversationsWorker: one revision of an ingested conversation → its issues (bindery.engines.insights'
extraction), each assigned to the nearest cluster of the organization or to a new one (incremental
clustering), the clusters' counters, pulse and description moved with them (docs/conversations.md).

Idempotent: a message whose revision is processed already (a duplicate delivery) or replaced by a newer
ingest (which queued its own message) changes nothing. Everything one revision changes is one
transaction, conditioned on the conversation's revision and on the organization's clustering version
(bindery.store.issue_clusters): a worker that lost a race reads again and starts over, so issues are never
duplicated and the counters stay exact. Re-processing a conversation replaces its old issues: they leave
their clusters' counters and profiles (a cluster left with none leaves the listings).

The engine (scikit-learn) is imported on this path only: the API functions never load it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from html.parser import HTMLParser
from typing import Any

from bindery.platform import clock
from bindery.platform.errors import Conflict
from bindery.platform.ids import new_id
from bindery.platform.messages import ConversationMessage
from bindery.store import Op, Transaction, TransactionConflict
from bindery.store import conversation_issues as issue_store
from bindery.store import conversations as conversation_store
from bindery.store import issue_clusters as cluster_store
from bindery.store.conversation_issues import Issue
from bindery.store.conversations import Conversation
from bindery.store.issue_clusters import Cluster, ClusterChange, ClusteringState, Profile

MAX_ISSUES = 8  # per conversation: one transaction holds everything a revision changes (≤ 100 writes)
_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9]*(\s[^<>]*)?/?>")
ATTEMPTS = 5  # rounds lost to other workers of the same organization before SQS delivers it again


def iso_week(timestamp: str) -> str:
    """`YYYY-Www`, the ISO week of a wire timestamp (the key of a cluster's weekly counters)."""
    return clock.iso_week(datetime.fromisoformat(timestamp.replace("Z", "+00:00")))


class _Text(HTMLParser):
    """The text of an HTML body: a block element ends a line; scripts and styles are not text."""

    BLOCKS = frozenset({"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote",
                        "pre", "ul", "ol", "table"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skipping += 1
        elif tag in self.BLOCKS:
            self.chunks.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skipping = max(0, self.skipping - 1)
        elif tag in self.BLOCKS:
            self.chunks.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.chunks.append(data)


def plain_text(body: str) -> str:
    """A part's body as the extractor reads it: parts are "Markdown or HTML" (the spec), and the
    integrations that ingest support threads mostly send HTML; Markdown passes through as it is."""
    if not _TAG.search(body):
        return body
    parser = _Text()
    parser.feed(body)
    parser.close()
    return "".join(parser.chunks).strip()


def _extract(conversation: Conversation, parts: list[dict[str, str]]) -> list[tuple[str, str]]:
    from bindery.engines.insights.extraction import extract_issues
    from bindery.engines.insights.model import Message

    messages = [Message(role=part["role"], text=plain_text(part["body"])) for part in parts]
    found = extract_issues(subject=conversation.subject, messages=messages)
    return [(issue.title, issue.summary) for issue in found[:MAX_ISSUES]]


@dataclass
class _Plan:
    """The writes of one revision's processing, built up issue by issue."""

    conversation: Conversation
    stored: dict[str, Profile]
    now: str
    ops: list[Op] = field(default_factory=list)
    entries: list[dict[str, str]] = field(default_factory=list)
    changes: dict[str, ClusterChange] = field(default_factory=dict)
    samples: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    before: dict[str, int] = field(default_factory=dict)  # the conversation's issues per cluster, old
    after: dict[str, int] = field(default_factory=dict)  # and new
    created: set[str] = field(default_factory=set)
    reshaped: set[str] = field(default_factory=set)  # the clusters whose profile an issue joined or left
    written: dict[str, Profile] = field(default_factory=dict)  # the profiles put
    deleted: set[str] = field(default_factory=set)  # and deleted
    stamp: str = field(default_factory=new_id)  # the clustering state this plan writes

    def move(self, cluster_id: str, week: str, delta: int) -> None:
        moved = self.changes.setdefault(cluster_id, ClusterChange(cluster_id))
        source = self.conversation.source
        moved.issues += delta
        moved.sources[source] = moved.sources.get(source, 0) + delta
        moved.weeks[week] = moved.weeks.get(week, 0) + delta
        counts = self.after if delta > 0 else self.before
        counts[cluster_id] = counts.get(cluster_id, 0) + 1

    def remove_old(self) -> None:
        for entry in self.conversation.issues:
            self.move(entry["cluster"], entry["week"], -1)
            kept = self.samples.get(entry["cluster"], [])
            self.samples[entry["cluster"]] = [s for s in kept if s["id"] != entry["id"]]
            self.ops.append(issue_store.delete_op(entry["id"]))

    def add(self, cluster_id: str, title: str, summary: str) -> None:
        conversation, week, issue_id = self.conversation, iso_week(self.conversation.created_at), new_id()
        self.move(cluster_id, week, 1)
        self.samples.setdefault(cluster_id, []).append({"id": issue_id, "title": title, "summary": summary})
        # The text too: re-processing takes the issue back out of its cluster's profile (_release_old).
        self.entries.append({"id": issue_id, "cluster": cluster_id, "week": week, "title": title,
                             "summary": summary})
        self.ops.append(issue_store.put_op(Issue(
            id=issue_id, org_id=conversation.org_id, conversation_id=conversation.id, cluster_id=cluster_id,
            title=title, summary=summary, created_at=self.now, ingested_at=conversation.ingested_at)))

    def clusters(self, profiles: dict[str, Any]) -> None:
        """Each cluster the revision touched: its counters and description (or out of the listings)."""
        from bindery.engines.insights.description import describe
        from bindery.engines.insights.model import ExtractedIssue

        org_id = self.conversation.org_id
        existing = cluster_store.get_clusters(set(self.changes) - self.created)
        for cluster_id, moved in self.changes.items():
            moved.conversations = (int(self.after.get(cluster_id, 0) > 0)
                                   - int(self.before.get(cluster_id, 0) > 0))
            kept = self.samples.get(cluster_id, [])[-cluster_store.MAX_SAMPLES:]
            found = existing.get(cluster_id)
            if found is not None and found.issues + moved.issues <= 0:
                self.ops.append(cluster_store.change_op(found, moved, emptied=True))
                self.ops.append(cluster_store.profile_delete_op(org_id, cluster_id))
                self.deleted.add(cluster_id)
                continue
            described = describe([ExtractedIssue(title=s["title"], summary=s["summary"]) for s in kept])
            cluster = found or Cluster(id=cluster_id, org_id=org_id, label="", summary="", icon="",
                                       created_at=self.now, updated_at=self.now)
            cluster.label, cluster.summary, cluster.icon = described.label, described.summary, described.icon
            cluster.updated_at = self.now
            self.ops.append(cluster_store.change_op(cluster, moved, emptied=False) if found
                            else cluster_store.create_op(cluster, moved))
            old = self.stored.get(cluster_id)
            if cluster_id in self.reshaped or old is None or kept != old.samples:
                profile = Profile(cluster_id, profiles[cluster_id].to_json(), kept)
                self.ops.append(cluster_store.profile_put_op(org_id, profile))
                self.written[cluster_id] = profile


class ProfileCache:
    """A worker process's copy of its organizations' cluster profiles, valid while the organization's
    clustering state has the stamp it was read or written at (bindery.store.issue_clusters): a warm
    worker reads the profiles again only after another worker changed them, instead of with every
    message. Bounded: the organizations used last."""

    LIMIT = 16

    def __init__(self) -> None:
        self._known: dict[str, tuple[str, dict[str, Profile], dict[str, Any]]] = {}

    def load(self, org_id: str, state: ClusteringState) -> tuple[dict[str, Profile], dict[str, Any]]:
        """The stored profiles and the engine's parsed ones (copies: the caller may change them)."""
        known = self._known.get(org_id)
        if known is None or not state.stamp or known[0] != state.stamp:
            from bindery.engines.insights.clustering import ClusterProfile

            stored = cluster_store.profiles(org_id)
            parsed = {cid: ClusterProfile.from_json(p.profile) for cid, p in stored.items()}
            known = (state.stamp, stored, parsed)
            self.keep(org_id, *known)
        return dict(known[1]), dict(known[2])

    def keep(self, org_id: str, stamp: str, stored: dict[str, Profile], parsed: dict[str, Any]) -> None:
        self._known.pop(org_id, None)
        if len(self._known) >= self.LIMIT:
            self._known.pop(next(iter(self._known)))
        self._known[org_id] = (stamp, stored, parsed)


CACHE = ProfileCache()


def _release_old(conversation: Conversation, profiles: dict[str, Any], changed: set[str]) -> None:
    """Take the conversation's old issues back out of their clusters' profiles, so a cluster is about
    the issues it holds. Entries written before issues kept their text cannot be released."""
    from bindery.engines.insights.clustering import release, signatures
    from bindery.engines.insights.model import ExtractedIssue

    old = [entry for entry in conversation.issues if "title" in entry and entry["cluster"] in profiles]
    hashed = signatures([ExtractedIssue(title=e["title"], summary=e["summary"]) for e in old])
    for entry, sig in zip(old, hashed, strict=True):
        profiles[entry["cluster"]] = release(profiles[entry["cluster"]], sig)
        changed.add(entry["cluster"])


def _plan(conversation: Conversation, extracted: list[tuple[str, str]], state: ClusteringState,
          known: tuple[dict[str, Profile], dict[str, Any]], now: str) -> tuple[_Plan, dict[str, Any]]:
    from bindery.engines.insights.clustering import absorb, nearest, signatures
    from bindery.engines.insights.model import ExtractedIssue

    stored, profiles = known
    plan = _Plan(conversation, stored, now, samples={cid: list(p.samples) for cid, p in stored.items()})
    plan.remove_old()
    _release_old(conversation, profiles, plan.reshaped)
    hashed = signatures([ExtractedIssue(title=title, summary=summary) for title, summary in extracted])
    for (title, summary), sig in zip(extracted, hashed, strict=True):
        cluster_id = nearest(sig, profiles)
        if cluster_id is None:
            cluster_id = new_id()
            plan.created.add(cluster_id)
        # A new cluster is a candidate for the conversation's next issues too.
        profiles[cluster_id] = absorb(profiles.get(cluster_id), sig)
        plan.reshaped.add(cluster_id)
        plan.add(cluster_id, title, summary)
    plan.clusters(profiles)
    issues_delta = len(plan.entries) - len(conversation.issues)
    if issues_delta:
        plan.ops.append(conversation_store.counters_op(conversation.org_id, issues=issues_delta))
    if plan.changes:  # a revision without issues, old or new, touches no cluster: nothing to serialise
        plan.ops.append(cluster_store.state_op(conversation.org_id, state, plan.stamp))
    plan.ops.append(conversation_store.processed_op(conversation, plan.entries, now))
    return plan, profiles


def process(message: ConversationMessage, cache: ProfileCache = CACHE) -> str:
    """Process the message's revision; what happened, for the log line."""
    extracted: list[tuple[str, str]] | None = None
    for _ in range(ATTEMPTS):
        if extracted is None:
            found = conversation_store.get_with_parts(message.conversationId)
        else:  # a lost round: the parts were read and extracted, only the conversation is read again
            again = conversation_store.get_conversation(message.conversationId)
            found = (again, []) if again is not None else None
        if found is None or found[0].org_id != message.organizationId:
            return "gone"
        conversation, parts = found
        if conversation.rev != message.rev:
            return "superseded"
        if conversation.processed_rev == conversation.rev:
            return "duplicate"
        if extracted is None:
            extracted = _extract(conversation, parts)
        state = cluster_store.clustering_state(conversation.org_id)
        known = cache.load(conversation.org_id, state)
        plan, profiles = _plan(conversation, extracted, state, known, clock.now_iso())
        try:
            Transaction(plan.ops).commit()
        except TransactionConflict:
            continue  # another worker moved the clusters (or an ingest the conversation): read again
        if plan.changes:
            stored = {cid: p for cid, p in {**known[0], **plan.written}.items() if cid not in plan.deleted}
            cache.keep(conversation.org_id, plan.stamp, stored,
                       {cid: p for cid, p in profiles.items() if cid not in plan.deleted})
        return "processed"
    raise Conflict("the organization's clusters kept moving; SQS delivers the message again")
