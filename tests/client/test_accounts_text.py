"""Account commands as parsed, and ratings, leaderboards and profiles as text (English
and Italian), without a server."""

from __future__ import annotations

from typing import Any

import pytest

from client_cli import accounts, commands
from client_cli.catalogue import Catalogue
from client_cli.controller import account_message
from client_cli.state import ClientState

Json = dict[str, Any]

GUEST = {"id": "p000000000001", "name": "ana", "bot": False, "kind": "guest"}
ACCOUNT = {**GUEST, "kind": "account"}


def state(player: Json | None = GUEST, catalogue: Catalogue | None = None) -> ClientState:
    return ClientState(player=player, catalogue=catalogue)


def test_account_commands_parse_and_passwords_never_come_from_the_line(
    catalogue: Catalogue,
) -> None:
    guest, account = state(), state(ACCOUNT, catalogue)
    assert commands.parse("register", guest).local == "register"
    assert commands.parse("register Ana Maria", guest).args == ["Ana Maria"]
    assert commands.parse("register", account).error == "you are already the account ana"
    assert commands.parse("login", guest).error is not None
    login = commands.parse("login ana", guest)
    assert login.local == "login" and login.args == ["ana"]
    assert commands.parse("password", guest).error == (
        "only an account has a password: register first"
    )
    assert commands.parse("password", account).local == "password"
    assert "never typed on the command line" in str(commands.parse("password x", account).error)
    assert commands.parse("logout", guest).message == {"type": "logout", "everywhere": False}
    assert commands.parse("logout everywhere", guest).message == {
        "type": "logout",
        "everywhere": True,
    }
    assert commands.parse("logout now", guest).error == "logout [everywhere]"
    assert commands.parse("profile", guest).message == {"type": "profile"}
    assert commands.parse("profile Ana Maria", guest).message == {
        "type": "profile",
        "name": "Ana Maria",
    }
    assert commands.parse("profile p0123456789ab", guest).message == {
        "type": "profile",
        "player": "p0123456789ab",
    }
    assert commands.parse("leaderboard kriegspiel", account).message == {
        "type": "leaderboard",
        "game": "kriegspiel",
        "pool": "human",
    }
    assert commands.parse("leaderboard Kriegspiel english bots", account).message == {
        "type": "leaderboard",
        "game": "kriegspiel",
        "rules": "english",
        "pool": "bot",
    }
    assert commands.parse("leaderboard", account).error == "leaderboard GAME [RULES] [bots]"
    assert "not 'chess'" in str(commands.parse("leaderboard chess", account).error)
    assert commands.parse("leaderboard a b c", account).error is not None


@pytest.mark.parametrize(
    ("kind", "fields", "error"),
    [
        ("register", {"name": "ana", "password": "short", "again": "short"}, "not 5"),
        ("register", {"name": "ana", "password": "x" * 1025, "again": ""}, "not 1025"),
        ("register", {"name": "ana", "password": "long enough", "again": "other"}, "differ"),
        ("login", {"name": " ", "password": "whatever"}, "no name"),
        ("login", {"name": "ana", "password": ""}, "no password"),
        ("password", {"old": "", "password": "long enough", "again": "long enough"}, "no pass"),
    ],
)
def test_what_the_server_would_refuse_is_not_sent(
    kind: str, fields: dict[str, str], error: str
) -> None:
    with pytest.raises(ValueError, match=error):
        account_message(kind, fields)


def test_account_messages() -> None:
    assert account_message("register", {"name": "ana", "password": "p" * 8, "again": "p" * 8}) == {
        "type": "register",
        "password": "p" * 8,
        "name": "ana",
    }
    assert account_message("login", {"name": " ana ", "password": "pw"}) == {
        "type": "login",
        "v": 1,
        "name": "ana",
        "password": "pw",
    }
    fields = {"old": "old one", "password": "new password", "again": "new password"}
    assert account_message("password", fields) == {
        "type": "change_password",
        "old": "old one",
        "new": "new password",
    }
    with pytest.raises(ValueError, match="le due password sono diverse"):
        account_message("register", {"password": "p" * 8, "again": "q" * 8}, "it")


