"""The Perudo table model: what a seat can know from the public announcements."""

from __future__ import annotations

from client_cli.perudo_model import PerudoTable


def test_other_players_dice_counts_are_inferred_from_public_losses() -> None:
    table = PerudoTable(seat=0, names=["ana", "bob", "eve"])
    table.apply_event({"type": "game_started", "seats": 3, "options": {"dice_per_player": 3}})
    table.apply_event({"type": "round_started", "round": 1, "starter": 0, "dice": [1, 2, 3]})
    assert [table.dice_count(s) for s in range(3)] == [3, 3, 3]
    table.apply_event({"type": "dice_changed", "seat": 1, "change": -1, "reason": "lost"})
    table.apply_event({"type": "dice_changed", "seat": 2, "change": 1, "reason": "calza"})
    assert [table.dice_count(s) for s in range(3)] == [3, 2, 4]


def test_counts_sent_by_the_room_win_over_the_inference() -> None:
    table = PerudoTable(seat=0)
    table.apply_event({"type": "game_started", "seats": 2, "options": {"dice_per_player": 5}})
    table.apply_event({"type": "round_started", "round": 2, "starter": 1, "counts": [5, 2]})
    assert table.dice_count(1) == 2


def test_a_table_joined_midway_without_counts_says_it_does_not_know() -> None:
    table = PerudoTable(seat=0)
    table.apply_view({"seats": 2, "round": 3, "seat": 0, "dice": [4], "dice_left": 1})
    assert table.dice_count(0) == 1 and table.dice_count(1) is None
