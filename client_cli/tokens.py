"""The identity token kept between runs, one per server, in the user's config directory.

The file is ``$XDG_CONFIG_HOME/umpire/client.json`` (``~/.config/umpire/client.json`` when
the variable is unset): ``{"servers": {"ws://...": {"token": "...", "name": "ana"}}}``.
It is written with mode 0600 because the token is the player's only credential.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path


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

    def _read(self) -> dict[str, dict[str, str]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        servers = data.get("servers") if isinstance(data, dict) else None
        return servers if isinstance(servers, dict) else {}

    def load(self, server: str) -> Identity | None:
        """The identity remembered for ``server``, if any."""
        entry = self._read().get(server)
        if not isinstance(entry, dict) or not isinstance(entry.get("token"), str):
            return None
        return Identity(token=entry["token"], name=str(entry.get("name", "")))

    def save(self, server: str, identity: Identity) -> None:
        """Remember ``identity`` for ``server`` (atomically, readable only by the user)."""
        servers = self._read()
        servers[server] = {"token": identity.token, "name": identity.name}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"servers": servers}, handle, indent=1)
        os.replace(tmp, self.path)

    def forget(self, server: str) -> None:
        """Drop the identity for ``server`` (after the server refused its token)."""
        servers = self._read()
        if servers.pop(server, None) is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps({"servers": servers}, indent=1), encoding="utf-8")
