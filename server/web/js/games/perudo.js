// Perudo: the table's state from views and events (pure), the table (your dice, the other
// cups, the bids, the bid picker, the reveal), the replay that recomputes every cup from
// the revealed seed, and the game's words.

import { h } from "../dom.js";
import { placingsView } from "../parts.js";
import { canDraw, draw, seedKey, commitment } from "../seed.js";
import { nameOf, seatNames } from "../shared.js";

export const NAME = "perudo";

// -- state (pure) ------------------------------------------------------------------------

/** A fresh table. */
export function newTable() {
  return {
    seats: 0, options: {}, round: 0, starter: null, palifico: null, acesWild: true,
    toMove: null, bids: [], out: [], dice: [], diceLeft: null, counts: null,
    reveal: null, changes: [], outcome: null, history: [],
  };
}

/** Take what a view (snapshot or turn) says of the table. */
export function applyView(room, view) {
  const p = room.table;
  p.seats = view.seats ?? p.seats;
  p.options = view.options || p.options;
  p.round = view.round || 0;
  p.starter = view.starter ?? null;
  p.palifico = view.palifico ?? null;
  p.acesWild = view.aces_wild !== false;
  p.toMove = view.to_move ?? null;
  p.bids = (view.bids || []).map((b) => ({ seat: b.seat, bid: b.bid }));
  p.out = [...(view.out || [])];
  p.outcome = view.outcome ?? null;
  if (view.counts) p.counts = [...view.counts];
  if ("seat" in view && view.seat !== null) {
    p.dice = [...(view.dice || [])];
    p.diceLeft = view.dice_left ?? null;
  }
}

/** Apply one event to the table; return its log line ({key, args}) or null. */
export function applyEvent(room, e) {
  const p = room.table;
  const name = (s) => nameOf(room, s);
  switch (e.type) {
    case "game_started": {
      p.seats = e.seats;
      p.options = e.options || {};
      const per = p.options.dice_per_player ?? 5;
      if (p.options.show_dice_counts) p.counts = Array(p.seats).fill(per);
      return { key: "ev_game_started_perudo", args: { seats: e.seats, count: per } };
    }
    case "round_started":
      p.round = e.round;
      p.starter = e.starter;
      p.toMove = e.starter;
      p.palifico = e.palifico ?? null;
      p.acesWild = e.aces_wild !== false;
      p.bids = [];
      if (e.counts) p.counts = [...e.counts];
      if (e.dice) {
        p.dice = [...e.dice];
        p.diceLeft = e.dice.length;
      }
      return { key: "ev_round_started", args: { round: e.round, name: name(e.starter) } };
    case "bid":
      p.reveal = null; // the last round's reveal stays on the table until the first bid
      p.changes = [];
      p.bids.push({ seat: e.seat, bid: e.bid });
      p.toMove = e.next ?? null;
      return { key: "ev_bid", args: { name: name(e.seat), bid: e.bid } };
    case "challenge":
      p.toMove = null;
      p.changes = [];
      p.reveal = { kind: e.kind, caller: e.seat, bidder: e.bidder, bid: e.bid, revealed: [], count: null, bidTrue: null };
      // the round's record: its bids, the challenge, then the cups and the dice won or lost
      (p.history ||= []).push({ round: p.round, bids: p.bids.map((b) => ({ ...b })), reveal: p.reveal, changes: p.changes });
      return { key: "ev_challenge", args: { name: name(e.seat), kind: String(e.kind).toUpperCase(), bidder: name(e.bidder), bid: e.bid } };
    case "reveal":
      if (!p.reveal) {
        p.reveal = { kind: "dudo", caller: null, bidder: null, bid: e.bid };
        (p.history ||= []).push({ round: p.round, bids: p.bids.map((b) => ({ ...b })), reveal: p.reveal, changes: p.changes });
      }
      p.reveal.revealed = (e.revealed || []).map((r) => ({ seat: r.seat, dice: [...r.dice] }));
      p.reveal.count = e.count;
      p.reveal.bidTrue = e.bid_true;
      p.reveal.acesWild = e.aces_wild !== false;
      p.reveal.complete = e.complete !== false;
      return { key: "ev_reveal", args: { count: e.count, bid: e.bid, verdict: e.bid_true ? "bidTrue" : "bidFalse" }, tr: ["verdict"] };
    case "dice_changed": {
      const change = e.change || 0;
      if (p.counts && e.seat < p.counts.length) p.counts[e.seat] = Math.max(0, p.counts[e.seat] + change);
      if (e.seat === room.seat) {
        p.diceLeft = e.dice_left ?? Math.max(0, (p.diceLeft ?? 0) + change);
        // out: no dice left (not the one just lost, when no round follows to say so)
        if (e.out || p.diceLeft === 0) p.dice = [];
      }
      if (e.out && !p.out.includes(e.seat)) p.out.push(e.seat);
      const reason = changeReason(p, e);
      p.changes.push({ seat: e.seat, change, reason, out: Boolean(e.out) });
      const key = change < 0 ? "ev_lost" : change > 0 ? "ev_gained" : "ev_kept";
      const line = { key, args: { name: name(e.seat), reason }, tr: ["reason"] };
      // who is out, said on a line of its own
      return e.out ? { parts: [line, { key: "ev_out", args: { name: name(e.seat) } }] } : line;
    }
    case "forfeit":
      if (!p.out.includes(e.seat)) p.out.push(e.seat);
      return { key: "ev_forfeit", args: { name: name(e.seat), reason: `reason_${e.reason}` }, tr: ["reason"] };
    case "game_over":
      p.toMove = null;
      p.outcome = { ranks: e.ranks, winners: e.winners, reason: e.reason };
      return { key: "ev_game_over", args: { names: (e.winners || []).map(name).join(", "), reason: `reason_${e.reason}` }, tr: ["reason"] };
    default:
      return null;
  }
}

