"""The issues of one conversation, found without a hosted model (docs/conversations.md, "Extraction").

Only the user's messages raise issues; `assistant` and `team-member` parts are answers and context.
The user's text is cut into sentences (segtok); a sentence with a problem or question cue ("cannot",
"error", "how do I", a question mark...) is a problem sentence, greetings and thanks are not. Problem
sentences form one issue, or several where the user opens another topic ("Also, ...", "Another
question: ..."). Each issue's title is the conversation's subject (first issue) or its most informative
problem sentence, ranked by the keyphrases yake finds in the user's text; its summary is the user's own
sentences from the first problem on, with at most CONTEXT sentences just before it. A conversation without
a problem sentence yields no issue.

The result depends only on the input: the same conversation always gives the same issues."""

from __future__ import annotations

from collections.abc import Sequence

from bindery.engines.insights import llm
from bindery.engines.insights.model import SUMMARY_MAX, TITLE_MAX, USER, ExtractedIssue, Message, shorten
from bindery.engines.insights.sentences import (
    Sentence,
    clean,
    is_pleasantry,
    is_problem,
    split,
    without_opener,
)
from bindery.platform.config import Settings, settings

MAX_ISSUES = 5
# Sentences before the first problem sentence that stay in its issue: they often say what the problem is
# about ("The settings page has said 'provisioning certificate' for 48 hours." before "Is there anything
# we need to do?"), and with them the issue groups better (docs/conversations.md, "Quality").
CONTEXT = 2
KEYPHRASES = 10


def keyphrases(text: str) -> list[str]:
    """The most relevant keyphrases of `text` (yake: unsupervised, statistical, no model to load), best
    first, lower-cased."""
    import yake

    extractor = yake.KeywordExtractor(lan="en", n=3, top=KEYPHRASES, dedupLim=0.8)
    return [phrase.lower() for phrase, _ in extractor.extract_keywords(text)]


def _groups(sentences: Sequence[Sentence]) -> list[list[Sentence]]:
    """The sentences of each issue: from a problem sentence to the next one that opens another topic. The
    first issue also keeps the CONTEXT sentences the user wrote just before its first problem sentence."""
    groups: list[list[Sentence]] = []
    before: list[Sentence] = []
    for sentence in sentences:
        if sentence.pleasantry:
            continue
        if not groups:
            if sentence.problem:
                groups.append([*before[-CONTEXT:], sentence])
            else:
                before.append(sentence)
            continue
        if sentence.problem and sentence.opens_topic and len(groups) < MAX_ISSUES:
            groups.append([sentence])
        else:
            groups[-1].append(sentence)
    return groups


def _title(group: Sequence[Sentence], phrases: Sequence[str]) -> str:
    """The problem sentence that mentions the most (and best-ranked) keyphrases; the first on a tie."""
    def score(sentence: Sentence) -> float:
        lowered = sentence.text.lower()
        return sum(1.0 / (1 + rank) for rank, phrase in enumerate(phrases) if phrase in lowered)

    problems = [s for s in group if s.problem]
    best = max(problems, key=lambda s: (score(s), -problems.index(s)))
    return shorten(without_opener(best.text), TITLE_MAX)


def _summary(group: Sequence[Sentence]) -> str:
    """The user's sentences of the issue, whole, up to SUMMARY_MAX characters."""
    out: list[str] = []
    size = 0
    for sentence in group:
        if out and size + 1 + len(sentence.text) > SUMMARY_MAX:
            break
        out.append(sentence.text)
        size += len(sentence.text) + (1 if len(out) > 1 else 0)
    return shorten(" ".join(out), SUMMARY_MAX)


def extract_issues(*, subject: str | None, messages: Sequence[Message],
                   conf: Settings | None = None) -> list[ExtractedIssue]:
    """The user's problems raised in a conversation (zero when it holds none), in order: by the built-in
    extractor, or by the LLM extractor where BINDERY_INSIGHTS_EXTRACTOR=openai (bindery.engines.insights.llm;
    its failures raise ExtractionFailed)."""
    conf = conf or settings()
    if llm.enabled(conf):
        return llm.extract_with_model(conf, subject=subject, messages=messages)
    return builtin_issues(subject=subject, messages=messages)


def builtin_issues(*, subject: str | None, messages: Sequence[Message]) -> list[ExtractedIssue]:
    """The built-in extractor (no hosted model)."""
    user_texts = [message.text for message in messages if message.role == USER]
    sentences = split(user_texts)
    topic = clean(subject or "")
    if topic and not _has_letters(topic):
        topic = ""
    groups = _groups(sentences)
    if not groups:
        said = [sentence for sentence in sentences if not sentence.pleasantry]
        # A user who writes about a subject without a cue word ("Billing address" / "My invoice shows the
        # old address.") still raised it; a subject with a cue is a problem even if the messages say
        # nothing more. Pleasantries alone raise nothing.
        if topic and not is_pleasantry(topic) and (said or is_problem(topic)):
            return [ExtractedIssue(title=shorten(topic, TITLE_MAX),
                                   summary=_summary(said) if said else shorten(topic, SUMMARY_MAX))]
        return []
    phrases = keyphrases(" ".join([topic, *(s.text for s in sentences)]))
    issues: list[ExtractedIssue] = []
    for index, group in enumerate(groups):
        title = shorten(topic, TITLE_MAX) if index == 0 and topic else _title(group, phrases)
        issues.append(ExtractedIssue(title=title, summary=_summary(group)))
    return issues


def _has_letters(text: str) -> bool:
    return any(char.isalpha() for char in text)
