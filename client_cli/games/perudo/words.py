"""Perudo's words in the terminal client, in English and Italian."""

from __future__ import annotations

from client_cli.words import Table

RULES_EN = """\
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
"""

RULES_IT = """\
# Perudo (dadi del bugiardo)

Ognuno agita i suoi dadi sotto un bicchiere e vede solo i propri. A turno si punta su
quanti dadi *di tutto il tavolo* mostrano una faccia: `5x4` vuol dire "almeno cinque 4".
I paco (faccia 1) sono jolly: valgono per ogni faccia, tranne in un giro palifico.

- Si rilancia con più dadi di qualunque faccia, o con lo stesso numero di una faccia più
  alta. Per puntare sui paco basta la metà (per eccesso); dai paco a una faccia, il doppio
  più uno.
- **Dudo**: dubiti dell'ultima puntata. Si scoprono i bicchieri e si conta. Se la puntata
  regge perdi un dado; altrimenti lo perde chi ha puntato.
- **Calza** (se il tavolo la ammette): dici che la puntata è esatta. Se hai ragione
  riprendi un dado, se no ne perdi uno.
- **Palifico**: la prima volta che un giocatore resta con un dado, il giro dopo è palifico:
  i paco non sono jolly e la faccia chiamata per prima è bloccata (solo chi ha un dado può
  cambiarla).
- Vince l'ultimo con dei dadi. I dadi vengono da un seme che il server si impegna a usare
  all'inizio e rivela alla fine; la rivista controlla ogni bicchiere.
"""

KEYS_EN = (
    "**Perudo**: type `5x4` or pick quantity and face, then `Enter` or **Bid** · `d` dudo ·"
    " `a` calza · `h` hint (the expert's suggestion and why) · `v` replay once finished."
)

KEYS_IT = (
    "**Perudo**: scrivi `5x4` o scegli quantità e faccia, poi `Invio` o **Punta** · `d` dudo"
    " · `a` calza · `h` consiglio (il suggerimento dell'esperto e perché) · `v` rivedi a"
    " partita finita."
)

COMMANDS_EN = """\
Perudo
  5x4 | bid 5x4                    bid five 4s (aces are face 1)
  dudo | calza                     challenge the last bid"""

COMMANDS_IT = """\
Perudo
  5x4 | bid 5x4                    punta cinque 4 (i paco sono la faccia 1)
  dudo | calza                     sfida l'ultima puntata"""

