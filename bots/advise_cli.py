"""``umpire advise``: the source's supporter mode for a physical Perudo table, no server.

You tell it the table (how many players, which seat is yours), then as the game goes: your
dice at each round, each bid as it is made, who lost or won a die. Whenever it is your
turn it suggests your move with the expert system's explanation (:mod:`bots.perudo_expert`).

Commands (one per line; seats are numbered from 0, clockwise)::

    dice 3 4 4 1 6      a new round: your dice (the bids are cleared)
    3 5x4               seat 3 bids five 4s (also: bid 3 5x4)
    lost 2              seat 2 lost a die (gained 2: won one back with calza)
    palifico 1          this round is palifico, declared by seat 1
    counts 5 5 4 3      every seat's dice count at once
    hint                the suggestion now (also: ?)
    show                the table as the advisor sees it
    help, quit
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from bots.perudo_expert import TableView, Thresholds, advise
from bots.perudo_expert.levels import level_named
from server.games.base import ConfigError, IllegalAction
from server.games.perudo import PerudoConfig
from server.games.perudo_actions import Bid, raise_error


class Supporter:
    """The state of a physical table as the player reports it."""

    def __init__(
        self,
        players: int,
        seat: int,
        dice_per_player: int = 5,
        *,
        calza: bool = False,
        level: str = "normal",
        thresholds: Thresholds | None = None,
        lang: str = "en",
    ) -> None:
        if not 2 <= players <= 8:
            raise ConfigError("a Perudo table has 2 to 8 players")
        if not 0 <= seat < players:
            raise ConfigError(f"your seat is 0 to {players - 1}")
        PerudoConfig.from_options(
            {"seats": players, "dice_per_player": dice_per_player, "max_players": 8}
        )
        self.players = players
        self.seat = seat
        self.dice_per_player = dice_per_player
        self.calza = calza
        self.level = level
        self.thresholds = thresholds
        self.lang = lang
        self.counts = [dice_per_player] * players
        self.dice: list[int] = []
        self.bids: list[tuple[int, Bid]] = []
        self.palifico: int | None = None

    def next_seat(self, seat: int) -> int:
        """The next seat to the left still holding dice."""
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if self.counts[candidate] > 0:
                return candidate
        return seat

    def view(self) -> TableView:
        """The advisor's view of the table."""
        return TableView.build(
            self.seat,
            self.dice,
            self.counts,
            self.bids,
            palifico=self.palifico,
            calza=self.calza,
            dice_per_player=self.dice_per_player,
            cap=self.players * self.dice_per_player,
        )

    def suggestion(self) -> str:
        """The expert's move now, with its explanation."""
        if not self.dice:
            return "tell me your dice first: dice 3 4 4 1 6"
        advice = advise(self.view(), level=self.level, thresholds=self.thresholds)
        what = {"dudo": "Dudo!", "calza": "Calza!"}.get(advice.action, f"bid {advice.action}")
        return (
            f">> {what}  (probability {advice.probability:.0%})\n   {advice.explanation(self.lang)}"
        )

    def command(self, line: str) -> str | None:
        """Apply one command; return what to print (``None`` to quit)."""
        words = line.split()
        if not words:
            return ""
        head, rest = words[0].lower(), words[1:]
        if head in ("quit", "exit"):
            return None
        if head == "help":
            return __doc__.split("Commands", 1)[1].split("\n", 1)[1].rstrip() if __doc__ else ""
        if head in ("hint", "?"):
            return self.suggestion()
        if head == "show":
            return self.show()
        if head == "dice":
            dice = [int(w) for w in rest]
            if not dice or any(not 1 <= d <= 6 for d in dice):
                raise ValueError("dice are 1 to 6: dice 3 4 4 1 6")
            if len(dice) > self.dice_per_player:
                raise ValueError(f"you cannot hold more than {self.dice_per_player} dice")
            self.dice = dice
            self.counts[self.seat] = len(dice)
            self.bids = []
            self.palifico = None
            return f"round with your dice {dice}; {sum(self.counts)} dice in play"
        if head in ("lost", "gained"):
            seat = self._seat(rest)
            change = -1 if head == "lost" else 1
            self.counts[seat] = max(0, min(self.dice_per_player, self.counts[seat] + change))
            self.bids = []  # the round is over: a new one starts with new dice
            self.dice = []
            self.palifico = None
            out = " (out)" if self.counts[seat] == 0 else ""
            return f"seat {seat} holds {self.counts[seat]} dice{out}"
        if head == "counts":
            counts = [int(w) for w in rest]
            if len(counts) != self.players or any(
                not 0 <= c <= self.dice_per_player for c in counts
            ):
                raise ValueError(f"give {self.players} counts of 0 to {self.dice_per_player}")
            self.counts = counts
            return f"{sum(counts)} dice in play"
        if head == "palifico":
            self.palifico = self._seat(rest)
            return f"palifico round declared by seat {self.palifico}: aces are not wild"
        if head == "bid":
            words = rest
        if len(words) == 2 and words[0].isdigit():
            return self._bid(int(words[0]), words[1])
        raise ValueError(f"unknown command {line.strip()!r}: type help")

    def _seat(self, rest: list[str]) -> int:
        if len(rest) != 1 or not rest[0].isdigit() or not 0 <= int(rest[0]) < self.players:
            raise ValueError(f"name a seat 0 to {self.players - 1}")
        return int(rest[0])

    def _bid(self, seat: int, text: str) -> str:
        if not 0 <= seat < self.players:
            raise ValueError(f"name a seat 0 to {self.players - 1}")
        bid = Bid.parse(text)
        if self.bids:
            error = raise_error(self.bids[-1][1], bid)
            if error is not None and self.palifico is None:
                raise ValueError(error)
        self.bids.append((seat, bid))
        lines = [f"seat {seat} bids {bid}"]
        if self.next_seat(seat) == self.seat and self.dice:
            lines.append(self.suggestion())
        return "\n".join(lines)

    def show(self) -> str:
        """The table as the advisor sees it."""
        bids = ", ".join(f"{s}:{b}" for s, b in self.bids) or "none"
        return (
            f"you are seat {self.seat}; your dice {self.dice or '?'}; counts {self.counts} "
            f"({sum(self.counts)} in play); palifico {self.palifico}; bids {bids}"
        )


