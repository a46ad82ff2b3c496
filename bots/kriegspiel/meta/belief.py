"""A probability over the hidden lone king's squares, kept next to its region.

The metaposition's region says where the lone king *may* stand; this module says how
likely each of those squares is: a hidden-Markov forward filter over a 64-vector.

- **The king's move** spreads each square's mass uniformly over the king's legal steps
  given our pieces (a capture of an undefended piece of ours is a legal step). This is
  exactly how ``kriegspiel-random`` moves (it tries uniformly random steps and retries a
  refused one, so it plays uniformly among its legal steps), and it is the maximum-entropy
  model of a king whose policy we do not know: it assumes nothing but the rules. Against
  another king (the centre-seeking one of the tests) the weights are off but the support
  is still exact, so nothing the set-based reasoning proves is lost.
- **The umpire's answers** condition it: silence or a check with its directions split
  the squares before the king's reply (:func:`answer_groups`), a refused king step of
  ours keeps the squares next to its target, and the king's silent reply (no capture)
  drops the mass that went onto our pieces. Each answer is a yes/no function of the
  king's square, so conditioning zeroes the squares that disagree and renormalises.

The support of the vector always equals the metaposition's region (a test plays random
games and checks it after every decision). :class:`KingBelief` does not see the umpire's
messages: it sees, at each of our decisions, our pieces and the region, and recovers the
answer from them (the region after the king's reply is the spread of exactly one answer's
squares; when two answers spread to the same squares, their masses are mixed, which is
the filter's posterior given the region alone).
"""

from __future__ import annotations

import chess
import numpy as np
import numpy.typing as npt

from bots.kriegspiel.meta.geometry import attacks
from bots.kriegspiel.meta.mate import Pieces, check_groups, neighbours

__all__ = [
    "FLOOR",
    "Floats",
    "KingBelief",
    "answer_groups",
    "attacked_by",
    "mask",
    "occupied_by",
    "spread",
    "spread_central",
    "step",
    "steps",
    "support",
    "take_chance",
    "uniform",
]

Floats = npt.NDArray[np.float64]
#: The mass given to a square of the region the model cannot reach (see ``repaired``).
FLOOR = 1e-6
#: The prior weight of the king that heads for the centre (:class:`KingBelief`).
CENTRAL_PRIOR = 0.5
#: The share of a central king's step that goes to its most central steps.
CENTRAL_GREED = 0.9
#: Neither hypothesis's weight falls below this (a king may change its ways).
MODEL_FLOOR = 0.02
_BITS = np.array([1 << square for square in range(64)], dtype=np.uint64)


def mask(region: int) -> npt.NDArray[np.bool_]:
    """The squares of ``region`` as 64 booleans."""
    result: npt.NDArray[np.bool_] = (np.uint64(region) & _BITS) != 0
    return result


def uniform(region: int) -> Floats:
    """Equal mass on every square of ``region`` (zeros if it is empty)."""
    values = mask(region).astype(np.float64)
    total = values.sum()
    return values / total if total else values


def occupied_by(pieces: Pieces) -> int:
    """The squares our pieces stand on."""
    result = 0
    for _, square in pieces:
        result |= chess.BB_SQUARES[square]
    return result


def attacked_by(pieces: Pieces) -> int:
    """Every square our pieces attack on a board holding only them (sliders see through
    the hidden king's square, which is how its steps must be judged)."""
    occupied = occupied_by(pieces)
    result = 0
    for kind, square in pieces:
        result |= attacks(kind, chess.WHITE, square, occupied)
    return result


def steps(pieces: Pieces, attacked: int, square: int) -> int:
    """The lone king's legal steps from ``square`` with our pieces as in ``pieces``
    (``attacked`` is :func:`attacked_by` of them): unattacked neighbours other than our
    king's square, our undefended pieces included (it may take them)."""
    return chess.BB_KING_ATTACKS[square] & ~attacked & ~chess.BB_SQUARES[pieces[0][1]]


