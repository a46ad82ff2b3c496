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
        "Assistente per il Perudo: sei al posto {seat} su {players}. Scrivi aiuto.",
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
        "Quanti dadi contavano? Scrivi: conto 7",
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
        "Prima dimmi i tuoi dadi: dadi 3 4 4 1 6",
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
    "bad_dice": ("dice are 1 to 6: dice 3 4 4 1 6", "i dadi vanno da 1 a 6: dadi 3 4 4 1 6"),
    "wrong_dice": (
        "you hold {held}, not {told}: if that is wrong, correct it with counts first",
        "hai {held}, non {told}: se è sbagliato, correggi prima con conti",
    ),
    "not_turn": (
        "it is seat {turn}'s turn, not seat {seat}'s",
        "tocca al posto {turn}, non al posto {seat}",
    ),
    "count_vs_dice": (
        "a count of {count} for {bid} cannot be: your own dice make it {least} to {most}",
        "un conto di {count} per {bid} è impossibile: con i tuoi dadi va da {least} a {most}",
    ),
    "palifico_one_die": (
        "only a seat holding one die starts a Palifico round; seat {seat} holds {held}",
        "solo chi ha un dado apre un turno di Palifico; il posto {seat} ha {held}",
    ),
    "palifico_late": (
        "a Palifico round is declared before its first bid",
        "il Palifico si dichiara prima della prima dichiarazione del turno",
    ),
    "start_late": (
        "this round's first bid is made: undo it to change who opened",
        "il turno è già aperto da una dichiarazione: annullala per cambiare chi apre",
    ),
    "full": (
        "seat {seat} already holds the most dice allowed",
        "il posto {seat} ha già il massimo dei dadi",
    ),
    "internal": (
        "the supporter failed on that line ({error}); the table is as before",
        "l'assistente ha sbagliato su questa riga ({error}); il tavolo è come prima",
    ),
    "nothing_to_undo": ("nothing to undo", "niente da annullare"),
    "undone": ("Undone: {line}", "Annullato: {line}"),
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
    "bad_face": (
        "{text}: a face is 1 to 6 (aces are 1)",
        "{text}: un numero va da 1 a 6 (le Teste di Lama sono 1)",
    ),
    "bad_quantity": (
        "{text}: a bid names at least 1 die",
        "{text}: una dichiarazione chiede almeno 1 dado",
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
        "nessuna sfida attende il conto: prima 2 dubito",
    ),
    "pending": (
        "first tell me the count of the challenge: count 7",
        "prima dimmi il conto della sfida: conto 7",
    ),
    "bad_count": ("a count is 0 to {most}", "il conto va da 0 a {most}"),
    "unknown": (
        "unknown command {line!r}: type help",
        "comando sconosciuto {line!r}: scrivi aiuto",
    ),
    "game_over": ("the game is over", "la partita è finita"),
}


def dice(n: int, lang: str) -> str:
    """``n`` dice with the right noun: "1 die", "4 dice"; "1 dado", "4 dadi"."""
    return plural(n, "die", "dice") if lang == "en" else plural(n, "dado", "dadi")


def say(lang: str, key: str, **values: Any) -> str:
    """The message ``key`` in ``lang`` ("en" or "it") with ``values`` filled in."""
    en, it = MESSAGES[key]
    return (en if lang == "en" else it).format(**values)


#: The commands, as ``help`` (and ``umpire advise --help``) lists them: plain text.
HELP: tuple[str, str] = (
    """Commands, one a line; seats are numbered from 0, clockwise:
    dice 3 4 4 1 6      a new round: your dice
    3 5x4               seat 3 bids five 4s (also: bid 3 5x4)
    2 dudo 7            seat 2 calls Dudo on the last bid; 7 dice counted for it
    2 dudo              the same, and tell the count afterwards: count 7
    2 calza 5           seat 2 calls calza (a table playing calza); 5 dice counted
    lost 2              seat 2 lost a die (gained 2: won one back), without a count
    start 2             seat 2 opens this round (normally worked out for you)
    palifico 1          this round is Palifico, declared by seat 1 (normally automatic)
    counts 5 5 4 3      every seat's dice count at once
    undo                take back the last entry that changed the table
    hint                the suggestion now (also: ?)
    show                the table as the advisor sees it
    help, quit
A line that does not fit the table is refused with the reason and changes nothing.""",
    """Comandi, uno per riga; i posti si contano da 0, in senso orario:
    dadi 3 4 4 1 6      un nuovo turno: i tuoi dadi (anche: dice)
    3 5x4               il posto 3 dichiara cinque 4 (anche: dichiara 3 5x4)
    2 dubito 7          il posto 2 dice Dudo sull'ultima dichiarazione; contavano 7 dadi
                        (anche: 2 dudo 7)
    2 dubito            lo stesso, e il conto dopo: conto 7
    2 calza 5           il posto 2 dice calza (se al tavolo si gioca); contavano 5 dadi
    perde 2             il posto 2 perde un dado (riprende 2: ne riprende uno), senza conto
    apre 2              il posto 2 apre questo turno (di solito lo calcolo io)
    palifico 1          questo turno è di Palifico, dichiarato dal posto 1 (di solito automatico)
    conti 5 5 4 3       i dadi di ogni posto, tutti insieme
    annulla             annulla l'ultima riga che ha cambiato il tavolo
    consiglio           il suggerimento ora (anche: ?)
    mostra              il tavolo come lo vedo io
    aiuto, esci
Una riga che non torna con il tavolo è rifiutata con il motivo e non cambia nulla.""",
)

#: Italian (and other) words for the commands, to the English command they stand for.
ALIASES: dict[str, str] = {
    "aiuto": "help",
    "esci": "quit",
    "fine": "quit",
    "exit": "quit",
    "?": "hint",
    "consiglio": "hint",
    "suggerimento": "hint",
    "mostra": "show",
    "tavolo": "show",
    "dadi": "dice",
    "perde": "lost",
    "perso": "lost",
    "riprende": "gained",
    "conto": "count",
    "conti": "counts",
    "apre": "start",
    "dichiara": "bid",
    "annulla": "undo",
    "dubito": "dudo",
}


def help_text(lang: str) -> str:
    """The command list in ``lang``."""
    return HELP[0] if lang == "en" else HELP[1]
