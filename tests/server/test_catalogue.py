"""The catalogue of games (server/wire/catalogue.py): what every client is told of every game,
in English and Italian, built from the engines alone; and its ``catalogue`` message over a
real socket."""

from __future__ import annotations

import dataclasses
import typing
from pathlib import Path
from typing import Any

import msgspec
import pytest

from server.games import ConfigError, engine, engine_names, register
from server.games.spec import LANGS
from server.wire import catalogue
from server.wire.catalogue import ROOM_OPTIONS, UnknownLanguage, build
from server.wire.frames import CatalogueFrame, check
from server.wire.protocol import CreateRoom

register("goofspiel", "tests.games.goofspiel")

ROOT = Path(__file__).resolve().parents[2]


class FakeCatalog:
    """Two bots for one game, one with levels, and an advisor for that game only."""

    def __init__(self, game: str) -> None:
        self.game = game

    def bots_for(self, game: str) -> list[str]:
        return ["smart", "dumb"] if game == self.game else []

    def knows(self, spec: str) -> bool:
        return spec.partition(":")[0] in ("smart", "dumb")

    def levels(self, name: str) -> list[str]:
        return ["easy", "hard"] if name == "smart" else []

    def advises(self, game: str) -> bool:
        return game == self.game

    def version(self, name: str) -> str:
        return "2.0" if name == "smart" else ""


def without_texts(frame: CatalogueFrame) -> Any:
    """The frame as JSON with every help text and title blanked (and the language)."""

    def blank(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: "" if k in ("help", "title", "lang") else blank(v) for k, v in value.items()}
        if isinstance(value, list):
            return [blank(v) for v in value]
        return value

    return blank(msgspec.to_builtins(frame))


