"""The optional LLM extractor, against a real HTTP server speaking OpenAI's chat completions protocol
(tests/api/translator_server.py): off by default, the model's issues when on, a visible failure (never
the built-in extractor's output) when it cannot answer."""

from __future__ import annotations

import pytest

from bindery.engines.insights.extraction import builtin_issues, extract_issues
from bindery.engines.insights.llm import ExtractionFailed
from bindery.engines.insights.model import ExtractedIssue, Message
from bindery.platform.config import Settings
from tests.api.translator_server import KEY, translator_server

MESSAGES = [Message("user", "The export to PDF fails"), Message("assistant", "Which space?"),
            Message("user", "my space")]


def _conf(url: str, **overrides: object) -> Settings:
    values: dict[str, object] = {"insights_extractor": "openai", "translation_backend": "openai",
                                 "translation_url": url, "translation_api_key": KEY,
                                 "translation_model": "small-model", "translation_retries": 1,
                                 "translation_backoff": 0}
    values.update(overrides)
    return Settings.model_validate(values)


def test_the_builtin_extractor_is_the_default():
    with translator_server() as server:
        conf = Settings(translation_backend="openai", translation_url=server.url("openai"),
                        translation_api_key=KEY, translation_model="m")
        issues = extract_issues(subject=None, messages=MESSAGES, conf=conf)
        assert issues == builtin_issues(subject=None, messages=MESSAGES)
        assert server.requests == []


def test_the_model_answers_when_configured():
    with translator_server() as server:
        issues = extract_issues(subject="PDF", messages=MESSAGES, conf=_conf(server.url("openai")))
        assert issues == [ExtractedIssue("ehT tropxe ot FDP sliaf", "ehT tropxe ot FDP sliaf"),
                          ExtractedIssue("ym ecaps", "ym ecaps")]
        (request,) = server.requests
        assert request.path == "/v1/chat/completions"
        assert request.body["model"] == "small-model"
        assert "only the user raises problems" in request.body["messages"][0]["content"]


def test_a_failing_endpoint_is_a_visible_failure_after_its_retries():
    with translator_server() as server:
        server.fail_next = [503, 503]
        with pytest.raises(ExtractionFailed) as failure:
            extract_issues(subject=None, messages=MESSAGES, conf=_conf(server.url("openai")))
        assert failure.value.code == "BACKEND_UNAVAILABLE"
        assert len(server.requests) == 2


def test_a_refused_key_and_a_broken_answer_are_named():
    with translator_server() as server:
        with pytest.raises(ExtractionFailed) as refused:
            extract_issues(subject=None, messages=MESSAGES,
                           conf=_conf(server.url("openai"), translation_api_key="wrong"))
        assert refused.value.code == "BACKEND_AUTH"
        server.bad_issues = True
        with pytest.raises(ExtractionFailed) as broken:
            extract_issues(subject=None, messages=MESSAGES, conf=_conf(server.url("openai")))
        assert broken.value.code == "BACKEND_RESPONSE"


@pytest.mark.parametrize(("overrides", "named"), [
    ({"translation_backend": ""}, "BINDERY_TRANSLATION_BACKEND"),
    ({"translation_backend": "deepl"}, "BINDERY_TRANSLATION_BACKEND=openai"),
    ({"translation_model": ""}, "BINDERY_TRANSLATION_MODEL"),
    ({"insights_extractor": "gpt"}, "BINDERY_INSIGHTS_EXTRACTOR"),
])
def test_a_configuration_that_cannot_work_is_named(overrides, named):
    with pytest.raises(ExtractionFailed, match=named) as failure:
        extract_issues(subject=None, messages=MESSAGES, conf=_conf("http://127.0.0.1:9/v1", **overrides))
    assert failure.value.code == "BACKEND_NOT_CONFIGURED"


def test_an_answer_nested_past_the_parser_is_a_named_failure():
    # A conversation's text can steer the model's answer: one nested past json.loads's stack is the
    # protocol's BACKEND_RESPONSE failure, not a RecursionError that crashes the worker (issue 39).
    from bindery.engines.insights.llm import parse_issues

    with pytest.raises(ExtractionFailed) as nested:
        parse_issues("[" * 100_000)
    assert nested.value.code == "BACKEND_RESPONSE"
