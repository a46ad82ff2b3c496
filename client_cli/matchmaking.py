"""Finding a game in words: seeks, matches, rematches and hosted tournaments (issue 28).

Sans-I/O like :mod:`client_cli.state`: :func:`parse` reads the commands ``seek``,
``seeks``, ``take``, ``cancel``, ``rematch``, ``decline``, ``tournaments``,
``tournament``, ``join-tournament`` and ``leave-tournament`` into protocol messages (or a
one-line reason, in the player's language, why nothing is sent), and the ``*_lines``
functions turn the server's ``seeks``, ``match``, ``tournaments`` and ``tournament``
frames into text. The plain mode prints these lines; the TUI shows them in its seeks and
tournament screens and its log.
"""

from __future__ import annotations

import re
from typing import Any

from client_cli.catalogue import Catalogue
from client_cli.words import Words

Json = dict[str, Any]

#: The commands this module reads (the first word of the line).
COMMANDS = (
    "seek",
    "seeks",
    "take",
    "cancel",
    "rematch",
    "decline",
    "tournaments",
    "tournament",
    "join-tournament",
    "leave-tournament",
    "start-tournament",
)

#: ``range 1400-1600`` (or ``range=1400-1600``): a rating range, low first.
RANGE = re.compile(r"(\d{1,5})-(\d{1,5})")

#: The longest ``fill`` a client asks for (the server may cap it lower).
FILL_MAX = 3600

