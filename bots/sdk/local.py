"""The local transport: bots play against the engines in-process, with no network.

It delivers exactly what the server would: each event's projection for the bot's seat
(``Event.view(seat)``), a decision request whenever the game waits for that seat, and the
result. Use it for fast self-play and reproducible tournaments; the same Bot classes run
unchanged over the websocket transport.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bots.sdk.bot import Bot, Decision, GameInfo, GameResult
from server.games import engine
from server.games.base import Event, Game, IllegalAction, Outcome

log = logging.getLogger(__name__)

#: Called with each batch of events as the game produces them (for logging to a store).
EventSink = Callable[[list[Event]], None]


@dataclass(slots=True)
class LocalGame:
    """A finished local game: its config, seed, engine state and every event."""

    game_name: str
    config: Any
    seed: bytes
    game: Game
    events: list[Event]
    #: seats forfeited because their bot failed: seat -> reason
    faults: dict[int, str]
    #: for each event, the 1-based number of the history record that caused it
    #: (``None`` for the opening events), as the server's log stores it
    causes: list[int | None]

    @property
    def outcome(self) -> Outcome:
        """The game's outcome (local games always run to the end)."""
        assert self.game.outcome is not None
        return self.game.outcome


async def play_local(
    game_name: str,
    options: Mapping[str, Any],
    bots: Sequence[Bot],
    seed: bytes,
    *,
    names: Sequence[str] | None = None,
    max_rejections: int = 3,
    sink: EventSink | None = None,
) -> LocalGame:
    """Play one game between ``bots`` (one per seat, in seat order) and return it.

    ``options`` are the room options (they must make a game of ``len(bots)`` seats). A
    bot whose action is refused ``max_rejections`` times in a row, or that raises, is
    forfeited (reason ``invalid_actions`` or ``bot_error``) and the game goes on.
    """
    eng = engine(game_name)
    config = eng.make_config(options)
    if config.seats != len(bots):
        raise ValueError(
            f"{game_name} with these options has {config.seats} seats, not {len(bots)} bots"
        )
    game, events = eng.new_game(config, seed)
    causes: list[int | None] = [None] * len(events)
    faults: dict[int, str] = {}
    display = list(names) if names is not None else [type(b).name for b in bots]
    for seat, bot in enumerate(bots):
        info = GameInfo(
            game=game_name,
            seat=seat,
            seats=config.seats,
            options=config.to_options(),
            view=game.view(seat),
            players=display,
        )
        await bot.start(info)
    await _deliver(bots, events, sink)

    while game.to_move is not None:
        seat = game.to_move
        bot = bots[seat]
        rejections = 0
        while True:
            legal = [str(action) for action in game.legal_actions(seat)]
            try:
                action = await bot.decide(Decision(seat, game.view(seat), legal))
                new = game.apply(seat, action)
                break
            except IllegalAction as refusal:
                rejections += 1
                if rejections >= max_rejections:
                    new = _fault(game, seat, "invalid_actions", faults)
                    break
                await bot.rejected(str(action), refusal.code, refusal.reason)
            except Exception:
                log.exception("bot %s in seat %d failed; its seat is forfeited", bot.name, seat)
                new = _fault(game, seat, "bot_error", faults)
                break
        events.extend(new)
        causes.extend([len(game.history)] * len(new))
        await _deliver(bots, new, sink)

    outcome = game.outcome
    assert outcome is not None
    final = events[-1]
    for seat, bot in enumerate(bots):
        result = GameResult(seat, list(outcome.ranks), outcome.reason, final.view(seat) or {})
        await bot.end(result)
    return LocalGame(game_name, config, seed, game, events, faults, causes)


def _fault(game: Game, seat: int, reason: str, faults: dict[int, str]) -> list[Event]:
    faults[seat] = reason
    return game.forfeit(seat, reason)


async def _deliver(bots: Sequence[Bot], events: list[Event], sink: EventSink | None) -> None:
    if sink is not None:
        sink(events)
    for event in events:
        for seat, bot in enumerate(bots):
            projection = event.view(seat)
            if projection is not None:
                await bot.observe(projection)
