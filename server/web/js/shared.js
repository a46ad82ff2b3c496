// Pure helpers the page and every game module share: seat names, placings, clocks. No
// DOM, no socket, no clock of its own (the caller passes `now`).

/** Display names by seat ("" for a free seat; "name#2" when a name repeats). */
export function seatNames(room) {
  const raw = (room.frame.seats || []).map((s) => (s && s.name) || "");
  return raw.map((n, i) => (n && raw.filter((m) => m === n).length > 1 ? `${n}#${i}` : n));
}

/** The display name of `seat` ("?" for none, "#2" for a free seat). */
export function nameOf(room, seat) {
  if (seat === null || seat === undefined) return "?";
  return seatNames(room)[seat] || `#${seat}`;
}

/** Seats in placing order: [{seat, rank}] sorted by rank (1 is best). */
export function placings(outcome) {
  if (!outcome || !outcome.ranks) return [];
  return outcome.ranks.map((rank, seat) => ({ seat, rank })).sort((a, b) => a.rank - b.rank || a.seat - b.seat);
}

/** The time the clocks show: while the room is paused (the server cannot save), the
 * moment the pause began; the server sends the clocks again when it goes on. */
function stoppedAt(room, now) {
  return room.paused && room.pausedAt ? Math.min(now, room.pausedAt) : now;
}

/** Each seat's clock now, counting down the running one, or null. */
export function clockNow(room, now) {
  now = stoppedAt(room, now);
  const clock = room.clock;
  if (!clock || !clock.remaining) return null;
  const left = clock.remaining.map(Number);
  const over = room.frame.state === "finished" || room.frame.state === "aborted";
  if (clock.to_move !== null && clock.to_move !== undefined && !over) {
    left[clock.to_move] = Math.max(0, left[clock.to_move] - (now - room.clockAt) / 1000);
  }
  return left;
}

/** Whole seconds left in a timed turn (the room has a turn_time). */
export function turnLeft(room, now) {
  now = stoppedAt(room, now);
  return Math.max(0, Math.ceil(room.clock.turn_time - (now - room.clockAt) / 1000));
}

/** An event's machine word ("last_player_standing") as words ("last player standing"). */
export function words(reason) {
  return String(reason || "").replaceAll("_", " ");
}
