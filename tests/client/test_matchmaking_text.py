"""Seeks, matches, rematches and tournaments without a server: what each command line
becomes (or the one line that says why nothing is sent), and each frame as text."""

from __future__ import annotations

import pytest

from client_cli import matchmaking
from client_cli.catalogue import Catalogue
from client_cli.commands import parse
from client_cli.state import ClientState, RoomState


def message(line: str, state: ClientState) -> dict[str, object] | None:
    command = parse(line, state)
    assert command.error is None, command.error
    return command.message


def refusal(line: str, state: ClientState) -> str:
    command = parse(line, state)
    assert command.message is None and command.error is not None
    assert "\n" not in command.error
    return command.error


def test_seek_reads_options_rated_range_and_fill(catalogue: Catalogue) -> None:
    state = ClientState(catalogue=catalogue)
    line = "seek kriegspiel rules=cincinnati clock=300+5 rated range 1400-1600 fill 30"
    assert message(line, state) == {
        "type": "seek",
        "game": "kriegspiel",
        "options": {"rules": "cincinnati"},
        "clock": {"base": 300.0, "increment": 5.0},
        "rated": True,
        "rating_range": [1400, 1600],
        "fill_after": 30,
    }
    assert message("seek perudo seats=4 casual range=1600-1200 fill=2.5", state) == {
        "type": "seek",
        "game": "perudo",
        "seats": 4,
        "rated": False,
        "rating_range": [1200, 1600],
        "fill_after": 2.5,
    }


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("seek", "seek GAME [key=value ...] [rated|casual] [range LO-HI] [fill SECONDS]"),
        ("seek chess", "the games are"),
        ("seek kriegspiel range", "range needs a value"),
        ("seek kriegspiel range 1400", "range is LO-HI"),
        ("seek kriegspiel fill soon", "fill is a number of seconds"),
        ("seek kriegspiel fill 0", "fill is a number of seconds"),
        ("seek kriegspiel fill nan", "fill is a number of seconds"),
        ("seek kriegspiel quickly", "expected key=value, rated, casual"),
        ("seek kriegspiel rules=nonsense", "rules is one of"),
        ("seek kriegspiel spectators=after", "a seek takes the game's options"),
        ("seek kriegspiel seats=3", "Kriegspiel is for 2 players"),
        ("take", "take ID"),
        ("take a b", "take ID"),
        ("cancel", "you have no open seek"),
        ("cancel a b", "cancel [ID]"),
        ("tournament", "tournament ID"),
        ("join-tournament", "join-tournament ID"),
        ("leave-tournament x y", "leave-tournament ID"),
        ("rematch", "rematch: only in a finished game's room"),
        ("decline", "decline: only in a finished game's room"),
    ],
)
def test_bad_input_is_one_line_and_nothing_is_sent(
    catalogue: Catalogue, line: str, said: str
) -> None:
    assert said in refusal(line, ClientState(catalogue=catalogue))


def test_bad_input_is_told_in_italian(catalogue: Catalogue) -> None:
    state = ClientState(catalogue=catalogue, lang="it")
    assert refusal("seek kriegspiel range 9", state).startswith("range è MIN-MAX")
    assert refusal("cancel", state).startswith("non hai proposte aperte")


def test_seek_without_the_catalogue_says_so() -> None:
    assert refusal("seek kriegspiel", ClientState()) == (
        "the server's list of games has not come yet"
    )


def test_take_cancel_and_tournament_messages(catalogue: Catalogue) -> None:
    state = ClientState(catalogue=catalogue)
    assert message("take s1", state) == {"type": "take_seek", "seek": "s1"}
    assert message("seeks perudo", state) == {"type": "seeks", "game": "perudo"}
    assert message("tournaments", state) == {"type": "tournaments"}
    assert message("tournament t9", state) == {"type": "tournament", "tournament": "t9"}
    assert message("join-tournament t9", state) == {"type": "join_tournament", "tournament": "t9"}
    assert message("leave-tournament t9", state) == {
        "type": "leave_tournament",
        "tournament": "t9",
    }
    state.apply({"type": "seek_added", "seek": {"id": "s7", "game": "kriegspiel"}})
    assert message("cancel", state) == {"type": "cancel_seek", "seek": "s7"}
    assert message("cancel s3", state) == {"type": "cancel_seek", "seek": "s3"}


