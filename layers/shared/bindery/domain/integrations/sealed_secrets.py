"""An integration's secrets as its item keeps them, sealed (bindery.platform.secret_box): the `secrets` it
publishes, and the signing secret Bindery generates for it (docs/integrations.md, "Delivered").

GitBook's runtime hands every integration signing secrets that the platform generates
(`IntegrationEnvironment.signingSecrets.integration` in the official spec); Bindery does the same: the
first publish of an integration generates one, sealed like the published secrets but under a context of
its own, so neither sealed value opens in the other's place. Every later publish keeps it. Its owner's
admins read it (`GET /integrations/{name}/signing-secrets`, a Bindery extension: no official route shows
one), so an integration needs no secret of its own to receive events. A published `SIGNING_SECRET` still
signs when there is one, so receivers already verifying with it keep working.
"""

from __future__ import annotations

import base64
import json
import secrets
from dataclasses import dataclass

from bindery.domain.access.auth import Caller
from bindery.domain.integrations.records import load, owner_admin
from bindery.platform.errors import NotFound
from bindery.platform.secret_box import secret_box
from bindery.store.integrations import Integration

SIGNING_SECRET = "SIGNING_SECRET"  # noqa: S105 - the name of the published secret, not a secret
GENERATED = "generated"
_BYTES = 32  # 256 bits: HMAC-SHA256's full strength


def _signing_context(name: str) -> str:
    return f"{name}#signing"


def sealed(name: str, published: dict[str, str]) -> str:
    """The secrets a publish sends, sealed for the integration `name`'s item (base64)."""
    box = secret_box().seal(json.dumps(published, sort_keys=True).encode(), context=name)
    return base64.b64encode(box).decode()


def secrets_of(integration: Integration) -> dict[str, str]:
    """The published secrets, opened (for the code that runs with them, never for a response)."""
    if not integration.secrets:
        return {}
    plain = secret_box().open(base64.b64decode(integration.secrets), context=integration.name)
    opened: dict[str, str] = json.loads(plain)
    return opened


def generated_signing_secret(name: str) -> str:
    """A new signing secret for the integration `name`, sealed for its item (base64)."""
    plain = "whsec_" + secrets.token_urlsafe(_BYTES)
    return base64.b64encode(secret_box().seal(plain.encode(), context=_signing_context(name))).decode()


def _generated(integration: Integration) -> str | None:
    if not integration.signing_secret:
        return None
    box = base64.b64decode(integration.signing_secret)
    return secret_box().open(box, context=_signing_context(integration.name)).decode()


@dataclass(frozen=True)
class Signer:
    """The secret a delivery is signed with, and which one it is (the trace says)."""

    secret: str
    source: str  # SIGNING_SECRET (published) or GENERATED


def signer(integration: Integration) -> Signer | None:
    """The published `SIGNING_SECRET` when there is one, else the generated secret; None only for an
    integration last published before secrets were generated."""
    if published := secrets_of(integration).get(SIGNING_SECRET):
        return Signer(published, SIGNING_SECRET)
    own = _generated(integration)
    return Signer(own, GENERATED) if own else None


def read_signing_secret(caller: Caller, name: str) -> str:
    """The generated signing secret, for the integration owner's admins (as its events: 403 for the
    owner's other members and for other organizations, 404 when it is private to them)."""
    integration = load(name)
    owner_admin(caller, integration, "read its signing secret")
    own = _generated(integration)
    if own is None:
        raise NotFound("The integration has no generated signing secret yet: publish it again")
    return own
