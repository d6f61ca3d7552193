"""Integration secrets at rest: sealed before they are stored, opened only by code that needs them.

One interface, two ways to hold the key. Each sealing makes a fresh 256-bit data key and encrypts the
secrets with AES-256-GCM under it; the data key is kept beside the ciphertext *wrapped*: by KMS on AWS
(`GenerateDataKey` / `Decrypt` under `BINDERY_SECRETS_KMS_KEY`, so the table alone never decrypts
anything), or, off AWS (the local runner, tests), by AES-GCM under a key derived (HKDF) from the cursor
secret with its own label, so that key never serves two purposes. `context` (the integration's name) is
bound to the ciphertext as associated data, and to KMS as encryption context: secrets copied onto
another integration's item do not open.

Sealed layout: version byte, 2-byte length of the wrapped key, wrapped key, 12-byte nonce, ciphertext.
"""

from __future__ import annotations

import os
import struct
from typing import Protocol

from bindery.platform.aws import kms_client
from bindery.platform.config import settings
from bindery.platform.cursor_secret import cursor_secret

_VERSION = b"\x01"
_NONCE = 12
_INFO = b"bindery integration secrets v1"


class SecretBox(Protocol):
    def seal(self, plain: bytes, *, context: str) -> bytes: ...

    def open(self, sealed: bytes, *, context: str) -> bytes: ...


class _KeyWrap(Protocol):
    def new_key(self, context: str) -> tuple[bytes, bytes]: ...  # (plain data key, wrapped)

    def unwrap(self, wrapped: bytes, context: str) -> bytes: ...


class KmsKeys:
    def __init__(self, key_id: str) -> None:
        self.key_id = key_id

    def new_key(self, context: str) -> tuple[bytes, bytes]:
        made = kms_client().generate_data_key(KeyId=self.key_id, KeySpec="AES_256",
                                              EncryptionContext={"integration": context})
        return bytes(made["Plaintext"]), bytes(made["CiphertextBlob"])

    def unwrap(self, wrapped: bytes, context: str) -> bytes:
        opened = kms_client().decrypt(CiphertextBlob=wrapped, EncryptionContext={"integration": context})
        return bytes(opened["Plaintext"])


class LocalKeys:
    """Off AWS: data keys wrapped under a key derived from the cursor secret."""

    def _master(self) -> bytes:
        secret = cursor_secret()
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF

        return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_INFO).derive(secret.encode())

    def new_key(self, context: str) -> tuple[bytes, bytes]:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        key, nonce = os.urandom(32), os.urandom(_NONCE)
        return key, nonce + AESGCM(self._master()).encrypt(nonce, key, context.encode())

    def unwrap(self, wrapped: bytes, context: str) -> bytes:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        return AESGCM(self._master()).decrypt(wrapped[:_NONCE], wrapped[_NONCE:], context.encode())


class EnvelopeBox:
    def __init__(self, keys: _KeyWrap) -> None:
        self.keys = keys

    def seal(self, plain: bytes, *, context: str) -> bytes:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        key, wrapped = self.keys.new_key(context)
        nonce = os.urandom(_NONCE)
        sealed = AESGCM(key).encrypt(nonce, plain, context.encode())
        return _VERSION + struct.pack(">H", len(wrapped)) + wrapped + nonce + sealed

    def open(self, sealed: bytes, *, context: str) -> bytes:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        if sealed[:1] != _VERSION:
            raise ValueError("not a sealed secret of this version")
        (length,) = struct.unpack(">H", sealed[1:3])
        wrapped, rest = sealed[3:3 + length], sealed[3 + length:]
        key = self.keys.unwrap(wrapped, context)
        return AESGCM(key).decrypt(rest[:_NONCE], rest[_NONCE:], context.encode())


def secret_box() -> SecretBox:
    """KMS where a key is configured (deployed), the local key otherwise."""
    key_id = settings().secrets_kms_key
    return EnvelopeBox(KmsKeys(key_id) if key_id else LocalKeys())
