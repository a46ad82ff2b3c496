"""``umpire ratings rebuild``: every rating recomputed from the log.

The rated games are read in the order their rating changes were applied (``n``), each
rated again from its stored row alone (``GameRow.rated`` and the result's ranks, through
:func:`server.ratings.plan.plan_for`) starting from the ratings the games before it left,
exactly as ``Store.finish_game`` rated it. The result is compared with what is stored:
every change (seat, key, pool, before, after, time; not ``n``, which a rebuild numbers
afresh from 1) and every player's current ratings. The numbers must be identical, float
for float: the arithmetic is deterministic, and a difference means the stored ratings
did not come from the log (a bug, an edit by hand, another ``openskill`` version).

:func:`rebuild` writes the recomputed ratings (``Store.replace_ratings``, one
transaction) only when asked and only when they differ. Run it with the server stopped: a
game rated while it runs would be overwritten.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from server.ratings.plan import plan_for
from server.store.contract import Rating, RatingChange, RatingKey, Store
from server.store.sql import planned_changes

#: how many differences a report lists (it counts them all)
SHOWN = 20


@dataclass(slots=True)
class Report:
    """What a rebuild found: games and changes recomputed, and every difference with
    what is stored (the first :data:`SHOWN` described)."""

    games: int = 0
    changes: int = 0
    differences: int = 0
    shown: list[str] = field(default_factory=list)
    written: bool = False

    @property
    def identical(self) -> bool:
        """True when the stored ratings are exactly the log's."""
        return self.differences == 0

    def differ(self, text: str) -> None:
        """Count one difference (and describe it, while fewer than SHOWN are)."""
        self.differences += 1
        if len(self.shown) < SHOWN:
            self.shown.append(text)

    def lines(self) -> list[str]:
        """The report as lines of text."""
        verdict = "identical" if self.identical else f"{self.differences} differences"
        lines = [f"{self.games} rated games, {self.changes} rating changes: {verdict}"]
        lines += [f"  - {text}" for text in self.shown]
        if self.differences > len(self.shown):
            lines.append(f"  ... and {self.differences - len(self.shown)} more")
        if self.written:
            lines.append("the recomputed ratings were written")
        return lines


def _same(a: RatingChange, b: RatingChange) -> bool:
    return replace(a, n=0) == replace(b, n=0)


async def recompute(store: Store, report: Report | None = None) -> list[RatingChange]:
    """Every rating change the log gives, in order (numbered from 1), comparing each
    game's with the stored ones in ``report``."""
    report = report if report is not None else Report()
    current: dict[RatingKey, Rating] = {}
    changes: list[RatingChange] = []
    async for row in store.iter_rated_games():
        report.games += 1
        stored = await store.rating_changes(row.id)
        plan = plan_for(row)
        if plan is None:
            report.differ(f"game {row.id}: its row no longer makes a rating plan")
            continue
        before = [current.get(key) for key, _ in plan.seats]
        made = planned_changes(row, plan, before, len(changes) + 1)
        for change in made:
            current[change.key] = change.after
        changes.extend(made)
        if len(stored) != len(made) or not all(map(_same, stored, made)):
            report.differ(f"game {row.id}: stored {_describe(stored)}, log {_describe(made)}")
    report.changes = len(changes)
    players = sorted({key.player for key in current})
    for player in players:
        for rating in await store.ratings(player):
            expected = current.pop(rating.key, None)
            if expected != rating.rating:
                report.differ(f"{_key(rating.key)}: stored {rating.rating}, log {expected}")
    for key, left in sorted(current.items(), key=lambda item: _key(item[0])):
        report.differ(f"{_key(key)}: not stored, log {left}")
    return changes


async def rebuild(store: Store, *, write: bool) -> Report:
    """Recompute every rating and compare; with ``write``, replace the stored ratings by
    the recomputed ones when they differ."""
    report = Report()
    changes = await recompute(store, report)
    if write and not report.identical:
        await store.replace_ratings(changes)
        report.written = True
    return report


def _key(key: RatingKey) -> str:
    version = f"@{key.version}" if key.version else ""
    return f"{key.player}{version} {key.game}/{key.rules}"


def _describe(changes: list[RatingChange]) -> str:
    if not changes:
        return "nothing"
    return "; ".join(
        f"seat {c.seat} {c.before.rating!r}->{c.after.rating!r} (RD {c.after.deviation!r})"
        for c in changes
    )