/** The words key of a dice change's reason. A lost Dudo is the bidder's when the bid was
 * false (the server's `lost_dudo` names the Dudo, not who lost it): said so. */
function changeReason(p, e) {
  if (e.reason === "lost_dudo" && p.reveal && p.reveal.bidder === e.seat && p.reveal.caller !== e.seat) return "reason_bid_false";
  return `reason_${e.reason}`;
}

/** Whether this page's seat is out of the game (no dice left) while it goes on. */
export function seatOut(room) {
  const p = room.table;
  return Boolean(p) && room.seat !== null && room.seat !== undefined && p.out.includes(room.seat) && !p.outcome;
}

/** "5x4" -> {quantity: 5, face: 4}; anything else -> null. */
export function parseBid(text) {
  const m = /^(\d+)x(\d)$/.exec(String(text).trim());
  return m ? { quantity: Number(m[1]), face: Number(m[2]) } : null;
}

/** The legal bids of a turn frame by face: {face: [quantities ascending]}. */
export function legalBids(legal) {
  const byFace = {};
  for (const action of legal || []) {
    const bid = parseBid(action);
    if (!bid) continue;
    (byFace[bid.face] ||= []).push(bid.quantity);
  }
  for (const face of Object.keys(byFace)) byFace[face].sort((a, b) => a - b);
  return byFace;
}

/** Whether die `face` counts towards a bid on `bidFace`. */
export function matches(face, bidFace, acesWild) {
  return face === bidFace || (acesWild && face === 1 && bidFace !== 1);
}

// -- the page ----------------------------------------------------------------------------

const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 25], [72, 25], [28, 50], [72, 50], [28, 75], [72, 75]],
};

/** One die as SVG; `face` null draws a hidden die. */
export function die(face, { label, hot = false, size = 40 } = {}) {
  const pips = face ? PIPS[face].map(([cx, cy]) => h("circle", { cx, cy, r: 9, class: face === 1 ? "pip ace" : "pip" })) : [h("text", { x: 50, y: 66, "text-anchor": "middle", class: "q" }, "?")];
  return h(
    "svg",
    { class: `die${hot ? " hot" : ""}${face ? "" : " hidden"}`, viewBox: "0 0 100 100", width: size, height: size, role: "img", "aria-label": label, "data-face": face || "" },
    h("rect", { x: 4, y: 4, width: 92, height: 92, rx: 16 }),
    ...pips,
  );
}

