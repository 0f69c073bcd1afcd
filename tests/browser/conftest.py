"""Playwright driving Debian's Chromium at a phone's size (390×844)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.live import serve

CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")
OUTPUT = Path(__file__).resolve().parents[2] / "test-output" / "browser"


@pytest.fixture(scope="module")
def module_server(worker_app: Flask) -> Iterator[str]:
    """The worker's app served by waitress on a free port, for a module's tests."""
    with serve(worker_app) as url:
        yield url


@pytest.fixture
def live_url(app: Flask, module_server: str) -> str:
    """The app (``app``: its tables emptied for the test) served by waitress on a free
    port: one server for the module's tests, which keeps nothing between them."""
    return module_server


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the session."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield chromium
        chromium.close()


@contextmanager
def phone_page(browser: Any, request: pytest.FixtureRequest, width: int = 390,
               height: int = 844, **options: Any) -> Iterator[Any]:
    """A page in a phone-sized window of its own (own cookies); ``page.shot(name)`` saves
    a screenshot under the test's name. ``options`` go to the browser context."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=1, **{"locale": "en-GB", **options})
    page = context.new_page()
    folder = OUTPUT / request.node.name
    folder.mkdir(parents=True, exist_ok=True)

    def shot(name: str) -> None:
        page.screenshot(path=str(folder / f"{name}.png"), full_page=True)

    page.shot = shot
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def phone(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page in a phone-sized window; ``phone.shot(name)`` saves a screenshot."""
    with phone_page(browser, request) as page:
        yield page


@pytest.fixture
def narrow(browser: Any) -> Iterator[Any]:
    """``narrow(language)``: a page in a 360 px phone reading ``language``."""
    from tests.browser.helpers import WIDTH

    with phones(browser) as make:
        yield lambda language: make(language, WIDTH, 780)


@pytest.fixture
def screen(browser: Any) -> Iterator[Any]:
    """``screen(language, width, height)``: a page of that size reading ``language``."""
    with phones(browser) as make:
        yield lambda language, width=360, height=780: make(language, width, height)


@contextmanager
def phones(browser: Any) -> Iterator[Any]:
    """``make(language, width, height)``: a new page of that size reading ``language``
    (its own browser context, closed at the end), the catalogs compiled."""
    from tests.browser.helpers import LANGUAGES
    from tests.helpers import compile_catalogs

    compile_catalogs()
    contexts: list[Any] = []

    def make(language: str, width: int, height: int) -> Any:
        context = browser.new_context(
            viewport={"width": width, "height": height}, device_scale_factor=1,
            locale=LANGUAGES[language], extra_http_headers={"Accept-Language": language})
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
