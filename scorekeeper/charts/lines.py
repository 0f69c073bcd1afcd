"""Line charts drawn on the server as inline SVG: no JavaScript, no library.

A chart is a few ``<polyline>``s (one per series), one ``<path>`` of markers per
series (the x positions it marks, e.g. the hands a player won), a zero line, an
optional target line, a y scale with round ticks, a few x labels and a legend.
Players are told apart by colour *and* by dash pattern and marker shape, so the
picture reads in black and white too. Everything is styled with presentation
attributes (the Content-Security-Policy forbids ``style`` attributes), every text
is escaped, and the same input gives byte-for-byte the same output.

The x axis runs left to right in every language, as numbers do; in a right-to-left
page (``rtl=True``) the legend is aligned to the right. Every label is wrapped in
Unicode isolation marks so a Persian name next to a number reads correctly, and the
picture sets ``direction="ltr"`` so an inherited right-to-left direction never flips
what ``text-anchor`` means.

>>> svg = line_chart(
...     [Series("Ann", [0, 25, 10], marks=[1])],
...     x_labels=["", "1", "2"], target=None, title="Race", description="Ann's totals",
...     width=200, height=100, chart_id="c",
... )
>>> svg.count("<polyline")
1
>>> 'points="36,80 114,20 192,56"' in svg
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from markupsafe import Markup, escape

Number = float | int | Decimal

# Okabe-Ito colours (distinct for colour-blind readers and in grey) with a dash
# pattern and a marker shape each, so no series depends on colour alone.
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "4 2", "1 2")
SHAPES = ("circle", "square", "triangle", "diamond", "cross", "bar")
GLYPHS = ("●", "■", "▲", "◆", "✕", "▬")  # the shapes as characters, for HTML legends
# The colours of ``key``'s characters, for a stylesheet (kept beside COLOURS).
KEY_CSS = "\n".join(f".chart-key-{i} {{ color: {c}; }}" for i, c in enumerate(COLOURS))

# Margins of the plot inside the picture (user units).
LEFT, RIGHT, TOP, BOTTOM = 36, 8, 8, 20
LEGEND_ROW = 16
MAX_X_LABELS = 8
MAX_LABEL = 32  # characters of a legend label (the text alternative has it in full)

FSI, PDI = "\u2068", "\u2069"


@dataclass(frozen=True)
class Series:
    """One line: its legend label, one value per x position, the x indexes it marks."""

    label: str
    values: Sequence[Number]
    marks: Sequence[int] = ()


@dataclass(frozen=True)
class Scale:
    """The y range (from one round tick to another) and its ticks."""

    low: Decimal
    high: Decimal
    ticks: tuple[Decimal, ...]


def num(value: float) -> str:
    """A coordinate with at most one decimal (``-0`` never appears).

    >>> num(12.0), num(3.14159), num(-0.04)
    ('12', '3.1', '0')
    """
    rounded = round(value, 1) + 0.0
    text = f"{rounded:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _decimal(value: Number) -> Decimal:
    return value if isinstance(value, Decimal) else Decimal(str(value))


def y_scale(values: Sequence[Number], target: Number | None = None, steps: int = 4) -> Scale:
    """Round ticks (1, 2 or 5 times a power of ten) covering 0, the values and the target.

    >>> [tick_text(t) for t in y_scale([0, 37, -12]).ticks]
    ['-20', '0', '20', '40']
    >>> [tick_text(t) for t in y_scale([0]).ticks]
    ['0', '1']
    >>> [tick_text(t) for t in y_scale([Decimal("0.12"), Decimal("-0.3")]).ticks]
    ['-0.4', '-0.2', '0', '0.2']
    """
    points = [Decimal(0), *(_decimal(v) for v in values)]
    if target is not None:
        points.append(_decimal(target))
    low, high = min(points), max(points)
    if low == high:
        high = low + 1
    raw = (high - low) / steps
    exponent = math.floor(math.log10(raw))
    step = Decimal(10) ** exponent
    for factor in (1, 2, 5, 10):
        step = Decimal(factor) * Decimal(10) ** exponent
        if step >= raw:
            break
    if step < 1 and all(p == p.to_integral_value() for p in points):
        step = Decimal(1)  # whole points never get a tick at 0.5
    first = math.floor(low / step)
    last = math.ceil(high / step)
    ticks = tuple(Decimal(i) * step for i in range(first, last + 1))
    return Scale(ticks[0], ticks[-1], ticks)


def tick_text(value: Decimal) -> str:
    """A tick's number as written on the scale: ``100``, ``0.5``, ``-20``.

    >>> tick_text(Decimal("1E+2")), tick_text(Decimal("0.50")), tick_text(Decimal("-0"))
    ('100', '0.5', '0')
    """
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def isolate(text: str) -> str:
    """A label wrapped (first-strong isolate) so it takes its direction from its own
    first letter and the bidirectional algorithm keeps it in one piece: a Persian name
    reads right to left, a Latin one left to right, in either page."""
    return f"{FSI}{text}{PDI}"


def shorten(text: str, limit: int = MAX_LABEL) -> str:
    """A legend label cut to ``limit`` characters with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def marker(shape: str, x: float, y: float) -> str:
    """Path data of one marker centred on (x, y).

    A dot is a zero-length line drawn with a wide round cap (``marker_paint``): an arc
    would cost WeasyPrint a Bézier conversion in Python per mark.
    """
    if shape == "circle":
        return f"M{num(x)} {num(y)}h0"
    if shape == "square":
        return f"M{num(x - 3)} {num(y - 3)}h6v6h-6z"
    if shape == "triangle":
        return f"M{num(x)} {num(y - 4)}l4 7h-8z"
    if shape == "diamond":
        return f"M{num(x)} {num(y - 4)}l4 4l-4 4l-4 -4z"
    if shape == "cross":
        return f"M{num(x - 3)} {num(y - 3)}l6 6m0 -6l-6 6"
    return f"M{num(x - 4)} {num(y - 1.5)}h8v3h-8z"


