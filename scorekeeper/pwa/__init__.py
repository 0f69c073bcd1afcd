"""On the phones at the table: QR codes to join a game or the server, the web app
manifest, the service worker that keeps the app and the last sheets for offline use,
and the favicon."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("pwa", __name__, cli_group=None)
