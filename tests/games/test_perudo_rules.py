"""Every rule of shared/rules/perudo.md and every worked example, one test each."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest

from server.games import engine
from server.games.base import ConfigError, IllegalAction
from server.games.perudo import (
    CALZA,
    DUDO,
    Bid,
    Perudo,
    PerudoConfig,
    count_matching,
    new_game,
    parse_action,
    raise_error,
    replay_game,
    roll_dice,
    verify,
)


def rigged(
    dice: Sequence[Sequence[int]],
    starter: int = 0,
    palifico_seat: int | None = None,
    **options: Any,
) -> Perudo:
    """A game whose current round holds exactly ``dice`` (seat i's cup is dice[i])."""
    cfg = PerudoConfig.from_options({"seats": len(dice), **options})
    game, _ = new_game(cfg, b"rigged")
    game.counts = [len(d) for d in dice]
    game.round.dice = [list(d) for d in dice]
    game.round.starter = starter
    game.round.palifico = palifico_seat
    game.turn = starter
    if palifico_seat is not None:
        game.palifico_used.add(palifico_seat)
    return game


def play(game: Perudo, *actions: str) -> list[Any]:
    """Apply actions in turn order; return all events."""
    events = []
    for action in actions:
        assert game.to_move is not None
        events.extend(game.apply(game.to_move, action))
    return events


def is_over(game: Perudo) -> bool:
    """``game.is_over`` read anew: mypy keeps an asserted ``not game.is_over`` narrowed
    across the moves played since."""
    return game.is_over


def types(events: list[Any]) -> list[str]:
    return [e.type for e in events]


# -- bids as values ----------------------------------------------------------------------


@pytest.mark.parametrize("text", ["5x4", "1x2", "3x1", "30x6"])
def test_bid_text_round_trip(text: str) -> None:
    bid = Bid.parse(text)
    assert str(bid) == text
    assert Bid.parse(str(bid)) == bid
    assert eval(repr(bid)) == bid


def test_bid_parse_accepts_friendly_spellings() -> None:
    assert Bid.parse(" 5 X 4 ") == Bid(5, 4)
    assert Bid.parse("5*4") == Bid(5, 4)
    assert Bid.parse("3x1").is_aces


@pytest.mark.parametrize("text", ["", "5", "x4", "5x7", "5x0", "0x4", "five fours", "5x4x3"])
def test_malformed_bids_are_refused_with_a_reason(text: str) -> None:
    with pytest.raises(IllegalAction) as info:
        parse_action(text)
    assert info.value.code == "malformed"
    assert "5x4" in info.value.reason or "quantity" in info.value.reason


@pytest.mark.parametrize("text", ["\u0665x4", "5x\u0664", "\uff15x4", "\u0967\u0966x2"])
def test_bids_take_ascii_digits_only(text: str) -> None:
    # issue 16: "\u0665x4" (an Arabic-Indic five) was read as 5x4
    for parse in (Bid.parse, parse_action):
        with pytest.raises(IllegalAction) as info:
            parse(text)
        assert info.value.code == "malformed"


def test_a_refused_bid_quotes_a_few_dozen_characters_at_most() -> None:
    with pytest.raises(IllegalAction) as info:
        Bid.parse("9" * 5000 + "x4")
    assert info.value.code == "malformed"
    assert len(info.value.reason) < 160 and "999" in info.value.reason
    with pytest.raises(IllegalAction) as info:
        Bid.parse("y" * 5000)
    assert len(info.value.reason) < 160
    with pytest.raises(IllegalAction, match="'5x'"):
        Bid.parse("5x")


def test_actions_parse() -> None:
    assert parse_action("dudo") is DUDO
    assert parse_action("Calza") is CALZA
    assert str(DUDO) == "dudo" and str(CALZA) == "calza"


# -- raising -----------------------------------------------------------------------------


def legal(previous: str, bid: str) -> bool:
    return raise_error(Bid.parse(previous), Bid.parse(bid)) is None


def test_worked_example_after_eight_fours() -> None:
    # 6 players, 30 dice; after "eight 4s": nine of any face, eight 5s or 6s, >= four aces.
    for face in range(2, 7):
        assert legal("8x4", f"9x{face}")
    assert legal("8x4", "8x5") and legal("8x4", "8x6")
    assert not legal("8x4", "8x4") and not legal("8x4", "8x3") and not legal("8x4", "7x6")
    assert legal("8x4", "4x1") and not legal("8x4", "3x1")


def test_worked_example_after_nine_fours_aces_need_five() -> None:
    assert legal("9x4", "5x1")
    assert not legal("9x4", "4x1")


def test_worked_example_after_five_aces() -> None:
    assert legal("5x1", "6x1") and not legal("5x1", "5x1") and not legal("5x1", "4x1")
    for face in range(2, 7):
        assert legal("5x1", f"11x{face}")
        assert not legal("5x1", f"10x{face}")


def test_raise_error_explains() -> None:
    assert raise_error(Bid(5, 4), Bid(5, 3)) == (
        "5x3 does not raise 5x4: bid more dice, or a higher face"
    )
    assert "at least 3 aces" in str(raise_error(Bid(5, 4), Bid(2, 1)))
    assert "at least 11" in str(raise_error(Bid(5, 1), Bid(10, 3)))


def test_a_round_cannot_open_on_aces() -> None:
    game = rigged([[2, 3], [4, 5]])
    with pytest.raises(IllegalAction, match="a round cannot open on aces outside palifico"):
        game.apply(0, "1x1")


def test_out_of_turn_is_refused_and_changes_nothing() -> None:
    game = rigged([[2, 3], [4, 5], [6, 6]])
    before = copy.deepcopy(game.__dict__)
    with pytest.raises(IllegalAction) as info:
        game.apply(1, "2x3")
    assert info.value.code == "not_your_turn"
    assert "not your turn" in info.value.reason
    assert game.__dict__ == before


def test_an_illegal_raise_changes_nothing() -> None:
    game = rigged([[2, 3], [4, 5]])
    play(game, "2x4")
    before = copy.deepcopy(game.__dict__)
    with pytest.raises(IllegalAction, match="2x3 does not raise 2x4"):
        game.apply(1, "2x3")
    assert game.__dict__ == before


def test_bid_quantity_is_capped_by_the_starting_dice() -> None:
    game = rigged([[2, 3, 4, 5, 6], [2, 3, 4, 5, 6]])
    with pytest.raises(IllegalAction, match="never more than 10 dice"):
        game.apply(0, "11x4")
    assert max(b.quantity for b in game.legal_actions(0) if isinstance(b, Bid)) == 10


def test_dudo_needs_a_bid() -> None:
    game = rigged([[2], [3]])
    with pytest.raises(IllegalAction, match="no bid to challenge"):
        game.apply(0, "dudo")


def test_play_passes_to_the_left_skipping_seats_out() -> None:
    game = rigged([[2, 3], [], [4, 5], [6, 6]], starter=3)
    play(game, "2x2")
    assert game.to_move == 0
    play(game, "2x3")
    assert game.to_move == 2


# -- counting and challenges -----------------------------------------------------------------


def test_counting_aces_wild_and_not() -> None:
    dice = [1, 4, 4, 1, 6]
    assert count_matching(dice, Bid(3, 4), aces_wild=True) == 4
    assert count_matching(dice, Bid(3, 4), aces_wild=False) == 2
    assert count_matching(dice, Bid(3, 1), aces_wild=True) == 2


def test_worked_example_eleven_fours_with_nine_on_the_table() -> None:
    # nine 4s-or-aces on the table: "eleven 4s" is false and the bidder loses a die
    dice = [[4, 4, 1, 2, 3], [4, 1, 5, 6, 6], [4, 4, 2, 2, 2], [1, 3, 5, 4, 6]]
    assert sum(count_matching(d, Bid(11, 4), True) for d in dice) == 9
    game = rigged(dice, starter=0)
    events = play(game, "11x4", "dudo")
    assert types(events)[-4:] == ["challenge", "reveal", "dice_changed", "round_started"]
    reveal = events[-3].truth
    assert reveal["bid_true"] is False and reveal["total"] == 9
    assert game.counts == [4, 5, 5, 5]
    assert game.round.starter == 0 and game.to_move == 0  # the loser starts


def test_a_true_bid_costs_the_challenger() -> None:
    game = rigged([[3, 3], [1, 2], [3, 5]], starter=0)
    play(game, "3x3", "dudo")  # three 3s + one ace = 4 >= 3
    assert game.counts == [2, 1, 2]
    assert game.to_move == 1


def test_exactly_the_quantity_is_true() -> None:
    game = rigged([[3, 3], [2, 2]], starter=0)
    play(game, "2x3", "dudo")
    assert game.counts == [2, 1]


def test_ace_bids_count_aces_alone() -> None:
    game = rigged([[1, 4], [4, 4]], starter=0)
    play(game, "2x4", "1x1", "dudo")  # one ace: 1x1 true, the challenger (seat 0) loses
    assert game.counts == [1, 2]


def test_reveal_until_proven_starts_at_the_challenger_and_stops_when_true() -> None:
    dice = [[5, 5], [2, 3], [5, 1], [6, 6]]
    game = rigged(dice, starter=0)
    events = play(game, "2x5", "dudo")  # seat 1 challenges; 2 fives needed
    reveal = events[2]
    shown = [r["seat"] for r in reveal.view(3)["revealed"]]
    assert shown == [1, 2]  # clockwise from the challenger; seat 2's five and ace prove it
    assert reveal.view(3)["count"] == 2

    game = rigged([[2, 3], [5, 5], [5, 1], [6, 6]], starter=0)
    events = play(game, "2x5", "dudo")
    reveal = events[2]
    assert [r["seat"] for r in reveal.view(None)["revealed"]] == [1]  # proven by seat 1
    assert reveal.view(None)["complete"] is False
    assert reveal.view(None)["bid_true"] is True
    assert "dice" not in reveal.view(None)  # the hidden cups stay hidden
    assert reveal.truth["dice"] == [[2, 3], [5, 5], [5, 1], [6, 6]]


def test_reveal_all_shows_every_cup() -> None:
    game = rigged([[2, 3], [5, 5], [5, 1], [6, 6]], starter=0, reveal="all")
    events = play(game, "2x5", "dudo")
    reveal = events[2].view(None)
    assert [r["seat"] for r in reveal["revealed"]] == [1, 2, 3, 0]
    assert reveal["complete"] is True and reveal["count"] == 4


def test_a_player_losing_the_last_die_is_out_and_the_left_neighbour_starts() -> None:
    game = rigged([[2, 2], [3], [4, 4]], starter=0)
    play(game, "2x2", "dudo")  # seat 1 challenges a true bid and loses its only die
    assert game.counts == [2, 0, 2]
    assert game.out_order == [1]
    assert game.round.starter == 2


def test_dice_changed_is_announced_without_counts_under_piatnik() -> None:
    game = rigged([[2, 2], [3, 3], [4, 4]], starter=0)
    events = play(game, "2x2", "dudo")
    changed = next(e for e in events if e.type == "dice_changed")
    assert changed.view(None) == {
        "type": "dice_changed",
        "round": 1,
        "seat": 1,
        "change": -1,
        "reason": "lost_dudo",
        "out": False,
    }
    assert changed.view(1)["dice_left"] == 1  # the loser knows its own count
    assert "dice_left" not in changed.view(0)
    started = events[-1]
    assert "counts" not in started.view(0) and "counts" not in started.view(None)


def test_classic_shows_dice_counts() -> None:
    game = rigged([[2, 2], [3, 3], [4, 4]], starter=0, preset="classic")
    events = play(game, "2x2", "dudo")
    changed = next(e for e in events if e.type == "dice_changed")
    assert changed.view(2)["dice_left"] == 1
    assert events[-1].view(0)["counts"] == [2, 1, 2]
    assert events[-1].view(None)["total_dice"] == 5


# -- calza -------------------------------------------------------------------------------------


def test_calza_is_off_in_piatnik() -> None:
    game = rigged([[2, 2], [3, 3]])
    play(game, "2x2")
    assert CALZA not in game.legal_actions(1)
    with pytest.raises(IllegalAction, match="calza is not allowed"):
        game.apply(1, "calza")


def test_calza_exact_gains_a_die_and_starts_the_next_round() -> None:
    game = rigged([[2, 2, 4], [3, 6, 6], [4, 4, 6]], starter=0, calza=True)
    game.counts = [3, 3, 3]
    play(game, "3x6", "calza")  # exactly three 6s
    assert game.counts == [3, 4, 3]
    assert game.round.starter == 1


def test_calza_never_gains_above_the_starting_count() -> None:
    game = rigged([[6, 2, 2, 2, 2], [6, 6, 3, 3, 3]], starter=0, calza=True)
    events = play(game, "3x6", "calza")
    assert game.counts == [5, 5]
    change = next(e for e in events if e.type == "dice_changed").truth
    assert change["change"] == 0 and change["reason"] == "won_calza"


def test_calza_wrong_loses_a_die_and_reveals_everything() -> None:
    game = rigged([[6, 6], [3, 3], [6, 1]], starter=0, calza=True)
    events = play(game, "2x6", "calza")  # four 6s-or-aces, not exactly two
    reveal = next(e for e in events if e.type == "reveal").view(None)
    assert reveal["complete"] is True
    assert game.counts == [2, 1, 2]
    assert game.round.starter == 1


# -- palifico ----------------------------------------------------------------------------------


def test_palifico_starts_when_a_player_first_reaches_one_die() -> None:
    game = rigged([[2, 2], [3, 3], [4, 4]], starter=0)
    events = play(game, "2x2", "dudo")
    started = events[-1].view(None)
    assert started["palifico"] == 1 and started["aces_wild"] is False
    assert game.round.starter == 1 and game.to_move == 1


def test_palifico_round_aces_are_not_wild_and_may_open() -> None:
    game = rigged([[1], [1, 4], [4, 4]], starter=0, palifico_seat=0)
    assert Bid(1, 1) in game.legal_actions(0)
    play(game, "1x4", "dudo")  # two 4s (the aces do not count): true, challenger loses
    assert game.counts == [1, 1, 2]


def test_palifico_count_ignores_aces() -> None:
    game = rigged([[4], [1, 1], [4, 6]], starter=0, palifico_seat=0)
    events = play(game, "3x4", "dudo")
    reveal = next(e for e in events if e.type == "reveal").truth
    assert reveal["total"] == 2 and reveal["bid_true"] is False and reveal["aces_wild"] is False


def test_worked_example_palifico_face_changes() -> None:
    # Elena (0) is palifico and bids two 4s; Fulvio (1) raises to three 4s; Carlo (2), with
    # one die, changes face: three 5s; from then on the others must bid on 5s; another
    # one-die player (Eva, 4) may change face again.
    game = rigged([[4], [2, 3, 4, 5], [5], [6, 6], [6]], starter=0, palifico_seat=0)
    play(game, "2x4", "3x4", "3x5")
    assert game.to_move == 3  # Dario holds two dice: he must stay on 5s
    with pytest.raises(IllegalAction, match="face stays 5"):
        game.apply(3, "4x6")
    assert {a.face for a in game.legal_actions(3) if isinstance(a, Bid)} == {5}
    play(game, "4x5", "4x6")  # Eva, one die, changes to 6s with the usual raise rule
    assert game.to_move == 0  # Elena (one die) may change again
    play(game, "5x2")
    with pytest.raises(IllegalAction, match="face stays 2"):
        game.apply(1, "6x6")
    with pytest.raises(IllegalAction, match="does not raise 5x2"):
        game.apply(1, "5x2")
    play(game, "6x2")
    assert game.round.bids[-1] == (1, Bid(6, 2))


def test_one_die_player_changes_face_by_the_usual_raise_rule() -> None:
    game = rigged([[4], [5], [2, 3]], starter=0, palifico_seat=0)
    play(game, "2x4")
    with pytest.raises(IllegalAction, match="does not raise 2x4"):
        game.apply(1, "2x3")
    play(game, "2x5")


def test_palifico_happens_once_per_player() -> None:
    game = rigged([[2, 2], [3, 3], [4, 4]], starter=0)
    play(game, "2x2", "dudo")
    assert game.round.palifico == 1 and game.palifico_used == {1}
    # later, back at two dice (a calza won) and down to one again: no second palifico
    game = rigged([[2, 2], [3, 3], [4, 4]], starter=0)
    game.palifico_used.add(1)
    events = play(game, "2x2", "dudo")
    assert game.counts[1] == 1
    assert events[-1].view(None)["palifico"] is None


def test_palifico_does_not_apply_with_two_players_left() -> None:
    game = rigged([[2, 2], [3, 3]], starter=0)
    events = play(game, "2x2", "dudo")
    assert events[-1].view(None)["palifico"] is None
    assert game.round.aces_wild


def test_palifico_can_be_switched_off() -> None:
    game = rigged([[2, 2], [3, 3], [4, 4]], starter=0, palifico=False)
    events = play(game, "2x2", "dudo")
    assert events[-1].view(None)["palifico"] is None


# -- the end ------------------------------------------------------------------------------------


def test_the_last_player_with_dice_wins_and_placings_follow_elimination() -> None:
    game = rigged([[2], [3], [4]], starter=0)
    play(game, "1x2", "dudo")  # seat 1 challenges a true bid: out
    assert game.out_order == [1] and not game.is_over
    game.round.dice = [[5], [], [6]]
    game.turn = 2
    game.round.bids.clear()
    events = play(game, "1x6", "dudo")  # seat 0 challenges a true bid: out
    assert is_over(game) and game.to_move is None
    assert game.outcome is not None
    assert game.outcome.ranks == (2, 3, 1)
    assert game.outcome.winners == (2,)
    over = events[-1].view(0)
    assert over["type"] == "game_over" and over["placing"] == [2, 0, 1]
    assert over["seed"] == game.seed.hex()
    with pytest.raises(IllegalAction) as info:
        game.apply(2, "1x2")
    assert info.value.code == "game_over"
    assert game.legal_actions(2) == []


def test_forfeit_voids_the_round_without_revealing_dice() -> None:
    game = rigged([[2, 2], [3, 3], [4, 4]], starter=0)
    play(game, "2x2")
    events = game.forfeit(1, "abandoned")
    assert types(events) == ["forfeit", "round_started"]
    for event in events:
        view = event.view(None)
        assert view is not None and "dice" not in view
    assert game.counts[1] == 0 and game.out_order == [1]
    assert game.round.starter == 0 and game.round.bids == []
    assert game.history[-1] == (1, "forfeit:abandoned")
    events = game.forfeit(0, "timeout")
    assert game.is_over and game.outcome is not None
    assert game.outcome.ranks == (2, 3, 1)


def test_players_cannot_send_a_forfeit() -> None:
    game = rigged([[2, 2], [3, 3]])
    with pytest.raises(IllegalAction) as info:
        game.apply(0, "forfeit:timeout")
    assert info.value.code == "malformed"


def test_bad_seat_is_refused() -> None:
    game = rigged([[2, 2], [3, 3]])
    for seat in (-1, 2, True):
        with pytest.raises(IllegalAction) as info:
            game.apply(seat, "1x2")
        assert info.value.code == "malformed"


# -- configuration ------------------------------------------------------------------------------


def test_presets() -> None:
    piatnik = PerudoConfig.from_options({})
    assert (piatnik.reveal, piatnik.show_dice_counts, piatnik.calza) == (
        "until_proven",
        False,
        False,
    )
    classic = PerudoConfig.from_options({"preset": "classic"})
    assert (classic.reveal, classic.show_dice_counts, classic.calza) == ("all", True, False)
    assert classic.palifico
    custom = PerudoConfig.from_options({"preset": "classic", "calza": True, "seats": 8})
    assert custom.calza and custom.max_players == 8


def test_options_round_trip() -> None:
    cfg = PerudoConfig.from_options({"seats": 3, "dice_per_player": 3, "reveal": "all"})
    assert PerudoConfig.from_options(cfg.to_options()) == cfg


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"seats": 1}, "seats must be 2"),
        ({"seats": 7}, None),
        ({"seats": 7, "max_players": 6}, "seats must be 2 to max_players"),
        ({"seats": 9, "max_players": 9}, "max_players must be 2 to 8"),
        ({"dice_per_player": 0}, "dice_per_player must be 1 to 10"),
        ({"reveal": "some"}, "reveal must be"),
        ({"preset": "vegas"}, "unknown preset 'vegas'"),
        ({"calza": "yes"}, "calza must be true or false"),
        ({"seats": "4"}, "seats must be a whole number"),
        ({"wild": True}, "unknown Perudo option 'wild'"),
    ],
)
def test_bad_options_are_explained(options: dict[str, Any], message: str | None) -> None:
    if message is None:
        PerudoConfig.from_options(options)
        return
    with pytest.raises(ConfigError, match=message):
        PerudoConfig.from_options(options)


