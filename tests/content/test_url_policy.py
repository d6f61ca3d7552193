"""Which repository URLs Git Sync accepts, and that credentials never show."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bindery.platform.config import settings
from bindery.platform.url_policy import RefusedUrl, check_url, redact, redact_text


@pytest.fixture(autouse=True)
def deployed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The deployed defaults: no file://, no private hosts."""
    monkeypatch.delenv("BINDERY_GIT_ALLOW_FILE_URLS", raising=False)
    monkeypatch.delenv("BINDERY_ALLOW_PRIVATE_HOSTS", raising=False)
    settings.cache_clear()
    yield
    settings.cache_clear()


def public(host: str) -> list[str]:
    return ["140.82.112.3"]


def resolves_to(*addresses: str):  # type: ignore[no-untyped-def]
    return lambda host: list(addresses)


def test_https_to_a_public_host_is_allowed() -> None:
    assert check_url("https://github.com/acme/docs.git", resolver=public) == "https://github.com/acme/docs.git"


@pytest.mark.parametrize("url", ["ssh://git@github.com/acme/docs.git", "git@github.com:acme/docs.git",
                                 "git://github.com/acme/docs.git", "/srv/repos/docs.git", "ftp://x/y"])
def test_other_schemes_and_bare_paths_are_refused(url: str) -> None:
    with pytest.raises(RefusedUrl, match=r"^url: only http"):
        check_url(url, resolver=public)


def test_file_urls_only_where_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(RefusedUrl, match="file:// URLs are not allowed"):
        check_url("file:///srv/repos/docs.git")
    monkeypatch.setenv("BINDERY_GIT_ALLOW_FILE_URLS", "1")
    settings.cache_clear()
    assert check_url("file:///srv/repos/docs.git") == "file:///srv/repos/docs.git"
    with pytest.raises(RefusedUrl, match="local path"):
        check_url("file://fileserver/share/docs.git")


ANY_ADDRESS = "0.0.0.0"  # noqa: S104 - an address to refuse, not one to bind


@pytest.mark.parametrize("address", ["127.0.0.1", "10.0.0.5", "192.168.1.1", "172.16.0.1", "169.254.169.254",
                                     "::1", "fd00::1", "fe80::1", ANY_ADDRESS, "100.64.0.1",
                                     "::ffff:127.0.0.1"])
def test_private_loopback_and_reserved_addresses_are_refused(address: str) -> None:
    with pytest.raises(RefusedUrl, match="loopback, private or reserved"):
        check_url("https://docs.internal/acme.git", resolver=resolves_to(address))


def test_a_host_is_refused_if_any_of_its_addresses_is_private() -> None:
    with pytest.raises(RefusedUrl):
        check_url("https://mixed.example/acme.git", resolver=resolves_to("140.82.112.3", "10.0.0.1"))


def test_ip_literals_are_checked_too() -> None:
    # The real resolver: an IP literal needs no DNS.
    with pytest.raises(RefusedUrl, match="loopback"):
        check_url("http://127.0.0.1:8080/acme.git")


def test_private_hosts_where_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BINDERY_ALLOW_PRIVATE_HOSTS", "1")
    settings.cache_clear()
    assert check_url("http://127.0.0.1:8080/acme.git")


def test_refusals_never_show_credentials() -> None:
    with pytest.raises(RefusedUrl) as caught:
        check_url("https://ada:s3cret-token@10.0.0.1/acme.git")
    assert "s3cret-token" not in caught.value.message
    assert "ada" not in caught.value.message
    assert "https://10.0.0.1/acme.git" in caught.value.message


def test_redact() -> None:
    assert redact("https://ada:tok@github.com:8443/a/b.git?x=1") == "https://github.com:8443/a/b.git?x=1"
    assert redact("https://tok@github.com/a.git") == "https://github.com/a.git"
    assert redact("https://github.com/a.git") == "https://github.com/a.git"
    assert redact("https://u:p@[::1]:99/a") == "https://[::1]:99/a"
    assert redact_text("auth failed for https://ada:tok@h/a.git (tok)", "https://ada:tok@h/a.git") == \
        "auth failed for https://h/a.git (***)"