def test_rematch_needs_a_finished_game_you_played() -> None:
    state = ClientState()
    state.rooms["r1"] = room = RoomState(room="r1", frame={"state": "playing"}, seat=0)
    state.current = "r1"
    assert refusal("rematch", state) == "rematch: the game is not over yet"
    room.frame["state"] = "finished"
    assert message("rematch", state) == {"type": "rematch", "room": "r1"}
    assert message("decline", state) == {"type": "decline_rematch", "room": "r1"}
    room.seat = None
    assert "only the players" in refusal("rematch", state)


def test_seeks_table_marks_yours_and_says_how_to_take() -> None:
    seeks = [
        {
            "id": "s1",
            "game": "kriegspiel",
            "options": {"rules": "berkeley"},
            "rated": True,
            "rating_range": [1400, 1600],
            "player": {"name": "ann"},
        },
        {"id": "s2", "game": "perudo", "seats": 4, "player": {"name": "bob"}},
    ]
    lines = matchmaking.seeks_lines(seeks, ["s2"])
    assert lines[0] == "Open seeks"
    assert lines[2].split() == ["s1", "kriegspiel", "rules=berkeley", "rated", "1400-1600", "ann"]
    assert lines[3].split() == ["s2", "perudo", "seats=4", "casual", "bob", "(yours)"]
    assert lines[-1].startswith("take ID")
    assert matchmaking.seeks_lines([], lang="it")[1].startswith("Nessuna proposta aperta")


def test_a_seek_added_and_cancelled_are_told_and_remembered() -> None:
    state = ClientState()
    said = state.apply({"type": "seek_added", "seek": {"id": "s1", "game": "perudo"}})
    assert said == [
        "Seek s1 open: perudo, casual. Waiting for an opponent (cancel s1 to withdraw it)."
    ]
    assert state.my_seeks == ["s1"] and [s["id"] for s in state.seeks] == ["s1"]
    assert state.apply({"type": "seek_cancelled", "seek": "s1"}) == ["Seek s1 cancelled."]
    assert state.my_seeks == [] and state.seeks == []


def test_a_match_frame_makes_its_room_current_and_ends_the_seek() -> None:
    state = ClientState()
    state.apply({"type": "seek_added", "seek": {"id": "s1", "game": "kriegspiel"}})
    frame = {
        "type": "match",
        "room": "r5",
        "seat": 1,
        "game": "kriegspiel",
        "source": "seek",
        "ref": "s1",
        "players": [{"name": "ann"}, {"name": "me"}],
    }
    assert state.apply(frame) == ["Matched (seek) with ann: room r5, seat 1. Your game opens."]
    assert state.current == "r5" and state.rooms["r5"].seat == 1
    assert state.rooms["r5"].game == "kriegspiel" and state.my_seeks == []
    it = ClientState(lang="it")
    assert it.apply({**frame, "source": "rematch", "players": []}) == [
        "Partita trovata (rivincita): stanza r5, posto 1. Si apre la partita."
    ]


def test_a_rematch_offer_is_told_once_to_the_other_player() -> None:
    state = ClientState()
    seats = [{"name": "ann"}, {"name": "bob"}]
    state.apply({"type": "joined", "room": "r1", "seat": 1})
    offer = {"type": "room", "room": "r1", "state": "finished", "seats": seats}
    assert state.apply({**offer, "rematch": {"offered": [0]}})[-1] == (
        "ann offer a rematch: type rematch to accept, decline to refuse."
    )
    assert state.apply({**offer, "rematch": {"offered": [0]}}) == []
    assert state.apply({**offer, "rematch": {"offered": [0], "declined": True}}) == [
        "The rematch was declined."
    ]


STANDINGS = {
    "type": "tournament",
    "tournament": {
        "id": "t1",
        "name": "Friday Swiss",
        "game": "kriegspiel",
        "options": {},
        "format": "swiss",
        "rated": True,
        "host": "p1",
        "status": "running",
        "round": 2,
        "rounds": 3,
        "entrants": [
            {"player": "p1", "name": "ann"},
            {"player": "p2", "name": "bob"},
            {"player": "p3", "name": "cid"},
        ],
        "games": [
            {"round": 1, "board": 1, "players": ["p1", "p2"], "room": "r1", "scores": [1.0, 0.0]},
            {"round": 1, "board": 0, "players": ["p3"], "scores": [1.0], "forfeit": False},
            {"round": 2, "board": 1, "players": ["p2", "p1"], "room": "r2"},
        ],
        "standings": [
            {
                "rank": 1,
                "player": "p1",
                "name": "ann",
                "points": 2.0,
                "buchholz": 1.5,
                "sonneborn_berger": 1.0,
                "games": 2,
            },
            {
                "rank": 2,
                "player": "p2",
                "name": "bob",
                "points": 1.5,
                "buchholz": 2.0,
                "sonneborn_berger": 0.5,
                "games": 2,
                "withdrawn": True,
            },
        ],
    },
}


