"""Layout read back from what was typeset: the words of a PDF with their boxes
(poppler's ``pdftotext -bbox-layout``) and the column grid of the HTML tables that went
into it; games of every kind with a few hands, for the PDF and page layout tests."""

from __future__ import annotations

import re
import subprocess
import unicodedata
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from flask.testing import FlaskClient

MM = 72 / 25.4  # points per millimetre
# print.css: @page { margin: 14mm 13mm 16mm } — the page header and footer sit in the
# top and bottom margins; nothing may come nearer the paper's edge than a printer prints.
MARGIN_TOP, MARGIN_SIDE, MARGIN_BOTTOM = 14 * MM, 13 * MM, 16 * MM
UNPRINTABLE = 6 * MM

NAMES = {
    "en": ("Ann", "Bob", "Cid", "Dan"),
    "ru": ("Анна", "Борис", "Светлана", "Дмитрий"),
    "fa": ("مریم", "علی", "سارا", "رضا"),
}
KINDS = ("gin", "oklahoma", "hollywood", "three_hand", "partnership", "remi")
PLAYERS = {"three_hand": 3, "partnership": 4, "remi": 4}


@dataclass(frozen=True)
class Word:
    """One word of a PDF page and its box, in points from the top left."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: Word) -> bool:
        """Whether the two words' glyphs would cover each other.

        The boxes run from the font's ascent to its descent, taller than the glyphs:
        a fifth of the height is trimmed off each so that lines set solid do not count.
        """
        trim, other_trim = (self.y1 - self.y0) / 5, (other.y1 - other.y0) / 5
        return (
            self.x0 < other.x1 - 0.3
            and other.x0 < self.x1 - 0.3
            and self.y0 + trim < other.y1 - other_trim
            and other.y0 + other_trim < self.y1 - trim
        )


@dataclass(frozen=True)
class Page:
    """A PDF page's size and its words, line by line."""

    width: float
    height: float
    lines: list[list[Word]]

    @property
    def words(self) -> list[Word]:
        """Every word of the page."""
        return [word for line in self.lines for word in line]

    def body_lines(self) -> list[list[Word]]:
        """The lines between the page's top and bottom margins (not the running header,
        not the page counter)."""
        return [
            line for line in self.lines
            if line[0].y0 >= MARGIN_TOP - 1 and line[0].y1 <= self.height - MARGIN_BOTTOM + 1
        ]


def pdf_pages(data: bytes) -> list[Page]:
    """The pages of a PDF with every word's box."""
    xml = subprocess.run(
        ["pdftotext", "-bbox-layout", "-", "-"], input=data, capture_output=True, check=True
    ).stdout.decode()
    xml = re.sub(r'xmlns="[^"]+"', "", xml.split("<!DOCTYPE", 1)[-1].split(">", 1)[1])
    pages = []
    for page in ET.fromstring(xml).iter("page"):
        # A combining mark poppler could not join to its letter (Persian hamza) comes
        # out as a word of its own with a box of no meaning: left out.
        lines = [
            [
                Word(
                    word.text or "",
                    *(float(word.attrib[k]) for k in ("xMin", "yMin", "xMax", "yMax")),
                )
                for word in line.iter("word")
                if any(unicodedata.category(c) != "Mn" for c in word.text or "")
            ]
            for line in page.iter("line")
        ]
        size = float(page.attrib["width"]), float(page.attrib["height"])
        pages.append(Page(*size, [line for line in lines if line]))
    return pages


def pdf_problems(data: bytes, pages: int) -> list[str]:
    """What is wrong with a PDF's layout: not ``pages`` pages, a word outside the
    printable area or out of the text column, two words over each other, a trailing
    page with next to nothing on it."""
    found = pdf_pages(data)
    problems = []
    if len(found) != pages:
        problems.append(f"{len(found)} pages, expected {pages}")
    for number, page in enumerate(found, start=1):
        body = {id(word) for line in page.body_lines() for word in line}
        for word in page.words:
            where = f"page {number}: {word.text!r} at ({word.x0:.0f}, {word.y0:.0f})"
            if (
                word.x0 < UNPRINTABLE or word.y0 < UNPRINTABLE
                or word.x1 > page.width - UNPRINTABLE or word.y1 > page.height - UNPRINTABLE
            ):
                problems.append(f"{where} is outside the printable area")
            elif id(word) in body and (
                word.x0 < MARGIN_SIDE - 1 or word.x1 > page.width - MARGIN_SIDE + 1
            ):
                problems.append(f"{where} sticks out of the text column")
        words = page.words
        for i, word in enumerate(words):
            for other in words[i + 1:]:
                if word.overlaps(other):
                    problems.append(
                        f"page {number}: {word.text!r} and {other.text!r} overlap "
                        f"at ({word.x0:.0f}, {word.y0:.0f})"
                    )
        if number > 1 and number == len(found) and len(page.body_lines()) < 3:
            problems.append(f"page {number} is nearly empty: {len(page.body_lines())} lines")
    return problems


