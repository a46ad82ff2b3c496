// The page's state logic, pure: server frames in, view state out. No DOM, no socket, no
// clock (the caller passes `now`). main.js feeds every frame to applyFrame() and renders
// the result; tests/web/js/state.test.mjs runs this module under Node's test runner.
// What differs between games is each game module's (games/index.js): its table's state,
// and how a view or an event changes it.

import { gameOf } from "./games/index.js";
import { clockNow, nameOf, placings, seatNames } from "./shared.js";

export { clockNow, nameOf, placings, seatNames };

/** A fresh client state. */
export function initialState() {
  return {
    player: null, // {id, name, bot} from welcome
    token: null,
    lobby: [],
    lobbyPage: { offset: 0, total: 0 }, // the page of the lobby shown: its first room, of all
    rooms: {}, // room id -> room state (roomState())
    current: null, // the room shown
    pendingSeats: [], // welcome.seats: rooms to resume
    error: null,
    hint: null,
    catalogue: null, // the server's games, options and bots (the catalogue frame)
    bots: [], // this account's bot accounts (bot_accounts, bot_account)
    botToken: null, // {player, token}: a bot's API token, shown once (bot_account)
    accountChanged: null, // the last `account` frame's player (register, change_password)
    leaderboard: null, // the last leaderboard frame
    profile: null, // the last profile frame
    loggedOut: null, // {revoked} once logged out
    seeks: [], // the open seeks (the seeks frame, kept up to date by seek_added/seek_cancelled)
    match: null, // the last match frame: a room the server opened with a seat for us
    tournaments: null, // the tournaments frame's list
    tournament: {}, // tournament id -> the latest tournament frame's tournament
  };
}

/** Whether `player` ({kind}) holds an account of its own (so it can log in elsewhere). */
export function isAccount(player) {
  return Boolean(player) && player.kind === "account";
}

/** The key names are compared by, as the server's account_key: NFKC(casefold(NFKC(name))).
 * (JavaScript has no casefold: toUpperCase then toLowerCase folds as it does for
 * the names people use, ß to ss included; the server's key decides.) */
export function nameKey(name) {
  return String(name || "").normalize("NFKC").toUpperCase().toLowerCase().normalize("NFKC");
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
    paused: false, // the server cannot save: the game waits (a paused frame said so)
    log: [], // [{key, args, seq}]
    events: {}, // seq -> event (this viewer's projection)
    chat: [], // [{channel, seat, name, text}]
    table: null, // the game module's state of the game (its newTable())
  };
}

