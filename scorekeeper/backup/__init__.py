"""Backup: export games as JSON and import them back as new games.

``GET /g/<id>/export.json`` and ``flask --app scorekeeper export`` write the files;
the ``/import`` page and ``flask --app scorekeeper import FILE`` read them back.
"""

from flask import Blueprint

# cli_group=None: the commands are ``flask export`` / ``flask import``, not ``flask backup …``
bp = Blueprint("backup", __name__, cli_group=None)

from . import cli, views  # noqa: E402,F401 - the routes and commands register themselves
