"""CFR+ and the best responses, checked against a plain recursive best response."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.perudo.endgame import solve as solve_module
from bots.perudo.endgame.cfr import evaluate, solve
from bots.perudo.endgame.tree import RoundTree, build

TREE = build(1, 1)


def _random_sigma(tree: RoundTree, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for p in (0, 1):
        sigma = np.ones((tree.size, 6))
        for node in range(tree.size):
            if tree.actor[node] == p:
                kids = list(tree.children(node))
                w = rng.random((len(kids), 6)) ** 3
                sigma[kids] = w / w.sum(axis=0)
        out.append(sigma)
    return out[0], out[1]


def _plain_best_response(tree: RoundTree, sigma: tuple[np.ndarray, np.ndarray], best: int) -> float:
    """Player ``best``'s best-response value, by recursion over information sets: at each
    of its nodes, for each of its dice, the child with the highest value given the
    opponent's dice weighted by chance and the opponent's reach."""

    def value(node: int, mine: int, opp_reach: list[float]) -> float:
        actor = int(tree.actor[node])
        if actor < 0:
            code = int(tree.last[node])
            challenger = int(tree.actor[tree.parent[node]])
            total = 0.0
            for other, r in enumerate(opp_reach):
                h0, h1 = (mine, other) if best == 0 else (other, mine)
                true = tree.truth[code][h0, h1] > 0
                loser = challenger if true else 1 - challenger
                total += r / 6 * (1.0 if loser != best else -1.0)
            return total
        kids = list(tree.children(node))
        if actor == best:
            return max(value(c, mine, opp_reach) for c in kids)
        return sum(
            value(c, mine, [r * float(sigma[actor][c, h]) for h, r in enumerate(opp_reach)])
            for c in kids
        )

    return sum(value(0, d, [1.0] * 6) for d in range(6)) / 6


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_vectorised_best_responses_match_a_plain_recursion(seed: int) -> None:
    sigma = _random_sigma(TREE, seed)
    value, br0, br1 = evaluate(TREE, sigma, (-1.0, 1.0))
    assert br0 == pytest.approx(_plain_best_response(TREE, sigma, 0), abs=1e-9)
    assert br1 == pytest.approx(_plain_best_response(TREE, sigma, 1), abs=1e-9)
    assert br0 >= value - 1e-12 and br1 >= -value - 1e-12


def test_cfr_plus_converges_on_the_last_bet_round() -> None:
    few = solve(TREE, (-1.0, 1.0), 20)
    more = solve(TREE, (-1.0, 1.0), 200)
    assert more.exploitability < few.exploitability
    assert more.exploitability < 1e-3
    # the opener's value: about -1/18 (the responder's edge)
    assert more.value == pytest.approx(-1 / 18, abs=2e-3)


def test_the_cache_is_written_read_back_and_a_bad_one_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UMPIRE_CACHE", str(tmp_path))
    fresh = solve_module.solved_round(1, 1, (-1.0, 1.0), 30)
    files = list(tmp_path.glob("*.npz"))
    assert len(files) == 1
    again = solve_module.solved_round(1, 1, (-1.0, 1.0), 30)
    assert np.allclose(again.sigma[0], fresh.sigma[0], atol=1e-6)
    assert again.exploitability == pytest.approx(fresh.exploitability, abs=1e-5)
    files[0].write_bytes(b"not a cache")
    rebuilt = solve_module.solved_round(1, 1, (-1.0, 1.0), 30)
    assert rebuilt.exploitability == pytest.approx(fresh.exploitability, abs=1e-9)


def test_the_played_policy_is_a_distribution_over_legal_moves() -> None:
    from server.games.perudo_actions import Bid

    for die in range(1, 7):
        opening = solve_module.equilibrium_policy(die, [], opener=True)
        assert opening is not None and abs(sum(opening.values()) - 1) < 1e-9
        assert all(Bid.parse(a).quantity <= 2 and not Bid.parse(a).is_aces for a in opening)
        # a bid above the dice on the table is certainly false: doubt it
        assert solve_module.equilibrium_policy(die, [Bid(3, 4)], opener=False) == {"dudo": 1.0}


def test_a_restricted_player_never_makes_a_wrong_move_and_stays_unexploitable() -> None:
    from bots.perudo.endgame.policy import wrong_moves

    base = solve(TREE, (-1.0, 1.0), 100)
    nothing = np.zeros((TREE.size, 6), dtype=bool)
    # an empty restriction changes nothing
    same = solve(TREE, (-1.0, 1.0), 20, 0.0, (nothing, nothing))
    assert same.exploitability == pytest.approx(solve(TREE, (-1.0, 1.0), 20).exploitability)
    both = solve_module.restricted(base, 100, 0.0, (0, 1))
    for p in (0, 1):
        own = np.nonzero(TREE.actor[np.maximum(TREE.parent, 0)] == p)[0]
        own = own[own > 0]
        assert not (both.sigma[p][own] * wrong_moves(TREE, p)[own]).any()
    assert both.exploitability < 3e-3
    # restricting both players in one solve is exploitable: each trusts the other's bids
    joint = solve(TREE, (-1.0, 1.0), 50, 0.0, (wrong_moves(TREE, 0), wrong_moves(TREE, 1)))
    assert joint.exploitability > 0.1
