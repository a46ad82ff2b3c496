"""The catalogue of games: what a client needs to offer every game without knowing any.

Per registered engine (:func:`server.games.engine_names`): its name and title, its seat
range, its options (type, default, choices, bounds, help), its presets, the house bots a
host may add (with their levels), whether the server gives hints for it, its stand-in bot
and its record format; then the room options of ``create_room``. Every text is in the
language asked for, one of :data:`LANGS`.

Everything game-specific comes from the engine modules (``Engine.title``, the config
type's ``OPTIONS``, ``PRESETS`` and ``PRESET_HELP``: see :mod:`server.games.spec`); the
house bots and hints come from the catalog of bots and the advisor the composition root
hands the server (:mod:`server.root`). This module names no game and does no I/O: the
server answers the ``catalogue`` message with :func:`build`'s frame, ``umpire rules``
prints it (:mod:`server.rules_text`).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from server.games import engine, engine_names
from server.games.spec import LANGS, Engine, Option, Text
from server.wire.frames import (
    CatalogueBot,
    CatalogueFrame,
    CatalogueGame,
    CatalogueOption,
    CataloguePreset,
    SeatRange,
)
from server.wire.protocol import AUTOPILOT, CreateRoom, Inbound

if TYPE_CHECKING:
    from server.rooms.house import Catalog

__all__ = ["LANGS", "ROOM_OPTIONS", "UnknownLanguage", "build", "check_lang", "game_entry"]

OptionType = Literal["bool", "int", "float", "str", "object"]

#: The room options of ``create_room`` (every game), with their help; the members of an
#: object option are named ``option.member``.
ROOM_OPTIONS: dict[str, Option] = {
    "public": Option(
        Text(
            en="true: the room is listed in the lobby; false: joined by its invite code",
            it="true: il tavolo compare nella sala; false: ci si siede col codice d'invito",
        )
    ),
    "spectators": Option(
        Text(
            en="live (anyone may watch the game in progress), after (only once it is over) or none",
            it="live (chiunque può guardare la partita in corso), after (solo a partita "
            "finita) o none",
        ),
        choices=("live", "after", "none"),
    ),
    "turn_time": Option(
        Text(
            en="seconds a player has for each move, 0 for no limit; when it runs out the "
            "house stand-in plays for the absent player, or in a rated game the player is "
            "out on time (games with a stand-in only)",
            it="secondi per ogni mossa, 0 per nessun limite; allo scadere il sostituto della "
            "casa gioca per l'assente, o in una partita valutata il giocatore è eliminato "
            "per tempo (solo nei giochi con un sostituto)",
        )
    ),
    "clock": Option(
        Text(
            en='a chess clock: {"base": seconds per player, "increment": seconds added per '
            "move}; a player whose time runs out loses (a draw if the opponent cannot win)",
            it='un orologio da scacchi: {"base": secondi per giocatore, "increment": secondi '
            "aggiunti a ogni mossa}; chi finisce il tempo perde (patta se l'avversario non "
            "può vincere)",
        )
    ),
    "clock.base": Option(
        Text(en="seconds per player (more than 0)", it="secondi per giocatore (più di 0)")
    ),
    "clock.increment": Option(
        Text(en="seconds added after each move", it="secondi aggiunti dopo ogni mossa")
    ),
    "autostart": Option(
        Text(
            en="true: the game starts as soon as every seat is taken",
            it="true: la partita comincia appena tutti i posti sono presi",
        )
    ),
    "sit": Option(
        Text(
            en="true: the room's creator takes seat 0",
            it="true: chi crea il tavolo prende il posto 0",
        )
    ),
    "chat": Option(Text(en="true: the room has a chat", it="true: il tavolo ha una chat")),
    "rated": Option(
        Text(
            en="true: the game is rated (only accounts, bot accounts and house bots may sit); "
            "false: casual; null: rated when every seat is held by an account, a bot account "
            "or a house bot, casual when a guest sits",
            it="true: la partita vale per la classifica (si siedono solo account, account bot "
            "e bot della casa); false: amichevole; null: vale per la classifica se ogni posto "
            "è di un account, di un account bot o di un bot della casa, amichevole se siede "
            "un ospite",
        )
    ),
}

#: Room options only for games whose engine has a stand-in policy (``server.rooms.lobby``).
_NEEDS_STANDIN = frozenset({"turn_time"})
#: Whether a game may be rated (by its engine's name).
RatedGames = Callable[[str], bool]
_NO_HELP = Option(Text(en="", it=""))
_SCALARS: dict[Any, OptionType] = {bool: "bool", int: "int", float: "float", str: "str"}


class UnknownLanguage(ValueError):
    """A language the catalogue has no texts in."""


def check_lang(lang: str) -> str:
    """``lang`` if it is one of :data:`LANGS`; else raise :class:`UnknownLanguage`."""
    if lang not in LANGS:
        raise UnknownLanguage(f"no texts in language {lang!r}: ask for one of {', '.join(LANGS)}")
    return lang


def build(
    lang: str = "en",
    catalog: Catalog | None = None,
    *,
    advisor: bool = False,
    rated: RatedGames | None = None,
) -> CatalogueFrame:
    """The catalogue frame in ``lang``: every registered game, then the room options.

    ``catalog`` says which house bots play each game, with their levels, and which games
    its advisor serves; ``advisor`` whether the server has one at all. Without a catalog
    only the autopilot is offered (for games with a stand-in) and no game has hints.
    ``rated`` says which games may be rated (``server.ratings.rules``, a layer above
    this one): only they take the ``rated`` room option (all, without it).
    """
    check_lang(lang)
    games = [
        game_entry(engine(name), lang, catalog, advisor=advisor, rated=rated)
        for name in engine_names()
    ]
    return CatalogueFrame(lang=lang, games=games, room_options=room_options(lang))


def game_entry(
    eng: Engine,
    lang: str,
    catalog: Catalog | None = None,
    *,
    advisor: bool = False,
    rated: RatedGames | None = None,
) -> CatalogueGame:
    """One game's entry of the catalogue, in ``lang`` (``rated``: see :func:`build`)."""
    config_type = eng.config_type
    presets: Mapping[str, Mapping[str, Any]] = getattr(config_type, "PRESETS", {})
    preset_help: Mapping[str, Text] = getattr(config_type, "PRESET_HELP", {})
    bots = []
    if catalog is not None:
        bots = [CatalogueBot(name, catalog.levels(name)) for name in catalog.bots_for(eng.name)]
    if eng.standin_policy is not None:
        bots.append(CatalogueBot(AUTOPILOT, []))
    room = _room_fields()
    if eng.standin_policy is None:
        room = [name for name in room if name not in _NEEDS_STANDIN]
    if rated is not None and not rated(eng.name):
        room = [name for name in room if name != "rated"]
    return CatalogueGame(
        name=eng.name,
        title=eng.title_in(lang),
        seats=SeatRange(eng.min_seats, eng.max_seats),
        options=game_options(config_type, lang),
        presets=[
            CataloguePreset(name, dict(values), _help(preset_help.get(name), lang))
            for name, values in presets.items()
        ],
        bots=bots,
        standin_bot=eng.standin_bot,
        hints=advisor and catalog is not None and catalog.advises(eng.name),
        record_format=eng.record_format,
        room_options=room,
    )


