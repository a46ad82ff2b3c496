"""``umpire advise``'s physical table keeps the player's knowledge in a PerudoTable."""

from __future__ import annotations

import random

import pytest

from bots.perudo.expert import TableView
from bots.perudo.table import PerudoTable
from bots.tools.advise_cli import Supporter
from server.games.perudo import PerudoConfig, new_game
from server.games.perudo_actions import count_matching


@pytest.mark.parametrize("game_seed", range(12))
def test_a_reported_game_gives_the_table_the_seat_has_online(game_seed: int) -> None:
    # an engine game, reported move by move to the supporter as a player would type it:
    # after every step the supporter's table is the one the seat keeps from its stream
    rng = random.Random(game_seed)
    players, dice = rng.randint(2, 5), rng.choice([2, 3, 5])
    calza, aces = rng.random() < 0.5, rng.choice(["ordinary", "wild_conversion"])
    options = {
        "seats": players,
        "dice_per_player": dice,
        "calza": calza,
        "palifico": True,
        "show_dice_counts": False,
        "palifico_aces": aces,
    }
    game, events = new_game(PerudoConfig.from_options(options), bytes([game_seed]))
    seat = rng.randrange(players)
    supporter = Supporter(players, seat, dice, calza=calza, palifico_aces=aces)
    online = PerudoTable(seat=seat)
    seen = 0

    def follow() -> None:
        nonlocal seen
        for event in events[seen:]:
            projection = event.view(seat)
            if projection is not None:
                online.observe(projection)
        seen = len(events)

    def same() -> None:
        follow()
        mine = supporter.table
        assert mine.counts == online.counts
        if game.is_over:  # no round follows: the supporter shows no cups and no bids
            assert mine.outcome is not None and (mine.dice, mine.bids) == ([], [])
            return
        assert (mine.bids, mine.palifico, mine.aces_wild) == (
            online.bids,
            online.palifico,
            online.aces_wild,
        )
        assert mine.to_move == online.to_move and mine.starter == online.starter
        if mine.dice and game.counts[seat]:
            assert TableView.from_table(mine, mine.options) == TableView.from_table(
                online, online.options
            )

    supporter.command(f"start {game.round.starter}")  # the one thing the referee is told
    rounds = 0
    while not game.is_over and rounds < 200:
        if online.round != supporter.table.round or not supporter.dice:
            follow()
            if game.counts[seat]:
                supporter.command("dice " + " ".join(map(str, game.round.dice[seat])))
        same()
        mover = game.to_move
        assert mover is not None
        action = rng.choice(game.legal_texts(mover)[-8:])
        if action in ("dudo", "calza"):
            bid = game.round.bids[-1][1]
            counted = sum(count_matching(d, bid, game.round.aces_wild) for d in game.round.dice)
            events += game.apply(mover, action)
            supporter.command(f"{mover} {action} {counted}")
            rounds += 1
        else:
            events += game.apply(mover, action)
            supporter.command(f"{mover} {action}")
        same()
    assert game.is_over
    assert supporter.active() == list(game.outcome.winners if game.outcome else [])
