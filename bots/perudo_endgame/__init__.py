"""Solved heads-up Perudo endgames (issue 18).

- :mod:`.tree`: the public tree of one round, as flat arrays;
- :mod:`.cfr`: CFR+ and best responses over it, vectorised with numpy;
- :mod:`.solve`: the solved last-bet round (shipped, else cached on disk) and its policy;
- :mod:`.exploit`: the exact exploitability of any bot in that round.

See docs/perudo_endgame.md.
"""

from __future__ import annotations
