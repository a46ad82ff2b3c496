"""Account names and password rules: what makes two names the same account, and which
passwords an account may have.

Account names are unique by their *key* (:func:`account_key`): Unicode NFKC, casefolded,
NFKC again (casefolding can undo a normalisation, so the second pass is needed for the key
to be stable: ``account_key(account_key(x)) == account_key(x)``). ``"Ａlice"`` (a
full-width A), ``"ALICE"`` and ``"alice"`` are one account. The display name an account
keeps is the one it claimed, as typed (trimmed, see
:func:`server.players.identity.check_name`).
"""

from __future__ import annotations

import unicodedata

from server.errors import ClientError

#: the fewest and the most characters (code points) a password may have
MIN_PASSWORD = 8
MAX_PASSWORD = 1024
#: bot accounts one account may make
MAX_BOTS = 20
#: the longest ``bot_version`` a bot may say (printable ASCII)
MAX_VERSION = 32


def account_key(name: str) -> str:
    """The key an account name is unique by: ``NFKC(casefold(NFKC(name)))``, with runs of
    whitespace made one space (as display names are)."""
    name = " ".join(name.split())
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def check_password(password: str) -> str:
    """``password`` if an account may have it; raise ``ClientError("bad_password")``.

    Any characters are allowed (a pass phrase, emoji, spaces); only the length is ruled,
    in characters, not bytes: at least :data:`MIN_PASSWORD`, at most
    :data:`MAX_PASSWORD` (the bound keeps hashing cheap for the server)."""
    if len(password) < MIN_PASSWORD:
        raise ClientError("bad_password", f"a password has at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise ClientError("bad_password", f"a password has at most {MAX_PASSWORD} characters")
    return password


def usable_password(password: str) -> bool:
    """Whether ``password`` could be any account's (its length is within the bounds): a
    login with a password no account can have is refused without hashing it."""
    return MIN_PASSWORD <= len(password) <= MAX_PASSWORD
