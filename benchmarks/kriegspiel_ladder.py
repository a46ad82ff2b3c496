"""Self-play ladder: ``kriegspiel-meta`` against its own earlier version, by ``umpire tournament``.

The earlier version is taken from git (``--previous``, a commit; the repository has no
tags) and loaded as a package of its own name, so both versions play in one tournament:

1. ``git archive <commit> bots/kriegspiel/meta`` is unpacked into a temporary folder as
   the package ``ks_prev_<commit>`` (its own imports renamed to match); the rest of the
   code (the SDK, the engines) is today's, which the bot only uses through the Bot API;
2. a small ``ladder.py`` in that package wraps the old class so that it takes this
   version's budget texts (``cpu=0.2``: the thread's CPU time, which the old bot already
   accepts as its ``clock``; an old bot has no node budget) and gets its own name;
   (a version from 902fe68 on takes the texts itself, ``nodes=N`` too);
3. ``umpire tournament`` runs with that folder on ``PYTHONPATH`` (``--parallel`` workers
   inherit it), seats rotating as usual.

    python benchmarks/kriegspiel_ladder.py [--previous 22397a1] [--games 200] [--budget cpu=0.2]
        [--seed 1] [--parallel 1] [--against kriegspiel-meta] [--db games.sqlite]
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

WRAPPER = '''"""The previous ``kriegspiel-meta`` ({commit}), taking today's budget texts."""

from __future__ import annotations

import importlib.util
import time
from typing import Any

from {package}.bot import KriegspielMeta

#: Versions from 902fe68 on take budget texts themselves (nodes=N as well).
TEXTS = importlib.util.find_spec("{package}.budget") is not None


class Previous(KriegspielMeta):
    """``kriegspiel-meta`` as of {commit}."""

    name = "kriegspiel-meta@{commit}"

    def __init__(self, seed: int | None = None, budget: Any = None, **kwargs: Any) -> None:
        if isinstance(budget, str) and not TEXTS:
            unit, _, amount = budget.partition("=")
            if unit != "cpu":
                raise ValueError("this previous version takes only a cpu=SECONDS budget")
            kwargs["clock"] = time.thread_time
            budget = float(amount)
        super().__init__(seed=seed, budget=budget, **kwargs)
'''


def unpack(commit: str, into: Path) -> str:
    """Unpack the bot at ``commit`` into ``into`` as a package; return its name."""
    short = (
        subprocess.run(
            ["git", "rev-parse", "--short=7", commit], cwd=ROOT, check=True, capture_output=True
        )
        .stdout.decode()
        .strip()
    )
    package = f"ks_prev_{short}"
    archive = subprocess.run(
        ["git", "archive", "--format=tar", short, "bots/kriegspiel/meta"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    target = into / package
    target.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            source = tar.extractfile(member)
            assert source is not None
            text = source.read().decode().replace("bots.kriegspiel.meta", package)
            (target / Path(member.name).name).write_text(text)
    (target / "ladder.py").write_text(WRAPPER.format(commit=short, package=package))
    return package


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--previous", default="22397a1", help="the earlier version's commit")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--budget",
        default="cpu=0.2",
        help="cpu=SECONDS per decision, or nodes=N (previous versions from 902fe68 on)",
    )
    parser.add_argument("--seed", default="1")
    parser.add_argument("--parallel", type=int, default=1)
    parser.add_argument("--against", default="kriegspiel-meta", help="today's bot spec")
    parser.add_argument(
        "--db", help="write every game to this knowledge base as it ends (a long run's part)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ladder-") as folder:
        package = unpack(args.previous, Path(folder))
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (folder, str(ROOT), env.get("PYTHONPATH", "")) if p
        )
        command = [
            sys.executable,
            "-m",
            "server.cli",
            "tournament",
            "--game",
            "kriegspiel",
            "--bots",
            f"{args.against},{package}.ladder:Previous",
            "--games",
            str(args.games),
            "--seed",
            args.seed,
            "--budget",
            args.budget,
            "--parallel",
            str(args.parallel),
            *(["--db", args.db] if args.db else []),
        ]
        print("$", " ".join(command), flush=True)
        sys.exit(subprocess.run(command, env=env, cwd=ROOT).returncode)


if __name__ == "__main__":
    main()
