"""The token file: where it lives, round trips, damage tolerated."""

from __future__ import annotations

import stat
from pathlib import Path

from client_cli.tokens import Identity, TokenStore, config_dir


def test_config_dir_follows_xdg(config_home: Path) -> None:
    assert config_dir() == config_home / "umpire"


def test_round_trip_per_server(config_home: Path) -> None:
    store = TokenStore()
    assert store.load("ws://a") is None
    store.save("ws://a", Identity("tok-a", "ana"))
    store.save("ws://b", Identity("tok-b", "bob"))
    assert TokenStore().load("ws://a") == Identity("tok-a", "ana")
    assert TokenStore().load("ws://b") == Identity("tok-b", "bob")
    mode = stat.S_IMODE((config_home / "umpire" / "client.json").stat().st_mode)
    assert mode == 0o600
    store.save("ws://a", Identity("tok-c", "cara"))
    assert store.load("ws://a") == Identity("tok-c", "cara")  # the last name used
    assert store.load("ws://a", "ana") == Identity("tok-a", "ana")
    store.forget("ws://a", "ana")
    assert store.load("ws://a", "ana") is None
    assert store.load("ws://b") is not None


def test_damaged_file_is_empty(config_home: Path) -> None:
    path = config_home / "umpire" / "client.json"
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    store = TokenStore()
    assert store.load("ws://a") is None
    store.save("ws://a", Identity("t", "n"))
    assert store.load("ws://a") == Identity("t", "n")
