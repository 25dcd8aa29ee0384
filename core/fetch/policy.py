"""The address policy: which URLs, hosts, ports and addresses the fetcher may reach at all.

``check_url`` refuses a URL before any network use: not http(s), credentials in it, a port
other than ``allowed_ports``, a host outside the allowlist, or a host that is itself an IP
address (in any spelling: ``2130706433``, ``0x7f000001``, ``127.1``, ``[::ffff:7f00:1]``) that
is not a public internet address. ``check_address`` judges one resolved address; the guarded
connection (``core.fetch.netguard``) asks it on every new connection.

``allow_private`` (``--allow-private``) lifts the address rule (loopback, private, link-local,
multicast, reserved, unspecified) AND the port rule: intranet services and test servers
listen on any port. It never lifts the scheme rule, the credentials rule or the allowlist.
A refusal is a value (``Refused``, with the editor's reason); this module opens no connection.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from core.errors import Refused
from core.fetch.hostname import link_problem
from core.models import CheckPolicy
from core.settings import Settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
SCHEMES = ("http", "https")
#: Schemes that run code or read local files when opened: always refused by name.
_DANGEROUS_SCHEMES = frozenset({"javascript", "vbscript", "data", "file", "blob", "filesystem"})
_HINT_PRIVATE = "If this is your own intranet, run again with --allow-private."
# NAT64 embeds an IPv4 address in the last 32 bits; a private one must not slip through.
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_SHARED = ipaddress.IPv4Network("100.64.0.0/10")
_NUMERIC_HOST = re.compile(r"^[0-9a-fx.]+$", re.IGNORECASE)


@dataclass(frozen=True)
class Policy:
    """What may be fetched: private addresses, ports, domains."""

    allow_private: bool = False
    allowed_ports: tuple[int, ...] = (80, 443)
    allowed_domains: tuple[str, ...] = ()

    @classmethod
    def from_settings(cls, settings: Settings) -> Policy:
        """Return the policy the settings describe, domains normalised to lower-case ASCII."""
        domains = tuple(d for d in (normalise_domain(x) for x in settings.allowed_domains) if d)
        return cls(settings.allow_private, tuple(settings.allowed_ports), domains)


def checked_under(settings: Settings) -> CheckPolicy:
    """Return the policy a run records it was checked under: the settings' private-network rule and domains."""
    return CheckPolicy(allow_private=settings.allow_private, allowed_domains=tuple(settings.allowed_domains))


@dataclass(frozen=True, kw_only=True)
class Target:
    """A URL the policy accepted: its scheme, host (lower-case ASCII), port and IP if literal."""

    url: str
    scheme: str
    host: str
    port: int
    ip: IPAddress | None = None


# --------------------------------------------------------------------------- addresses


def address_problem(ip: IPAddress) -> str | None:
    """Return why an address is not a public internet address ("loopback, this computer", ...), or None."""
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if embedded is None and ip in _NAT64:
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if embedded is not None:
            inner = address_problem(embedded)
            if inner is not None:
                return f"{inner}, an IPv4 address written as IPv6"
    if ip.is_unspecified:
        return "unspecified, which reaches this computer"
    if ip.is_loopback:
        return "loopback, this computer"
    if ip.is_link_local:
        return "link-local, where cloud metadata services such as 169.254.169.254 live"
    if ip.is_multicast:
        return "multicast"
    if isinstance(ip, ipaddress.IPv4Address) and ip in _SHARED:
        return "shared carrier-grade NAT space"
    if ip.is_reserved:
        return "reserved"
    if ip.is_private:
        return "private network"
    if not ip.is_global:
        return "not routed on the public internet"
    return None


def parse_ip_host(host: str) -> IPAddress | None:
    """Return the IP address a URL host spells (odd IPv4 spellings included), or None for a name."""
    h = host.strip("[]")
    try:
        return ipaddress.ip_address(h)
    except ValueError:
        pass
    # inet_aton reads what browsers and resolvers read: 2130706433, 0x7f000001, 127.1, 0177.0.0.1.
    if _NUMERIC_HOST.match(h) and any(c.isdigit() for c in h):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(h))
        except OSError:
            return None
    return None


