"""benchmarks.server_trace summarises a trace of the measured window only."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.server_trace import summary


def test_the_summary_counts_only_the_window(tmp_path: Path) -> None:
    trace = {
        # (start, pause, generation, collected, frozen): one before the window, two in it
        "collections": [[5.0, 0.5, 0, 0, -1], [11.0, 0.02, 0, 3, 100], [12.0, 0.03, 2, 0, 90]],
        "collection_cpu": [0.4, 0.01, 0.02],
        "commits": [[10.5, 0.010, 40], [10.6, 0.020, 60], [30.0, 9.0, 1]],
        "acts": [[10.2, 0.050, 1.0], [10.3, 0.070, 1.0], [10.4, 0.5, 0.0]],
        "journal_waits": [[10.2, 0.030], [10.3, 0.040]],
        "stalls": [[10.1, 0.004], [10.2, 0.012], [40.0, 1.0]],
        "rss": [[10.0, 100.0, 500_000], [11.0, 101.0, 510_000]],
        "census": [],
        "heap": [],
    }
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(trace))
    text = summary(str(path), 10.0, 20.0)
    assert "gc: 2 collections (by generation {0: 1, 1: 0, 2: 1})" in text
    assert "pauses 50 ms in all" in text
    assert "longest 30.0 ms" in text
    assert "frozen objects 100 -> 90" in text
    assert "commits: 2," in text and "writes p50 40 / max 60" in text
    assert "p50 50.0 / p99 50.0 ms" in text  # the refused act is left out
    assert "loop stalls over 2 ms: 2, 16 ms in all, over 10 ms: 1" in text
    assert "RSS (MB)" in text
