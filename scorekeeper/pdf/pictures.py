"""Pictures drawn straight into a printed PDF instead of being typeset by WeasyPrint.

WeasyPrint reads an inline SVG as a document of its own: it runs the CSS cascade over
every node and parses every coordinate in Python, which cost a tenth of a 40-hand
sheet for a race of seven elements. A printed race is only lines, curves and fills,
and PDF draws those with the very operators SVG describes them by. So a printed
picture is an empty box in the HTML, with an id, that WeasyPrint lays out like any
other box; once the pages are laid out, the picture's paths are written into the page
where the box landed (``Pictures.finish``: WeasyPrint's documented ``finisher``, and
the box's place from ``Page.anchors``).

Only what ``charts.line_chart`` prints is drawn this way: ``<path>``, ``<line>`` and
``<polyline>`` with presentation attributes. An SVG with anything else in it (text,
groups, styles) goes to WeasyPrint as before, so nothing is ever left off a page.

>>> picture = picture_from_svg(
...     '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10">'
...     '<line x1="0" y1="5" x2="20" y2="5" stroke="#ff0000" stroke-width="2"/></svg>', "p")
>>> picture.operators
b'q 2 w 4 M 1 0 0 RG 0 5 m 20 5 l S Q'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Any
from xml.etree import ElementTree

from markupsafe import Markup, escape

SVG = "{http://www.w3.org/2000/svg}"
PT_PER_PX = 0.75  # a CSS pixel is 0.75 pt, the PDF's unit, at WeasyPrint's zoom 1
PX_PER_MM = 96 / 25.4

# SVG path data: a command letter or a number ("-4", ".5", "1e-3"; "l-4-4" is two).
TOKEN = re.compile(r"[MmLlHhVvCcZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
DECIMAL = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)")  # a number written alike in SVG and PDF
ARGUMENTS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "Z": 0}
CAPS = {"butt": "0", "round": "1", "square": "2"}
JOINS = {"miter": "0", "round": "1", "bevel": "2"}
# What a drawn element may carry; anything else (a style, a transform, an opacity)
# sends the whole picture to WeasyPrint. ``class`` and ``data-series`` only name the
# parts, for the tests and the page's stylesheet: print.css paints no part of a chart.
PAINT = frozenset({"stroke", "stroke-width", "fill", "stroke-linecap", "stroke-linejoin",
                   "stroke-dasharray", "class", "data-series"})
# How a shape is painted, by (stroked, filled): both, stroke, fill, neither.
PAINTING = {(True, True): "B", (True, False): "S", (False, True): "f", (False, False): "n"}
SHAPES = {"path": frozenset({"d"}), "line": frozenset({"x1", "y1", "x2", "y2"}),
          "polyline": frozenset({"points"})}


class Undrawable(ValueError):
    """An SVG holds something this module does not draw."""


@dataclass(frozen=True)
class Picture:
    """A picture as PDF operators in its own units (its SVG's viewBox, y down)."""

    anchor: str  # the id of the box it is drawn into
    width: float
    height: float
    operators: bytes
    printed_width: float = 0.0  # the box's width in CSS pixels, once placed

    def placed(self, corner: tuple[float, ...], page_height: float) -> bytes:
        """The operators drawing this picture into its box, whose top left corner is
        ``corner`` (CSS pixels from the page's top left; ``Page.anchors`` gives that
        point, followed in newer WeasyPrints by the bottom right one) on a page
        ``page_height`` pixels high."""
        left, top = corner[0], corner[1]
        scale = self.printed_width * PT_PER_PX / self.width
        matrix = " ".join(_number(v, 5) for v in (
            scale, 0, 0, -scale, left * PT_PER_PX, (page_height - top) * PT_PER_PX))
        return b"q " + matrix.encode() + b" cm " + self.operators + b" Q"


def picture_from_svg(svg: str, anchor: str) -> Picture:
    """``svg`` (a chart of ``charts.line_chart``) as a ``Picture``, or ``Undrawable``."""
    try:
        root = ElementTree.fromstring(svg)
    except ElementTree.ParseError as exc:
        raise Undrawable(str(exc)) from None
    box = (root.get("viewBox") or "").split()
    if root.tag != SVG + "svg" or len(box) != 4 or float(box[0]) or float(box[1]):
        raise Undrawable("a picture needs an <svg> with a viewBox from 0 0")
    width, height = float(box[2]), float(box[3])
    if width <= 0 or height <= 0:
        raise Undrawable("an empty viewBox")
    operators = [_shape(element) for element in root]
    return Picture(anchor, width, height, b" ".join(operators))


def _shape(element: ElementTree.Element) -> bytes:
    """One ``<path>``, ``<line>`` or ``<polyline>`` as operators in a ``q … Q`` of its own."""
    name = element.tag.removeprefix(SVG)
    geometry = SHAPES.get(name)
    if geometry is None or len(element):
        raise Undrawable(f"<{name}> is not drawn here")
    extra = set(element.attrib) - geometry - PAINT
    if extra:
        raise Undrawable(f"<{name}> has {', '.join(sorted(extra))}")
    if name == "path":
        path = path_operators(element.get("d", ""))
    elif name == "line":
        x1, y1, x2, y2 = (_number(_float(element.get(a))) for a in ("x1", "y1", "x2", "y2"))
        path = f"{x1} {y1} m {x2} {y2} l"
    else:
        path = polyline_operators(element.get("points", ""))
    stroke = element.get("stroke", "none")
    fill = "none" if name != "path" else element.get("fill", "#000000")
    state = []
    if stroke != "none":
        state.append(f"{_number(_float(element.get('stroke-width', '1')))} w")
        cap = element.get("stroke-linecap", "butt")
        join = element.get("stroke-linejoin", "miter")
        if cap not in CAPS or join not in JOINS:
            raise Undrawable(f"stroke-linecap {cap} / stroke-linejoin {join}")
        if cap != "butt":
            state.append(f"{CAPS[cap]} J")
        if join != "miter":
            state.append(f"{JOINS[join]} j")
        else:
            state.append("4 M")  # SVG's default miter limit (PDF's is 10)
        dashes = element.get("stroke-dasharray", "none")
        if dashes != "none":
            lengths = [_number(_float(v)) for v in dashes.replace(",", " ").split()]
            state.append(f"[{' '.join(lengths)}] 0 d")
        state.append(f"{_rgb(stroke)} RG")
    if fill != "none":
        state.append(f"{_rgb(fill)} rg")
    return " ".join(["q", *state, path, PAINTING[stroke != "none", fill != "none"], "Q"]).encode()


def path_operators(d: str) -> str:
    """SVG path data (``M L H V C Z``, absolute and relative) as PDF path operators.

    Absolute coordinates are copied as they are written (a plain decimal is a PDF
    number too); relative ones are added up.

    >>> path_operators("M1 2h3v-1l-1 -1z")
    '1 2 m 4 2 l 4 1 l 3 0 l h'
    >>> path_operators("M42.9 137.4h0")  # a dot: a zero-length line with round caps
    '42.9 137.4 m 42.9 137.4 l'
    """
    tokens = TOKEN.findall(d)
    if "".join(tokens) != re.sub(r"[\s,]", "", d) or tokens[:1] not in (["M"], ["m"]):
        raise Undrawable(f"path data not understood: {d[:40]!r}")
    out: list[str] = []
    x = y = start_x = start_y = 0.0
    xs = ys = start_xs = start_ys = "0"  # the same, as written
    command, i, count = "", 0, len(tokens)
    while i < count:
        token = tokens[i]
        if token.isalpha():
            command = token
            i += 1
            if command in "Zz":
                out.append("h")
                x, y, xs, ys = start_x, start_y, start_xs, start_ys
                continue
        elif command in ("", "Z", "z"):
            raise Undrawable(f"a number without a command in {d[:40]!r}")
        upper = command.upper()
        needed = ARGUMENTS[upper]
        args = tokens[i:i + needed]
        i += needed
        if len(args) != needed or not all(a[-1].isdigit() or a[-1] == "." for a in args):
            raise Undrawable(f"{command} needs {needed} numbers in {d[:40]!r}")
        values = [float(a) for a in args]
        if command.islower():  # relative: written anew from the sums
            if upper == "H":
                x += values[0]
                xs = _number(x)
            elif upper == "V":
                y += values[0]
                ys = _number(y)
            else:
                values = [v + (x if k % 2 == 0 else y) for k, v in enumerate(values)]
                args = [_number(v) for v in values]
                x, y, xs, ys = values[-2], values[-1], args[-2], args[-1]
        else:
            args = [a if "e" not in a and "E" not in a else _number(float(a)) for a in args]
            if upper == "H":
                x, xs = values[0], args[0]
            elif upper == "V":
                y, ys = values[0], args[0]
            else:
                x, y, xs, ys = values[-2], values[-1], args[-2], args[-1]
        if upper == "C":
            out.append(" ".join(args) + " c")
        elif upper == "M":
            out.append(f"{xs} {ys} m")
            start_x, start_y, start_xs, start_ys = x, y, xs, ys
            command = "l" if command == "m" else "L"  # further pairs after a move are lines
        else:
            out.append(f"{xs} {ys} l")
    return " ".join(out)


def polyline_operators(points: str) -> str:
    """A ``<polyline>``'s points as a PDF path (the numbers as written).

    >>> polyline_operators("36,140 42.9,137.4")
    '36 140 m 42.9 137.4 l'
    """
    values = points.replace(",", " ").split()
    if len(values) < 4 or len(values) % 2 or not all(map(DECIMAL.fullmatch, values)):
        raise Undrawable(f"polyline points {points[:40]!r}")
    pairs = [f"{values[k]} {values[k + 1]}" for k in range(0, len(values), 2)]
    return pairs[0] + " m " + " l ".join(pairs[1:]) + " l"


def _float(value: str | None) -> float:
    try:
        return float(value or "")
    except ValueError:
        raise Undrawable(f"not a number: {value!r}") from None


def _number(value: float, places: int = 3) -> str:
    """A PDF number: up to ``places`` decimals, no trailing zeros, no exponent."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _rgb(colour: str) -> str:
    """``#rrggbb`` or ``#rgb`` as PDF RGB components."""
    hex_digits = colour.removeprefix("#")
    if len(hex_digits) == 3:
        hex_digits = "".join(c * 2 for c in hex_digits)
    if not colour.startswith("#") or len(hex_digits) != 6:
        raise Undrawable(f"colour {colour!r}")
    try:
        parts = [int(hex_digits[k:k + 2], 16) / 255 for k in (0, 2, 4)]
    except ValueError:
        raise Undrawable(f"colour {colour!r}") from None
    return " ".join(_number(p) for p in parts)


@dataclass(frozen=True)
class Ruling:
    """A block of lines ruled like a score pad, drawn under the page's text: a thin rule
    under each line, ``pitch`` apart from the block's top (the lines' height), and
    darker seat rules down the block, each ``seat_width`` wide and starting ``seats``
    from the block's start edge (the left one, or the right on a right-to-left page).

    Lengths in CSS pixels, measured from the block's padding box as a CSS background
    is; drawn within its border box, as a background is painted. The gin sheet's hand
    lines and settlement were ruled by tiled CSS gradients, which cost WeasyPrint a
    tenth of a 40-hand sheet's work in patterns and shadings; these are rectangles."""

    anchor: str
    pitch: float
    line: float
    line_colour: str
    seats: tuple[float, ...]
    seat_width: float
    seat_colour: str
    rtl: bool = False  # the seat rules measured from the right edge

    def drawn(self, border: tuple[float, float, float, float],
              padding: tuple[float, float, float, float]) -> bytes:
        """The rules of one fragment of the block (a page's part of it), whose border
        and padding boxes are (x, y, width, height), as operators in CSS pixels with y
        down (``Pictures.finish`` sets that space)."""
        bx, by, bw, bh = border
        px, py, pw, _ = padding
        first = math.floor((by - py) / self.pitch)  # every line's band the clip meets
        last = math.ceil((by + bh - py) / self.pitch)
        lines = " ".join(
            f"{_number(bx)} {_number(py + (k + 1) * self.pitch - self.line)} "
            f"{_number(bw)} {_number(self.line)} re" for k in range(first, last))
        starts = [px + pw - seat - self.seat_width if self.rtl else px + seat
                  for seat in self.seats]
        seats = " ".join(f"{_number(x)} {_number(by)} {_number(self.seat_width)} "
                         f"{_number(bh)} re" for x in starts)
        clip = f"{_number(bx)} {_number(by)} {_number(bw)} {_number(bh)} re W n"
        return (f"q {clip} {_rgb(self.line_colour)} rg {lines} f "
                f"{_rgb(self.seat_colour)} rg {seats} f Q").encode()


# The gin sheet's ruling (pdf/sheet.html): lines 5.2 mm high (print.css ``.lines``
# ``line-height``) with a 0.4 pt grey rule under each; seat rules 0.3 mm wide, centred
# on the tab stops (13 mm apart: ``tab-size``) before each seat's points and after the
# last seat's box, 1, 4 and 7 stops from the start edge.
SHEET_RULING = Ruling(
    "", pitch=5.2 * PX_PER_MM, line=0.4 / PT_PER_PX, line_colour="#aaa",
    seats=tuple((13 * stop - 0.15) * PX_PER_MM for stop in (1, 4, 7)),
    seat_width=0.3 * PX_PER_MM, seat_colour="#111",
)


@dataclass
class Pictures:
    """The pictures of one printed document: placed by the template, drawn by
    ``finish`` once WeasyPrint has laid the pages out."""

    placed: dict[str, Picture] = field(default_factory=dict)
    ruled: dict[str, Ruling] = field(default_factory=dict)

    def place(self, svg: str, name: str, width_mm: float) -> Markup:
        """The box ``svg`` is drawn into, ``width_mm`` wide and as high as its viewBox
        says; an SVG this module does not draw comes back as it is, for WeasyPrint."""
        anchor = f"picture-{name}"
        try:
            picture = picture_from_svg(str(svg), anchor)
        except Undrawable:
            return Markup(svg)
        if anchor in self.placed:
            raise ValueError(f"two pictures named {name!r}")
        picture = replace(picture, printed_width=width_mm * PX_PER_MM)
        self.placed[anchor] = picture
        height_mm = width_mm * picture.height / picture.width
        # An empty inline block sits on the line's baseline as the <svg> it stands for
        # did, so everything around it lands where it did.
        return Markup('<span class="picture" id="{}" style="display: inline-block; '
                      'width: {}mm; height: {}mm"></span>'
                      ).format(escape(anchor), _number(width_mm), _number(height_mm))

    def rule(self, name: str, rtl: bool = False) -> str:
        """The id to give a block of the sheet's lines, which ``finish`` rules as
        ``SHEET_RULING`` says (its seat rules from the right on a right-to-left page),
        on every page the block reaches."""
        anchor = f"ruled-{name}"
        if anchor in self.ruled:
            raise ValueError(f"two ruled blocks named {name!r}")
        self.ruled[anchor] = replace(SHEET_RULING, anchor=anchor, rtl=rtl)
        return anchor

    def __bool__(self) -> bool:
        return bool(self.placed or self.ruled)

    def finish(self, document: Any, pdf: Any) -> None:
        """WeasyPrint's finisher: rule each ruled block under the page's text, and draw
        each picture over its box, on its page.

        A page's own content stream is left as WeasyPrint wrote it. The rules come
        before it, in a ``q … Q`` of their own; the pictures after it, which WeasyPrint's
        stream is then wrapped in ``q`` and ``Q`` for, so they are drawn in the page's
        untouched coordinates whatever that stream left set: a page's contents are
        ``[rules?, q, WeasyPrint's, Q pictures]`` or ``[rules, WeasyPrint's]``."""
        import pydyf

        for page, number in zip(document.pages, pdf.pages["Kids"][::3], strict=True):
            drawn = [picture.placed(page.anchors[anchor], page.height)
                     for anchor, picture in self.placed.items() if anchor in page.anchors]
            rules = self._rules(page)
            if not drawn and not rules:
                continue
            pdf_page = pdf.objects[number]
            contents = [pdf_page["Contents"]]
            if drawn:
                save = pydyf.Stream([b"q"])
                pictures = pydyf.Stream([b"Q", *drawn], compress=True)
                pdf.add_object(save)
                pdf.add_object(pictures)
                contents = [save.reference, *contents, pictures.reference]
            if rules:
                under = pydyf.Stream(rules, compress=True)
                pdf.add_object(under)
                contents.insert(0, under.reference)
            pdf_page["Contents"] = pydyf.Array(contents)

    def _rules(self, page: Any) -> list[bytes]:
        """The rules of the ruled blocks on ``page``: one ``q … Q`` line a block, in CSS
        pixels with y down (the first line sets that space up)."""
        anchors = [anchor for anchor in self.ruled if anchor in page.anchors]
        if not anchors:
            return []
        space = f"q {PT_PER_PX} 0 0 {-PT_PER_PX} 0 {_number(page.height * PT_PER_PX, 5)} cm"
        rules = [space.encode()]
        root = getattr(page, "_page_box", None)  # WeasyPrint's laid-out page, if it has one
        found = _boxes_with_ids(root, set(anchors)) if root is not None else {}
        for anchor in anchors:
            box = found.get(anchor)
            if box is not None:
                border = (box.border_box_x(), box.border_box_y(), box.border_width(),
                          box.border_height())
                padding = (box.padding_box_x(), box.padding_box_y(), box.padding_width(),
                           box.padding_height())
            else:  # only where the anchor landed (its border box): within a border's width
                corners = page.anchors[anchor]
                if len(corners) < 4:
                    continue
                left, top, right, bottom = corners[:4]
                border = padding = (left, top, right - left, bottom - top)
            rules.append(self.ruled[anchor].drawn(border, padding))
        rules.append(b"Q")
        return rules


def _boxes_with_ids(root: Any, ids: set[str]) -> dict[str, Any]:
    """The outermost box of each element with one of ``ids`` under the laid-out ``root``
    (the boxes inside a block, its lines and their text, belong to its element too)."""
    found: dict[str, Any] = {}
    stack = [root]
    while stack and len(found) < len(ids):
        box = stack.pop()
        element = getattr(box, "element", None)
        key = element.get("id") if element is not None else None
        if key in ids and key not in found:
            found[key] = box
            continue
        stack.extend(reversed(list(box.all_children())))
    return found
