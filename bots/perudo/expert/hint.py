"""Hints: the Perudo expert's advice for a seat, from what that seat may know.

The server offers :func:`perudo_hint` as its *advisor* (wired in its composition root,
:mod:`server.root`): a ``hint`` request gets its reply from here.

A seated player asks (protocol ``hint``) and gets the action the expert system would take,
its probability and the explanation (English or Italian), as the source's supporter mode
gives it. The advisor is handed the seat's own projections only (the engine's
``view(seat)`` and the seat's stream of events), never the game: it rebuilds the seat's
:class:`~bots.perudo.table.PerudoTable` from them and reads it through
:meth:`TableView.from_table <bots.perudo.expert.view.TableView.from_table>`, as the bot
does, so a hint can never use more than the seat may see.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bots.perudo.table import PerudoTable


def perudo_hint(
    view: dict[str, Any],
    events: Iterable[dict[str, Any]],
    *,
    bluff: float | None = None,
    reliability: float | None = None,
    level: str = "normal",
    lang: str = "en",
    seed: int | None = None,
) -> dict[str, Any]:
    """The ``hint`` reply for the seat whose projections these are: ``view`` is the
    engine's ``view(seat)`` of a Perudo game in progress and ``events`` the seat's stream
    from the game's start. Raise ``ValueError`` when there is no advice to give (not
    Perudo, not a seat's view, or the game is over)."""
    if view.get("game") != "perudo":
        raise ValueError("hints are for Perudo")
    if view.get("seat") is None:
        raise ValueError("hints are for a seat")
    if view.get("outcome") is not None:
        raise ValueError("the game is over")
    return table_hint(
        PerudoTable.of_seat(view, events),
        bluff=bluff,
        reliability=reliability,
        level=level,
        lang=lang,
        seed=seed,
    )


def table_hint(
    table: PerudoTable,
    *,
    bluff: float | None = None,
    reliability: float | None = None,
    level: str = "normal",
    lang: str = "en",
    seed: int | None = None,
) -> dict[str, Any]:
    """The ``hint`` reply for the seat of ``table`` (a seat's table, game in progress).

    The advice is a function of the situation: by default the expert's inference is seeded
    from the game (its public seed commitment), the round and the seat, and its view holds
    the round's history, so asking twice gives the same hint; ``seed`` overrides that
    (tests)."""
    from bots.perudo.expert import TableView, Thresholds, advise
    from bots.perudo.expert.advise import situation_seed

    assert table.seat is not None, "a seat's table, not a spectator's"
    seat = table.seat
    view = TableView.from_table(table, table.options)
    thresholds = None
    if bluff is not None or reliability is not None:
        from bots.perudo.expert.levels import level_named

        own = level_named(level).thresholds
        thresholds = Thresholds(
            own.bluff if bluff is None else bluff,
            own.reliability if reliability is None else reliability,
        )
    if seed is None:
        seed = situation_seed(view, f"{table.seed_sha256}/round/{table.round}/seat/{seat}")
    advice = advise(view, level=level, thresholds=thresholds, seed=seed)
    return {
        "type": "hint",
        "seat": seat,
        "your_turn": table.to_move == seat,
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
