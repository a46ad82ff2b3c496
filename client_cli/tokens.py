"""The identity token kept between runs, one per server, in the user's config directory.

The file is ``$XDG_CONFIG_HOME/umpire/client.json`` (``~/.config/umpire/client.json`` when
the variable is unset): ``{"servers": {"ws://...": {"last": "ana", "tokens": {"ana": "..."}}}}``.
Each name on each server has its own token, so ``--name bob`` on the same machine is a
different player; without ``--name`` the last name used on that server is taken.
It is written with mode 0600 because the token is the player's only credential.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def config_dir() -> Path:
    """The client's configuration directory (honours ``XDG_CONFIG_HOME``)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "umpire"


@dataclass(frozen=True)
class Identity:
    """A remembered player on one server."""

    token: str
    name: str


class TokenStore:
    """Read and write remembered identities; a missing or damaged file is an empty store."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or config_dir() / "client.json"

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        servers = data.get("servers") if isinstance(data, dict) else None
        return servers if isinstance(servers, dict) else {}

    def load(self, server: str, name: str | None = None) -> Identity | None:
        """The identity remembered for ``name`` (default: the last one used) on ``server``."""
        entry = self._read().get(server)
        if not isinstance(entry, dict) or not isinstance(entry.get("tokens"), dict):
            return None
        name = name if name is not None else entry.get("last")
        token = entry["tokens"].get(name) if isinstance(name, str) else None
        if not isinstance(name, str) or not isinstance(token, str):
            return None
        return Identity(token=token, name=name)

    def _write(self, servers: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # a temporary file of its own: two clients (two `umpire play`) saving at once
        # each replace the file whole, never one the other's half-written temporary
        tmp = self.path.with_suffix(f".{os.getpid()}.{secrets.token_hex(4)}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"servers": servers}, handle, indent=1)
        os.replace(tmp, self.path)

    def save(self, server: str, identity: Identity) -> None:
        """Remember ``identity`` for ``server`` (atomically, readable only by the user)."""
        servers: dict[str, Any] = dict(self._read())
        entry = servers.get(server)
        tokens = (
            dict(entry["tokens"])
            if isinstance(entry, dict) and isinstance(entry.get("tokens"), dict)
            else {}
        )
        tokens[identity.name] = identity.token
        servers[server] = {"last": identity.name, "tokens": tokens}
        self._write(servers)

    def forget(self, server: str, name: str) -> None:
        """Drop ``name``'s token for ``server`` (after the server refused it)."""
        servers: dict[str, Any] = dict(self._read())
        entry = servers.get(server)
        if isinstance(entry, dict) and isinstance(entry.get("tokens"), dict):
            entry["tokens"].pop(name, None)
            self._write(servers)