def test_the_rating_change_of_each_seat() -> None:
    room = {
        "game": "kriegspiel",
        "options": {"rules": "wild16"},
        "seats": [{"seat": 0, "name": "ana"}, {"seat": 1, "name": "kriegspiel-random"}],
        "ratings": [
            {"seat": 0, "player": "p1", "version": "", "before": 1500.0, "after": 1337.8,
             "deviation_before": 350.0, "deviation_after": 290.0, "games": 1,
             "provisional": True},
            {"seat": 1, "player": "bot-kriegspiel-random", "version": "0.1.0", "before": 1500.2,
             "after": 1512.4, "deviation_before": 80.0, "deviation_after": 79.0, "games": 40,
             "provisional": False},
        ],
    }  # fmt: skip
    assert accounts.rating_change_lines(room, 0) == [
        "Rating (kriegspiel wild16): ana (you) 1500 → 1338 (−162), provisional",
        "Rating (kriegspiel wild16): kriegspiel-random 0.1.0 1500 → 1512 (+12)",
    ]
    assert accounts.rating_change_lines(room, None, "it")[0] == (
        "Punteggio (kriegspiel wild16): ana 1500 → 1338 (−162), provvisorio"
    )


LEADERBOARD = {
    "type": "leaderboard",
    "game": "kriegspiel",
    "rules": "wild16",
    "pool": "bot",
    "min_games": 5,
    "entries": [
        {"rank": 1, "player": {"id": "bot-kriegspiel-meta", "name": "kriegspiel-meta",
         "bot": True, "kind": "house"}, "version": "1.2", "rating": 1801.4, "deviation": 60.2,
         "games": 310, "provisional": False},
        {"rank": 2, "player": {"id": "p1", "name": "ana", "bot": False, "kind": "account"},
         "version": "", "rating": 1650.0, "deviation": 150.0, "games": 6, "provisional": True},
    ],
}  # fmt: skip


def test_a_leaderboard_as_text() -> None:
    lines = accounts.leaderboard_lines(LEADERBOARD)
    assert lines[0] == (
        "Leaderboard · kriegspiel · wild16 · bots (at least 5 rated games to appear)"
    )
    assert lines[2].split() == ["1", "kriegspiel-meta", "1.2", "1801", "60", "310"]
    assert lines[3].split() == ["2", "ana", "1650?", "150", "6"]
    assert lines[-1].strip() == "? provisional: the rating is still uncertain"
    italian = accounts.leaderboard_lines({**LEADERBOARD, "entries": []}, "it")
    assert italian == [
        "Classifica · kriegspiel · wild16 · bot (almeno 5 partite valide per comparire)",
        "  Ancora nessuno.",
    ]


def test_a_profile_as_text_with_a_rating_history() -> None:
    frame = {
        "type": "profile",
        "player": ACCOUNT,
        "stats": {"kriegspiel": {"games": 3.0, "wins": 1.0, "win_rate": 1 / 3}},
        "history": [
            {"room": "r3", "game": "kriegspiel", "status": "finished", "seat": 0, "rank": 2,
             "reason": "resignation", "started": 0.0, "finished": 86400.0},
        ],
        "ratings": [
            {"game": "kriegspiel", "rules": "wild16", "version": "", "rating": 1480.0,
             "deviation": 250.0, "games": 3, "provisional": True,
             "history": [[1.0, 1662.0], [2.0, 1540.0], [3.0, 1480.0]]},
        ],
    }  # fmt: skip
    lines = accounts.profile_lines(frame)
    assert lines == [
        "Profile of ana (account)",
        "Ratings",
        "  kriegspiel wild16: 1480? ±250 · 3 games",
        "    █▃▁  1662 → 1480 (−182) over 3 games",
        "    lowest 1480, highest 1662",
        "  ? provisional: the rating is still uncertain",
        "Statistics",
        "  kriegspiel: games 3, win_rate 0.33, wins 1",
        "Recent games",
        "  r3  kriegspiel  finished  seat 0  placed 2  1970-01-02 00:00",
    ]
    italian = accounts.profile_lines({**frame, "ratings": [], "history": []}, "it")
    assert italian[:3] == [
        "Profilo di ana (account)",
        "Punteggi",
        "  ancora nessuna partita valida",
    ]
    assert italian[-1] == "  nessuna"


def test_a_spark_line_is_flat_when_nothing_moved_and_shows_the_newest_points() -> None:
    assert accounts.spark([1500.0, 1500.0]) == "▅▅"
    assert len(accounts.spark([float(i) for i in range(100)])) == accounts.SPARK_POINTS


@pytest.mark.parametrize("code", ["bad_login", "name_taken", "rate_limited", "account_required"])
def test_refusals_are_one_line_in_both_languages(code: str) -> None:
    for lang in ("en", "it"):
        line = accounts.explain(code, "the server's words", lang)
        assert "\n" not in line and line
    assert accounts.explain("weird", "what", "en") == "Refused (weird): what"
