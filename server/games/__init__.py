"""Sans-I/O rules engines and the registry that names them.

Each engine module exports ``ENGINE``, an :class:`~server.games.spec.Engine`: its config
class, ``new_game(config, seed)``, seat range, statistics, verification, records and
stand-in policy. :func:`engine` looks one up by the name rooms and logs use ("perudo",
"kriegspiel"); :func:`register` adds another at run time (the tests add Goofspiel).
"""

from __future__ import annotations

import importlib

from server.games.base import ConfigError
from server.games.spec import Engine

__all__ = ["ConfigError", "Engine", "engine", "engine_names", "register"]

#: Engine name -> module path. Modules are imported on first use.
_MODULES = {
    "perudo": "server.games.perudo",
    "kriegspiel": "server.games.kriegspiel",
}


def register(name: str, module_path: str) -> Engine:
    """Add the engine module at ``module_path`` under ``name`` and return its engine.

    The module must export ``ENGINE`` named ``name``. Registering the same module again is
    harmless; another module under a taken name is a ``ValueError``.
    """
    known = _MODULES.get(name)
    if known is not None and known != module_path:
        raise ValueError(f"engine {name!r} is already registered as {known}")
    spec = _load(name, module_path)
    _MODULES[name] = module_path
    return spec


def engine_names() -> tuple[str, ...]:
    """The names of all engines, in a stable order (built-in ones first)."""
    return tuple(_MODULES)


def engine(name: str) -> Engine:
    """The engine called ``name``; raise :class:`ConfigError` for an unknown name."""
    path = _MODULES.get(name) if isinstance(name, str) else None
    if path is None:
        raise ConfigError(f"unknown game {name!r}: choose one of {', '.join(_MODULES)}")
    return _load(name, path)


def _load(name: str, module_path: str) -> Engine:
    spec = getattr(importlib.import_module(module_path), "ENGINE", None)
    if not isinstance(spec, Engine):
        raise TypeError(f"{module_path} exports no ENGINE (a server.games.spec.Engine)")
    if spec.name != name:
        raise ValueError(f"{module_path} is the engine {spec.name!r}, not {name!r}")
    return spec
