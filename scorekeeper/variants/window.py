"""Which of a game's hands a page shows: the latest, and older ones a page at a time.

A sheet lists its hands oldest first, each row with the running totals, so a page of
the latest hands reads like the bottom of a paper sheet: the totals on its first row
already count every hand before it. Page 1 holds the latest ``size`` hands, page 2 the
``size`` before them, and so on; a page past the end shows the oldest hands.

>>> page = Window.of(120, "2", size=50)
>>> (page.number, page.start, page.stop, page.older, page.newer)
(2, 20, 70, 3, 1)
>>> page.first, page.last
(21, 70)
>>> Window.of(120, "9", size=50).number, Window.of(120, "x", size=50).number
(3, 1)
>>> Window.of(0, None, size=50).pages
1
"""

from __future__ import annotations

from dataclasses import dataclass

# Hands on one page of the sheet: more than a table plays in an evening.
SHEET_PAGE = 100
# Entries on one page of a game's history.
HISTORY_PAGE = 100


@dataclass(frozen=True)
class Window:
    """Rows ``start``–``stop`` (0-based, ``stop`` excluded) of ``count``: page
    ``number`` of ``pages``, counted from the latest."""

    number: int
    pages: int
    start: int
    stop: int
    count: int

    @classmethod
    def of(cls, count: int, asked: str | None, *, size: int) -> Window:
        """The page ``asked`` for (the ``?page=`` text; anything but a page number is
        the first) of ``count`` rows, ``size`` a page."""
        pages = max(1, -(-count // size))
        digits = asked is not None and asked.isascii() and asked.isdigit() and len(asked) < 7
        number = int(asked) if digits and asked else 1
        number = min(max(number, 1), pages)
        stop = count - (number - 1) * size
        return cls(number, pages, max(0, stop - size), stop, count)

    @staticmethod
    def holding(count: int, row: int, *, size: int) -> int:
        """The page of ``count`` rows that shows row ``row`` (1-based).

        >>> Window.holding(120, 120, size=50), Window.holding(120, 70, size=50)
        (1, 2)
        >>> Window.holding(120, 20, size=50), Window.holding(120, 1, size=50)
        (3, 3)
        """
        return max(1, min((count - row) // size + 1, -(-count // size)))

    @property
    def first(self) -> int:
        """The 1-based number of the first row shown."""
        return self.start + 1

    @property
    def last(self) -> int:
        """The 1-based number of the last row shown."""
        return self.stop

    @property
    def older(self) -> int | None:
        """The page before this one in the game (older rows), if any."""
        return self.number + 1 if self.number < self.pages else None

    @property
    def newer(self) -> int | None:
        """The page after this one (newer rows), if any."""
        return self.number - 1 if self.number > 1 else None

    @property
    def whole(self) -> bool:
        """Whether this page shows every row."""
        return self.pages == 1