def run(supporter: Supporter, lines: TextIO, out: TextIO, prompt: bool) -> int:
    """Read commands from ``lines`` until the end or ``quit``."""
    while True:
        if prompt:
            out.write("advise> ")
            out.flush()
        line = lines.readline()
        if not line:
            return 0
        try:
            reply = supporter.command(line)
        except (ValueError, IllegalAction) as exc:
            reply = f"!! {exc}"
        if reply is None:
            return 0
        if reply:
            out.write(reply + "\n")
            out.flush()


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``umpire advise`` to the main parser."""
    p = sub.add_parser(
        "advise",
        help="the Perudo expert as a supporter at a physical table (no server)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--players", type=int, required=True, help="players at the table (2..8)")
    p.add_argument("--seat", type=int, default=0, help="your seat, 0 = the first (default 0)")
    p.add_argument("--dice", type=int, default=5, help="dice per player at the start")
    p.add_argument("--calza", action="store_true", help="the table plays calza")
    p.add_argument("--level", choices=["easy", "normal", "hard"], default="normal")
    p.add_argument("--bluff", type=float, help="your bluff threshold, 0..1")
    p.add_argument("--reliability", type=float, help="your reliability threshold, 0..1")
    p.add_argument("--lang", choices=["en", "it"], default="en")
    p.set_defaults(func=cmd_advise)


def cmd_advise(args: argparse.Namespace) -> int:
    """``umpire advise``."""
    try:
        thresholds = None
        if args.bluff is not None or args.reliability is not None:
            own = level_named(args.level).thresholds
            thresholds = Thresholds(
                own.bluff if args.bluff is None else args.bluff,
                own.reliability if args.reliability is None else args.reliability,
            )
        supporter = Supporter(
            args.players,
            args.seat,
            args.dice,
            calza=args.calza,
            level=args.level,
            thresholds=thresholds,
            lang=args.lang,
        )
    except (ConfigError, ValueError) as exc:
        print(f"umpire advise: {exc}", file=sys.stderr)
        return 2
    interactive = sys.stdin.isatty()
    if interactive:
        print(f"Perudo supporter: you are seat {args.seat} of {args.players}. Type help.")
    return run(supporter, sys.stdin, sys.stdout, prompt=interactive)
