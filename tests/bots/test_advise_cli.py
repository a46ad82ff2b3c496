"""``umpire advise``: the supporter mode for a physical table."""

from __future__ import annotations

import io

import pytest

from bots.advise_cli import Supporter, run
from server.games.base import ConfigError


def session(supporter: Supporter, script: str) -> str:
    out = io.StringIO()
    assert run(supporter, io.StringIO(script), out, prompt=False) == 0
    return out.getvalue()


def test_it_suggests_a_move_when_it_is_your_turn() -> None:
    text = session(Supporter(4, 0), "dice 3 4 4 1 6\n1 4x4\n2 5x4\n3 6x4\n")
    assert text.count(">>") == 1  # only after seat 3, whose left neighbour is you
    assert "probability" in text


def test_an_impossible_bid_gets_dudo() -> None:
    text = session(Supporter(2, 0, 1), "dice 2\n1 2x5\n")
    assert ">> Dudo!" in text


def test_italian_explanations_and_own_thresholds() -> None:
    from bots.perudo_expert import Thresholds

    supporter = Supporter(3, 1, lang="it", thresholds=Thresholds(0.1, 0.9))
    text = session(supporter, "dice 2 2 5 6 1\n0 3x2\nhint\n")
    assert "soglia" in text  # Italian
    assert "90%" in text


def test_bad_input_is_explained_and_changes_nothing() -> None:
    supporter = Supporter(3, 0)
    text = session(supporter, "dice 7\n1 5x4\n2 4x4\ncounts 1 2\nfrob\nlost 9\n")
    assert text.count("!!") == 5
    assert "does not raise 5x4" in text
    assert supporter.bids[-1][1].quantity == 5


def test_losses_end_the_round_and_palifico_is_tracked() -> None:
    supporter = Supporter(3, 0)
    session(supporter, "dice 1 2 3 4 5\nlost 2\npalifico 2\n")
    assert supporter.counts == [5, 5, 4] and supporter.dice == []
    assert supporter.palifico == 2
    assert "dice first" in session(supporter, "hint\n")


def test_table_must_make_sense() -> None:
    with pytest.raises(ConfigError):
        Supporter(9, 0)
    with pytest.raises(ConfigError):
        Supporter(3, 3)
