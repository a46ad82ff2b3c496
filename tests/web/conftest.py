"""Fixtures for the browser client's tests.

The server tests' fixtures (``make_server``, the ERROR-log guard) for the server-side
tests, and for the browser tests a real ``umpire serve`` subprocess (:class:`Served`) with
Debian's Chromium driven by Playwright. Browser tests are skipped, with the reason, when
``chromium`` or the ``playwright`` package is missing; CI installs both. The browser is
launched by its path: Playwright never downloads one.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import db_path, make_server, no_error_logs
from tests.server.serve import MANY_FROM_LOOPBACK

__all__ = ["db_path", "make_server", "no_error_logs"]

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
#: how long a page may take to reach a state (a whole bot game fits in it, on a machine
#: loaded by the rest of the suite: 30 s was once too short for the expert's hint)
WAIT_MS = 60_000
#: the lines of the server's log, and the websocket frames of each page, that a failed
#: test shows (printed at teardown; pytest shows captured output only on failure)
JOURNAL = 120
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class Served:
    """``umpire serve`` in a subprocess on a free port, restartable on the same port and
    database; its log is checked for ERROR lines when it stops."""

    def __init__(self, db: Path, log: Path, module: str = "server.cli") -> None:
        self.db = db
        self.log = log
        self.module = module  # the module run with ``-m``: the CLI, or one that wraps it
        self.port = 0
        self.proc: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> None:
        command = [sys.executable, "-m", self.module, "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--db", str(self.db), "--synchronous", "NORMAL"]
        command += ["--autopilot-delay", "0", "--grace", "30", *MANY_FROM_LOOPBACK]
        with self.log.open("a") as log:
            self.proc = subprocess.Popen(
                command, cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True
            )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        found = re.search(r":(\d+)$", line.strip())
        assert found, f"umpire serve did not start: {line!r} {self.log.read_text()[-2000:]}"
        self.port = int(found.group(1))

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            if self.proc.stdout is not None:
                self.proc.stdout.close()
            self.proc = None

    def errors(self) -> list[str]:
        return [line for line in self.log.read_text().splitlines() if " ERROR " in line]


def serving(tmp_path: Path, module: str = "server.cli") -> Iterator[Served]:
    """Run ``module``'s ``serve`` for a fixture: yield it, stop it, check its log."""
    server = Served(tmp_path / "umpire.db", tmp_path / "server.log", module)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        # (captured: pytest shows it only when the test failed)
        tail = server.log.read_text(errors="replace").splitlines()[-JOURNAL:]
        print(f"--- the server's log, last {len(tail)} lines:", *tail, sep="\n")
    assert not server.errors(), "\n".join(server.errors())


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """A running ``umpire serve`` (stopped, and its log checked, after the test)."""
    yield from serving(tmp_path)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, through Playwright (skips when either is missing).

    Module-scoped: Playwright's sync API runs an event loop of its own, which must be gone
    before any pytest-asyncio test of another module runs."""
    executable = shutil.which("chromium")
    if executable is None:
        pytest.skip("no chromium on PATH (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the playwright package is not installed (pip install -e '.[dev]')")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """``new_page(**context_options)``: a page in a fresh context (own storage), that
    fails the test on any JavaScript error."""
    contexts: list[Any] = []
    errors: list[str] = []
    journals: list[deque[str]] = []

    def factory(**options: Any) -> Any:
        context = browser.new_context(**options)
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        journal: deque[str] = deque(maxlen=JOURNAL)
        journals.append(journal)
        page.on("websocket", lambda ws: _journal(ws, journal))
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on(
            "console",
            # a lost websocket is logged by the browser itself (the restart test)
            lambda msg: (
                errors.append(f"{msg.text} ({msg.location.get('url')})")
                if msg.type == "error" and "WebSocket" not in msg.text
                else None
            ),
        )
        return page

    yield factory
    for context in contexts:
        context.close()
    for number, journal in enumerate(journals):
        print(f"--- page {number}'s websocket frames, the last {len(journal)}:", *journal, sep="\n")
    assert not errors, errors


def _journal(ws: Any, journal: deque[str]) -> None:
    """Keep what goes over ``ws`` (each frame cut to 400 characters) in ``journal``."""
    journal.append(f"open {ws.url}")
    ws.on("framesent", lambda payload: journal.append(f"> {str(payload)[:400]}"))
    ws.on("framereceived", lambda payload: journal.append(f"< {str(payload)[:400]}"))
    ws.on("close", lambda _: journal.append("closed"))


def shot(page: Any, name: str, tmp_path: Path) -> Path:
    """Save a screenshot: into docs/ when UMPIRE_SCREENSHOTS=1, else into tmp_path."""
    folder = DOCS if os.environ.get("UMPIRE_SCREENSHOTS") == "1" else tmp_path
    path = folder / f"web-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


class Wire:
    """Every websocket message a page sent and received, parsed."""

    def __init__(self, page: Any) -> None:
        self.sent: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        ws.on("framesent", lambda payload: self.sent.append(json.loads(payload)))
        ws.on("framereceived", lambda payload: self.received.append(json.loads(payload)))

    def sent_of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.sent if m.get("type") == kind]

    def received_of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.received if m.get("type") == kind]
