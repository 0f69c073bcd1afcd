"""The package installs anywhere: a wheel built from a clean copy of the source,
installed alone into a new virtual environment, migrates and serves, in Persian, with
its stylesheets, scripts, icons, service worker and printed pads.

Slow (about a minute: pip installs the dependencies from its cache); ``make test``
runs it once, on SQLite, as one test: built and installed once, on one pytest worker.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.trust_server import Browser, free_port

ROOT = Path(__file__).resolve().parent.parent
# What a clean clone does not have: build output, the local venv and npm packages,
# compiled catalogs.
NOT_IN_A_CLONE = shutil.ignore_patterns(
    ".git", ".venv", "node_modules", "build", "dist", "instance", "test-output", "*.egg-info",
    "*.mo", "__pycache__", ".mypy_cache", ".ruff_cache", ".hypothesis", ".pytest_cache",
)

pytestmark = pytest.mark.slow


def run(args: list[str], *, cwd: Path, env: dict[str, str], timeout: float = 240) -> str:
    done = subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """(venv, environment): the wheel installed alone in a new virtual environment."""
    tmp = tmp_path_factory.mktemp("wheel")
    # Alone: neither this checkout's settings, nor its virtual environment, nor its source
    # on the import path.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SCOREKEEPER_", "VIRTUAL")) and k != "PYTHONPATH"}
    env |= {"XDG_DATA_HOME": str(tmp / "data"), "XDG_RUNTIME_DIR": str(tmp)}
    source = tmp / "source"
    shutil.copytree(ROOT, source, ignore=NOT_IN_A_CLONE)
    assert list(source.rglob("*.mo")) == []  # so the wheel's catalogs were compiled by the build
    run([sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp / "dist"), str(source)],
        cwd=tmp, env=env)
    [wheel] = (tmp / "dist").glob("scorekeeper-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for inside in (
        "scorekeeper/translations/fa/LC_MESSAGES/messages.mo",
        "scorekeeper/translations/ru/LC_MESSAGES/messages.mo",
        "scorekeeper/migrations/env.py",
        "scorekeeper/migrations/script.py.mako",
    ):
        assert inside in names
    assert not any(name.startswith(("tests/", "bench/", "migrations/")) for name in names)
    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", str(venv)], cwd=tmp, env=env)
    run([str(venv / "bin" / "python"), "-m", "pip", "install", "--disable-pip-version-check",
         "-q", str(wheel)], cwd=tmp, env=env, timeout=300)
    yield venv, env


def the_installed_package_is_the_wheel_and_keeps_its_files_in_xdg_data_home(
    venv: Path, env: dict[str, str], tmp_path: Path
) -> None:
    script = "import scorekeeper as s; print(s.__file__); print(s.instance_path())"
    out = run([str(venv / "bin" / "python"), "-c", script], cwd=tmp_path, env=env)
    module, instance = out.split()
    assert Path(module).is_relative_to(venv)
    assert Path(instance) == Path(env["XDG_DATA_HOME"]) / "scorekeeper"


def test_the_installed_package_is_the_wheel_and_its_command_migrates_and_serves_persian(
    installed: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    """The package imported is the wheel's and keeps its files in XDG_DATA_HOME; its
    command migrates a new instance and serves it. (One test: two would each build and
    install the wheel when pytest's workers take one each.)"""
    venv, env = installed
    the_installed_package_is_the_wheel_and_keeps_its_files_in_xdg_data_home(venv, env, tmp_path)
    command = str(venv / "bin" / "scorekeeper")
    instance = tmp_path / "instance"
    out = run([command, "--instance", str(instance), "migrate"], cwd=tmp_path, env=env)
    assert out.strip() == "database is up to date"
    assert (instance / "scorekeeper.sqlite").is_file()

    port = free_port()
    server = subprocess.Popen(
        [command, "--instance", str(instance), "serve", "--host", "127.0.0.1",
         "--port", str(port), "--workers", "1"],
        cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        browser = Browser(f"http://127.0.0.1:{port}", timeout=10)
        reply = None
        deadline = time.monotonic() + 60
        while reply is None and time.monotonic() < deadline:
            assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
            try:
                reply = browser.request("GET", "/", headers={"Accept-Language": "fa"})
            except OSError:
                time.sleep(0.2)
        assert reply is not None, "the server did not answer within a minute"
        assert reply.status == 200
        assert '<html lang="fa" dir="rtl" data-theme="auto">' in reply.text
        # The app's name comes out of the compiled Persian catalog inside the wheel.
        assert "<title>امتیازنویس</title>" in reply.text
        assert (instance / "secret_key").is_file()
        served_with_its_files(browser)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)
        if server.stderr:
            server.stderr.close()


STATIC = ROOT / "scorekeeper" / "static"


def served_with_its_files(browser: Browser) -> None:
    """The installed app serves every static file of the source byte for byte (the
    service worker lists them all for the phone to keep), the service worker itself,
    and a printed pad."""
    worker = browser.get("/sw.js")
    assert worker.status == 200
    assert worker.headers["content-type"] == "text/javascript; charset=utf-8"
    listed = re.search(r"^const ASSETS = (\[.*\]);$", worker.text, re.MULTILINE)
    assert listed is not None, worker.text[:500]
    files = sorted(p for p in STATIC.rglob("*") if p.is_file() and p.suffix != ".ico")
    assert sorted(json.loads(listed[1])) == sorted(
        f"/static/{p.relative_to(STATIC).as_posix()}" for p in files
    )
    types = {".css": "text/css", ".js": "text/javascript", ".png": "image/png",
             ".svg": "image/svg+xml"}
    for path in files:
        reply = browser.get(f"/static/{path.relative_to(STATIC).as_posix()}")
        assert reply.status == 200, path
        assert reply.headers["content-type"].split(";")[0] == types[path.suffix], path
        assert reply.body == path.read_bytes(), path
    icon = browser.get("/favicon.ico")
    assert (icon.status, icon.body) == (200, (STATIC / "icons" / "favicon.ico").read_bytes())

    pad = browser.request("GET", "/pads/pad.pdf", headers={"Accept-Language": "en"})
    assert (pad.status, pad.headers["content-type"]) == (200, "application/pdf")
    pages = PdfReader(io.BytesIO(pad.body)).pages
    assert len(pages) == 1
    assert "Gin rummy" in (pages[0].extract_text() or "")
