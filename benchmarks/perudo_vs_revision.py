"""Head-to-head: today's ``perudo-expert`` against the expert of an earlier revision.

Usage::

    python benchmarks/perudo_vs_revision.py --rev 22397a1 [--level hard] [--games 2000]
        [--seats 2] [--seed 11] [--others perudo-simple,perudo-simple] [-o KEY=VALUE]

The expert of revision ``--rev`` (``bots/perudo/expert`` as committed there) is copied
into a temporary package, ``perudo_expert_<rev>``, with a class pinned to ``--level``,
and ``umpire tournament --local`` plays today's ``perudo-expert:LEVEL`` against it (and
``--others``, if given), seats rotating. The table printed is the tournament's: win
rates with 95% Wilson intervals. Run it from a git checkout of the project.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_WRAPPER = '''"""The perudo-expert of revision {rev}, pinned to level {level}."""
from __future__ import annotations
from typing import Any, ClassVar
from {package}.bot import PerudoExpert


class Pinned(PerudoExpert):
    name: ClassVar[str] = "expert-{rev}:{level}"

    def __init__(self, seed: int | None = None, **kw: Any) -> None:
        super().__init__(level="{level}", seed=seed, **kw)
'''


def extract(rev: str, level: str, into: Path) -> str:
    """Copy revision ``rev``'s expert into ``into``; return the bot spec to load it."""
    package = "perudo_expert_" + re.sub(r"\W", "_", rev)
    archive = subprocess.run(
        ["git", "archive", "--format=tar", rev, "bots/perudo/expert"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    target = into / package
    target.mkdir()
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            source = tar.extractfile(member)
            assert source is not None
            text = source.read().decode()
            text = re.sub(r"\bbots\.perudo_expert\b", package, text)
            (target / Path(member.name).name).write_text(text)
    (target / "pinned.py").write_text(_WRAPPER.format(rev=rev, level=level, package=package))
    return f"{package}.pinned:Pinned"


def main(argv: list[str] | None = None) -> int:
    """Extract the old expert and run the tournament."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", required=True)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--others", default="")
    parser.add_argument("-o", "--option", action="append", default=[], help="KEY=VALUE")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        spec = extract(args.rev, args.level, Path(tmp))
        bots = [f"perudo-expert:{args.level}", spec, *[b for b in args.others.split(",") if b]]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([tmp, str(ROOT)])}
        command = [sys.executable, "-m", "server.cli", "tournament", "--local"]
        command += ["--game", "perudo", "--bots", ",".join(bots), "--seats", str(args.seats)]
        command += ["--games", str(args.games), "--seed", str(args.seed)]
        for option in args.option:
            command += ["-o", option]
        return subprocess.run(command, env=env, check=False).returncode


if __name__ == "__main__":
    raise SystemExit(main())