def check_address(host: str, address: str, policy: Policy) -> Refused | None:
    """Return the refusal for connecting to address (resolved from host), or None when allowed."""
    if policy.allow_private:
        return None
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return Refused("address", f"The host {host} resolved to {address!r}, which is not an IP address.")
    problem = address_problem(ip)
    if problem is None:
        return None
    literal = parse_ip_host(host)
    subject = f"The address {host}" if literal is not None else f"The host {host} resolves to {address}, which"
    return Refused(
        "private_address",
        f"{subject} is not a public internet address ({problem}): Verbatim does not fetch from private or"
        f" local networks. {_HINT_PRIVATE}",
    )


# --------------------------------------------------------------------------- URLs


def normalise_domain(domain: str) -> str:
    """Return a domain as lower-case ASCII without a leading "*." or trailing dot ("" if unusable)."""
    d = domain.strip().lower().removeprefix("*.").strip(".")
    if "://" in d:
        d = urlsplit(d).hostname or ""
    try:
        return d.encode("idna").decode("ascii") if d else ""
    except UnicodeError:
        return d


def in_allowlist(host: str, domains: Iterable[str]) -> bool:
    """Return True when host is one of domains or a subdomain of one."""
    return any(host == d or host.endswith("." + d) for d in domains)


def check_url(url: str, policy: Policy) -> Target | Refused:
    """Return the checked target of an http(s) URL, or the Refused saying which rule it breaks."""
    text = url.strip()
    shown = text if len(text) <= 80 else text[:77] + "..."
    if not text:
        return Refused("malformed", "The claim's link is empty: add the source's web address to the brief.")
    if any(c.isspace() or ord(c) < 32 for c in text):
        return Refused("malformed", f"The link {shown!r} contains spaces or control characters: fix it in the brief.")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as e:
        return Refused("malformed", f"The link {shown!r} is malformed ({e}): fix it in the brief.")
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        # A script or local scheme is named as refused whatever follows it ("javascript:a.b()"),
        # never mistaken for a mistyped web address.
        typo = not scheme or (not parts.netloc and "." in parts.path.split("/")[0])
        if typo and scheme not in _DANGEROUS_SCHEMES:
            return Refused(
                "scheme", f"The link {shown!r} does not start with http:// or https://: fix it in the brief."
            )
        return Refused(
            "scheme",
            f"Verbatim fetches only http and https links; {scheme}: links are refused"
            " (they could read this computer's files or run code). Supply the source yourself if you have it.",
        )
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        return Refused(
            "credentials",
            f"The link {scheme}://…@{parts.hostname or ''} carries a user name or password; Verbatim never"
            " sends credentials. Remove them from the link, or supply the page yourself.",
        )
    problem = link_problem(text)
    if problem is not None:
        return Refused("malformed", f"The link {shown!r} cannot be fetched: {problem}. Fix the link in the brief.")
    try:
        parsed = httpx.URL(text)
        host = parsed.raw_host.decode("ascii").lower().rstrip(".")
        _ = parsed.host  # decodes punycode: a label httpx cannot decode raises here, not when the request is built
    except (httpx.InvalidURL, UnicodeError, ValueError) as e:
        # httpx rejects some spellings browsers accept (0177.0.0.1): name the address, not the syntax.
        odd = parse_ip_host(parts.hostname or "")
        refusal = check_address(parts.hostname or "", str(odd), policy) if odd is not None else None
        return refusal or Refused("malformed", f"The link {shown!r} is malformed ({e}): fix it in the brief.")
    if not host:
        return Refused("malformed", f"The link {shown!r} has no host name: fix it in the brief.")
    port = port if port is not None else (443 if scheme == "https" else 80)
    if policy.allowed_domains and not in_allowlist(host, policy.allowed_domains):
        return Refused(
            "allowlist",
            f"{host} is outside the allowed domains ({', '.join(policy.allowed_domains)}). Add it with"
            " --allow-domain if this source should be read.",
        )
    ip = parse_ip_host(host)
    if ip is not None:
        refusal = check_address(host, str(ip), policy)
        if refusal is not None:
            return refusal
    if not policy.allow_private and port not in policy.allowed_ports:
        allowed = ", ".join(str(p) for p in policy.allowed_ports)
        return Refused(
            "port",
            f"The link uses port {port}; only ports {allowed} are fetched, because other ports usually"
            f" belong to internal services. {_HINT_PRIVATE}",
        )
    return Target(url=text, scheme=scheme, host=host, port=port, ip=ip)