def game_options(config_type: type, lang: str) -> list[CatalogueOption]:
    """The options of a game's config type, in ``lang``: a dataclass's fields with their
    annotated types, or else the default config's options with their values' types."""
    described: Mapping[str, Option] = getattr(config_type, "OPTIONS", {})
    out = []
    for name, kind, default in _fields(config_type):
        option = described.get(name, _NO_HELP)
        out.append(_entry(name, kind, default, option, lang))
    return out


def room_options(lang: str) -> list[CatalogueOption]:
    """The room options of ``create_room`` (its own fields), in ``lang``."""
    return _struct_options(CreateRoom, lang, "", only=_room_fields())


def _room_fields() -> list[str]:
    """create_room's own fields: neither the envelope (``ref``) nor the game and its
    options."""
    skip = {"game", "options", *Inbound.__struct_fields__}
    return [name for name in CreateRoom.__struct_fields__ if name not in skip]


# -- how option types are read -------------------------------------------------------------


def _help(text: Text | None, lang: str) -> str:
    return text.get(lang) if text is not None else ""


def _entry(name: str, kind: Any, default: Any, option: Option, lang: str) -> CatalogueOption:
    """An option's entry from its Python type ``kind`` (``X | None`` and ``Literal``
    included) and what the game says of it."""
    kind = _non_null(kind)
    choices = list(option.choices) if option.choices is not None else None
    if typing.get_origin(kind) is Literal:
        values = typing.get_args(kind)
        choices = choices or [str(v) for v in values]
        kind = type(values[0])
    return CatalogueOption(
        name=name,
        type=_SCALARS.get(kind, "object"),
        default=default,
        choices=choices,
        min=option.min,
        max=option.max,
        help=option.help.get(lang),
        fields=None,
    )


