"""Behind a reverse proxy (``SCOREKEEPER_PROXIES``): links say the scheme and host the
phone used, and each client is limited by its own address, not the proxy's."""

from __future__ import annotations

from typing import Any

import pytest

FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "cards.example.org"}


def create(client: Any, address: str) -> Any:
    return client.post("/api/v1/games", json={"players": ["Ann", "Bob"]},
                       headers={**FORWARDED, "X-Forwarded-For": address})


def test_behind_one_proxy_links_use_the_forwarded_scheme_and_host(make_app: Any) -> None:
    game = create(make_app(PROXIES=1).test_client(), "203.0.113.5").get_json()
    assert game["view_url"] == f"https://cards.example.org/g/{game['id']}"


def test_without_a_proxy_forwarded_headers_are_not_believed(make_app: Any) -> None:
    game = create(make_app().test_client(), "203.0.113.5").get_json()
    assert game["view_url"] == f"http://localhost/g/{game['id']}"


@pytest.mark.parametrize("proxies", [0, 1])
def test_the_creation_limit_counts_each_forwarded_client_apart(make_app: Any,
                                                               proxies: int) -> None:
    """One creation a minute: a second client behind the same proxy still gets its
    game when the proxy is declared, and shares the proxy's count when it is not."""
    client = make_app(PROXIES=proxies, RATELIMIT_ENABLED=True,
                      RATELIMIT_CREATE="1 per minute").test_client()
    assert create(client, "203.0.113.5").status_code == 201
    assert create(client, "203.0.113.5").status_code == 429
    assert create(client, "198.51.100.7").status_code == (201 if proxies else 429)
