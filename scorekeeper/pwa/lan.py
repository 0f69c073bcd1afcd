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
