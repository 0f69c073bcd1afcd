"""Where phones on the same network can reach this server.

``make run`` passes the address and port gunicorn binds (``HOST``, ``PORT``) as
``SCOREKEEPER_LISTEN_HOST`` and ``SCOREKEEPER_LISTEN_PORT``. On a loopback address no
other phone can connect, so there is nothing to show. On a wildcard address (``0.0.0.0``)
the machine's own IPv4 addresses are looked up: the host name's addresses, and the
address the routing table would use for an outside destination (a UDP socket is
*connected*, which only asks the kernel for a route: no packet is sent).
"""

from __future__ import annotations

import ipaddress
import socket
import time
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit, urlunsplit

from flask import Flask, current_app

from .charts import qr

WILDCARDS = {"0.0.0.0", "::", ""}
# Any private address will do: connecting a UDP socket sends nothing, it only picks a route.
_ROUTE_PROBE = ("10.254.254.254", 9)
_CACHE_SECONDS = 60.0
_cache: dict[str, tuple[float, list[str]]] = {}


def usable(address: str) -> bool:
    """An IPv4 address another phone could use: not loopback, link-local or wildcard."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return (
        ip.version == 4
        and not ip.is_loopback
        and not ip.is_link_local
        and not ip.is_unspecified
        and not ip.is_multicast
    )


def machine_addresses() -> list[str]:
    """This machine's IPv4 addresses other phones may reach, best guess first."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_ROUTE_PROBE)  # UDP connect: no packet leaves the machine
            found.append(str(probe.getsockname()[0]))
    except OSError:
        pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    found.extend(str(info[4][0]) for info in infos)
    return _unique(a for a in found if usable(a))


def listen_urls(
    host: str | None, port: str | int | None, lookup: Callable[[], list[str]] = machine_addresses
) -> list[str]:
    """The URLs phones can open, for a server bound to ``host``:``port`` (none when it
    listens on loopback only, or when nothing says where it listens)."""
    if host is None or port is None:
        return []
    host = host.strip().strip("[]")
    if host in WILDCARDS:
        addresses = _cached() if lookup is machine_addresses else lookup()
    elif usable(host):
        addresses = [host]
    else:
        return []  # loopback, a name, or IPv6: nothing we can vouch for
    return [f"http://{a}:{port}/" for a in addresses]


def _cached() -> list[str]:
    """The machine's addresses, looked up at most once a minute (the home page shows them)."""
    now = time.monotonic()
    hit = _cache.get("machine")
    if hit is not None and now - hit[0] < _CACHE_SECONDS:
        return hit[1]
    addresses = machine_addresses()
    _cache["machine"] = (now, addresses)
    return addresses


def _unique(items: Iterable[str]) -> list[str]:
    seen: list[str] = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen


def lan_urls() -> list[str]:
    """URLs other phones can open (empty when the server listens on loopback only)."""
    config = current_app.config
    lookup = config.get("LAN_ADDRESSES")
    return listen_urls(
        config.get("LISTEN_HOST"),
        config.get("LISTEN_PORT"),
        (lambda: list(lookup)) if lookup is not None else machine_addresses,
    )


def _loopback(host: str) -> bool:
    if host in {"localhost", ""}:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def phone_url(url: str) -> str:
    """``url`` as another phone can open it: a link built for ``127.0.0.1`` is useless on
    another phone, so it points at the machine's network address when there is one."""
    parts = urlsplit(url)
    if not _loopback(parts.hostname or ""):
        return url
    urls = lan_urls()
    if not urls:
        return url
    base = urlsplit(urls[0])
    return urlunsplit((base.scheme, base.netloc, parts.path, parts.query, parts.fragment))


def loopback_host(url: str) -> str | None:
    """The loopback host ``url`` names as another phone would get it (its QR code), or
    ``None`` when other phones can open it. Behind a reverse proxy (``PROXIES``) the
    links take the host the phone asked for, so a loopback one means the proxy passes
    on its own address instead."""
    host = urlsplit(phone_url(url)).hostname or ""
    return host if _loopback(host) else None


def urls_message() -> str:
    """What the server says on start about the addresses other phones can open."""
    urls = lan_urls()
    if not urls:
        host = current_app.config.get("LISTEN_HOST") or "127.0.0.1"
        return (
            f"Listening on {host} only: other phones cannot connect. "
            "`HOST=0.0.0.0 make run` opens it to the network."
        )
    lines = ["Open on another phone (same Wi-Fi):", *(f"  {url}" for url in urls)]
    return "\n".join([*lines, qr.terminal(urls[0])])


def init_app(app: Flask) -> None:
    """The template globals ``lan_urls()``, ``phone_url(url)`` and ``loopback_host()``:
    the pages that hand a link on to another phone."""
    app.add_template_global(lan_urls, "lan_urls")
    app.add_template_global(phone_url, "phone_url")
    app.add_template_global(loopback_host, "loopback_host")
