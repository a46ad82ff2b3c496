"""Every ``umpire`` subcommand given nonsense (issue 29): one line on stderr naming the bad
value, exit status 2 for a usage error and 1 for a runtime error, no traceback, no hang.

Most runs call :func:`server.cli.main` in-process with stderr captured; a few that need a
real process (a server that must not start, a bot against a dead server) run as
subprocesses under a 10 s timeout.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.cli import main

ROOT = Path(__file__).resolve().parents[2]
DEAD = "ws://127.0.0.1:1"  # nothing listens on port 1
NO_PG = "postgresql://u@127.0.0.1:1/umpire"  # nor a PostgreSQL server


def run(argv: list[str]) -> tuple[int, str, str]:
    """``umpire ARGV`` in-process: its exit status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def assert_refused(code: int, err: str, expected: set[int], needles: list[str]) -> None:
    """One line on stderr, no traceback, an expected status, a bad value named."""
    assert code in expected, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert any(n in lines[0] for n in needles), (needles, err)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A knowledge base with one Perudo and one Kriegspiel game, and a file that is not one."""
    folder = tmp_path_factory.mktemp("cli")
    db = str(folder / "kb.db")
    for game, bot in (("perudo", "perudo-random"), ("kriegspiel", "kriegspiel-random")):
        argv = ["selfplay", "--game", game, "--bots", bot, "--games", "1", "--db", db]
        assert run([*argv, "--seed", "s"])[0] == 0
    junk = folder / "junk.db"
    junk.write_bytes(b"this is not a database\n" * 100)
    return {"db": db, "junk": str(junk), "missing": str(folder / "nope" / "kb.db")}


def cases(files: dict[str, str]) -> list[tuple[list[str], int, str]]:
    """The issue's cases: argv, exit status, a text the one line must contain."""
    t = ["tournament", "--game", "perudo", "--games", "1"]
    s = ["selfplay", "--games", "1", "--db", files["db"]]
    b = ["bot", "--server", DEAD, "--retries", "0"]
    return [
        ([*t, "--bots", "perudo-expert:ultra"], 2, "ultra"),
        ([*t, "--bots", "perudo-random,kriegspiel-meta"], 2, "kriegspiel-meta"),
        ([*s, "--game", "kriegspiel", "--bots", "perudo-simple"], 2, "perudo-simple"),
        ([*t, "--bots", "perudo-random", "--db", files["missing"]], 1, files["missing"]),
        (
            [*s[:3], "--game", "perudo", "--bots", "perudo-random", "--db", files["missing"]],
            1,
            files["missing"],
        ),
        (["export", "--db", files["junk"]], 1, files["junk"]),
        (["verify", "--db", files["junk"]], 1, files["junk"]),
        (["ratings", "rebuild", "--db", files["junk"]], 1, files["junk"]),
        (["export", "--db", files["missing"]], 1, files["missing"]),
        (["serve", "--port", "99999"], 2, "99999"),
        (["serve", "--session-idle-days", "0"], 2, "0"),
        (["serve", "--leaderboard-min-games", "-3"], 2, "-3"),
        (["serve", "--no-show", "-1"], 2, "-1"),
        (["serve", "--seek-grace", "soon"], 2, "soon"),
        (["serve", "--ladder-per-bot", "-2"], 2, "-2"),
        (["serve", "--house-procs", "0"], 2, "0"),
        ([*b, "kriegspiel-meta", "--game", "perudo"], 2, "kriegspiel-meta"),
        ([*b, "perudo-random", "--game", "perudo", "-o", "seats=99"], 2, "99"),
        ([*b, "perudo-random", "--game", "perudo", "--seat", "-4"], 2, "-4"),
        ([*b, "perudo-random", "--game", "perudo"], 1, DEAD),
        ([*b, "perudo-random", "--ladder", "--token", "x"], 1, DEAD),
        (["bot", "perudo-random", "--server", "notaurl"], 2, "notaurl"),
        ([*t, "--bots", "perudo-search", "--budget", "nodes=-4"], 2, "nodes=-4"),
        (
            [*t, "--bots", "perudo-random,perudo-random", "--server", DEAD, "--retries", "0"],
            1,
            DEAD,
        ),
        ([*t, "--bots", "perudo-random", "--server", DEAD, "--rounds", "0"], 2, "0"),
        (["rules", "chess"], 2, "chess"),
        (["migrate", "--from", files["db"], "--to", "other.db"], 2, "other.db"),
        (["migrate", "--from", "postgresql://h/a", "--to", NO_PG], 2, "postgresql://h/a"),
        (["migrate", "--from", files["junk"], "--to", NO_PG], 1, files["junk"]),
        (["migrate", "--from", files["missing"], "--to", NO_PG], 1, files["missing"]),
        (["migrate", "--from", files["db"], "--to", NO_PG], 1, NO_PG),
        (["migrate", "--from", files["db"], "--to", NO_PG, "--batch", "0"], 2, "0"),
    ]


def test_the_issues_cases(files: dict[str, str]) -> None:
    for argv, status, needle in cases(files):
        code, _, err = run(argv)
        assert_refused(code, err, {status}, [needle])


