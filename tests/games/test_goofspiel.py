"""The test-only Goofspiel engine plays by its rules and hides what it should."""

from __future__ import annotations

import pytest

from server.games import engine, register
from server.games.base import ConfigError, IllegalAction, Outcome
from tests.games.goofspiel import Goofspiel, GoofspielConfig, new_game, prize_deck

register("goofspiel", "tests.games.goofspiel")


def test_the_prize_deck_is_a_permutation_fixed_by_the_seed() -> None:
    assert sorted(prize_deck(b"a", 13)) == list(range(1, 14))
    assert prize_deck(b"a", 13) == prize_deck(b"a", 13)
    assert len({tuple(prize_deck(bytes([i]), 5)) for i in range(40)}) > 10


def test_bids_are_hidden_until_all_have_bid() -> None:
    game, opening = new_game(GoofspielConfig(seats=3, cards=4), b"s")
    prize = opening[-1].truth["card"]
    [bid] = game.apply(0, "3")
    assert bid.seats[0] == {"type": "bid", "round": 1, "seat": 0, "card": 3}
    assert bid.seats[1] == bid.seats[2] == bid.spectator == {"type": "bid", "round": 1, "seat": 0}
    assert game.view(1)["bid"] == [True, False, False] and game.view(1)["my_bid"] is None
    assert "hand" not in game.view(None)
    game.apply(1, "3")
    reveal = game.apply(2, "1")[1]
    assert reveal.spectator == {
        "type": "reveal",
        "round": 1,
        "prize": prize,
        "bids": [3, 3, 1],
        "winner": None,  # a tie for the highest bid wins nothing
        "scores": [0, 0, 0],
    }


def test_highest_bid_wins_and_the_best_score_wins_the_game() -> None:
    game, _ = new_game(GoofspielConfig(seats=2, cards=2), b"s")
    deck = game.deck
    game.apply(0, "2")
    game.apply(1, "1")
    assert game.scores == [deck[0], 0]
    game.apply(0, "1")
    events = game.apply(1, "2")
    assert game.scores == [deck[0], deck[1]]
    winner = 0 if deck[0] > deck[1] else 1
    ranks = (1, 2) if winner == 0 else (2, 1)
    assert game.outcome == Outcome(ranks, "all_cards_played")
    assert events[-1].truth["seed"] == b"s".hex()


def test_refusals_and_forfeit() -> None:
    game, _ = new_game(GoofspielConfig(seats=2, cards=3), b"s")
    with pytest.raises(IllegalAction) as turn:
        game.apply(1, "1")
    assert turn.value.code == "not_your_turn"
    game.apply(0, "2")
    game.apply(1, "1")
    with pytest.raises(IllegalAction) as spent:
        game.apply(0, "2")
    assert spent.value.code == "illegal"
    for text in ("01", "x", "14", "0"):
        with pytest.raises(IllegalAction) as bad:
            game.apply(0, text)
        assert bad.value.code == "malformed"
    game.forfeit(0, "abandoned")
    assert game.outcome == Outcome((2, 1), "forfeit")


def test_config_and_seats() -> None:
    eng = engine("goofspiel")
    assert eng.game_type is Goofspiel
    with pytest.raises(ConfigError, match="unknown Goofspiel option 'rules'"):
        eng.make_config({"rules": "x"})
    with pytest.raises(ConfigError, match="goofspiel needs 2 to 4 players, not 5"):
        eng.make_config({"seats": 5})
    assert eng.with_seats(eng.make_config({"cards": 7}), 3) == GoofspielConfig(3, 7)
