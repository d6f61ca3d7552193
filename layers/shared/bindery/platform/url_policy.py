"""Which URLs Bindery fetches for a caller (Git Sync repositories, files uploaded by URL), and how such
URLs appear in messages.

A repository or file URL comes from the caller, and Bindery fetches it from inside the deployment: left
unchecked it would let anyone make Bindery read its own disk (`file://`) or probe the network it runs in
(loopback, private and link-local addresses, the instance metadata endpoint). So:

* `http://` and `https://` only; `file://` only for Git Sync where `git_allow_file_urls` is on (the local
  runner);
  nothing else (`ssh://`, `git://`, scp-like `host:path`, bare paths) ever reaches the transport;
* the host is resolved and every address it resolves to must be public (global unicast), unless
  `allow_private_hosts` is on;
* credentials may be in the URL (the spec allows basic auth there), so every message, log line and
  stored run shows the URL through `redact`, never as given.

The check runs when the run is started (a 400 names the field) and again in the worker right before the
fetch (DNS may have changed meanwhile), and on every redirect before it is followed (Git over HTTP:
gitsync.transport.CheckedRedirects; uploads: remote_files). A name that resolves differently between the
check and the connection (DNS rebinding) is not caught here; deployments that need that guarantee put
the worker behind an egress proxy.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from urllib.parse import SplitResult, urlsplit, urlunsplit

from bindery.platform.config import settings
from bindery.platform.errors import BadRequest

Resolver = Callable[[str], Iterable[str]]
NETWORK_SCHEMES = ("http", "https")
FILE_SCHEME = "file"


class RefusedUrl(BadRequest):
    """A URL Bindery will not fetch; the message names the field and shows the redacted URL."""


def resolve_host(host: str) -> list[str]:
    """Every address `host` resolves to (IPv4 and IPv6)."""
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except OSError as error:
        raise RefusedUrl(f"url: the host {host} cannot be resolved ({error.strerror or error})") from None
    except UnicodeError:  # not a name IDNA can encode (an empty or too long label, a lone surrogate)
        raise RefusedUrl(f"url: the host {host!a} is not a valid host name") from None
    return [str(info[4][0]) for info in infos]


def redact(url: str) -> str:
    """`url` without user name or password (the rest as given). Anything that does not parse as a URL
    is shown only by its scheme, since it may hold a secret where we would not expect one."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
        port = parts.port
    except ValueError:
        return "<invalid url>"
    if parts.username is None and parts.password is None:
        return url
    netloc = (host or "") if ":" not in (host or "") else f"[{host}]"
    if port is not None:
        netloc += f":{port}"
    return urlunsplit(SplitResult(parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def redact_text(text: str, url: str) -> str:
    """`text` (an error message from the transport, say) with the URL's credentials removed wherever
    they appear: as the whole URL, and as the bare password or user name."""
    cleaned = text.replace(url, redact(url))
    try:
        parts = urlsplit(url)
        secrets = [parts.password, parts.username]
    except ValueError:
        return cleaned
    for secret in secrets:
        if secret:
            cleaned = cleaned.replace(secret, "***")
    return cleaned


# IPv6 forms that reach an IPv4 address: the address is judged as the IPv4 one it carries. NAT64's
# well-known prefix (RFC 6052: `64:ff9b::a9fe:a9fe` is 169.254.169.254 behind a NAT64 gateway) and SIIT's
# IPv4-translated addresses (RFC 2765) carry it in their last 32 bits; IPv4-mapped (`::ffff:0:0/96`) and
# 6to4 (`2002::/16`, RFC 3056) are unwrapped by `ipaddress` itself.
_LAST_32_BITS = (ipaddress.IPv6Network("64:ff9b::/96"), ipaddress.IPv6Network("::ffff:0:0:0/96"))
# Refused whatever follows: IPv4-compatible addresses (`::/96`, deprecated by RFC 4291), local-use NAT64
# (`64:ff9b:1::/48`, RFC 8215: mapped to whatever the operator's network chooses), site-local
# (`fec0::/10`, deprecated by RFC 3879), Teredo tunnels (`2001::/32`, RFC 4380) and the documentation
# prefix `3fff::/20` (RFC 9637), which `ipaddress` does not know yet.
_REFUSED_V6 = tuple(ipaddress.IPv6Network(net) for net in
                    ("::/96", "64:ff9b:1::/48", "fec0::/10", "2001::/32", "3fff::/20"))
# IETF protocol assignments (`192.0.0.0/24`, RFC 6890: 192.0.0.8 and the anycast services, which
# `ipaddress` calls global) and the deprecated 6to4 relay anycast (`192.88.99.0/24`, RFC 7526).
_REFUSED_V4 = tuple(ipaddress.IPv4Network(net) for net in ("192.0.0.0/24", "192.88.99.0/24"))


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address reaches, for the forms that embed one."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if any(ip in network for network in _LAST_32_BITS):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def _public(address: str) -> bool:
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):  # the zone index is dropped above
        if any(ip in network for network in _REFUSED_V6):
            return False
        ip = _embedded_ipv4(ip) or ip
    if isinstance(ip, ipaddress.IPv4Address) and any(ip in network for network in _REFUSED_V4):
        return False
    return ip.is_global and not ip.is_multicast


def _is_address(host: str) -> bool:
    """Is the host written as an IP address (rather than a name)?"""
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    return True


def _addresses(host: str, field: str, resolver: Resolver) -> list[str]:
    try:
        return list(resolver(host))
    except RefusedUrl as refused:
        raise RefusedUrl(refused.message.replace("url:", f"{field}:", 1)) from None


def check_url(url: str, field: str = "url", *, resolver: Resolver = resolve_host,
              files_allowed: bool | None = None, resolve: bool = True) -> str:
    """`url` if Bindery may fetch it under the current settings; RefusedUrl (400) otherwise.
    `files_allowed` None: `file://` as the settings say for Git Sync; False: never (uploads by URL).
    `resolve` False checks only a host written as an address, leaving names to the check right before
    the fetch (a source that is fetched later, by a worker, where DNS is looked up anyway)."""
    conf = settings()
    allow_file = conf.git_allow_file_urls if files_allowed is None else files_allowed
    shown = redact(url)
    try:
        parts = urlsplit(url)
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError for a malformed port
    except ValueError:
        raise RefusedUrl(f"{field}: not a valid URL") from None
    scheme = parts.scheme.lower()
    if scheme == FILE_SCHEME:
        if not allow_file:
            raise RefusedUrl(f"{field}: file:// URLs are not allowed here ({shown})")
        if not parts.path or host not in (None, "", "localhost"):
            raise RefusedUrl(f"{field}: a file:// URL names a local path ({shown})")
        return url
    if scheme not in NETWORK_SCHEMES:
        allowed = "http(s)://" + (" or file://" if allow_file else "")
        raise RefusedUrl(f"{field}: only {allowed} URLs are supported ({shown})")
    if not host:
        raise RefusedUrl(f"{field}: the URL names no host ({shown})")
    if not conf.allow_private_hosts:
        if not resolve and not _is_address(host):
            return url
        addresses = _addresses(host, field, resolver)
        if not addresses:
            raise RefusedUrl(f"{field}: the host {host} cannot be resolved")
        if not all(_public(address) for address in addresses):
            raise RefusedUrl(f"{field}: {host} is a loopback, private or reserved address, which Bindery "
                             f"may not reach ({shown})")
    return url


def check_endpoint(url: str, field: str, *, resolver: Resolver = resolve_host) -> str:
    """`url` if Bindery may POST integration events to it: `check_url`'s rules (public addresses only,
    no `file://`), and `https://` only unless private hosts are allowed (the local runner, whose
    receivers are plain HTTP on loopback): an event is signed, not encrypted, and carries the content
    changes of an organization."""
    try:
        scheme = urlsplit(url).scheme.lower()
    except ValueError:
        raise RefusedUrl(f"{field}: not a valid URL") from None
    if not settings().allow_private_hosts and scheme != "https":
        raise RefusedUrl(f"{field}: only https:// URLs are supported ({redact(url)})")
    return check_url(url, field, resolver=resolver, files_allowed=False)
