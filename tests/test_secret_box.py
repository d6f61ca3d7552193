"""Integration secrets at rest (bindery.platform.secret_box): sealed under a fresh data key, wrapped by KMS
where a key is configured and by the local key otherwise; bound to the integration they belong to."""

from __future__ import annotations

import pytest
from cryptography.exceptions import InvalidTag

from bindery.platform import aws
from bindery.platform.config import settings
from bindery.platform.secret_box import EnvelopeBox, KmsKeys, LocalKeys, secret_box

SECRET = b'{"API_KEY": "sk-live-123"}'


def test_the_local_key_seals_and_opens_and_never_shows_the_plain_text():
    box = EnvelopeBox(LocalKeys())
    sealed = box.seal(SECRET, context="analytics")
    assert b"sk-live-123" not in sealed
    assert box.seal(SECRET, context="analytics") != sealed  # a fresh data key and nonce every time
    assert box.open(sealed, context="analytics") == SECRET


def test_secrets_copied_to_another_integration_do_not_open():
    box = EnvelopeBox(LocalKeys())
    sealed = box.seal(SECRET, context="analytics")
    with pytest.raises(InvalidTag):
        box.open(sealed, context="other")


def test_a_tampered_ciphertext_does_not_open():
    box = EnvelopeBox(LocalKeys())
    sealed = bytearray(box.seal(SECRET, context="analytics"))
    sealed[-1] ^= 1
    with pytest.raises(InvalidTag):
        box.open(bytes(sealed), context="analytics")


def test_kms_wraps_the_data_keys_when_a_key_is_configured(engine, monkeypatch):
    if engine != "moto":
        pytest.skip("KMS is mocked by moto only; the DynamoDB Local tier runs the repository tests")
    key_id = aws.kms_client().create_key(Description="test")["KeyMetadata"]["KeyId"]
    monkeypatch.setenv("BINDERY_SECRETS_KMS_KEY", key_id)
    settings.cache_clear()
    try:
        box = secret_box()
        assert isinstance(box, EnvelopeBox)
        assert isinstance(box.keys, KmsKeys)
        sealed = box.seal(SECRET, context="analytics")
        assert box.open(sealed, context="analytics") == SECRET
        # The local key cannot open what KMS wrapped: the table alone decrypts nothing.
        with pytest.raises(InvalidTag):
            EnvelopeBox(LocalKeys()).open(sealed, context="analytics")
        with pytest.raises(Exception, match="InvalidCiphertext"):
            box.open(sealed, context="other")  # the encryption context binds the data key too
    finally:
        monkeypatch.delenv("BINDERY_SECRETS_KMS_KEY")
        settings.cache_clear()