def marker_paint(shape: str, colour: str) -> str:
    """The attributes that paint a path of ``shape`` markers."""
    if shape == "circle":
        return f'fill="none" stroke="{colour}" stroke-width="7" stroke-linecap="round"'
    return f'fill="{colour}" stroke="{colour}" stroke-width="1"'


# Digits drawn with single strokes, as a pen writes them, in a box 4 wide and 7 high
# (y down from the top), for printed charts: one path, no text to lay out. Each glyph
# is absolute moves, lines and cubic curves (M, L, H, V, C, Z), so moving it is adding
# an offset to every coordinate; the advance is the glyph's width plus a gap.
STROKES = {
    "0": ("M2 0C-0.6 0 -0.6 7 2 7C4.6 7 4.6 0 2 0Z", 5),
    "1": ("M0 1.4L1.6 0V7", 3.5),
    "2": ("M0.3 1.4C0.9 -0.3 4 -0.3 4 1.9C4 3.4 1.5 5.2 0 7H4", 5),
    "3": ("M0.3 0.9C1.2 -0.4 4 -0.1 3.9 1.7C3.8 3 2.6 3.4 1.6 3.4"
          "C3.3 3.4 4 4.3 4 5.2C4 7.3 1 7.5 0 6.1", 5),
    "4": ("M3 7V0L0 5H4", 5),
    "5": ("M3.8 0H0.5L0.2 3.2C1.5 2.2 4 2.4 4 4.8C4 7.4 1.1 7.5 0 6.1", 5),
    "6": ("M3.6 0.5C2 -0.6 0 0.5 0 4.5C0 7.6 4 7.6 4 4.7C4 1.9 0.4 2.2 0.1 4.2", 5),
    "7": ("M0 0H4L1.4 7", 5),
    "8": ("M2 3.4C0 3.4 0.2 0 2 0C3.8 0 4 3.4 2 3.4C-0.3 3.4 -0.3 7 2 7C4.3 7 4.3 3.4 2 3.4Z", 5),
    "9": ("M0.4 6.5C2 7.6 4 6.5 4 2.5C4 -0.6 0 -0.6 0 2.3C0 5.1 3.6 4.8 3.9 2.8", 5),
    "-": ("M0 3.5H3", 4),
    ".": ("M0.5 7L0.5 7", 2),
}


def stroked(text: str, x: float, baseline: float, anchor: str = "start") -> str:
    """Path data writing ``text`` (digits, ``-``, ``.``; anything else is skipped) with
    strokes, its baseline at ``baseline``, anchored at ``x`` like ``text-anchor``.

    >>> stroked("1", 20, 7)
    'M20 1.4L21.6 0V7'
    >>> stroked("4", 0, 7, "end")  # ends at x = 0
    'M-1 7V0L-4 5H0'
    """
    glyphs = [STROKES[c] for c in text if c in STROKES]
    width = sum(advance for _path, advance in glyphs) - 1
    left = x - (width if anchor == "end" else width / 2 if anchor == "middle" else 0)
    out = []
    for path, advance in glyphs:
        out.append(_moved(path, left, baseline - 7))
        left += advance
    return "".join(out)


def _moved(path: str, dx: float, dy: float) -> str:
    """A glyph's path (absolute commands only) moved by (dx, dy)."""
    out = []
    for command, args in re.findall(r"([MLHVCZ])([^MLHVCZ]*)", path):
        values = [float(v) for v in args.split()]
        if command == "H":
            moved = [values[0] + dx]
        elif command == "V":
            moved = [values[0] + dy]
        else:  # pairs of x y
            moved = [v + (dx if i % 2 == 0 else dy) for i, v in enumerate(values)]
        out.append(command + " ".join(num(v) for v in moved))
    return "".join(out)


