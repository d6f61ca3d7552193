"""The user's sentences, and what each one is: a problem or question, a pleasantry, or context.

Cues are English phrases (support conversations here are English; another language yields sentences
without cues, so zero issues rather than wrong ones)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# A bound on the text read per conversation: a pasted log must not make extraction slow.
MAX_CHARS = 20_000
MAX_SENTENCES = 80

_PROBLEM = re.compile(
    r"\b(can ?not|can't|cant|couldn't|could not|unable|not able|doesn't|does not|don't|didn't|did not|"
    r"isn't|is not|aren't|won't|wont|wasn't|not work\w*|broken|break[s]?|error\w*|fail\w*|crash\w*|bug\w*|"
    r"issue[s]?|problem[s]?|wrong|missing|stuck|freez\w*|hang[s]?|slow\w*|exception\w*|denied|refus\w*|"
    r"invalid|time[sd]? ?out|lost|disappear\w*|nothing happens|no longer|stopped|instead of|unexpected\w*|"
    r"trouble|confus\w*|incorrect\w*|corrupt\w*|warning[s]?|no results?|nothing|blank|empty|leak\w*|"
    r"invisible|forg[eo]t\w*|typo\w*|no more|anymore|any more|should|have to|has to|"
    r"not (\w+ed|seen|shown|visible|possible|available|supported)|404|500)\b",
    re.IGNORECASE)
_REQUEST = re.compile(
    r"(^(how|why|what|where|when|which|is there|is it|are there|can i|can you|can we|could|should|does|do "
    r"i|do you|any ?(way|idea)|anyone|has anyone)\b)|\b(how (do|can|to|should)|is there a way|is it possible|"
    r"i (want|need|would like|'d like|wish) to|i'm trying|i am trying|trying to|looking for a way|"
    r"please (help|add|advise)|help me|feature request|support for|possible to)\b", re.IGNORECASE)
# Whole sentences that carry no problem: greetings, thanks, acknowledgements, sign-offs.
_PLEASANTRY = re.compile(
    r"^(hi|hello|hey|dear \w+|good (morning|afternoon|evening)|thanks?( you)?( so much| a lot| very much)?|"
    r"thx|ty|cheers|great|perfect|awesome|cool|nice|ok(ay)?|got it|sure|yes|no|bye|regards|best regards|"
    r"have a (nice|good) day|no problem|no worries|that('s| is) (all|it)|sounds good|will do|understood|"
    r"team|all|everyone|guys|folks|there)([\s,!.:;)(-]+(hi|hello|thanks?|you|team|all|there|everyone|"
    r"again|guys|so much|a lot|very much|for (the|your) (help|reply|answer|quick reply)|:\)|!)*)*"
    r"[\s,!.:;)(-]*$",
    re.IGNORECASE)
# A sentence saying the problem went away ("thanks, that fixed it") is not a problem.
_RESOLVED = re.compile(r"\b(fixed|solved|resolved|works now|working now|that worked|that helped|all good|"
                       r"no longer (an issue|a problem|needed)|never ?mind)\b", re.IGNORECASE)
# A sentence opening another problem in the same message ("Also, ...", "Another question: ...").
_NEXT_TOPIC = re.compile(
    r"^(also|additionally|another (thing|question|issue|problem)|one more (thing|question)|second(ly)?|"
    r"separately|unrelated|on (a|another) (different|separate) note|p\.?s\.?)\b[\s,:;.-]*", re.IGNORECASE)
# Openers that start another topic whatever follows; the others ("Also, ...") only before a question.
_STRONG_OPENER = re.compile(r"^(another|one more|second|separately|unrelated|on (a|another))\b",
                            re.IGNORECASE)
_GREETING_PREFIX = re.compile(
    r"^(hi|hello|hey|dear|good (morning|afternoon|evening))\b[^,.!:\n]{0,30}[,.!:]\s*", re.IGNORECASE)
# Labels of bug and support forms ("Steps to reproduce:") and the browser's user agent they add: the same
# in every report, they say nothing about the problem.
_FORM_LABEL = re.compile(r"^[ \t]*(user[ -]agent|build id|browser|os|version)[ \t]*:[^\n]*$|"
                         r"^[ \t]*(steps to reproduce|actual results?|expected results?|"
                         r"what happened|what did you expect( to happen)?|description|summary)[ \t]*:",
                         re.IGNORECASE | re.MULTILINE)
# Code blocks and quoted replies are not the user's words about the problem.
_FENCED = re.compile(r"```.*?(?:```|\Z)|^>[^\n]*", re.DOTALL | re.MULTILINE)
_LETTERS = re.compile(r"[^\W\d_]", re.UNICODE)
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Sentence:
    text: str
    message: int  # index of the user message it comes from
    problem: bool
    opens_topic: bool
    pleasantry: bool


def clean(text: str) -> str:
    """One line, no greeting in front."""
    return _GREETING_PREFIX.sub("", _SPACES.sub(" ", text).strip()).strip()


def opens_topic(text: str) -> bool:
    """Whether the sentence starts another problem: "Another question: ...", or "Also, how do I ...?"."""
    if not _NEXT_TOPIC.match(text):
        return False
    return bool(_STRONG_OPENER.match(text) or _REQUEST.search(without_opener(text))
                or text.rstrip().endswith("?"))


def without_opener(text: str) -> str:
    """The sentence without the words that announced another topic ("Also, how do I..." → "How do I...")."""
    rest = _NEXT_TOPIC.sub("", text, count=1)
    return rest[:1].upper() + rest[1:] if rest else text


def _prose(text: str) -> bool:
    """Whether a sentence reads as prose rather than a log line, a path or code (letters dominate)."""
    letters = len(_LETTERS.findall(text))
    return letters >= 6 and letters >= 0.55 * len(text.replace(" ", ""))


def is_pleasantry(text: str) -> bool:
    return bool(_PLEASANTRY.match(text))


def is_problem(text: str) -> bool:
    if _PLEASANTRY.match(text) or _RESOLVED.search(text):
        return False
    return bool(_PROBLEM.search(text) or _REQUEST.search(text) or text.rstrip().endswith("?"))


def split(texts: Iterable[str]) -> list[Sentence]:
    """The sentences of each text, in order, classified; at most MAX_SENTENCES, read from MAX_CHARS."""
    from segtok.segmenter import split_multi

    out: list[Sentence] = []
    budget = MAX_CHARS
    for index, text in enumerate(texts):
        if budget <= 0 or len(out) >= MAX_SENTENCES:
            break
        chunk = text[:budget]
        budget -= len(chunk)
        for raw in split_multi(_FORM_LABEL.sub("\n\n", _FENCED.sub("\n\n", chunk))):
            sentence = clean(raw)
            if not sentence or not _prose(sentence):
                continue
            out.append(Sentence(sentence, index, is_problem(sentence), opens_topic(sentence),
                                bool(_PLEASANTRY.match(sentence))))
            if len(out) >= MAX_SENTENCES:
                break
    return out
