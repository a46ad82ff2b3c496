"""Solved heads-up Perudo endgames (issue 18).

- :mod:`.tree`: the public tree of one round, as flat arrays;
- :mod:`.cfr`: CFR+ and best responses over it, vectorised with numpy;
- :mod:`.solve`: the solved last-bet round (shipped, else cached on disk), the shipped
  one-die-against-two rounds, and their policies;
- :mod:`.policy`: a solved round's played policy, sparse (what a player can meet only);
- :mod:`.exploit`: the exact exploitability of any bot in the last bet;
- :mod:`.positions`: real engine games at the start of any heads-up round;
- :mod:`.round_exploit`: the exact exploitability of any bot in any heads-up round,
  over the bot's own support (the two-dice-each round included).

See docs/perudo_endgame.md.
"""

from __future__ import annotations
