// Goofspiel (the tests' third game, tests/games/goofspiel.py): the table's state from views
// and events (pure), the table (the prize, the scores, your hand as buttons), and the
// game's words. No replay: the log tells the whole game.

import { h } from "../dom.js";
import { placingsView } from "../parts.js";
import { nameOf, seatNames } from "../shared.js";

export const NAME = "goofspiel";

// -- state (pure) ------------------------------------------------------------------------

/** A fresh table. */
export function newTable() {
  return { cards: 0, round: 0, prize: null, toMove: null, bid: [], scores: [], hand: [], reveal: null, outcome: null };
}

/** Take what a view (snapshot or turn) says of the table. */
export function applyView(room, view) {
  const g = room.table;
  g.cards = (view.options && view.options.cards) || g.cards;
  g.round = view.round ?? g.round;
  g.prize = view.prize ?? null;
  g.toMove = view.to_move ?? null;
  g.bid = [...(view.bid || [])];
  g.scores = [...(view.scores || [])];
  if (view.hand) g.hand = [...view.hand];
  g.reveal = (view.reveals || []).at(-1) || g.reveal;
  g.outcome = view.outcome ?? g.outcome;
}

function nextToMove(g) {
  const seat = g.bid.findIndex((done) => !done);
  return seat < 0 ? null : seat;
}

/** Apply one event to the table; return its log line ({key, args}) or null. */
export function applyEvent(room, e) {
  const g = room.table;
  const name = (s) => nameOf(room, s);
  switch (e.type) {
    case "game_started":
      g.cards = (e.options && e.options.cards) || 0;
      g.scores = Array(e.seats).fill(0);
      g.bid = Array(e.seats).fill(false);
      if (room.seat !== null) g.hand = Array.from({ length: g.cards }, (_, i) => i + 1);
      return { key: "goof_started", args: { seats: e.seats, count: g.cards } };
    case "prize":
      g.round = e.round;
      g.prize = e.card;
      g.bid = g.bid.map(() => false);
      g.toMove = nextToMove(g);
      return { key: "goof_prize", args: { round: e.round, card: e.card } };
    case "bid":
      g.bid[e.seat] = true;
      g.toMove = nextToMove(g);
      if (e.card !== undefined) {
        g.hand = g.hand.filter((c) => c !== e.card);
        return { key: "goof_bid_own", args: { card: e.card } };
      }
      return { key: "goof_bid", args: { name: name(e.seat) } };
    case "reveal": {
      g.scores = [...e.scores];
      g.reveal = e;
      const bids = e.bids.map((card, seat) => `${name(seat)} ${card}`).join(", ");
      if (e.winner === null) return { key: "goof_tie", args: { bids, card: e.prize } };
      return { key: "goof_won", args: { bids, name: name(e.winner), card: e.prize } };
    }
    case "forfeit":
      return { key: "goof_forfeit", args: { name: name(e.seat), reason: `reason_${e.reason}` }, tr: ["reason"] };
    case "game_over":
      g.toMove = null;
      g.prize = null;
      g.scores = [...(e.scores || g.scores)];
      g.outcome = { ranks: e.ranks, winners: e.winners, reason: e.reason };
      return { key: "goof_over", args: { names: (e.winners || []).map(name).join(", "), reason: `reason_${e.reason}` }, tr: ["reason"] };
    default:
      return null;
  }
}

// -- the page ----------------------------------------------------------------------------

/** The whole table for `room`. */
export function table(ui, room) {
  const t = (key, args) => ui.t(key, args, NAME);
  const g = room.table;
  const names = seatNames(room);
  const parts = [];
  if (g.prize !== null) {
    parts.push(h("p", { class: "prize", "data-card": g.prize, "data-round": g.round }, t("goof_round", { round: g.round, count: g.cards, card: g.prize })));
  }
  parts.push(h("ul", { class: "scores", "aria-label": t("goof_scores") }, g.scores.map((score, seat) =>
    h("li", { "data-seat": seat }, t("goof_score", { name: names[seat] || "?", count: score }), g.bid[seat] && !g.outcome ? " ✓" : ""))));
  if (g.reveal) {
    const r = g.reveal;
    const bids = r.bids.map((card, seat) => `${names[seat] || "?"} ${card}`).join(", ");
    parts.push(h("p", { class: "last-reveal" }, r.winner === null ? t("goof_tie", { bids, card: r.prize }) : t("goof_won", { bids, name: names[r.winner] || "?", card: r.prize })));
  }
  if (!g.outcome && room.frame.state === "playing") {
    parts.push(h("p", { class: "turn-of" }, room.turn ? t("yourTurn") : t("turnOf", { name: names[g.toMove] || "…" })));
  }
  if (room.seat !== null && g.hand.length) {
    const legal = room.turn && ui.acting !== room.id ? room.turn.legal || [] : [];
    parts.push(h("div", { class: "hand", role: "group", "aria-label": t("goof_hand") }, g.hand.map((card) =>
      h("button", { type: "button", class: "card-button", "data-card": card, "aria-label": t("goof_play", { card }), disabled: !legal.includes(String(card)), onclick: () => ui.act(room, String(card)) }, String(card)))));
  }
  if (g.outcome) parts.push(placingsView(ui, room, g.outcome, (seat) => t("goof_points", { count: g.scores[seat] ?? 0 })));
  return h("div", { class: "goofspiel" }, parts);
}

// -- words -------------------------------------------------------------------------------

export const words = {
  en: {
    goof_started: "The game starts: {seats} players, {count} cards each.",
    goof_prize: "Round {round}: the prize is {card}.",
    goof_bid_own: "You bid {card}.",
    goof_bid: "{name} bids.",
    goof_won: "Bids: {bids}. {name} wins {card}.",
    goof_tie: "Bids: {bids}. A tie: nobody wins {card}.",
    goof_forfeit: "{name} forfeits ({reason}).",
    goof_over: "Game over: {names} wins ({reason}).",
    goof_round: "Round {round} of {count}: the prize is {card}",
    goof_scores: "Scores",
    goof_score: "{name}: {count} points",
    goof_score_one: "{name}: {count} point",
    goof_points: "({count} points)",
    goof_points_one: "({count} point)",
    goof_hand: "Your cards",
    goof_play: "Bid {card}",
    opt_seats: "Players",
    opt_cards: "Cards",
  },
  it: {
    goof_started: "Si comincia: {seats} giocatori, {count} carte a testa.",
    goof_prize: "Giro {round}: in palio il {card}.",
    goof_bid_own: "Hai offerto il {card}.",
    goof_bid: "{name} ha offerto.",
    goof_won: "Offerte: {bids}. {name} vince il {card}.",
    goof_tie: "Offerte: {bids}. Pari: nessuno vince il {card}.",
    goof_forfeit: "{name} abbandona ({reason}).",
    goof_over: "Partita finita: vince {names} ({reason}).",
    goof_round: "Giro {round} di {count}: in palio il {card}",
    goof_scores: "Punteggi",
    goof_score: "{name}: {count} punti",
    goof_score_one: "{name}: {count} punto",
    goof_points: "({count} punti)",
    goof_points_one: "({count} punto)",
    goof_hand: "Le tue carte",
    goof_play: "Offri il {card}",
    opt_seats: "Giocatori",
    opt_cards: "Carte",
  },
};
