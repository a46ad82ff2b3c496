"""The draws script: the measured bot's seat, and the same tables from a knowledge base's
logged games (``--db``) as from playing them."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.kriegspiel_draws import (
    Counted,
    hero_seat,
    logged_seat,
    main,
    play,
    previous_opponents,
    read_logged,
    report,
    tournament,
    warm_tables,
)
from bots.kriegspiel.meta import KriegspielMeta, dtm, minor_dtm
from bots.registry import load_bot
from bots.tools.arena import schedule, seating
from bots.tools.cli import play_and_record
from server.cli import open_recorder


def test_the_hero_is_the_first_bots_seat_by_the_schedule() -> None:
    bots = ["kriegspiel-meta:hard", "kriegspiel-meta:easy"]
    for index in range(12):
        assert hero_seat(bots, index) == seating(bots, 2, index).index(bots[0])


def test_two_bots_of_one_name_are_told_apart_by_position() -> None:
    distinct = ["a", "b"]
    same = ["kriegspiel-meta:hard", "kriegspiel-meta:hard"]
    seats = [hero_seat(same, index) for index in range(8)]
    assert seats == [hero_seat(distinct, index) for index in range(8)]
    assert seats == [0, 1, 1, 0, 0, 1, 1, 0]


def test_a_logged_games_hero_is_thelogged_seat_the_first_bots_name() -> None:
    bots = ["kriegspiel-meta:hard", "kriegspiel-meta:easy"]
    assert logged_seat(["kriegspiel-meta:easy", "kriegspiel-meta:hard"], bots, {}) == 1
    assert logged_seat(["kriegspiel-meta:hard", "kriegspiel-random"], bots, {}) is None
    assert logged_seat(["kriegspiel-meta:easy", "alice"], bots, {}) is None
    assert logged_seat(["alice", "kriegspiel-meta:hard"], bots[:1], {}) == 1
    assert logged_seat([None, "kriegspiel-meta:hard"], bots[:1], {}) == 1
    # both seats the first bot: the schedule's seat by the logged index
    same = [bots[0], bots[0]]
    assert [logged_seat(same, same, {"index": index}) for index in range(4)] == [0, 1, 1, 0]


#: A won position for white (queen and two rooks against a lone king): random play gives
#: mates, stalemates and fifty-move draws in a few dozen plies. The second bot is the
#: random player too, under another name; the first plays white in games 0, 3 and 4.
FEN = "4k3/8/8/8/8/8/8/RQ2K2R w - - 0 1"
BOTS = ["kriegspiel-random", "bots.baseline:KriegspielRandom"]
SEED = "draws5"  # (games 0, 3, 4 reach a won position; 3 and 4 are mated)


def _logged(db: Path, games: int) -> list[Counted]:
    """Play ``games`` scheduled games into the knowledge base ``db`` as ``umpire
    tournament --db`` does; return what the draws script counts of each, played here."""
    specs = schedule("kriegspiel", {"rules": "wild16", "fen": FEN}, BOTS, 2, games, SEED)

    async def log() -> None:
        async with open_recorder(str(db)) as record:
            await play_and_record(specs, 1, record, {"source": "tournament", "seed": SEED})

    asyncio.run(log())
    return [play(spec, BOTS) for spec in specs]


def test_the_logged_games_give_the_same_tables_as_playing_them(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    played = _logged(db, 6)
    read = asyncio.run(read_logged(str(db), BOTS, "wild16"))
    assert sorted(read, key=lambda row: row.ending.index) == played
    assert report(read, BOTS[0]) == report(played, BOTS[0])
    lines = report(read, BOTS[0])
    assert [row.ending.won_at is not None for row in read] == [1, 0, 0, 1, 1, 0]
    assert "reached in 3 of 6 games; mated in 2 = 66.7%" in "\n".join(lines)
    row = next(line for line in lines if line.startswith("| 0 | "))  # the one not mated
    # Where its material went after the won position: the table below it.
    bleeding = lines[lines.index(row) + 1]
    assert bleeding.startswith("after the won positions not converted (1): the other side ")
    assert [one.bleed is not None for one in read] == [True] + [False] * 5
    # Then each side's material flow, over all games and over the hero's losses (the
    # rows compared above carry each game's flows, replayed from the log or played).
    assert lines[-2].startswith("material's flow (all games), hero / other: lost to captures ")
    assert lines[-1].startswith("material's flow (the hero's losses), hero / other: ")
    assert sum(row.flow.moves + row.other_flow.moves for row in read) == sum(
        row.plies for row in read
    )
    # other rules, other bots: none of these games
    assert asyncio.run(read_logged(str(db), BOTS, "berkeley")) == []
    others = ["kriegspiel-random", "kriegspiel-meta:easy"]
    assert asyncio.run(read_logged(str(db), others, "wild16")) == []


def test_the_script_reads_a_knowledge_base_with_db(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "kb.db"
    _logged(db, 4)
    argv = ["kriegspiel_draws", "--db", str(db), "--bots", ",".join(BOTS), "--every"]
    monkeypatch.setattr(sys, "argv", argv)
    assert main() == 0
    out = capsys.readouterr().out
    assert out.count("\ngame ") + out.startswith("game ") == 4
    assert "4 games, kriegspiel-random won 1 (25.0%)" in out
    assert "won positions (>= 5 points ahead after 20 consecutive moves" in out


def test_a_missing_knowledge_base_is_said(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no knowledge base"):
        asyncio.run(read_logged(str(tmp_path / "none.db"), BOTS, "wild16"))


def test_budget_none_leaves_each_bot_its_own() -> None:
    bots = ["kriegspiel-meta:nodes=1000", "kriegspiel-meta:nodes=20"]
    specs = tournament(bots, 2, "9", "wild16", "none")
    assert [spec.budget for spec in specs] == [None, None]
    assert [spec.options for spec in specs] == [{"rules": "wild16"}] * 2
    assert tournament(bots, 1, "9", "wild16", "nodes=1000")[0].budget == "nodes=1000"


@pytest.mark.parametrize("argv", [["--games", "1", "--first", "33"], ["--first", "-1"]])
def test_a_first_game_past_the_games_is_refused_with_the_command_that_plays_it(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # ``--games 1 --first 33`` once played nothing and printed empty tables: --games
    # counts from game 0, so the error says how to play game 33 alone.
    monkeypatch.setattr(sys, "argv", ["kriegspiel_draws", *argv])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "leaves none of games" in err and "--games" in err
    if argv[-1] == "33":
        assert "game 33 alone is --first 33 --games 34" in err


def test_previous_opponents_play_as_committed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--previous``: the hero stays today's, every other ``kriegspiel-meta`` becomes
    the committed one at its level; at ``HEAD`` (a clean checkout) the same games."""
    if subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True).returncode != 0:
        pytest.skip("not a git checkout")
    monkeypatch.setattr(sys, "path", list(sys.path))
    bots = ["kriegspiel-meta:nodes=30", "kriegspiel-meta:nodes=20", "kriegspiel-random"]
    specs = previous_opponents(bots, "HEAD", tmp_path)
    package = specs[1].split(".")[0]
    assert specs == [bots[0], f"{package}.opponents:Level0", "kriegspiel-random"]
    assert package.startswith("ks_prev_")
    _, factory = load_bot(specs[1], seed=7)
    bot = factory()
    assert not isinstance(bot, KriegspielMeta)  # the committed class, not today's
    assert (getattr(bot, "budget", None), getattr(bot, "timed", None)) == (20, False)
    dirty = subprocess.run(
        ["git", "diff", "--quiet", "HEAD", "--", "bots/kriegspiel/meta"], capture_output=True
    ).returncode
    if dirty:
        return  # today's bot is not HEAD's: the games may differ
    pair = [bots[0], bots[1]]
    # (from an ending, not the start: a whole game between the two runs 300 plies, this
    # one 59, to a mate with a queen and a rook against a rook)
    options = {"rules": "wild16", "fen": "r3k3/pp6/8/8/8/8/PP6/R2QK3 w - - 0 1"}
    today = schedule("kriegspiel", options, pair, 2, 1, "prev")[0]
    committed = schedule("kriegspiel", options, [bots[0], specs[1]], 2, 1, "prev")[0]
    ending = play(today, pair).ending
    assert ending == play(committed, [bots[0], specs[1]]).ending
    assert ending.reason == "checkmate"


