"""``Perudo.redeal``: a simulator that owns chance deals a new round's dice itself."""

from __future__ import annotations

import pytest

from server.games.base import IllegalAction
from server.games.perudo import Perudo, PerudoConfig, new_game
from tests.games.views import seen

CONFIG = PerudoConfig.from_options({"seats": 3, "dice_per_player": 2})


def started() -> Perudo:
    game, _ = new_game(CONFIG, b"redeal")
    assert isinstance(game, Perudo)
    return game


def test_redeal_replaces_the_dice_and_tells_each_seat_its_own() -> None:
    game = started()
    event = game.redeal([[1, 6], [2, 2], [5, 3]])
    assert game.round.dice == [[1, 6], [2, 2], [5, 3]]
    assert event.truth["dice"] == [[1, 6], [2, 2], [5, 3]]
    assert [seen(event, s)["dice"] for s in range(3)] == [[1, 6], [2, 2], [5, 3]]
    assert "dice" not in seen(event, None)
    assert game.view(1)["dice"] == [2, 2]
    # The challenge counts the dealt dice: two 2s and an ace (wild) make three 2s.
    starter = game.to_move
    assert starter is not None
    game.apply(starter, "5x2")
    events = game.apply(game.next_active(starter), "dudo")
    reveal = next(e for e in events if e.type == "reveal")
    assert reveal.truth["total"] == 3 and reveal.truth["bid_true"] is False


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ([[1, 6], [2, 2]], "dice counts"),
        ([[1, 6], [2, 2], [5]], "dice counts"),
        ([[1, 7], [2, 2], [5, 3]], "1 to 6"),
        ([[0, 6], [2, 2], [5, 3]], "1 to 6"),
    ],
)
def test_bad_dice_are_refused_and_change_nothing(dice: list[list[int]], message: str) -> None:
    game = started()
    before = [list(d) for d in game.round.dice]
    with pytest.raises(IllegalAction, match=message):
        game.redeal(dice)
    assert game.round.dice == before


def test_no_redeal_once_the_round_has_a_bid() -> None:
    game = started()
    starter = game.to_move
    assert starter is not None
    game.apply(starter, "1x3")
    with pytest.raises(IllegalAction, match="before a round's first bid"):
        game.redeal([[1, 1], [1, 1], [1, 1]])
