// The page's state logic, pure: server frames in, view state out. No DOM, no socket, no
// clock (the caller passes `now`). main.js feeds every frame to applyFrame() and renders
// the result; tests/web/js/state.test.mjs runs this module under Node's test runner.

/** A fresh client state. */
export function initialState() {
  return {
    player: null, // {id, name, bot} from welcome
    token: null,
    lobby: [],
    rooms: {}, // room id -> room state (roomState())
    current: null, // the room shown
    pendingSeats: [], // welcome.seats: rooms to resume
    error: null,
    hint: null,
  };
}

/** A followed room's state. */
export function roomState(id) {
  return {
    id,
    game: "",
    frame: {}, // the latest room frame (without type)
    seat: null,
    seq: 0,
    invite: null,
    turn: null,
    clock: null,
    clockAt: 0,
    log: [], // [{key, args, seq}]
    events: {}, // seq -> event (this viewer's projection)
    chat: [], // [{channel, seat, name, text}]
    perudo: perudoTable(),
    krieg: kriegBoard(),
  };
}

function perudoTable() {
  return {
    seats: 0, options: {}, round: 0, starter: null, palifico: null, acesWild: true,
    toMove: null, bids: [], out: [], dice: [], diceLeft: null, counts: null,
    reveal: null, changes: [], outcome: null, seed: null, seedSha256: null,
  };
}

function kriegBoard() {
  return {
    color: null, rules: "", toMove: "white", board: {}, refused: [], tries: null,
    drawOffer: null, outcome: null, revealed: null, mustTryPawnCapture: false,
  };
}

/** Display names by seat ("" for a free seat; "name#2" when a name repeats). */
export function seatNames(room) {
  const raw = (room.frame.seats || []).map((s) => (s && s.name) || "");
  return raw.map((n, i) => (n && raw.filter((m) => m === n).length > 1 ? `${n}#${i}` : n));
}

function nameOf(room, seat) {
  if (seat === null || seat === undefined) return "?";
  return seatNames(room)[seat] || `#${seat}`;
}

/** Apply one server frame to `state` (in place) and return `state`. */
export function applyFrame(state, frame) {
  const kind = frame.type;
  if (kind === "welcome") {
    state.player = frame.player;
    state.token = frame.token;
    state.pendingSeats = frame.seats || [];
    state.error = null;
    return state;
  }
  if (kind === "rooms") {
    state.lobby = frame.rooms || [];
    return state;
  }
  if (kind === "error") {
    state.error = frame;
    return state;
  }
  if (kind === "hint") {
    state.hint = frame;
    return state;
  }
  const id = frame.room;
  if (typeof id !== "string") return state;
  if (kind === "left") {
    delete state.rooms[id];
    if (state.current === id) state.current = null;
    return state;
  }
  const room = state.rooms[id] || (state.rooms[id] = roomState(id));
  applyRoomFrame(room, frame);
  if (kind === "created" || kind === "joined" || kind === "watching") state.current = id;
  return state;
}

function setSeat(room, seat) {
  if (seat !== null && seat !== undefined) room.seat = seat;
}