WORDS = {
    "en": {
        "usage_seek": "seek GAME [key=value ...] [rated|casual] [range LO-HI] [fill SECONDS]",
        "usage_take": "take ID: take the open seek ID (seeks lists them)",
        "usage_cancel": "cancel [ID]: cancel your open seek (ID: one of them)",
        "usage_tournament": "tournament ID: its standings and rounds (tournaments lists them)",
        "usage_join_tournament": "join-tournament ID",
        "usage_leave_tournament": "leave-tournament ID",
        "usage_start_tournament": "start-tournament ID (its host only)",
        "no_catalogue": "the server's list of games has not come yet",
        "bad_game": "the games are {games}, not {game!r}",
        "bad_range": "range is LO-HI in rating points, as range 1400-1600, not {text!r}",
        "bad_fill": "fill is a number of seconds from 1 to {high}, not {text!r}",
        "missing": "{word} needs a value: {usage}",
        "bad_word": "expected key=value, rated, casual, range LO-HI or fill SECONDS, not {word!r}",
        "room_option": "a seek takes the game's options, seats and clock, not {key!r}",
        "no_open_seek": "you have no open seek: make one with seek GAME",
        "no_room": "{command}: only in a finished game's room (open it first)",
        "not_over": "{command}: the game is not over yet",
        "not_seated": "{command}: only the players of the game can ask for a rematch",
        "seek_added": "Seek {id} open: {game}{options}, {rated}. Waiting for an opponent "
        "(cancel {id} to withdraw it).",
        "seek_cancelled": "Seek {id} cancelled.",
        "seeks_title": "Open seeks{game}",
        "seeks_head": "id        game        options                 rated   range        by",
        "seeks_empty": "No open seeks. Make one: seek GAME",
        "seek_yours": " (yours)",
        "seeks_take": "take ID takes a seek; cancel ID withdraws yours.",
        "match": "Matched ({source}): room {room}, seat {seat}. Your game opens.",
        "match_with": "Matched ({source}) with {names}: room {room}, seat {seat}. Your game opens.",
        "source_seek": "seek",
        "source_rematch": "rematch",
        "source_tournament": "tournament",
        "source_ladder": "ladder",
        "rematch_sent": "Rematch offered: waiting for the others (decline to withdraw).",
        "rematch_offered": "{names} offer a rematch: type rematch to accept, decline to refuse.",
        "rematch_declined": "The rematch was declined.",
        "declined": "Rematch declined.",
        "rated": "rated",
        "casual": "casual",
        "tournaments_title": "Tournaments",
        "tournaments_head": "id        name                      game        format       "
        "status      players",
        "tournaments_empty": "No tournaments.",
        "tournaments_more": "tournament ID shows one; join-tournament ID enters it.",
        "tournament_title": "Tournament {id}: {name}",
        "tournament_about": "{game}{options} · {format} · {rated} · {status}",
        "tournament_rounds": "round {round} of {rounds}",
        "tournament_round_now": "round {round}",
        "tournament_ends": "ends {when}",
        "tournament_starts": "starts {when}",
        "standings_head": "Standings",
        "standings_columns": "  #   player                      points  {tiebreaks}games",
        "standings_empty": "  nobody has entered yet",
        "withdrawn": " (withdrawn)",
        "rounds_head": "Rounds",
        "round_line": "  Round {round}",
        "arena_games": "  Games",
        "pairing_line": "    {room}  {players}  {result}",
        "bye": "bye",
        "forfeit": "(forfeit)",
        "playing": "playing",
        "joined_tournament": "Entered tournament {id}.",
        "started_tournament": "Tournament {id} started: the first round is paired.",
        "left_tournament": "Withdrew from tournament {id}.",
        "format_round_robin": "round robin",
        "format_swiss": "Swiss",
        "format_arena": "arena",
        "status_open": "open for entries",
        "status_created": "open for entries",
        "status_running": "running",
        "status_playing": "running",
        "status_finished": "finished",
        "status_cancelled": "cancelled",
        "help": """\
Finding a game
  seek GAME [key=value ...] [rated|casual] [range LO-HI] [fill SECONDS]
                                   ask for a game: the server pairs you with a matching seek
                                   (fill: house bots take the seats left after SECONDS)
  seeks [GAME]                     the open seeks
  take ID                          take an open seek: the game opens at once
  cancel [ID]                      withdraw your seek
  rematch | decline                at a game's end: offer (or accept) a rematch, or refuse it
  tournaments                      the hosted tournaments
  tournament ID                    a tournament's standings and rounds
  join-tournament ID | leave-tournament ID   enter a tournament, or withdraw
  start-tournament ID              start your tournament now (its host)""",
    },
    "it": {
        "usage_seek": "seek GIOCO [chiave=valore ...] [rated|casual] [range MIN-MAX] "
        "[fill SECONDI]",
        "usage_take": "take ID: accetta la proposta aperta ID (seeks le elenca)",
        "usage_cancel": "cancel [ID]: ritira la tua proposta aperta (ID: una di esse)",
        "usage_tournament": "tournament ID: classifica e turni (tournaments li elenca)",
        "usage_join_tournament": "join-tournament ID",
        "usage_leave_tournament": "leave-tournament ID",
        "usage_start_tournament": "start-tournament ID (solo chi lo ha creato)",
        "no_catalogue": "l'elenco dei giochi del server non è ancora arrivato",
        "bad_game": "i giochi sono {games}, non {game!r}",
        "bad_range": "range è MIN-MAX in punti, come range 1400-1600, non {text!r}",
        "bad_fill": "fill è un numero di secondi da 1 a {high}, non {text!r}",
        "missing": "{word} vuole un valore: {usage}",
        "bad_word": "atteso chiave=valore, rated, casual, range MIN-MAX o fill SECONDI, "
        "non {word!r}",
        "room_option": "una proposta accetta le opzioni del gioco, seats e clock, non {key!r}",
        "no_open_seek": "non hai proposte aperte: creane una con seek GIOCO",
        "no_room": "{command}: solo nella stanza di una partita finita (aprila prima)",
        "not_over": "{command}: la partita non è ancora finita",
        "not_seated": "{command}: solo i giocatori della partita possono chiedere la rivincita",
        "seek_added": "Proposta {id} aperta: {game}{options}, {rated}. In attesa di un "
        "avversario (cancel {id} per ritirarla).",
        "seek_cancelled": "Proposta {id} ritirata.",
        "seeks_title": "Proposte aperte{game}",
        "seeks_head": "id        gioco       opzioni                 tipo    punti        di",
        "seeks_empty": "Nessuna proposta aperta. Creane una: seek GIOCO",
        "seek_yours": " (tua)",
        "seeks_take": "take ID accetta una proposta; cancel ID ritira la tua.",
        "match": "Partita trovata ({source}): stanza {room}, posto {seat}. Si apre la partita.",
        "match_with": "Partita trovata ({source}) con {names}: stanza {room}, posto {seat}. "
        "Si apre la partita.",
        "source_seek": "proposta",
        "source_rematch": "rivincita",
        "source_tournament": "torneo",
        "source_ladder": "scala",
        "rematch_sent": "Rivincita proposta: in attesa degli altri (decline per ritirarla).",
        "rematch_offered": "{names} propongono la rivincita: rematch per accettare, "
        "decline per rifiutare.",
        "rematch_declined": "La rivincita è stata rifiutata.",
        "declined": "Rivincita rifiutata.",
        "rated": "valida per il punteggio",
        "casual": "amichevole",
        "tournaments_title": "Tornei",
        "tournaments_head": "id        nome                      gioco       formula      "
        "stato       giocatori",
        "tournaments_empty": "Nessun torneo.",
        "tournaments_more": "tournament ID ne mostra uno; join-tournament ID per iscriversi.",
        "tournament_title": "Torneo {id}: {name}",
        "tournament_about": "{game}{options} · {format} · {rated} · {status}",
        "tournament_rounds": "turno {round} di {rounds}",
        "tournament_round_now": "turno {round}",
        "tournament_ends": "finisce {when}",
        "tournament_starts": "inizia {when}",
        "standings_head": "Classifica",
        "standings_columns": "  #   giocatore                   punti   {tiebreaks}partite",
        "standings_empty": "  ancora nessun iscritto",
        "withdrawn": " (ritirato)",
        "rounds_head": "Turni",
        "round_line": "  Turno {round}",
        "arena_games": "  Partite",
        "pairing_line": "    {room}  {players}  {result}",
        "bye": "riposo",
        "forfeit": "(a tavolino)",
        "playing": "in corso",
        "joined_tournament": "Iscritto al torneo {id}.",
        "started_tournament": "Torneo {id} iniziato: il primo turno è abbinato.",
        "left_tournament": "Ritirato dal torneo {id}.",
        "format_round_robin": "girone all'italiana",
        "format_swiss": "svizzero",
        "format_arena": "arena",
        "status_open": "iscrizioni aperte",
        "status_created": "iscrizioni aperte",
        "status_running": "in corso",
        "status_playing": "in corso",
        "status_finished": "finito",
        "status_cancelled": "annullato",
        "help": """\
Trovare una partita
  seek GIOCO [chiave=valore ...] [rated|casual] [range MIN-MAX] [fill SECONDI]
                                   chiedi una partita: il server ti abbina a una proposta
                                   compatibile (fill: i bot del server occupano i posti
                                   liberi dopo SECONDI)
  seeks [GIOCO]                    le proposte aperte
  take ID                          accetta una proposta: la partita si apre subito
  cancel [ID]                      ritira la tua proposta
  rematch | decline                a fine partita: proponi (o accetta) la rivincita, o rifiutala
  tournaments                      i tornei del server
  tournament ID                    classifica e turni di un torneo
  join-tournament ID | leave-tournament ID   iscriviti a un torneo, o ritirati
  start-tournament ID              fai iniziare ora il tuo torneo (chi lo ha creato)""",
    },
}


