"""The app served for real (waitress on a loopback port) for tests that need a browser
or several clients at once."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask
from waitress.server import create_server


@contextmanager
def serve(app: Flask, threads: int = 8, port: int = 0) -> Iterator[str]:
    """Serve ``app`` on a loopback port (a free one unless given); yields the base URL."""
    server = create_server(app, host="127.0.0.1", port=port, threads=threads)
    port = server.socket.getsockname()[1]  # type: ignore[union-attr]
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.close()
        # Connections the browser keeps alive go too: the server is really gone.
        for channel in list(server._map.values()):  # type: ignore[union-attr]
            channel.close()
        thread.join(timeout=5)
