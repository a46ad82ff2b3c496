"""The pairing rules of the three formats, as pure functions of a tournament's history.

Players are named by strings; "rank order" is the order of the current standings (the
first is the leader). Every function is deterministic: the same history gives the same
pairings on every node and after every restart. docs/tournaments.md states the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

#: A pairing: the player in seat 0 (white in Kriegspiel), then the player in seat 1.
Pair = tuple[str, str]

#: How many nodes the Swiss search may visit before it gives up avoiding repeats.
SEARCH_LIMIT = 200_000


def berger_rounds(count: int) -> list[list[tuple[int, int]]]:
    """The Berger tables for ``count`` players numbered ``0..count-1``: every round's pairs.

    With an odd count a phantom player ``count`` is added: who meets it has the bye, and
    its pairs are left out. Player ``i`` (1-based ``i + 1``) meets ``j`` in round ``k``
    (1-based) when ``i + j = k + 1`` modulo ``n - 1``; the last player meets the one with
    ``2i = k + 1``. Colours follow Berger's table: of ``i < j`` the lower plays white when
    ``j - i`` is odd, the higher when even; the last player is black in odd rounds.
    """
    if count < 2:
        raise ValueError(f"a round robin needs at least 2 players, not {count}")
    n = count + (count % 2)
    m = n - 1
    rounds: list[list[tuple[int, int]]] = []
    for k in range(1, n):
        target = (k + 1) % m
        pairs: list[tuple[int, int]] = []
        for i in range(1, n):
            if (2 * i) % m == target:
                pair = (i, n) if k % 2 == 1 else (n, i)
            else:
                j = (target - i) % m or m
                if j <= i:
                    continue
                pair = (i, j) if (j - i) % 2 == 1 else (j, i)
            if n not in pair or n == count:
                pairs.append((pair[0] - 1, pair[1] - 1))
        rounds.append(pairs)
    return rounds


def round_robin(players: Sequence[str], cycles: int = 1) -> list[list[Pair]]:
    """Every round of a round robin of ``players`` (in seed order); a second cycle swaps
    colours."""
    rounds: list[list[Pair]] = []
    for cycle in range(cycles):
        for table in berger_rounds(len(players)):
            pairs = [(players[a], players[b]) for a, b in table]
            if cycle % 2:
                pairs = [(b, a) for a, b in pairs]
            rounds.append(pairs)
    return rounds


def swiss_round(
    ranked: Sequence[str],
    scores: Mapping[str, float],
    met: Mapping[str, Set[str]],
    byes: Mapping[str, int],
    whites: Mapping[str, int],
    blacks: Mapping[str, int],
    limit: int = SEARCH_LIMIT,
) -> tuple[list[Pair], str | None]:
    """One Swiss round: the pairs and the player with the bye (None with an even count).

    The rule (docs/tournaments.md, "Swiss"): the bye goes to the lowest-ranked player
    among those with the fewest byes for whom the others can still be paired without a
    repeat. Then, repeatedly, the highest-ranked unpaired player meets the first of its
    candidates not met before: first its own score group, preferring the player half the
    group below it (top half against bottom half), then the nearest lower groups. The
    search backtracks, so a round repeats a pairing only when no other pairing exists
    (or the search passes ``limit`` nodes); it then pairs in rank order, repeats allowed.
    """
    players = list(ranked)
    bye_candidates: list[str | None] = [None]
    if len(players) % 2:
        fewest = min(byes.get(p, 0) for p in players)
        bye_candidates = [p for p in reversed(players) if byes.get(p, 0) == fewest]
    budget = [limit]
    for bye in bye_candidates:
        rest = [p for p in players if p != bye]
        found = _search(rest, scores, met, budget)
        if found is not None:
            return [colour(a, b, whites, blacks) for a, b in found], bye
        if budget[0] <= 0:
            break
    bye = bye_candidates[0]
    rest = [p for p in players if p != bye]
    pairs = [(rest[i], rest[i + 1]) for i in range(0, len(rest) - 1, 2)]
    return [colour(a, b, whites, blacks) for a, b in pairs], bye


def _candidates(top: str, unpaired: Sequence[str], scores: Mapping[str, float]) -> list[str]:
    """The opponents ``top`` (the highest-ranked unpaired player) tries, in order."""
    score = scores.get(top, 0.0)
    group = [p for p in unpaired if scores.get(p, 0.0) == score]
    pivot = len(group) // 2
    own = sorted(group[1:], key=lambda p: (abs(group.index(p) - pivot), group.index(p)))
    others = [p for p in unpaired if p not in group]
    others.sort(key=lambda p: (abs(scores.get(p, 0.0) - score), unpaired.index(p)))
    return own + others


def _search(
    unpaired: list[str],
    scores: Mapping[str, float],
    met: Mapping[str, Set[str]],
    budget: list[int],
) -> list[Pair] | None:
    """Pairs of ``unpaired`` (rank order) with no repeat, or None if none was found."""
    if not unpaired:
        return []
    budget[0] -= 1
    if budget[0] <= 0:
        return None
    top, rest = unpaired[0], unpaired[1:]
    for other in _candidates(top, unpaired, scores):
        if other in met.get(top, ()):
            continue
        found = _search([p for p in rest if p != other], scores, met, budget)
        if found is not None:
            return [(top, other), *found]
        if budget[0] <= 0:
            return None
    return None


def colour(a: str, b: str, whites: Mapping[str, int], blacks: Mapping[str, int]) -> Pair:
    """Seat order of a pair: who has had seat 0 (white) less often takes it; on a tie
    the higher-ranked player ``a`` does."""
    balance_a = whites.get(a, 0) - blacks.get(a, 0)
    balance_b = whites.get(b, 0) - blacks.get(b, 0)
    return (b, a) if balance_b < balance_a else (a, b)


def arena_pairs(waiting: Sequence[str], last: Mapping[str, str | None]) -> list[Pair]:
    """Pairs among the arena players now waiting for a game (in rank order).

    Each highest-ranked waiting player meets the next waiting player who was not its last
    opponent; if only its last opponent is left it meets them again (two players alone
    in an arena have nobody else). An odd player out waits for the next game to end.
    """
    free = list(waiting)
    pairs: list[Pair] = []
    while len(free) >= 2:
        top = free.pop(0)
        pick = next((p for p in free if last.get(top) != p and last.get(p) != top), free[0])
        free.remove(pick)
        pairs.append((top, pick))
    return pairs
