"""QR codes drawn on the server (segno), as SVG or for a terminal."""

from __future__ import annotations

import io
from functools import lru_cache

import segno


@lru_cache(maxsize=512)  # about 7 ms to draw one; a sheet is opened many times
def svg(data: str, title: str = "") -> bytes:
    """A QR code of ``data`` as a standalone SVG that scales to its box (viewBox, no
    fixed size), dark on white with the four-module quiet zone readers need."""
    code = segno.make(data, error="m", micro=False)
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        scale=1,
        border=4,
        xmldecl=False,
        omitsize=True,
        title=title or None,
        dark="#000",
        light="#fff",
    )
    return out.getvalue()


def terminal(data: str) -> str:
    """A QR code of ``data`` drawn with block characters for a terminal."""
    code = segno.make(data, error="m", micro=False)
    out = io.StringIO()
    code.terminal(out=out, compact=True, border=2)
    return out.getvalue()