/** A winner's cup, drawn (an emoji needs a font that many machines lack). */
function cupIcon() {
  return h("svg", { class: "cup-icon", viewBox: "0 0 24 24", width: 18, height: 18, "aria-hidden": "true" },
    h("path", { d: "M7 3h10v3h3v2a4 4 0 0 1-4 4h-.3A5 5 0 0 1 13 14.9V18h3v3H8v-3h3v-3.1A5 5 0 0 1 8.3 12H8a4 4 0 0 1-4-4V6h3zm0 5V8H6a2 2 0 0 0 1 1.7zm10 0v1.7A2 2 0 0 0 18 8z" }));
}

/** This page's choice in the bid picker. */
function pick(ui) {
  return (ui.games[NAME] ||= { face: null, quantity: null });
}

/** The page's reaction to a frame of a Perudo room: each turn starts at the lowest bid. */
export function onFrame(ui, room, frame) {
  if (frame.type === "turn") Object.assign(pick(ui), { face: null, quantity: null });
}

/** The whole table for `room` (a room state) in the page `ui`. */
export function table(ui, room) {
  const t = (key, args) => ui.t(key, args, NAME);
  const p = room.table;
  const names = seatNames(room);
  const seats = room.frame.seats || [];
  const parts = [];
  if (seatOut(room) && !pick(ui).watchOn) parts.push(outView(ui, room));
  if (p.palifico !== null && p.palifico !== undefined && !p.outcome) {
    parts.push(h("p", { class: "palifico", role: "status" }, t("palificoBanner", { name: names[p.palifico] || "?" })));
  }
  if (room.seat !== null && p.dice.length) {
    parts.push(
      h("section", { class: "mine", "aria-label": t("yourDice") },
        h("h3", {}, t("yourDice")),
        h("div", { class: "dice my-dice" }, p.dice.map((f) => die(f, { label: String(f), size: 48 }))),
      ),
    );
  }
  const cups = [];
  seats.forEach((s, seat) => {
    if (seat === room.seat) return;
    const out = p.out.includes(seat);
    const count = p.counts ? p.counts[seat] : null;
    let dice;
    const won = p.outcome && (p.outcome.winners || []).includes(seat);
    if (won) dice = [h("span", { class: "winner-mark" }, cupIcon(), " ", t("winnerCup"))]; // its dice are never shown
    else if (count !== null && !out) dice = Array.from({ length: count }, () => die(null, { label: t("diceUnknown"), size: 30 }));
    else dice = out ? [] : [h("span", { class: "muted" }, t("diceUnknown"))];
    cups.push(
      h("li", { class: `cup${p.toMove === seat ? " to-move" : ""}${out ? " out" : ""}`, "data-seat": seat, "aria-label": t("cup", { name: names[seat] || "?" }) },
        h("span", { class: "who" }, names[seat] || "?"),
        count !== null ? h("span", { class: "count" }, t("diceCount", { count })) : null,
        h("span", { class: "dice" }, dice),
      ),
    );
  });
  parts.push(h("ul", { class: "cups" }, cups));
  const reveal = p.reveal && p.reveal.revealed && p.reveal.revealed.length ? p.reveal : null;
  if (reveal) parts.push(revealView(ui, room, reveal, names));
  parts.push(
    h("section", { class: "bids" },
      h("h3", {}, t("bids")),
      p.bids.length ? h("ol", { class: "bid-list" }, p.bids.map((b) => h("li", {}, `${names[b.seat] || "?"}: ${b.bid}`))) : h("p", { class: "muted" }, t("noBids")),
    ),
  );
  if (!p.outcome && room.frame.state === "playing") {
    parts.push(h("p", { class: "turn-of" }, room.turn ? t("yourTurn") : t("turnOf", { name: names[p.toMove] || "…" })));
  }
  if (room.turn && ui.acting !== room.id) parts.push(bidPicker(ui, room));
  if (p.outcome) parts.push(placingsView(ui, room, p.outcome));
  const history = roundHistory(room);
  if (history.length) parts.push(historyView(ui, room, history, names));
  return h("div", { class: "perudo" }, parts);
}

