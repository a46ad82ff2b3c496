"""What the benchmarks share: their command line, the machine line, percentiles, the
scripted Perudo player of the load tests, a real ``umpire serve`` to measure, and a bot
as committed at an earlier revision to play against.

Every benchmark runs from the checkout's root as ``python -m benchmarks.<name>``, so the
project's packages (``server``, ``bots``, ``tests``) import without any path set-up.
"""

from __future__ import annotations

import argparse
import datetime
import io
import os
import platform
import random
import re
import subprocess
import sys
import tarfile
from collections.abc import Iterable, Sequence
from pathlib import Path

#: The checkout the benchmarks belong to.
ROOT = Path(__file__).resolve().parents[1]


def arguments(
    doc: str | None, *, games: int | None = None, seed: int | str | None = None
) -> argparse.ArgumentParser:
    """A benchmark's parser, described by its docstring's first paragraph, with
    ``--games`` and ``--seed`` when their defaults are given (``--seed`` takes the
    default's type: a text seed for the arena's schedules, a number elsewhere)."""
    first = (doc or "").strip().split("\n\n", 1)[0]
    parser = argparse.ArgumentParser(description=" ".join(first.split()))
    if games is not None:
        parser.add_argument("--games", type=int, default=games, help="games to play")
    if seed is not None:
        parser.add_argument(
            "--seed", type=type(seed), default=seed, help="the same seed, the same run"
        )
    return parser


def machine() -> str:
    """One line on when and where a benchmark ran, for its figures in docs/benchmarks.md:
    the date (UTC), Python, the processor, the cores and the load average."""
    load = os.getloadavg()[0]
    return (
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, "
        f"python {platform.python_version()} on {platform.machine()}, "
        f"{platform.processor() or platform.platform()}, {os.cpu_count()} cpus, "
        f"load average {load:.1f}"
    )


def percentile(values: Sequence[float], q: float) -> float:
    """The value below which a share ``q`` of ``values`` lies (nearest rank, rounding
    down: ``q=0.99`` of 1,000 values is the 990th smallest); NaN when there are none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))]


def scripted_bid(legal: Sequence[str], seats: int, rng: random.Random) -> str:
    """The load tests' Perudo player, from a ``turn`` frame's legal actions: dudo three
    times in ten, and always past two dice a player; otherwise a random one of the lowest
    raises (at most one above the lowest quantity)."""
    bids = [(int(action.split("x", 1)[0]), action) for action in legal if action[0].isdigit()]
    low = min((quantity for quantity, _ in bids), default=None)
    if "dudo" in legal and (low is None or low > seats * 2 or rng.random() < 0.3):
        return "dudo"
    assert low is not None, legal
    return rng.choice([action for quantity, action in bids if quantity <= low + 1])


# -- a real server --------------------------------------------------------------------------

#: ``umpire serve``'s options that no benchmark's clients hit: rates and connections per
#: address
NO_RATE_LIMITS = [
    *("--rate", "100000", "--burst", "100000", "--max-conn-per-ip", "100000"),
    *("--guests-per-ip", "1000000", "--max-rooms-per-ip", "1000000"),
]
#: ``umpire serve``'s options for a load test: limits no load generator hits, quiet logs,
#: finished rooms dropped soon
LOAD_TEST_FLAGS = [
    *NO_RATE_LIMITS,
    "--max-rooms-per-player",
    "1000",
    "--max-rooms",
    "100000",
    "--max-waiting-rooms",
    "100000",
    "--log-level",
    "WARNING",
    "--finished-ttl",
    "5",
]


def start_umpire(
    db: str,
    flags: Sequence[str],
    *,
    entry: Sequence[str] = ("-m", "server.cli"),
    launcher: Sequence[str] = (),
    cwd: Path = ROOT,
    quiet: bool = False,
) -> tuple[subprocess.Popen[bytes], int]:
    """Start ``umpire serve`` on a free port with its database ``db`` and ``flags``;
    return the process and its port once it listens.

    ``entry`` is what Python runs (``-m benchmarks.server_trace OUT.json`` traces it),
    ``launcher`` what runs Python (``valgrind ...``), ``cwd`` the checkout whose server
    runs; ``quiet`` sends its log to /dev/null."""
    proc = subprocess.Popen(
        [*launcher, sys.executable, *entry, "serve", "--port", "0", "--db", db, *flags],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL if quiet else None,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    try:
        line = proc.stdout.readline().decode()
    except BaseException:  # (Ctrl-C or SIGTERM while it starts: it must not outlive us)
        proc.kill()
        proc.wait()
        raise
    if "listening on" not in line:
        proc.kill()
        proc.wait()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, int(line.rsplit(":", 1)[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    utime, stime = int(fields[11]), int(fields[12])  # fields 14 and 15 of proc(5)
    return (utime + stime) / os.sysconf("SC_CLK_TCK")


# -- a bot as committed earlier -------------------------------------------------------------

#: Where issue 31's layout moved the modules that a bot from before it imports.
MOVED = {
    "bots.sdk": "bots.sdk.bot",
    "bots.local": "bots.sdk.local",
    "bots.perudo_table": "bots.perudo.table",
    "bots.perudo_endgame": "bots.perudo.endgame",
    "bots.perudo_expert": "bots.perudo.expert",
    "bots.kriegspiel_meta": "bots.kriegspiel.meta",
}


def unpack_revision(revision: str, folders: tuple[str, str], package: str, into: Path) -> bool:
    """Copy a bot's package as committed at ``revision`` into ``into / package``, to play
    it against today's code; return True when it predates issue 31's layout.

    ``folders`` are the package's folder today and before the layout (the first found at
    ``revision`` is taken). Its imports of itself are renamed to ``package``, and the
    imports of a package from before the layout go to where those modules are now
    (:data:`MOVED`); the rest of the code it uses (the SDK, the engines) is today's."""
    old = _committed(revision, folders[1]) and not _committed(revision, folders[0])
    folder = folders[1] if old else folders[0]
    archive = subprocess.run(
        ["git", "archive", "--format=tar", revision, folder],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    target = into / package
    target.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        for member in tar.getmembers():
            source = tar.extractfile(member) if member.isfile() else None
            if source is None:
                continue
            text = renamed(source.read().decode(), folders, package, old)
            path = target / Path(member.name).relative_to(folder)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    return old


def renamed(text: str, folders: tuple[str, str], package: str, old: bool) -> str:
    """``text``, a module of the package in ``folders`` (see :func:`unpack_revision`),
    importing itself as ``package``, and, when ``old`` (from before the layout), the moved
    modules under their names today."""
    text = re.sub(_any_of(folder.replace("/", ".") for folder in folders), package, text)
    if old:
        text = re.sub(_any_of(MOVED), lambda found: MOVED[found.group()], text)
    return text


def _any_of(names: Iterable[str]) -> str:
    """A pattern matching any of the dotted ``names`` as a whole."""
    return r"\b(?:" + "|".join(re.escape(name) for name in names) + r")\b"


def _committed(revision: str, path: str) -> bool:
    """Whether ``path`` exists at ``revision`` of this checkout."""
    found = subprocess.run(
        ["git", "cat-file", "-e", f"{revision}:{path}"], cwd=ROOT, capture_output=True
    )
    return found.returncode == 0