# -- fairness ------------------------------------------------------------------------------------


def test_dice_come_from_the_seed_and_verify_catches_tampering() -> None:
    cfg = PerudoConfig.from_options({"seats": 3})
    game, events = new_game(cfg, b"fair")
    opening = events[0].view(None)
    assert opening is not None
    assert opening["seed_sha256"] == __import__("hashlib").sha256(b"fair").hexdigest()
    assert game.round.dice[1] == roll_dice(b"fair", 1, 1, 5)
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        actions = game.legal_actions(seat)
        events.extend(game.apply(seat, actions[-1] if len(game.round.bids) > 1 else actions[0]))
    truths = [e.truth for e in events]
    assert verify(cfg.seats, b"fair", truths) == []
    assert verify(cfg.seats, b"unfair", truths)
    tampered = copy.deepcopy(truths)
    first_round = next(t for t in tampered if t["type"] == "round_started")
    first_round["dice"][0][0] = first_round["dice"][0][0] % 6 + 1
    assert any("round 1, seat 0" in p for p in verify(cfg.seats, b"fair", tampered))


def test_replay_gives_the_same_game() -> None:
    cfg = PerudoConfig.from_options({"seats": 3, "calza": True})
    game, events = new_game(cfg, b"replay")
    for _ in range(12):
        seat = game.to_move
        assert seat is not None
        events.extend(game.apply(seat, game.legal_actions(seat)[3]))
    again, replayed = replay_game(cfg, b"replay", game.history)
    assert replayed == events
    assert again.view(0) == game.view(0) and again.counts == game.counts


