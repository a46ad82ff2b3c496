"""Random opaque strings (room ids, invite codes, tokens) that a person can pass on a
command line: URL-safe base64 like :func:`secrets.token_urlsafe`, never starting with
``-``, which ``umpire bot --room``, ``--invite`` and ``--token`` (argparse) and most
command-line tools would take for an option."""

from __future__ import annotations

import secrets


def opaque(nbytes: int) -> str:
    """``secrets.token_urlsafe(nbytes)`` drawn again until it does not start with ``-``."""
    text = secrets.token_urlsafe(nbytes)
    while text.startswith("-"):
        text = secrets.token_urlsafe(nbytes)
    return text