/** Every finished round's record. A page that attached late (a snapshot: a finished game
 * reloaded or watched, a spectator who came in mid-game) saw no events before it, so the
 * rounds before come from the room's whole stream (asked for once the page attaches),
 * replayed on a scratch table, once per room. */
export function roundHistory(room) {
  const p = room.table;
  const live = p.history || [];
  const first = room.log.length ? room.log[0].seq : room.seq + 1;
  if (!(first > 1)) return live;
  if (!room.earlierRounds || room.earlierRounds.first !== first) {
    const scratch = { ...room, table: newTable(), log: [] };
    for (let seq = 1; seq < first; seq += 1) {
      if (!(seq in room.events)) return live; // the stream is not all here yet
      applyEvent(scratch, room.events[seq]);
    }
    room.earlierRounds = { first, rounds: scratch.table.history || [] };
  }
  const known = new Set(live.map((r) => r.round));
  return [...room.earlierRounds.rounds.filter((r) => !known.has(r.round)), ...live];
}

/** Out of the game: say so, and offer to leave or to watch the others play on. */
function outView(ui, room) {
  const t = (key, args) => ui.t(key, args, NAME);
  return h("section", { class: "out-notice", role: "alert", id: "out-notice" },
    h("p", {}, t("youAreOut")), " ",
    h("button", { type: "button", id: "out-leave", "data-key": "out-leave", onclick: () => { ui.send({ type: "leave", room: room.id }); location.hash = "#/"; } }, ui.t("leave")), " ",
    h("button", { type: "button", id: "out-watch", class: "primary", "data-key": "out-watch", onclick: () => { pick(ui).watchOn = true; ui.focusAfter = true; ui.render(); } }, t("watchOn")));
}

/** Every finished round, newest first, in a box that scrolls: its bids, who challenged,
 * every cup shown (the dice that counted marked) and who lost or gained a die. */
function historyView(ui, room, history, names) {
  const t = (key, args) => ui.t(key, args, NAME);
  const who = (seat) => (seat === room.seat ? t("you") : names[seat] || "?");
  return h("section", { class: "history", "aria-label": t("history") },
    h("h3", {}, t("history")),
    h("ol", { class: "history-rounds", reversed: true, tabindex: "0", "aria-label": t("history") }, [...history].reverse().map((r) => {
      const bidFace = (parseBid(r.reveal.bid) || {}).face;
      return h("li", { class: "history-round", "data-round": r.round },
        h("h4", {}, t("roundN", { round: r.round })),
        h("p", { class: "history-bids" }, r.bids.length ? r.bids.map((b) => `${who(b.seat)}: ${b.bid}`).join(" · ") : t("noBids")),
        r.reveal.caller !== null && r.reveal.caller !== undefined
          ? h("p", { class: "history-call" }, t("historyCall", { name: who(r.reveal.caller), kind: String(r.reveal.kind || "dudo").toUpperCase(), bid: r.reveal.bid }))
          : null,
        r.reveal.count !== null && r.reveal.count !== undefined
          ? h("p", { class: "history-verdict" }, t("revealTitle", { count: r.reveal.count, bid: r.reveal.bid, verdict: t(r.reveal.bidTrue ? "bidTrue" : "bidFalse") }))
          : null,
        h("ul", { class: "cups history-cups" }, (r.reveal.revealed || []).map((c) =>
          h("li", { class: "cup", "data-seat": c.seat },
            h("span", { class: "who" }, who(c.seat)),
            h("span", { class: "dice" }, c.dice.map((f) => die(f, { label: String(f), hot: matches(f, bidFace, r.reveal.acesWild), size: 22 })))))),
        h("ul", { class: "changes" }, r.changes.map((c) => h("li", { class: c.change < 0 ? "lost" : "gained" },
          t(c.change < 0 ? "ev_lost" : c.change > 0 ? "ev_gained" : "ev_kept", { name: names[c.seat] || "?", reason: ui.logLine({ key: "{reason}", args: { reason: c.reason }, tr: ["reason"] }, NAME) })))));
    })));
}

