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
    stopping = threading.Event()

    def run() -> None:
        try:
            server.run()
        except OSError:
            # Closing the sockets below can catch the loop inside select(): EBADF then
            # only means that the server is going, as asked.
            if not stopping.is_set():
                raise

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stopping.set()
        server.close()
        # Connections the browser keeps alive go too: the server is really gone.
        for channel in list(server._map.values()):  # type: ignore[union-attr]
            channel.close()
        thread.join(timeout=5)
        # And the threads answering requests finish what they were doing (closing the
        # server leaves them running): the app and its database go after them, never
        # under a request still being answered.
        server.task_dispatcher.shutdown(timeout=5)
