// Replays of finished games, with everything revealed, from the events this page holds.
//
// Perudo: the seed is revealed at the end and every die is drawn from it
// (docs/perudo.md, "Fair dice": die d of seat s in round r is
// HMAC-SHA256(seed, "perudo/round/r/seat/s/die/d#k") read as a 64-bit integer, with
// rejection sampling), so the replay recomputes every cup of every round, checks
// sha256(seed) against the commitment and every reveal against the seed.
// Kriegspiel: the final view's `revealed` holds the start position and the real moves;
// each `move` announcement is the next real move, played on a board with both sides.

import { applyOwnMove, parsePlacement } from "./state.js";

const SPACE = 1n << 64n;
const encoder = new TextEncoder();

function hexBytes(hex) {
  return new Uint8Array((hex.match(/../g) || []).map((x) => parseInt(x, 16)));
}

function hex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A uniform integer in [0, n) from the seed and the label, as the server draws it. */
export async function draw(key, label, n) {
  const limit = SPACE - (SPACE % BigInt(n));
  for (let counter = 0; ; counter += 1) {
    const digest = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${label}#${counter}`)));
    let value = 0n;
    for (let i = 0; i < 8; i += 1) value = (value << 8n) | BigInt(digest[i]);
    if (value < limit) return Number(value % BigInt(n));
  }
}

/** The HMAC key of a seed (hex). */
export function seedKey(seedHex) {
  return crypto.subtle.importKey("raw", hexBytes(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** Seat `seat`'s `count` dice in round `round`, drawn from the seed's key. */
export async function rollDice(key, round, seat, count) {
  const dice = [];
  for (let d = 0; d < count; d += 1) dice.push((await draw(key, `perudo/round/${round}/seat/${seat}/die/${d}`, 6)) + 1);
  return dice;
}

/** sha256 of a seed (hex) as hex. */
export async function commitment(seedHex) {
  return hex(await crypto.subtle.digest("SHA-256", hexBytes(seedHex)));
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

/** Apply a real move (UCI) to a board with both sides (en passant included). */
export function applyRealMove(board, uci) {
  const from = uci.slice(0, 2);
  const to = uci.slice(2, 4);
  const piece = board[from];
  if (piece && piece.toLowerCase() === "p" && from[0] !== to[0] && !board[to]) delete board[to[0] + from[1]];
  return applyOwnMove(board, uci);
}

/** The replay of a finished Kriegspiel room: [{event, board, move}] where `board` has
 * both sides' pieces after the real moves so far. */
export function kriegReplay(events, revealed) {
  const moves = (revealed && revealed.moves) || [];
  const board = parsePlacement((revealed && revealed.start_fen) || "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
  const steps = [];
  let played = 0;
  for (const event of events) {
    let move = null;
    if (event.type === "move" && played < moves.length) {
      move = moves[played];
      applyRealMove(board, move);
      played += 1;
    }
    steps.push({ event, board: { ...board }, move });
  }
  return { steps, unmatched: moves.length - played };
}