function revealView(ui, room, reveal, names) {
  const t = (key, args) => ui.t(key, args, NAME);
  const bidFace = (parseBid(reveal.bid) || {}).face;
  return h("section", { class: "reveal", "aria-live": "polite" },
    h("h3", {}, t("revealTitle", { count: reveal.count, bid: reveal.bid, verdict: t(reveal.bidTrue ? "bidTrue" : "bidFalse") })),
    h("ul", { class: "cups revealed-cups" }, reveal.revealed.map((r) =>
      h("li", { class: "cup", "data-seat": r.seat },
        h("span", { class: "who" }, r.seat === room.seat ? t("you") : names[r.seat] || "?"),
        h("span", { class: "dice" }, r.dice.map((f) => die(f, { label: String(f), hot: matches(f, bidFace, reveal.acesWild), size: 30 })))))),
    h("ul", { class: "changes" }, room.table.changes.map((c) => h("li", { class: c.change < 0 ? "lost" : "gained" }, t(c.change < 0 ? "ev_lost" : c.change > 0 ? "ev_gained" : "ev_kept", { name: names[c.seat] || "?", reason: ui.logLine({ key: "{reason}", args: { reason: c.reason }, tr: ["reason"] }, NAME) })))),
  );
}

function bidPicker(ui, room) {
  const t = (key, args) => ui.t(key, args, NAME);
  const legal = room.turn.legal || [];
  const byFace = legalBids(legal);
  const faces = Object.keys(byFace).map(Number).sort();
  const chosen = pick(ui);
  const face = faces.includes(chosen.face) ? chosen.face : faces[0] ?? null;
  const quantities = face ? byFace[face] : [];
  const quantity = quantities.includes(chosen.quantity) ? chosen.quantity : quantities[0] ?? null;
  Object.assign(chosen, { face, quantity });
  const choose = (next, focus = null) => {
    Object.assign(chosen, next);
    ui.render();
    if (focus) {
      // a button the choice disabled (the "+" at the highest quantity) cannot hold the
      // focus: it falls back to the quantity itself, not to the page
      const el = document.querySelector(`[data-key="${focus}"]`);
      const target = el && !el.disabled ? el : document.querySelector('[data-key="quantity"]');
      if (target) target.focus();
    }
  };
  // the faces are one radio group: one Tab stop (the chosen face), arrows move the choice
  const step = (e) => {
    const forward = e.key === "ArrowRight" || e.key === "ArrowDown";
    if (!forward && e.key !== "ArrowLeft" && e.key !== "ArrowUp") return;
    e.preventDefault();
    const at = faces.indexOf(face);
    const next = faces[(at + (forward ? 1 : faces.length - 1)) % faces.length];
    choose({ face: next, quantity }, `face-${next}`);
  };
  const at = quantities.indexOf(quantity);
  const bid = face && quantity ? `${quantity}x${face}` : null;
  return h("section", { class: "picker", "aria-label": t("yourTurn") },
    faces.length
      ? h("div", { class: "faces", role: "radiogroup", "aria-label": t("face"), onkeydown: step },
          [1, 2, 3, 4, 5, 6].map((f) =>
            h("button", { type: "button", class: `face${f === face ? " chosen" : ""}`, role: "radio", "aria-checked": f === face ? "true" : "false", "aria-label": `${t("face")} ${f}`, tabindex: f === face ? "0" : "-1", disabled: !faces.includes(f), "data-key": `face-${f}`, onclick: () => choose({ face: f, quantity }) }, die(f, { label: String(f), size: 34 })),
          ),
        )
      : null,
    faces.length
      ? h("span", { class: "quantity" },
          h("label", {}, t("quantity"), " ",
            h("select", { id: "quantity", "data-key": "quantity", onchange: (e) => choose({ face, quantity: Number(e.target.value) }) },
              quantities.map((q) => h("option", { value: q, selected: q === quantity }, String(q))),
            )),
          // buttons too: Tab and Enter alone reach every quantity
          h("button", { type: "button", class: "small", id: "quantity-less", "data-key": "quantity-less", "aria-label": t("quantityLess"), disabled: at <= 0, onclick: () => choose({ face, quantity: quantities[at - 1] }, "quantity-less") }, "−"),
          h("button", { type: "button", class: "small", id: "quantity-more", "data-key": "quantity-more", "aria-label": t("quantityMore"), disabled: at >= quantities.length - 1, onclick: () => choose({ face, quantity: quantities[at + 1] }, "quantity-more") }, "+"),
        )
      : null,
    bid ? h("button", { type: "button", id: "bid", class: "primary", "data-key": "bid", onclick: () => ui.act(room, bid) }, t("bidButton", { bid })) : null,
    legal.includes("dudo") ? h("button", { type: "button", id: "dudo", class: "danger", "data-key": "dudo", onclick: () => ui.act(room, "dudo") }, t("dudo")) : null,
    legal.includes("calza") ? h("button", { type: "button", id: "calza", "data-key": "calza", onclick: () => ui.act(room, "calza") }, t("calzaButton")) : null,
  );
}

