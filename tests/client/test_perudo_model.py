"""The Perudo table as the client keeps it: what a seat can know from the public
announcements (the shared :class:`~bots.perudo.table.PerudoTable`), told in sentences."""

from __future__ import annotations

from client_cli.perudo_model import PerudoTable, apply_event


def test_other_players_dice_counts_are_inferred_from_public_losses() -> None:
    table = PerudoTable(seat=0, names=["ana", "bob", "eve"])
    apply_event(table, {"type": "game_started", "seats": 3, "options": {"dice_per_player": 3}})
    apply_event(table, {"type": "round_started", "round": 1, "starter": 0, "dice": [1, 2, 3]})
    assert [table.dice_count(s) for s in range(3)] == [3, 3, 3]
    apply_event(table, {"type": "dice_changed", "seat": 1, "change": -1, "reason": "lost"})
    apply_event(table, {"type": "dice_changed", "seat": 2, "change": 1, "reason": "calza"})
    assert [table.dice_count(s) for s in range(3)] == [3, 2, 4]


def test_counts_sent_by_the_room_win_over_the_inference() -> None:
    table = PerudoTable(seat=0)
    apply_event(table, {"type": "game_started", "seats": 2, "options": {"dice_per_player": 5}})
    apply_event(table, {"type": "round_started", "round": 2, "starter": 1, "counts": [5, 2]})
    assert table.dice_count(1) == 2


def test_a_table_joined_midway_without_counts_says_it_does_not_know() -> None:
    table = PerudoTable(seat=0)
    table.apply_view({"seats": 2, "round": 3, "seat": 0, "dice": [4], "dice_left": 1})
    assert table.dice_count(0) == 1 and table.dice_count(1) is None


def test_each_event_is_told_in_a_sentence() -> None:
    table = PerudoTable(seat=0, names=["ana", "bob"])
    apply_event(table, {"type": "game_started", "seats": 2, "options": {"dice_per_player": 2}})
    assert apply_event(table, {"type": "bid", "seat": 1, "bid": "3x1", "next": 0}) == (
        "bob bids 3x1 (3 aces)."
    )
    assert str(table.last_bid) == "3x1" and table.to_move == 0