def test_a_tournament_as_text_standings_tiebreaks_and_rounds() -> None:
    lines = matchmaking.tournament_lines(STANDINGS, "en", me="ann")
    assert lines[:4] == [
        "Tournament t1: Friday Swiss",
        "kriegspiel · Swiss · rated · running",
        "round 2 of 3",
        "Standings",
    ]
    assert lines[4].split() == ["#", "player", "points", "Buch.", "S-B", "games"]
    assert lines[5].split() == ["*", "1", "ann", "2", "1.5", "1", "2"]
    assert lines[6].split() == ["2", "bob", "(withdrawn)", "1.5", "2", "0.5", "2"]
    assert lines[7:] == [
        "Rounds",
        "  Round 1",
        "    r1  ann – bob  1–0",
        "    cid  bye",
        "  Round 2",
        "    r2  bob – ann  playing",
    ]
    italian = matchmaking.tournament_lines(STANDINGS, "it")
    assert italian[1] == "kriegspiel · svizzero · valida per il punteggio · in corso"
    assert italian[-1] == "    r2  bob – ann  in corso"


def test_an_arena_shows_points_only_and_its_games() -> None:
    arena = {
        "type": "tournament",
        "tournament": {
            "id": "a1",
            "name": "",
            "game": "perudo",
            "format": "arena",
            "status": "finished",
            "round": 0,
            "rounds": 0,
            "standings": [
                {
                    "rank": 1,
                    "player": "p1",
                    "name": "ann",
                    "points": 4.0,
                    "buchholz": 0.0,
                    "sonneborn_berger": 0.0,
                    "games": 2,
                },
            ],
            "games": [
                {
                    "round": 0,
                    "board": 1,
                    "players": ["p1", "p2"],
                    "room": "r1",
                    "scores": [1.0, 0.0],
                    "forfeit": True,
                },
            ],
            "entrants": [{"player": "p2", "name": "bob"}],
        },
    }
    lines = matchmaking.tournament_lines(arena)
    assert lines[:2] == ["Tournament a1", "perudo · arena · casual · finished"]
    assert lines[3].split() == ["#", "player", "points", "games"]
    assert lines[4].split() == ["1", "ann", "4", "2"]
    assert lines[-2:] == ["  Games", "    r1  ann – bob  1–0 (forfeit)"]


def test_the_tournament_list_and_state() -> None:
    state = ClientState()
    state.apply({"type": "tournaments", "tournaments": [dict(STANDINGS)]})
    state.apply(STANDINGS)
    assert state.tournament["t1"]["name"] == "Friday Swiss"
    lines = matchmaking.tournaments_lines(state.tournaments)
    assert lines[2].split()[:3] == ["t1", "Friday", "Swiss"]
    assert lines[-1].startswith("tournament ID")
    assert matchmaking.tournaments_lines([], "it") == ["Tornei", "Nessun torneo."]


def test_seeks_as_the_server_lists_them_and_a_seek_matched_at_once() -> None:
    state = ClientState(player={"id": "p1", "name": "ana"})
    mine = {
        "id": "s1",
        "player": {"id": "p1", "name": "ana"},
        "game": "kriegspiel",
        "options": {"rules": "wild16"},
        "rated": True,
        "seats": 2,
        "clock": {"base": 300.0, "increment": 2.0},
        "rating": 1523.4,
        "rating_range": [1400.0, 1700.0],
        "status": "open",
    }
    other = {**mine, "id": "s2", "player": {"id": "p2", "name": "bob"}, "rating": None}
    state.apply({"type": "seeks", "game": None, "seeks": [mine, other]})
    assert state.my_seeks == ["s1"]
    lines = matchmaking.seeks_lines(state.seeks, state.my_seeks)
    assert lines[2].split() == [
        "s1",
        "kriegspiel",
        "rules=wild16",
        "clock=300+2",
        "seats=2",
        "rated",
        "1400-1700",
        "ana",
        "(1523)",
        "(yours)",
    ]
    matched = {**other, "id": "s3", "player": {"id": "p1"}, "status": "matched", "room": "r9"}
    assert state.apply({"type": "seek_added", "ref": 4, "seek": matched}) == []
    assert state.my_seeks == ["s1"]
