"""A cluster's label, summary and icon, derived from its issues (docs/conversations.md, "Clustering").

The label is the title of the cluster's most central issue (the one whose signature is the most similar
to the cluster's profile): the problem in a user's own plain words rather than a bag of keywords. The
summary is what the issues share: the most central sentence of each of the most central issues (at most
SUMMARY_SENTENCES, from different users, the central issue's first), so it says the problem as several
people put it rather than one user's details. The icon is a Font Awesome name (the icon names of the API,
e.g. `gear`) chosen by the topic words the issues use most."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bindery.engines.insights.model import SUMMARY_MAX, ExtractedIssue, shorten

if TYPE_CHECKING:
    from bindery.engines.insights.clustering import ClusterProfile

LABEL_MAX = 100
# How many issues are read to describe a cluster: the first ones say what it is about.
SAMPLE = 200
# Sentences of the summary, each from another issue: enough to show what they share, short to read.
SUMMARY_SENTENCES = 3
DEFAULT_ICON = "circle-question"
# Topic words → icon, first match wins on equal counts (the order is the tie-break).
ICONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("lock", ("login", "log in", "logged", "password", "sign in", "signin", "sso", "saml", "auth",
              "2fa", "authentication", "credentials", "locked")),
    ("credit-card", ("billing", "invoice", "payment", "pay", "charged", "subscription", "plan", "refund",
                     "price", "pricing", "trial")),
    ("user-group", ("invite", "member", "members", "team", "permission", "permissions", "role", "access",
                    "seat", "seats", "owner")),
    ("file-export", ("export", "pdf", "download", "print")),
    ("arrows-rotate", ("sync", "git", "github", "gitlab", "import", "merge", "branch", "commit")),
    ("magnifying-glass", ("search", "find", "index", "results")),
    ("gauge", ("slow", "performance", "timeout", "latency", "loading", "speed", "memory", "cpu")),
    ("plug", ("api", "token", "webhook", "integration", "plugin", "extension", "endpoint")),
    ("globe", ("domain", "dns", "url", "site", "website", "published", "publish", "ssl", "https")),
    ("wifi", ("network", "wifi", "wireless", "connection", "internet", "proxy", "vpn", "ethernet")),
    ("display", ("screen", "display", "monitor", "resolution", "graphics", "driver", "gpu", "nvidia")),
    ("hard-drive", ("disk", "partition", "drive", "usb", "mount", "boot", "grub", "install", "installer")),
    ("volume-high", ("sound", "audio", "speaker", "microphone", "volume")),
    ("bug", ("crash", "crashes", "bug", "broken", "error", "exception", "fails", "failed", "freeze")),
)
_WORDS = re.compile(r"[a-z0-9]+(?:[ -][a-z0-9]+)?")


@dataclass(frozen=True)
class ClusterDescription:
    label: str
    summary: str
    icon: str  # a Font Awesome icon name, ≤ 50 characters


def icon_for(texts: Sequence[str]) -> str:
    """The icon of the topic the texts mention most often (DEFAULT_ICON when none)."""
    counts: Counter[str] = Counter()
    for text in texts:
        lowered = f" {text.lower()} "
        for icon, words in ICONS:
            counts[icon] += sum(1 for word in words if re.search(rf"\b{re.escape(word)}\b", lowered))
    # The most mentioned topic; on equal counts the one listed first in ICONS.
    best = max(ICONS, key=lambda entry: (counts[entry[0]], -ICONS.index(entry)))[0]
    return best if counts[best] > 0 else DEFAULT_ICON


def describe(issues: Sequence[ExtractedIssue]) -> ClusterDescription:
    """Label, summary and icon of a cluster holding `issues` (oldest first; at least one)."""
    from bindery.engines.insights.clustering import absorb, lexical_matrix, signatures

    if not issues:
        raise ValueError("a cluster has at least one issue")
    sample = list(issues[:SAMPLE])
    hashed = signatures(sample, meaning=False)
    profile = None
    for sig in hashed:
        profile = absorb(profile, sig)
    assert profile is not None
    scores = [row[0] for row in lexical_matrix(hashed, [profile])]
    ranked = sorted(range(len(sample)), key=lambda i: (-scores[i], i))
    central = sample[ranked[0]]
    return ClusterDescription(label=shorten(central.title, LABEL_MAX),
                              summary=shared_summary([sample[i] for i in ranked], profile),
                              icon=icon_for([f"{issue.title} {issue.summary}" for issue in sample]))


def shared_summary(ranked: Sequence[ExtractedIssue], profile: ClusterProfile) -> str:
    """The summary of a cluster whose issues are `ranked` most central first: each issue's sentence
    nearest the cluster's profile, from the first SUMMARY_SENTENCES issues that have one, whole sentences
    within SUMMARY_MAX. A sentence another one already says (the same words) is left out."""
    from bindery.engines.insights.clustering import lexical_matrix, signatures
    from bindery.engines.insights.sentences import split

    if len(ranked) == 1:  # one user's words: nothing shared to pick from, the whole summary says most
        return shorten(ranked[0].summary, SUMMARY_MAX)
    # The candidates of the first issues that can give a sentence, hashed and compared in one batch (a
    # worker describes every cluster a conversation touches).
    candidates = [(rank, text) for rank, issue in enumerate(ranked[:2 * SUMMARY_SENTENCES])
                  for text in ([sentence.text for sentence in split([issue.summary])] or [issue.summary])
                  if text.strip()]
    hashed = signatures([ExtractedIssue(text, "") for _, text in candidates], meaning=False)
    scores = [row[0] for row in lexical_matrix(hashed, [profile])] if hashed else []
    best: dict[int, tuple[float, int]] = {}  # rank → (score, candidate index) of its nearest sentence
    for index, ((rank, _), found) in enumerate(zip(candidates, scores, strict=True)):
        if rank not in best or found > best[rank][0]:
            best[rank] = (found, index)
    chosen: list[str] = []
    for rank in sorted(best):
        text = candidates[best[rank][1]][1]
        if text not in chosen:
            chosen.append(text)
        if len(chosen) == SUMMARY_SENTENCES:
            break
    summary = ""
    for sentence in chosen:
        longer = f"{summary} {sentence}".strip()
        if len(longer) > SUMMARY_MAX:
            break
        summary = longer
    # The central issue's summary alone is longer than SUMMARY_MAX: cut, as extraction would.
    return summary or shorten(chosen[0] if chosen else ranked[0].summary, SUMMARY_MAX)
