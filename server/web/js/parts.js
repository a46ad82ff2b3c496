// Pieces of the page every game shares: the clocks of a timed room, a turn's seconds, the
// placings at the end. Game modules and room.js build with them.

import { h } from "./dom.js";
import { clockNow, placings, seatNames, turnLeft } from "./shared.js";

function fmtClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The clocks of a room played with a clock ({base, increment}), or a turn's seconds left
 * (a room with a turn_time), while the game runs; null otherwise. `label(seat)` adds a
 * word to a seat's name ("white"). */
export function timeLine(ui, room, label) {
  if (!room.clock || room.frame.state !== "playing") return null;
  const t = ui.t;
  if (room.clock.turn_time) {
    return h("p", { class: "turn-time" }, t("turnTimer"), ": ",
      h("span", { class: "turn-timer", "aria-label": t("turnTimer") }, `${turnLeft(room, Date.now())} s`));
  }
  const clocks = clockNow(room, Date.now());
  if (!clocks) return null;
  const names = seatNames(room);
  return h("p", { class: "clocks", "aria-label": t("clocks") },
    clocks.map((c, seat) => {
      const word = label ? label(seat) : "";
      return h("span", { class: `clock${room.clock.to_move === seat ? " running" : ""}`, "data-seat": seat },
        `${names[seat] || "?"}${word ? ` (${word})` : ""} `, h("span", { class: "clock-time" }, fmtClock(c)));
    }));
}

/** Update the running clocks and the turn's seconds in place (called twice a second). */
export function tick(room) {
  if (!room.clock || room.frame.state !== "playing") return;
  const timer = document.querySelector(".turn-timer");
  if (timer && room.clock.turn_time) timer.textContent = `${turnLeft(room, Date.now())} s`;
  const clocks = clockNow(room, Date.now());
  if (!clocks) return;
  for (const el of document.querySelectorAll(".clock[data-seat] .clock-time")) {
    el.textContent = fmtClock(clocks[Number(el.parentElement.dataset.seat)]);
  }
}

/** The placings of a finished game (`outcome.ranks`), with an optional word per seat. */
export function placingsView(ui, room, outcome, extra = null) {
  const t = ui.t;
  const names = seatNames(room);
  return h("section", { class: "outcome" },
    h("h3", {}, t("placings")),
    h("ol", { class: "placings" }, placings(outcome).map(({ seat, rank }) =>
      h("li", { "data-rank": rank, "data-seat": seat }, t("place", { rank, name: names[seat] || "?" }), extra ? ` ${extra(seat)}` : ""))));
}
