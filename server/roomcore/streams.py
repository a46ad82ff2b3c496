"""The room's event log and every viewer's numbered stream of projections.

Sequence numbers are per viewer (each seat, and spectators): the k-th event a viewer may
see is its number k, so every stream is gap-free and an event a viewer learns nothing of
leaves no trace in that viewer's stream (no placeholder, no skipped number): under
Kriegspiel's wild16 rules even the fact that the opponent tried an illegal move stays
secret. ``resume`` re-sends a viewer's stream after its own number; a frame re-sent is
byte-identical to the one sent the first time.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from server.games.base import Event
from server.wire.protocol import encode_bytes

Viewer = int | None


class Streams:
    """The log of one game and which of its events each viewer sees."""

    def __init__(self, room_id: str, seats: int) -> None:
        self.room_id = room_id
        self.log: list[Event] = []
        self._visible: dict[Viewer, list[int]] = {v: [] for v in [*range(seats), None]}

    def reset(self, seats: int) -> None:
        """Start again with ``seats`` seats (before the game starts only)."""
        assert not self.log
        self._visible = {v: [] for v in [*range(seats), None]}

    def append(self, events: Sequence[Event]) -> int:
        """Log ``events``; return the log index of the first."""
        base = len(self.log)
        visible = self._visible
        for index, event in enumerate(events, start=base):
            if event.spectator is not None and None not in event.seats:
                for stream in visible.values():  # (most events: every viewer sees them)
                    stream.append(index)
                continue
            for viewer, stream in visible.items():
                if event.view(viewer) is not None:
                    stream.append(index)
        self.log.extend(events)
        return base

    def seq(self, viewer: Viewer) -> int:
        """The number of the newest event ``viewer`` may see (its stream's length)."""
        return len(self._visible.get(viewer, ()))

    def seq_before(self, viewer: Viewer, base: int) -> int:
        """How many events of ``viewer``'s stream come before log index ``base``."""
        return bisect_left(self._visible.get(viewer, []), base)

    def frame(self, seq: int, projection: dict[str, object]) -> str:
        """The ``event`` frame carrying ``projection`` as number ``seq``."""
        body = encode_bytes(projection).decode()
        return f'{{"type":"event","room":"{self.room_id}","seq":{seq},"event":{body}}}'

    def frames(self, viewer: Viewer, base: int, cache: dict[tuple[int, int], str]) -> list[str]:
        """The frames ``viewer`` gets for the events logged from index ``base`` on.

        ``cache`` shares encoded frames between viewers who see the same projection under
        the same number (pass one dict per broadcast).
        """
        stream = self._visible.get(viewer)
        if not stream or stream[-1] < base:
            return []
        seq = bisect_left(stream, base)
        log = self.log
        out = []
        for index in stream[seq:]:  # (the few events of one broadcast)
            seq += 1
            event = log[index]
            # (Event.view, inlined: called for every viewer of every event)
            projection = event.spectator if viewer is None else event.seats[viewer]
            assert projection is not None
            key = (seq, id(projection))
            text = cache.get(key)
            if text is None:
                text = cache[key] = self.frame(seq, projection)
            out.append(text)
        return out

    def projections(self, viewer: Viewer) -> list[dict[str, object]]:
        """``viewer``'s whole stream so far, oldest first: the projections themselves (what
        its frames carry), for a service that must know no more than the viewer does."""
        out = []
        for index in self._visible.get(viewer, []):
            projection = self.log[index].view(viewer)
            assert projection is not None
            out.append(projection)
        return out

    def since(self, viewer: Viewer, since: int) -> list[str]:
        """Every frame of ``viewer``'s stream after its number ``since``."""
        stream = self._visible.get(viewer, [])
        out = []
        for seq, index in enumerate(stream[since:], start=since + 1):
            projection = self.log[index].view(viewer)
            assert projection is not None
            out.append(self.frame(seq, projection))
        return out
