"""What the benchmarks share (benchmarks.common): the pieces with a rule to hold."""

from __future__ import annotations

import math
import random

from benchmarks.common import arguments, percentile, renamed, scripted_bid


def test_percentile_is_the_nearest_rank_below() -> None:
    values = [float(v) for v in range(1000, 0, -1)]
    assert percentile(values, 0.99) == 990.0
    assert percentile(values, 0.5) == 500.0
    assert percentile([3.0], 0.95) == 3.0
    assert math.isnan(percentile([], 0.5))


def test_the_scripted_player_raises_low_or_calls_dudo() -> None:
    legal = ["dudo", "5x4", "5x5", "5x6", "6x2", "6x3", "3x1", "7x2"]
    actions = {scripted_bid(legal, 4, random.Random(seed)) for seed in range(200)}
    # dudo three times in ten; a raise at most one above the lowest quantity (3)
    assert actions == {"dudo", "3x1"}
    opening = ["1x2", "1x3", "2x2", "3x2"]
    assert {scripted_bid(opening, 4, random.Random(s)) for s in range(50)} == {
        "1x2",
        "1x3",
        "2x2",
    }
    # past two dice a player, always dudo
    assert {scripted_bid(["dudo", "9x2"], 4, random.Random(s)) for s in range(20)} == {"dudo"}


def test_the_command_line_takes_games_and_a_seed_of_the_defaults_type() -> None:
    parser = arguments("First line,\nstill the first paragraph.\n\nMore.", games=5, seed="1")
    assert parser.description == "First line, still the first paragraph."
    args = parser.parse_args(["--seed", "7"])
    assert (args.games, args.seed) == (5, "7")
    assert arguments(None, seed=3).parse_args(["--seed", "7"]).seed == 7


def test_a_bot_from_before_the_layout_imports_todays_modules() -> None:
    folders = ("bots/kriegspiel/meta", "bots/kriegspiel_meta")
    text = (
        "from bots.sdk import Bot\n"
        "from bots.kriegspiel_meta.search import Searcher\n"
        "from bots.perudo_table import PerudoTable\n"
        "from bots.perudo_endgame.solve import policy\n"
    )
    assert renamed(text, folders, "ks_prev", old=True) == (
        "from bots.sdk.bot import Bot\n"
        "from ks_prev.search import Searcher\n"
        "from bots.perudo.table import PerudoTable\n"
        "from bots.perudo.endgame.solve import policy\n"
    )
    today = "from bots.sdk.bot import Bot\nfrom bots.kriegspiel.meta.search import Searcher\n"
    assert renamed(today, folders, "ks_prev", old=False) == (
        "from bots.sdk.bot import Bot\nfrom ks_prev.search import Searcher\n"
    )
