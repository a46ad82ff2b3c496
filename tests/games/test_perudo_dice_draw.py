"""The fast dice path draws exactly what the published scheme says (``base.draw``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server.games.base import draw
from server.games.perudo_dice import roll_dice


@given(
    seed=st.binary(min_size=0, max_size=80),
    round_number=st.integers(min_value=1, max_value=200),
    seat=st.integers(min_value=0, max_value=7),
    count=st.integers(min_value=0, max_value=6),
)
def test_roll_dice_is_the_published_draw(
    seed: bytes, round_number: int, seat: int, count: int
) -> None:
    expected = [
        draw(seed, f"perudo/round/{round_number}/seat/{seat}/die/{d}", 6) + 1 for d in range(count)
    ]
    assert roll_dice(seed, round_number, seat, count) == expected


def test_a_known_roll_does_not_change() -> None:
    """Pinned from the scheme before the fast path: recorded games must still verify."""
    assert roll_dice(b"fair", 1, 1, 5) == [5, 6, 2, 4, 5]
