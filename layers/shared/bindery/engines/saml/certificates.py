"""The IdP's signing certificate: PEM X.509, valid now."""

from __future__ import annotations

import base64
import binascii
import re
from datetime import datetime

from cryptography import x509

_PEM = re.compile(r"-----BEGIN CERTIFICATE-----(.+?)-----END CERTIFICATE-----", re.S)


class CertificateError(ValueError):
    """Why a text is not a certificate Bindery can verify signatures with."""


def normalized_pem(text: str) -> str:
    """The certificate as PEM. IdPs show it either as PEM or as the bare base64 body (Keycloak's
    realm keys, Okta's metadata), so both are accepted and stored as PEM."""
    found = _PEM.search(text)
    body = "".join((found.group(1) if found else text).split())
    try:
        der = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        raise CertificateError("not a PEM X.509 certificate") from None
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    if not der:
        raise CertificateError("not a PEM X.509 certificate")
    return "-----BEGIN CERTIFICATE-----\n" + "\n".join(lines) + "\n-----END CERTIFICATE-----\n"


def load_certificate(text: str, at: datetime) -> x509.Certificate:
    """The certificate in `text`, refused when it is not one or not valid at `at`."""
    pem = normalized_pem(text)
    try:
        certificate = x509.load_pem_x509_certificate(pem.encode())
    except ValueError:
        raise CertificateError("not a PEM X.509 certificate") from None
    if certificate.not_valid_before_utc > at:
        raise CertificateError(f"not valid before {certificate.not_valid_before_utc.isoformat()}")
    if certificate.not_valid_after_utc < at:
        raise CertificateError(f"expired on {certificate.not_valid_after_utc.isoformat()}")
    return certificate