def spread(mass: Floats, pieces: Pieces, attacked: int | None = None) -> Floats:
    """The king's move: each square's mass spread uniformly over its legal steps. Mass
    on a square without a step (mate or stalemate) vanishes; mass that lands on a square
    of ours is a capture (callers drop it when none was heard)."""
    if attacked is None:
        attacked = attacked_by(pieces)
    result = np.zeros(64)
    for square in np.flatnonzero(mass):
        reach = steps(pieces, attacked, int(square))
        count = reach.bit_count()
        if not count:
            continue
        share = mass[square] / count
        while reach:
            low = reach & -reach
            result[low.bit_length() - 1] += share
            reach ^= low
    return result


def _centrality(square: int) -> int:
    """Twice the king-walk (Manhattan) distance of ``square`` to the board's centre."""
    return abs(2 * chess.square_file(square) - 7) + abs(2 * chess.square_rank(square) - 7)


_CENTRALITY = [_centrality(square) for square in range(64)]


def spread_central(mass: Floats, pieces: Pieces, attacked: int | None = None) -> Floats:
    """The king's move for a king that heads for the centre: each square's mass goes
    to its most central legal step(s) (by the king-walk distance to the centre, ties
    shared), the textbook defence against a lone king's mate."""
    if attacked is None:
        attacked = attacked_by(pieces)
    result = np.zeros(64)
    for square in np.flatnonzero(mass):
        reach = steps(pieces, attacked, int(square))
        if not reach:
            continue
        targets = list(chess.SquareSet(reach))
        best = min(_CENTRALITY[target] for target in targets)
        chosen = [target for target in targets if _CENTRALITY[target] == best]
        share = mass[square] / len(chosen)
        for target in chosen:
            result[target] += share
    return result


def take_chance(
    mass: Floats, pieces: Pieces, attacked: int | None = None, adverse: float = 0.0
) -> float:
    """The mass that moves onto one of our pieces at the king's next step (the chance it
    takes one, if ``mass`` sums to 1 and the king steps uniformly). With ``adverse``
    above 0, a king next to a piece it may take takes it with at least that chance (a
    king that is not random may prefer the capture)."""
    if attacked is None:
        attacked = attacked_by(pieces)
    exposed = occupied_by(pieces) & ~attacked
    if not exposed:
        return 0.0
    chance = 0.0
    for square in np.flatnonzero(mass * mask(neighbours(exposed))):
        reach = steps(pieces, attacked, int(square))
        share = (reach & exposed).bit_count() / reach.bit_count()
        chance += float(mass[square]) * (adverse + (1.0 - adverse) * share)
    return chance


def answer_groups(pieces: Pieces, region: int, attacked: int | None = None) -> list[int]:
    """``region`` split by what the umpire says after our move left ``pieces``: the
    squares left in silence first (if any), then one group per announced check (its
    directions), as :func:`bots.kriegspiel.meta.mate.check_groups` names them."""
    if attacked is None:
        attacked = attacked_by(pieces)
    groups = []
    quiet = region & ~attacked
    if quiet:
        groups.append(quiet)
    checked = region & attacked
    if checked:
        groups.extend(check_groups(pieces, occupied_by(pieces), checked))
    return groups


def _moved(before: Pieces, after: Pieces) -> bool:
    """Whether ``after`` is ``before`` with one piece moved (same kinds)."""
    if len(before) != len(after) or before[0][0] != after[0][0]:
        return False
    if sorted(kind for kind, _ in before) != sorted(kind for kind, _ in after):
        return False
    return len(set(before) - set(after)) == 1


def step(mass: Floats, pieces: Pieces, attacked: int, central: float) -> Floats:
    """The king's move under a mixed model: ``central`` of each square's mass as
    :func:`spread_central`, the rest as :func:`spread` (uniform over the legal steps)."""
    uniform_part = spread(mass, pieces, attacked)
    if central <= 0.0:
        return uniform_part
    return (1.0 - central) * uniform_part + central * spread_central(mass, pieces, attacked)