def test_uploads_never_take_file_urls(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BINDERY_GIT_ALLOW_FILE_URLS", "1")  # Git Sync's setting does not open uploads
    settings.cache_clear()
    with pytest.raises(RefusedUrl, match="file:// URLs are not allowed"):
        check_url("file:///etc/passwd", "changes[0].files[0].url", files_allowed=False)


def test_a_redirect_to_a_private_address_is_not_followed() -> None:
    import urllib.request
    from http.client import HTTPMessage

    from bindery.platform.remote_files import _CheckedRedirects

    handler = _CheckedRedirects("files[0].url")
    request = urllib.request.Request("https://93.184.216.34/logo.png")
    with pytest.raises(RefusedUrl, match=r"files\[0\].url: 10.0.0.5 is a loopback, private or reserved"):
        handler.redirect_request(request, None, 302, "Found", HTTPMessage(), "http://10.0.0.5/admin")
    followed = handler.redirect_request(request, None, 302, "Found", HTTPMessage(),
                                        "https://93.184.216.35/logo.png")
    assert followed is not None
    assert followed.full_url == "https://93.184.216.35/logo.png"


class _Redirect:
    def __init__(self, status: int, location: str | None) -> None:
        self.status, self.location, self.drained = status, location, False

    def get_redirect_location(self) -> str | None:
        return self.location

    def drain_conn(self) -> None:
        self.drained = True


def test_git_follows_redirects_only_where_the_policy_allows(monkeypatch: pytest.MonkeyPatch) -> None:
    import urllib3

    from bindery.engines.gitsync.transport import MAX_REDIRECTS, CheckedRedirects

    answers = {"https://93.184.216.34/docs.git/info/refs": _Redirect(301, "https://93.184.216.35/docs.git/info/refs"),
               "https://93.184.216.35/docs.git/info/refs": _Redirect(200, None),
               "https://93.184.216.34/evil/info/refs": _Redirect(302, "http://169.254.169.254/latest/meta-data"),
               "https://93.184.216.34/loop": _Redirect(302, "/loop")}
    asked: list[tuple[str, str, bool]] = []

    def urlopen(self: object, method: str, url: str, redirect: bool = True, **kw: object) -> _Redirect:
        asked.append((method, url, redirect))
        return answers[url]

    monkeypatch.setattr(urllib3.PoolManager, "urlopen", urlopen)
    manager = CheckedRedirects()
    final = manager.urlopen("GET", "https://93.184.216.34/docs.git/info/refs")
    assert final is answers["https://93.184.216.35/docs.git/info/refs"]
    assert answers["https://93.184.216.34/docs.git/info/refs"].drained
    assert all(redirect is False for _, _, redirect in asked)  # urllib3 never follows one by itself
    with pytest.raises(RefusedUrl, match=r"169\.254\.169\.254 is a loopback, private or reserved"):
        manager.urlopen("GET", "https://93.184.216.34/evil/info/refs")
    asked.clear()
    with pytest.raises(Exception, match="more than 5 redirects"):
        manager.urlopen("GET", "https://93.184.216.34/loop")
    assert len(asked) == MAX_REDIRECTS + 1


# IPv6 forms that embed an IPv4 address are judged by that address; deprecated and tunnelling prefixes,
# and the IETF's protocol assignments, are refused outright (issue 39, F4).
@pytest.mark.parametrize("address", [
    "64:ff9b::a9fe:a9fe",  # NAT64 (RFC 6052) of 169.254.169.254, the instance metadata endpoint
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b::a00:5",  # NAT64 of 10.0.0.5
    "64:ff9b:1::8c52:7003",  # local-use NAT64 (RFC 8215), whatever it carries
    "2002:7f00:1::",  # 6to4 of 127.0.0.1
    "2002:a9fe:a9fe::1",  # 6to4 of 169.254.169.254
    "2002:c0a8:101::",  # 6to4 of 192.168.1.1
    "::7f00:1",  # IPv4-compatible (deprecated) 127.0.0.1
    "::8c52:7003",  # IPv4-compatible, even of a public address
    "::ffff:169.254.169.254",  # IPv4-mapped
    "::ffff:0:a9fe:a9fe",  # IPv4-translated (SIIT) 169.254.169.254
    "fec0::1",  # site-local (deprecated)
    "feff::1",  # site-local, the top of fec0::/10
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
    "2001::1",  # Teredo
    "3fff::1",  # documentation (RFC 9637)
    "192.0.0.8",  # IETF protocol assignments (RFC 6890)
    "192.0.0.9",
    "192.0.0.170",
    "192.88.99.1",  # 6to4 relay anycast (deprecated)
])
def test_embedded_ipv4_deprecated_and_tunnelling_forms_are_refused(address: str) -> None:
    with pytest.raises(RefusedUrl, match="loopback, private or reserved"):
        check_url("https://docs.internal/acme.git", resolver=resolves_to(address))
    bracketed = f"[{address}]" if ":" in address else address
    with pytest.raises(RefusedUrl, match="loopback, private or reserved"):
        check_url(f"https://{bracketed}/acme.git", resolve=False)


@pytest.mark.parametrize("address", [
    "140.82.112.3",
    "2620:0:2d0:200::7",
    "64:ff9b::8c52:7003",  # NAT64 of a public address
    "2002:8c52:7003::1",  # 6to4 of a public address
    "::ffff:140.82.112.3",  # IPv4-mapped public address
])
def test_forms_embedding_a_public_ipv4_address_are_allowed(address: str) -> None:
    url = "https://github.com/acme/docs.git"
    assert check_url(url, resolver=resolves_to(address)) == url
