"""Playwright driving Debian's Chromium at a phone's size (390×844)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.live import serve

CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")
OUTPUT = Path(__file__).resolve().parents[2] / "test-output" / "browser"


@pytest.fixture
def live_url(app: Flask) -> Iterator[str]:
    """The app served by waitress on a free port."""
    with serve(app) as url:
        yield url


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


@pytest.fixture
def phone(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page in a phone-sized window; ``phone.shot(name)`` saves a screenshot."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=1, locale="en-GB"
    )
    page = context.new_page()
    folder = OUTPUT / request.node.name
    folder.mkdir(parents=True, exist_ok=True)

    def shot(name: str) -> None:
        page.screenshot(path=str(folder / f"{name}.png"), full_page=True)

    page.shot = shot
    yield page
    context.close()
