"""Real engine games standing at the start of a heads-up round with ``a`` and ``b`` dice.

The exploitability measures ask a bot what it plays in a round where seat 0 opens with
``a`` dice and seat 1 answers with ``b``. :func:`round_start` plays the real engine
(``server.games.perudo``) to that point: a fresh game of two seats with ``a`` dice each
when ``a == b`` (its first starter is seat 0), otherwise a game with more dice in which
seats lose dice by bidding the most the table allows and being challenged, seat 0 last
(the player who lost a die starts the next round), so that the rounds before are real
rounds of the game. With two players left palifico never applies.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bots.sdk.bot import Json
from server.games.base import Event
from server.games.perudo import Perudo, PerudoConfig, new_game
from server.games.perudo_actions import BIDS
from server.games.perudo_dice import first_starter


@dataclass(frozen=True, slots=True)
class RoundStart:
    """A game at the start of the round, the events so far, and where that round began."""

    game: Perudo
    events: list[Event]
    round_from: int  #: index in ``events`` of the round's ``round_started``


def _make_lose(game: Perudo, loser: int) -> list[Event]:
    """Have ``loser`` lose a die: it bids the most the game allows and is challenged."""
    other = 1 - loser
    top = str(BIDS[game.config.total_dice][6])
    events: list[Event] = []
    if game.to_move == other:
        events += game.apply(other, str(BIDS[1][2]))
    events += game.apply(loser, top)
    events += game.apply(other, "dudo")
    return events


def round_start(
    a: int, b: int, *, calza: bool = False, dice_per_player: int | None = None
) -> RoundStart:
    """An engine game at the start of a round that seat 0 opens with ``a`` dice against
    seat 1's ``b`` (each between 1 and 9); with ``calza`` the room plays calza, and
    ``dice_per_player`` (at least what the round needs) sets the starting count."""
    if not (1 <= a <= 9 and 1 <= b <= 9):
        raise ValueError(f"a heads-up round needs 1 to 9 dice a side, not {a} v {b}")
    start = a if a == b else (b if a < b else a + 1)
    default = start
    start = max(start, dice_per_player or 0)
    options = {"seats": 2, "dice_per_player": start, "calza": calza}
    config = PerudoConfig.from_options(options)
    losers = [1] * (start - b) + [0] * (start - a)
    tag = f"{a}v{b}" if start == default else f"{a}v{b}/{start}"
    for i in range(256):
        seed = f"umpire/perudo-endgame/{tag}{'/calza' if calza else ''}/{i}".encode()
        if first_starter(seed, 2) != 0:
            continue
        game, events = new_game(config, seed)
        for loser in losers:
            events += _make_lose(game, loser)
        if game.counts == [a, b] and game.to_move == 0 and not game.round.bids:
            last = max(i for i, e in enumerate(events) if e.type == "round_started")
            return RoundStart(game, events, last)
    raise RuntimeError(f"no engine game reaches a {a} v {b} round")  # pragma: no cover


def with_dice(projection: Mapping[str, Json], seat: int, hand: tuple[int, ...]) -> dict[str, Json]:
    """``projection`` with this seat's dice replaced by ``hand`` (the question asked)."""
    out = dict(projection)
    if "dice" in out and out.get("seat", seat) == seat:
        out["dice"] = list(hand)
    return out