def words(lang: str) -> Words:
    """This module's sentences in ``lang`` (English for a language without them)."""
    return Words(WORDS, lang)


# -- commands --------------------------------------------------------------------------------


def seek_message(args: list[str], catalogue: Catalogue | None, lang: str = "en") -> Json:
    """The ``seek`` message of ``seek GAME [key=value ...] [rated|casual] [range LO-HI]
    [fill SECONDS]``: the game and every option checked against the server's catalogue
    (as ``create`` checks them); raise ValueError with the reason, in ``lang``."""
    say = words(lang)
    if not args:
        raise ValueError(say("usage_seek"))
    if catalogue is None:
        raise ValueError(say("no_catalogue"))
    game = catalogue.game(args[0].lower())
    if game is None:
        raise ValueError(say("bad_game", games=", ".join(catalogue.names), game=args[0]))
    message: Json = {"type": "seek", "game": game.name}
    options: Json = {}
    rest = list(args[1:])
    while rest:
        word = rest.pop(0)
        key, sep, raw = word.partition("=")
        low = key.lower()
        if not sep and low in ("rated", "casual"):
            message["rated"] = low == "rated"
            continue
        if low in ("range", "fill"):
            if not sep:
                if not rest:
                    raise ValueError(say("missing", word=low, usage=say("usage_seek")))
                raw = rest.pop(0)
            if low == "range":
                message["rating_range"] = read_range(raw, lang)
            else:
                message["fill_after"] = read_fill(raw, lang)
            continue
        if not sep:
            raise ValueError(say("bad_word", word=word))
        options.update(_seek_option(message, game.name, key, raw, catalogue, lang))
    if options:
        message["options"] = options
    return message


