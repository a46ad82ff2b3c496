"""Accounts and ratings in words: the sentences of register, login, logout, password, the
``profile`` and ``leaderboard`` frames as text, and a rated game's rating change.

Everything here is told in the player's language (:data:`WORDS`, English and Italian,
read through :class:`~client_cli.words.Words`); the plain mode prints these lines and the
TUI shows the same lines in its log and its profile and leaderboard screens.
"""

from __future__ import annotations

import datetime
from typing import Any

from client_cli.words import Words

Json = dict[str, Any]

#: The bounds of a password, as the server checks them (docs/accounts.md).
PASSWORD_MIN = 8
PASSWORD_MAX = 1024
#: The provisional marker after a rating (lichess writes it the same way).
PROVISIONAL = "?"
#: Blocks of the text rating history, lowest to highest.
SPARKS = "▁▂▃▄▅▆▇█"
#: How many of a rating history's newest points the spark line shows.
SPARK_POINTS = 40

WORDS = {
    "en": {
        "usage_register": "register [NAME]: claim your name (or NAME) with a password",
        "usage_login": "login NAME: the password is asked next, never typed on the command line",
        "usage_password": "password: change your password (asked next, never on the command line)",
        "usage_logout": "logout [everywhere]",
        "usage_leaderboard": "leaderboard GAME [RULES] [bots]",
        "no_password_here": "a password is never typed on the command line: {usage}",
        "password_length": "a password has {low} to {high} characters, not {count}",
        "password_mismatch": "the two passwords differ",
        "password_blank": "no password given: nothing sent",
        "name_blank": "no name given: nothing sent",
        "not_account": "only an account has a password: register first",
        "already_account": "you are already the account {name}",
        "registered": "{name} is now an account: log in anywhere with `login {name}` "
        "(or umpire play --login {name}).",
        "logged_in": "Logged in as {name}.",
        "logged_out": "Logged out ({count} sessions ended). Log in again with `login NAME`, "
        "or quit.",
        "logged_out_one": "Logged out (1 session ended). Log in again with `login NAME`, or quit.",
        "password_changed": "Password changed; your other sessions are logged out.",
        "session_ended": "Your session ended (logged out elsewhere, or expired): "
        "log in again with `login {name}`.",
        "name_taken_hello": "{name} is an account's name: log in with `login {name}` "
        "(umpire play --login {name}), or play as a guest with another --name.",
        "name_taken_kept": "{name} is an account's name: you go on under your own "
        "name (your token is kept); choose another with --name.",
        "not_connected": "not connected: log in with `login NAME`, or quit",
        "err_bad_login": "Wrong name or password.",
        "err_bad_old": "Wrong current password: nothing changed.",
        "err_name_taken": "That name is taken: choose another (register NAME), or log in.",
        "err_bad_password": "The server refused that password: {message}",
        "err_bad_name": "The server refused that name: {message}",
        "err_rate_limited": "Too many attempts: wait a little, then try again.",
        "err_account_required": "This room is rated: only accounts sit in it. "
        "Claim your name first with `register`.",
        "err_no_such_player": "No player of that name.",
        "err_other": "Refused ({code}): {message}",
        "rated": "rated",
        "casual": "casual",
        "rating_change": "Rating ({game} {rules}): {name} {before} → {after} ({delta}){tag}",
        "provisional_tag": ", provisional",
        "your_rating": "Your rating: {before} → {after} ({delta}){tag}",
        "you": " (you)",
        "pool_human": "humans",
        "pool_bot": "bots",
        "leaderboard_title": "Leaderboard · {game} · {rules} · {pool} "
        "(at least {count} rated games to appear)",
        "leaderboard_title_one": "Leaderboard · {game} · {rules} · {pool} "
        "(at least 1 rated game to appear)",
        "leaderboard_head": "rank  player                          rating      ±  games",
        "leaderboard_empty": "Nobody on it yet.",
        "provisional_legend": "? provisional: the rating is still uncertain",
        "profile_title": "Profile of {name} ({kind})",
        "kind_guest": "guest",
        "kind_account": "account",
        "kind_bot": "bot account",
        "kind_house": "house bot",
        "ratings_head": "Ratings",
        "no_ratings": "  no rated games yet",
        "rating_line": "  {game} {rules}{version}: {rating}{mark} ±{deviation} · {count} games",
        "rating_line_one": "  {game} {rules}{version}: {rating}{mark} ±{deviation} · 1 game",
        "history_line": "    {spark}  {first} → {last} ({delta}) over {count} games",
        "history_line_one": "    {spark}  {first} → {last} ({delta}) over 1 game",
        "history_range": "    lowest {low}, highest {high}",
        "stats_head": "Statistics",
        "no_stats": "  no games yet",
        "recent_head": "Recent games",
        "recent_columns": "room game state seat place when",
        "no_games": "  none",
        "recent_line": "  {room}  {game}  {status}  seat {seat}{place}  {when}",
        "place": "  placed {rank}",
        "help": """\
Accounts and ratings
  register [NAME]                  claim your name (or NAME) with a password (asked next)
  login NAME                       log in to an account (the password is asked next)
  logout [everywhere]              log out (everywhere: every device of the account)
  password                         change your password (asked next)
  profile [NAME]                   ratings, rating history, statistics, recent games
  leaderboard GAME [RULES] [bots]  the best rated players (bots: the bots' board)""",
    },
    "it": {
        "usage_register": "register [NOME]: rivendica il tuo nome (o NOME) con una password",
        "usage_login": "login NOME: la password è chiesta dopo, mai scritta sulla riga di comando",
        "usage_password": "password: cambia la password (chiesta dopo, mai sulla riga di comando)",
        "usage_logout": "logout [everywhere]",
        "usage_leaderboard": "leaderboard GIOCO [REGOLE] [bots]",
        "no_password_here": "una password non si scrive mai sulla riga di comando: {usage}",
        "password_length": "una password ha da {low} a {high} caratteri, non {count}",
        "password_mismatch": "le due password sono diverse",
        "password_blank": "nessuna password: non inviato",
        "name_blank": "nessun nome: non inviato",
        "not_account": "solo un account ha una password: registrati prima (register)",
        "already_account": "sei già l'account {name}",
        "registered": "{name} ora è un account: entra ovunque con `login {name}` "
        "(o umpire play --login {name}).",
        "logged_in": "Entrato come {name}.",
        "logged_out": "Uscito ({count} sessioni chiuse). Rientra con `login NOME`, o esci.",
        "logged_out_one": "Uscito (1 sessione chiusa). Rientra con `login NOME`, o esci.",
        "password_changed": "Password cambiata; le altre sessioni sono state chiuse.",
        "session_ended": "La sessione è finita (uscito altrove, o scaduta): "
        "rientra con `login {name}`.",
        "name_taken_hello": "{name} è il nome di un account: entra con `login {name}` "
        "(umpire play --login {name}), o gioca come ospite con un altro --name.",
        "name_taken_kept": "{name} è il nome di un account: continui con il tuo nome "
        "(il token resta); scegline un altro con --name.",
        "not_connected": "non connesso: entra con `login NOME`, o esci",
        "err_bad_login": "Nome o password errati.",
        "err_bad_old": "Password attuale errata: nulla è cambiato.",
        "err_name_taken": "Quel nome è già preso: scegline un altro (register NOME), o entra.",
        "err_bad_password": "Il server ha rifiutato la password: {message}",
        "err_bad_name": "Il server ha rifiutato il nome: {message}",
        "err_rate_limited": "Troppi tentativi: aspetta un poco e riprova.",
        "err_account_required": "Questa stanza è valida per il punteggio: siedono solo gli "
        "account. Rivendica prima il tuo nome con `register`.",
        "err_no_such_player": "Nessun giocatore con quel nome.",
        "err_other": "Rifiutato ({code}): {message}",
        "rated": "valida per il punteggio",
        "casual": "amichevole",
        "rating_change": "Punteggio ({game} {rules}): {name} {before} → {after} ({delta}){tag}",
        "provisional_tag": ", provvisorio",
        "your_rating": "Il tuo punteggio: {before} → {after} ({delta}){tag}",
        "you": " (tu)",
        "pool_human": "umani",
        "pool_bot": "bot",
        "leaderboard_title": "Classifica · {game} · {rules} · {pool} "
        "(almeno {count} partite valide per comparire)",
        "leaderboard_title_one": "Classifica · {game} · {rules} · {pool} "
        "(almeno 1 partita valida per comparire)",
        "leaderboard_head": "pos.  giocatore                       punti       ±  partite",
        "leaderboard_empty": "Ancora nessuno.",
        "provisional_legend": "? provvisorio: il punteggio è ancora incerto",
        "profile_title": "Profilo di {name} ({kind})",
        "kind_guest": "ospite",
        "kind_account": "account",
        "kind_bot": "account bot",
        "kind_house": "bot del server",
        "ratings_head": "Punteggi",
        "no_ratings": "  ancora nessuna partita valida",
        "rating_line": "  {game} {rules}{version}: {rating}{mark} ±{deviation} · {count} partite",
        "rating_line_one": "  {game} {rules}{version}: {rating}{mark} ±{deviation} · 1 partita",
        "history_line": "    {spark}  {first} → {last} ({delta}) in {count} partite",
        "history_line_one": "    {spark}  {first} → {last} ({delta}) in 1 partita",
        "history_range": "    minimo {low}, massimo {high}",
        "stats_head": "Statistiche",
        "no_stats": "  ancora nessuna partita",
        "recent_head": "Partite recenti",
        "recent_columns": "stanza gioco stato posto arrivo quando",
        "no_games": "  nessuna",
        "recent_line": "  {room}  {game}  {status}  posto {seat}{place}  {when}",
        "place": "  arrivato {rank}°",
        "help": """\
Account e punteggi
  register [NOME]                  rivendica il tuo nome (o NOME) con una password (chiesta dopo)
  login NOME                       entra in un account (la password è chiesta dopo)
  logout [everywhere]              esci (everywhere: da ogni dispositivo dell'account)
  password                         cambia la password (chiesta dopo)
  profile [NOME]                   punteggi, storia del punteggio, statistiche, partite recenti
  leaderboard GIOCO [REGOLE] [bots]  la classifica (bots: quella dei bot)""",
    },
}