def test_previous_and_db_are_not_given_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["kriegspiel_draws", "--db", str(tmp_path / "x.sqlite"), "--previous", "HEAD"]
    monkeypatch.setattr(sys, "argv", argv)
    with pytest.raises(SystemExit):
        main()
    assert "--previous plays the games; --db reads them" in capsys.readouterr().err


def test_every_endgame_table_is_ready_before_the_first_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With an empty cache a bot would play by its search until a background build ends,
    so a benchmark's games would depend on the machine's cache: ``warm_tables`` loads or
    builds every table first, and a game's ``ready`` then has each at once."""
    minor = {kinds: minor_dtm.table(kinds) for kinds in minor_dtm.KINDS}
    major = {kind: dtm.table(kind) for kind in dtm.KINDS}
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(minor_dtm, "_tables", {})
    monkeypatch.setattr(minor_dtm, "_building", set())
    monkeypatch.setattr(dtm, "_tables", {})
    built: list[object] = []

    def minor_build(kinds: tuple[int, int]) -> tuple[object, object]:
        built.append(kinds)
        return minor[kinds].white, minor[kinds].black

    def major_build(kind: int) -> object:
        built.append(kind)
        return major[kind]

    monkeypatch.setattr(minor_dtm, "build", minor_build)
    monkeypatch.setattr(dtm, "build", major_build)
    warm_tables()
    assert sorted(map(str, built)) == sorted(map(str, [*minor_dtm.KINDS, *dtm.KINDS]))
    assert all(minor_dtm.ready(kinds) is not None for kinds in minor_dtm.KINDS)
    assert not minor_dtm._building  # nothing left to build in the background
    assert len(list((tmp_path / "umpire").glob("dtm-*.bin"))) == len(built)
    warm_tables()  # once built, read: never built again
    assert len(built) == len(minor_dtm.KINDS) + len(dtm.KINDS)
