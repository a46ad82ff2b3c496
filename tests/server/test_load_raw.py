"""The cheap load generator (benchmarks/load_raw.py) plays whole games on a real server."""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

from server.net.app import UmpireServer

ROOT = Path(__file__).resolve().parents[2]


def load_raw() -> ModuleType:
    """benchmarks/load_raw.py (benchmarks is not a package)."""
    spec = importlib.util.spec_from_file_location("load_raw", ROOT / "benchmarks" / "load_raw.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["load_raw"] = module  # (msgspec resolves the structs' annotations there)
    spec.loader.exec_module(module)
    return module


async def test_raw_seats_play_games_to_the_end(server: UmpireServer) -> None:
    raw = load_raw()
    now = time.monotonic()
    result = await raw.raw_worker(server.port, range(3), 4, 0.0, now, now + 0.5, 1)
    assert result["error"] is None
    # every table plays on until its game in progress at the deadline is over
    assert result["games"] >= 3
    assert result["actions"] > 0
    assert len(result["latencies"]) > 0


def test_a_client_frame_is_masked_with_the_zero_key() -> None:
    raw = load_raw()
    assert raw.client_frame('{"type":"ping"}') == b"\x81\x8f\x00\x00\x00\x00" + b'{"type":"ping"}'
    long = "x" * 300
    assert raw.client_frame(long)[:8] == b"\x81\xfe\x01\x2c\x00\x00\x00\x00"
