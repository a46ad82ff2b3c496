"""Issue 29's cosmetic list for Perudo: no "Your dice" once you are out, Calza only where
the room has calza, and at 80x24 the Hint button and the bid placeholder fit."""

from __future__ import annotations

from textual.widgets import Button, Input

from client_cli.app import UmpireApp
from client_cli.games.perudo.screen import PerudoScreen
from client_cli.games.perudo.text import model_of, perudo_lines
from server.net.app import UmpireServer
from tests.client.pilot import RecordingSession, in_the_lobby, until
from tests.client.test_perudo_turn_line import frames


def test_no_your_dice_once_you_are_out() -> None:
    room = frames(["1x2"], [])
    assert any(line.startswith("Your dice") for line in perudo_lines(room))
    model_of(room).table.out = [0]
    assert not any(line.startswith("Your dice") for line in perudo_lines(room))


async def test_at_80x24_calza_hides_and_hint_and_the_placeholder_fit(
    server: UmpireServer,
) -> None:
    session = RecordingSession(f"ws://127.0.0.1:{server.port}", "ana", retry=0.05)
    app = UmpireApp(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await in_the_lobby(app, pilot)
        await app.run_line("create perudo seats=2 dice=5 calza=false")
        await until(pilot, lambda: isinstance(app.screen, PerudoScreen))
        screen = app.screen
        assert isinstance(screen, PerudoScreen)
        room = session.state.room(screen.room_id)
        await app.run_line("bot autopilot")
        await until(pilot, lambda: room.state == "playing")
        await pilot.pause()
        assert not screen.query_one("#calza", Button).display
        assert not screen.check_action("calza", ())
        hint = screen.query_one("#hint_button", Button)
        assert hint.display
        assert hint.region.right <= 80 and hint.region.width > 0
        box = screen.query_one("#bid", Input)
        assert box.content_region.width >= len(box.placeholder)
        await session.close()


def test_a_bid_of_one_die_reads_as_one() -> None:
    from client_cli.games.perudo.model import PerudoModel

    assert PerudoModel().bid_words("1x6") == "1x6 (one 6)"
    assert PerudoModel().bid_words("2x6") == "2x6 (2 6s)"


def test_the_replay_before_the_first_round_says_so() -> None:
    from client_cli.games.perudo.replay import perudo_replay

    room = frames(["1x2"], [])
    model = model_of(room)
    event = {"type": "game_started", "seq": 1, "seats": 2, "options": {"dice_per_player": 2}}
    replay = perudo_replay(room, [event], model.words)
    assert replay.steps[0].panel[0] == "Before the first round"
