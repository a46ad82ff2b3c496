// Cases for the page's pure state logic (server/web/js/state.js) and the game modules'
// pure parts (server/web/js/games/). They run under Node's test runner (state.test.mjs)
// or, without Node, in Chromium (tests/web/test_js_state.py).

import {
  applyFrame, captions, rematchOf, seekOwner, tournamentOf, catalogueGame, fullHistory, initialState, placings, resumePlan, seatNames,
} from "../../../server/web/js/state.js";
import { GAME_WORDS, STRINGS, translate } from "../../../server/web/js/i18n.js";
import { GAMES, gameOf } from "../../../server/web/js/games/index.js";
import { legalBids, matches, parseBid, perudoReplay, rollDice, roundHistory } from "../../../server/web/js/games/perudo.js";
import { applyOwnMove, attemptsFrom, isDark, kriegReplay, parsePlacement } from "../../../server/web/js/games/kriegspiel.js";
import { waitingRooms } from "../../../server/web/js/attention.js";
import { fromFen, pgn, play, san } from "../../../server/web/js/games/san.js";
import { commitment, seedKey } from "../../../server/web/js/seed.js";
import sanGames from "./san_cases.mjs";
import { clockNow } from "../../../server/web/js/shared.js";
import { entrantsOf, registered, roundsOf } from "../../../server/web/js/tournaments.js";

const canon = (value) => JSON.stringify(value, (key, v) =>
  v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v);

function eq(actual, expected, what = "") {
  const a = canon(actual);
  const b = canon(expected);
  if (a !== b) throw new Error(`${what} expected ${b}, got ${a}`);
}

const ROOM = "r1";
const seats = (names) => names.map((name, seat) => ({ seat, player: name ? `p${seat}` : null, name }));
const feed = (state, frames) => frames.reduce(applyFrame, state);

