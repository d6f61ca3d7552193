"""A cluster's label, summary and icon, derived from its issues (docs/conversations.md, "Clustering").

The label and summary are those of the cluster's most central issue (the one whose signature is the most
similar to the cluster's profile): a real user's words rather than a bag of keywords. The icon is a Font
Awesome name (the icon names of the API, e.g. `gear`) chosen by the topic words the issues use most."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bindery.insights.model import SUMMARY_MAX, ExtractedIssue, shorten

LABEL_MAX = 100
# How many issues are read to describe a cluster: the first ones say what it is about.
SAMPLE = 200
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
    from bindery.insights.clustering import absorb, lexical_matrix, signatures

    if not issues:
        raise ValueError("a cluster has at least one issue")
    sample = list(issues[:SAMPLE])
    hashed = signatures(sample, meaning=False)
    profile = None
    for sig in hashed:
        profile = absorb(profile, sig)
    assert profile is not None
    scores = [row[0] for row in lexical_matrix(hashed, [profile])]
    central = sample[max(range(len(sample)), key=lambda i: (scores[i], -i))]
    return ClusterDescription(label=shorten(central.title, LABEL_MAX),
                              summary=shorten(central.summary, SUMMARY_MAX),
                              icon=icon_for([f"{issue.title} {issue.summary}" for issue in sample]))
