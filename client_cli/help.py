"""The help: the commands, the keys of every screen, and each game's rules.

The parts every game shares are here; each game's rules, keys and commands come from its
module (:mod:`client_cli.games`), and each game's options from the server's catalogue.
"""

from __future__ import annotations

import textwrap

from client_cli import accounts, games, matchmaking
from client_cli.catalogue import Catalogue

WIDTH = 88

COMMANDS_HELP = """\
Lobby
  rooms [GAME] [PAGE]              list the public rooms, 30 a page (rooms 2: the next)
  create GAME [key=value ...]      make a room with the game's options (listed below):
                                   seats=3 preset=NAME clock=300+5 turn_time=30
                                   private spectators=after noautostart
  join ROOM [SEAT]                 take a seat in a public room
  invite CODE [SEAT]               take a seat in a private room by its invite code
  watch ROOM                       watch as a spectator
  bot [NAME] [SEAT]                add a house bot (the bot box suggests the game's)
  start                            start now (host)
  leave                            leave the current room
  say TEXT                         chat (players and spectators have their own channels)
  room ROOM                        look at another room you follow
  hint [bluff=0.3] [reliability=0.6] [lang=it]   ask for a suggestion (games with hints)"""

EVERY_GAME = """\
Every game
  legal                            the actions you may send now
  show                             the table or board as text
  act ACTION                       send an action as the game spells it
  wait turn|start|end|match        wait for your turn, the start, the end, or a match
                                   (a seek paired, a rematch, a tournament round: scripts)
  replay [ROOM]                    replay a finished game with everything revealed
  help | quit"""

KEYS_TEXT = """\
# Keys

Everywhere: `?` or `F1` help · `Ctrl+Q` quit · `Escape` back · the command line at the
bottom accepts every `--plain` command (`help` lists them).

**Lobby**: `r` refresh · `Enter` join the highlighted room · `w` watch it · `c` create a
room · `i` join by invite code · `p` replay the highlighted finished room · `k` the open
seeks · `t` the tournaments.

**Seeks**: `Enter` take the highlighted seek · `x` cancel yours · `n` a new seek · `r` refresh.
**Tournament**: `j` join · `l` leave · `r` refresh (the standings follow by themselves).
**Every room**, once its game is over: `m` offer (or accept) a rematch.

**Waiting room**: `b` add the bot named in the bot box · `s` start · `l` leave.

**Profile**: `Enter` on a recent game opens its replay · `Escape` back.
**Leaderboard**: `Enter` on a row opens that player's profile · `Escape` back.
**Password forms** (`register`, `login`, `password`): `Tab` next field · `Enter` send ·
`Escape` cancel; what you type is never shown.

**Replay**: `Right`/`n` next · `Left`/`p` previous · `Home`/`End` first/last · `Escape` back.
"""


def _shown(catalogue: Catalogue | None) -> list[str]:
    """The games to explain: the server's, else every game this client knows."""
    return catalogue.names if catalogue is not None else list(games.names())


def option_lines(catalogue: Catalogue | None) -> list[str]:
    """Each game's ``create`` options and presets, and the options every room takes."""
    if catalogue is None:
        return ["(the server's games and their options come once connected)"]
    lines = []
    for game in catalogue.games:
        options = " ".join(option.describe() for option in game.options)
        seats = f"{game.seats.min}..{game.seats.max}"
        lines.append(f"create {game.name}  (seats {seats}) {options}".rstrip())
        for preset in game.presets:
            lines.append(f"    preset={preset.name}: {preset.help}".rstrip(": "))
        if game.bots:
            lines.append(f"    bots: {', '.join(bot.name for bot in game.bots)}")
    rooms = " ".join(option.describe() for option in catalogue.room_options)
    lines.append(f"every room (where its game takes them): {rooms} private noautostart")
    return lines


def commands_help(catalogue: Catalogue | None, lang: str = "en") -> str:
    """The command list: the lobby's, each game's, every game's, and the options."""
    parts = [COMMANDS_HELP, matchmaking.words(lang)("help"), accounts.words(lang)("help")]
    for name in _shown(catalogue):
        _, _, commands = games.game(name).help_text(lang)
        if commands:
            parts.append(commands)
    parts.append(EVERY_GAME)
    wrapped = [
        textwrap.fill(line, WIDTH, initial_indent="  ", subsequent_indent="      ")
        for line in option_lines(catalogue)
    ]
    parts.append("Options\n" + "\n".join(wrapped))
    return "\n".join(parts)


def keys_text(catalogue: Catalogue | None, lang: str = "en") -> str:
    """The keys of every screen, each game's screen included."""
    parts = [KEYS_TEXT]
    for name in _shown(catalogue):
        _, keys, _ = games.game(name).help_text(lang)
        if keys:
            parts.append(keys + "\n")
    return "\n".join(parts)


def rules_text(catalogue: Catalogue | None, lang: str = "en") -> str:
    """Each game's rules in brief."""
    rules = [games.game(name).help_text(lang)[0] for name in _shown(catalogue)]
    return "\n".join(text for text in rules if text)
