"""Who may read a published site, and as which visitor (docs/published-sites.md, "Visibility").

- `public`: anyone; `unlisted`: anyone, but pages say `noindex` (meta tag and `X-Robots-Tag`).
- `share-link`: a request with the key of an active share link (`?shareKey=`), which is then kept in a
  cookie; without one the site does not exist (404), as for the API.
- `visitor-auth`: a JWT signed (HS256) with the site's publishing-auth key, given once as `?jwt_token=`
  and kept in a cookie; its claims are the visitor's `visitor.claims`. Without a valid token: a 401
  page, or a redirect to the settings' fallback URL.
- Unsigned claims (`visitor.claims.unsigned.*`) come from `?visitor.<name>=<value>` (kept in a cookie)
  or that cookie, on any site; a signed token is honoured on any site that has a key (adaptive content).
- An unpublished site is a 404.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie
from typing import Any

from bindery.store.site_structure import Structure

SHARE_QUERY = "shareKey"
TOKEN_QUERY = "jwt_token"  # noqa: S105 - the query parameter's name (GitBook's), not a secret
UNSIGNED_PREFIX = "visitor."
MAX_UNSIGNED = 20  # claims a visitor may set themselves; more are ignored
MAX_CLAIM_NAME, MAX_CLAIM_VALUE = 64, 256  # longer ones are ignored: the cookie must stay small
# A cookie or token longer than these was not made by Bindery (or its sign-in service): it is ignored
# unread, so that hostile input never reaches a parser (JSON nested 1,000 deep overflows json.loads's
# stack: a RecursionError, once a 502 on any site, issue 39 F2). The unsigned-claims cookie holds at
# most MAX_UNSIGNED claims, each escaped at worst to six characters a character.
MAX_UNSIGNED_COOKIE = MAX_UNSIGNED * (MAX_CLAIM_NAME + MAX_CLAIM_VALUE) * 6 + 2 * MAX_UNSIGNED + 2
MAX_TOKEN = 8192
COOKIE_DAYS = 30


class SiteHidden(Exception):
    """The site does not exist for this request (a 404 page)."""


class VisitorRefused(Exception):
    """A `visitor-auth` site without a valid token: a 401 page, or a redirect to `fallback_url`."""

    def __init__(self, reason: str, fallback_url: str | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.fallback_url = fallback_url


@dataclass(frozen=True)
class Visitor:
    claims: dict[str, Any]  # `visitor.claims` of conditions: signed claims, and `unsigned`
    indexable: bool  # False: noindex
    signed: bool = False  # the claims came from a verified token (the page then varies by visitor)
    cookies: list[str] = field(default_factory=list)  # Set-Cookie values to send

    @property
    def scope(self) -> dict[str, Any]:
        return {"visitor": {"claims": self.claims}}

    @property
    def cache_control(self) -> str:
        """Shared caches only for what every reader sees alike: a public site read without claims."""
        shared = self.indexable and not self.signed and not self.claims.get("unsigned")
        return "public, max-age=60" if shared else "private, no-cache"


def request_cookies(header: str | None) -> dict[str, str]:
    if not header:
        return {}
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header)
    except CookieError:
        return {}
    return {name: morsel.value for name, morsel in jar.items()}


def _cookie(name: str, value: str, *, path: str, secure: bool) -> str:
    jar: SimpleCookie = SimpleCookie()
    jar[name] = value
    morsel = jar[name]
    morsel["path"] = path or "/"
    morsel["max-age"] = str(COOKIE_DAYS * 86400)
    morsel["httponly"] = True
    morsel["samesite"] = "Lax"
    if secure:
        morsel["secure"] = True
    return morsel.OutputString()


def _unsigned_value(text: str) -> Any:
    """`true`, `3`, `"x"` as JSON; anything else as the string it is. (A value is at most MAX_CLAIM_VALUE
    characters, too few to nest past the parser's stack; RecursionError is caught all the same.)"""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


def _kept_unsigned(text: str | None) -> dict[str, str]:
    """The claims of the unsigned-claims cookie: as Bindery writes it, a flat object of short strings;
    anything else in it is ignored (the cookie is the visitor's to change)."""
    if not text or len(text) > MAX_UNSIGNED_COOKIE:
        return {}
    try:
        loaded = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    if not isinstance(loaded, dict):
        return {}
    return {name: value for name, value in loaded.items() if isinstance(value, str)
            and 0 < len(name) <= MAX_CLAIM_NAME and len(value) <= MAX_CLAIM_VALUE}


def _valid_share_key(structure: Structure, key: str | None) -> bool:
    return bool(key) and any(link.active and hmac.compare_digest(link.key.encode(), str(key).encode())
                             for link in structure.share_links)


def _verified_claims(structure: Structure, token: str | None) -> dict[str, Any] | None:
    auth = structure.publishing_auth
    if not token or auth is None or len(token) > MAX_TOKEN:
        return None
    import jwt  # PyJWT: only requests carrying a token pay for the import

    try:
        claims: dict[str, Any] = jwt.decode(token, auth.private_key, algorithms=["HS256"],
                                            options={"require": [], "verify_aud": False})
    except (jwt.PyJWTError, RecursionError):  # PyJWT reads the header's JSON before any signature check
        return None
    return claims


@dataclass
class _Reading:
    structure: Structure
    query: Mapping[str, str]
    cookies: Mapping[str, str]
    base: str
    secure: bool
    set_cookies: list[str] = field(default_factory=list)

    def name(self, kind: str) -> str:
        return f"bindery-{kind}-{self.structure.site.id}"

    def remember(self, kind: str, value: str) -> None:
        self.set_cookies.append(_cookie(self.name(kind), value, path=self.base or "/", secure=self.secure))

    def share_key(self) -> str | None:
        given = self.query.get(SHARE_QUERY)
        if given is not None and _valid_share_key(self.structure, given):
            self.remember("share", given)
            return given
        kept = self.cookies.get(self.name("share"))
        return kept if _valid_share_key(self.structure, kept) else None

    def signed_claims(self) -> dict[str, Any] | None:
        given = self.query.get(TOKEN_QUERY)
        claims = _verified_claims(self.structure, given)
        if claims is not None and given is not None:
            self.remember("token", given)
            return claims
        return _verified_claims(self.structure, self.cookies.get(self.name("token")))

    def unsigned_claims(self) -> dict[str, Any]:
        given = {name[len(UNSIGNED_PREFIX):]: value for name, value in self.query.items()
                 if name.startswith(UNSIGNED_PREFIX)
                 and 0 < len(name) - len(UNSIGNED_PREFIX) <= MAX_CLAIM_NAME and len(value) <= MAX_CLAIM_VALUE}
        if given:
            kept = dict(list(given.items())[:MAX_UNSIGNED])
            self.remember("unsigned", json.dumps(kept, separators=(",", ":")))
        else:
            kept = _kept_unsigned(self.cookies.get(self.name("unsigned")))
        return {name: _unsigned_value(value) for name, value in list(kept.items())[:MAX_UNSIGNED]}


def visitor_of(structure: Structure, *, query: Mapping[str, str], cookie_header: str | None, base: str,
               secure: bool) -> Visitor:
    """The visitor reading the site, or `SiteHidden` / `VisitorRefused`."""
    site = structure.site
    if not site.published:
        raise SiteHidden("unpublished")
    reading = _Reading(structure, query, request_cookies(cookie_header), base, secure)
    if site.visibility == "share-link" and reading.share_key() is None:
        raise SiteHidden("no valid share key")
    signed = reading.signed_claims()
    if site.visibility == "visitor-auth" and signed is None:
        auth = structure.publishing_auth
        raise VisitorRefused("a valid visitor token is required", auth.fallback_url if auth else None)
    claims: dict[str, Any] = {**(signed or {}), "unsigned": reading.unsigned_claims()}
    return Visitor(claims, indexable=site.visibility == "public", signed=signed is not None,
                   cookies=reading.set_cookies)
