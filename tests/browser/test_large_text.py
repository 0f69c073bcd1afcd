"""Text that follows the phone, pages that reflow, targets a finger hits: the checks
tests/browser/test_layout.py makes on every kind of page in English, Russian and Persian
while it has each page open (the text size the reader sets, every text's computed size,
every control's box), and the root size read back from the browser's."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.helpers import text_size

pytestmark = [pytest.mark.browser, pytest.mark.once]


def test_the_root_size_follows_the_browsers(live_url: str, browser: Any) -> None:
    """The page's root text is the browser's size times 18/16 (the app's 18 px at the
    usual 16): 36 px when the reader set 32, 9 px apart from nothing at 8."""
    context = browser.new_context()
    try:
        page = context.new_page()
        for points, root in ((16, 18), (32, 36), (8, 9)):
            text_size(page, points)
            page.goto(live_url + "/")
            assert page.evaluate(ROOT_JS) == root
    finally:
        context.close()


ROOT_JS = "parseFloat(getComputedStyle(document.documentElement).fontSize)"
