"""Umpire's games for learning agents: PettingZoo environments and OpenSpiel games.

These modules need the ``learn`` extra of umpire-games (``pip install -e '.[learn]'`` in
the source folder) and wrap the engines in ``server/games`` without restating a rule:
:mod:`bots.learn.env` (PettingZoo AEC environments), :mod:`bots.learn.perudo_obs` and
:mod:`bots.learn.kriegspiel_obs` (the array encodings), :mod:`bots.learn.openspiel_perudo`
(Perudo as an OpenSpiel game) and :mod:`bots.learn.openspiel_policy` (umpire's bots as
OpenSpiel policies). See docs/learning.md.
"""
