"""The app served for real (waitress on a loopback port) for tests that need a browser
or several clients at once."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask
from waitress.server import create_server


@contextmanager
def serve(app: Flask, threads: int = 8) -> Iterator[str]:
    """Serve ``app`` on a free loopback port; yields the base URL."""
    server = create_server(app, host="127.0.0.1", port=0, threads=threads)
    port = server.socket.getsockname()[1]  # type: ignore[union-attr]
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.close()
        thread.join(timeout=5)