class KingBelief:
    """The forward filter of one game (see the module): call :meth:`track` at each of
    our decisions with our pieces and the king's region; :attr:`mass` is the belief.

    Two hypotheses about how the king moves are filtered side by side, each with its
    own vector: a *random* king (uniform over its legal steps) and a *central* one (that
    heads for the centre: :data:`CENTRAL_GREED` of its mass to its most central steps,
    the rest uniform). Their weights are the posterior given every answer so far (each
    answer's likelihood under each hypothesis is the mass it keeps), never below
    :data:`MODEL_FLOOR`; :attr:`mass` is their mixture, and :attr:`central` the share of
    a step the planner should take as central.

    ``repaired`` gathers the squares of the region the filter gave no mass and that got
    a tiny one (:data:`FLOOR`) so that the support is the region again: a guard. The
    one case seen, the metaposition letting a lone king on e8 (e1) castle to c8 or g8
    (c1, g1) with no rook (``update._widen_quiet``), is fixed."""

    def __init__(self) -> None:
        self.mass: Floats = np.zeros(64)
        self.parts: list[Floats] = [np.zeros(64), np.zeros(64)]
        self.weights = [1.0 - CENTRAL_PRIOR, CENTRAL_PRIOR]
        self.pieces: Pieces | None = None
        self.region = 0
        self.repaired = 0
        self.resets = 0

    @property
    def central(self) -> float:
        """The share of the king's next step taken as heading for the centre."""
        return self.weights[1] * CENTRAL_GREED

    def track(self, pieces: Pieces, region: int) -> Floats:
        """The belief at a decision with ``pieces`` (ours, the king first, the others
        sorted) and ``region`` (the metaposition's), after what happened since the last."""
        before = self.pieces
        if before is None or not self.region:
            parts = [uniform(region), uniform(region)]
        elif pieces == before:
            parts = [part * mask(region) for part in self.parts]  # a refused step
        elif _moved(before, pieces):
            parts = self._after_move(pieces, region)
        else:  # several moves unseen (the forced-mate search played them): start afresh
            self.resets += 1
            parts = [uniform(region), uniform(region)]
        inside = mask(region)
        likelihoods = [float((part * inside).sum()) for part in parts]
        weights = [prior * chance for prior, chance in zip(self.weights, likelihoods, strict=True)]
        total = sum(weights)
        if total > 0.0:
            central = min(max(weights[1] / total, MODEL_FLOOR), 1.0 - MODEL_FLOOR)
            self.weights = [1.0 - central, central]
        fitted = self._fit(parts[0], region)
        central_part = parts[1] * inside
        if float(central_part.sum()) <= 0.0:
            central_part = fitted
        self.parts = [fitted, central_part / float(central_part.sum())]
        self.mass = self._fit(self.weights[0] * fitted + self.weights[1] * self.parts[1], region)
        self.pieces = pieces
        self.region = region
        return self.mass

    def _after_move(self, pieces: Pieces, region: int) -> list[Floats]:
        """Our move left ``pieces``, the umpire answered, the king stepped silently: for
        each hypothesis, the mass of the answer whose squares spread exactly onto
        ``region`` (chosen by the random king's, whose support is the region's)."""
        attacked = attacked_by(pieces)
        ours = ~mask(occupied_by(pieces))
        matched: list[int] = []
        covering: list[int] = []
        for group in answer_groups(pieces, self.region, attacked):
            after = spread(self.parts[0] * mask(group), pieces, attacked) * ours
            squares = support(after)
            if squares == region:
                matched.append(group)
            elif squares & region == region:
                covering.append(group)
        chosen = matched or covering
        if not chosen:
            chosen = [self.region]
        kept = 0
        for group in chosen:
            kept |= group
        return [
            spread(self.parts[0] * mask(kept), pieces, attacked) * ours,
            step(self.parts[1] * mask(kept), pieces, attacked, CENTRAL_GREED) * ours,
        ]

    def _fit(self, mass: Floats, region: int) -> Floats:
        """``mass`` on ``region`` only, summing to 1, with no square of it empty."""
        inside = mask(region)
        mass = mass * inside
        total = float(mass.sum())
        if total <= 0.0:
            return uniform(region)
        mass = mass / total
        empty = inside & (mass <= 0.0)
        if np.any(empty):
            self.repaired |= support(empty.astype(np.float64))
            mass = mass + FLOOR * empty
            mass = mass / mass.sum()
        return mass


def support(mass: Floats) -> int:
    """The squares where ``mass`` is positive, as a bitboard."""
    result = 0
    for square in np.flatnonzero(mass > 0.0):
        result |= 1 << int(square)
    return result
