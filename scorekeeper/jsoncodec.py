"""JSON written by orjson: the app's answers (Flask's JSON provider) and the values of
PostgreSQL's JSON columns.

Saving a hand through the API encodes its answer and the hand's JSON values; the
standard library's encoder took a few hundredths of the hand's whole cost
(bench/HISTORY.md, session 25). orjson writes the same JSON values, compact: keys
sorted where Flask sorts them, and letters outside ASCII as UTF-8 rather than as
``\\u`` escapes (both are the same JSON to any reader). Values orjson does not write
itself (dates and times, dataclasses, other types) go to the same ``default`` the
standard library's encoder would call, and what orjson refuses (an integer beyond 64
bits, a type ``default`` does not know) is handed to the standard library, which
writes or refuses it as before. Reading stays with the standard library: orjson reads
an integer beyond 64 bits as a float.

>>> dumps({"name": "Ана", "totals": [12, 40]})
b'{"name":"\\xd0\\x90\\xd0\\xbd\\xd0\\xb0","totals":[12,40]}'
>>> dumps({"big": 2**70, "name": "Ана"}) == '{"big":1180591620717411303424,"name":"Ана"}'.encode()
True
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider

# Types the standard library's encoder does not write itself go to ``default`` there:
# orjson passes them on the same way (where it would write them its own way).
_OPTIONS = (orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
            | orjson.OPT_PASSTHROUGH_DATACLASS)


def dumps(value: Any) -> bytes:
    """``value`` as JSON in UTF-8, as psycopg sends a JSON column's value."""
    try:
        return orjson.dumps(value, option=_OPTIONS)
    except TypeError:  # orjson's JSONEncodeError: the standard library's answer instead,
        # written as orjson writes (compact, UTF-8)
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON provider, its answers written by orjson (``app.json``).

    The same ``default`` (dates as HTTP dates, decimals as text…) and key order as
    Flask's own; the standard library writes what asks for its own options (the
    indented answers of debug mode, ``tojson(indent=…)``) and what orjson refuses."""

    ensure_ascii = False  # UTF-8, as orjson writes it

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        """``obj`` as JSON text."""
        if kwargs.keys() <= {"separators"}:  # compact (Flask's answers) or as is
            option = _OPTIONS | (orjson.OPT_SORT_KEYS if self.sort_keys else 0)
            try:
                return orjson.dumps(obj, default=self.default, option=option).decode()
            except TypeError:
                pass
        return super().dumps(obj, **kwargs)
