"""gunicorn's hooks for ``scorekeeper serve`` (``--config=python:scorekeeper.gunicorn_config``).

gunicorn reads this module in its master process for its settings, so it imports
nothing of the app.
"""

from __future__ import annotations

import gc
from typing import Any


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
