"""``legal_texts`` (what a turn frame lists) is always the texts of ``legal_actions``, also
where an engine caches it (Perudo, by situation)."""

from __future__ import annotations

import random

import pytest

from server.games import engine


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("perudo", {"seats": 2, "dice_per_player": 1}),
        ("perudo", {"seats": 3}),
        ("perudo", {"seats": 4, "preset": "classic"}),
        ("kriegspiel", {"rules": "wild16"}),
    ],
)
def test_legal_texts_are_the_legal_actions(game: str, options: dict[str, object]) -> None:
    eng = engine(game)
    config = eng.make_config(options)
    rng = random.Random(7)
    checked = 0
    for g in range(200):
        state, _ = eng.new_game(config, bytes([g]) * 32)
        for _ in range(400):
            seat = state.to_move
            if seat is None:
                break
            for viewer in range(state.num_seats):
                texts = state.legal_texts(viewer)
                assert texts == [str(a) for a in state.legal_actions(viewer)]
                checked += 1
            state.apply(seat, rng.choice(state.legal_texts(seat)))
    assert checked > 1000
