"""Opponent profiles, this game's statistics and the ``auto`` trainer."""

from __future__ import annotations

import pytest

from bots.perudo.expert.profiles import OpponentProfile, TableStats, auto_level


def test_profile_json_round_trip_and_tolerance() -> None:
    profile = OpponentProfile(name="ada", human=True, games=12, wins=5, bids=300, bluffs=20)
    assert OpponentProfile.from_json(profile.to_json()) == profile
    data = {**profile.to_json(), "avatar": "llama.png", "mean_players": 5}
    assert OpponentProfile.from_json(data).mean_players == 5.0
    assert OpponentProfile.from_json({}) == OpponentProfile()
    with pytest.raises(ValueError, match="'games' must be int"):
        OpponentProfile.from_json({"games": "many"})
    with pytest.raises(ValueError, match="'human' must be bool"):
        OpponentProfile.from_json({"human": 1})


def test_rates_start_at_their_priors_and_follow_the_counts() -> None:
    blank = OpponentProfile()
    assert blank.bluff_rate == pytest.approx(0.25)
    assert blank.trust == pytest.approx(1.0)
    assert blank.skill() is None
    liar = OpponentProfile(bids_revealed=200, bluffs=190)
    assert liar.bluff_rate > 0.9 and liar.trust < 0.15
    sharp = OpponentProfile(dudos=50, dudos_correct=45)
    assert sharp.dudo_accuracy > 0.8


def test_combined_adds_counts() -> None:
    stored = OpponentProfile(name="ada", human=True, bids=10, bluffs=2, mean_players=5.0)
    game = OpponentProfile(bids=3, bluffs=1)
    both = stored.combined(game)
    assert (both.name, both.human, both.bids, both.bluffs, both.mean_players) == (
        "ada",
        True,
        13,
        3,
        5.0,
    )


def test_auto_level_like_the_trainer() -> None:
    novice = OpponentProfile(human=True, games=10, wins=0, dudos=20, dudos_correct=4)
    average = OpponentProfile(human=True, games=20, wins=5, dudos=20, dudos_correct=11)
    strong = OpponentProfile(
        human=True,
        games=20,
        wins=12,
        dudos=40,
        dudos_correct=34,
        challenged=30,
        challenged_true=25,
    )
    assert auto_level([]) == "normal"
    assert auto_level([OpponentProfile(human=True)]) == "normal"  # too little known
    assert auto_level([novice]) == "easy"
    assert auto_level([average]) == "normal"
    assert auto_level([novice, strong]) == "hard"
    # Bots' profiles do not count: the trainer adapts to people.
    assert auto_level([novice, OpponentProfile(human=False, games=99, wins=99)]) == "easy"


def test_table_stats_from_public_events() -> None:
    stats = TableStats(3)
    events = [
        {"type": "round_started", "round": 1, "starter": 0, "palifico": None},
        {"type": "bid", "seat": 0, "bid": "3x4"},
        {"type": "bid", "seat": 1, "bid": "4x6"},
        {"type": "bid", "seat": 2, "bid": "5x6"},
        {"type": "challenge", "kind": "dudo", "seat": 0, "bidder": 2, "bid": "5x6"},
        {
            "type": "reveal",
            "bid": "5x6",
            "aces_wild": True,
            "revealed": [
                {"seat": 0, "dice": [4, 4, 2, 3, 5]},
                {"seat": 1, "dice": [2, 2, 3, 3, 5]},
                {"seat": 2, "dice": [6, 1, 6, 2, 2]},
            ],
            "count": 4,
            "complete": True,
            "bid_true": False,
        },
        {"type": "round_started", "round": 2, "starter": 2, "palifico": None},
        {"type": "bid", "seat": 2, "bid": "2x3"},
        {"type": "challenge", "kind": "calza", "seat": 0, "bidder": 2, "bid": "2x3"},
        {
            "type": "reveal",
            "bid": "2x3",
            "aces_wild": True,
            "revealed": [{"seat": 0, "dice": [3, 3, 2, 2, 5]}],
            "count": 2,
            "complete": True,
            "bid_true": True,
        },
    ]
    for event in events:
        stats.observe(event)
    p0, p1, p2 = (stats.profile(s) for s in range(3))
    assert (p0.dudos, p0.dudos_correct, p0.calzas, p0.calzas_correct) == (1, 1, 1, 1)
    assert (p0.bids, p0.bids_revealed, p0.bluffs) == (1, 1, 0)
    assert (p1.bids, p1.bids_revealed, p1.bluffs, p1.dudo_chances) == (1, 1, 1, 1)
    assert (p2.challenged, p2.challenged_true, p2.bids_revealed, p2.bluffs) == (1, 0, 1, 0)
    assert p2.bids == 2
