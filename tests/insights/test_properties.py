"""Whatever users write (any Unicode, any role, empty texts), extraction and clustering answer within
their bounds and never fail."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bindery.engines.insights.clustering import ClusterProfile, Signature, absorb, nearest, signature
from bindery.engines.insights.description import describe
from bindery.engines.insights.extraction import builtin_issues
from bindery.engines.insights.model import SUMMARY_MAX, TITLE_MAX, Message

roles = st.sampled_from(["user", "assistant", "team-member", "bot", ""])
texts = st.text(max_size=400) | st.sampled_from(["Why does the export fail?", "Thanks!", "", "```\nx\n```"])
conversations = st.lists(st.builds(Message, roles, texts), max_size=6)


@settings(max_examples=60, deadline=None)
@given(subject=st.none() | texts, messages=conversations)
def test_extraction_stays_in_bounds(subject, messages):
    issues = builtin_issues(subject=subject, messages=messages)
    assert len(issues) <= 5
    for issue in issues:
        assert issue.title.strip()
        assert len(issue.title) <= TITLE_MAX
        assert len(issue.summary) <= SUMMARY_MAX
    if not any(m.role == "user" and m.text.strip() for m in messages) and not (subject or "").strip():
        assert issues == []


@settings(max_examples=40, deadline=None)
@given(subject=texts, messages=conversations)
def test_clustering_takes_any_issue(subject, messages):
    broken = Message("user", "The login page is broken.")
    issues = builtin_issues(subject=subject, messages=[*messages, broken])
    profiles: dict[str, ClusterProfile] = {}
    for issue in issues:
        sig = signature(issue)
        assert Signature.from_json(sig.to_json()) == sig
        target = nearest(sig, profiles) or f"c{len(profiles)}"
        profiles[target] = absorb(profiles.get(target), sig)
        assert ClusterProfile.from_json(profiles[target].to_json()) == profiles[target]
    assert len(describe(issues).icon) <= 50
