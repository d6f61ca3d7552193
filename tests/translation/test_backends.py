"""Backend configuration and batching (bindery.engines.translation.backends): keys from Secrets Manager, clear
errors for a configuration that cannot work, batches of whole segments within the caps."""

from __future__ import annotations

import boto3
import pytest

from bindery.engines.translation import backends
from bindery.engines.translation.backends.http import HttpPolicy, post_json
from bindery.engines.translation.errors import TranslationFailed
from bindery.platform.config import Settings
from tests.api.translator_server import KEY, translator_server


def test_batches_hold_whole_texts_within_the_count_and_size_caps():
    texts = ["a" * 40, "b" * 40, "c" * 40, "d" * 200, "e" * 10, "f", "g"]
    assert backends.batches(texts, max_items=2, max_chars=100) == [
        ["a" * 40, "b" * 40], ["c" * 40], ["d" * 200], ["e" * 10, "f"], ["g"]]
    assert backends.batches([], max_items=2, max_chars=100) == []


def test_the_api_key_can_come_from_secrets_manager():
    boto3.client("secretsmanager", region_name="us-east-1").create_secret(Name="translator-key",
                                                                          SecretString="from-the-secret")
    conf = Settings(translation_backend="deepl", translation_url="https://api-free.deepl.com",
                    translation_api_key_secret="translator-key")
    backend = backends.configured_backend(conf)
    assert backend.api_key == "from-the-secret"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("values", "named"), [
    ({}, "BINDERY_TRANSLATION_BACKEND"),
    ({"translation_backend": "google"}, "BINDERY_TRANSLATION_BACKEND"),
    ({"translation_backend": "deepl"}, "BINDERY_TRANSLATION_URL"),
    ({"translation_backend": "openai", "translation_url": "http://127.0.0.1:1/v1"},
     "BINDERY_TRANSLATION_MODEL"),
])
def test_a_configuration_that_cannot_work_is_named(values, named):
    with pytest.raises(TranslationFailed) as failed:
        backends.configured_backend(Settings(**values))
    assert failed.value.code == "BACKEND_NOT_CONFIGURED"
    assert named in failed.value.message


def test_a_request_over_the_size_cap_or_to_another_scheme_is_never_sent():
    policy = HttpPolicy(timeout=1, retries=0, backoff=0, max_request_bytes=100)
    with translator_server() as server:
        with pytest.raises(TranslationFailed) as failed:
            post_json("LibreTranslate", server.url("libretranslate") + "/translate",
                      {"q": ["x" * 200], "api_key": KEY}, {}, policy)
        assert failed.value.code == "BACKEND_ERROR"
        with pytest.raises(TranslationFailed):
            post_json("LibreTranslate", "file:///etc/passwd", {"q": ["x"]}, {}, policy)
        assert server.requests == []


def test_a_model_answer_nested_past_the_parser_is_a_named_failure():
    # Issue 39: the text being translated can steer the model's answer; nested past json.loads's stack,
    # it is the BACKEND_RESPONSE failure, never a RecursionError.
    from bindery.engines.translation.backends.openai import parse_translations

    with pytest.raises(TranslationFailed) as nested:
        parse_translations("[" * 100_000, 1)
    assert nested.value.code == "BACKEND_RESPONSE"