# -- aces in a palifico round (issue 16) -------------------------------------------------------
# "l'Asso [...] perde la sua funzione di Jolly, è trattata nelle dichiarazioni come qualsiasi
# altro numero": an ace is an ordinary face in a palifico round's bids, ranking lowest.


def test_palifico_aces_are_an_ordinary_face_for_a_one_die_player() -> None:
    game = rigged([[4], [5], [2]], starter=0, palifico_seat=0)
    play(game, "2x5")
    legal = {str(a) for a in game.legal_actions(1)}
    # no halving: 1x1 does not raise 2x5; aces rank lowest, so 2x1 does not either
    for text in ("1x1", "2x1"):
        assert text not in legal
        with pytest.raises(IllegalAction, match="does not raise 2x5"):
            game.apply(1, text)
    assert {"3x1", "2x6", "3x2"} <= legal
    play(game, "3x1")
    # no doubling back: after 3x1 any face at the same quantity raises (aces are lowest)
    legal = {str(a) for a in game.legal_actions(2)}
    assert {"3x2", "3x6", "4x1"} <= legal and "7x4" in legal
    assert "3x1" not in legal and "2x6" not in legal


def test_palifico_after_aces_others_stay_on_aces() -> None:
    game = rigged([[1], [2, 3], [5]], starter=0, palifico_seat=0)
    play(game, "2x1")
    assert {a.face for a in game.legal_actions(1) if isinstance(a, Bid)} == {1}
    play(game, "3x1")
    play(game, "3x4")  # the one-die player changes face at the same quantity
    assert game.round.bids[-1] == (2, Bid(3, 4))