def _seek_option(
    message: Json, game_name: str, key: str, raw: str, catalogue: Catalogue, lang: str
) -> Json:
    """One ``key=value`` of a seek: the game's options and presets (into ``options``),
    ``seats`` and ``clock`` (into the message); other room options are refused."""
    from client_cli.commands import create_message  # (commands imports this module)

    if key in ("seats", "clock"):
        made = create_message(game_name, [f"{key}={raw}"], catalogue)
        if key == "clock":
            message["clock"] = made["clock"]
        else:
            message["seats"] = int(raw)
        return {}
    game = catalogue.game(game_name)
    if game is not None and catalogue.room_option(key, game) is not None:
        raise ValueError(words(lang)("room_option", key=key))
    made = create_message(game_name, [f"{key}={raw}"], catalogue)
    return dict(made["options"])


def read_range(text: str, lang: str = "en") -> list[int]:
    """``1400-1600`` as ``[1400, 1600]`` (low first, as typed or swapped)."""
    found = RANGE.fullmatch(text.strip())
    if found is None:
        raise ValueError(words(lang)("bad_range", text=text))
    low, high = int(found.group(1)), int(found.group(2))
    return [min(low, high), max(low, high)]


def read_fill(text: str, lang: str = "en") -> float:
    """Seconds before house bots fill a seek's empty seats (``30``, ``1.5``)."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= FILL_MAX or seconds != seconds:
        raise ValueError(words(lang)("bad_fill", text=text, high=FILL_MAX))
    return int(seconds) if seconds.is_integer() else seconds


def parse(head: str, args: list[str], state: Any) -> Json:
    """The message of one of :data:`COMMANDS` (``state`` is the
    :class:`~client_cli.state.ClientState`); raise ValueError with the reason."""
    lang = state.lang
    say = words(lang)
    if head == "seek":
        return seek_message(args, state.catalogue, lang)
    if head == "seeks":
        message: Json = {"type": "seeks"}
        if args:
            message["game"] = args[0].lower()
        return message
    if head == "take":
        if len(args) != 1:
            raise ValueError(say("usage_take"))
        return {"type": "take_seek", "seek": args[0]}
    if head == "cancel":
        if len(args) > 1:
            raise ValueError(say("usage_cancel"))
        if args:
            return {"type": "cancel_seek", "seek": args[0]}
        if not state.my_seeks:
            raise ValueError(say("no_open_seek"))
        return {"type": "cancel_seek", "seek": state.my_seeks[-1]}
    if head in ("rematch", "decline"):
        return rematch_message(head, state)
    if head == "tournaments":
        return {"type": "tournaments"}
    usage = {
        "tournament": "usage_tournament",
        "join-tournament": "usage_join_tournament",
        "leave-tournament": "usage_leave_tournament",
        "start-tournament": "usage_start_tournament",
    }[head]
    if len(args) != 1:
        raise ValueError(say(usage))
    return {"type": head.replace("-", "_"), "tournament": args[0]}


def rematch_message(head: str, state: Any) -> Json:
    """``rematch`` or ``decline_rematch`` for the current room: a finished game you sat in."""
    say = words(state.lang)
    room = state.current_room
    if room is None:
        raise ValueError(say("no_room", command=head))
    if not room.over:
        raise ValueError(say("not_over", command=head))
    if room.seat is None:
        raise ValueError(say("not_seated", command=head))
    kind = "rematch" if head == "rematch" else "decline_rematch"
    return {"type": kind, "room": room.room}


# -- frames as text --------------------------------------------------------------------------


def _name(player: object) -> str:
    if isinstance(player, dict):
        return str(player.get("name") or player.get("id") or "?")
    return str(player) if player else "?"


def _options_text(options: object) -> str:
    if not isinstance(options, dict) or not options:
        return ""
    return " " + " ".join(f"{k}={_short(v)}" for k, v in sorted(options.items()))


def _short(value: object) -> str:
    if isinstance(value, dict):
        return "+".join(_short(v) for v in value.values())
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _whole(value: object) -> str:
    try:
        return str(round(float(value)))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "?"


def seek_id(seek: Json) -> str:
    """A seek's id (``id``, or ``seek`` in some frames)."""
    return str(seek.get("id") or seek.get("seek") or "?")


