"""The server's signing key: Ed25519 signatures of each game's final hash (issue 32).

The private key lives in a key file (PEM, PKCS #8), never in the database: whoever can
edit the database could otherwise sign what they wrote. ``umpire serve`` (and
``selfplay``) read it from ``--signing-key PATH``, by default the file beside a SQLite
database (:func:`default_path`: ``umpire.db`` -> ``umpire.db.key``); it is created, mode
0600, on first start. Every node of a cluster is given the same file: the cluster's key.

The public keys, with their ids (:func:`key_id`: the first 16 hex digits of the sha256 of
the raw public key), are kept in the ``signing_keys`` table, each added when a server first
signs with it: after a rotation (a new key file) games signed with an older key still
verify. docs/server.md, "The signing key", tells operators how to keep and rotate it.
"""

from __future__ import annotations

import hashlib
import logging
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from server.errors import StoreError
from server.store.chain import VERSION, canonical
from server.store.contract import Store

log = logging.getLogger(__name__)


def message(game_id: str, final_hash: str) -> bytes:
    """What is signed for a game: its id and final hash, canonically encoded."""
    return canonical([VERSION, "signed", game_id, final_hash])


def key_id(public: bytes) -> str:
    """A public key's id: the first 16 hex digits of the sha256 of its 32 raw bytes."""
    return hashlib.sha256(public).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Signer:
    """A private signing key and its public half (hex) and id."""

    private: Ed25519PrivateKey
    public: str
    key_id: str

    @classmethod
    def of(cls, private: Ed25519PrivateKey) -> Signer:
        raw = private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        return cls(private, raw.hex(), key_id(raw))

    @classmethod
    def generate(cls) -> Signer:
        """A new key, in memory only (tests, a throwaway self-play)."""
        return cls.of(Ed25519PrivateKey.generate())

    def sign(self, game_id: str, final_hash: str) -> str:
        """The signature (hex) of game ``game_id`` ending in ``final_hash``."""
        return self.private.sign(message(game_id, final_hash)).hex()


def verify(public: str, game_id: str, final_hash: str, signature: str) -> bool:
    """Whether ``signature`` (hex) is the key ``public``'s (hex) of that game's end."""
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public))
        key.verify(bytes.fromhex(signature), message(game_id, final_hash))
    except (ValueError, InvalidSignature):
        return False
    return True


def trusted_key(spec: str) -> tuple[str, str]:
    """A public key to trust (``umpire verify --trusted-key``), as its id and public half
    (hex): ``spec`` is the public key in hex (64 digits, as ``welcome`` and ``GET
    /api/signing-keys`` give it) or a PEM file holding a key file's private key or a
    public key. Raise ``StoreError`` (one line naming ``spec``) otherwise."""
    text = spec.strip().lower()
    if len(text) == 64 and all(c in "0123456789abcdef" for c in text):
        raw = bytes.fromhex(text)
    else:
        try:
            data = Path(spec).read_bytes()
        except OSError as exc:
            raise StoreError(
                f"--trusted-key {spec}: neither a public key (64 hex digits) nor a key file "
                f"({exc.strerror})"
            ) from None
        try:
            if b"PRIVATE KEY" in data:
                private = serialization.load_pem_private_key(data, password=None)
                if not isinstance(private, Ed25519PrivateKey):
                    raise ValueError("not an Ed25519 key")
                public = private.public_key()
            else:
                loaded = serialization.load_pem_public_key(data)
                if not isinstance(loaded, Ed25519PublicKey):
                    raise ValueError("not an Ed25519 key")
                public = loaded
        except (ValueError, TypeError) as exc:
            raise StoreError(f"--trusted-key {spec}: not an Ed25519 key (PEM): {exc}") from None
        raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return key_id(raw), raw.hex()


def default_path(db: str) -> str | None:
    """The key file beside a SQLite database (``umpire.db`` -> ``umpire.db.key``); none
    for a PostgreSQL URL (a cluster's nodes are each given the one key file with
    ``--signing-key``: there is no "beside" a shared database)."""
    if db.startswith(("postgresql://", "postgres://")):
        return None
    return db + ".key"


def load(path: str | os.PathLike[str], *, create: bool = True) -> Signer:
    """The key in the key file at ``path``; with ``create``, a new key written there
    (mode 0600, never overwriting a file) when there is none. Raise ``StoreError`` (one
    line naming the path) if it cannot be read, made or parsed."""
    where = Path(path)
    try:
        data = where.read_bytes()
    except FileNotFoundError:
        if not create:
            raise StoreError(f"no signing key file at {where}") from None
        return _create(where)
    except OSError as exc:
        raise StoreError(f"cannot read the signing key {where}: {exc.strerror}") from None
    try:
        private = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as exc:
        raise StoreError(f"{where} is not a signing key (PEM, Ed25519): {exc}") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise StoreError(f"{where} is not an Ed25519 key")
    mode = stat.S_IMODE(where.stat().st_mode)
    if mode & 0o077:
        log.warning("signing key %s can be read by others (mode %o): chmod 600 it", where, mode)
    return Signer.of(private)


def _create(where: Path) -> Signer:
    signer = Signer.generate()
    pem = signer.private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    try:
        fd = os.open(where, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # made meanwhile (another node, another process): use it
        return load(where, create=False)
    except OSError as exc:
        raise StoreError(f"cannot create the signing key {where}: {exc.strerror}") from None
    with os.fdopen(fd, "wb") as out:
        out.write(pem)
        out.flush()
        os.fsync(out.fileno())
    log.info("signing key %s created (key id %s)", where, signer.key_id)
    return signer


def key_path(db: str, signing_key: str | None) -> str:
    """The key file to sign ``db``'s games with: ``signing_key`` (``--signing-key``),
    else the file beside a SQLite ``db``. A PostgreSQL ``db`` has no such default: raise
    ``StoreError`` (one line) rather than sign with a key of the process, which dies with
    it and which no one could trust (``umpire verify`` trusts key files, not the
    database's ``signing_keys``)."""
    path = signing_key or default_path(db)
    if not path:
        raise StoreError(
            "a PostgreSQL knowledge base needs --signing-key PATH, the key file its games "
            "are signed with (created there if missing; every node and self-play run gets "
            "the same file; docs/server.md, the signing key)"
        )
    return path


async def open_signer(store: Store, path: str | os.PathLike[str] | None) -> Signer:
    """The key in the key file ``path`` (made there on first use), its public half kept
    in ``store`` (``signing_keys``) so that every game it signs can be verified. Without a
    path, a key of this process only (never written anywhere; its public half kept)."""
    if path is None:
        signer = Signer.generate()
        log.info("signing with a key of this process only (key id %s)", signer.key_id)
    else:
        known = await store.signing_keys()
        missing = not Path(path).exists()
        signer = load(path)
        if missing and known and signer.key_id not in known:
            log.warning(
                "signing key %s was missing and a new one was made (key id %s), but this "
                "knowledge base's games were signed with %s: if you did not rotate the key, "
                "the key file was lost or removed (docs/server.md, the signing key)",
                path,
                signer.key_id,
                ", ".join(known),
            )
    await store.add_signing_key(signer.key_id, signer.public, time.time())
    return signer