class _Tables(HTMLParser):
    """Each table's rows as lists of (colspan, rowspan, text), by table section."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict[str, list[list[tuple[int, int, str]]]]] = []
        self._section = "tbody"
        self._cell: list[Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "table":
            self.tables.append({"thead": [], "tbody": [], "tfoot": []})
            self._section = "tbody"
        elif tag in ("thead", "tbody", "tfoot"):
            self._section = tag
        elif tag == "tr" and self.tables:
            self.tables[-1][self._section].append([])
        elif tag in ("td", "th") and self.tables:
            self._cell = [int(a.get("colspan") or 1), int(a.get("rowspan") or 1), ""]
            self.tables[-1][self._section][-1].append(self._cell)  # type: ignore[arg-type]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell[2] += data


def _widths(rows: list[list[tuple[int, int, str]]]) -> list[int]:
    """How many grid columns each row fills, counting cells that span down into it."""
    carried: dict[int, int] = {}  # row index -> columns taken by rowspans from above
    widths = []
    for i, row in enumerate(rows):
        width = carried.get(i, 0)
        for colspan, rowspan, _text in row:
            width += colspan
            for below in range(i + 1, i + rowspan):
                carried[below] = carried.get(below, 0) + colspan
        widths.append(width)
    return widths


def table_problems(html: str) -> list[str]:
    """Tables whose header is not as wide as their rows: every header row, body row and
    footer row must fill the same number of columns; a cell of tab-separated lines (the
    printed sheet's hands) must have as many values on every line as there are columns."""
    parser = _Tables()
    parser.feed(html)
    problems = []
    for number, table in enumerate(parser.tables, start=1):
        head = _widths(table["thead"])
        if not head:
            continue
        columns = head[0]
        for section in ("thead", "tbody", "tfoot"):
            rows = table[section]
            for i, width in enumerate(_widths(rows)):
                if width != columns:
                    problems.append(
                        f"table {number}: {section} row {i + 1} fills {width} columns, "
                        f"the header {columns}"
                    )
                cells = rows[i]
                if len(cells) == 1 and "\t" in cells[0][2]:
                    for line in cells[0][2].strip("\n").split("\n"):
                        if line.count("\t") + 1 != columns:
                            problems.append(
                                f"table {number}: a line has {line.count(chr(9)) + 1} values, "
                                f"the header {columns} columns: {line!r}"
                            )
    return problems


def _api_game(client: FlaskClient, kind: str, names: tuple[str, ...]) -> tuple[str, str]:
    players = list(names[: PLAYERS.get(kind, 2)])
    created = client.post("/api/v1/games", json={"variant": kind, "players": players})
    assert created.status_code == 201, created.get_json()
    body = created.get_json()
    return body["id"], body["edit_secret"]


def hands(kind: str) -> list[dict[str, Any]]:
    """A few hands of every outcome, as the API takes them."""
    if kind == "remi":
        return [
            {"went_out": 0, "discard_value": 10,
             "players": [{"plus": 60, "minus": 0}, {"plus": 15, "minus": 40},
                         {"plus": 0, "minus": 85}, {"plus": 30, "minus": 5}]},
            {"went_out": 2, "discard_value": 5,
             "players": [{"plus": 20, "minus": 25}, {"plus": 45, "minus": 10},
                         {"plus": 55, "minus": 0}, {"plus": 0, "minus": 60}]},
        ]
    gin = [
        {"outcome": "knock", "knocker": 0, "knocker_deadwood": 3, "defender_deadwood": 24},
        {"outcome": "gin", "knocker": 1, "defender_deadwood": 31},
        {"outcome": "dead"},
        {"outcome": "knock", "knocker": 1, "knocker_deadwood": 8, "defender_deadwood": 6},
    ]
    if kind == "oklahoma":
        return [{**hand, "upcard": "9H"} for hand in gin]
    if kind == "partnership":
        return [{"tables": [gin[0], gin[1]]}, {"tables": [gin[2], gin[3]]}]
    return gin


def sample_game(client: FlaskClient, kind: str, language: str = "en") -> str:
    """A game of ``kind`` with a few hands (a knock, a gin, a dead hand, an undercut),
    played by names of ``language``; returns its id."""
    game_id, secret = _api_game(client, kind, NAMES[language])
    for number, hand in enumerate(hands(kind), start=1):
        response = client.post(
            f"/api/v1/games/{game_id}/hands",
            json=hand,
            headers={"X-Edit-Secret": secret, "Idempotency-Key": f"{kind}-{number}"},
        )
        assert response.status_code == 201, (kind, response.get_json())
    return game_id


# --- pictures in a PDF (the races' SVG, as WeasyPrint draws it) ---------------------------


@dataclass(frozen=True)
class Shape:
    """One painted path of a printed picture: its paint and its path, in the picture's
    own units (its SVG's viewBox)."""

    paint: str  # S stroke, f fill, B both
    width: float  # the stroke's
    stroke: tuple[float, ...]  # RGB, 0..1 to three places; () when not stroked
    fill: tuple[float, ...]  # () when not filled
    dashes: tuple[float, ...]
    path: tuple[tuple[str, tuple[float, ...]], ...]  # (operator, operands)

    @property
    def points(self) -> str:
        """The path's points as an SVG ``points`` attribute ("x,y x,y"), for a polyline."""
        return " ".join(f"{_num(v[0])},{_num(v[1])}" for _op, v in self.path if len(v) == 2)

    @property
    def moves(self) -> int:
        return sum(op == "m" for op, _v in self.path)


@dataclass(frozen=True)
class Picture:
    """A picture drawn on a page: where (the matrix it is drawn with, in points from
    the page's bottom left) and its shapes."""

    page: int
    matrix: tuple[float, ...]
    shapes: tuple[Shape, ...]

    def stroked(self, width: float) -> list[Shape]:
        """The shapes stroked ``width`` wide (2: the lines; 0.8: the axis digits)."""
        return [s for s in self.shapes if s.paint in ("S", "B") and s.width == width]


def _num(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _multiply(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
    """The PDF matrix ``a`` then ``b`` (``a × b``)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


PAINTS = {b"S": "S", b"s": "S", b"f": "f", b"F": "f", b"f*": "f", b"B": "B", b"B*": "B",
          b"b": "B", b"b*": "B"}
SEGMENTS = {b"m": "m", b"l": "l", b"c": "c", b"h": "h"}


def painted_paths(data: bytes, number: int = 0) -> list[tuple[tuple[float, ...], Shape]]:
    """Every painted path of page ``number`` (borders, backgrounds, pictures) with the
    matrix it is drawn with."""
    import io

    from pypdf import PdfReader

    page = PdfReader(io.BytesIO(data)).pages[number]
    shapes: list[tuple[tuple[float, ...], Shape]] = []
    _paths(page.get_contents(), page["/Resources"], (1, 0, 0, 1, 0, 0), shapes, set())
    return shapes


def extent(matrix: tuple[float, ...], shape: Shape, height: float) -> tuple[float, ...]:
    """A path's bounding box (x0, y0, x1, y1) on a page ``height`` points high, in points
    from the top left as ``pdftotext -bbox`` gives its words."""
    a, b, c, d, e, f = matrix
    pairs = [(v[i], v[i + 1]) for _op, v in shape.path for i in range(0, len(v), 2)]
    points = [(a * x + c * y + e, height - (b * x + d * y + f)) for x, y in pairs]
    xs, ys = [x for x, _y in points], [y for _x, y in points]
    return min(xs), min(ys), max(xs), max(ys)


def printed_pictures(data: bytes) -> list[Picture]:
    """Every picture on a PDF's pages, read back from the PDF's drawing operators: the
    paths painted under another matrix than the page's text (an SVG's viewBox mapped
    onto its box), one picture a run of paths under the same matrix. The page's own
    borders and backgrounds are drawn in the same space as its text (every page has
    some: its counter)."""
    import io

    from pypdf import PdfReader

    found: list[Picture] = []
    for number, page in enumerate(PdfReader(io.BytesIO(data)).pages):
        shapes: list[tuple[tuple[float, ...], Shape]] = []
        texts: set[tuple[float, ...]] = set()
        _paths(page.get_contents(), page["/Resources"], (1, 0, 0, 1, 0, 0), shapes, texts)
        for matrix, shape in shapes:
            if matrix in texts:
                continue
            if found and found[-1].page == number and found[-1].matrix == matrix:
                last = found[-1]
                found[-1] = Picture(number, matrix, (*last.shapes, shape))
            else:
                found.append(Picture(number, matrix, (shape,)))
    return found


def _paths(contents: Any, resources: Any, matrix: tuple[float, ...],
           shapes: list[tuple[tuple[float, ...], Shape]],
           texts: set[tuple[float, ...]]) -> None:
    """The painted paths of a content stream (and of the forms it draws), each with the
    matrix it is drawn with (rounded), appended to ``shapes``; the matrices text is
    drawn with, added to ``texts``."""
    from pypdf.generic import ContentStream

    state: dict[str, Any] = {"ctm": matrix, "w": 1.0, "RG": (0.0,) * 3, "rg": (0.0,) * 3,
                             "d": ()}
    saved: list[dict[str, Any]] = []
    path: list[tuple[str, tuple[float, ...]]] = []
    for operands, operator in ContentStream(contents, None).operations:
        values = tuple(float(v) for v in operands if isinstance(v, (int, float)))
        if operator == b"BT":
            texts.add(tuple(round(v, 5) for v in state["ctm"]))
        elif operator == b"q":
            saved.append(dict(state))
        elif operator == b"Q":
            state = saved.pop()
        elif operator == b"cm":
            state["ctm"] = _multiply(values, state["ctm"])
        elif operator == b"w":
            state["w"] = values[0]
        elif operator in (b"RG", b"rg"):
            state[operator.decode()] = tuple(round(v, 3) for v in values)
        elif operator == b"d":
            state["d"] = tuple(float(v) for v in operands[0])
        elif operator in SEGMENTS:
            if operator == b"m" and path and path[-1][0] == "m":
                path.pop()  # a move that another follows paints nothing
            path.append((SEGMENTS[operator], values))
        elif operator == b"re":
            x, y, w, h = values
            path += [("m", (x, y)), ("l", (x + w, y)), ("l", (x + w, y + h)),
                     ("l", (x, y + h)), ("h", ())]
        elif operator in PAINTS or operator == b"n":
            paint = PAINTS.get(operator)
            if path and path[-1][0] == "m":
                path.pop()
            if paint and path:
                shapes.append((tuple(round(v, 5) for v in state["ctm"]), Shape(
                    paint, state["w"], state["RG"] if paint != "f" else (),
                    state["rg"] if paint != "S" else (), state["d"], tuple(path))))
            path = []
        elif operator == b"Do":
            form = resources["/XObject"][operands[0]].get_object()
            if form.get("/Subtype") == "/Form":
                inner = tuple(float(v) for v in form.get("/Matrix", (1, 0, 0, 1, 0, 0)))
                _paths(form, form.get("/Resources", resources),
                       _multiply(inner, state["ctm"]), shapes, texts)


# --- names beside their numbers, as drawn ------------------------------------------------

# A number as the app writes one: "+15", "−20", "1.28", "1,250.50", an amount of money
# ("-€1.00", "‎€ 1.00", "1,00 €").
NUMBER = r"[+\-−]?(?:\u200e?[€$£₽]\s?)?\d+(?:[.,٫٬]\d+)*(?:\s?[€$£₽])?"

# For each element ``scope`` selects: its visual lines (words of its text that are one
# of ``names`` or a number, in the order the line reads: right to left when the element
# is right to left), and for every name on a line the nearest number on the side the
# line reads on to (null when none), as [name, number] pairs in reading order. Read
# from where Chromium drew each word (Range.getClientRects; a name broken over two
# lines counts where it ends), not from the markup;
# text that is not drawn (hidden, clipped to a pixel, inside an SVG) is left out.
PAIRS_JS = r"""({scope, names, number}) => {
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const alternatives = [...names].sort((a, b) => b.length - a.length).map(escape);
  const word = new RegExp(`(${alternatives.join("|")})|(${number})`, "gu");
  const drawn = (node) => {
    const el = node.parentElement;
    if (!el || el.closest("svg, script, style, .visually-hidden")) return false;
    return el.checkVisibility({visibilityProperty: true});
  };
  return [...document.querySelectorAll(scope)].map((root) => {
    const rtl = getComputedStyle(root).direction === "rtl";
    const words = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!drawn(node)) continue;
      for (const found of node.data.matchAll(word)) {
        const range = document.createRange();
        range.setStart(node, found.index);
        range.setEnd(node, found.index + found[0].length);
        // a name broken over two lines stands where it ends: on its last line
        const rects = [...range.getClientRects()].filter((r) => r.width >= 1 && r.height >= 1);
        if (!rects.length) continue;
        const last = Math.max(...rects.map((r) => r.top));
        const end = rects.filter((r) => r.top > last - 2);
        const r = {left: Math.min(...end.map((r) => r.left)),
                   right: Math.max(...end.map((r) => r.right)),
                   top: Math.min(...end.map((r) => r.top)),
                   bottom: Math.max(...end.map((r) => r.bottom))};
        r.height = r.bottom - r.top;
        const name = found[1] !== undefined;  // a number without its spaces and marks
        words.push({text: name ? found[0] : found[0].replace(/[\s\u200e]/g, ""), name,
                    left: r.left, right: r.right, middle: (r.top + r.bottom) / 2,
                    half: r.height / 2});
      }
    }
    words.sort((a, b) => a.middle - b.middle);
    const lines = [];
    for (const w of words) {
      const line = lines.find(
        (l) => Math.abs(l[0].middle - w.middle) < Math.min(l[0].half, w.half));
      if (line) line.push(w); else lines.push([w]);
    }
    const pairs = [];
    for (const line of lines) {
      line.sort((a, b) => rtl ? b.right - a.right : a.left - b.left);
      for (const w of line.filter((w) => w.name)) {
        const ahead = line.filter((n) => !n.name
          && (rtl ? n.right <= w.left + 0.5 : n.left >= w.right - 0.5));
        ahead.sort((a, b) => rtl ? (w.left - a.right) - (w.left - b.right)
                                 : (a.left - w.right) - (b.left - w.right));
        pairs.push([w.text, ahead.length ? ahead[0].text : null]);
      }
    }
    return {text: root.innerText.replace(/\s+/g, " ").trim(),
            lines: lines.map((l) => l.map((w) => w.text)), pairs};
  });
}"""


def drawn_pairs(page: Any, scope: str, names: list[str] | tuple[str, ...]) -> list[dict[str, Any]]:
    """``PAIRS_JS`` on a Playwright ``page``: for each element ``scope`` selects, its
    ``text``, its ``lines`` of names and numbers in reading order and its ``pairs``
    (each name with the nearest number the line reads on to)."""
    found: list[dict[str, Any]] = page.evaluate(
        PAIRS_JS, {"scope": scope, "names": list(names), "number": NUMBER}
    )
    return found


def printed_pairs(line: list[Word], names: list[str] | tuple[str, ...], *, rtl: bool
                  ) -> tuple[list[str], list[tuple[str, str | None]]]:
    """A printed line's names and numbers in reading order (right to left when ``rtl``),
    and each name with the nearest number on the side the line reads on to (``None``
    when there is none), as ``PAIRS_JS`` reads a page. poppler gives a word's letters in
    the order they stand on the paper, so a right-to-left name is found reversed, and a
    number as it is drawn ("15−" is a sign printed after the digits)."""
    known = {unicodedata.normalize("NFKC", name): name for name in names}
    known.update({text[::-1]: name for text, name in list(known.items())})
    words: list[tuple[str, bool, Word]] = []
    for word in line:
        text = unicodedata.normalize("NFKC", word.text).strip(".,:;()\u200e")
        if text in known:
            words.append((known[text], True, word))
        elif re.fullmatch(rf"{NUMBER}|\d+[+−\-]", text):
            words.append((text, False, word))
    words.sort(key=lambda w: -w[2].x1 if rtl else w[2].x0)
    pairs: list[tuple[str, str | None]] = []
    for i, (text, is_name, _word) in enumerate(words):
        if is_name:
            ahead = [t for t, name, _w in words[i + 1:] if not name]
            pairs.append((text, ahead[0] if ahead else None))
    return [text for text, _name, _word in words], pairs