export const cases = [
  ["a Perudo game attached by a snapshot (a finished game reloaded) still shows its earlier rounds", () => {
    // CI caught a reload after the game's end: the page watched (a snapshot) and replayed
    // the stream for its log only, so the round history was empty
    const opts = { seats: 2, dice_per_player: 1, reveal: "all" };
    const events = [
      { type: "game_started", game: "perudo", seats: 2, options: opts },
      { type: "round_started", round: 1, starter: 0, aces_wild: true, seat: 0, dice: [3] },
      { type: "bid", round: 1, seat: 0, bid: "1x3", next: 1 },
      { type: "challenge", round: 1, kind: "dudo", seat: 1, bidder: 0, bid: "1x3" },
      { type: "reveal", round: 1, bid: "1x3", aces_wild: true, revealed: [{ seat: 0, dice: [3] }, { seat: 1, dice: [5] }], count: 1, complete: true, bid_true: true },
      { type: "dice_changed", round: 1, seat: 1, change: -1, reason: "lost_dudo", out: true, dice_left: 0 },
      { type: "game_over", round: 1, ranks: [1, 2], winners: [0], reason: "last_player_standing", placing: [0, 1] },
    ];
    const s = feed(initialState(), [
      { type: "room", room: ROOM, game: "perudo", state: "finished", seq: events.length, seats: seats(["ana", "bob"]) },
      { type: "snapshot", room: ROOM, seq: events.length, seat: 0, view: { game: "perudo", seats: 2, options: opts, outcome: { winners: [0] } } },
      { type: "watching", room: ROOM, seat: 0 },
      ...events.map((event, i) => ({ type: "event", room: ROOM, seq: i + 1, event })),
    ]);
    const room = s.rooms[ROOM];
    eq(room.table.history, [], "the live table saw no round");
    const rounds = roundHistory(room);
    eq(rounds.map((r) => r.round), [1], "rounds");
    eq(rounds[0].reveal.revealed.length, 2, "cups");
    eq(rounds[0].bids, [{ seat: 0, bid: "1x3" }], "bids");
  }],
  ["a paused room: the notice comes and goes, the clocks stand still meanwhile", () => {
    const s = feed(initialState(), [
      { type: "watching", room: ROOM, seat: null },
      { type: "room", room: ROOM, game: "kriegspiel", state: "playing", seats: seats(["ana", "bob"]) },
      { type: "clock", room: ROOM, to_move: 0, remaining: [60, 60], turn_time: null },
      { type: "paused", room: ROOM, paused: true, message: "the server cannot save: paused" },
    ]);
    const room = s.rooms[ROOM];
    eq(room.paused, true);
    room.clockAt = 1000;
    room.pausedAt = 3000;
    eq(clockNow(room, 3000), [58, 60], "at the pause");
    eq(clockNow(room, 60000), [58, 60], "a minute into the pause");
    applyFrame(s, { type: "paused", room: ROOM, paused: false, message: "goes on" });
    eq(room.paused, false);
    applyFrame(s, { type: "room", room: ROOM, game: "kriegspiel", state: "playing", seats: seats(["ana", "bob"]), paused: true });
    eq(room.paused, true, "a listing's room frame");
    eq(translate("it", "pausedNotice").includes("pausa"), true);
    eq(translate("en", "pausedNotice").startsWith("The server cannot save"), true);
  }],
  ["a rooms frame is one page of the lobby: where it starts and how many rooms there are", () => {
    const s = applyFrame(initialState(), { type: "rooms", rooms: [{ room: "a" }], total: 31, offset: 30 });
    eq(s.lobby.map((r) => r.room), ["a"]);
    eq(s.lobbyPage, { offset: 30, total: 31 });
    eq(translate("it", "roomsPage", { first: 31, last: 31, total: 31 }), "Tavoli 31–31 di 31");
  }],
  ["welcome keeps the player, token and seats to resume", () => {
    const s = applyFrame(initialState(), { type: "welcome", player: { id: "p0", name: "ana" }, token: "t", seats: [{ room: ROOM, seq: 4 }] });
    eq(s.token, "t");
    eq(resumePlan(s), [{ room: ROOM, since: 0 }]);
  }],
  ["a perudo round: dice, bids, challenge, reveal, losses, placings", () => {
    const s = feed(initialState(), [
      { type: "created", room: ROOM, seat: 0, invite: null },
      { type: "room", room: ROOM, game: "perudo", state: "playing", seats: seats(["ana", "bob", "ana"]) },
      { type: "event", room: ROOM, seq: 1, event: { type: "game_started", seats: 3, options: { dice_per_player: 2, show_dice_counts: true }, seed_sha256: "h" } },
      { type: "event", room: ROOM, seq: 2, event: { type: "round_started", round: 1, starter: 1, palifico: null, aces_wild: true, seat: 0, dice: [1, 4] } },
      { type: "event", room: ROOM, seq: 3, event: { type: "bid", round: 1, seat: 1, bid: "2x4", next: 2 } },
      { type: "event", room: ROOM, seq: 3, event: { type: "bid", round: 1, seat: 1, bid: "2x4", next: 2 } },
      { type: "event", room: ROOM, seq: 4, event: { type: "challenge", kind: "dudo", seat: 2, bidder: 1, bid: "2x4" } },
      { type: "event", room: ROOM, seq: 5, event: { type: "reveal", bid: "2x4", aces_wild: true, revealed: [{ seat: 0, dice: [1, 4] }, { seat: 1, dice: [2, 3] }, { seat: 2, dice: [5, 6] }], count: 2, complete: true, bid_true: true } },
      { type: "event", room: ROOM, seq: 6, event: { type: "dice_changed", seat: 2, change: -1, reason: "lost_dudo", out: false } },
    ]);
    const room = s.rooms[ROOM];
    eq(s.current, ROOM);
    eq(room.seat, 0);
    eq(room.seq, 6);
    eq(room.table.dice, [1, 4]);
    eq(room.table.bids, [{ seat: 1, bid: "2x4" }], "a repeated seq is ignored:");
    eq(room.table.counts, [2, 2, 1]);
    eq(room.table.reveal.count, 2);
    eq(seatNames(room), ["ana#0", "bob", "ana#2"]);
    eq(translate("en", room.log[2].key, room.log[2].args, "perudo"), "bob bids 2x4.");
    eq(translate("it", room.log[2].key, room.log[2].args, "perudo"), "bob punta 2x4.");
    applyFrame(s, { type: "event", room: ROOM, seq: 7, event: { type: "game_over", ranks: [2, 1, 3], winners: [1], reason: "last_player_standing", seed: "ab" } });
    eq(placings(room.table.outcome).map((p) => p.seat), [1, 0, 2]);
  }],
  ["perudo: a seat that loses its last die has no dice, to the end of the game", () => {
    const s = feed(initialState(), [
      { type: "created", room: ROOM, seat: 0, invite: null },
      { type: "room", room: ROOM, game: "perudo", state: "playing", seats: seats(["ana", "bob", "cy"]) },
      { type: "event", room: ROOM, seq: 1, event: { type: "game_started", seats: 3, options: { dice_per_player: 1 }, seed_sha256: "h" } },
      { type: "event", room: ROOM, seq: 2, event: { type: "round_started", round: 1, starter: 0, palifico: null, aces_wild: true, seat: 0, dice: [3] } },
      { type: "event", room: ROOM, seq: 3, event: { type: "bid", round: 1, seat: 0, bid: "3x3", next: 1 } },
      { type: "event", room: ROOM, seq: 4, event: { type: "challenge", kind: "dudo", seat: 1, bidder: 0, bid: "3x3" } },
      { type: "event", room: ROOM, seq: 5, event: { type: "reveal", bid: "3x3", aces_wild: true, revealed: [{ seat: 0, dice: [3] }, { seat: 1, dice: [2] }, { seat: 2, dice: [5] }], count: 1, complete: true, bid_true: false } },
      { type: "event", room: ROOM, seq: 6, event: { type: "dice_changed", seat: 0, change: -1, reason: "lost_dudo", out: true, dice_left: 0 } },
    ]);
    const p = s.rooms[ROOM].table;
    eq([p.dice, p.diceLeft], [[], 0], "out:");
    applyFrame(s, { type: "event", room: ROOM, seq: 7, event: { type: "game_over", ranks: [3, 1, 2], winners: [1], reason: "last_player_standing", seed: "ab" } });
    eq(p.dice, [], "at the end:");
  }],
  ["perudo: each round's bids, call, cups and changes stay in the history", () => {
    const s = feed(initialState(), [
      { type: "room", room: ROOM, game: "perudo", state: "playing", seats: seats(["ana", "bob"]) },
      { type: "event", room: ROOM, seq: 1, event: { type: "game_started", seats: 2, options: { dice_per_player: 2 }, seed_sha256: "h" } },
      { type: "event", room: ROOM, seq: 2, event: { type: "round_started", round: 1, starter: 0, aces_wild: true } },
      { type: "event", room: ROOM, seq: 3, event: { type: "bid", seat: 0, bid: "2x4", next: 1 } },
      { type: "event", room: ROOM, seq: 4, event: { type: "challenge", kind: "dudo", seat: 1, bidder: 0, bid: "2x4" } },
      { type: "event", room: ROOM, seq: 5, event: { type: "reveal", bid: "2x4", revealed: [{ seat: 0, dice: [1, 4] }, { seat: 1, dice: [2, 3] }], count: 2, bid_true: true } },
      { type: "event", room: ROOM, seq: 6, event: { type: "dice_changed", seat: 1, change: -1, reason: "lost_dudo" } },
      { type: "event", room: ROOM, seq: 7, event: { type: "round_started", round: 2, starter: 1, aces_wild: true } },
      { type: "event", room: ROOM, seq: 8, event: { type: "bid", seat: 1, bid: "1x5", next: 0 } },
    ]);
    const p = s.rooms[ROOM].table;
    eq(p.reveal, null, "the table's reveal is gone:");
    eq(p.history.length, 1);
    const [first] = p.history;
    eq([first.round, first.bids, first.reveal.caller, first.reveal.count, first.reveal.revealed.length], [1, [{ seat: 0, bid: "2x4" }], 1, 2, 2]);
    eq(first.changes.map((c) => [c.seat, c.change]), [[1, -1]]);
  }],
  ["kriegspiel: a1 dark; your last move, a check against you, whose pawn tries", () => {
    eq([isDark("a1"), isDark("h1"), isDark("a8"), isDark("h8"), isDark("e4")], [true, false, false, true, false]);
    const s = feed(initialState(), [
      { type: "room", room: ROOM, game: "kriegspiel", state: "playing", seats: seats(["ana", "bob"]) },
      { type: "event", room: ROOM, seq: 1, event: { type: "game_started", rules: "wild16", to_move: "white", color: "black", board: "4k3/5ppp/8/8/8/8/8/8" } },
      { type: "event", room: ROOM, seq: 2, event: { type: "move", color: "white", capture: null, check: [] } },
      { type: "event", room: ROOM, seq: 3, event: { type: "pawn_tries", color: "black", count: 1 } },
    ]);
    const k = s.rooms[ROOM].table;
    eq([k.triesOf, k.tries, k.lastMove, k.checked], ["you", "1", null, false]);
    applyFrame(s, { type: "event", room: ROOM, seq: 4, event: { type: "move", color: "black", move: "f7f6", capture: null, check: [] } });
    applyFrame(s, { type: "event", room: ROOM, seq: 5, event: { type: "pawn_tries", color: "white", count: 0 } });
    eq([k.triesOf, k.lastMove], ["white", "f7f6"]);
    eq(translate("en", "pawnTriesWhite", { text: "0" }, "kriegspiel"), "White's pawn tries: 0");
    applyFrame(s, { type: "event", room: ROOM, seq: 6, event: { type: "move", color: "white", capture: null, check: ["short diagonal"] } });
    eq([k.checked, k.lastMove], [true, "f7f6"], "the enemy's move: the check is yours, your last move stays:");
    applyFrame(s, { type: "event", room: ROOM, seq: 7, event: { type: "move", color: "black", move: "g7g6", capture: null, check: [] } });
    eq([k.checked, k.lastMove], [false, "g7g6"]);
    eq([translate("en", "toPlayBlack", {}, "kriegspiel"), translate("it", "toPlayWhite", {}, "kriegspiel")], ["Black to play", "Tocca al Bianco"]);
  }],
  ["kriegspiel: a page attached by a snapshot knows its draw offer, standing or declined, until the opponent moves", () => {
    const announcements = [
      { type: "game_started", rules: "wild16", to_move: "white", color: "black", board: "4k3/8/8/8/8/8/8/8" },
      { type: "draw_offered", color: "black" },
      { type: "draw_declined", color: "white" },
    ];
    const s = feed(initialState(), [
      { type: "room", room: ROOM, game: "kriegspiel", state: "playing", seats: seats(["ana", "bob"]) },
      { type: "snapshot", room: ROOM, seq: 3, seat: 1, view: { color: "black", rules: "wild16", to_move: "white", draw_offer: null, board: "4k3/8/8/8/8/8/8/8", announcements } },
    ]);
    const k = s.rooms[ROOM].table;
    eq([k.offerBlocked, k.draw], [true, { color: "black", state: "declined" }]);
    applyFrame(s, { type: "event", room: ROOM, seq: 4, event: { type: "move", color: "white", capture: null, check: [] } });
    eq(k.offerBlocked, false, "white moved:");
  }],
  ["attention: only the running rooms whose turn frame waits for you", () => {
    const state = { rooms: {
      a: { id: "a", seat: 0, turn: { legal: ["x"] }, frame: { state: "playing" } },
      b: { id: "b", seat: 1, turn: null, frame: { state: "playing" } },
      c: { id: "c", seat: 0, turn: { legal: ["x"] }, frame: { state: "finished" } },
      d: { id: "d", seat: null, turn: null, frame: { state: "playing" } },
    } };
    eq(waitingRooms(state), ["a"]);
    eq(waitingRooms({ rooms: {} }), []);
  }],
  ["a turn frame offers the legal bids by face; an event after it ends the turn", () => {
    const s = feed(initialState(), [
      { type: "room", room: ROOM, game: "perudo", state: "playing", seats: seats(["ana", "bob"]) },
      { type: "turn", room: ROOM, seat: 0, seq: 3, legal: ["3x4", "2x1", "3x5", "4x4", "dudo"], view: { game: "perudo", seats: 2, round: 1, to_move: 0, bids: [{ seat: 1, bid: "2x4" }], seat: 0, dice: [3, 3], dice_left: 2 } },
    ]);
    const room = s.rooms[ROOM];
    eq(legalBids(room.turn.legal), { 1: [2], 4: [3, 4], 5: [3] });
    eq(room.table.dice, [3, 3]);
    applyFrame(s, { type: "event", room: ROOM, seq: 4, event: { type: "bid", seat: 0, bid: "3x4", next: 1 } });
    eq(room.turn, null);
  }],
  ["bids parse and aces match when wild", () => {
    eq(parseBid("5x4"), { quantity: 5, face: 4 });
    eq(parseBid("dudo"), null);
    eq([matches(1, 4, true), matches(1, 4, false), matches(4, 4, false), matches(1, 1, true)], [true, false, true, true]);
  }],
  ["chat keeps the text as given (markup is only text)", () => {
    const s = applyFrame(initialState(), { type: "chat", room: ROOM, n: 1, channel: "players", seat: 0, player: "p0", name: "<i>ana</i>", text: "<b>hi</b>" });
    eq(s.rooms[ROOM].chat, [{ n: 1, channel: "players", seat: 0, name: "<i>ana</i>", text: "<b>hi</b>" }]);
  }],
  ["a finished room's history is not full until its whole stream is here", () => {
    let s = applyFrame(initialState(), { type: "room", room: ROOM, game: "perudo", state: "finished", seq: 2, seats: [] });
    eq(fullHistory(s.rooms[ROOM]), null); // the room frame comes before the events
    s = applyFrame(s, { type: "event", room: ROOM, seq: 1, event: { type: "game_started" } });
    eq(fullHistory(s.rooms[ROOM]), null);
    s = applyFrame(s, { type: "event", room: ROOM, seq: 2, event: { type: "round_started", round: 1 } });
    eq(fullHistory(s.rooms[ROOM]).map((e) => e.type), ["game_started", "round_started"]);
  }],
  ["chat heard again after a reconnect is kept once, in order", () => {
    let s = initialState();
    const line = (n, text) => ({ type: "chat", room: ROOM, n, channel: "players", seat: 0, player: "p0", name: "ana", text });
    for (const frame of [line(1, "a"), line(2, "b"), line(1, "a"), line(2, "b"), line(3, "c")]) s = applyFrame(s, frame);
    eq(s.rooms[ROOM].chat.map((l) => l.text), ["a", "b", "c"]);
  }],
  ["kriegspiel: own board, own moves, castling, promotion, captures heard", () => {
    eq(parsePlacement("4k3/P7/4K3/8/8/8/8/8"), { e8: "k", a7: "P", e6: "K" });
    eq(applyOwnMove({ e1: "K", h1: "R" }, "e1g1"), { g1: "K", f1: "R" });
    eq(applyOwnMove({ a7: "P" }, "a7a8q"), { a8: "Q" });
    eq(applyOwnMove({ b2: "p" }, "b2b1n"), { b1: "n" });
    const s = feed(initialState(), [
      { type: "room", room: ROOM, game: "kriegspiel", state: "playing", seats: seats(["ana", "bot"]) },
      { type: "event", room: ROOM, seq: 1, event: { type: "game_started", rules: "wild16", to_move: "white", color: "white", board: "8/P7/4K3/8/8/8/8/8" } },
      { type: "event", room: ROOM, seq: 2, event: { type: "illegal", color: "white", move: "e6e7", answer: "illegal" } },
      { type: "event", room: ROOM, seq: 3, event: { type: "move", color: "white", move: "a7a8q", capture: null, check: ["rank"] } },
      { type: "event", room: ROOM, seq: 4, event: { type: "move", color: "black", capture: "a8", captured: "piece", check: [] } },
    ]);
    const k = s.rooms[ROOM].table;
    eq(k.board, { e6: "K" });
    eq(k.toMove, "white");
    eq(k.refused, []);
    const refused = s.rooms[ROOM].log[1];
    eq(refused.tr, ["answer"]); // the answer is a code, worded in the page's language
    const answer = (lang) => translate(lang, refused.args.answer, {}, "kriegspiel");
    eq(translate("en", refused.key, { ...refused.args, answer: answer("en") }, "kriegspiel"), "You tried e6e7: illegal.");
    eq(translate("it", refused.key, { ...refused.args, answer: answer("it") }, "kriegspiel"), "Hai provato e6e7: illegale.");
  }],
  ["kriegspiel: English en passant is shown with its square, and the right pawn leaves", () => {
    const s = feed(initialState(), [
      { type: "room", room: ROOM, game: "kriegspiel", state: "playing", seats: seats(["ana", "bot"]) },
      { type: "event", room: ROOM, seq: 1, event: { type: "game_started", rules: "english", to_move: "white", color: "black", board: "4k3/8/8/3p4/8/8/8/8" } },
      { type: "event", room: ROOM, seq: 2, event: { type: "move", color: "white", capture: "d5", captured: null, check: [], en_passant_at: "d6" } },
    ]);
    eq(s.rooms[ROOM].table.board, { e8: "k" });
    const { parts } = s.rooms[ROOM].log[1];
    eq(translate("en", parts[1].key, parts[1].args, "kriegspiel"), "Capture en passant at d6 (pawn d5 taken).");
    eq(translate("it", parts[1].key, parts[1].args, "kriegspiel"), "Presa en passant in d6 (preso il pedone in d5).");
  }],
  ["attempts from a square group promotions", () => {
    eq(attemptsFrom(["a7a8q", "a7a8r", "a7a8b", "a7a8n", "e6d6", "resign"], "a7"), { a8: ["a7a8q", "a7a8r", "a7a8b", "a7a8n"] });
  }],
  ["every string exists in English and Italian, with the same slots, for the page and every game", () => {
    const slots = (text) => (text.match(/\{\w+\}/g) || []).sort().join();
    eq(Object.keys(GAME_WORDS).sort(), Object.keys(GAMES).sort());
    for (const table of [STRINGS, ...Object.values(GAME_WORDS)]) {
      eq(Object.keys(table.it).sort(), Object.keys(table.en).sort());
      for (const key of Object.keys(table.en)) eq(slots(table.it[key]), slots(table.en[key]), key);
      for (const key of Object.keys(table.en).filter((k) => k.endsWith("_one"))) eq(key.slice(0, -4) in table.en, true, key);
    }
  }],
  ["counts agree with their nouns in both languages", () => {
    eq(translate("en", "diceCount", { count: 1 }, "perudo"), "1 die");
    eq(translate("en", "diceCount", { count: 2 }, "perudo"), "2 dice");
    eq(translate("it", "diceCount", { count: 1 }, "perudo"), "1 dado");
    eq(translate("it", "revealTitle", { count: 1, bid: "1x4", verdict: "vera" }, "perudo"), "Si scopre: 1 dado valido, la puntata 1x4 è vera");
    eq(translate("en", "ev_game_started_perudo", { seats: 2, count: 1 }, "perudo"), "The game starts: 2 players, 1 die each.");
    eq(translate("en", "diceCount", { count: 2 }), "diceCount", "a game's word is its own:");
    eq(translate("it", "yourTurn", {}, "perudo"), "Tocca a te", "the page's words serve every game:");
  }],
  ["a reveal says the same thing in the log as on the table, in both languages", () => {
    for (const lang of ["en", "it"]) {
      for (const count of [0, 1, 3]) {
        const args = { count, bid: "3x4", verdict: translate(lang, "bidTrue", {}, "perudo") };
        eq(translate(lang, "ev_reveal", args, "perudo"), `${translate(lang, "revealTitle", args, "perudo")}.`, `${lang} ${count}`);
      }
    }
    eq(translate("it", "ev_reveal", { count: 0, bid: "3x4", verdict: "vera" }, "perudo"), "Si scopre: 0 dadi validi, la puntata 3x4 è vera.");
    eq(translate("en", "ev_reveal", { count: 1, bid: "3x4", verdict: "true" }, "perudo"), "Reveal: 1 matching die, the bid 3x4 is true.");
  }],
  ["the catalogue is kept; a game without a module has a table that shows nothing", () => {
    const catalogue = { type: "catalogue", lang: "en", games: [{ name: "perudo", title: "Perudo", bots: [] }], room_options: [] };
    const s = feed(initialState(), [
      catalogue,
      { type: "room", room: ROOM, game: "mystery", state: "playing", seats: seats(["ana", "bob"]) },
      { type: "event", room: ROOM, seq: 1, event: { type: "game_started" } },
      { type: "event", room: ROOM, seq: 2, event: { type: "aborted", reason: "oops" } },
    ]);
    eq(catalogueGame(s, "perudo").title, "Perudo");
    eq(catalogueGame(s, "mystery"), null);
    eq(gameOf("mystery").NAME, "");
    eq(s.rooms[ROOM].log.map((e) => e.key), ["ev_aborted"]);
  }],
  ["goofspiel: the prize, hidden bids, the reveal, scores and the end", () => {
    const s = feed(initialState(), [
      { type: "room", room: ROOM, game: "goofspiel", state: "playing", seats: seats(["ana", "bob"]) },
      { type: "joined", room: ROOM, seat: 0 },
      { type: "event", room: ROOM, seq: 1, event: { type: "game_started", game: "goofspiel", seats: 2, options: { seats: 2, cards: 3 } } },
      { type: "event", room: ROOM, seq: 2, event: { type: "prize", round: 1, card: 2 } },
      { type: "event", room: ROOM, seq: 3, event: { type: "bid", round: 1, seat: 0, card: 3 } },
      { type: "event", room: ROOM, seq: 4, event: { type: "bid", round: 1, seat: 1 } },
      { type: "event", room: ROOM, seq: 5, event: { type: "reveal", round: 1, prize: 2, bids: [3, 1], winner: 0, scores: [2, 0] } },
      { type: "event", room: ROOM, seq: 6, event: { type: "prize", round: 2, card: 1 } },
    ]);
    const room = s.rooms[ROOM];
    eq(room.table.hand, [1, 2]);
    eq(room.table.scores, [2, 0]);
    eq([room.table.prize, room.table.toMove], [1, 0]);
    const lines = room.log.map((e) => translate("en", e.key, e.args, "goofspiel"));
    eq(lines.slice(1), ["Round 1: the prize is 2.", "You bid 3.", "bob bids.", "Bids: ana 3, bob 1. ana wins 2.", "Round 2: the prize is 1."]);
    applyFrame(s, { type: "event", room: ROOM, seq: 7, event: { type: "game_over", round: 3, ranks: [1, 2], winners: [0], reason: "all_cards_played", scores: [5, 1] } });
    eq(room.table.outcome.winners, [0]);
    eq(captions(room, fullHistory(room))[5].key, "goof_won");
  }],
  ["leaving keeps the room (marked left, never resumed by itself) until the player comes back", () => {
    const s = feed(initialState(), [{ type: "joined", room: ROOM, seat: 1 }, { type: "left", room: ROOM }]);
    eq(s.rooms[ROOM].left, true);
    eq(s.current, null);
    eq(resumePlan(s), []);
    applyFrame(s, { type: "resumed", room: ROOM, seat: 1, seq: 0 });
    eq(s.rooms[ROOM].left, false);
  }],
  ["seeks: the list, one added, one cancelled, and the ones a match took", () => {
    const a = { id: "s1", game: "kriegspiel", player: { id: "p1", name: "ana" }, options: {}, rated: false };
    const b = { id: "s2", game: "perudo", player: "p2", name: "bob", options: {}, rated: true };
    const s = feed(initialState(), [{ type: "seeks", seeks: [a] }, { type: "seek_added", seek: b }]);
    eq(s.seeks.map((x) => x.id), ["s1", "s2"]);
    eq(seekOwner(b), { id: "p2", name: "bob" });
    applyFrame(s, { type: "seek_added", seek: { ...b, rated: false } }); // the same seek again: replaced
    eq(s.seeks.map((x) => [x.id, x.rated]), [["s1", false], ["s2", false]]);
    applyFrame(s, { type: "seek_cancelled", seek: "s2" });
    eq(s.seeks.map((x) => x.id), ["s1"]);
    applyFrame(s, { type: "match", room: "r9", seat: 1, game: "kriegspiel", source: "seek", ref: "s1" });
    eq(s.seeks, []);
    eq([s.rooms.r9.seat, s.rooms.r9.game, s.rooms.r9.source], [1, "kriegspiel", "seek"]);
    eq(resumePlan(s), [{ room: "r9", since: 0 }]);
  }],
  ["rematch: who offered, who declined, the new room", () => {
    eq(rematchOf({}), { offered: [], declined: [], room: null });
    eq(rematchOf({ rematch: { offered: [0] } }), { offered: [0], declined: [], room: null });
    eq(rematchOf({ rematch: { offered: [{ seat: 1 }], declined: 0, room: "r2" } }), { offered: [1], declined: [0], room: "r2" });
    // the answer to rematch / decline_rematch updates the room's rematch
    const s = feed(initialState(), [
      { type: "room", room: ROOM, game: "kriegspiel", state: "finished", seats: seats(["ana", "bob"]) },
      { type: "rematch", room: ROOM, rematch: { offered: [0], declined: null, room: null } },
    ]);
    eq(rematchOf(s.rooms[ROOM].frame), { offered: [0], declined: [], room: null });
    eq(s.rooms[ROOM].frame.state, "finished");
  }],
  ["a tournament's entrants, who is registered, its rounds from the flat games list", () => {
    const t = {
      entrants: [{ player: "p1", name: "ana", withdrawn: false, house: null }, { player: "p2", name: "bob", withdrawn: true, house: null }],
      games: [
        { round: 2, board: 1, players: ["p1", "p3"], room: "r3", scores: null },
        { round: 1, board: 1, players: ["p3", "p1"], room: "r1", scores: [0, 1] },
        { round: 1, board: 0, players: ["p2"], room: null, scores: [1] },
      ],
    };
    eq(entrantsOf(t).map((e) => [e.id, e.name, e.withdrawn]), [["p1", "ana", false], ["p2", "bob", true]]);
    eq([registered(t, { id: "p1" }), registered(t, { id: "p2" }), registered(t, null)], [true, false, false]);
    eq(roundsOf(t).map((r) => [r.round, r.pairings.map((p) => p.board)]), [[1, [0, 1]], [2, [1]]]);
  }],
  ["tournaments: the list, a tournament's frame (its spec flattened) updating the list", () => {
    const s = feed(initialState(), [{ type: "tournaments", tournaments: [{ id: "t1", game: "perudo", format: "arena", status: "created", entrants: 0 }] }]);
    const frame = { type: "tournament", tournament: { id: "t1", spec: { game: "perudo", format: "arena" }, status: "running", standings: [{ rank: 1, player: "p1", name: "ana", points: 2 }] } };
    applyFrame(s, frame);
    eq(tournamentOf(frame).game, "perudo");
    eq(s.tournament.t1.standings[0].name, "ana");
    eq(s.tournaments.map((t) => [t.id, t.status, "standings" in t]), [["t1", "running", false]]);
  }],
];

