"""``umpire advise``: the source's supporter mode for a physical Perudo table, no server.

You tell it the table (how many players, which seat is yours), then as the game goes: your
dice at each round, each bid, each challenge and how many dice counted. It works out who
loses (or wins back) a die, who starts the next round and when a Palifico round comes, and
whenever it is your turn it suggests your move with the expert's explanation
(:mod:`bots.perudo.expert`). With ``--lang it`` everything it says is in Italian.

Every line the table cannot take is refused with a one-line reason and changes nothing;
``undo`` takes back the last line that changed the table. The commands:
:data:`bots.tools.advise_text.HELP` (``help`` prints them, in Italian with ``--lang it``,
which also accepts Italian commands: ``dadi``, ``dubito``, ``annulla``, ``aiuto``...).
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import TextIO

from bots.perudo.expert import TableView, Thresholds, advise
from bots.perudo.expert.levels import level_named
from bots.perudo.expert.words import bid_en, bid_it, pct
from bots.tools.advise_table import Challenge, PhysicalTable, TableError, TableState
from bots.tools.advise_text import ALIASES, help_text, say
from bots.tools.advise_text import dice as dice_words
from server.games.base import ConfigError, IllegalAction
from server.games.perudo_actions import Bid

#: a bid as typed: quantity x face, ASCII digits (checked further by ``_parse_bid``)
_BID = re.compile(r"([0-9]{1,9})[xX*]([0-9]{1,9})")


class Supporter(PhysicalTable):
    """A physical table as the player reports it, and the expert's advice on it."""

    def __init__(
        self,
        players: int,
        seat: int,
        dice_per_player: int = 5,
        *,
        calza: bool = False,
        palifico: bool = True,
        palifico_aces: str = "ordinary",
        level: str = "normal",
        thresholds: Thresholds | None = None,
        lang: str = "en",
    ) -> None:
        if lang not in ("en", "it"):
            raise ConfigError(f"the supporter speaks 'en' or 'it', not {lang!r}")
        super().__init__(
            players,
            seat,
            dice_per_player,
            calza=calza,
            palifico=palifico,
            palifico_aces=palifico_aces,
            lang=lang,
        )
        self.level = level
        self.thresholds = thresholds
        #: the lines that changed the table, each with the state before it (for ``undo``)
        self.history: list[tuple[str, TableState]] = []

    def view(self) -> TableView:
        """The advisor's view of the table: the player's :class:`PerudoTable`, read as
        the bot reads its own."""
        return TableView.from_table(self.table, self.table.options)

    def suggestion(self) -> str:
        """The expert's move now, with its explanation."""
        if not self.dice:
            return say(self.lang, "need_dice")
        advice = advise(self.view(), level=self.level, thresholds=self.thresholds)
        what = {"dudo": "Dudo!", "calza": "Calza!"}.get(advice.action)
        if what is None:
            what = say(self.lang, "suggest_bid", action=advice.action)
        head = say(self.lang, "suggestion", what=what, pct=pct(advice.probability))
        return f"{head}\n   {advice.explanation(self.lang)}"

    def _bid_words(self, bid: Bid) -> str:
        return f"{bid} ({bid_en(bid) if self.lang == 'en' else bid_it(bid)})"

    def command(self, line: str) -> str | None:
        """Apply one command; return what to print (``None`` to quit).

        A line the table cannot take raises :class:`TableError` with the reason, and the
        table is exactly as it was before the line.
        """
        words = line.split()
        if not words:
            return ""
        head = words[0].lower()
        head = ALIASES.get(head, head)
        if head == "quit":
            return None
        if head == "help":
            return help_text(self.lang)
        if head == "hint":
            return self.suggestion()
        if head == "show":
            return self.show()
        if head == "undo":
            return self.undo()
        before = self.state()
        try:
            reply = self._change(head, words[1:], line)
        except (TableError, IllegalAction, ValueError) as exc:
            self.restore(before)
            reason = exc.reason if isinstance(exc, IllegalAction) else str(exc)
            raise TableError(reason) from None
        except Exception:
            self.restore(before)
            raise
        self.history.append((" ".join(words), before))
        return reply

    def undo(self) -> str:
        """Take back the last line that changed the table."""
        if not self.history:
            raise TableError(say(self.lang, "nothing_to_undo"))
        line, before = self.history.pop()
        self.restore(before)
        return say(self.lang, "undone", line=line)

    def _change(self, head: str, rest: list[str], line: str) -> str:
        """A command that changes the table (it may fail half way: ``command`` restores)."""
        if head == "dice":
            return self._lines(self.new_round(self._numbers(rest, "bad_dice")))
        if head in ("lost", "gained"):
            return self._lines(self.change(self._seat(rest), -1 if head == "lost" else 1))
        if head == "count":
            if len(rest) != 1 or not rest[0].isdecimal():
                raise TableError(say(self.lang, "bad_count", most=sum(self.counts)))
            return self._lines(self.count(int(rest[0])))
        if head == "counts":
            self.set_counts(self._numbers(rest, "bad_counts"))
            return say(self.lang, "counts", in_play=dice_words(sum(self.counts), self.lang))
        if head == "palifico":
            return self._lines(self.declare_palifico(self._seat(rest)))
        if head == "start":
            return self._lines(self.set_starter(self._seat(rest)))
        words = rest if head == "bid" else [head, *rest]
        if len(words) in (2, 3) and words[0].isdecimal():
            what = words[1].lower()
            return self._seat_action(int(words[0]), ALIASES.get(what, what), words[2:])
        raise TableError(say(self.lang, "unknown", line=line.strip()[:40]))

    def _seat_action(self, seat: int, what: str, rest: list[str]) -> str:
        self._seat([str(seat)])
        if what in ("dudo", "calza"):
            count = None
            if rest:
                if not rest[0].isdecimal():
                    raise TableError(say(self.lang, "bad_count", most=sum(self.counts)))
                count = int(rest[0])
            return self._lines(self.challenge(Challenge(seat, what), count))
        if rest:
            raise TableError(say(self.lang, "unknown", line=f"{seat} {what} {' '.join(rest)}"))
        bid = self._parse_bid(what)
        lines = [say(self.lang, "bid", seat=seat, bid=self._bid_words(bid))]
        self.bid(seat, bid)
        if self.next_seat(seat) == self.seat and self.dice:
            lines.append(self.suggestion())
        return "\n".join(lines)

    def _parse_bid(self, text: str) -> Bid:
        """``text`` as a bid, or a refusal that says what is wrong with it."""
        match = _BID.fullmatch(text)
        if match is None:
            raise TableError(say(self.lang, "bad_bid", text=text[:40]))
        quantity, face = int(match[1]), int(match[2])
        if not 1 <= face <= 6:
            raise TableError(say(self.lang, "bad_face", text=text))
        if quantity < 1:
            raise TableError(say(self.lang, "bad_quantity", text=text))
        cap = self.players * self.dice_per_player
        if quantity > cap:
            raise TableError(say(self.lang, "too_high", bid=text, cap=cap))
        try:
            return Bid.parse(text)
        except IllegalAction:
            raise TableError(say(self.lang, "bad_bid", text=text[:40])) from None

    def _lines(self, lines: list[str]) -> str:
        """The table's report, then a suggestion when it is now our move."""
        if self.dice and not self.pending and self.to_move() == self.seat:
            lines.append(self.suggestion())
        return "\n".join(lines)

    def _numbers(self, rest: list[str], error: str) -> list[int]:
        if not rest or not all(w.isdecimal() for w in rest):
            raise TableError(
                say(
                    self.lang,
                    error,
                    players=self.players,
                    most=self.dice_per_player,
                )
            )
        return [int(w) for w in rest]

    def _seat(self, rest: list[str]) -> int:
        if len(rest) != 1 or not rest[0].isdecimal() or not 0 <= int(rest[0]) < self.players:
            raise TableError(say(self.lang, "bad_seat", last=self.players - 1))
        return int(rest[0])

    def show(self) -> str:
        """The table as the advisor sees it."""
        bids = ", ".join(f"{s}:{b}" for s, b in self.bids) or say(self.lang, "none")
        palifico = (
            say(self.lang, "show_normal")
            if self.palifico is None
            else say(self.lang, "show_palifico", seat=self.palifico)
        )
        return say(
            self.lang,
            "show",
            seat=self.seat,
            dice=self.dice or "?",
            counts=self.counts,
            in_play=dice_words(sum(self.counts), self.lang),
            palifico=palifico,
            bids=bids,
        )


