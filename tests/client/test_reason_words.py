"""Reason codes are worded in the player's language by the terminal client (issue 30):
the server sends codes (docs/protocol.md, "Reason codes"), never English reasons."""

from __future__ import annotations

from client_cli.games.kriegspiel.model import KriegBoard
from client_cli.games.kriegspiel.words import WORDS as KRIEG_WORDS
from client_cli.games.perudo.model import PerudoModel
from client_cli.games.perudo.words import WORDS
from client_cli.words import Words


def _perudo(lang: str) -> PerudoModel:
    model = PerudoModel(Words(WORDS, lang))
    model.name_seats(["ana", "bob", "eve"])
    model.apply_event({"type": "game_started", "seats": 3, "options": {"dice_per_player": 2}})
    model.apply_event({"type": "round_started", "round": 1, "starter": 0, "palifico": None})
    model.apply_event({"type": "bid", "seat": 0, "bid": "6x6", "next": 1})
    model.apply_event({"type": "challenge", "kind": "dudo", "seat": 1, "bidder": 0, "bid": "6x6"})
    return model


def test_the_bidder_of_a_false_bid_loses_a_die_because_the_bid_was_false() -> None:
    line = _perudo("en").apply_event(
        {"type": "dice_changed", "seat": 0, "change": -1, "reason": "lost_dudo", "out": False}
    )
    assert line == "ana loses a die (the bid was false)."
    line = _perudo("it").apply_event(
        {"type": "dice_changed", "seat": 1, "change": -1, "reason": "lost_dudo", "out": False}
    )
    assert line == "bob perde un dado (Dudo sbagliato)."


def test_game_over_reasons_in_italian() -> None:
    model = _perudo("it")
    over = {"type": "game_over", "ranks": [1, 2, 3], "winners": [0]}
    over["reason"] = "last_player_standing"
    assert model.apply_event(over) == "Partita finita: vince ana (ultimo rimasto in gioco)."
    krieg = KriegBoard(words=Words(KRIEG_WORDS, "it"))
    line = krieg.apply_event(
        {"type": "game_over", "result": "0-1", "reason": "resignation", "winner": "black"}
    )
    assert "abbandono" in line and "resignation" not in line
