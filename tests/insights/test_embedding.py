"""Sentence embeddings: the packaged model by default (no network), an OpenAI-compatible `/embeddings`
endpoint when configured (against the protocol-faithful loopback server of tests/api/translator_server.py),
a visible failure when that endpoint cannot answer."""

from __future__ import annotations

import math

import pytest

from bindery.engines.insights.clustering import absorb, nearest, signatures
from bindery.engines.insights.embedding import BUILTIN_MODEL, DIMENSIONS, embed, model_name
from bindery.engines.insights.llm import ExtractionFailed
from bindery.engines.insights.model import ExtractedIssue
from bindery.platform.config import Settings
from tests.api.translator_server import KEY, letter_counts, translator_server


def _cosine(a, b):
    return sum(x * y for x, y in zip(a, b, strict=True))


def _conf(url: str, **overrides: object) -> Settings:
    values: dict[str, object] = {"insights_embeddings": "openai", "insights_embeddings_model": "embedder",
                                 "translation_backend": "openai", "translation_url": url,
                                 "translation_api_key": KEY, "translation_model": "small-model",
                                 "translation_retries": 1, "translation_backoff": 0}
    values.update(overrides)
    return Settings.model_validate(values)


def test_the_packaged_model_puts_paraphrases_near_and_other_problems_far():
    reset, recovery, domain = embed(["Reset link not received",
                                     "Locked out, no recovery email arrives",
                                     "The HTTPS certificate of our custom domain is never issued"],
                                    Settings())
    assert len(reset) == DIMENSIONS
    assert math.isclose(_cosine(reset, reset), 1.0, abs_tol=1e-4)
    assert _cosine(reset, recovery) > _cosine(reset, domain) + 0.2
    assert model_name(Settings()) == BUILTIN_MODEL


def test_a_vector_does_not_depend_on_the_texts_embedded_beside_it():
    alone = embed(["PDF export clips long code lines"], Settings())
    together = embed(["Something much longer about billing and invoices and payments",
                      "PDF export clips long code lines"], Settings())
    assert alone[0] == together[1]


def test_support_tickets_that_say_one_problem_in_other_words_share_a_cluster():
    tickets = [ExtractedIssue("PDF export cuts off code", "Long code lines are clipped in the exported PDF."),
               ExtractedIssue("Exported PDF truncates wide code blocks",
                              "When I export to PDF the right side of code samples is missing."),
               ExtractedIssue("Reset link not received", "I clicked forgot password but no email came.")]
    pdf, truncated, reset = signatures(tickets)
    profiles = {"pdf": absorb(None, pdf)}
    assert nearest(truncated, profiles) == "pdf"
    assert nearest(reset, profiles) is None


def test_the_endpoint_embeds_when_configured():
    with translator_server() as server:
        vectors = embed(["abc", "zzz"], _conf(server.url("openai")))
        (request,) = server.requests
    assert request.path == "/v1/embeddings"
    assert request.body == {"model": "embedder", "input": ["abc", "zzz"]}
    assert request.headers["authorization"] == f"Bearer {KEY}"
    norm = math.sqrt(3)
    assert vectors[0] == tuple(round(v / norm, 6) for v in letter_counts("abc"))
    assert vectors[1] == tuple(1.0 if letter == "z" else 0.0 for letter in "abcdefghijklmnopqrstuvwxyz")
    assert model_name(_conf(server.url("openai"))) == "openai:embedder"


def test_the_builtin_model_is_the_default_and_asks_no_server():
    with translator_server() as server:
        conf = Settings(translation_backend="openai", translation_url=server.url("openai"),
                        translation_api_key=KEY, translation_model="small-model")
        assert len(embed(["Login fails"], conf)[0]) == DIMENSIONS
        assert server.requests == []


def test_a_failing_endpoint_is_a_visible_failure_after_its_retries():
    with translator_server() as server:
        server.fail_next = [503, 503]
        with pytest.raises(ExtractionFailed) as failed:
            embed(["Login fails"], _conf(server.url("openai")))
        assert failed.value.code == "BACKEND_UNAVAILABLE"
        assert len(server.requests) == 2


def test_a_refused_key_and_a_broken_answer_are_named():
    with translator_server() as server:
        with pytest.raises(ExtractionFailed) as refused:
            embed(["Login fails"], _conf(server.url("openai"), translation_api_key="wrong"))
        assert refused.value.code == "BACKEND_AUTH"
        server.bad_embeddings = True
        with pytest.raises(ExtractionFailed) as broken:
            embed(["Login fails", "Export fails"], _conf(server.url("openai")))
        assert broken.value.code == "BACKEND_RESPONSE"


@pytest.mark.parametrize(("overrides", "named"), [
    ({"insights_embeddings": "magic"}, "BINDERY_INSIGHTS_EMBEDDINGS"),
    ({"insights_embeddings_model": ""}, "BINDERY_INSIGHTS_EMBEDDINGS_MODEL"),
    ({"translation_backend": "deepl"}, "BINDERY_TRANSLATION_BACKEND=openai"),
])
def test_a_configuration_that_cannot_work_is_named(overrides, named):
    with pytest.raises(ExtractionFailed) as failed:
        embed(["Login fails"], _conf("http://127.0.0.1:9/v1", **overrides))
    assert failed.value.code == "BACKEND_NOT_CONFIGURED"
    assert named in failed.value.message
