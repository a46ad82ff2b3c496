"""Perudo's stand-in policy: a simple, safe move for a seat whose player is away.

The server uses it when the stand-in house bot cannot act in time. It sees only what the
seat may know (``game.view(seat)`` and ``game.legal_actions(seat)``), like any client.

Estimate how many dice match each bid from the seat's own dice plus the expected share of
the unknown dice; raise to the most plausible legal bid (lowest first) while it is
plausible enough, otherwise call dudo.
"""

from __future__ import annotations

from typing import Any

from server.games.base import Game
from server.games.perudo_actions import Bid


def standin(game: Game, seat: int) -> str | None:
    """The most plausible raise, or dudo when every raise looks worse; ``None`` if ``seat``
    may not act."""
    if game.is_over or game.to_move != seat:
        return None
    actions = game.legal_actions(seat)
    legal = [str(action) for action in actions]
    if not legal:
        return None
    view: dict[str, Any] = game.view(seat)
    dice: list[int] = list(view.get("dice") or [])
    aces_wild = bool(view.get("aces_wild", True))
    if isinstance(view.get("total_dice"), int):
        unknown = max(0, int(view["total_dice"]) - len(dice))
    else:
        options = view.get("options") or {}
        opponents = int(view.get("seats", 2)) - len(view.get("out") or []) - 1
        unknown = int(0.75 * max(1, opponents) * int(options.get("dice_per_player", 5)))

    def margin(quantity: int, face: int) -> float:
        mine = sum(1 for d in dice if d == face or (aces_wild and d == 1 and face != 1))
        p = 1 / 3 if aces_wild and face != 1 else 1 / 6
        return mine + unknown * p - quantity

    best: tuple[float, int, str] | None = None
    for bid in actions:
        if not isinstance(bid, Bid):
            continue
        key = (margin(bid.quantity, bid.face), -bid.quantity, str(bid))
        if best is None or key > best:
            best = key
    bids_so_far = view.get("bids") or []
    if not bids_so_far:
        return best[2] if best is not None else legal[0]
    last = Bid.parse(str(bids_so_far[-1]["bid"]))
    current = margin(last.quantity, last.face)
    if best is not None and (best[0] >= 0 or current >= 0.5):
        return best[2]
    return "dudo" if "dudo" in legal else legal[0]
