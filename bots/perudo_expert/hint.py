"""Hints: the Perudo expert's advice for a seat, from what that seat may know.

The server offers this function as its *advisor* (wired in its composition root,
:mod:`server.root`): a ``hint`` request gets its reply from here.

A seated player asks (protocol ``hint``) and gets the action the expert system would take,
its probability and the explanation (English or Italian), as the source's supporter mode
gives it. The advice is computed from the seat's own dice, the bids of the round and each
seat's dice count (public: every loss is announced), never from another seat's dice.
"""

from __future__ import annotations

from typing import Any

from server.games.base import Game


def perudo_hint(
    game: Game,
    seat: int,
    *,
    bluff: float | None = None,
    reliability: float | None = None,
    level: str = "normal",
    lang: str = "en",
    seed: int | None = None,
) -> dict[str, Any]:
    """The ``hint`` reply for ``seat`` of a Perudo ``game`` in progress. The advice is a
    function of the situation: by default the expert's inference is seeded from the game
    (its public seed commitment), the round and the seat, and its view holds the round's
    history, so asking twice gives the same hint; ``seed`` overrides that (tests). Raise
    ``ValueError`` when there is no advice to give (not Perudo, or the game is over)."""
    from bots.perudo_expert import TableView, Thresholds, advise
    from bots.perudo_expert.advise import situation_seed
    from server.games.base import seed_commitment
    from server.games.perudo import Perudo

    if not isinstance(game, Perudo):
        raise ValueError("hints are for Perudo")
    if game.is_over:
        raise ValueError("the game is over")
    config = game.config
    view = TableView.build(
        seat,
        game.round.dice[seat],
        game.counts,
        [(s, b) for s, b in game.round.bids],
        palifico=game.round.palifico,
        calza=config.calza,
        dice_per_player=config.dice_per_player,
        cap=config.total_dice,
        palifico_aces=config.palifico_aces,
    )
    thresholds = None
    if bluff is not None or reliability is not None:
        from bots.perudo_expert.levels import level_named

        own = level_named(level).thresholds
        thresholds = Thresholds(
            own.bluff if bluff is None else bluff,
            own.reliability if reliability is None else reliability,
        )
    if seed is None:
        game_id = seed_commitment(game.seed)
        seed = situation_seed(view, f"{game_id}/round/{game.round.number}/seat/{seat}")
    advice = advise(view, level=level, thresholds=thresholds, seed=seed)
    return {
        "type": "hint",
        "seat": seat,
        "your_turn": game.to_move == seat,
        "action": advice.action,
        "probability": round(advice.probability, 4),
        "explanation": advice.explanation(lang),
        "rules": list(advice.rules_fired),
        "level": advice.level,
        "situation": advice.situation,
        "thresholds": {
            "bluff": advice.thresholds.bluff,
            "reliability": advice.thresholds.reliability,
        },
        "alternatives": [[bid, round(p, 4)] for bid, p in advice.alternatives],
    }