WORDS: Table = {
    "en": {
        "rules": RULES_EN,
        "keys": KEYS_EN,
        # the log
        "game_started": "The game starts: {seats} players, {count} dice each.",
        "game_started_one": "The game starts: {seats} players, {count} die each.",
        "round_started": "Round {round}: {name} starts.",
        "palifico_for": "PALIFICO for {name}: aces are not wild, the face is locked.",
        "bids": "{name} bids {bid}.",
        "bid_words": "{bid} ({count} {face}s)",
        "bid_words_one": "{bid} (one {face})",
        "bid_aces": "{bid} ({count} aces)",
        "bid_aces_one": "{bid} ({count} ace)",
        "calls": "{name} calls {kind} on {bidder}'s {bid}.",
        "reveal": "Reveal: {cups}. Count {count}: the bid {bid} is {verdict}{more}.",
        "others_hidden": " (the other cups stay hidden)",
        "true": "true",
        "false": "false",
        "loses": "{name} loses a die ({reason}).",
        "gains": "{name} gains a die ({reason}).",
        "keeps": "{name} keeps all dice ({reason}).",
        "changes": "{name} changes dice ({reason}).",
        "is_out": "{name} is out.",
        "forfeits": "{name} forfeits ({reason}); the round is void.",
        "game_over": "Game over: {names} wins ({reason}).",
        "aborted": "The game was aborted: {reason}.",
        # reasons (the server sends codes: docs/protocol.md, "Reason codes")
        "reason_lost_dudo": "wrong Dudo",
        "reason_bid_false": "the bid was false",
        "reason_won_calza": "right Calza",
        "reason_lost_calza": "wrong Calza",
        "reason_last_player_standing": "last player standing",
        "reason_timeout": "time ran out",
        "reason_abandoned": "left the game",
        "reason_no_show": "did not come",
        "reason_internal_error": "a server fault",
        "reason_decided_before_open": "decided before the room opened",
        # the table
        "header": "Room {room} · Perudo ({preset}) · round {round}",
        "calza_allowed": " · calza allowed",
        "palifico_banner": (
            "*** PALIFICO round for {name}: aces are not wild; the face is locked ***"
        ),
        "players": "Players (seat order):",
        "you": " (you)",
        "out": "out",
        "dice": "{count} dice",
        "dice_one": "{count} die",
        "unknown_dice": "? dice",
        "your_dice": "Your dice: {dice}",
        "bids_line": "Bids: {bids}",
        "no_bids": "Bids: none yet this round",
        "last_reveal": "Last reveal: {kind} on {bid}: count {count}, bid {verdict}; {cups}",
        "your_turn": "YOUR TURN: bid (e.g. {example}){more}, or hint",
        "waiting_for": "Waiting for {name}.",
        # commands
        "not_a_bid": "{action!r} is not a bid: write QxF like 5x4 (aces are 1), dudo or calza",
        "no_calza": "calza is not allowed here",
        "not_legal": "{action} is not a legal bid now",
        "to_beat": " (the bid to beat is {bid})",
        "commands": COMMANDS_EN,
        # the replay
        "seed_hidden": "The seed is not revealed yet: hidden cups stay hidden.",
        "seed_bad": "WARNING: sha256(seed) does not match the commitment.",
        "seed_ok": "The seed matches its commitment (sha256).",
        "round": "Round {round}",
        "no_round_yet": "Before the first round",
        "palifico_mark": " (palifico)",
        "cup_out": "  {name}: out",
        "cups_differ": "WARNING: {count} cups differ from what the seed gives.",
        "cups_match": "Every cup shown during the game matches the seed.",
        # the screen
        "bid_box": "bid, e.g. 5x4",
        "quantity": "qty",
        "face": "face",
        "bid_button": "Bid",
        "dudo_button": "Dudo (d)",
        "calza_button": "Calza (a)",
        "hint_button": "Hint (h)",
        "type_a_bid": "Type a bid like 5x4 or pick quantity and face.",
        "asking": "Asking for a hint...",
        "no_hint": "No hint available.",
    },
    "it": {
        "rules": RULES_IT,
        "keys": KEYS_IT,
        "game_started": "Si comincia: {seats} giocatori, {count} dadi a testa.",
        "game_started_one": "Si comincia: {seats} giocatori, {count} dado a testa.",
        "round_started": "Giro {round}: comincia {name}.",
        "palifico_for": "PALIFICO per {name}: i paco non sono jolly, la faccia è bloccata.",
        "bids": "{name} punta {bid}.",
        "bid_words": "{bid} ({count} dadi da {face})",
        "bid_words_one": "{bid} ({count} dado da {face})",
        "bid_aces": "{bid} ({count} paco)",
        "bid_aces_one": "{bid} ({count} paco)",
        "calls": "{name} chiama {kind} sulla puntata {bid} di {bidder}.",
        "reveal": "Si scopre: {cups}. Sono {count}: la puntata {bid} è {verdict}{more}.",
        "others_hidden": " (gli altri bicchieri restano coperti)",
        "true": "vera",
        "false": "falsa",
        "loses": "{name} perde un dado ({reason}).",
        "gains": "{name} guadagna un dado ({reason}).",
        "keeps": "{name} tiene tutti i dadi ({reason}).",
        "changes": "{name} cambia dadi ({reason}).",
        "is_out": "{name} è fuori.",
        "forfeits": "{name} abbandona ({reason}); il giro è annullato.",
        "game_over": "Partita finita: vince {names} ({reason}).",
        "aborted": "La partita è stata interrotta: {reason}.",
        "reason_lost_dudo": "Dudo sbagliato",
        "reason_bid_false": "la puntata era falsa",
        "reason_won_calza": "Calza giusta",
        "reason_lost_calza": "Calza sbagliata",
        "reason_last_player_standing": "ultimo rimasto in gioco",
        "reason_timeout": "tempo scaduto",
        "reason_abandoned": "ha lasciato la partita",
        "reason_no_show": "non si è presentato",
        "reason_internal_error": "un guasto del server",
        "reason_decided_before_open": "decisa prima che il tavolo aprisse",
        "header": "Tavolo {room} · Perudo ({preset}) · giro {round}",
        "calza_allowed": " · calza ammessa",
        "palifico_banner": (
            "*** Giro PALIFICO per {name}: i paco non sono jolly; la faccia è bloccata ***"
        ),
        "players": "Giocatori (in ordine di posto):",
        "you": " (tu)",
        "out": "fuori",
        "dice": "{count} dadi",
        "dice_one": "{count} dado",
        "unknown_dice": "? dadi",
        "your_dice": "I tuoi dadi: {dice}",
        "bids_line": "Puntate: {bids}",
        "no_bids": "Puntate: ancora nessuna in questo giro",
        "last_reveal": "Ultima scoperta: {kind} su {bid}: sono {count}, puntata {verdict}; {cups}",
        "your_turn": "TOCCA A TE: punta (per esempio {example}){more}, o chiedi un consiglio",
        "waiting_for": "Si aspetta {name}.",
        "not_a_bid": (
            "{action!r} non è una puntata: scrivi QxF come 5x4 (i paco sono 1), dudo o calza"
        ),
        "no_calza": "la calza non è ammessa qui",
        "not_legal": "{action} non è una puntata valida ora",
        "to_beat": " (la puntata da superare è {bid})",
        "commands": COMMANDS_IT,
        "seed_hidden": "Il seme non è ancora rivelato: i bicchieri coperti restano coperti.",
        "seed_bad": "ATTENZIONE: sha256(seme) non corrisponde all'impegno.",
        "seed_ok": "Il seme corrisponde al suo impegno (sha256).",
        "round": "Giro {round}",
        "no_round_yet": "Prima del primo giro",
        "palifico_mark": " (palifico)",
        "cup_out": "  {name}: fuori",
        "cups_differ": "ATTENZIONE: {count} bicchieri diversi da quelli del seme.",
        "cups_match": "Ogni bicchiere mostrato in partita corrisponde al seme.",
        "bid_box": "puntata, es. 5x4",
        "quantity": "qtà",
        "face": "faccia",
        "bid_button": "Punta",
        "dudo_button": "Dudo (d)",
        "calza_button": "Calza (a)",
        "hint_button": "Consiglio (h)",
        "type_a_bid": "Scrivi una puntata come 5x4 o scegli quantità e faccia.",
        "asking": "Chiedo un consiglio...",
        "no_hint": "Nessun consiglio disponibile.",
    },
}
