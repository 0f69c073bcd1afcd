"""The colours chosen in the header (POST /theme): kept for the device in a cookie,
written by the server on every page's <html data-theme>, "auto" until one is chosen."""

from __future__ import annotations

import re

from flask.testing import FlaskClient


def html_tag(client: FlaskClient, url: str = "/") -> str:
    html = client.get(url, headers={"Accept-Language": "en"}).get_data(as_text=True)
    return html[html.index("<html"):html.index(">", html.index("<html")) + 1]


def test_auto_until_a_choice_is_made(client: FlaskClient) -> None:
    assert html_tag(client) == '<html lang="en" dir="ltr" data-theme="auto">'


def test_the_choice_is_kept_in_a_cookie_and_painted_by_the_server(client: FlaskClient) -> None:
    response = client.post("/theme", data={"theme": "contrast", "next": "/pads"})
    assert response.status_code == 302
    assert response.headers["Location"] == "/pads"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("theme=contrast;") and "HttpOnly" in cookie
    assert "Max-Age=31536000" in cookie and "SameSite=Lax" in cookie  # a year
    assert html_tag(client, "/pads") == '<html lang="en" dir="ltr" data-theme="contrast">'
    client.post("/theme", data={"theme": "dark", "next": "/"})
    html = client.get("/games/new").get_data(as_text=True)
    assert 'data-theme="dark"' in html
    # The header shows which is chosen.
    assert re.search(r'name="theme" value="dark"\s+aria-current="true">', html)
    assert html.count('aria-current="true">') == 2  # the theme and the language


def test_an_unknown_theme_changes_nothing(client: FlaskClient) -> None:
    client.post("/theme", data={"theme": "dark", "next": "/"})
    response = client.post("/theme", data={"theme": "purple", "next": "/"})
    assert "Set-Cookie" not in response.headers
    assert 'data-theme="dark"' in html_tag(client)


def test_a_cookie_of_no_theme_is_auto(client: FlaskClient) -> None:
    client.set_cookie("theme", "<script>")
    assert html_tag(client) == '<html lang="en" dir="ltr" data-theme="auto">'


def test_the_choice_goes_back_to_this_site_only(client: FlaskClient) -> None:
    response = client.post("/theme", data={"theme": "light", "next": "//evil.example/"})
    assert response.headers["Location"] == "/"


def test_every_page_has_the_choice(client: FlaskClient) -> None:
    for url in ("/", "/games/new", "/check", "/remi/check", "/pads", "/rules"):
        html = client.get(url).get_data(as_text=True)
        for code in ("auto", "light", "dark", "contrast"):
            assert f'name="theme" value="{code}"' in html, url
