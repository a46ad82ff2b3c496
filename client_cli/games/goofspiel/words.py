"""Goofspiel's words in the terminal client, in English and Italian."""

from __future__ import annotations

from client_cli.words import Table

RULES_EN = """\
# Goofspiel

Every player holds the cards 1 to N; a prize deck of the same cards is shuffled from the
seed. Each round shows a prize card, and each player bids one card of their hand in secret.
The single highest bid wins the prize's points; a tie for the highest wins nothing. After N
rounds the highest score wins.
"""

RULES_IT = """\
# Goofspiel

Ogni giocatore ha le carte da 1 a N; un mazzo di premi con le stesse carte è mescolato dal
seme. A ogni giro si scopre un premio e ognuno offre in segreto una carta della sua mano.
L'offerta più alta, se è una sola, vince i punti del premio; un pari al vertice non vince
nulla. Dopo N giri vince chi ha più punti.
"""

WORDS: Table = {
    "en": {
        "rules": RULES_EN,
        "keys": "**Goofspiel**: type a card in the card box, then `Enter` · `e` go to the box.",
        "commands": "Goofspiel\n  5                                bid your card 5",
        "starts": "The game starts: {seats} players, cards 1 to {cards}.",
        "prize": "Round {round}: the prize is {card}.",
        "you_bid": "You bid {card}.",
        "bids": "{name} bids a card.",
        "reveal": "Bids: {bids}. {name} wins {prize} (score {score}).",
        "tie": "Bids: {bids}. A tie: nobody wins the {prize}.",
        "forfeits": "{name} forfeits ({reason}).",
        "game_over": "Game over: {names} wins ({reason}).",
        "header": "Room {room} · Goofspiel · round {round} of {cards}",
        "prize_line": "Prize: {card}",
        "scores": "Scores (seat order):",
        "you": " (you)",
        "has_bid": " · has bid",
        "your_hand": "Your hand: {cards}",
        "your_turn": "YOUR TURN: bid a card of your hand (e.g. {example})",
        "waiting_for": "Waiting for {name}.",
        "not_a_card": "{action!r} is not a card: type its number, like 5",
        "not_in_hand": "{action} is not in your hand",
        "card_box": "card, e.g. 5",
        "bid_button": "Bid",
    },
    "it": {
        "rules": RULES_IT,
        "keys": "**Goofspiel**: scrivi una carta nella casella, poi `Invio` · `e` va alla casella.",
        "commands": "Goofspiel\n  5                                offri la tua carta 5",
        "starts": "Si comincia: {seats} giocatori, carte da 1 a {cards}.",
        "prize": "Giro {round}: il premio è {card}.",
        "you_bid": "Offri {card}.",
        "bids": "{name} offre una carta.",
        "reveal": "Offerte: {bids}. {name} vince {prize} (punti {score}).",
        "tie": "Offerte: {bids}. Pari: nessuno vince il {prize}.",
        "forfeits": "{name} abbandona ({reason}).",
        "game_over": "Partita finita: vince {names} ({reason}).",
        "header": "Tavolo {room} · Goofspiel · giro {round} di {cards}",
        "prize_line": "Premio: {card}",
        "scores": "Punti (in ordine di posto):",
        "you": " (tu)",
        "has_bid": " · ha offerto",
        "your_hand": "La tua mano: {cards}",
        "your_turn": "TOCCA A TE: offri una carta della tua mano (per esempio {example})",
        "waiting_for": "Si aspetta {name}.",
        "not_a_card": "{action!r} non è una carta: scrivi il suo numero, come 5",
        "not_in_hand": "{action} non è nella tua mano",
        "card_box": "carta, es. 5",
        "bid_button": "Offri",
    },
}
