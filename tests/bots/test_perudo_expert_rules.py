"""Each situation and rule of the production system, on constructed tables."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.perudo.expert import OpponentProfile, Thresholds, advise
from bots.perudo.expert.rules import RULES, RULES_BY_NAME
from bots.perudo.expert.view import TableView
from server.games.perudo_actions import Bid
from tests.bots.perudo_views import table_views

LEVELS = ("easy", "normal", "hard")


def view(
    dice: list[int],
    counts: list[int],
    bids: list[tuple[int, str]] | None = None,
    seat: int = 0,
    **kw: object,
) -> TableView:
    return TableView.build(seat, dice, counts, bids or [], **kw)  # type: ignore[arg-type]


def test_rules_are_data_ordered_by_salience() -> None:
    assert len(RULES_BY_NAME) == len(RULES)
    saliences = [rule.salience for rule in RULES]
    assert saliences == sorted(saliences, reverse=True)
    assert [r.name for r in RULES if r.repeatable] == ["eliminate-worse"]
    assert {r.phase for r in RULES} >= {"thresholds", "dudo", "bets", "choice"}


def test_source_example_dudo_probability() -> None:
    # [4 2 3 5 5] hears "at least 3 fours" in 15 dice: true with 0.896.
    table = view([4, 2, 3, 5, 5], [5, 5, 5], [(2, "3x4")])
    advice = advise(table, level="easy", seed=1)
    assert advice.dudo_probability == pytest.approx(1 - 0.89595, abs=1e-4)
    assert advice.action != "dudo"
    assert "dudo-probability" in advice.rules_fired


@pytest.mark.parametrize("level", LEVELS)
def test_an_impossible_bid_is_doubted_at_once(level: str) -> None:
    table = view([2, 3, 4, 5, 6], [5, 5], [(1, "7x6")])
    advice = advise(table, level=level, seed=3)
    assert advice.action == "dudo"
    assert advice.probability == 1.0
    assert advice.rules_fired[-1] == "impossible-bid"
    assert "bets-normal" not in advice.rules_fired
    assert "impossible" in advice.explanation_en and "impossibile" in advice.explanation_it


@pytest.mark.parametrize("level", LEVELS)
def test_a_bid_our_own_dice_prove_is_never_doubted(level: str) -> None:
    table = view([5, 5, 1, 5, 2], [5, 5, 5, 5], [(3, "4x5")])
    for seed in range(20):
        advice = advise(table, level=level, seed=seed)
        assert advice.dudo_probability == 0.0
        assert advice.action != "dudo"


def test_situations() -> None:
    normal = advise(view([2, 3], [2, 3, 4]), seed=0)
    assert normal.situation == "normal" and "situation-normal" in normal.rules_fired
    last = advise(view([4], [1, 0, 1]), seed=0)
    assert last.situation == "last_bet"
    assert {"situation-last-bet", "last-bet", "bets-heads-up"} <= set(last.rules_fired)
    blow = advise(view([4, 4, 2], [3, 1]), seed=0)
    assert blow.situation == "final_blow"
    assert {"situation-final-blow", "final-blow", "bets-heads-up"} <= set(blow.rules_fired)
    # Two players, we hold one die and the opponent more: that is a normal situation.
    assert advise(view([4], [1, 3]), seed=0).situation == "normal"


def test_last_bet_opens_on_our_own_die_and_doubts_a_likely_false_bid() -> None:
    assert advise(view([4], [1, 1]), level="easy", seed=0).action == "1x4"
    # We hold a 4; "one 5" is true only if the other die is a 5 or an ace: 1/3.
    advice = advise(view([4], [1, 1], [(1, "1x5")]), level="easy", seed=0)
    assert advice.dudo_probability == pytest.approx(2 / 3)
    assert advice.action == "dudo"


def test_palifico_opponent_locks_the_face() -> None:
    table = view([2, 4, 4, 6, 3], [1, 5, 5, 5], [(0, "1x4")], seat=1, palifico=0)
    for level in LEVELS:
        for seed in range(10):
            advice = advise(table, level=level, seed=seed)
            assert "palifico-opponent" in advice.rules_fired
            assert "bets-palifico-face" in advice.rules_fired
            assert advice.action == "dudo" or Bid.parse(advice.action).face == 4
            assert advice.action in table.legal_actions()


def test_palifico_one_die_may_change_face_and_opens_on_its_die() -> None:
    own = advise(view([3], [1, 5, 5, 5], palifico=0), seed=0)
    assert "palifico-own" in own.rules_fired
    assert Bid.parse(own.action).face == 3
    # Another player holding one die in someone's palifico may change face.
    table = view([6], [1, 5, 1, 5], [(0, "1x4"), (1, "2x4")], seat=2, palifico=0)
    assert any(Bid.parse(a).face != 4 for a in table.legal_actions()[:-1])
    advice = advise(table, seed=0)
    assert "bets-normal" in advice.rules_fired and "bets-palifico-face" not in advice.rules_fired


def test_holding_one_die_bids_safer() -> None:
    table = view([5], [1, 4, 5, 5], [(3, "3x5")])
    advice = advise(table, level="normal", seed=0)
    assert "one-die" in advice.rules_fired
    base = advise(view([5, 2], [2, 4, 5, 5], [(3, "3x5")]), level="normal", seed=0)
    assert advice.thresholds.reliability > base.thresholds.reliability
    assert "one die" in advice.explanation_en and "un solo dado" in advice.explanation_it


def test_pairwise_elimination_leaves_the_best_bet() -> None:
    advice = advise(view([5, 5, 1, 2, 3], [5, 5, 5, 5]), level="hard", seed=0)
    assert advice.rules_fired[-2:] == ("eliminate-worse", "choose-bid")
    assert advice.action == advice.alternatives[0][0]
    assert Bid.parse(advice.action).face == 5


def test_user_thresholds_steer_the_bid() -> None:
    table = view([5, 5, 1, 2, 3], [5, 5, 5, 5])
    safe = advise(table, thresholds=Thresholds(0.0, 0.99), seed=0)
    bold = advise(table, thresholds=Thresholds(0.0, 0.3), seed=0)
    assert safe.thresholds == Thresholds(0.0, 0.99)
    assert safe.probability > bold.probability
    assert Bid.parse(safe.action).quantity < Bid.parse(bold.action).quantity


def test_calza_when_the_room_allows_it() -> None:
    # One die each, ours a 4: "one 4" is certain, exactly one 4 has chance 2/3.
    table = view([4], [1, 1], [(1, "1x4")], calza=True)
    advice = advise(table, level="easy", seed=0)
    assert advice.action == "calza"
    assert advice.probability == pytest.approx(2 / 3)
    assert "calza" in advice.rules_fired
    assert "Calza" in advice.explanation_en and "esatta" in advice.explanation_it
    no_calza = advise(view([4], [1, 1], [(1, "1x4")]), level="easy", seed=0)
    assert no_calza.action != "calza"


def test_profiles_move_the_thresholds() -> None:
    bluffer = OpponentProfile(name="b", bids_revealed=100, bluffs=80)
    quick = OpponentProfile(name="q", dudo_chances=100, dudos=90)
    table = view([5, 5, 1, 2, 3], [5, 5, 5, 5], [(3, "6x4")])
    plain = advise(table, level="hard", seed=0)
    known = advise(table, level="hard", profiles={3: bluffer, 1: quick}, seed=0)
    assert "opponent-profiles" in known.rules_fired
    assert "opponent-profiles" not in plain.rules_fired
    assert known.thresholds.reliability > plain.thresholds.reliability
    assert "bluffs in about" in known.explanation_en and "bluffa" in known.explanation_it
    assert "calls Dudo on about" in known.explanation_en
    # Easy ignores profiles.
    easy = advise(table, level="easy", profiles={3: bluffer, 1: quick}, seed=0)
    assert "opponent-profiles" not in easy.rules_fired


def test_unknown_level_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown level 'expert'"):
        advise(view([2], [1, 1]), level="expert")


def test_auto_level_falls_back_to_normal() -> None:
    assert advise(view([2, 3], [2, 2]), level="auto", seed=0).level == "normal"


def test_same_seed_same_advice() -> None:
    table = view([5, 5, 1, 2, 3], [5, 5, 5, 5], [(1, "4x4"), (2, "5x4"), (3, "6x4")])
    for level in LEVELS:
        assert advise(table, level=level, seed=9) == advise(table, level=level, seed=9)


@settings(max_examples=300, deadline=None)
@given(table=table_views(), seed=st.integers(0, 2**32), level=st.sampled_from(LEVELS))
def test_every_advice_is_legal_and_explained_in_both_languages(
    table: TableView, seed: int, level: str
) -> None:
    advice = advise(table, level=level, seed=seed)
    assert advice.action in table.legal_actions()
    assert 0.0 <= advice.probability <= 1.0
    if advice.rules_fired == ("solved-endgame",):  # issue 18: the solved rounds, 2 v 2 tied
        dice = (len(table.dice), table.counts[table.opponents[0]])
        assert dice in ((1, 1), (1, 2), (2, 1), (2, 2))
        assert advice.situation == {(1, 1): "last_bet", (2, 1): "final_blow"}.get(dice, "normal")
    else:
        assert advice.rules_fired[0] == "set-thresholds"
        assert advice.rules_fired[-1] in ("impossible-bid", "calza", "choose-dudo", "choose-bid")
    en, it = advice.explanation("en"), advice.explanation("it")
    assert en and it and en != it
    if advice.action == "dudo":
        assert en.startswith("Call Dudo") and it.startswith("Di' Dudo")
    elif advice.action != "calza":
        assert en.startswith("Bid at least") and it.startswith("Scommetti almeno")
    # a player reads these: no rule names, no seat codes, correct plurals
    for name in advice.rules_fired:
        assert name not in en and name not in it
    for text in (en, it):
        assert "[" not in text and "seat" not in text and "posto" not in text
        assert not re.search(r"\b1 (dice|volte|dadi|Teste|aces|fours|fives|sixes)\b", text)
    assert not re.search(r"\b(Rules|Situation|probability|Bid|bluff threshold)\b", it)
    if table.palifico is not None and table.last is not None and len(table.dice) != 1:
        assert advice.action == "dudo" or Bid.parse(advice.action).face == table.last[1].face


def test_explanation_language_must_be_known() -> None:
    advice = advise(view([2, 3], [2, 2]), seed=0)
    with pytest.raises(ValueError, match="'en' or 'it'"):
        advice.explanation("fr")


# "Una partita con l'esperto": seat 0 is the expert, 1 Francesco, 2 Claudio, 3 Marta;
# the dice counts follow from the losses the source lists before each turn.


def test_source_game_turn_1_suggests_seven_fours() -> None:
    # Expert's dice 4 2 4 4 6, twenty dice, opening: the system suggested "almeno 7 4".
    table = view([4, 2, 4, 4, 6], [5, 5, 5, 5])
    for level in ("normal", "hard"):
        for seed in range(10):
            assert advise(table, level=level, seed=seed).action == "7x4"


def test_source_game_turn_2_suggests_nine_fives() -> None:
    # Dice 5 5 3 6 4 after 1x5, 4x5, 6x5 (ours), 3 aces, 7x6, 8x5: suggested "almeno 9 5".
    bids = [(2, "1x5"), (3, "4x5"), (0, "6x5"), (1, "3x1"), (2, "7x6"), (3, "8x5")]
    table = view([5, 5, 3, 6, 4], [5, 5, 4, 5], bids)
    actions = [advise(table, level="normal", seed=seed).action for seed in range(10)]
    assert actions.count("9x5") >= 6
    # Hard reads the bids otherwise: Marta raised her own 4x5 to 8x5 and Claudio left
    # fives for sixes, so 8x5 is likelier false than true; it is still a probability.
    hard = advise(table, level="hard", seed=0)
    assert hard.action == "dudo"
    assert hard.dudo_probability is not None and 0.5 < hard.dudo_probability < 1


def test_source_game_turn_12_suggests_dudo() -> None:
    # Dice 6 5 5; 1x6, 2x5 (ours), 3x4, 4x4, then Marta's 5x4: the system said Dudo.
    bids = [(3, "1x6"), (0, "2x5"), (1, "3x4"), (2, "4x4"), (3, "5x4")]
    table = view([6, 5, 5], [3, 1, 2, 3], bids)
    for level in ("easy", "hard"):
        for seed in range(10):
            assert advise(table, level=level, seed=seed).action == "dudo"


def test_source_game_turn_15_suggests_dudo_in_palifico() -> None:
    # Marta, palifico on one die, opens "one 2"; we hold 3 3 6 and no ace counts.
    table = view([3, 3, 6], [3, 0, 2, 1], [(3, "1x2")], palifico=3)
    advice = advise(table, level="easy", seed=0)
    assert advice.action == "dudo"
    assert advice.dudo_probability == pytest.approx((5 / 6) ** 3)


def test_italian_articles_elide_before_vowels() -> None:
    table = view([6, 5, 5], [3, 1, 2, 3], [(3, "1x6"), (0, "2x5"), (1, "3x4"), (2, "4x4")])
    text = " ".join(
        advise(table, level=lvl, seed=s).explanation_it for lvl in LEVELS for s in range(5)
    )
    for wrong in ("del 8", "al 8", "sul 8", "del 11", "al 11"):
        assert wrong not in text


@pytest.mark.parametrize("aces", ["ordinary", "wild_conversion"])
def test_palifico_aces_follow_the_engine(aces: str) -> None:
    # issue 16: in a palifico round aces are an ordinary (lowest) face, no conversion
    from server.games.perudo import PerudoConfig, new_game

    game, _ = new_game(PerudoConfig.from_options({"seats": 3, "palifico_aces": aces}), b"p")
    game.counts = [1, 1, 1]
    game.round.dice = [[4], [5], [2]]
    game.round.palifico = 0
    game.round.starter = game.turn = 0
    game.apply(0, "2x5")
    table = view([5], [1, 1, 1], [(0, "2x5")], seat=1, palifico=0, palifico_aces=aces)
    assert table.legal_actions() == [str(a) for a in game.legal_actions(1)]
    assert ("1x1" in table.legal_actions()) == (aces == "wild_conversion")
    for seed in range(5):
        assert advise(table, seed=seed).action in table.legal_actions()


def test_the_same_situation_gets_the_same_advice() -> None:
    # issue 16: asked four times on one turn, the hint changed each time
    table = view([5, 5, 2, 3, 1], [5, 5, 5, 5], [(3, "8x5")], seat=0)
    first = advise(table)
    for _ in range(3):
        again = advise(table)
        assert (again.action, again.explanation_en) == (first.action, first.explanation_en)


def test_a_hint_is_a_function_of_game_round_seat_and_history() -> None:
    from bots.perudo.expert.hint import perudo_hint
    from server.games.perudo import PerudoConfig, new_game

    game, events = new_game(PerudoConfig.from_options({"seats": 4}), b"same situation")
    assert game.to_move is not None
    events += game.apply(game.to_move, "3x5")
    seat = game.to_move
    assert seat is not None
    stream = [p for e in events if (p := e.view(seat)) is not None]
    first = perudo_hint(game.view(seat), stream)
    assert all(perudo_hint(game.view(seat), stream) == first for _ in range(3))
    assert perudo_hint(game.view(seat), stream, seed=1) is not None  # an explicit seed applies


def test_a_hint_reads_nothing_but_the_seats_projections() -> None:
    from bots.perudo.expert.hint import perudo_hint, table_hint
    from bots.perudo.table import PerudoTable
    from server.games.perudo import PerudoConfig, new_game

    # the room hides dice counts: the seat works them out from its stream
    config = PerudoConfig.from_options({"seats": 3, "show_dice_counts": False})
    game, events = new_game(config, b"projections only")
    assert game.to_move is not None
    events += game.apply(game.to_move, "2x3")
    assert game.to_move is not None
    events += game.apply(game.to_move, "dudo")  # a die is lost: a new round
    assert game.to_move is not None
    events += game.apply(game.to_move, "2x4")
    seat = game.to_move
    assert seat is not None
    stream = [p for e in events if (p := e.view(seat)) is not None]
    assert "counts" not in game.view(seat)
    hint = perudo_hint(game.view(seat), stream)
    # the same as the hint of a PerudoTable that followed the seat's stream
    table = PerudoTable(seat=seat)
    for projection in stream:
        table.observe(projection)
    assert table.counts == game.counts and sum(game.counts) == 14
    assert table_hint(table) == hint
    # other seats' hidden dice are not an input: changing them in the truth changes nothing
    for other in range(3):
        if other != seat:
            game.round.dice[other] = [1] * len(game.round.dice[other])
    again = [p for e in events if (p := e.view(seat)) is not None]
    assert again == stream
    assert perudo_hint(game.view(seat), again) == hint
    # while the seat's own dice are
    game.round.dice[seat] = [6 if d != 6 else 2 for d in game.round.dice[seat]]
    assert perudo_hint(game.view(seat), again) != hint