def seek_added_line(seek: Json, lang: str = "en") -> str:
    """The sentence after ``seek_added``: the seek is open, and how to withdraw it."""
    say = words(lang)
    return say(
        "seek_added",
        id=seek_id(seek),
        game=seek.get("game", ""),
        options=_options_text(seek.get("options")),
        rated=say("rated" if seek.get("rated") else "casual"),
    )


def seeks_lines(
    seeks: list[Json], mine: list[str] | None = None, game: str | None = None, lang: str = "en"
) -> list[str]:
    """The open seeks as a table (yours marked), with how to take one."""
    say = words(lang)
    title = say("seeks_title", game=f" · {game}" if game else "")
    if not seeks:
        return [title, say("seeks_empty")]
    lines = [title, say("seeks_head")]
    for row in seek_rows(seeks, mine or [], lang):
        cells = zip(row, WIDTHS, strict=True)
        lines.append("  ".join(cell.ljust(width) for cell, width in cells).rstrip())
    lines.append(say("seeks_take"))
    return lines


#: Column widths of the seeks table in text (the TUI's table has its own).
WIDTHS = (8, 10, 22, 6, 11, 20)


def seek_rows(seeks: list[Json], mine: list[str], lang: str = "en") -> list[tuple[str, ...]]:
    """Each seek as cells: id, game, options, rated, rating range, who (yours marked)."""
    say = words(lang)
    rows: list[tuple[str, ...]] = []
    for seek in seeks:
        ident = seek_id(seek)
        span = seek.get("rating_range")
        shown = ""
        if isinstance(span, list) and len(span) == 2:
            shown = f"{_whole(span[0])}-{_whole(span[1])}"
        who = _name(seek.get("player") or seek.get("name") or seek.get("by"))
        if isinstance(seek.get("rating"), (int, float)):
            who += f" ({_whole(seek['rating'])})"
        if ident in mine or seek.get("mine"):
            who += say("seek_yours")
        options = _options_text(seek.get("options")).strip()
        if seek.get("clock"):
            options = (options + f" clock={_short(seek['clock'])}").strip()
        if seek.get("seats"):
            options = (options + f" seats={seek['seats']}").strip()
        rated = say("rated" if seek.get("rated") else "casual")
        rows.append((ident, str(seek.get("game", "")), options, rated, shown, who))
    return rows


