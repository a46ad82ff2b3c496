"""Every install instruction and error hint installs this project (the distribution
umpire-games, from its source folder), never PyPI's unrelated ``umpire`` (issue 32)."""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from pathlib import Path

import pytest

from server.cli import main
from server.ops import event_loop

ROOT = Path(__file__).resolve().parents[1]
#: where install instructions and hints live
PLACES = ["server", "bots", "client_cli", "docs", "deploy", "README.md", "benchmarks"]
#: ``umpire[extra]`` or ``pip install umpire``: PyPI's other project
WRONG = re.compile(r"(?<![\w-])umpire\[[a-z]|pip install '?umpire\b(?!-)")


def texts() -> list[Path]:
    files: list[Path] = []
    for place in PLACES:
        path = ROOT / place
        files += [path] if path.is_file() else sorted(path.rglob("*"))
    return [f for f in files if f.suffix in {".py", ".md", ".toml", ".yaml", ""} and f.is_file()]


def test_no_instruction_installs_pypis_umpire() -> None:
    wrong = []
    for path in texts():
        if path.name == "benchmarks-history.md":  # the record of what was run at the time
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            # the warnings about the other project name it on purpose
            if WRONG.search(line) and "unrelated" not in line and "never" not in line:
                wrong.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert wrong == []


def test_the_distribution_is_umpire_games_and_dev_names_it() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == "umpire-games"
    assert project["scripts"] == {"umpire": "server.cli:main"}
    extras = project["optional-dependencies"]
    assert any(r.startswith("umpire-games[") and "ray" in r for r in extras["dev"])
    assert "pandas" not in " ".join(extras["learn"])  # polars only (docs/learning.md)


def test_the_error_hints_name_the_extra_and_the_source_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # (the function event_loop calls: ``event_loop.importlib is importlib``)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(RuntimeError, match=r"uvloop extra of umpire-games \(pip install -e"):
        event_loop.loop_factory("uvloop")
    monkeypatch.undo()

    db = tmp_path / "kb.db"
    assert main(["selfplay", "--game", "perudo", "--bots", "perudo-random", "--games", "1",
                 "--db", str(db)]) == 0  # fmt: skip
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if the learn extra were missing
    monkeypatch.delitem(sys.modules, "server.export.parquet", raising=False)
    argv = ["export", "--db", str(db), "--format", "parquet", "--out", str(tmp_path / "d")]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "the learn extra of umpire-games (pip install -e '.[learn]'" in err