// -- replays (async: they use WebCrypto, in Node and in the browser alike) ---------------

export const asyncCases = [
  ["the dice are drawn from the seed as the server draws them", async () => {
    const key = await seedKey("ab".repeat(32));
    eq(await rollDice(key, 1, 0, 5), [4, 3, 6, 5, 6]);
    eq(await rollDice(key, 3, 2, 4), [3, 5, 4, 3]);
  }],
  ["a perudo replay recomputes every cup and checks the commitment", async () => {
    const seed = "ab".repeat(32);
    const published = await commitment(seed);
    const events = [
      { type: "game_started", seats: 3, options: { dice_per_player: 5 } },
      { type: "round_started", round: 1, starter: 2, seat: 0, dice: [4, 3, 6, 5, 6] },
      { type: "bid", seat: 2, bid: "3x4" },
      { type: "dice_changed", seat: 2, change: -1 },
      { type: "round_started", round: 2, starter: 2 },
    ];
    const replay = await perudoReplay(events, seed, published);
    eq(replay.seedOk, true);
    eq(replay.mismatches, 0);
    eq(replay.steps[1].cups[0], [4, 3, 6, 5, 6]);
    eq(replay.steps[4].cups[2].length, 4);
    eq((await perudoReplay(events, seed, "00")).seedOk, false);
    events[1].dice = [1, 1, 1, 1, 1];
    eq((await perudoReplay(events, seed, published)).mismatches, 1);
  }],
  ["a kriegspiel replay plays the real moves, en passant included", async () => {
    const events = [{ type: "game_started" }, { type: "move" }, { type: "illegal" }, { type: "move" }, { type: "move" }];
    const replay = kriegReplay(events, { start_fen: "4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1", moves: ["a2a4", "b4a3", "e1d1"] });
    eq(replay.steps[3].board, { e8: "k", a3: "p", e1: "K" });
    eq(replay.steps[4].board, { e8: "k", a3: "p", d1: "K" });
    eq(replay.unmatched, 0);
  }],
  ["SAN as python-chess spells it, over 40 random games", async () => {
    for (const game of sanGames) {
      let pos = fromFen(game.fen);
      game.uci.forEach((uci, i) => {
        eq(san(pos, uci), game.san[i], `${game.fen} ${game.uci.slice(0, i + 1).join(" ")}:`);
        pos = play(pos, uci);
      });
    }
  }],
  ["a PGN with its tags, the start position and the result", async () => {
    const text = pgn({ startFen: "8/P5k1/4K3/8/8/8/8/8 w - - 0 1", moves: ["a7a8q", "g7g6"], white: 'a"b', black: "bot", result: "1-0" });
    eq(text.split("\n").filter((l) => l.startsWith("[White") || l.startsWith("[FEN") || l.startsWith("1.")), ['[White "a\\"b"]', '[FEN "8/P5k1/4K3/8/8/8/8/8 w - - 0 1"]', "1. a8=Q Kg6 1-0"]);
  }],
];
