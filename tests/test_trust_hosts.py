"""The names the app answers to, and HTTPS-only settings: no link the app hands out (an
edit QR, the API's ``edit_url``, a ruling's link) names a host that a request merely
claimed, and a server set up for HTTPS says so to the browser."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper import _environment

GAME = {"players": ["Ann", "Bob"]}
RULING = {"knocker": {"cards": "AS 2S 3S 4H 5H 6H 7D 8D 9D KC"},
          "defender": {"cards": "AC 2C 3C 4C 5D 6D 7S 8S 9S QH"}}


@pytest.mark.parametrize("host", ["evil.example", "evil.example:5000", "127.0.0.1.nip.io"])
def test_a_request_for_another_sites_name_is_refused_and_makes_nothing(
        client: FlaskClient, host: str) -> None:
    headers = {"Host": host}
    for response in (client.post("/api/v1/games", json=GAME, headers=headers),
                     client.post("/api/v1/rulings", json=RULING, headers=headers),
                     client.get("/", headers=headers)):
        assert response.status_code == 400, response.get_data(as_text=True)
    created = client.post("/api/v1/games", json=GAME)
    assert created.status_code == 201
    assert created.get_json()["edit_url"].startswith("http://localhost/g/")


@pytest.mark.parametrize("host", ["192.168.1.23:5000", "[::1]:5000", "kitchen-pc:5000",
                                  "pi.local:5000", "localhost"])
def test_the_computers_own_names_on_its_network_are_served(client: FlaskClient,
                                                           host: str) -> None:
    created = client.post("/api/v1/games", json=GAME, headers={"Host": host})
    assert created.status_code == 201
    assert created.get_json()["edit_url"].startswith(f"http://{host}/g/")


def test_configured_names_are_the_only_ones(make_app: Any) -> None:
    client = make_app(HOSTS=["cards.example.org", ".club.example"]).test_client()
    for host, status in (("cards.example.org", 201), ("table.club.example", 201),
                         ("192.168.1.23:5000", 400), ("localhost", 400),
                         ("evil.example", 400)):
        response = client.post("/api/v1/games", json=GAME, headers={"Host": host})
        assert response.status_code == status, host
    ruling = client.post("/api/v1/rulings", json=RULING, headers={"Host": "cards.example.org"})
    assert ruling.status_code == 201
    assert ruling.get_json()["url"].startswith("http://cards.example.org/rulings/")


def test_the_names_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREKEEPER_HOSTS", "cards.example.org, .club.example")
    assert _environment()["HOSTS"] == ["cards.example.org", ".club.example"]


def test_behind_a_proxy_its_forwarded_host_is_used(make_app: Any) -> None:
    client = make_app(PROXIES=1).test_client()
    created = client.post("/api/v1/games", json=GAME, headers={
        "X-Forwarded-Host": "cards.example.org", "X-Forwarded-Proto": "https"})
    assert created.get_json()["edit_url"].startswith("https://cards.example.org/g/")


def test_https_only_sends_hsts_and_a_secure_language_cookie(make_app: Any) -> None:
    secure = make_app(SESSION_COOKIE_SECURE=True).test_client()
    plain = make_app().test_client()
    for path in ("/", "/api/v1/openapi.json", "/nowhere"):
        assert secure.get(path).headers["Strict-Transport-Security"] == "max-age=31536000"
        assert "Strict-Transport-Security" not in plain.get(path).headers
    for client, flagged in ((secure, True), (plain, False)):
        cookie = client.post("/lang", data={"lang": "fa", "next": "/"}).headers["Set-Cookie"]
        assert cookie.startswith("lang=fa;"), cookie
        assert ("; Secure" in cookie) is flagged, cookie