def match_line(frame: Json, lang: str = "en") -> str:
    """The sentence of a ``match`` frame: where your game is, and who you play."""
    say = words(lang)
    source = str(frame.get("source") or "seek")
    players = [
        _name(p)
        for i, p in enumerate(frame.get("players") or frame.get("seats") or [])
        if i != frame.get("seat")
    ]
    slots = {
        "source": say.get(f"source_{source}", source),
        "room": frame.get("room", "?"),
        "seat": frame.get("seat", "?"),
    }
    if players:
        return say("match_with", names=", ".join(players), **slots)
    return say("match", **slots)


def rematch_of(room: Json) -> tuple[list[int], list[int], str | None]:
    """A finished room frame's ``rematch``: the seats that offered (or accepted), the
    seats that declined, and the new room once opened. Read as the web client reads it:
    ``{offered: [seat], declined: [seat] | bool, room}`` or a bare list of seats."""
    rematch = room.get("rematch")
    if isinstance(rematch, list):
        return [s for s in rematch if isinstance(s, int)], [], None
    if not isinstance(rematch, dict):
        return [], [], None

    def seats(value: object) -> list[int]:
        items = value if isinstance(value, list) else []
        out = [i.get("seat") if isinstance(i, dict) else i for i in items]
        return [s for s in out if isinstance(s, int)]

    offered = seats(rematch.get("offered") or rematch.get("accepted") or rematch.get("seats"))
    declined_raw = rematch.get("declined")
    declined = seats(declined_raw)
    if declined_raw is True:
        declined = [-1]  # (declined, by a seat not named)
    elif isinstance(declined_raw, int) and not isinstance(declined_raw, bool):
        declined = [declined_raw]
    new_room = rematch.get("room")
    return offered, declined, new_room if isinstance(new_room, str) else None


def rematch_lines(room: Json, my_seat: int | None, lang: str = "en") -> list[str]:
    """What a finished room's frame says of a rematch: who offered it (when it was not
    only you), or that it was declined."""
    say = words(lang)
    offered, declined, _ = rematch_of(room)
    if declined:
        return [say("rematch_declined")]
    others = [s for s in offered if s != my_seat]
    if not others or my_seat in offered:
        return []
    seats = room.get("seats") or []
    names = [str(seats[s].get("name")) if 0 <= s < len(seats) else f"#{s}" for s in others]
    return [say("rematch_offered", names=", ".join(names))]


def _format(say: Words, value: object) -> str:
    return say.get(f"format_{value}", str(value or "?"))


def _status(say: Words, value: object) -> str:
    return say.get(f"status_{value}", str(value or "?"))


def tournament_of(frame: Json) -> Json:
    """A ``tournament`` frame's tournament, flat: the object under ``tournament`` (or the
    frame itself), with the host's ``spec`` (game, options, format, name...) lifted up."""
    inner = frame.get("tournament")
    t: Json = dict(inner) if isinstance(inner, dict) else dict(frame)
    t.pop("type", None)
    t.pop("ref", None)
    spec = t.get("spec")
    if isinstance(spec, dict):
        t = {**spec, **{k: v for k, v in t.items() if k != "spec"}}
        t.setdefault("rounds_total", t.get("rounds"))
    return t


def tournament_id(frame: Json) -> str:
    """A tournament's id (``id``, or the id under ``tournament``)."""
    inner = frame.get("tournament")
    if isinstance(inner, dict):
        return tournament_id(inner)
    return str(frame.get("id") or inner or "?")


def tournaments_lines(tournaments: list[Json], lang: str = "en") -> list[str]:
    """The list of tournaments as a table."""
    say = words(lang)
    if not tournaments:
        return [say("tournaments_title"), say("tournaments_empty")]
    lines = [say("tournaments_title"), say("tournaments_head")]
    for row in tournament_rows(tournaments, lang):
        cells = zip(row, (8, 24, 10, 11, 10, 7), strict=True)
        lines.append("  ".join(cell.ljust(width) for cell, width in cells).rstrip())
    lines.append(say("tournaments_more"))
    return lines


