"""Fixtures for client tests: the server tests' real server on an ephemeral port and a
private config directory for the token file."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
import textual._wait

from client_cli.catalogue import Catalogue
from tests.server.conftest import (  # noqa: F401  (fixtures re-exported for pytest)
    connect,
    db_path,
    make_server,
    server,
)

# Textual's pilot waits, after every key it presses, until the process has been idle for
# a whole slice of ``SLEEP_GRANULARITY`` (it counts idle as using under ``SLEEP_IDLE`` of
# CPU in the slice). Its 20 ms slices made typing the larger part of these tests' wall
# time; 5 ms slices with the same ratio keep the wait (an idle process is still an idle
# process: the server runs in the test's own event loop) and took tests/client from 92 s
# to 52-66 s (``-n 2``, round thirty-seven in docs/kriegspiel_meta.md). Module-level
# names of a private module: if Textual drops them this does nothing.
textual._wait.SLEEP_GRANULARITY = 1 / 200
textual._wait.SLEEP_IDLE = textual._wait.SLEEP_GRANULARITY / 20


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point ``XDG_CONFIG_HOME`` at a temporary directory (the token file lands there)."""
    home = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home


@pytest.fixture
def catalogue() -> Catalogue:
    """The catalogue a server with the built-in bots publishes, as the client reads it."""
    from server.root import house_catalog
    from server.wire.catalogue import build

    frame = build("en", house_catalog(), advisor=True)
    return Catalogue.from_frame(msgspec.to_builtins(frame))
