"""gunicorn's hooks for ``scorekeeper serve`` (``--config=python:scorekeeper.gunicorn_config``).

gunicorn reads this module in its master process for its settings, so it imports
nothing of the app: the logger that hides edit secrets, and the workers' start.
"""

from __future__ import annotations

import gc
import logging
import re
from typing import Any

from gunicorn.glogging import Logger  # type: ignore[import-untyped]

# An edit link's secret: "key=" (or "key%3D") and what follows up to a space, "&" or a
# quote. A request line gunicorn cannot parse (a raw "é" or a tab in it) reaches its
# error log whole, and "/g/<id>%3Fkey=<secret>" reaches the access log as a path.
_SECRET = re.compile(r"(?i)(?:(?<![a-z0-9_])|(?<=%3f)|(?<=%26))(key(?:=|%3d))[^ &\"']*")


def without_secrets(text: str) -> str:
    """``text`` with every edit secret in it hidden.

    >>> without_secrets("Invalid Request Line 'GET /g/x?key=s\\xe9cr\\tet HTTP/1.1'")
    "Invalid Request Line 'GET /g/x?key=[hidden] HTTP/1.1'"
    >>> without_secrets("GET /g/x%3Fkey%3Dsecret HTTP/1.1 monkey=1")
    'GET /g/x%3Fkey%3D[hidden] HTTP/1.1 monkey=1'
    """
    return _SECRET.sub(r"\1[hidden]", text)


class _HideSecrets(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = without_secrets(record.getMessage()), ()
        return True


class SecretsHiddenLogger(Logger):
    """gunicorn's logger, with edit secrets hidden from its error and access logs."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            log.addFilter(_HideSecrets())


logger_class = "scorekeeper.gunicorn_config.SecretsHiddenLogger"


def post_worker_init(worker: Any) -> None:
    """Once a worker has built the app: collect what building it left over, then keep
    every object alive now out of the garbage collector's full passes (``gc.freeze``).

    The built app is about 165,000 objects (Flask, SQLAlchemy, Jinja, Babel, the
    rules), nearly all alive for as long as the worker. Python's full collection
    walks every one of them: 130–160 ms here with one thread, 160–430 ms in a
    worker whose other threads were saving hands (PostgreSQL, ``bench/load.py``),
    and for that time no thread of the worker runs. Frozen, they are never walked
    again; a full collection walks the few thousand objects made since.
    """
    gc.collect()
    gc.freeze()
    worker.log.info("built app frozen out of garbage collection: %d objects",
                    gc.get_freeze_count())