#: per subcommand: argv that would otherwise run, and (option, bad value) pairs of which
#: any may be added (a later option wins over the base's)
HOSTILE: dict[str, tuple[list[str], list[tuple[str, str]]]] = {
    "tournament": (
        ["tournament", "--game", "perudo", "--bots", "perudo-random", "--games", "1"],
        [
            ("--games", "-4"),
            ("--games", "x"),
            ("--parallel", "0"),
            ("--seats", "99"),
            ("--seats", "-1"),
            ("--bots", "perudo-expert:ultra"),
            ("--bots", "nobody"),
            ("--bots", "kriegspiel-meta"),
            ("--budget", "nodes=-4"),
            ("--budget", "cpu=x"),
            ("--budget", "lots"),
            ("--game", "chess"),
            ("-o", "seats=99"),
            ("-o", "nokey"),
            ("-o", "calza=maybe"),
            ("--format", "knockout"),
            ("--rounds", "0"),
            ("--duration", "-5"),
            ("--server", "notaurl"),
            ("--retries", "-1"),
        ],
    ),
    "selfplay": (
        [
            "selfplay",
            "--game",
            "kriegspiel",
            "--bots",
            "kriegspiel-random",
            "--games",
            "1",
            "--db",
            "DB",
        ],
        [
            ("--games", "0"),
            ("--parallel", "-3"),
            ("--seats", "7"),
            ("--bots", "perudo-simple"),
            ("--bots", "nobody:Bot"),
            ("--game", "go"),
            ("-o", "x"),
            ("--db", "MISSING"),
        ],
    ),
    "bot": (
        ["bot", "perudo-random", "--server", DEAD, "--retries", "0", "--game", "perudo"],
        [
            ("--seat", "-4"),
            ("--seat", "x"),
            ("-o", "seats=99"),
            ("-o", "="),
            ("--games", "0"),
            ("--game", "chess"),
            ("--server", "http://x"),
            ("--max-concurrent", "0"),
            ("--retries", "-2"),
            ("--ladder", ""),
        ],
    ),
    "export": (
        ["export", "--db", "DB"],
        [
            ("--db", "JUNK"),
            ("--db", "MISSING"),
            ("--format", "csv"),
            ("--format", "parquet"),
            ("--tournament", "t-none"),
        ],
    ),
    "verify": (
        ["verify", "--db", "DB"],
        [("--db", "JUNK"), ("--db", "MISSING"), ("", "g-nope")],
    ),
    "ratings": (
        ["ratings", "rebuild", "--db", "DB"],
        [("--db", "JUNK"), ("--db", "MISSING"), ("--check", "--bogus")],
    ),
    "serve": (
        ["serve", "--db", "MISSING"],
        [
            ("--port", "99999"),
            ("--port", "-1"),
            ("--port", "http"),
            ("--rate", "-1"),
            ("--max-frame", "-5"),
            ("--grace", "nan"),
            ("--no-show", "-1"),
            ("--seek-grace", "x"),
            ("--session-idle-days", "0"),
            ("--session-idle-days", "inf"),
            ("--leaderboard-min-games", "-1"),
            ("--ladder-grace", "-1"),
            ("--ladder-per-bot", "many"),
            ("--log-level", "LOUD"),
            ("--loop", "trio"),
            ("--synchronous", "OFF"),
            ("--mqtt", "http://broker"),
            ("--mqtt", "mqtt://h/a+b"),
        ],
    ),
    "rules": (["rules"], [("", "chess"), ("--lang", "xx")]),
    "migrate": (
        ["migrate", "--from", "DB", "--to", NO_PG],
        [
            ("--from", "JUNK"),
            ("--from", "MISSING"),
            ("--to", "umpire.db"),
            ("--batch", "0"),
            ("--batch", "many"),
        ],
    ),
}


@settings(
    max_examples=int(os.environ.get("CLI_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data())
def test_every_subcommand_refuses_hostile_arguments(
    files: dict[str, str], data: st.DataObject
) -> None:
    command = data.draw(st.sampled_from(sorted(HOSTILE)), label="command")
    base, pairs = HOSTILE[command]
    chosen = data.draw(
        st.lists(st.sampled_from(pairs), min_size=1, max_size=2, unique=True), label="bad"
    )
    names = {"DB": files["db"], "JUNK": files["junk"], "MISSING": files["missing"]}
    argv = [names.get(a, a) for a in base]
    needles: list[str] = []
    for option, value in chosen:
        value = names.get(value, value)
        extra = [option, value] if option and value else [option or value]
        if option == "--ladder":  # the ladder without its token
            extra = ["--ladder"]
        argv += extra
        needles += [v for v in (option.lstrip("-"), value) if v]
    code, _, err = run(argv)
    assert_refused(code, err, {1, 2}, [*needles, "token"])


def test_verify_all_is_the_default_and_says_what_it_checked(files: dict[str, str]) -> None:
    code, out, err = run(["verify", "--db", files["db"]])
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 2
    assert run(["verify", "--all", "--db", files["db"]])[1] == out
    perudo = next(line for line in lines if " perudo " in line)
    kriegspiel = next(line for line in lines if " kriegspiel " in line)
    assert "every die included" in perudo
    assert "die" not in kriegspiel and "every move" in kriegspiel
    code, _, err = run(["verify", "--all", "--db", files["db"], "g-1"])
    assert_refused(code, err, {2}, ["--all"])


def subprocess_run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "server.cli", *argv],
        capture_output=True,
        text=True,
        timeout=10,
        env=env,
        cwd=ROOT,
    )


def test_in_real_processes_nothing_hangs(files: dict[str, str]) -> None:
    """A server that must not start ends; a bot against a dead server gives up by
    itself (after --retries: the default, about a minute, outlasts a restart, see
    tests/bots/test_bot_outlasts_restart.py); a non-database is refused."""
    for argv, status, needle in [
        (["serve", "--port", "99999", "--db", files["db"]], 2, "99999"),
        (["serve", "--port", "0", "--db", files["missing"]], 1, files["missing"]),
        (["bot", "perudo-random", "--server", DEAD, "--retries", "2"], 1, DEAD),
        (["export", "--db", files["junk"]], 1, files["junk"]),
    ]:
        done = subprocess_run(argv)
        assert_refused(done.returncode, done.stderr, {status}, [needle])
