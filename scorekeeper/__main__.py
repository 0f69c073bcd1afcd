"""``python -m scorekeeper``: the ``scorekeeper`` command (``cli.py``)."""

from .cli import main

main()