function applyRoomFrame(room, frame) {
  switch (frame.type) {
    case "room": {
      const { type, ...rest } = frame;
      room.frame = rest;
      room.game = frame.game || room.game;
      if (frame.invite) room.invite = frame.invite;
      if (frame.state === "finished" || frame.state === "aborted") {
        room.turn = null;
        if (frame.seed) room.perudo.seed = frame.seed;
      }
      break;
    }
    case "snapshot":
      room.seat = frame.seat ?? null;
      room.seq = Math.max(room.seq, frame.seq || 0);
      applyView(room, frame.view);
      break;
    case "event":
      room.events[frame.seq] = frame.event; // every event by its number, for the replay
      if (frame.seq > room.seq) {
        room.seq = frame.seq;
        if (room.turn && frame.seq > (room.turn.seq || 0)) room.turn = null;
        const entry = applyEvent(room, frame.event);
        if (entry) {
          entry.seq = frame.seq;
          room.log.push(entry);
        }
      }
      break;
    case "turn":
      room.turn = frame;
      setSeat(room, frame.seat);
      applyView(room, frame.view);
      break;
    case "clock":
      room.clock = frame;
      break;
    case "ack":
      room.turn = null; // a new turn frame follows when the game still waits for us
      break;
    case "chat":
      // a reconnect re-sends the channel's recent lines: keep each line (by number) once
      if (room.chat.some((line) => line.n === frame.n)) break;
      room.chat.push({ n: frame.n, channel: frame.channel, seat: frame.seat, name: frame.name, text: frame.text });
      room.chat.sort((x, y) => x.n - y.n);
      if (room.chat.length > 200) room.chat.shift();
      break;
    case "created":
    case "joined":
    case "watching":
    case "resumed":
      setSeat(room, frame.seat);
      if (frame.invite) room.invite = frame.invite;
      break;
    default:
      break;
  }
}

function applyView(room, view) {
  if (!view) return;
  room.game = view.game || room.game;
  if (room.game === "perudo") {
    const p = room.perudo;
    p.seats = view.seats ?? p.seats;
    p.options = view.options || p.options;
    p.seedSha256 = view.seed_sha256 ?? p.seedSha256;
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
    if (view.seed) p.seed = view.seed;
  } else if (room.game === "kriegspiel") {
    const k = room.krieg;
    if (view.color) k.color = view.color;
    if (!room.log.length && view.announcements) {
      for (const event of view.announcements) {
        const entry = kriegEvent(room, event, true);
        if (entry) room.log.push(entry);
      }
    }
    k.rules = view.rules || k.rules;
    k.toMove = view.to_move ?? null;
    k.drawOffer = view.draw_offer ?? null;
    if (view.outcome) k.outcome = { ...(k.outcome || {}), ...view.outcome };
    if (view.color) k.color = view.color;
    if (view.board !== undefined) k.board = parsePlacement(view.board);
    k.refused = [...(view.refused || [])];
    k.mustTryPawnCapture = Boolean(view.must_try_pawn_capture);
    if (view.revealed) k.revealed = view.revealed;
  }
}

function applyEvent(room, event) {
  if (event.type === "aborted") return { key: "ev_aborted", args: { reason: event.reason } };
  if (room.game === "perudo") return perudoEvent(room, event);
  if (room.game === "kriegspiel") return kriegEvent(room, event, false);
  return null;
}

// -- Perudo ---------------------------------------------------------------------------

/** "5x4" -> {quantity: 5, face: 4}; anything else -> null. */
export function parseBid(text) {
  const m = /^(\d+)x(\d)$/.exec(String(text).trim());
  return m ? { quantity: Number(m[1]), face: Number(m[2]) } : null;
}

function perudoEvent(room, e) {
  const p = room.perudo;
  const name = (s) => nameOf(room, s);
  switch (e.type) {
    case "game_started": {
      p.seats = e.seats;
      p.options = e.options || {};
      p.seedSha256 = e.seed_sha256;
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
      return { key: "ev_challenge", args: { name: name(e.seat), kind: String(e.kind).toUpperCase(), bidder: name(e.bidder), bid: e.bid } };
    case "reveal":
      if (!p.reveal) p.reveal = { kind: "dudo", caller: null, bidder: null, bid: e.bid };
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
      }
      if (e.out && !p.out.includes(e.seat)) p.out.push(e.seat);
      p.changes.push({ seat: e.seat, change, reason: e.reason, out: Boolean(e.out) });
      const key = change < 0 ? "ev_lost" : change > 0 ? "ev_gained" : "ev_kept";
      return { key, args: { name: name(e.seat), reason: String(e.reason || "").replaceAll("_", " ") } };
    }
    case "forfeit":
      if (!p.out.includes(e.seat)) p.out.push(e.seat);
      return { key: "ev_forfeit", args: { name: name(e.seat), reason: e.reason } };
    case "game_over":
      p.toMove = null;
      p.outcome = { ranks: e.ranks, winners: e.winners, reason: e.reason };
      if (e.seed) p.seed = e.seed;
      return { key: "ev_game_over", args: { names: (e.winners || []).map(name).join(", "), reason: String(e.reason || "").replaceAll("_", " ") } };
    default:
      return null;
  }
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

