"""Installation tokens (POST …/installations/{installationId}/tokens): a temporary API token that
authenticates as the installation, with its integration's scopes (bindery.domain.access.installation_scopes).

The integration's developers (admins of its owner organization) make them: Bindery runs no integration
code, so they act for the integration. A token lives an hour; uninstalling revokes it at once, since every
access check reads the installation (bindery.domain.access.installations).
"""

from __future__ import annotations

from bindery.domain.access.auth import INSTALLATION_PREFIX, Caller, hash_token
from bindery.domain.integrations.installations import NO_INSTALLATION, find
from bindery.domain.integrations.records import owner_admin
from bindery.platform import clock
from bindery.platform.errors import Forbidden, NotFound
from bindery.platform.ids import new_token
from bindery.store import Transaction, TransactionConflict
from bindery.store import integration_installations as install_store

TOKEN_SECONDS = 3600


def create_token(caller: Caller, name: str, installation_id: str) -> str:
    if caller.installation is not None:
        raise Forbidden("An installation token cannot make installation tokens")
    integration, installation = find(name, installation_id)
    owner_admin(caller, integration, "make installation tokens")
    token = new_token()
    now = clock.now()
    ops = install_store.token_ops(hash_token(token), installation,
                                  user_id=INSTALLATION_PREFIX + installation.id,
                                  scopes=sorted(integration.scopes), created_at=clock.now_iso(),
                                  expires_at=int(now.timestamp()) + TOKEN_SECONDS)
    try:
        Transaction(ops).commit()
    except TransactionConflict:
        raise NotFound(NO_INSTALLATION) from None
    return token