// -- the replay: every cup recomputed from the revealed seed -------------------------------

/** Seat `seat`'s `count` dice in round `round`, drawn from the seed's key as the server
 * draws them (docs/perudo.md, "Fair dice"). */
export async function rollDice(key, round, seat, count) {
  const dice = [];
  for (let d = 0; d < count; d += 1) dice.push((await draw(key, `perudo/round/${round}/seat/${seat}/die/${d}`, 6)) + 1);
  return dice;
}

/** The replay of a finished Perudo room: {steps: [{event, round, cups, counts, bids}],
 * seedOk, mismatches}. `events` are the room's events in order. */
export async function perudoReplay(events, seedHex, published) {
  const key = await seedKey(seedHex);
  const seedOk = (await commitment(seedHex)) === published;
  const steps = [];
  let counts = [];
  let cups = [];
  let bids = [];
  let round = 0;
  let mismatches = 0;
  for (const event of events) {
    if (event.type === "game_started") {
      counts = Array(event.seats).fill(event.options.dice_per_player ?? 5);
    } else if (event.type === "round_started") {
      round = event.round;
      bids = [];
      cups = [];
      for (let seat = 0; seat < counts.length; seat += 1) cups.push(await rollDice(key, round, seat, counts[seat]));
      if (event.dice && event.seat !== undefined && JSON.stringify(cups[event.seat]) !== JSON.stringify(event.dice)) mismatches += 1;
    } else if (event.type === "bid") {
      bids = [...bids, { seat: event.seat, bid: event.bid }];
    } else if (event.type === "reveal") {
      for (const r of event.revealed || []) {
        const mine = [...(cups[r.seat] || [])].sort().join();
        if (mine !== [...r.dice].sort().join()) mismatches += 1;
      }
    } else if (event.type === "dice_changed") {
      counts = counts.map((c, seat) => (seat === event.seat ? Math.max(0, c + (event.change || 0)) : c));
    } else if (event.type === "forfeit") {
      counts = counts.map((c, seat) => (seat === event.seat ? 0 : c));
    }
    steps.push({ event, round, cups: cups.map((c) => [...c]), counts: [...counts], bids });
  }
  return { steps, seedOk, mismatches };
}

