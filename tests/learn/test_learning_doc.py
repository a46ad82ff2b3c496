"""The worked example of docs/learning.md runs as written (on fewer games)."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

from bots.tools.arena import schedule
from bots.tools.cli import play_and_record
from server.cli import main, open_recorder

DOC = Path(__file__).resolve().parents[2] / "docs" / "learning.md"


def example_code() -> str:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Worked example") :]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match is not None
    return match.group(1)


def test_the_dudo_model_example_runs(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    specs = schedule(
        "perudo",
        {"seats": 4, "preset": "classic"},
        ["perudo-simple", "perudo-random"],
        4,
        30,
        "doc",
    )

    async def collect() -> None:
        async with open_recorder(str(db)) as record:
            await play_and_record(specs, 1, record, {"source": "test"})

    asyncio.run(collect())
    assert (
        main(["export", "--db", str(db), "--format", "parquet", "--out", str(tmp_path / "data")])
        == 0
    )
    script = tmp_path / "dudo_model.py"
    script.write_text(example_code(), encoding="utf-8")
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    simple = next(line for line in lines if line.startswith("bot-perudo-simple:"))
    # perudo-simple calls dudo more often the less likely the bid: a positive slope.
    found = re.search(r"w1=([+-][0-9.]+)", simple)
    assert found is not None, simple
    slope = float(found.group(1))
    assert slope > 0