def tournament_rows(tournaments: list[Json], lang: str = "en") -> list[tuple[str, ...]]:
    """Each tournament as cells: id, name, game, format, status, entrants."""
    say = words(lang)
    rows: list[tuple[str, ...]] = []
    for given in tournaments:
        t = tournament_of(given)
        count = t.get("entrants")
        if isinstance(count, list):
            count = len(count)
        if count is None:
            count = len(t.get("standings") or [])
        rows.append(
            (
                tournament_id(t),
                str(t.get("name") or ""),
                str(t.get("game", "")),
                _format(say, t.get("format")),
                _status(say, t.get("status") or t.get("state")),
                str(count),
            )
        )
    return rows


#: The tie-breaks a standings row may carry, in the order they break ties, and their
#: column labels.
TIEBREAKS = {"buchholz": "Buch.", "sonneborn_berger": "S-B"}


def tiebreak_names(t: Json) -> list[str]:
    """The tie-breaks the standings show (none in an arena: points only)."""
    if t.get("format") == "arena":
        return []
    standings = [row for row in t.get("standings") or [] if isinstance(row, dict)]
    return [name for name in TIEBREAKS if any(name in row for row in standings)]


def names_of(t: Json) -> dict[str, str]:
    """Player ids to names, from the entrants and the standings."""
    names: dict[str, str] = {}
    for entry in [*(t.get("entrants") or []), *(t.get("standings") or [])]:
        if isinstance(entry, dict) and isinstance(entry.get("player"), str):
            names[entry["player"]] = str(entry.get("name") or entry["player"])
    return names


def standings_rows(t: Json) -> list[tuple[str, ...]]:
    """The standings as cells: rank, player, points, each tie-break, games."""
    breaks = tiebreak_names(t)
    names = names_of(t)
    rows: list[tuple[str, ...]] = []
    for place, row in enumerate(t.get("standings") or [], 1):
        player = row.get("player")
        name = str(row.get("name") or names.get(str(player), _name(player)))
        rows.append(
            (
                str(row.get("rank", place)),
                name,
                _points(row.get("points", 0)),
                *(_points(row.get(b, "")) for b in breaks),
                str(row.get("games", "")),
            )
        )
    return rows


def _points(value: object) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def tournament_lines(frame: Json, lang: str = "en", me: str | None = None) -> list[str]:
    """A tournament (its frame, flat or nested) as text: what it is, its standings
    (tie-breaks as columns; ``*`` marks ``me``, a name) and its rounds with their
    pairings, rooms and results."""
    say = words(lang)
    t = tournament_of(frame)
    title = say("tournament_title", id=tournament_id(t), name=t.get("name") or "")
    lines = [title.rstrip(": ")]
    lines.append(
        say(
            "tournament_about",
            game=t.get("game", ""),
            options=_options_text(t.get("options")),
            format=_format(say, t.get("format")),
            rated=say("rated" if t.get("rated") else "casual"),
            status=_status(say, t.get("status") or t.get("state")),
        )
    )
    progress = progress_line(t, lang)
    if progress:
        lines.append(progress)
    lines.append(say("standings_head"))
    standings = [row for row in t.get("standings") or [] if isinstance(row, dict)]
    if not standings:
        lines.append(say("standings_empty"))
    else:
        breaks = "".join(f"{TIEBREAKS[b]:<7} " for b in tiebreak_names(t))
        lines.append(say("standings_columns", tiebreaks=breaks).rstrip())
        for row, cells in zip(standings, standings_rows(t), strict=True):
            rank, player, points, *others, games = cells
            name = player + (say("withdrawn") if row.get("withdrawn") else "")
            mark = "*" if me is not None and player == me else " "
            shown = "".join(f"{b:<7} " for b in others)
            lines.append(f" {mark}{rank:>2}  {name:<27} {points:<7} {shown}{games}".rstrip())
    rounds = rounds_of(t)
    if rounds:
        lines.append(say("rounds_head"))
        for number in sorted(rounds):
            lines += round_lines(number, rounds[number], names_of(t), lang)
    return lines


