"""The installable app: manifest, icons, favicon, service worker, QR code
routes and the addresses other phones can open."""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import lan

SVG_NS = "{http://www.w3.org/2000/svg}"


class Links(HTMLParser):
    """The <link> and <img> elements of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[dict[str, str | None]] = []
        self.images: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "link":
            self.links.append(dict(attrs))
        elif tag == "img":
            self.images.append(dict(attrs))


def parse(html: str) -> Links:
    parser = Links()
    parser.feed(html)
    return parser


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def new_game(client: FlaskClient) -> dict[str, Any]:
    created = client.post("/api/v1/games", json={"variant": "gin", "players": ["Ann", "Bob"]})
    game: dict[str, Any] = created.get_json()
    return game


def as_editor(app: Flask, game: dict[str, Any]) -> FlaskClient:
    client = app.test_client()
    assert client.get(f"/g/{game['id']}?key={game['edit_secret']}").status_code == 302
    return client


def test_the_manifest_names_the_app_and_opens_full_screen(client: FlaskClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    data = json.loads(response.data)
    assert data["name"] == "Scorekeeper"
    assert data["short_name"] == "Scorekeeper"
    assert data["start_url"] == "/"
    assert data["scope"] == "/"
    assert data["display"] == "standalone"
    assert data["theme_color"] == "#0b6e4f"
    assert [(i["sizes"], i["type"], i.get("purpose", "any")) for i in data["icons"]] == [
        ("192x192", "image/png", "any"),
        ("512x512", "image/png", "any"),
        ("512x512", "image/png", "maskable"),
        ("any", "image/svg+xml", "any"),
    ]


def test_the_manifest_icons_exist_and_have_the_sizes_it_claims(client: FlaskClient) -> None:
    icons = json.loads(client.get("/manifest.webmanifest").data)["icons"]
    for icon in icons:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon["src"]
        assert response.mimetype == icon["type"]
        if icon["type"] == "image/png":
            width, height = png_size(response.data)
            assert f"{width}x{height}" == icon["sizes"]
        else:
            svg = ElementTree.fromstring(response.data)
            assert svg.tag == SVG_NS + "svg"
            assert svg.get("viewBox") == "0 0 100 100"
        response.close()


def test_the_favicon_is_served(client: FlaskClient) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response.mimetype == "image/vnd.microsoft.icon"
    data = response.get_data()
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind) == (0, 1)  # an icon file
    sizes = sorted(data[6 + 16 * i] for i in range(count))
    assert sizes == [16, 32, 48]
    response.close()


def test_every_page_links_the_manifest_and_the_icons(app: Flask, client: FlaskClient) -> None:
    game = new_game(client)
    editor = as_editor(app, game)
    editor.post(
        f"/g/{game['id']}/hands",
        data={
            "outcome": "knock",
            "knocker": "0",
            "knocker_deadwood": "3",
            "defender_deadwood": "20",
            "version": "1",
            "token": "t1",
        },
    )
    pages = [
        "/",
        "/games/new",
        "/check",
        "/remi/check",
        "/pads",
        "/import",
        f"/g/{game['id']}",
        f"/g/{game['id']}/history",
        f"/g/{game['id']}/hands/1",
        f"/g/{game['id']}/share/edit",
        "/no-such-page",
    ]
    for path in pages:
        response = editor.get(path)
        assert response.status_code in (200, 404), path
        links = parse(response.get_data(as_text=True)).links
        manifest = [link["href"] for link in links if link.get("rel") == "manifest"]
        assert manifest == ["/manifest.webmanifest?lang=en"], path
        icons = [link["href"] for link in links if link.get("rel") == "icon"]
        assert icons == ["/favicon.ico", "/static/icons/icon.svg"], path


def test_the_service_worker_is_served_at_the_root_and_keeps_the_apps_files(
    client: FlaskClient,
) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["Service-Worker-Allowed"] == "/"
    body = response.get_data(as_text=True)
    found = re.search(r"^const ASSETS = (\[.*\]);$", body, re.MULTILINE)
    assert found is not None
    assets = json.loads(found.group(1))
    for name in ("style.css", "app.js", "picker.js", "icons/icon-192.png", "icons/icon.svg"):
        assert f"/static/{name}" in assets
    # The modules app.js imports: a page opened offline runs them from the phone's copy.
    for name in ("worker", "offline", "store", "handform", "send", "pending", "network",
                 "wakelock", "times"):
        assert f"/static/app/{name}.js" in assets
    for asset in assets:
        fetched = client.get(asset)
        assert fetched.status_code == 200, asset
        fetched.close()


def test_the_policy_still_allows_no_inline_script(client: FlaskClient) -> None:
    policy = client.get("/").headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_the_watch_qr_code_is_for_anyone_the_edit_qr_code_only_for_editors(
    app: Flask, client: FlaskClient
) -> None:
    game = new_game(client)
    watcher = app.test_client()
    watch = watcher.get(f"/g/{game['id']}/qr/watch.svg")
    assert watch.status_code == 200
    assert watch.mimetype == "image/svg+xml"
    assert ElementTree.fromstring(watch.data).tag == SVG_NS + "svg"
    assert watcher.get(f"/g/{game['id']}/qr/edit.svg").status_code == 403
    assert watcher.get(f"/g/{game['id']}/share/edit").status_code == 403

    editor = as_editor(app, game)
    edit = editor.get(f"/g/{game['id']}/qr/edit.svg")
    assert edit.status_code == 200
    assert edit.headers["Cache-Control"] == "private, no-store"
    page = editor.get(f"/g/{game['id']}/share/edit")
    assert page.status_code == 200
    assert [i["src"] for i in parse(page.get_data(as_text=True)).images] == [
        f"/g/{game['id']}/qr/edit.svg"
    ]
    # On the sheet only the watch link's code is shown; the edit code takes a tap.
    sheet = editor.get(f"/g/{game['id']}").get_data(as_text=True)
    assert [i["src"] for i in parse(sheet).images] == [f"/g/{game['id']}/qr/watch.svg"]
    assert f'href="/g/{game["id"]}/share/edit"' in sheet


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("127.0.0.1", []),
        ("localhost", []),
        ("::1", []),
        ("0.0.0.0", ["http://192.168.1.23:5000/", "http://10.0.0.7:5000/"]),
        ("::", ["http://192.168.1.23:5000/", "http://10.0.0.7:5000/"]),
        ("192.168.1.50", ["http://192.168.1.50:5000/"]),
        (None, []),
    ],
)
def test_the_urls_other_phones_can_open(host: str | None, expected: list[str]) -> None:
    def lookup() -> list[str]:
        return ["192.168.1.23", "10.0.0.7"]

    assert lan.listen_urls(host, "5000", lookup) == expected


def test_the_machines_own_addresses_are_never_loopback() -> None:
    addresses = lan.machine_addresses()
    assert all(lan.usable(a) for a in addresses)
    assert not lan.usable("127.0.0.1") and not lan.usable("169.254.1.1")
    assert not lan.usable("0.0.0.0") and lan.usable("192.168.1.23")


def test_the_home_page_shows_where_other_phones_can_open_it(make_app: Any) -> None:
    app = make_app(LISTEN_HOST="0.0.0.0", LISTEN_PORT="5000", LAN_ADDRESSES=["192.168.1.23"])
    html = app.test_client().get("/").get_data(as_text=True)
    assert "Open on another phone" in html
    assert [i["src"] for i in parse(html).images] == ["/qr/server/0.svg"]
    assert '<a class="url" href="http://192.168.1.23:5000/">http://192.168.1.23:5000/</a>' in html
    assert app.test_client().get("/qr/server/1.svg").status_code == 404

    loopback = make_app(LISTEN_HOST="127.0.0.1", LISTEN_PORT="5000")
    html = loopback.test_client().get("/").get_data(as_text=True)
    assert "Open on another phone" not in html
    assert loopback.test_client().get("/qr/server/0.svg").status_code == 404


def test_links_made_on_the_servers_own_machine_point_other_phones_at_its_address(
    make_app: Any,
) -> None:
    app = make_app(LISTEN_HOST="0.0.0.0", LISTEN_PORT="5000", LAN_ADDRESSES=["192.168.1.23"])
    client = app.test_client()
    game = new_game(client)
    client.get(f"/g/{game['id']}?key={game['edit_secret']}")
    html = client.get(f"/g/{game['id']}").get_data(as_text=True)
    assert f'value="http://192.168.1.23:5000/g/{game["id"]}" id="watch-url"' in html
    key = game["edit_secret"]
    share = client.get(f"/g/{game['id']}/share/edit").get_data(as_text=True)
    assert f'value="http://192.168.1.23:5000/g/{game["id"]}?key={key}" id="edit-url"' in share


def read_terminal_qr(lines: list[str], folder: Path) -> str:
    """What a phone's camera reads from a QR code drawn in a terminal: a character is two
    modules, its upper and lower half; a drawn half glows (light), a blank one is dark."""
    zbarimg = shutil.which("zbarimg")
    if zbarimg is None:
        pytest.fail("zbarimg is missing: `make test` installs Debian's zbar-tools")
    drawn = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0)}
    scale = 8  # pixels a module
    rows: list[list[int]] = []
    for line in lines:
        halves = [drawn[char] for char in line]
        rows += [[half[0] for half in halves], [half[1] for half in halves]]
    width = max(len(row) for row in rows)
    pixels = bytearray()
    for row in [[1] * width] * 4 + rows + [[1] * width] * 4:  # light all round
        padded = [1] * 4 + row + [1] * (width - len(row) + 4)
        pixels += bytes(255 * module for module in padded for _ in range(scale)) * scale
    image = folder / "terminal-qr.pgm"
    size = f"{(width + 8) * scale} {(len(rows) + 8) * scale}"
    image.write_bytes(f"P5 {size} 255\n".encode() + bytes(pixels))
    done = subprocess.run([zbarimg, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable",
                           str(image)], capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.rstrip("\n")


def test_make_run_prints_the_urls(make_app: Any, tmp_path: Path) -> None:
    app = make_app(LISTEN_HOST="0.0.0.0", LISTEN_PORT="5000", LAN_ADDRESSES=["192.168.1.23"])
    result = app.test_cli_runner().invoke(args=["urls"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[:2] == ["Open on another phone (same Wi-Fi):", "  http://192.168.1.23:5000/"]
    assert read_terminal_qr(lines[2:], tmp_path) == "http://192.168.1.23:5000/"

    quiet = make_app(LISTEN_HOST="127.0.0.1", LISTEN_PORT="5000")
    result = quiet.test_cli_runner().invoke(args=["urls"])
    assert result.output.startswith("Listening on 127.0.0.1 only")


@pytest.mark.parametrize(
    ("language", "kept"),
    [
        ("en", "The server cannot be reached; the hand is still kept on this phone."),
        ("ru", "Сервер недоступен; раздача по-прежнему хранится на этом телефоне."),
        ("fa", "به سرور دسترسی نیست؛ این دست همچنان روی این گوشی نگه داشته شده است."),
    ],
)
def test_the_card_page_says_in_its_language_that_a_hand_it_could_not_send_is_kept(
    app: Flask, language: str, kept: str
) -> None:
    """What static/app/offline.js shows on the card-entry page when no service worker is there
    and the server cannot be reached (tests/browser/test_offline.py shows it)."""
    game = new_game(app.test_client())
    editor = as_editor(app, game)
    page = editor.get(f"/g/{game['id']}/hands/new", headers={"Accept-Language": language})
    assert page.status_code == 200
    form = re.search(r"<form[^>]*data-offline-queue[^>]*>", page.get_data(as_text=True))
    assert form is not None
    assert re.search(r'data-kept-text="([^"]*)"', form[0])[1] == kept  # type: ignore[index]
