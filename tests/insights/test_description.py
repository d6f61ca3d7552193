"""A cluster's label and summary say the shared problem in plain words: tried on the twelve support
tickets of tests/data/conversations/support-tickets.json (three problems, four customers each, written
after issue 37), each problem's tickets described as one cluster."""

import pytest

from bindery.engines.insights.description import SUMMARY_SENTENCES, describe
from bindery.engines.insights.extraction import extract_issues
from bindery.engines.insights.model import SUMMARY_MAX, ExtractedIssue, Message
from tests.insights.quality import TICKETS, threads

PROBLEMS = {"reset": ("lock", ("password", "recovery", "reset")),
            "domain": ("globe", ("certificate", "https", "secure")),
            "pdf": ("file-export", ("pdf",))}


def _issues(group: str) -> list[ExtractedIssue]:
    found = []
    for thread in threads(TICKETS):
        if thread.group == group:
            found += extract_issues(subject=thread.subject, messages=[Message("user", thread.text),
                                                                      Message("team-member", thread.reply)])
    return found


@pytest.mark.parametrize("group", sorted(PROBLEMS))
def test_a_cluster_is_titled_by_a_member_and_summarised_by_what_its_members_share(group):
    issues = _issues(group)
    icon, words = PROBLEMS[group]
    described = describe(issues)
    # The label is a customer's own title for the problem, not a list of keyphrases.
    assert described.label in {issue.title for issue in issues}
    # The summary is whole sentences of several customers, each about the problem.
    sources = [issue for issue in issues if any(part in described.summary for part in
                                                 _sentences(issue.summary))]
    assert 2 <= len(sources) <= SUMMARY_SENTENCES
    assert len(described.summary) <= SUMMARY_MAX
    assert any(word in described.summary.lower() for word in words)
    assert described.icon == icon


def test_one_customers_aside_is_not_the_clusters_summary():
    # The central ticket of the password problem adds "We use Outlook at work, if that matters.": a
    # detail of that one customer, which the other three do not share.
    assert "Outlook" not in describe(_issues("reset")).summary


def test_a_cluster_of_one_issue_keeps_its_whole_summary():
    (issue,) = _issues("reset")[:1]
    assert describe([issue]).summary == issue.summary


def _sentences(text: str) -> list[str]:
    from bindery.engines.insights.sentences import split

    return [sentence.text for sentence in split([text])]