def progress_line(t: Json, lang: str = "en") -> str:
    """``round 2 of 3`` (or ``round 2`` when the number of rounds is open)."""
    say = words(lang)
    current = t.get("round")
    if not isinstance(current, int) or current <= 0:
        return ""
    total = t.get("rounds_total")
    if not isinstance(total, int) and isinstance(t.get("rounds"), int):
        total = t["rounds"]
    if isinstance(total, int) and total > 0:
        return say("tournament_rounds", round=current, rounds=total)
    return say("tournament_round_now", round=current)


def rounds_of(t: Json) -> dict[int, list[Json]]:
    """The pairings by round: from ``games`` (each with its ``round``), or ``rounds`` as
    a list of rounds (``{round, pairings}``, or a bare list of pairings)."""
    rounds: dict[int, list[Json]] = {}
    for game in t.get("games") or []:
        if isinstance(game, dict):
            rounds.setdefault(int(game.get("round") or 0), []).append(game)
    listed = t.get("rounds")
    if not rounds and isinstance(listed, list):
        for number, round_ in enumerate(listed, 1):
            pairings = round_
            if isinstance(round_, dict):
                number = int(round_.get("round", number))
                pairings = round_.get("pairings") or round_.get("games") or []
            rounds[number] = [p for p in pairings if isinstance(p, dict)]
    return rounds


def round_lines(number: int, pairings: list[Json], names: dict[str, str], lang: str) -> list[str]:
    """One round: each pairing's room, players and result (``playing`` while it runs;
    ``bye`` for a player without a game)."""
    say = words(lang)
    lines = [say("round_line", round=number) if number > 0 else say("arena_games")]
    for pairing in sorted(
        pairings, key=lambda p: (len(p.get("players") or ()) < 2, p.get("board") or 0)
    ):
        players = pairing.get("players") or pairing.get("seats") or []
        shown = " – ".join(names.get(p, p) if isinstance(p, str) else _name(p) for p in players)
        if pairing.get("bye") or len(players) == 1 or pairing.get("board") == 0:
            lines.append(f"    {shown}  {say('bye')}")
            continue
        result = pairing.get("scores", pairing.get("result"))
        if isinstance(result, list):
            result = "–".join(_points(r) for r in result)
            if pairing.get("forfeit"):
                result += " " + say("forfeit")
        lines.append(
            say(
                "pairing_line",
                room=pairing.get("room") or "",
                players=shown,
                result=result if result not in (None, "") else say("playing"),
            ).rstrip()
        )
    return lines


# -- replies ---------------------------------------------------------------------------------

#: The requests whose replies :func:`reply_lines` words.
REQUESTS = frozenset(
    {
        "seeks",
        "tournaments",
        "tournament",
        "join_tournament",
        "leave_tournament",
        "start_tournament",
        "rematch",
        "decline_rematch",
    }
)


def reply_lines(message: Json, reply: Json, state: Any) -> list[str]:
    """The sentences of a reply to one of :data:`REQUESTS` (the frames the state already
    told, such as ``seek_added`` and ``match``, are not told again)."""
    lang = state.lang
    say = words(lang)
    kind = message.get("type")
    if kind == "seeks":
        seeks = list(reply.get("seeks") or [])
        return seeks_lines(seeks, state.my_seeks, message.get("game"), lang)
    if kind == "tournaments":
        return tournaments_lines(list(reply.get("tournaments") or []), lang)
    if kind == "tournament":
        me = str((state.player or {}).get("name") or "") or None
        return tournament_lines(reply, lang, me)
    if kind == "join_tournament":
        return [say("joined_tournament", id=message.get("tournament"))]
    if kind == "start_tournament":
        return [say("started_tournament", id=message.get("tournament"))]
    if kind == "leave_tournament":
        return [say("left_tournament", id=message.get("tournament"))]
    if kind == "rematch":
        _, _, new_room = rematch_of(reply)
        return [] if new_room else [say("rematch_sent")]  # (all asked: the match follows)
    return [say("declined")]
