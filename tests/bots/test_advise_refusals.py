"""``umpire advise`` refuses every line that does not fit the table, with a one-line
reason, and keeps the table exactly as it was; ``undo`` takes back the last entry
(issue 29)."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.tools.advise_cli import Supporter, run
from bots.tools.advise_table import TableError


def session(supporter: Supporter, script: str) -> str:
    out = io.StringIO()
    assert run(supporter, io.StringIO(script), out, prompt=False) == 0
    return out.getvalue()


def refused(supporter: Supporter, line: str) -> str:
    """``line`` is refused with one line of reason, and the table is unchanged."""
    before = supporter.state()
    history = list(supporter.history)
    with pytest.raises(TableError) as caught:
        supporter.command(line)
    assert supporter.state() == before and supporter.history == history
    reason = str(caught.value)
    assert reason and "\n" not in reason and "Traceback" not in reason
    return reason


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("3 0x4", "0x4: a bid names at least 1 die"),
        ("3 4x7", "4x7: a face is 1 to 6 (aces are 1)"),
        ("3 99x4", "99x4 names more dice than the 20 of the table"),
        ("3 5x4x", "'5x4x' is not a bid"),
    ],
)
def test_a_bad_bid_is_refused_and_the_table_kept(line: str, said: str) -> None:
    supporter = Supporter(4, 0)
    session(supporter, "dice 3 4 4 1 6\n2 4x4\n")
    assert said in refused(supporter, line)
    text = session(supporter, f"{line}\n3 5x4\n")  # the session goes on
    assert text.startswith("!! ") and "Seat 3 bids 5x4" in text


def test_bids_and_challenges_out_of_turn_are_refused() -> None:
    supporter = Supporter(4, 0)
    session(supporter, "dice 3 4 4 1 6\nstart 1\n")
    assert refused(supporter, "2 4x4") == "it is seat 1's turn, not seat 2's"
    session(supporter, "1 4x4\n")
    assert refused(supporter, "3 dudo 3") == "it is seat 2's turn, not seat 3's"
    assert refused(supporter, "3 5x4") == "it is seat 2's turn, not seat 3's"


def test_a_count_must_agree_with_your_own_dice() -> None:
    supporter = Supporter(3, 0)
    session(supporter, "dice 2 2 5 1 1\n1 3x2\n")
    assert "your own dice make it 4 to" in refused(supporter, "2 dudo 1")
    session(supporter, "2 dudo\n")
    assert "your own dice make it 4 to 14" in refused(supporter, "count 3")
    assert "Seat 2 loses a die" in session(supporter, "count 4\n")
    assert supporter.counts == [5, 5, 4]


def test_dice_may_not_change_your_dice_count() -> None:
    supporter = Supporter(3, 0)
    session(supporter, "counts 3 5 5\n")
    assert refused(supporter, "dice 1 2") == (
        "you hold 3 dice, not 2: if that is wrong, correct it with counts first"
    )
    assert supporter.counts == [3, 5, 5]


def test_palifico_needs_a_seat_with_one_die_and_no_bid_yet() -> None:
    supporter = Supporter(3, 0)
    session(supporter, "dice 1 2 3 4 5\n1 3x3\n")
    assert "seat 0 holds 5 dice" in refused(supporter, "palifico 0")
    session(supporter, "counts 5 5 1\n")
    assert refused(supporter, "palifico 2") == "a Palifico round is declared before its first bid"


def test_start_after_a_bid_and_a_die_won_at_full_dice_are_refused() -> None:
    supporter = Supporter(3, 0)
    session(supporter, "dice 1 2 3 4 5\n1 3x3\n")
    assert refused(supporter, "start 2").startswith("this round's first bid is made")
    assert refused(supporter, "gained 2") == "seat 2 already holds the most dice allowed"


def test_undo_takes_back_the_last_entry() -> None:
    supporter = Supporter(3, 0)
    session(supporter, "dice 3 4 4 1 6\n1 4x4\n")
    before = supporter.state()
    session(supporter, "2 dudo 3\n")
    assert supporter.counts == [5, 4, 5]
    assert session(supporter, "undo\n") == "Undone: 2 dudo 3\n"
    assert supporter.state() == before and supporter.counts == [5, 5, 5]
    assert session(supporter, "hint\nshow\nundo\nundo\n").count("Undone") == 2
    assert session(supporter, "undo\n") == "!! nothing to undo\n"


def test_italian_help_commands_and_aliases() -> None:
    supporter = Supporter(3, 0, lang="it")
    text = session(supporter, "aiuto\n")
    assert text.startswith("Comandi, uno per riga") and "annulla" in text
    text = session(supporter, "dadi 3 4 4 1 6\n1 4x4\n2 dubito 3\nannulla\nmostra\n")
    assert "Il posto 2 dice Dudo su 4x4." in text and "Annullato: 2 dubito 3" in text
    assert supporter.counts == [5, 5, 5] and len(supporter.bids) == 1
    text = session(supporter, "2 dubito\nconto 3\n")
    assert "Il posto 1 perde un dado." in text
    assert "Commands" not in session(supporter, "help\n")


def test_a_bug_on_one_line_keeps_the_table_and_the_session(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    supporter = Supporter(3, 0)
    session(supporter, "dice 1 2 3 4 5\n")
    before = supporter.state()

    def broken(seat: int, bid: object) -> None:
        supporter.table.bids.append((seat, bid))  # type: ignore[arg-type]
        raise KeyError("oops")

    monkeypatch.setattr(supporter, "bid", broken)
    text = session(supporter, "1 3x3\nshow\n")
    assert text.startswith("!! the supporter failed on that line (KeyError: 'oops')")
    assert supporter.state() == before and "bids: none" in text


def test_advise_help_shows_no_rest_markup(capsys: pytest.CaptureFixture[str]) -> None:
    from server.cli import main

    with pytest.raises(SystemExit):
        main(["advise", "--help"])
    out = capsys.readouterr().out
    assert "dice 3 4 4 1 6" in out and "undo" in out
    for markup in ("``", "::", ":mod:", ":class:", ":data:"):
        assert markup not in out


WORDS = [
    "dice", "dadi", "count", "conto", "counts", "lost", "gained", "start", "palifico",
    "bid", "dudo", "dubito", "calza", "undo", "annulla", "hint", "show", "help", "?",
    "0", "1", "2", "3", "4", "5", "6", "7", "99", "-1", "3x4", "0x4", "4x7", "99x4", "1x1",
    "2x5", "x", "٥x4", "²", "frob",
]  # fmt: skip


seats = st.integers(-1, 4).map(str)
plausible_seats = st.integers(0, 3).map(str)
dice_lines = st.lists(st.integers(1, 6), min_size=3, max_size=3)
LINES = st.one_of(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=5).map(" ".join),
    st.builds("{} {}x{}".format, seats, st.integers(0, 16), st.integers(0, 7)),
    st.builds("{} {}x{}".format, plausible_seats, st.integers(1, 5), st.integers(1, 6)),
    st.builds("{} {}x{}".format, plausible_seats, st.integers(1, 5), st.integers(1, 6)),
    st.builds("{} {} {}".format, seats, st.sampled_from(["dudo", "calza"]), st.integers(0, 16)),
    st.builds("{} dudo {}".format, plausible_seats, st.integers(0, 6)),
    st.builds("dice {} {} {}".format, *[st.integers(1, 6)] * 3),
    st.builds(
        "dice {}".format,
        st.lists(st.integers(0, 7), min_size=1, max_size=4).map(
            lambda dice: " ".join(map(str, dice))
        ),
    ),
    st.builds("counts {} {} {}".format, *[st.integers(0, 4)] * 3),
)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.booleans(), st.lists(LINES, max_size=30))
def test_random_lines_never_crash_and_a_refused_line_changes_nothing(
    players: int, calza: bool, lines: list[str]
) -> None:
    supporter = Supporter(players, 0, 3, calza=calza)
    for line in lines:
        before = supporter.state()
        history = len(supporter.history)
        try:
            reply = supporter.command(line)
        except TableError as exc:
            assert str(exc) and "\n" not in str(exc)
            assert supporter.state() == before and len(supporter.history) == history
        else:
            assert reply is None or isinstance(reply, str)
    # the same lines through the read loop: it always ends well
    out = io.StringIO()
    assert run(Supporter(players, 0, 3, lang="it"), io.StringIO("\n".join(lines)), out, False) == 0