def x_positions(count: int, width: int) -> list[float]:
    """The x coordinate of each index: spread over the plot, or its middle for one."""
    left, right = LEFT, width - RIGHT
    if count <= 1:
        return [(left + right) / 2] * count
    return [left + i * (right - left) / (count - 1) for i in range(count)]


def label_step(count: int) -> int:
    """Every how many x positions a label is written (1, 2, 5, 10, 20, 50, …)."""
    step, factors = 1, (2, 5, 10)
    power = 1
    while math.ceil(count / step) > MAX_X_LABELS:
        for factor in factors:
            step = factor * power
            if math.ceil(count / step) <= MAX_X_LABELS:
                return step
        power *= 10
    return step


def line_chart(
    series: Sequence[Series],
    *,
    x_labels: Sequence[str],
    target: Number | None,
    title: str,
    description: str,
    rtl: bool = False,
    width: int = 320,
    height: int = 160,
    chart_id: str = "chart",
    target_label: str | None = None,
    legend: bool = True,
    printing: bool = False,
) -> Markup:
    """An SVG line chart: one polyline per series over ``len(x_labels)`` positions.

    ``height`` is the plot with its axes; the legend (one row per series) adds
    ``16`` per series below it. With ``legend=False`` the page writes the legend in
    HTML beside ``swatch(i)`` pictures instead: WeasyPrint lays SVG text out letter by
    letter (no Persian joining, no bidi, a Pango layout per letter), so a printed chart
    should hold digits only. With ``printing=True`` even those are drawn as strokes
    (``stroked``: one path, no text, no Pango layout at all) and the title and
    description, which a PDF does not read out, are left out. ``chart_id`` must be
    unique in the page (the title and description are referenced by id). Values may be
    negative; marks and series longer than ``x_labels`` raise ``ValueError``.
    """
    count = len(x_labels)
    for s in series:
        if len(s.values) > count:
            raise ValueError(f"series {s.label!r} has more values than x labels")
        if any(not 0 <= m < len(s.values) for m in s.marks):
            raise ValueError(f"series {s.label!r} marks an index it has no value for")
    scale = y_scale([v for s in series for v in s.values], target)
    xs = x_positions(count, width)
    top, bottom = TOP, height - BOTTOM
    span = float(scale.high - scale.low)

    def y_of(value: Number) -> float:
        return bottom - float(_decimal(value) - scale.low) / span * (bottom - top)

    total_height = height + (LEGEND_ROW * len(series) if legend else 0)
    ident = escape(chart_id)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" '
        f'viewBox="0 0 {width} {total_height}" width="{width}" height="{total_height}" '
        f'aria-labelledby="{ident}-title {ident}-desc" direction="ltr" '
        f'font-family="sans-serif" font-size="10">',
    ]
    if not printing:
        parts.append(
            f'<title id="{ident}-title">{escape(title)}</title>'
            f'<desc id="{ident}-desc">{escape(description)}</desc>'
        )
    # Every number on the axes: (text, x, y at its baseline, anchor).
    labels: list[tuple[str, float, float, str]] = []
    # The y scale: one faint path through every tick, the zero line darker, a number
    # at each tick (few elements: WeasyPrint's cost grows with them).
    grid = "".join(f"M{LEFT} {num(y_of(t))}H{width - RIGHT}" for t in scale.ticks if t != 0)
    zero = num(y_of(0))
    parts.append(
        f'<path class="chart-grid" d="{grid}" stroke="#ddd" stroke-width="1"/>'
        f'<line class="chart-zero" x1="{LEFT}" y1="{zero}" x2="{width - RIGHT}" y2="{zero}" '
        f'stroke="#888" stroke-width="1"/>'
    )
    for tick in scale.ticks:
        labels.append((tick_text(tick), LEFT - 4, y_of(tick) + 3.5, "end"))
    if target is not None:
        y = num(y_of(target))
        parts.append(
            f'<line class="chart-target" x1="{LEFT}" y1="{y}" x2="{width - RIGHT}" y2="{y}" '
            f'stroke="#333" stroke-width="1" stroke-dasharray="4 3"/>'
        )
        if target_label:
            # Above the line, or just below it when the line is the top of the plot.
            dy = "11" if y_of(target) < TOP + 12 else "-3"
            parts.append(
                f'<text class="chart-target-label" x="{width - RIGHT}" y="{y}" dy="{dy}" '
                f'text-anchor="end" fill="#333">{escape(isolate(target_label))}</text>'
            )
    step = label_step(count)
    for i in range(0, count, step):
        if x_labels[i]:
            labels.append((x_labels[i], xs[i], height - 6, "middle"))
    if printing:
        d = "".join(stroked(text, x, y, anchor) for text, x, y, anchor in labels)
        parts.append(
            f'<path class="chart-labels" d="{d}" fill="none" stroke="#555" stroke-width="0.8" '
            f'stroke-linecap="round" stroke-linejoin="round"/>'
        )
    else:
        parts.extend(
            f'<text class="chart-{"x" if anchor == "middle" else "y"}" x="{num(x)}" '
            f'y="{num(y)}" text-anchor="{anchor}" fill="#555">{escape(text)}</text>'
            for text, x, y, anchor in labels
        )
    for index, s in enumerate(series):
        parts.extend(_series(index, s, xs, y_of))
    if legend:
        parts.extend(_legend(series, width, height, rtl))
    parts.append("</svg>")
    return Markup("".join(parts))


