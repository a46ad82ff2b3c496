"""Fixtures for client tests: the server tests' real server on an ephemeral port and a
private config directory for the token file."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from client_cli.catalogue import Catalogue
from tests.server.conftest import (  # noqa: F401  (fixtures re-exported for pytest)
    connect,
    db_path,
    make_server,
    server,
)


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
