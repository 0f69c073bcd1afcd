"""The app served for real (waitress on a loopback port) for tests that need a browser
or several clients at once."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask
from waitress.channel import HTTPChannel
from waitress.server import create_server


@contextmanager
def serve(app: Flask, threads: int = 8, port: int = 0, **adjustments: Any) -> Iterator[str]:
    """Serve ``app`` on a loopback port (a free one unless given); yields the base URL.
    ``adjustments`` are waitress's own settings (``channel_timeout=30``, say)."""
    server = create_server(app, host="127.0.0.1", port=port, threads=threads, **adjustments)
    port = server.socket.getsockname()[1]  # type: ignore[union-attr]
    stopping = threading.Event()

    def run() -> None:
        # The loop runs in short slices (a slice ends as soon as something happens) so
        # that it can stop between two of them: the sockets are then closed with no
        # loop running over them.
        while not stopping.is_set():
            server.asyncore.loop(timeout=0.05, map=server._map, count=1)  # type: ignore[union-attr]

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stopping.set()
        thread.join(timeout=5)
        # Connections the browser keeps alive go too: the server is really gone. Each
        # is closed the way waitress closes one whose client went, so that a file still
        # waiting to be sent on it (a static icon, a PDF) is closed with it (a bare
        # close() leaves it to the garbage collector, which warns), and a thread
        # waiting to send more is woken and told the client is gone.
        for channel in list(server._map.values()):  # type: ignore[union-attr]
            if isinstance(channel, HTTPChannel):
                channel.handle_close()
            else:
                channel.close()
        # And the threads answering requests finish what they were doing: the app and
        # its database go after them, never under a request still being answered.
        server.task_dispatcher.shutdown(timeout=5)
