"""Perudo observations and actions as fixed-shape arrays, for learning agents.

Everything here is a function of one seat's snapshot, ``Game.view(seat)``: the encoder
never sees the game itself, so an observation can hold nothing the seat may not know.
Seats are encoded *relative* to the observer (index 0 is the observer, 1 the next seat
clockwise, ...), so one policy can play any seat. The layout, for ``S`` seats and
``Q = S * dice_per_player`` dice at most (docs/learning.md has the table):

====================  ======  ===============================================================
slice                 size    meaning
====================  ======  ===============================================================
own faces             6       how many of the observer's dice show face 1..6, / dice_per_player
own dice              1       the observer's dice left / dice_per_player
flags                 4       my turn, aces wild, palifico round, dice counts shown
in game               S       relative seat still holds dice
dice counts           S       relative seat's dice / dice_per_player (0 unless shown)
starter               S       one-hot: relative seat that opened the round
last bid              6Q      one-hot of the standing bid's action index (all 0: no bid yet)
last bidder           S       one-hot: relative seat that made the standing bid
seats' bids           7S      per relative seat, its latest bid this round: quantity / Q,
                              then a one-hot of its face (all 0: no bid this round)
bids                  1       bids made this round / 6Q (no round holds more)
====================  ======  ===============================================================

Actions are indices: bid ``QxF`` is ``(Q - 1) * 6 + (F - 1)``, dudo is ``6Q`` and calza
``6Q + 1`` (masked out unless the room plays calza).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from server.games.perudo import PerudoConfig
from server.games.perudo_actions import Bid

Json = Any


class PerudoEncoding:
    """The array form of one Perudo config's observations and actions."""

    def __init__(self, config: PerudoConfig) -> None:
        self.config = config
        self.seats = config.seats
        self.dice = config.dice_per_player
        self.max_quantity = config.total_dice
        self.dudo = 6 * self.max_quantity
        self.calza = self.dudo + 1
        #: how many actions there are (the size of the action space and of the mask)
        self.num_actions = self.calza + 1
        self._indices: dict[str, int] = {self.action_text(i): i for i in range(self.num_actions)}
        s, q = self.seats, self.max_quantity
        self._in_game = 11
        self._counts = self._in_game + s
        self._starter = self._counts + s
        self._last_bid = self._starter + s
        self._last_bidder = self._last_bid + 6 * q
        self._seat_bids = self._last_bidder + s
        self._bids = self._seat_bids + 7 * s
        #: the observation vector's shape
        self.shape = (self._bids + 1,)

    def action_index(self, text: str) -> int:
        """The index of an action's text (``"3x4"``, ``"dudo"``, ``"calza"``)."""
        found = self._indices.get(text)
        if found is not None:
            return found
        bid = Bid.parse(text)
        if bid.quantity > self.max_quantity:
            raise ValueError(f"{text}: this game never has more than {self.max_quantity} dice")
        return (bid.quantity - 1) * 6 + bid.face - 1

    def action_text(self, index: int) -> str:
        """The text of the action at ``index`` (what the engine's ``apply`` reads)."""
        if index == self.dudo:
            return "dudo"
        if index == self.calza:
            return "calza"
        if not 0 <= index < self.dudo:
            raise ValueError(f"no Perudo action has index {index} (0..{self.num_actions - 1})")
        return f"{index // 6 + 1}x{index % 6 + 1}"

    def mask(self, legal: list[str]) -> npt.NDArray[np.int8]:
        """The action mask (1: legal) of the seat's legal action texts."""
        out = np.zeros(self.num_actions, dtype=np.int8)
        out[[self.action_index(text) for text in legal]] = 1
        return out

    def encode(self, view: Mapping[str, Json]) -> npt.NDArray[np.float32]:
        """The observation vector of a seat's snapshot ``view`` (``Game.view(seat)``)."""
        out = np.zeros(self.shape, dtype=np.float32)
        me = int(view["seat"])
        s, d, q = self.seats, self.dice, self.max_quantity
        for face in view.get("dice", []):
            out[face - 1] += 1.0 / d
        out[6] = view["dice_left"] / d
        out[7] = view["to_move"] == me
        out[8] = bool(view["aces_wild"])
        out[9] = view["palifico"] is not None
        counts = view.get("counts")
        out[10] = counts is not None
        gone = set(view["out"])
        for seat in range(s):
            rel = (seat - me) % s
            out[self._in_game + rel] = seat not in gone
            if counts is not None:
                out[self._counts + rel] = counts[seat] / d
        out[self._starter + (int(view["starter"]) - me) % s] = 1.0
        bids = view["bids"]
        for entry in bids:
            rel = (int(entry["seat"]) - me) % s
            bid = Bid.parse(entry["bid"])
            base = self._seat_bids + 7 * rel
            out[base : base + 7] = 0.0
            out[base] = bid.quantity / q
            out[base + bid.face] = 1.0
        if bids:
            last = bids[-1]
            out[self._last_bid + self.action_index(last["bid"])] = 1.0
            out[self._last_bidder + (int(last["seat"]) - me) % s] = 1.0
        out[self._bids] = len(bids) / self.dudo
        return out
