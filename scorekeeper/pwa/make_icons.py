"""Draw the app's icons once: ``python -m scorekeeper.pwa.make_icons`` (needs Pillow,
which WeasyPrint already brings). The results are committed under ``static/icons/``.

The motif: a white playing card with a black spade on the app's green. Everything is
drawn on a 100×100 grid; the SVG and the PNGs share the same shapes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

GREEN = "#0b6e4f"
CARD = (24, 14, 76, 86)  # left, top, right, bottom
CARD_RADIUS = 6
# A spade: the point and shoulders, two lobes, a stem (around the centre, 0.66 scale).
SHOULDERS = [(50, 14), (74, 45), (77, 57), (50, 68), (23, 57), (26, 45)]
LOBES = [(37, 57, 14), (63, 57, 14)]
STEM = [(50, 60), (60, 82), (40, 82)]
SPADE_SCALE = 0.66

OUT = Path(__file__).resolve().parents[1] / "static" / "icons"


def _spade(x: float, y: float) -> tuple[float, float]:
    return 50 + (x - 50) * SPADE_SCALE, 50 + (y - 50) * SPADE_SCALE


def draw(size: int, *, maskable: bool) -> Image.Image:
    """The icon at ``size`` pixels; ``maskable`` fills the square and keeps the motif
    inside the central safe circle (80 %)."""
    big = size * 4  # drawn large, then scaled down: smooth edges
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    unit = big / 100
    content = 0.8 if maskable else 1.0

    def at(x: float, y: float) -> tuple[float, float]:
        return ((50 + (x - 50) * content) * unit, (50 + (y - 50) * content) * unit)

    if maskable:
        pen.rectangle((0, 0, big, big), fill=GREEN)
    else:
        pen.rounded_rectangle((0, 0, big - 1, big - 1), radius=20 * unit, fill=GREEN)
    left, top = at(CARD[0], CARD[1])
    right, bottom = at(CARD[2], CARD[3])
    pen.rounded_rectangle((left, top, right, bottom), radius=CARD_RADIUS * unit, fill="white")
    pen.polygon([at(*_spade(x, y)) for x, y in SHOULDERS], fill="black")
    pen.polygon([at(*_spade(x, y)) for x, y in STEM], fill="black")
    for cx, cy, r in LOBES:
        x, y = at(*_spade(cx, cy))
        radius = r * SPADE_SCALE * content * unit
        pen.ellipse((x - radius, y - radius, x + radius, y + radius), fill="black")
    return image.resize((size, size), Image.Resampling.LANCZOS)


def svg() -> str:
    """The same icon as SVG (the manifest's scalable icon and the pages' favicon)."""
    s = SPADE_SCALE

    def pts(points: Sequence[tuple[float, float]]) -> str:
        return " ".join(f"{x:g},{y:g}" for x, y in (_spade(px, py) for px, py in points))

    lobes = "".join(
        f'<circle cx="{_spade(cx, cy)[0]:g}" cy="{_spade(cx, cy)[1]:g}" r="{r * s:g}"/>'
        for cx, cy, r in LOBES
    )
    left, top, right, bottom = CARD
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<rect width="100" height="100" rx="20" fill="{GREEN}"/>'
        f'<rect x="{left}" y="{top}" width="{right - left}" height="{bottom - top}" '
        f'rx="{CARD_RADIUS}" fill="#fff"/>'
        f'<g fill="#000"><polygon points="{pts(SHOULDERS)}"/><polygon points="{pts(STEM)}"/>'
        f"{lobes}</g></svg>\n"
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    draw(192, maskable=False).save(OUT / "icon-192.png", optimize=True)
    draw(512, maskable=False).save(OUT / "icon-512.png", optimize=True)
    draw(512, maskable=True).save(OUT / "icon-maskable-512.png", optimize=True)
    draw(180, maskable=True).convert("RGB").save(OUT / "apple-touch-icon.png", optimize=True)
    draw(256, maskable=False).save(OUT / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])
    (OUT / "icon.svg").write_text(svg())


if __name__ == "__main__":
    main()
