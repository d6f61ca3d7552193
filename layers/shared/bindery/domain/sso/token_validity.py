"""Whether a token an SSO login issued still stands (docs/sso.md, "Tokens"): its provider must still
exist, belong to the token's organization, be fully configured and hold a certificate valid now. The
authorizer asks on every token it resolves for which API Gateway has no cached answer (60 s), so removing
a provider, unsetting its certificate or letting it expire ends its tokens within that minute, without a
write per token: one GetItem more, for SSO tokens only."""

from __future__ import annotations

from bindery.engines.saml.certificates import CertificateError, load_certificate
from bindery.platform import clock
from bindery.store import saml as saml_store


def sso_token_stands(provider_id: str, org_id: str) -> bool:
    provider = saml_store.get_provider(provider_id)
    if provider is None or provider.org_id != org_id or not provider.active:
        return False
    try:
        load_certificate(str(provider.certificate), clock.now())
    except CertificateError:
        return False
    return True