def _non_null(kind: Any) -> Any:
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        rest = [arg for arg in typing.get_args(kind) if arg is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return kind


def _fields(config_type: type) -> list[tuple[str, Any, Any]]:
    """(name, type, default) of every option of a config type."""
    if dataclasses.is_dataclass(config_type):
        hints = typing.get_type_hints(config_type)
        return [
            (f.name, hints[f.name], None if f.default is dataclasses.MISSING else f.default)
            for f in dataclasses.fields(config_type)
            if f.init
        ]
    options = config_type.from_options({}).to_options()  # type: ignore[attr-defined]
    return [(name, type(value), value) for name, value in options.items()]


def _struct_options(
    struct: type[msgspec.Struct], lang: str, prefix: str, only: list[str] | None = None
) -> list[CatalogueOption]:
    """The options a message struct's fields describe (``only`` those named), with
    bounds from their constraints."""
    info = msgspec.inspect.type_info(struct)
    assert isinstance(info, msgspec.inspect.StructType)
    out = []
    for field in info.fields:
        if only is not None and field.name not in only:
            continue
        name = prefix + field.name
        option = ROOM_OPTIONS.get(name, _NO_HELP)
        kind = _non_null_info(field.type)
        default = None if field.default is msgspec.NODEFAULT else field.default
        entry = CatalogueOption(
            name=field.name,
            type="object",
            default=msgspec.to_builtins(default),
            choices=list(option.choices) if option.choices is not None else None,
            min=option.min,
            max=option.max,
            help=option.help.get(lang),
            fields=None,
        )
        if isinstance(kind, msgspec.inspect.StructType):
            entry.fields = _struct_options(kind.cls, lang, name + ".")
        else:
            _read_type(entry, kind)
        out.append(entry)
    return out


def _non_null_info(info: msgspec.inspect.Type) -> msgspec.inspect.Type:
    if isinstance(info, msgspec.inspect.UnionType):
        rest = [t for t in info.types if not isinstance(t, msgspec.inspect.NoneType)]
        if len(rest) == 1:
            return rest[0]
    return info


def _read_type(entry: CatalogueOption, info: msgspec.inspect.Type) -> None:
    """Set ``entry``'s type, choices and bounds from a msgspec type."""
    if isinstance(info, msgspec.inspect.LiteralType):
        entry.type = "str"
        entry.choices = entry.choices or [str(value) for value in info.values]
    elif isinstance(info, msgspec.inspect.BoolType):
        entry.type = "bool"
    elif isinstance(info, msgspec.inspect.IntType | msgspec.inspect.FloatType):
        entry.type = "int" if isinstance(info, msgspec.inspect.IntType) else "float"
        low = info.ge if info.ge is not None else info.gt
        high = info.le if info.le is not None else info.lt
        entry.min = entry.min if low is None else low
        entry.max = entry.max if high is None else high
    elif isinstance(info, msgspec.inspect.StrType):
        entry.type = "str"


class Published:
    """The catalogue one server publishes: built once per language (and again when an
    engine is registered), from the bots' catalog and whether the server has an advisor."""

    def __init__(
        self,
        catalog: Catalog | None = None,
        *,
        advisor: bool = False,
        rated: RatedGames | None = None,
    ) -> None:
        self.catalog = catalog
        self.advisor = advisor
        self.rated = rated
        self._frames: dict[tuple[str, tuple[str, ...]], CatalogueFrame] = {}

    def hints(self, game: str) -> bool:
        """Whether this server gives hints for ``game``: read from its catalogue as
        published (built once), not asked of the bots' catalog again for every hint."""
        return any(entry.name == game and entry.hints for entry in self.frame("en").games)

    def frame(self, lang: str) -> CatalogueFrame:
        """The catalogue frame in ``lang``; raise :class:`UnknownLanguage` for another."""
        key = (lang, engine_names())
        frame = self._frames.get(key)
        if frame is None:
            frame = build(lang, self.catalog, advisor=self.advisor, rated=self.rated)
            self._frames[key] = frame
        return frame
