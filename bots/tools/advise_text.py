"""What ``umpire advise`` says, in English and Italian.

Every line the supporter prints of its own (the table, the rounds, challenges and their
results, errors) comes from :data:`MESSAGES` through :func:`say`, so an Italian session is
wholly Italian; the expert's explanations come from :mod:`bots.perudo.expert.explain`.
Counts agree with their nouns ("1 die", "1 dado") through :func:`dice`.
"""

from __future__ import annotations

from typing import Any

from bots.perudo.expert.words import plural

#: key -> (English, Italian) templates for :meth:`str.format`.
MESSAGES: dict[str, tuple[str, str]] = {
    "hello": (
        "Perudo supporter: you are seat {seat} of {players}. Type help.",
        "Assistente per il Perudo: sei al posto {seat} su {players}. Scrivi help.",
    ),
    "round": (
        "New round: your dice {dice}; {in_play} in play.",
        "Nuovo turno: i tuoi dadi {dice}; {in_play} in gioco.",
    ),
    "opens": ("Seat {seat} opens this round.", "Apre il turno il posto {seat}."),
    "you_open": ("You open this round.", "Apri tu il turno."),
    "palifico_round": (
        "Palifico round, declared by seat {seat}: aces are not wild.",
        "Turno di Palifico, dichiarato dal posto {seat}: le Teste di Lama non sono Jolly.",
    ),
    "bid": ("Seat {seat} bids {bid}.", "Il posto {seat} dichiara {bid}."),
    "dudo": ("Seat {seat} calls Dudo on {bid}.", "Il posto {seat} dice Dudo su {bid}."),
    "calza": (
        "Seat {seat} calls calza on {bid}.",
        "Il posto {seat} dice calza su {bid}.",
    ),
    "ask_count": (
        "How many dice counted for it? Type: count 7",
        "Quanti dadi contavano? Scrivi: count 7",
    ),
    "counted": ("Counted: {count}.", "Risultato del conto: {count}."),
    "bid_true": ("The bid was true.", "La dichiarazione era vera."),
    "bid_false": ("The bid was false.", "La dichiarazione era falsa."),
    "calza_right": (
        "Exactly right: seat {seat} wins a die back.",
        "Conto esatto: il posto {seat} riprende un dado.",
    ),
    "calza_full": (
        "Exactly right, but seat {seat} already holds the most dice allowed.",
        "Conto esatto, ma il posto {seat} ha già il massimo dei dadi.",
    ),
    "calza_wrong": (
        "Not exact: seat {seat} loses a die.",
        "Conto sbagliato: il posto {seat} perde un dado.",
    ),
    "loses": ("Seat {seat} loses a die.", "Il posto {seat} perde un dado."),
    "holds": ("Seat {seat} now holds {dice}.", "Ora il posto {seat} ha {dice}."),
    "out": ("Seat {seat} is out of the game.", "Il posto {seat} è eliminato."),
    "next_starts": (
        "Seat {seat} starts the next round.",
        "Il prossimo turno lo apre il posto {seat}.",
    ),
    "you_start": ("You start the next round.", "Il prossimo turno lo apri tu."),
    "next_palifico": (
        "Seat {seat} is down to one die: the next round is a Palifico round.",
        "Al posto {seat} resta un solo dado: il prossimo turno è di Palifico.",
    ),
    "winner": ("Seat {seat} wins the game.", "Il posto {seat} vince la partita."),
    "you_win": ("You win the game!", "Hai vinto la partita!"),
    "need_dice": (
        "Tell me your dice first: dice 3 4 4 1 6",
        "Prima dimmi i tuoi dadi: dice 3 4 4 1 6",
    ),
    "suggest_bid": ("bid {action}", "dichiara {action}"),
    "suggestion": (">> {what}  (probability {pct})", ">> {what}  (probabilità {pct})"),
    "counts": ("{in_play} in play.", "{in_play} in gioco."),
    "palifico_set": (
        "Palifico round declared by seat {seat}: aces are not wild.",
        "Turno di Palifico dichiarato dal posto {seat}: le Teste di Lama non sono Jolly.",
    ),
    "show": (
        "You are seat {seat}; your dice {dice}; dice per seat {counts} ({in_play} in play); "
        "{palifico}; bids: {bids}.",
        "Sei al posto {seat}; i tuoi dadi {dice}; dadi per posto {counts} ({in_play} in "
        "gioco); {palifico}; dichiarazioni: {bids}.",
    ),
    "show_palifico": ("Palifico round of seat {seat}", "turno di Palifico del posto {seat}"),
    "show_normal": ("normal round", "turno normale"),
    "none": ("none", "nessuna"),
    # errors
    "bad_dice": ("dice are 1 to 6: dice 3 4 4 1 6", "i dadi vanno da 1 a 6: dice 3 4 4 1 6"),
    "too_many_dice": (
        "you cannot hold more than {dice}",
        "non puoi avere più di {dice}",
    ),
    "bad_counts": (
        "give {players} counts of 0 to {most}",
        "scrivi {players} numeri di dadi, da 0 a {most}",
    ),
    "bad_seat": ("name a seat 0 to {last}", "indica un posto da 0 a {last}"),
    "seat_out": ("seat {seat} has no dice left", "il posto {seat} non ha più dadi"),
    "bad_bid": (
        "{text!r} is not a bid: write quantity x face, e.g. 5x4",
        "{text!r} non è una dichiarazione: scrivi quantità x numero, per esempio 5x4",
    ),
    "no_aces_opening": (
        "a round may not be opened on aces, except in a Palifico round",
        "non si apre un turno sulle Teste di Lama, tranne nel Palifico",
    ),
    "too_high": (
        "{bid} names more dice than the {cap} of the table",
        "{bid} chiede più dadi dei {cap} del tavolo",
    ),
    "no_raise": (
        "{bid} does not raise {last}: the lowest bids allowed are {allowed}",
        "{bid} non supera {last}: le dichiarazioni più basse ammesse sono {allowed}",
    ),
    "nothing_to_doubt": (
        "there is no bid to challenge yet",
        "non c'è ancora nessuna dichiarazione da sfidare",
    ),
    "own_bid": (
        "seat {seat} cannot challenge its own bid",
        "il posto {seat} non può sfidare la propria dichiarazione",
    ),
    "no_calza": (
        "this table does not play calza (start with --calza)",
        "a questo tavolo non si gioca la calza (avvia con --calza)",
    ),
    "no_challenge": (
        "no challenge is waiting for its count: first 2 dudo",
        "nessuna sfida attende il conto: prima 2 dudo",
    ),
    "pending": (
        "first tell me the count of the challenge: count 7",
        "prima dimmi il conto della sfida: count 7",
    ),
    "bad_count": ("a count is 0 to {most}", "il conto va da 0 a {most}"),
    "unknown": ("unknown command {line!r}: type help", "comando sconosciuto {line!r}: scrivi help"),
    "game_over": ("the game is over", "la partita è finita"),
}


def dice(n: int, lang: str) -> str:
    """``n`` dice with the right noun: "1 die", "4 dice"; "1 dado", "4 dadi"."""
    return plural(n, "die", "dice") if lang == "en" else plural(n, "dado", "dadi")


def say(lang: str, key: str, **values: Any) -> str:
    """The message ``key`` in ``lang`` ("en" or "it") with ``values`` filled in."""
    en, it = MESSAGES[key]
    return (en if lang == "en" else it).format(**values)
