"""The tamper-evident log: each game's log rows form one hash chain (issue 32).

A game's log is its events, its action records and its chat lines, interleaved in the
one order the room decided them (self-play: the order it played them), and its end. Each
row gets the next position in that order (``pos``, from 1) and its link, stored with it
(``hash``)::

    link(row) = sha256(link(row before) || encoding(row))     (hex; pos 0: genesis(game id))

where the encoding (:func:`encode_action`, :func:`encode_event`, :func:`encode_chat`,
:func:`encode_end`) is canonical JSON (keys sorted, no spaces, UTF-8) of the row's kind,
its position and every column that means something (an action's ``by`` included). The
end's link is the game's **final hash** (``games.final_hash``): it commits to every row
before it and to the game's row at its end (seed and commitment, seats, options,
result), and the server signs it (``server.store.signing``). A reader recomputes the
chain (:func:`check`): an edited row breaks its link, a deleted one leaves a hole in the
positions, two swapped ones break theirs, and a chain recomputed by whoever edited the
database no longer matches the signature, which only the key file can make.

This module is the one place the chain is computed: the journal stamps the rows the room
core and self-play log (:func:`stamp_step` and the others, from the room's own order),
``umpire verify`` checks them. After a restart or a failover the room's chain goes on from
the stored last link (:func:`resume`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import msgspec

from server.store.contract import ActionRow, ChatRow, EventRow, GameRow

#: what the encodings start with: a new version of the chain changes it
VERSION = "umpire-chain/1"

_CANONICAL = msgspec.json.Encoder(order="sorted")


def canonical(value: Any) -> bytes:
    """Canonical JSON: keys sorted, no whitespace, UTF-8 (msgspec's shortest floats)."""
    return _CANONICAL.encode(value)


def genesis(game_id: str) -> str:
    """The link before a game's first row (position 0)."""
    return hashlib.sha256(canonical([VERSION, "genesis", game_id])).hexdigest()


def link(before: str, encoding: bytes) -> str:
    """The link of a row whose encoding is ``encoding``, after the link ``before``."""
    return hashlib.sha256(bytes.fromhex(before) + encoding).hexdigest()


def encode_action(pos: int, action: ActionRow) -> bytes:
    """An action record's encoding at ``pos`` (who decided it included)."""
    fields = [action.n, action.seat, action.action, action.at, action.clocks, action.by]
    return canonical([VERSION, "action", pos, *fields])


def encode_event(pos: int, event: EventRow) -> bytes:
    """An event's encoding at ``pos``."""
    return canonical([VERSION, "event", pos, event.seq, event.source, event.action_n, event.truth])


def encode_chat(pos: int, line: ChatRow) -> bytes:
    """A chat line's encoding at ``pos``."""
    fields = [line.n, line.at, line.channel, line.seat, line.player, line.name, line.text]
    return canonical([VERSION, "chat", pos, *fields])


def encode_end(pos: int, row: GameRow) -> bytes:
    """The end's encoding at ``pos``: the game's row as it ends (its seed revealed)."""
    fields = {
        "id": row.id,
        "game": row.game,
        "options": row.options,
        "settings": row.settings,
        "seats": row.seats,
        "status": row.status,
        "seed": row.seed.hex(),
        "seed_sha256": row.seed_sha256,
        "result": row.result,
        "reason": row.reason,
        "created": row.created,
        "started": row.started,
        "finished": row.finished,
        "rated": row.rated,
    }
    return canonical([VERSION, "end", pos, fields])


@dataclass(frozen=True, slots=True)
class Head:
    """A chain's last link: its position (0: nothing logged yet) and hash."""

    pos: int
    hash: str

    def then(self, encode: Callable[[int], bytes]) -> Head:
        """The head after one more row, ``encode(pos)`` being its encoding."""
        pos = self.pos + 1
        return Head(pos, link(self.hash, encode(pos)))


def start(game_id: str) -> Head:
    """A new game's chain: nothing logged yet."""
    return Head(0, genesis(game_id))


def resume(row: GameRow, *logged: Iterable[ActionRow | EventRow | ChatRow]) -> Head | None:
    """The head of a game's chain from its stored rows (after a restart, on the node
    that takes a room over): its last row's position and link. ``None``: the game is
    unchained (logged before the chain existed) and stays so."""
    if not row.chained:
        return None
    head = start(row.id)
    for rows in logged:
        for r in rows:
            if r.pos is not None and r.hash is not None and r.pos > head.pos:
                head = Head(r.pos, r.hash)
    return head


# -- stamping (the journal's builders) -------------------------------------------------


def stamp_events(
    head: Head | None, events: Sequence[EventRow]
) -> tuple[tuple[EventRow, ...], Head | None]:
    """``events`` at the next positions of the chain, and its head after them."""
    if head is None:
        return tuple(events), None
    out = []
    pos, hashed = head.pos, head.hash
    for e in events:  # (on the room's event loop, for every action: plain constructors)
        pos += 1
        hashed = link(hashed, encode_event(pos, e))
        out.append(EventRow(e.seq, e.source, e.truth, e.action_n, pos, hashed))
    return tuple(out), Head(pos, hashed)


def stamp_action(head: Head | None, action: ActionRow) -> tuple[ActionRow, Head | None]:
    """``action`` at the next position of the chain, and its head after it."""
    if head is None:
        return action, None
    pos = head.pos + 1
    hashed = link(head.hash, encode_action(pos, action))
    a = action
    return ActionRow(a.n, a.seat, a.action, a.at, a.clocks, a.by, pos, hashed), Head(pos, hashed)


def stamp_chat(head: Head | None, line: ChatRow) -> tuple[ChatRow, Head | None]:
    """``line`` at the next position of the chain, and its head after it."""
    if head is None:
        return line, None
    head = head.then(lambda pos: encode_chat(pos, line))
    return replace(line, pos=head.pos, hash=head.hash), head


def stamp_end(head: Head | None, row: GameRow) -> tuple[GameRow, Head | None]:
    """``row`` (the game's end) with its final hash, and the chain's last head."""
    if head is None:
        return replace(row, chained=False, final_hash=None), None
    head = head.then(lambda pos: encode_end(pos, row))
    return replace(row, chained=True, final_hash=head.hash), head


# -- checking (umpire verify) -------------------------------------------------------------


def check(
    row: GameRow, actions: Sequence[ActionRow], events: Sequence[EventRow], chat: Sequence[ChatRow]
) -> tuple[list[str], int]:
    """Every way a chained game's stored rows disagree with its chain (empty: the chain
    holds, and ends in ``row.final_hash``), and how many rows come after the end (chat
    lines said once the game was over: chained after the final hash, so none can be
    slipped in between, but not covered by its signature). The signature is checked
    apart (``server.store.signing``)."""
    rows: list[tuple[int, str, str | None, Callable[[int], bytes]]] = []
    problems: list[str] = []

    def add(pos: int | None, what: str, hashed: str | None, enc: Callable[[int], bytes]) -> None:
        if pos is None:
            problems.append(f"{what} is not in the chain")
        else:
            rows.append((pos, what, hashed, enc))

    for a in actions:
        add(a.pos, f"action {a.n}", a.hash, partial(encode_action, action=a))
    for e in events:
        add(e.pos, f"event {e.seq}", e.hash, partial(encode_event, event=e))
    for c in chat:
        add(c.pos, f"chat line {c.n}", c.hash, partial(encode_chat, line=c))
    if problems:
        return problems, 0
    rows.sort(key=lambda r: r[0])
    if row.final_hash is None:
        return ["the game has no final hash: its end is not in the chain"], 0
    head = start(row.id)
    ended = False
    after = 0
    for pos, what, hashed, enc in rows:
        if pos == head.pos + 2 and not ended:  # the end's place (else a row is missing)
            head = head.then(lambda at: encode_end(at, row))
            if head.hash != row.final_hash:
                return [f"rows are missing at position {pos - 1}, before {what}"], 0
            ended = True
        if pos != head.pos + 1:
            if pos <= head.pos:
                return [f"{what} is at position {pos}, taken already"], 0
            gap = f"{head.pos + 1}" if pos == head.pos + 2 else f"{head.pos + 1}-{pos - 1}"
            return [f"rows are missing at position {gap}, before {what}"], 0
        head = head.then(enc)
        if head.hash != hashed:
            return [f"{what} (position {pos}) does not match its link: edited, or moved"], 0
        if ended and not what.startswith("chat"):
            return [f"{what} comes after the game's end"], 0
        after += ended
    if not ended:
        head = head.then(lambda at: encode_end(at, row))
        if head.hash != row.final_hash:
            return [
                "the chain does not end in the stored final hash: the game's row (seed, "
                "result, seats), or its last rows, were changed or removed"
            ], 0
    return [], after
