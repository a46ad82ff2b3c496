"""Random opaque strings (room ids, invite codes, tokens, secrets) that a person can pass
on a command line: URL-safe base64 like :func:`secrets.token_urlsafe`, never starting
with ``-``, which ``umpire bot --room``, ``--invite`` and ``--token`` (argparse) and most
command-line tools would take for an option; and how a secret a client presents is
checked against one."""

from __future__ import annotations

import hmac
import secrets


def opaque(nbytes: int) -> str:
    """``secrets.token_urlsafe(nbytes)`` drawn again until it does not start with ``-``."""
    text = secrets.token_urlsafe(nbytes)
    while text.startswith("-"):
        text = secrets.token_urlsafe(nbytes)
    return text


def same_secret(given: str | None, secret: str) -> bool:
    """Whether ``given`` (a header's value, decoded as ISO-8859-1, so any character may
    come) is ``secret``, in constant time; never raises (``hmac.compare_digest`` does on
    a text with non-ASCII characters)."""
    if given is None or not secret:
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), secret.encode())