def texts(frame: CatalogueFrame) -> list[str]:
    """Every help text of a frame."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            found.extend(str(v) for k, v in value.items() if k == "help")
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(msgspec.to_builtins(frame))
    return found


def test_english_and_italian_carry_the_same_keys_and_every_text() -> None:
    frames = {lang: build(lang, FakeCatalog("perudo"), advisor=True) for lang in LANGS}
    english, italian = frames["en"], frames["it"]
    assert without_texts(english) == without_texts(italian)
    for frame in frames.values():
        assert all(text.strip() for text in texts(frame)), "a help text is missing"
    assert texts(english) != texts(italian)  # translated, not copied
    assert {g.name for g in english.games} == set(engine_names())


def test_every_option_of_every_engine_is_described() -> None:
    for name in engine_names():
        config_type: Any = engine(name).config_type
        fields = {f.name for f in dataclasses.fields(config_type)}
        assert set(config_type.OPTIONS) == fields, name
        presets = getattr(config_type, "PRESETS", {})
        assert set(getattr(config_type, "PRESET_HELP", {})) == set(presets), name
    room = set(CreateRoom.__struct_fields__) - {"game", "options", "ref"}
    assert {name for name in ROOM_OPTIONS if "." not in name} == room
    assert [o.name for o in build().room_options] == [
        f for f in CreateRoom.__struct_fields__ if f in room
    ]


def accepted(game: str, name: str, value: Any) -> bool:
    """Whether a game takes ``value`` for option ``name``, alone or with the fewest seats
    (an option may bound the seats: Perudo's max_players)."""
    eng = engine(game)
    for options in ({name: value}, {"seats": eng.min_seats, name: value}):
        try:
            eng.make_config(options)
        except ConfigError:
            continue
        return True
    return False


def test_types_defaults_choices_and_bounds_are_true_to_the_engines() -> None:
    """Every default, every choice and every bound is accepted by the engine, and one step
    past a bound is refused: the catalogue cannot promise what a game refuses."""
    kinds = {"bool": bool, "int": int, "float": float, "str": str}
    for game in build().games:
        eng = engine(game.name)
        defaults = {o.name: o.default for o in game.options}
        eng.make_config({k: v for k, v in defaults.items() if v is not None})
        for option in game.options:
            if option.default is not None:
                assert type(option.default) is kinds[option.type], option
            for choice in option.choices or []:
                assert accepted(game.name, option.name, choice), (option, choice)
            if option.choices:
                assert not accepted(game.name, option.name, "no such choice"), option
            if option.type == "int" and option.min is not None and option.max is not None:
                low, high = int(option.min), int(option.max)
                assert accepted(game.name, option.name, low), option
                assert accepted(game.name, option.name, high), option
                for wrong in (low - 1, high + 1):
                    assert not accepted(game.name, option.name, wrong), (option, wrong)
            if option.name == "seats":
                assert (option.min, option.max) == (game.seats.min, game.seats.max)
        for preset in game.presets:
            eng.make_config({"preset": preset.name})
            assert set(preset.values) <= set(defaults)
    spectators = {o.name: o for o in build().room_options}["spectators"]
    literal = typing.get_args(typing.get_type_hints(CreateRoom)["spectators"])
    assert spectators.choices is not None and set(spectators.choices) == set(literal)
    clock = {o.name: o for o in build().room_options}["clock"]
    assert clock.type == "object" and clock.default is None and clock.fields
    assert [(f.name, f.type, f.max) for f in clock.fields] == [
        ("base", "float", 86400),
        ("increment", "float", 3600),
    ]


def test_bots_hints_and_the_room_options_a_game_takes() -> None:
    frame = build("en", FakeCatalog("kriegspiel"), advisor=True)
    games = {g.name: g for g in frame.games}
    krieg, perudo, goof = games["kriegspiel"], games["perudo"], games["goofspiel"]
    assert [(b.name, b.levels) for b in krieg.bots] == [("smart", ["easy", "hard"]), ("dumb", [])]
    assert krieg.hints and not perudo.hints
    # the autopilot plays only games with a stand-in; so does a turn time
    assert [b.name for b in perudo.bots] == ["autopilot"] == [b.name for b in goof.bots]
    assert "turn_time" in perudo.room_options and "turn_time" not in krieg.room_options
    assert krieg.record_format == "pgn" and perudo.record_format is None
    assert perudo.standin_bot == "perudo-simple" and krieg.standin_bot is None
    # no advisor, no hints; no catalog, no house bots
    assert not any(g.hints for g in build("en", FakeCatalog("kriegspiel")).games)
    assert [b.name for b in {g.name: g for g in build().games}["kriegspiel"].bots] == []


def test_an_unknown_language_is_refused_and_the_frame_is_strict() -> None:
    with pytest.raises(UnknownLanguage, match=r"'fr'.*en, it"):
        build("fr")
    check(msgspec.json.encode(build("it", FakeCatalog("perudo"), advisor=True)))
    published = catalogue.Published(FakeCatalog("perudo"), advisor=True)
    assert published.frame("it") is published.frame("it")


def test_the_catalogue_names_no_game() -> None:
    for module in ("server/wire/catalogue.py", "server/rules_text.py"):
        source = (ROOT / module).read_text().lower()
        for name in engine_names():
            assert name not in source, (module, name)


async def test_the_catalogue_message_over_a_socket(connect: Any) -> None:
    client = await connect()  # before hello: the catalogue is public
    english = await client.request("catalogue", "catalogue", ref=7)
    assert english["ref"] == 7 and english["lang"] == "en"
    games = {g["name"]: g for g in english["games"]}
    assert {"perudo", "kriegspiel", "goofspiel"} <= set(games)
    perudo = games["perudo"]
    assert perudo["hints"] is True and games["kriegspiel"]["hints"] is False
    bots = {b["name"]: b["levels"] for b in perudo["bots"]}
    assert "perudo-expert" in bots and "hard" in bots["perudo-expert"] and "autopilot" in bots
    kriegspiel_bots = {b["name"]: b["levels"] for b in games["kriegspiel"]["bots"]}
    assert "kriegspiel-meta" in kriegspiel_bots and "autopilot" not in kriegspiel_bots
    assert [b["name"] for b in games["goofspiel"]["bots"]] == ["autopilot"]
    rules = {o["name"]: o for o in games["kriegspiel"]["options"]}["rules"]
    assert rules["choices"] == ["wild16", "cincinnati", "rand", "english"]
    await client.hello("ana")
    italian = await client.request("catalogue", "catalogue", lang="it")
    assert italian["lang"] == "it" and "ref" not in italian
    room = {o["name"]: o for o in italian["room_options"]}
    assert room["chat"]["help"] == "true: il tavolo ha una chat"
    await client.send(type="catalogue", lang="fr", ref="x")
    error = await client.error("malformed")
    assert error["ref"] == "x" and "'fr'" in error["message"]
    assert (await client.request("ping", "pong"))["type"] == "pong"  # still served
