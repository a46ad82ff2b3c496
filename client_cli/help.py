"""The help text: the rules of both games in brief and the keys of every screen."""

from __future__ import annotations

RULES_TEXT = """\
# Perudo (Liar's dice)

Everyone shakes their dice under a cup and sees only their own. In turn, players bid on
how many dice *on the whole table* show a face: `5x4` means "at least five 4s". Aces
(face 1) are wild: they count for any face, except in a palifico round.

- A raise is more dice of any face, or the same number of a higher face. To bid aces you
  need at least half the quantity (rounded up); from aces back to a face, twice plus one.
- **Dudo**: you doubt the last bid. The cups are shown and counted. If the bid holds, you
  lose a die; otherwise the bidder does.
- **Calza** (when the table allows it): you claim the bid is exactly right. Right: you get a
  die back; wrong: you lose one.
- **Palifico**: the first time a player falls to one die, the next round is palifico: aces
  are not wild, and the face named first is locked (only players with one die may change it).
- The last player with dice wins. The dice are drawn from a seed the server commits to at
  the start and reveals at the end; the replay checks every cup against it.

# Kriegspiel

Chess where you see only your own pieces. An umpire sees both boards. On your turn you
*try* moves; the umpire says "illegal" and you try again, or the move is made and both
players hear what the umpire announces:

- captures (the square, and under most rules whether a pawn or a piece was taken),
- checks (by rank, file, long or short diagonal, or knight),
- pawn tries: whether the side to move has pawn captures (how many, or yes/no, or which
  pawns, by the rule set); under `english` you ask "Are there any?" yourself (`any`), and
  after "yes" you must try a pawn capture.
- Rule sets: `wild16` (ICC; the opponent never hears of your illegal tries), `cincinnati`,
  `rand`, `english`. Mark where you believe enemy pieces are: those marks stay on your
  screen and are never sent.
"""

KEYS_TEXT = """\
# Keys

Everywhere: `?` or `F1` help · `Ctrl+Q` quit · `Escape` back · the command line at the
bottom accepts every `--plain` command (`help` lists them).

**Lobby**: `r` refresh · `Enter` join the highlighted room · `w` watch it · `c` create a
room · `i` join by invite code · `p` replay the highlighted finished room.

**Waiting room**: `b` add the bot named in the bot box · `s` start · `l` leave.

**Perudo**: type `5x4` or pick quantity and face, then `Enter` or **Bid** · `d` dudo ·
`a` calza · `h` hint (the expert's suggestion and why) · `v` replay once finished.

**Kriegspiel**: arrows move the cursor on the board · `Space`/`Enter` choose the square a
piece leaves, then the square it goes to (a promotion asks for the piece: q, r, b, n) ·
`p n b r q k` mark a suspected enemy piece under the cursor · `x` clear it · `y` any? ·
type UCI (`e2e4`) in the command line · `v` replay once finished.

**Replay**: `Right`/`n` next · `Left`/`p` previous · `Home`/`End` first/last · `Escape` back.
"""