/** The replay of a finished room (replay_view.js): ready at once; made with WebCrypto. */
export const replay = {
  ready: () => true,
  make(room, events) {
    if (!canDraw()) return { unavailable: "needsSecure" };
    return perudoReplay(events, room.frame.seed, room.frame.seed_sha256);
  },
  panel(ui, room, data, step) {
    const t = (key, args) => ui.t(key, args, NAME);
    const names = seatNames(room);
    return h("div", { class: "replay-cups" },
      h("p", {}, t("roundN", { round: step.round })),
      h("ul", { class: "cups" }, step.cups.map((cup, seat) => h("li", { class: `cup${step.counts[seat] === 0 ? " out" : ""}`, "data-seat": seat },
        h("span", { class: "who" }, names[seat] || "?"),
        h("span", { class: "dice" }, cup.map((f) => die(f, { label: String(f), size: 26 })))))),
      step.bids.length ? h("p", { class: "muted" }, step.bids.map((b) => `${names[b.seat] || "?"} ${b.bid}`).join(" · ")) : null,
      h("p", { class: "seed" }, data.seedOk && !data.mismatches ? t("replayFair") : t("replayUnfair", { n: data.mismatches })));
  },
};

// -- words -------------------------------------------------------------------------------

export const words = {
  en: {
    yourDice: "Your dice",
    cup: "{name}'s cup",
    diceCount: "{count} dice",
    diceCount_one: "{count} die",
    diceUnknown: "dice hidden",
    bids: "Bids this round",
    noBids: "No bid yet",
    face: "Face",
    quantity: "Quantity",
    bidButton: "Bid {bid}",
    dudo: "Dudo!",
    calzaButton: "Calza!",
    palificoBanner: "PALIFICO for {name}: aces are not wild, the face is locked.",
    revealTitle: "Reveal: {count} matching dice, the bid {bid} is {verdict}",
    revealTitle_one: "Reveal: {count} matching die, the bid {bid} is {verdict}",
    bidTrue: "true",
    bidFalse: "false",
    roundN: "Round {round}",
    history: "Earlier rounds",
    historyCall: "{name} called {kind} on {bid}",
    replayFair: "Every cup recomputed from the revealed seed; the seed matches its commitment and every reveal ✓",
    replayUnfair: "WARNING: the seed does not match ({n} cups differ, or the commitment is wrong)",
    needsSecure: "The replay recomputes the dice with the browser's WebCrypto, which needs https (or localhost).",
    ev_game_started_perudo: "The game starts: {seats} players, {count} dice each.",
    ev_game_started_perudo_one: "The game starts: {seats} players, {count} die each.",
    ev_round_started: "Round {round}: {name} starts.",
    ev_bid: "{name} bids {bid}.",
    ev_challenge: "{name} calls {kind} on {bidder}'s {bid}.",
    ev_reveal: "Reveal: {count} matching dice, the bid {bid} is {verdict}.",
    ev_reveal_one: "Reveal: {count} matching die, the bid {bid} is {verdict}.",
    ev_lost: "{name} loses a die ({reason}).",
    ev_gained: "{name} gains a die ({reason}).",
    ev_kept: "{name} keeps all dice ({reason}).",
    ev_out: "{name} is out.",
    reason_lost_dudo: "wrong Dudo",
    reason_bid_false: "the bid was false",
    reason_won_calza: "right Calza",
    reason_lost_calza: "wrong Calza",
    reason_last_player_standing: "last player standing",
    youAreOut: "You are out: you have no dice left. The others play on.",
    watchOn: "Watch on",
    winnerCup: "winner",
    quantityLess: "One fewer",
    quantityMore: "One more",
    ev_forfeit: "{name} forfeits ({reason}).",
    ev_game_over: "Game over: {names} wins ({reason}).",
    opt_seats: "Players",
    opt_preset: "Preset",
    opt_dice_per_player: "Dice per player",
    opt_max_players: "Most players",
    opt_calza: "Calza",
    opt_reveal: "Reveal after a challenge",
    opt_show_dice_counts: "Show everyone's dice counts",
    opt_palifico: "Palifico",
    opt_palifico_aces: "Aces in a Palifico round",
    choice_reveal_until_proven: "cups until the bid is proven",
    choice_reveal_all: "every cup",
    choice_palifico_aces_ordinary: "an ordinary face",
    choice_palifico_aces_wild_conversion: "reached by halving, as in other rounds",
    choice_preset_piatnik: "Piatnik",
    choice_preset_classic: "classic",
  },
  it: {
    yourDice: "I tuoi dadi",
    cup: "Bicchiere di {name}",
    diceCount: "{count} dadi",
    diceCount_one: "{count} dado",
    diceUnknown: "dadi nascosti",
    bids: "Puntate del giro",
    noBids: "Nessuna puntata",
    face: "Faccia",
    quantity: "Quantità",
    bidButton: "Punta {bid}",
    dudo: "Dudo!",
    calzaButton: "Calza!",
    palificoBanner: "PALIFICO per {name}: i paco non sono jolly, la faccia è bloccata.",
    revealTitle: "Si scopre: {count} dadi validi, la puntata {bid} è {verdict}",
    revealTitle_one: "Si scopre: {count} dado valido, la puntata {bid} è {verdict}",
    bidTrue: "vera",
    bidFalse: "falsa",
    roundN: "Giro {round}",
    history: "I giri precedenti",
    historyCall: "{name} dice {kind} su {bid}",
    replayFair: "Ogni bicchiere ricalcolato dal seme rivelato; il seme corrisponde all'impegno e a ogni rivelazione ✓",
    replayUnfair: "ATTENZIONE: il seme non corrisponde ({n} bicchieri diversi, o impegno sbagliato)",
    needsSecure: "La rivista ricalcola i dadi con WebCrypto del browser, che richiede https (o localhost).",
    ev_game_started_perudo: "Si comincia: {seats} giocatori, {count} dadi a testa.",
    ev_game_started_perudo_one: "Si comincia: {seats} giocatori, {count} dado a testa.",
    ev_round_started: "Giro {round}: comincia {name}.",
    ev_bid: "{name} punta {bid}.",
    ev_challenge: "{name} chiama {kind} sulla puntata {bid} di {bidder}.",
    ev_reveal: "Si scopre: {count} dadi validi, la puntata {bid} è {verdict}.",
    ev_reveal_one: "Si scopre: {count} dado valido, la puntata {bid} è {verdict}.",
    ev_lost: "{name} perde un dado ({reason}).",
    ev_gained: "{name} guadagna un dado ({reason}).",
    ev_kept: "{name} tiene tutti i dadi ({reason}).",
    ev_out: "{name} è fuori.",
    reason_lost_dudo: "Dudo sbagliato",
    reason_bid_false: "la puntata era falsa",
    reason_won_calza: "Calza giusta",
    reason_lost_calza: "Calza sbagliata",
    reason_last_player_standing: "ultimo rimasto in gioco",
    youAreOut: "Sei fuori: non hai più dadi. Gli altri continuano.",
    watchOn: "Continua a guardare",
    winnerCup: "vincitore",
    quantityLess: "Uno in meno",
    quantityMore: "Uno in più",
    ev_forfeit: "{name} abbandona ({reason}).",
    ev_game_over: "Partita finita: vince {names} ({reason}).",
    opt_seats: "Giocatori",
    opt_preset: "Variante",
    opt_dice_per_player: "Dadi per giocatore",
    opt_max_players: "Massimo di giocatori",
    opt_calza: "Calza",
    opt_reveal: "Dopo una sfida si scoprono",
    opt_show_dice_counts: "Mostra quanti dadi ha ciascuno",
    opt_palifico: "Palifico",
    opt_palifico_aces: "I paco in un giro Palifico",
    choice_reveal_until_proven: "i bicchieri fino alla prova",
    choice_reveal_all: "tutti i bicchieri",
    choice_palifico_aces_ordinary: "una faccia normale",
    choice_palifico_aces_wild_conversion: "si passa dimezzando, come negli altri giri",
    choice_preset_piatnik: "Piatnik",
    choice_preset_classic: "classiche",
  },
};