def words(lang: str) -> Words:
    """The account sentences in ``lang`` (English for a language without them)."""
    return Words(WORDS, lang)


def password_problem(password: str, lang: str = "en") -> str | None:
    """Why ``password`` would be refused (None when its length is within the bounds)."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        return words(lang)(
            "password_length", low=PASSWORD_MIN, high=PASSWORD_MAX, count=len(password)
        )
    return None


def explain(code: str | None, message: str, lang: str = "en") -> str:
    """A refusal of an account or rating request, in one line."""
    say = words(lang)
    key = f"err_{code}"
    if code is not None and say.has(key):
        return say(key, message=message)
    return say("err_other", code=code, message=message)


# -- numbers ---------------------------------------------------------------------------------


def whole(value: object) -> str:
    """A rating as people read it: a whole number."""
    try:
        return str(round(float(value)))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "?"


def signed(delta: float) -> str:
    """``+12``, ``−7`` (a real minus sign), ``±0``."""
    n = round(delta)
    return f"+{n}" if n > 0 else (f"−{-n}" if n < 0 else "±0")


def spark(values: list[float]) -> str:
    """A rating history as a line of blocks (the newest :data:`SPARK_POINTS` points)."""
    points = values[-SPARK_POINTS:]
    if not points:
        return ""
    low, high = min(points), max(points)
    if high - low < 1e-9:
        return SPARKS[len(SPARKS) // 2] * len(points)
    scale = (len(SPARKS) - 1) / (high - low)
    return "".join(SPARKS[round((v - low) * scale)] for v in points)


def profile_date(at: object) -> str:
    """A moment of a profile (seconds since the epoch) as ``2026-11-29 05:40`` UTC."""
    if not isinstance(at, (int, float)):
        return ""
    moment = datetime.datetime.fromtimestamp(float(at), tz=datetime.UTC)
    return moment.strftime("%Y-%m-%d %H:%M")


def _name_of(player: object) -> str:
    if isinstance(player, dict):
        return str(player.get("name") or player.get("id") or "?")
    return str(player)


# -- frames as text --------------------------------------------------------------------------


def rating_change_lines(room: Json, my_seat: int | None, lang: str = "en") -> list[str]:
    """A rated game's rating changes (the final ``room`` frame's ``ratings``), one line per
    seat, yours marked."""
    say = words(lang)
    seats = room.get("seats") or []
    options = room.get("options") or {}
    rules = str(options.get("rules") or options.get("preset") or "")
    lines = []
    for change in room.get("ratings") or []:
        seat = int(change.get("seat", -1))
        name = str(seats[seat].get("name")) if 0 <= seat < len(seats) else str(change.get("player"))
        if change.get("version"):
            name += f" {change['version']}"
        before, after = float(change.get("before", 0)), float(change.get("after", 0))
        tag = say("provisional_tag") if change.get("provisional") else ""
        you = say("you") if seat == my_seat else ""
        lines.append(
            say(
                "rating_change",
                game=room.get("game", ""),
                rules=rules,
                name=name + you,
                before=whole(before),
                after=whole(after),
                delta=signed(after - before),
                tag=tag,
            ).replace("  ", " ")
        )
    return lines


def own_rating_lines(room: Json, my_seat: int | None, lang: str = "en") -> list[str]:
    """The rating change in short, for a status panel: your own (every seat's for a
    spectator, as :func:`rating_change_lines`)."""
    if my_seat is None:
        return rating_change_lines(room, None, lang)
    say = words(lang)
    for change in room.get("ratings") or []:
        if change.get("seat") == my_seat:
            before, after = float(change.get("before", 0)), float(change.get("after", 0))
            tag = say("provisional_tag") if change.get("provisional") else ""
            return [
                say(
                    "your_rating",
                    before=whole(before),
                    after=whole(after),
                    delta=signed(after - before),
                    tag=tag,
                )
            ]
    return []


def leaderboard_lines(frame: Json, lang: str = "en") -> list[str]:
    """A ``leaderboard`` frame as a table in text."""
    say = words(lang)
    pool = say("pool_bot") if frame.get("pool") == "bot" else say("pool_human")
    lines = [
        say(
            "leaderboard_title",
            game=frame.get("game", ""),
            rules=frame.get("rules") or "-",
            pool=pool,
            count=int(frame.get("min_games") or 0),
        )
    ]
    entries = frame.get("entries") or []
    if not entries:
        return [*lines, "  " + say("leaderboard_empty")]
    lines.append("  " + say("leaderboard_head"))
    provisional = False
    for entry in entries:
        name = _name_of(entry.get("player"))
        if entry.get("version"):
            name += f" {entry['version']}"
        mark = PROVISIONAL if entry.get("provisional") else " "
        provisional = provisional or bool(entry.get("provisional"))
        lines.append(
            f"  {entry.get('rank', ''):>4}  {name[:30]:<30}  {whole(entry.get('rating')):>6}{mark}"
            f"  {whole(entry.get('deviation')):>5}  {entry.get('games', 0):>5}"
        )
    if provisional:
        lines.append("  " + say("provisional_legend"))
    return lines


def rating_lines(ratings: list[Json], lang: str = "en") -> list[str]:
    """A profile's ratings: each with its marker, deviation, games and text history."""
    say = words(lang)
    if not ratings:
        return [say("no_ratings")]
    lines = []
    provisional = False
    for rating in ratings:
        mark = PROVISIONAL if rating.get("provisional") else ""
        provisional = provisional or bool(mark)
        version = f" ({rating['version']})" if rating.get("version") else ""
        lines.append(
            say(
                "rating_line",
                game=rating.get("game", ""),
                rules=rating.get("rules", ""),
                version=version,
                rating=whole(rating.get("rating")),
                mark=mark,
                deviation=whole(rating.get("deviation")),
                count=int(rating.get("games") or 0),
            )
        )
        values = [float(point[1]) for point in rating.get("history") or [] if len(point) > 1]
        if values:
            lines.append(
                say(
                    "history_line",
                    spark=spark(values),
                    first=whole(values[0]),
                    last=whole(values[-1]),
                    delta=signed(values[-1] - values[0]),
                    count=len(values),
                )
            )
            if len(values) > 2:
                lines.append(say("history_range", low=whole(min(values)), high=whole(max(values))))
    if provisional:
        lines.append("  " + say("provisional_legend"))
    return lines