/** Seats in placing order: [{seat, rank}] sorted by rank (1 is best). */
export function placings(outcome) {
  if (!outcome || !outcome.ranks) return [];
  return outcome.ranks.map((rank, seat) => ({ seat, rank })).sort((a, b) => a.rank - b.rank || a.seat - b.seat);
}

// -- Kriegspiel -----------------------------------------------------------------------

export const FILES = "abcdefgh";

/** A FEN piece placement -> {square: piece letter} ("P" white pawn, "k" black king). */
export function parsePlacement(fen) {
  const board = {};
  const ranks = String(fen || "").split(" ")[0].split("/");
  if (ranks.length !== 8) return board;
  ranks.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else {
        board[FILES[file] + String(8 - i)] = ch;
        file += 1;
      }
    }
  });
  return board;
}

/** Apply one of your own moves (UCI) to your board of own pieces. */
export function applyOwnMove(board, uci) {
  const from = uci.slice(0, 2);
  const to = uci.slice(2, 4);
  const piece = board[from];
  if (!piece) return board;
  delete board[from];
  if (piece.toLowerCase() === "k" && Math.abs(FILES.indexOf(to[0]) - FILES.indexOf(from[0])) === 2) {
    const rank = from[1];
    const kingside = to[0] > from[0];
    const rookFrom = (kingside ? "h" : "a") + rank;
    const rookTo = (kingside ? "f" : "d") + rank;
    if (board[rookFrom]) {
      board[rookTo] = board[rookFrom];
      delete board[rookFrom];
    }
  }
  const promotion = uci[4];
  board[to] = promotion ? (piece === piece.toUpperCase() ? promotion.toUpperCase() : promotion) : piece;
  return board;
}