def _series(
    index: int, s: Series, xs: Sequence[float], y_of: Callable[[Number], float]
) -> list[str]:
    colour, dash, shape = _style(index)
    coords = [(xs[i], y_of(v)) for i, v in enumerate(s.values)]
    if len(coords) == 1:  # a lone point: a zero-length line with round caps is a dot
        coords = coords * 2
    points = " ".join(f"{num(x)},{num(y)}" for x, y in coords)
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    out = [
        f'<polyline class="chart-line" data-series="{index}" points="{points}" fill="none" '
        f'stroke="{colour}" stroke-width="2" stroke-linejoin="round" stroke-linecap="round"'
        f"{dash_attr}/>"
    ]
    if s.marks and s.values:
        d = "".join(marker(shape, xs[m], y_of(s.values[m])) for m in sorted(set(s.marks)))
        out.append(
            f'<path class="chart-marks" data-series="{index}" d="{d}" '
            f"{marker_paint(shape, colour)}/>"
        )
    return out


def _style(index: int) -> tuple[str, str, str]:
    i = index % len(COLOURS)
    return COLOURS[i], DASHES[i], SHAPES[i]


def _legend(series: Sequence[Series], width: int, height: int, rtl: bool) -> list[str]:
    """One row per series: a sample of its line with its marker, then its label."""
    out = []
    for index, s in enumerate(series):
        colour, dash, shape = _style(index)
        y = height + LEGEND_ROW * index + LEGEND_ROW / 2
        # The sample sits at the reading start: left in LTR pages, right in RTL ones.
        x1, x2 = (width - RIGHT - 24, width - RIGHT) if rtl else (LEFT, LEFT + 24)
        text_x, anchor = (x1 - 6, "end") if rtl else (x2 + 6, "start")
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<g class="chart-legend" data-series="{index}">'
            f'<line x1="{num(x1)}" y1="{num(y)}" x2="{num(x2)}" y2="{num(y)}" '
            f'stroke="{colour}" stroke-width="2"{dash_attr}/>'
            f'<path d="{marker(shape, (x1 + x2) / 2, y)}" {marker_paint(shape, colour)}/>'
            f'<text x="{num(text_x)}" y="{num(y)}" dy="3.5" text-anchor="{anchor}" fill="#222">'
            f"{escape(isolate(shorten(s.label)))}</text></g>"
        )
    return out


def swatch(index: int) -> Markup:
    """A legend sample of series ``index`` (its colour, dash and marker), for an HTML
    legend; hidden from screen readers, which read the label beside it."""
    colour, dash, shape = _style(index)
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    return Markup(
        '<svg xmlns="http://www.w3.org/2000/svg" class="chart-swatch" viewBox="0 0 24 10" '
        'width="24" height="10" aria-hidden="true">'
        f'<line x1="0" y1="5" x2="24" y2="5" stroke="{colour}" stroke-width="2"{dash_attr}/>'
        f'<path d="{marker(shape, 12, 5)}" {marker_paint(shape, colour)}/></svg>'
    )


def key(index: int) -> Markup:
    """Series ``index``'s marker as a coloured character (``●``, ``■``, ``▲``, …) for an
    HTML legend: cheaper to print than a ``swatch`` picture. The colour comes from the
    stylesheet's ``.chart-key-<index>`` (``KEY_CSS``); screen readers skip it."""
    i = index % len(COLOURS)
    return Markup(f'<span class="chart-key chart-key-{i}" aria-hidden="true">{GLYPHS[i]}</span>')


def target_swatch() -> Markup:
    """A legend sample of the target line."""
    return Markup(
        '<svg xmlns="http://www.w3.org/2000/svg" class="chart-swatch" viewBox="0 0 24 10" '
        'width="24" height="10" aria-hidden="true">'
        '<line x1="0" y1="5" x2="24" y2="5" stroke="#333" stroke-width="1" '
        'stroke-dasharray="4 3"/></svg>'
    )