/** The catalogue's entry of game `name`, or null. */
export function catalogueGame(state, name) {
  return ((state.catalogue && state.catalogue.games) || []).find((g) => g.name === name) || null;
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
  if (kind === "catalogue") {
    state.catalogue = frame;
    return state;
  }
  if (kind === "rooms") {
    state.lobby = frame.rooms || [];
    state.lobbyPage = { offset: frame.offset || 0, total: frame.total || 0 }; // (list_rooms pages)
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
  if (applyAccountFrame(state, frame)) return state;
  if (applyMatchFrame(state, frame)) return state;
  const id = frame.room;
  if (typeof id !== "string") return state;
  if (kind === "left") {
    // the room stays in "Your rooms" (with its log): coming back resumes it from here
    const left = state.rooms[id];
    if (left) {
      left.left = true;
      left.turn = null;
    }
    if (state.current === id) state.current = null;
    return state;
  }
  const room = state.rooms[id] || (state.rooms[id] = roomState(id));
  applyRoomFrame(room, frame);
  // the room shown, unless the page attached by itself (ref "auto": a finished game's
  // final view asked for while the player may be elsewhere)
  if ((kind === "created" || kind === "joined" || kind === "watching") && frame.ref !== "auto") state.current = id;
  return state;
}

/** The frames of accounts, leaderboards and profiles; true when `frame` was one. */
function applyAccountFrame(state, frame) {
  switch (frame.type) {
    case "account":
      state.player = frame.player;
      state.accountChanged = frame.player;
      state.error = null;
      return true;
    case "bot_accounts":
      state.bots = frame.bots || [];
      return true;
    case "bot_account": {
      state.botToken = { player: frame.player, token: frame.token };
      state.bots = [...state.bots.filter((b) => b.id !== frame.player.id), frame.player];
      state.error = null;
      return true;
    }
    case "leaderboard":
      state.leaderboard = frame;
      return true;
    case "profile":
      state.profile = frame;
      return true;
    case "logged_out":
      state.loggedOut = { revoked: frame.revoked };
      return true;
    default:
      return false;
  }
}

/** A seek's id (a seek object or its id alone). */
export function seekId(seek) {
  return seek && typeof seek === "object" ? seek.id : seek;
}

/** Who made a seek: {id, name} (a player object, or the fields beside it). */
export function seekOwner(seek) {
  const p = seek.player;
  if (p && typeof p === "object") return { id: p.id, name: p.name };
  return { id: seek.player_id || p || null, name: seek.name || seek.player_name || String(p || "?") };
}

/** A tournament frame's tournament (the object itself, or the frame's fields). */
export function tournamentOf(frame) {
  const t = frame.tournament && typeof frame.tournament === "object" ? frame.tournament : (({ type, ref, ...rest }) => rest)(frame);
  // the host's spec (game, options, format...) may come nested: flattened here
  return t.spec && typeof t.spec === "object" ? { ...t.spec, ...t } : t;
}

/** The frames of matchmaking and tournaments; true when `frame` was one. */
function applyMatchFrame(state, frame) {
  switch (frame.type) {
    case "seeks":
      state.seeks = frame.seeks || [];
      return true;
    case "seek_added": {
      // a seek taken or completed at once comes back `matched`: it is not open any more
      const seek = frame.seek;
      state.seeks = state.seeks.filter((s) => s.id !== seek.id);
      if ((seek.status || "open") === "open") state.seeks.push(seek);
      state.error = null;
      return true;
    }
    case "seek_cancelled": {
      const id = seekId(frame.seek);
      state.seeks = state.seeks.filter((s) => s.id !== id);
      return true;
    }
    case "match": {
      // a room opened with a seat for us: follow it (main.js resumes it and goes there)
      state.match = frame;
      if (frame.source === "seek") state.seeks = state.seeks.filter((s) => s.id !== frame.ref); // its ref: the seek
      const room = state.rooms[frame.room] || (state.rooms[frame.room] = roomState(frame.room));
      setSeat(room, frame.seat);
      setGame(room, frame.game);
      room.source = frame.source || null;
      return true;
    }
    case "tournaments":
      state.tournaments = frame.tournaments || [];
      return true;
    case "tournament": {
      const t = tournamentOf(frame);
      if (!t.id) return true;
      // a push carries only the current round's games (protocol.md): keep the earlier ones
      const known = state.tournament[t.id];
      if (known && Array.isArray(known.games) && Array.isArray(t.games)) {
        const key = (g) => `${g.round}/${g.board}`;
        const fresh = new Set(t.games.map(key));
        t.games = [...known.games.filter((g) => !fresh.has(key(g))), ...t.games];
      }
      state.tournament[t.id] = t;
      if (state.tournaments) {
        // the list is newest first: a known one changes in place, a new one goes on top
        const at = state.tournaments.findIndex((x) => x.id === t.id);
        if (at >= 0) state.tournaments[at] = summary(t);
        else state.tournaments.unshift(summary(t));
      }
      state.error = null;
      return true;
    }
    case "ladder_joined":
      return true;
    default:
      return false;
  }
}

/** A tournament as the list shows it (the `tournaments` frame's shape). */
function summary(t) {
  const { standings, games, ...rest } = t;
  return rest;
}

/** A finished room's rematch, from its room frame: {offered: [seat], declined: [seat],
 * room} (empty when nobody offered yet). */
export function rematchOf(frame) {
  const r = frame && frame.rematch;
  if (!r) return { offered: [], declined: [], room: null };
  if (Array.isArray(r)) return { offered: r, declined: [], room: null };
  const seats = (list) => (list || []).map((x) => (typeof x === "object" && x !== null ? x.seat : x));
  return { offered: seats(r.offered || r.accepted || r.seats), declined: seats(r.declined === undefined || r.declined === null ? [] : Array.isArray(r.declined) ? r.declined : [r.declined]), room: r.room || null };
}

/** A profile's games, each with its ratings, statistics and recent games, in the order:
 * rated games first, then the others by name. [{game, ratings, stats, history}] */
export function profileGames(profile) {
  if (!profile) return [];
  const games = new Set([
    ...(profile.ratings || []).map((r) => r.game),
    ...Object.keys(profile.stats || {}),
    ...(profile.history || []).map((g) => g.game),
  ]);
  const out = [...games].map((game) => ({
    game,
    ratings: (profile.ratings || []).filter((r) => r.game === game),
    stats: (profile.stats || {})[game] || {},
    history: (profile.history || []).filter((g) => g.game === game),
  }));
  out.sort((a, b) => (b.ratings.length > 0) - (a.ratings.length > 0) || a.game.localeCompare(b.game));
  return out;
}

/** What a seat's rating change reads as: {before, after, delta} rounded to whole points
 * (delta from the rounded values, so that before + delta = after on the screen). */
export function ratingDelta(change) {
  const before = Math.round(change.before);
  const after = Math.round(change.after);
  return { before, after, delta: after - before };
}

/** Set the room's game (from a room frame or a view); a new game gets a fresh table. */
export function setGame(room, game) {
  if (!game || (room.game === game && room.table)) return;
  room.game = game;
  room.table = gameOf(game).newTable();
}

function setSeat(room, seat) {
  if (seat !== null && seat !== undefined) room.seat = seat;
}

function applyRoomFrame(room, frame) {
  switch (frame.type) {
    case "room": {
      const { type, ...rest } = frame;
      room.frame = rest;
      room.paused = Boolean(frame.paused);
      setGame(room, frame.game);
      if (frame.invite) room.invite = frame.invite;
      if (frame.state === "finished" || frame.state === "aborted") room.turn = null;
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
    case "paused":
      // the server cannot save the game now: nothing is played, no clock runs
      room.paused = Boolean(frame.paused);
      break;
    case "ack":
      room.turn = null; // a new turn frame follows when the game still waits for us
      break;
    case "rematch":
      // the answer to rematch and decline_rematch: the rematch as it stands
      room.frame = { ...room.frame, rematch: frame.rematch };
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
      room.left = false;
      setSeat(room, frame.seat);
      if (frame.invite) room.invite = frame.invite;
      break;
    default:
      break;
  }
}

function applyView(room, view) {
  if (!view) return;
  setGame(room, view.game);
  if (room.table) gameOf(room.game).applyView(room, view);
}

function applyEvent(room, event) {
  if (event.type === "aborted") return { key: "ev_aborted", args: { reason: reasonKey(event.reason) }, tr: ["reason"] };
  if (!room.table) return null;
  return gameOf(room.game).applyEvent(room, event);
}

/** The words key of a reason code ("lost_dudo" -> "reason_lost_dudo"): the page words
 * it in its language (logLine falls back to the code's words for an unknown one). */
export function reasonKey(code) {
  return `reason_${code || "none"}`;
}

/** The room's log with the lines it missed before it attached (a spectator who came in
 * late, a player who came back), once the whole stream is here (`fullHistory`). */
export function fullLog(room) {
  const first = room.log.length ? room.log[0].seq : room.seq + 1;
  if (!(first > 1)) return room.log; // from the start (or a game that logged its own past)
  const events = fullHistory(room);
  if (!events) return room.log;
  // the earlier lines never change: worked out once per room (not at every render)
  if (!room.earlier || room.earlier.first !== first) {
    const lines = Object.values(captions(room, events.slice(0, first - 1))).filter((e) => e.seq < first);
    room.earlier = { first, lines };
  }
  return [...room.earlier.lines, ...room.log];
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

/** The log lines of `events` (a room's, in order) as a page that saw them would write
 * them, by number: replayed on a scratch copy of the room. */
export function captions(room, events) {
  const scratch = initialState();
  const copy = roomState(room.id);
  Object.assign(copy, { frame: room.frame, seat: room.seat });
  setGame(copy, room.game);
  scratch.rooms[room.id] = copy;
  events.forEach((event, i) => applyFrame(scratch, { type: "event", room: room.id, seq: i + 1, event }));
  const out = {};
  for (const entry of copy.log) out[entry.seq] = entry;
  return out;
}

/** The rooms to resume after a (re)connection: [{room, since}] from welcome and the
 * rooms this page already follows (with the last seq it saw). */
export function resumePlan(state) {
  const plan = new Map();
  for (const seat of state.pendingSeats || []) plan.set(seat.room, { room: seat.room, since: 0 });
  for (const room of Object.values(state.rooms)) {
    if (room.left) continue; // left on purpose: resumed only when the player comes back
    const entry = { room: room.id, since: room.seq };
    if (room.invite && room.seat === null) entry.invite = room.invite;
    plan.set(room.id, entry);
  }
  return [...plan.values()];
}
