"""Where the enemy's units probably stand: a soft estimate beside the metaposition's sets.

The metaposition's sets say where each enemy kind *may* stand (sound, and wide: after a
few unseen moves a knight may be on a dozen squares). :class:`Presence` says how likely
each of those squares is to hold one, for ranking attempts that find or miss a unit (our
pawn captures, :func:`bots.kriegspiel.meta.legality.capture_chance`). It is a hint, never
a legality fact: the sets stay the invariant.

Each kind has an expected number of units (its *mass*) spread over its set as a weight per
square. What moves the weights:

- **an unseen enemy move** (:meth:`Presence.diffuse`): one unit moved, each of its
  possible moves equally likely (the opponent's choice is unknown; a random player makes
  exactly that choice): a unit of kind ``k`` on ``s`` with ``n`` moves moves with chance
  ``n / M`` (``M`` all the units' moves, the king's included), each target getting
  ``1 / M`` of its weight. Units block each other where they probably stand, so pieces at
  home stay there until pawns make room, and most of a pawn's weight stays on its rank;
- **an enemy capture** (:meth:`Presence.capture`): exactly one unit, of a kind and from a
  square that reach the target, moved there;
- **what the umpire says** (squares found empty, checks, no pawn tries): the set shrinks,
  and :meth:`Presence.project` spreads a kind's weight lost outside it over the rest;
- **the announced pawn-tries count** (:func:`exact_count_posterior`): exactly ``N`` of
  our candidate captures are legal, which ranks the candidates against each other and is
  folded into the weights when our move ends the turn (:meth:`Presence.condition`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import chess

from bots.kriegspiel.meta.geometry import attacks, forward, last_rank, start_rank

__all__ = ["FLOOR", "KINDS", "Presence", "exact_count_posterior"]

#: The enemy kinds with a weight map (the king is tracked by its set alone).
KINDS = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
#: Weights below this are dropped (they only cost time when spread again).
_TINY = 1e-4
#: A square counts as holding an enemy unit, for blocking the enemy's own moves, from
#: this presence on.
_SOLID = 0.5
#: The least and most chance a square the sets allow (and not known) is given: the model
#: is rough, and a zero or a one would survive every later piece of evidence.
FLOOR = 0.02
#: With at most this many units left (the king besides) the enemy is taken to move each
#: unit, the king included, equally often, each of the unit's moves equally likely
#: (:meth:`Presence.diffuse`), not each of all its moves: a player left with a queen
#: and a pawn pushes the pawn, where one move in thirty left the map's pawns creeping
#: (over failing continuations of the conversion screen, with two or three units left,
#: 0.90 pawns held where 0.18 stood and 0.36 queens where 0.75 stood).
FEW = 3


def _moves(kind: chess.PieceType, color: chess.Color, square: chess.Square, blocked: int) -> int:
    """The quiet moves of an enemy unit of ``kind`` on ``square`` when ``blocked`` squares
    (our pieces, its own probable units) are in the way."""
    if kind == chess.PAWN:
        bit = chess.BB_SQUARES[square]
        one = forward(bit, color) & ~blocked
        two = forward(one & forward(start_rank(color) & bit, color), color) & ~blocked
        return one | two
    return attacks(kind, color, square, blocked) & ~blocked


@dataclass(slots=True)
class Presence:
    """Expected enemy units per square and kind (``weights[kind][square]``, kinds 1-5)
    and each kind's expected count (``mass``); ``ep``: the chance that the enemy's last
    move was a pawn's double step over each square (an en passant capture's target)."""

    color: chess.Color  #: the enemy's colour
    weights: list[list[float]]
    mass: list[float]
    ep: dict[int, float] = field(default_factory=dict)

    @classmethod
    def start(cls, color: chess.Color, may: list[int], counts: dict[int, int]) -> Presence:
        """``counts[kind]`` units of each kind spread evenly over ``may[kind]``."""
        weights = [[0.0] * 64 for _ in range(7)]
        mass = [0.0] * 7
        for kind in KINDS:
            squares = list(chess.SquareSet(may[kind]))
            mass[kind] = float(counts.get(kind, 0)) if squares else 0.0
            for square in squares:
                weights[kind][square] = mass[kind] / len(squares)
        return cls(color, weights, mass)

    def copy(self) -> Presence:
        """An independent copy."""
        return Presence(
            self.color, [list(row) for row in self.weights], list(self.mass), dict(self.ep)
        )

    # -- queries -----------------------------------------------------------------------

    def at(self, square: chess.Square, may: list[int]) -> float:
        """The chance that a unit (not the king) stands on ``square``, counting only the
        kinds whose set holds it; 0 where none may, else at least :data:`FLOOR`."""
        bit = chess.BB_SQUARES[square]
        total = 0.0
        allowed = False
        for kind in KINDS:
            if may[kind] & bit:
                allowed = True
                total += self.weights[kind][square]
        if not allowed:
            return 0.0
        return min(1.0 - FLOOR, max(FLOOR, total))

    def _solid(self) -> int:
        """Squares where a unit probably stands (they block the enemy's own moves)."""
        mask = 0
        rows = [self.weights[kind] for kind in KINDS]
        for square, column in enumerate(zip(*rows, strict=True)):
            if sum(column) >= _SOLID:
                mask |= chess.BB_SQUARES[square]
        return mask

    # -- updates -----------------------------------------------------------------------

    def project(self, may: list[int], caps: list[int], units: int) -> None:
        """Keep each kind's weight inside its set ``may[kind]``, its mass at most
        ``caps[kind]`` and the masses summing to ``units``: the weight of squares ruled
        out goes to the kind's other squares, in proportion."""
        for kind in KINDS:
            if not may[kind]:
                self.mass[kind] = 0.0
            self.mass[kind] = min(self.mass[kind], float(caps[kind]))
        total = sum(self.mass[kind] for kind in KINDS)
        if total <= 0.0 < units:
            # Every kind that held weight was ruled out (the last unit checked us as a
            # knight while the map held it a bishop: game 372 of seed 9, round
            # seventeen, where the empty map then saw no pin and the bot stalemated):
            # the units are shared evenly among the kinds still allowed.
            left = [kind for kind in KINDS if may[kind] and caps[kind] > 0]
            for kind in left:
                self.mass[kind] = min(float(caps[kind]), units / len(left))
            total = sum(self.mass[kind] for kind in KINDS)
        if total > 0.0 and abs(total - units) > 1e-9:
            scale = units / total
            for kind in KINDS:
                self.mass[kind] = min(float(caps[kind]), self.mass[kind] * scale)
        for kind in KINDS:
            row = self.weights[kind]
            allowed = may[kind]
            kept = 0.0
            for square in range(64):
                if row[square] and not allowed & chess.BB_SQUARES[square]:
                    row[square] = 0.0
                kept += row[square]
            target = self.mass[kind]
            if target <= 0.0:
                self.weights[kind] = [0.0] * 64
            elif kept <= 0.0:
                squares = list(chess.SquareSet(allowed))
                for square in squares:
                    row[square] = target / len(squares)
            elif abs(kept - target) > 1e-9:
                scale = target / kept
                for square in range(64):
                    if row[square]:
                        row[square] *= scale

    def diffuse(self, own: int, king_set: int) -> None:
        """One unseen, quiet enemy move: each unit moves with the share of the enemy's
        moves that are its own (``own``: our pieces; ``king_set``: where its king may
        stand, whose moves count too); with at most :data:`FEW` units left, each unit
        that can move (the king too) moves as often, its moves equally likely."""
        color = self.color
        blocked = own | self._solid()
        if king_set.bit_count() == 1:
            blocked |= king_set  # a king located blocks its own side too
        moves: list[tuple[int, int, int, int]] = []  # (kind, square, targets, count)
        total = 0.0
        few = sum(self.mass[kind] for kind in KINDS) <= FEW + 0.5
        for kind in KINDS:
            row = self.weights[kind]
            for square, weight in enumerate(row):
                if weight < _TINY:
                    if weight:
                        row[square] = 0.0
                    continue
                targets = _moves(kind, color, square, blocked & ~chess.BB_SQUARES[square])
                if targets:
                    count = targets.bit_count()
                    moves.append((kind, square, targets, count))
                    total += weight if few else weight * count
        kings = king_set.bit_count()
        if kings:
            steps = sum(
                (chess.BB_KING_ATTACKS[square] & ~blocked).bit_count()
                for square in chess.SquareSet(king_set)
            )
            total += min(1.0, steps) if few else steps / kings
        self.ep = {}
        if total <= 0.0:
            return
        new = [list(row) for row in self.weights]
        promotion = last_rank(color)
        promoted = 0.0
        for kind, square, targets, count in moves:
            share = self.weights[kind][square] / total  # to each target
            if few:
                share /= count
            out = new[kind]
            out[square] -= share * count
            if kind == chess.PAWN:
                for target in chess.SquareSet(targets):
                    if chess.BB_SQUARES[target] & promotion:
                        new[chess.QUEEN][target] += share
                        promoted += share
                        continue
                    out[target] += share
                    if abs(target - square) == 16:
                        self.ep[(target + square) // 2] = share
                continue
            while targets:
                low = targets & -targets
                out[low.bit_length() - 1] += share
                targets ^= low
        self.weights = new
        self.mass[chess.PAWN] -= promoted
        self.mass[chess.QUEEN] += promoted

    def capture(self, target: chess.Square, may: list[int], own: int, king_set: int) -> None:
        """An enemy unit took on ``target``: one unit, of a kind and from a square of the
        sets ``may`` that reach it (through ``own``, our pieces), moved there; the king
        (``king_set``) may have been the taker."""
        bit = chess.BB_SQUARES[target]
        blocked = own & ~bit
        sources: list[tuple[int, int, float]] = []
        for kind in KINDS:
            row = self.weights[kind]
            for square in chess.SquareSet(may[kind]):
                if row[square] > 0.0 and attacks(kind, self.color, square, blocked) & bit:
                    sources.append((kind, square, row[square]))
        total = sum(weight for _, _, weight in sources)
        kings = king_set.bit_count()
        if kings:
            total += (king_set & chess.BB_KING_ATTACKS[target]).bit_count() / kings
        if total <= 0.0:
            return
        for kind, square, weight in sources:
            # The chance the taker came from there; the square keeps no less than 0
            # (a thin map, total < 1, once left -0.68 on e4: game 198 of seed 1), and
            # project() brings the kind back to its mass.
            moved = weight / total
            self.weights[kind][square] = max(0.0, weight - moved)
            if kind == chess.PAWN and bit & last_rank(self.color):
                self.weights[chess.QUEEN][target] += moved
                self.mass[chess.PAWN] -= moved
                self.mass[chess.QUEEN] += moved
            else:
                self.weights[kind][target] += moved
        self.ep = {}

    def remove(self, square: chess.Square, captured: str | None) -> None:
        """We took the unit on ``square`` (``captured``: "pawn", "piece" or unknown):
        its kind's mass falls by one, shared by the kinds' weights there."""
        kinds = {
            "pawn": (chess.PAWN,),
            "piece": (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN),
        }.get(captured or "", KINDS)
        here = [self.weights[kind][square] for kind in kinds]
        total = sum(here)
        for kind, weight in zip(kinds, here, strict=True):
            if total > 0.0:
                share = weight / total
            else:
                share = self.mass[kind] / max(1e-9, sum(self.mass[k] for k in kinds))
            self.mass[kind] = max(0.0, self.mass[kind] - share)
        for kind in KINDS:
            self.weights[kind][square] = 0.0

    def hold(self, mask: int, units: int, may: list[int]) -> None:
        """At least ``units`` enemy units stand on ``mask`` (the squares where the pieces
        checking us may stand): the weights there are scaled up to hold that many, each
        kind's mass kept by scaling its other squares (:meth:`condition`). Without it a
        queen that checked us from a line kept the weight of its whole set (0.002 on g7
        before it mated from c7: game 54 of seed 9)."""
        squares = [square for square in chess.SquareSet(mask)]
        here = {
            square: sum(self.weights[kind][square] for kind in KINDS if may[kind] & (1 << square))
            for square in squares
        }
        held = sum(here.values())
        if not squares or held >= units:
            return
        if held <= 0.0:
            chances = {square: min(1.0 - FLOOR, units / len(squares)) for square in squares}
        else:
            chances = {square: min(1.0 - FLOOR, here[square] * units / held) for square in squares}
        self.condition(chances, may)

    def condition(self, chances: dict[int, float], may: list[int]) -> None:
        """Set each square of ``chances`` (a posterior occupancy, from the tries count)
        to that chance, shared among the kinds whose sets hold it as before, keeping
        each kind's mass by scaling its other squares."""
        before = [sum(self.weights[kind]) for kind in range(7)]
        for square, chance in chances.items():
            bit = chess.BB_SQUARES[square]
            kinds = [kind for kind in KINDS if may[kind] & bit]
            here = sum(self.weights[kind][square] for kind in kinds)
            for kind in kinds:
                weight = self.weights[kind][square]
                self.weights[kind][square] = (
                    weight * chance / here if here > 0.0 else chance / len(kinds)
                )
        for kind in KINDS:
            row = self.weights[kind]
            inside = sum(row[square] for square in chances)
            outside = sum(row) - inside
            if outside > 0.0:
                scale = max(0.0, before[kind] - inside) / outside
                for square in range(64):
                    if row[square] and square not in chances:
                        row[square] *= scale


def exact_count_posterior(priors: list[float], counts: list[int], total: int) -> list[float]:
    """The chance that each candidate square holds a unit, given that exactly ``total``
    of our pawn captures are legal: square ``i`` is occupied with independent chance
    ``priors[i]`` and then gives ``counts[i]`` legal captures (the pawns that attack it).
    An impossible total (the priors say it cannot happen) leaves the priors."""

    def spread(skip: int) -> list[float]:
        dist = [1.0] + [0.0] * total
        for i, (prior, count) in enumerate(zip(priors, counts, strict=True)):
            if i == skip:
                continue
            nxt = [value * (1.0 - prior) for value in dist]
            for have in range(total + 1 - count):
                nxt[have + count] += dist[have] * prior
            dist = nxt
        return dist

    whole = spread(-1)[total]
    if whole <= 1e-12:
        return list(priors)
    result = []
    for i, (prior, count) in enumerate(zip(priors, counts, strict=True)):
        rest = spread(i)
        result.append(prior * rest[total - count] / whole if count <= total else 0.0)
    return result