function kriegEvent(room, e, replayOnly) {
  const k = room.krieg;
  const who = (color) => (color && color === k.color ? "You" : color === "white" ? "White" : "Black");
  switch (e.type) {
    case "game_started":
      k.rules = e.rules || k.rules;
      k.toMove = e.to_move || "white";
      if (e.color) k.color = e.color;
      if (e.board && !replayOnly) k.board = parsePlacement(e.board);
      return k.color
        ? { key: "ev_game_started_krieg", args: { rules: k.rules, color: k.color }, tr: ["color"] }
        : { key: "ev_game_started_krieg_spectator", args: { rules: k.rules } };
    case "move": {
      const parts = [];
      if (e.move) {
        if (!replayOnly) applyOwnMove(k.board, e.move);
        parts.push({ key: "ev_move_own", args: { move: e.move } });
      } else parts.push({ key: "ev_move", args: { who: who(e.color) }, tr: ["who"] });
      if (e.capture && e.en_passant_at) { // English rules: the square the capturing pawn lands on
        parts.push({ key: "ev_capture_en_passant", args: { square: e.en_passant_at, pawn: e.capture } });
      } else if (e.capture) {
        parts.push({ key: "ev_capture", args: { square: e.capture, what: e.captured ? ` (${e.captured})` : "" } });
      }
      if (e.capture && e.color !== k.color && k.color && !replayOnly) delete k.board[e.capture];
      if (e.check && e.check.length) parts.push({ key: "ev_check", args: { dirs: e.check.map((c) => String(c).replaceAll("_", " ")).join(", ") } });
      if (e.promotion) parts.push({ key: "ev_promotion", args: {} });
      k.toMove = e.color === "white" ? "black" : "white";
      k.refused = [];
      k.tries = null;
      k.mustTryPawnCapture = false;
      if (k.drawOffer && k.drawOffer !== e.color) k.drawOffer = null;
      return { parts };
    }
    case "illegal":
      if (e.move) {
        if (!k.refused.includes(e.move)) k.refused.push(e.move);
        return { key: "ev_illegal_own", args: { move: e.move, answer: e.answer || "illegal" } };
      }
      return { key: "ev_illegal", args: { who: who(e.color), answer: e.answer || "illegal" }, tr: ["who"] };
    case "pawn_tries": {
      let text = "";
      if (e.squares) text = e.squares.join(", ") || "0";
      else if ("count" in e) text = String(e.count);
      else if ("pawns" in e) text = String(e.pawns);
      else if ("any" in e) text = e.any ? "✓" : "0";
      k.tries = text;
      return { key: "ev_pawn_tries", args: { who: who(e.color), text }, tr: ["who"] };
    }
    case "any":
      if (e.answer && e.color === k.color) k.mustTryPawnCapture = true;
      return { key: "ev_any", args: { who: who(e.color), answer: e.answer ? "yesWord" : "noWord" }, tr: ["who", "answer"] };
    case "draw_offered":
      k.drawOffer = e.color;
      return { key: "ev_draw_offered", args: { who: who(e.color) }, tr: ["who"] };
    case "draw_declined":
      k.drawOffer = null;
      return { key: "ev_draw_declined", args: { who: who(e.color) }, tr: ["who"] };
    case "game_over":
      k.toMove = null;
      k.outcome = { ...e };
      return { key: "ev_krieg_over", args: { result: e.result || "", reason: String(e.reason || "").replaceAll("_", " ") } };
    default:
      return null;
  }
}

/** The legal attempts from `square` in a turn's `legal` list: {to: [uci, ...]} (several
 * for a promotion). */
export function attemptsFrom(legal, square) {
  const out = {};
  for (const action of legal || []) {
    if (/^[a-h][1-8][a-h][1-8][qrbn]?$/.test(action) && action.startsWith(square)) {
      (out[action.slice(2, 4)] ||= []).push(action);
    }
  }
  return out;
}

/** The room's events in order, or null while some are missing (resume from 0 then). */
export function fullHistory(room) {
  // the room frame (which comes first when a page attaches) already says how many events
  // this viewer's stream holds: until they are all here, there is no full history
  const last = Math.max(room.seq, (room.frame && room.frame.seq) || 0);
  if (last === 0) return null;
  const out = [];
  for (let seq = 1; seq <= last; seq += 1) {
    if (!(seq in room.events)) return null;
    out.push(room.events[seq]);
  }
  return out;
}

/** Each seat's clock now, counting down the running one, or null. */
export function clockNow(room, now) {
  const clock = room.clock;
  if (!clock || !clock.remaining) return null;
  const left = clock.remaining.map(Number);
  const over = room.frame.state === "finished" || room.frame.state === "aborted";
  if (clock.to_move !== null && clock.to_move !== undefined && !over) {
    left[clock.to_move] = Math.max(0, left[clock.to_move] - (now - room.clockAt) / 1000);
  }
  return left;
}

/** The rooms to resume after a (re)connection: [{room, since}] from welcome and the
 * rooms this page already follows (with the last seq it saw). */
export function resumePlan(state) {
  const plan = new Map();
  for (const seat of state.pendingSeats || []) plan.set(seat.room, { room: seat.room, since: 0 });
  for (const room of Object.values(state.rooms)) {
    const entry = { room: room.id, since: room.seq };
    if (room.invite && room.seat === null) entry.invite = room.invite;
    plan.set(room.id, entry);
  }
  return [...plan.values()];
}
