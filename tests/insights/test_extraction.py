"""The built-in extractor: the user's problems, deterministic, none where there is no problem."""

from __future__ import annotations

import pytest

from bindery.engines.insights.extraction import extract_issues, shorten
from bindery.engines.insights.model import SUMMARY_MAX, TITLE_MAX, ExtractedIssue, Message

LOGIN = [
    Message("user", "Hi team,\n\nI cannot log in to my account since yesterday. The password reset email "
                    "never arrives, even in the spam folder."),
    Message("assistant", "Sorry about that! Could you tell us which email address you use? The error "
                         "might be on our side."),
    Message("user", "It's ada@example.com. I tried twice this morning."),
    Message("user", "Thanks!"),
]


def test_a_problem_becomes_one_issue_in_the_users_words():
    issues = extract_issues(subject=None, messages=LOGIN)
    assert len(issues) == 1
    issue = issues[0]
    assert issue.title == "I cannot log in to my account since yesterday."
    assert issue.summary.startswith("I cannot log in to my account since yesterday. The password reset email")
    assert "ada@example.com" in issue.summary  # the user's follow-up is context of the same issue
    assert "Thanks" not in issue.summary
    assert "Hi team" not in issue.title


def test_the_subject_is_the_first_issues_title():
    issues = extract_issues(subject="Password reset email never arrives", messages=LOGIN)
    assert [issue.title for issue in issues] == ["Password reset email never arrives"]


def test_the_same_conversation_gives_the_same_issues():
    assert extract_issues(subject="Login", messages=LOGIN) == extract_issues(subject="Login", messages=LOGIN)


@pytest.mark.parametrize("texts", [
    ["Hi there!", "Thanks a lot for the help, have a nice day."],
    ["Thank you, that fixed it!", "Cheers"],
    ["Hello", "ok thanks"],
    [],
])
def test_no_problem_no_issue(texts):
    assert extract_issues(subject=None, messages=[Message("user", text) for text in texts]) == []


def test_a_pleasant_subject_alone_raises_nothing():
    assert extract_issues(subject="Thanks!", messages=[Message("user", "Thank you so much!")]) == []


def test_a_problem_subject_counts_when_the_messages_say_nothing_more():
    issues = extract_issues(subject="Export to PDF fails", messages=[Message("user", "hi")])
    assert issues == [ExtractedIssue("Export to PDF fails", "Export to PDF fails")]


def test_a_subject_the_user_wrote_about_is_an_issue_even_without_a_cue_word():
    messages = [Message("user", "Hello!"), Message("user", "My invoice shows the old street address.")]
    assert extract_issues(subject="Billing address", messages=messages) == [
        ExtractedIssue("Billing address", "My invoice shows the old street address.")]
    # without a subject, or with only pleasantries, there is nothing to name
    assert extract_issues(subject=None, messages=messages) == []
    assert extract_issues(subject="Billing address", messages=[Message("user", "Thanks!")]) == []


def test_only_the_user_raises_issues():
    messages = [
        Message("assistant", "How can I help? Is your login broken? Errors happen when the cache is stale."),
        Message("team-member", "I cannot reproduce the crash on my side, is the export failing too?"),
        Message("user", "Thanks, have a good day!"),
    ]
    assert extract_issues(subject=None, messages=messages) == []


def test_what_the_user_says_just_before_the_problem_stays_in_its_issue():
    # Issue 37's ticket: the question alone ("Is there anything we need to do?") does not say which problem.
    messages = [Message("user", "We moved to a new plan last month. The custom domain settings page has "
                                "said 'provisioning certificate' for 48 hours. Our CNAME points to your "
                                "host. Is there anything we need to do?")]
    (issue,) = extract_issues(subject=None, messages=messages)
    assert issue.title == "Is there anything we need to do?"
    # The two sentences before the question, not the first one, which is further away.
    assert issue.summary == ("The custom domain settings page has said 'provisioning certificate' for 48 "
                             "hours. Our CNAME points to your host. Is there anything we need to do?")


def test_another_topic_is_another_issue():
    messages = [Message("user", "The search returns no results for words in code blocks. I tried "
                                "re-publishing the site. Also, how do I export a space to PDF?")]
    issues = extract_issues(subject=None, messages=messages)
    assert len(issues) == 2
    assert "search returns no results" in issues[0].title
    assert "re-publishing" in issues[0].summary
    assert "PDF" in issues[1].title
    assert "PDF" not in issues[0].summary


def test_code_blocks_and_quotes_are_not_the_users_sentences():
    text = ("The build fails on every push.\n\n```\nError: cannot find module 'x'\n    at run (a.js:1)\n"
            "```\n\n> Is the problem still there?\n\nIt started after the upgrade.")
    issues = extract_issues(subject=None, messages=[Message("user", text)])
    assert issues == [ExtractedIssue("The build fails on every push.",
                                     "The build fails on every push. It started after the upgrade.")]


def test_titles_and_summaries_are_bounded():
    long = " ".join(["The sidebar does not show the page titles when the window is narrow"] * 40) + "."
    issues = extract_issues(subject=None, messages=[Message("user", long)] * 3)
    assert len(issues[0].title) <= TITLE_MAX
    assert len(issues[0].summary) <= SUMMARY_MAX
    assert issues[0].title.endswith("…")


def test_a_pasted_log_does_not_slow_or_flood_extraction():
    log = "\n".join(f"2026-11-25T10:00:{i % 60:02d} ERROR worker[{i}] timeout after 30s"
                    for i in range(20000))
    issues = extract_issues(subject="Workers time out", messages=[Message("user", log)])
    assert [issue.title for issue in issues] == ["Workers time out"]


def test_shorten_cuts_at_a_word():
    assert shorten("short", 10) == "short"
    assert shorten("a sentence that is too long", 15) == "a sentence…"
    assert len(shorten("x" * 50, 20)) == 20