def test_palifico_aces_wild_conversion_option_keeps_the_old_rule() -> None:
    game = rigged([[4], [5], [2]], starter=0, palifico_seat=0, palifico_aces="wild_conversion")
    play(game, "2x5")
    assert "1x1" in {str(a) for a in game.legal_actions(1)}
    play(game, "1x1")
    with pytest.raises(IllegalAction, match="does not raise 1x1"):
        game.apply(2, "2x4")


def test_palifico_aces_option_defaults_and_round_trips() -> None:
    for preset in ("piatnik", "classic"):
        assert PerudoConfig.from_options({"preset": preset}).palifico_aces == "ordinary"
    cfg = PerudoConfig.from_options({"palifico_aces": "wild_conversion"})
    assert PerudoConfig.from_options(cfg.to_options()) == cfg
    with pytest.raises(ConfigError, match="palifico_aces"):
        PerudoConfig.from_options({"palifico_aces": "wild"})


def test_games_stored_before_the_option_replay_under_the_old_rule() -> None:
    # options written in full by an older server lack palifico_aces: their games were
    # played with the conversion, and their logs replay with it
    old = PerudoConfig().to_options()
    del old["palifico_aces"]
    assert engine("perudo").stored_config(old).palifico_aces == "wild_conversion"
    # a player who names every other option gets today's rule, not the old one
    assert engine("perudo").make_config(old).palifico_aces == "ordinary"
    # a config stored today keeps its rule
    today = PerudoConfig.from_options({"seats": 3}).to_options()
    assert engine("perudo").stored_config(today).palifico_aces == "ordinary"
