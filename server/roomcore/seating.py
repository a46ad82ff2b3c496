"""Who sits where: players, house bots, stand-ins and the tickets that open house seats.

A *house seat* is played by the server's side: the autopilot policy, or a house bot client
(``bot``) started out of process that joins with the seat's durable *ticket* (kept in the
game's row, so the same ticket opens the seat again after any restart). A *stand-in* is a
house bot sent to play an absent or slow player's seat; its ticket lasts until the player
is back.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from server.errors import ClientError
from server.players.identity import Player
from server.roomcore.messages import Conn


@dataclass(slots=True)
class Seat:
    """One seat: who holds it and whether the server plays it now."""

    player: Player | None = None
    house: bool = False  # a house seat: the autopilot, or a house bot client (``bot``)
    autopilot: bool = False  # the server plays it now (house autopilot, or player away)
    away_since: float | None = None
    bot: str | None = None  # the house bot client playing this seat

    @property
    def server_played(self) -> bool:
        """True for the house autopilot's seats, which no connection ever plays."""
        return self.house and self.bot is None


def seat_from_id(player_id: str | None, players: dict[str, Player]) -> Seat:
    """A stored seat: a player, the autopilot (``bot-autopilot``) or a house bot
    (``bot-<name>``, whose client is started again)."""
    if player_id is None:
        return Seat()
    player = players.get(player_id)
    if not player_id.startswith("bot-"):
        return Seat(player)
    name = player_id.removeprefix("bot-")
    if name == "autopilot":
        return Seat(player, house=True, autopilot=True)
    return Seat(player, house=True, bot=name)


class Seating:
    """The seats of a room and the connections playing them for the house."""

    def __init__(self, seats: list[Seat], house_tickets: dict[str, str]) -> None:
        self.seats = seats
        #: ticket -> seat: durable house-seat tickets and stand-in tickets
        self.tickets: dict[str, int] = {t: int(s) for s, t in house_tickets.items()}
        #: connections that joined with a ticket -> the seat they play
        self.pilots: dict[Conn, int] = {}
        #: stand-ins sent for absent or slow players: seat -> ticket
        self.standins: dict[int, str] = {}
        self.standin_once: set[int] = set()  # seats whose stand-in makes one move only

    def __len__(self) -> int:
        return len(self.seats)

    def seat_of(self, player: Player | None) -> int | None:
        """The seat ``player`` holds (house seats excluded), or ``None``."""
        if player is None:
            return None
        for index, seat in enumerate(self.seats):
            if seat.player is not None and seat.player.id == player.id and not seat.house:
                return index
        return None

    def free_seat(self, seat: int | None, room_id: str) -> int:
        """The seat to take: ``seat`` if free, else the first free one; raise if none."""
        if seat is None:
            for index, candidate in enumerate(self.seats):
                if candidate.player is None:
                    return index
            raise ClientError("room_full", f"every seat of room {room_id} is taken")
        if not 0 <= seat < len(self.seats) or self.seats[seat].player is not None:
            raise ClientError("seat_taken", f"seat {seat} is taken or does not exist")
        return seat

    def ticket_seat(self, ticket: str, seat: int | None) -> int:
        """The seat ``ticket`` opens; raise if it opens none (or another than ``seat``)."""
        index = self.tickets.get(ticket)
        if index is None or (seat is not None and seat != index):
            raise ClientError("not_your_seat", "this ticket opens no seat here")
        return index

    def house_ticket(self, index: int) -> str:
        """A new durable ticket for house seat ``index`` (the old one stops working)."""
        self.drop_tickets(index)
        ticket = secrets.token_urlsafe(16)
        self.tickets[ticket] = index
        return ticket

    def house_ticket_of(self, index: int) -> str:
        """The durable ticket of house seat ``index`` (made when its bot was added)."""
        return next(t for t, s in self.tickets.items() if s == index)

    def drop_tickets(self, index: int) -> None:
        """Forget every ticket of seat ``index``."""
        for ticket, seat in list(self.tickets.items()):
            if seat == index:
                del self.tickets[ticket]

    def is_standin(self, conn: Conn) -> bool:
        """A house bot standing in for a player's seat (not a house seat of its own)."""
        seat = self.pilots.get(conn)
        return seat is not None and not self.seats[seat].house

    def house_tickets(self) -> dict[str, str]:
        """The durable tickets of house bot seats, as stored in the game's row."""
        return {
            str(seat): ticket
            for ticket, seat in self.tickets.items()
            if self.seats[seat].bot is not None and seat not in self.standins
        }

    def remap(self, taken: list[int]) -> None:
        """Keep only the seats in ``taken`` (a short-handed start), renumbered in order."""
        new_index = {old: new for new, old in enumerate(taken)}
        self.seats = [self.seats[i] for i in taken]
        self.tickets = {t: new_index[s] for t, s in self.tickets.items() if s in new_index}
