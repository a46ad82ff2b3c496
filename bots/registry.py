"""Find bots by name: built-in ones (``perudo-random``) or third-party ones by path.

A spec is a built-in name, optionally with a level after a colon (``perudo-expert:hard``),
or ``package.module:ClassName`` for any importable :class:`~bots.sdk.bot.Bot` subclass.
:func:`load_bot` returns a factory that makes a fresh bot for each game.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import Any

from bots.sdk.bot import Bot, BotError

log = logging.getLogger(__name__)

#: Built-in bots: name -> "module:Class".
BUILTIN: dict[str, str] = {
    "perudo-random": "bots.baseline:PerudoRandom",
    "perudo-simple": "bots.baseline:PerudoSimple",
    "kriegspiel-random": "bots.baseline:KriegspielRandom",
    "perudo-expert": "bots.perudo.expert:PerudoExpert",
    "perudo-search": "bots.perudo.search:PerudoSearch",
    "kriegspiel-meta": "bots.kriegspiel.meta:KriegspielMeta",
}

BotFactory = Callable[[], Bot]


def builtin_names() -> list[str]:
    """The built-in bots' names."""
    return sorted(BUILTIN)


def _import(path: str) -> type[Bot]:
    module_name, _, class_name = path.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BotError(f"bot {path!r}: cannot import {module_name!r}: {exc}") from exc
    cls = getattr(module, class_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise BotError(f"{path!r} is not a Bot subclass")
    return cls


def load_bot(spec: str, **kwargs: Any) -> tuple[str, BotFactory]:
    """Resolve ``spec``; return the bot's display name and a factory of fresh instances.

    ``kwargs`` go to the bot's constructor (e.g. ``seed`` for the random bots); a level
    in the spec (``name:level``) is passed as ``level``.
    """
    if spec in BUILTIN:
        cls = _import(BUILTIN[spec])
        return spec, lambda: cls(**kwargs)
    name, _, rest = spec.partition(":")
    if name in BUILTIN and rest:
        cls = _import(BUILTIN[name])
        return spec, lambda: cls(level=rest, **kwargs)  # type: ignore[call-arg]
    if rest and name not in BUILTIN:
        cls = _import(spec)
        return cls.name if cls.name != "bot" else spec, lambda: cls(**kwargs)
    raise BotError(
        f"unknown bot {spec!r}: use one of {', '.join(builtin_names())} or package.module:ClassName"
    )


class HouseCatalog:
    """The built-in bots, as the server's house-bot catalog (``server.rooms.house.Catalog``):
    the composition root hands it to the server, which never imports bots itself."""

    def bots_for(self, game: str) -> list[str]:
        """The names of the built-in bots that play ``game``."""
        names = []
        for name in builtin_names():
            try:
                _, factory = load_bot(name)
                if game in type(factory()).games:
                    names.append(name)
            except Exception:  # a bot whose module fails to import is simply not offered
                log.warning("house bot %s cannot be loaded", name, exc_info=True)
        return names

    def levels(self, name: str) -> list[str]:
        """The levels the built-in bot ``name`` may be asked for (``name:level``)."""
        try:
            return list(_import(BUILTIN[name]).levels)
        except (KeyError, BotError):
            return []

    def version(self, name: str) -> str:
        """The version of built-in bot ``name`` (its class's ``version``; "" if it has
        none, or if ``name`` is not a built-in bot): what its ratings are kept under."""
        try:
            return _import(BUILTIN[name]).version
        except (KeyError, BotError):
            return ""

    def advises(self, game: str) -> bool:
        """Whether the advisor the composition root hands the server beside this catalog
        (:func:`bots.perudo.expert.hint.perudo_hint`) gives hints for ``game``."""
        from bots.perudo.expert.hint import GAMES

        return game in GAMES

    def knows(self, spec: str) -> bool:
        """Whether ``spec`` names a built-in bot, with a level it has if one is given."""
        name = spec.partition(":")[0]
        if name not in BUILTIN:
            return False
        if spec == name:
            return True
        try:
            load_bot(spec)[1]()
        except Exception:
            return False
        return True
