"""Kriegspiel's words in the terminal client, in English and Italian."""

from __future__ import annotations

from client_cli.words import Table

RULES_EN = """\
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

RULES_IT = """\
# Kriegspiel

Scacchi in cui vedi solo i tuoi pezzi. Un arbitro vede le due scacchiere. Al tuo turno
*provi* delle mosse; l'arbitro dice "illegale" e riprovi, oppure la mossa è fatta ed
entrambi sentono ciò che l'arbitro annuncia:

- le prese (la casa e, con quasi tutte le regole, se è stato preso un pedone o un pezzo),
- gli scacchi (di traversa, di colonna, di diagonale lunga o corta, o di cavallo),
- i tentativi di pedone: se chi muove ha prese di pedone (quante, sì/no, o quali pedoni,
  secondo le regole); con `english` chiedi tu "Ce ne sono?" (`any`), e dopo un "sì" devi
  provare una presa di pedone.
- Regole: `wild16` (ICC; l'avversario non sente i tuoi tentativi illegali), `cincinnati`,
  `rand`, `english`. Segna dove credi che siano i pezzi nemici: i segni restano sul tuo
  schermo e non vengono mai inviati.
"""

KEYS_EN = (
    "**Kriegspiel**: arrows move the cursor on the board · `Space`/`Enter` choose the square"
    " a piece leaves, then the square it goes to (a promotion asks for the piece: q, r, b, n)"
    " · `p n b r q k` mark a suspected enemy piece under the cursor · `x` clear it · `y` any?"
    " · type UCI (`e2e4`) in the command line · `v` replay once finished."
)

KEYS_IT = (
    "**Kriegspiel**: le frecce muovono il cursore · `Spazio`/`Invio` scegli la casa da cui"
    " parte un pezzo, poi quella in cui va · `p n b r q k` segna un pezzo nemico sospetto"
    " sotto il cursore · `x` lo toglie · `y` ce ne sono? · scrivi la mossa in UCI (`e2e4`)"
    " nella riga dei comandi · `v` rivedi a partita finita."
)

COMMANDS_EN = """\
Kriegspiel
  e2e4 | e7e8q                     try a move (UCI; castling is e1g1)
  any                              "Are there any?" (english rules)
  draw | accept | decline | resign
  mark SQUARE PIECE | unmark SQUARE | markers   your private notes on enemy pieces"""

COMMANDS_IT = """\
Kriegspiel
  e2e4 | e7e8q                     prova una mossa (UCI; l'arrocco è e1g1)
  any                              "Ce ne sono?" (regole english)
  draw | accept | decline | resign proponi, accetta, rifiuta la patta; abbandona
  mark CASA PEZZO | unmark CASA | markers   i tuoi appunti privati sui pezzi nemici"""

WORDS: Table = {
    "en": {
        "rules": RULES_EN,
        "keys": KEYS_EN,
        "commands": COMMANDS_EN,
        # the umpire's log
        "you": "You",
        "white": "White",
        "black": "Black",
        "color_white": "white",
        "color_black": "black",
        "starts": "The game starts under {rules} rules.",
        "you_play": " You play {color}.",
        "moved_move": "{who} moved {move}.",
        "moved": "{who} moved.",
        "en_passant": "Capture en passant at {square} (pawn {pawn} taken).",
        "capture": "Capture on {square}{what}.",
        "captured": " ({what})",
        "captured_pawn": "pawn",
        "captured_piece": "piece",
        "check": "Check: {directions}.",
        "dir_rank": "rank",
        "dir_file": "file",
        "dir_long_diagonal": "long diagonal",
        "dir_short_diagonal": "short diagonal",
        "dir_knight": "knight",
        "promoted": "A pawn was promoted.",
        "tried_move": "{who} tried {move}: {answer}.",
        "tried": "{who} tried a move: {answer}.",
        "answer_illegal": "illegal",
        "answer_impossible": "impossible",
        "reason_checkmate": "checkmate",
        "reason_stalemate": "stalemate",
        "reason_insufficient_material": "insufficient material",
        "reason_fifty_moves": "the 50-move rule",
        "reason_seventyfive_moves": "the 75-move rule",
        "reason_threefold_repetition": "threefold repetition",
        "reason_fivefold_repetition": "fivefold repetition",
        "reason_resignation": "resignation",
        "reason_agreed_draw": "draw agreed",
        "reason_timeout": "time ran out",
        "reason_abandoned": "left the game",
        "reason_no_show": "did not come",
        "reason_internal_error": "a server fault",
        "reason_decided_before_open": "decided before the room opened",
        "tries_from": "{who}: pawn tries from {squares}",
        "none": "none",
        "tries_count": "{who}: {count} pawn tries",
        "tries_count_one": "{who}: {count} pawn try",
        "pawns_count": "{who}: {count} pawns can capture",
        "pawns_count_one": "{who}: {count} pawn can capture",
        "tries_any": "{who}: pawn tries {answer}",
        "tries": "{who}: pawn tries",
        "yes": "yes",
        "no": "no",
        "asked": "{who} asked: any? {answer}",
        "asked_any": '{who} asked "Are there any?": {answer}.',
        "yes_try": "yes, try a pawn capture",
        "offered": "{who} offered a draw.",
        "declined": "{who} declined the draw.",
        "game_over": "Game over: {result} ({reason}).",
        "aborted": "The game was aborted: {reason}.",
        # the board and the status
        "header": "Room {room} · Kriegspiel ({rules}) · you play {color}",
        "nobody": "nobody",
        "spectator": "nobody (spectator)",
        "status": "{rules} · you play {color}",
        "untimed": "Clocks: untimed",
        "clocks": "Clocks: {clocks}",
        "pawn_tries": "Pawn tries: {text}",
        "must_capture": (
            "You asked 'any?' and heard yes: your next attempt must be a pawn capture."
        ),
        "must_capture_short": "After 'yes': your next attempt must be a pawn capture.",
        "draw_offer": "Draw offered by {color}.",
        "your_turn": "YOUR TURN: try a move in UCI, e.g. {example}{refused}",
        "your_turn_short": "YOUR TURN{refused}",
        "refused": " (refused: {moves})",
        "refused_short": " · refused: {moves}",
        "to_move": "{who} to move.",
        "umpire": "Umpire:",
        "attempts": "YOUR TURN ({color}): {count} possible attempts{tries}.",
        # commands
        "already_refused": "{action} was already refused this turn",
        "promotes": "{action} promotes: add the piece, e.g. {example}",
        "not_possible": "{action} is not possible on your board now",
        "markers": "Markers: {marks}",
        "your_pieces": "Your pieces: {pieces}",
        "piece_k": "king",
        "pieces_k": "kings",
        "piece_q": "queen",
        "pieces_q": "queens",
        "piece_r": "rook",
        "pieces_r": "rooks",
        "piece_b": "bishop",
        "pieces_b": "bishops",
        "piece_n": "knight",
        "pieces_n": "knights",
        "piece_p": "pawn",
        "pieces_p": "pawns",
        "no_marks": "none",
        "mark_usage": "mark SQUARE PIECE | unmark SQUARE",
        "bad_marker": "a marker is one of {pieces}, not {piece!r}",
        "bad_square": "{square!r} is not a square",
        # the replay
        "not_revealed": "The server did not reveal the moves; showing your own view only.",
        "unmatched": "{count} real moves were not matched by announcements.",
        "final": "Final position: {fen}",
        # the screen
        "any_button": "Any? (y)",
        "offer_button": "Offer draw (o)",
        "accept_button": "Accept draw",
        "decline_button": "Decline draw",
        "resign_button": "Resign",
        "replay_key": "  (v: replay)",
    },
    "it": {
        "rules": RULES_IT,
        "keys": KEYS_IT,
        "commands": COMMANDS_IT,
        "you": "Tu",
        "white": "Il bianco",
        "black": "Il nero",
        "color_white": "bianco",
        "color_black": "nero",
        "starts": "Si comincia con le regole {rules}.",
        "you_play": " Giochi col {color}.",
        "moved_move": "{who} ha mosso {move}.",
        "moved_move_you": "Hai mosso {move}.",
        "moved": "{who} ha mosso.",
        "moved_you": "Hai mosso.",
        "en_passant": "Presa en passant in {square} (preso il pedone in {pawn}).",
        "capture": "Presa in {square}{what}.",
        "captured": " ({what})",
        "captured_pawn": "pedone",
        "captured_piece": "pezzo",
        "check": "Scacco: {directions}.",
        "dir_rank": "di traversa",
        "dir_file": "di colonna",
        "dir_long_diagonal": "di diagonale lunga",
        "dir_short_diagonal": "di diagonale corta",
        "dir_knight": "di cavallo",
        "promoted": "Un pedone è stato promosso.",
        "tried_move": "{who} ha provato {move}: {answer}.",
        "tried_move_you": "Hai provato {move}: {answer}.",
        "tried": "{who} ha provato una mossa: {answer}.",
        "tried_you": "Hai provato una mossa: {answer}.",
        "answer_illegal": "illegale",
        "answer_impossible": "impossibile",
        "reason_checkmate": "scacco matto",
        "reason_stalemate": "stallo",
        "reason_insufficient_material": "materiale insufficiente",
        "reason_fifty_moves": "regola delle 50 mosse",
        "reason_seventyfive_moves": "regola delle 75 mosse",
        "reason_threefold_repetition": "triplice ripetizione",
        "reason_fivefold_repetition": "quintuplice ripetizione",
        "reason_resignation": "abbandono",
        "reason_agreed_draw": "patta concordata",
        "reason_timeout": "tempo scaduto",
        "reason_abandoned": "ha lasciato la partita",
        "reason_no_show": "non si è presentato",
        "reason_internal_error": "un guasto del server",
        "reason_decided_before_open": "decisa prima che il tavolo aprisse",
        "tries_from": "{who}: tentativi di pedone da {squares}",
        "none": "nessuna casa",
        "tries_count": "{who}: {count} tentativi di pedone",
        "tries_count_one": "{who}: {count} tentativo di pedone",
        "pawns_count": "{who}: {count} pedoni possono prendere",
        "pawns_count_one": "{who}: {count} pedone può prendere",
        "tries_any": "{who}: tentativi di pedone {answer}",
        "tries": "{who}: tentativi di pedone",
        "yes": "sì",
        "no": "no",
        "asked": "{who} ha chiesto: ce ne sono? {answer}",
        "asked_you": "Hai chiesto: ce ne sono? {answer}",
        "asked_any": "{who} ha chiesto «Ce ne sono?»: {answer}.",
        "asked_any_you": "Hai chiesto «Ce ne sono?»: {answer}.",
        "yes_try": "sì, prova una presa di pedone",
        "offered": "{who} propone la patta.",
        "offered_you": "Proponi la patta.",
        "declined": "{who} rifiuta la patta.",
        "declined_you": "Rifiuti la patta.",
        "game_over": "Partita finita: {result} ({reason}).",
        "aborted": "La partita è stata interrotta: {reason}.",
        "header": "Tavolo {room} · Kriegspiel ({rules}) · giochi col {color}",
        "nobody": "nessuno",
        "spectator": "nessuno (spettatore)",
        "status": "{rules} · giochi col {color}",
        "untimed": "Orologi: senza tempo",
        "clocks": "Orologi: {clocks}",
        "pawn_tries": "Tentativi di pedone: {text}",
        "must_capture": (
            "Hai chiesto 'ce ne sono?' e la risposta è sì: il prossimo tentativo deve essere"
            " una presa di pedone."
        ),
        "must_capture_short": "Dopo il 'sì': il prossimo tentativo è una presa di pedone.",
        "draw_offer": "Patta proposta dal {color}.",
        "your_turn": "TOCCA A TE: prova una mossa in UCI, per esempio {example}{refused}",
        "your_turn_short": "TOCCA A TE{refused}",
        "refused": " (rifiutate: {moves})",
        "refused_short": " · rifiutate: {moves}",
        "to_move": "{who} muove.",
        "umpire": "Arbitro:",
        "attempts": "TOCCA A TE ({color}): {count} tentativi possibili{tries}.",
        "already_refused": "{action} è già stata rifiutata in questo turno",
        "promotes": "{action} promuove: aggiungi il pezzo, per esempio {example}",
        "not_possible": "{action} non è possibile sulla tua scacchiera ora",
        "markers": "Segni: {marks}",
        "your_pieces": "I tuoi pezzi: {pieces}",
        "piece_k": "re",
        "pieces_k": "re",
        "piece_q": "donna",
        "pieces_q": "donne",
        "piece_r": "torre",
        "pieces_r": "torri",
        "piece_b": "alfiere",
        "pieces_b": "alfieri",
        "piece_n": "cavallo",
        "pieces_n": "cavalli",
        "piece_p": "pedone",
        "pieces_p": "pedoni",
        "no_marks": "nessuno",
        "mark_usage": "mark CASA PEZZO | unmark CASA",
        "bad_marker": "un segno è uno fra {pieces}, non {piece!r}",
        "bad_square": "{square!r} non è una casa",
        "not_revealed": "Il server non ha rivelato le mosse; si vede solo la tua parte.",
        "unmatched": "{count} mosse reali senza annuncio corrispondente.",
        "final": "Posizione finale: {fen}",
        "any_button": "Ce ne sono? (y)",
        "offer_button": "Proponi patta (o)",
        "accept_button": "Accetta la patta",
        "decline_button": "Rifiuta la patta",
        "resign_button": "Abbandona",
        "replay_key": "  (v: rivedi)",
    },
}