def profile_lines(frame: Json, lang: str = "en") -> list[str]:
    """A ``profile`` frame as text: ratings (with their histories), statistics, recent
    games."""
    say = words(lang)
    player = frame.get("player") or {}
    kind = str(player.get("kind") or ("bot" if player.get("bot") else "guest"))
    lines = [say("profile_title", name=player.get("name", "?"), kind=say.get(f"kind_{kind}", kind))]
    lines.append(say("ratings_head"))
    lines += rating_lines(list(frame.get("ratings") or []), lang)
    lines.append(say("stats_head"))
    stats = frame.get("stats") or {}
    if not stats:
        lines.append(say("no_stats"))
    for game, numbers in sorted(stats.items()):
        summary = ", ".join(f"{k} {_number(v)}" for k, v in sorted(numbers.items()))
        lines.append(f"  {game}: {summary}")
    lines.append(say("recent_head"))
    history = frame.get("history") or []
    if not history:
        lines.append(say("no_games"))
    for game in history:
        rank = game.get("rank")
        lines.append(
            say(
                "recent_line",
                room=game.get("room", ""),
                game=game.get("game", ""),
                status=game.get("status", ""),
                seat=game.get("seat", ""),
                place=say("place", rank=rank) if rank is not None else "",
                when=profile_date(game.get("finished") or game.get("started")),
            ).rstrip()
        )
    return lines


def _number(value: object) -> str:
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.2f}"
    if isinstance(value, float):
        return str(int(value))
    return str(value)