#: ``umpire advise --help``: plain text, no reST.
DESCRIPTION = (
    "The Perudo expert as a supporter at a physical table, no server. Tell it the table\n"
    "(players, your seat), then as the game goes your dice, each bid and each challenge\n"
    "with how many dice counted; it works out who loses a die, who starts next and when a\n"
    "Palifico round comes, and suggests your move when it is your turn.\n\n" + help_text("en")
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
        except (TableError, ValueError) as exc:
            reply = f"!! {exc}"
        except Exception as exc:  # a bug: the table is restored, the session goes on
            reply = "!! " + say(supporter.lang, "internal", error=f"{type(exc).__name__}: {exc}")
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
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--players", type=int, required=True, help="players at the table (2..8)")
    p.add_argument("--seat", type=int, default=0, help="your seat, 0 = the first (default 0)")
    p.add_argument("--dice", type=int, default=5, help="dice per player at the start")
    p.add_argument("--calza", action="store_true", help="the table plays calza")
    p.add_argument(
        "--no-palifico", action="store_true", help="the table plays without Palifico rounds"
    )
    p.add_argument(
        "--palifico-aces",
        choices=["ordinary", "wild_conversion"],
        default="ordinary",
        help="in a Palifico round, may a one-die player switch to aces with the halving "
        "rule (wild_conversion) or are aces an ordinary lowest face (ordinary, default)?",
    )
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
            palifico=not args.no_palifico,
            palifico_aces=args.palifico_aces,
            level=args.level,
            thresholds=thresholds,
            lang=args.lang,
        )
    except (ConfigError, ValueError) as exc:
        print(f"umpire advise: {exc}", file=sys.stderr)
        return 2
    interactive = sys.stdin.isatty()
    if interactive:
        print(say(args.lang, "hello", seat=args.seat, players=args.players))
    return run(supporter, sys.stdin, sys.stdout, prompt=interactive)
