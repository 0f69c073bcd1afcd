"""Builds the compiled translation catalogs (.mo) into the wheel; they are never committed.

Everything else about the package is in pyproject.toml. An editable install
(``make``) reads the catalogs ``make catalogs`` compiles in the source tree instead.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    """``build_py``, then every ``translations/<lang>/LC_MESSAGES/messages.po`` compiled
    next to its copy in the build (fuzzy entries left out, as ``pybabel compile`` does)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(Path("scorekeeper/translations").glob("*/LC_MESSAGES/messages.po")):
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parent.parent.name)
            mo = Path(self.build_lib) / po.with_suffix(".mo")
            mo.parent.mkdir(parents=True, exist_ok=True)
            with mo.open("wb") as target:
                write_mo(target, catalog)


setup(cmdclass={"build_py": BuildWithCatalogs})
