// The replay panel of a finished room: step through its events with everything revealed.

import { h } from "./dom.js";
import { boardGrid } from "./krieg.js";
import { die } from "./perudo.js";
import { applyFrame, fullHistory, initialState, roomState, seatNames } from "./state.js";
import { kriegReplay, perudoReplay } from "./replay.js";
import { pgn } from "./san.js";

/** Start (once) making the replay of `room`; returns its slot ({status, data, index}). */
function load(ui, room) {
  const slot = ui.replays[room.id];
  if (slot) return slot;
  const events = fullHistory(room);
  if (!events || (room.game === "kriegspiel" && !room.krieg.revealed)) {
    // joined late: ask once for the whole stream (the state keeps every event by number);
    // Kriegspiel's real moves come with the final snapshot (main.js asks for it)
    if (!events && !ui.replayAsked[room.id]) {
      ui.replayAsked[room.id] = true;
      ui.send({ type: "resume", room: room.id, since: 0, ref: "auto" });
    }
    return { status: "loading" };
  }
  const made = { status: "loading", index: 0 };
  ui.replays[room.id] = made;
  const ready = (data) => {
    Object.assign(made, { status: "ready", data, index: data.steps.length - 1, captions: captions(room, events) });
    ui.render();
  };
  if (room.game === "perudo" && !(globalThis.crypto && crypto.subtle)) {
    // WebCrypto exists only on secure pages (https, or localhost)
    return Object.assign(made, { status: "unavailable" });
  }
  if (room.game === "perudo") perudoReplay(events, room.frame.seed, room.frame.seed_sha256).then(ready);
  else queueMicrotask(() => ready(kriegReplay(events, room.krieg.revealed)));
  return made;
}

/** The log line of every event, by number, replayed on a scratch copy of the room. */
function captions(room, events) {
  const scratch = initialState();
  const copy = roomState(room.id);
  Object.assign(copy, { frame: room.frame, game: room.game, seat: room.seat });
  copy.krieg.color = room.krieg.color;
  scratch.rooms[room.id] = copy;
  events.forEach((event, i) => applyFrame(scratch, { type: "event", room: room.id, seq: i + 1, event }));
  const out = {};
  for (const entry of copy.log) out[entry.seq] = entry;
  return out;
}

/** The PGN of the real game, as a file download (made in the page). */
export function gamePgn(room, names) {
  const revealed = room.krieg.revealed;
  const outcome = room.krieg.outcome || room.frame.outcome || {};
  const ranks = outcome.ranks || [];
  const fromRanks = ranks.length === 2 ? (ranks[0] === ranks[1] ? "1/2-1/2" : ranks[0] < ranks[1] ? "1-0" : "0-1") : "*";
  const result = outcome.result || fromRanks;
  return pgn({ startFen: revealed.start_fen, moves: revealed.moves, white: names[0] || "?", black: names[1] || "?", result, event: `umpire Kriegspiel ${room.id}` });
}

function downloadPgn(room, names) {
  const blob = new Blob([gamePgn(room, names)], { type: "application/x-chess-pgn" });
  const link = h("a", { href: URL.createObjectURL(blob), download: `umpire-${room.id}.pgn` });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** The replay card, or null when the room is not finished. */
export function replayView(ui, room) {
  const t = ui.t;
  if (room.frame.state !== "finished" || !room.frame.seed) return null;
  const slot = load(ui, room);
  if (slot.status !== "ready") {
    const note = slot.status === "unavailable" ? t("needsSecure") : "…";
    return h("section", { class: "card replay" }, h("h2", {}, t("replay")), h("p", { class: "muted" }, note));
  }
  const { steps } = slot.data;
  const index = Math.min(slot.index, steps.length - 1);
  const step = steps[index];
  const go = (to) => () => {
    slot.index = Math.max(0, Math.min(steps.length - 1, to));
    ui.render();
  };
  const entry = slot.captions[index + 1];
  const names = seatNames(room);
  let panel;
  if (room.game === "perudo") {
    panel = h("div", { class: "replay-cups" },
      h("p", {}, t("roundN", { round: step.round })),
      h("ul", { class: "cups" }, step.cups.map((cup, seat) => h("li", { class: `cup${step.counts[seat] === 0 ? " out" : ""}`, "data-seat": seat },
        h("span", { class: "who" }, names[seat] || "?"),
        h("span", { class: "dice" }, cup.map((f) => die(f, { label: String(f), size: 26 })))))),
      step.bids.length ? h("p", { class: "muted" }, step.bids.map((b) => `${names[b.seat] || "?"} ${b.bid}`).join(" · ")) : null,
      h("p", { class: "seed" }, slot.data.seedOk && !slot.data.mismatches ? t("replayFair") : t("replayUnfair", { n: slot.data.mismatches })));
  } else {
    panel = h("div", { class: "replay-board" },
      boardGrid(ui, step.board, { flipped: room.krieg.color === "black", label: t("replay") }),
      step.move ? h("p", { class: "moves" }, t("realMove", { move: step.move })) : null,
      h("button", { type: "button", id: "pgn", onclick: () => downloadPgn(room, names) }, t("downloadPgn")));
  }
  return h("section", { class: "card replay", "aria-label": t("replay") },
    h("h2", {}, t("replay")),
    h("div", { class: "controls" },
      h("button", { type: "button", id: "replay-first", "aria-label": t("first"), onclick: go(0) }, "«"),
      h("button", { type: "button", id: "replay-prev", onclick: go(index - 1), disabled: index === 0 }, t("prev")),
      h("span", { id: "replay-step" }, t("step", { n: index + 1, total: steps.length })),
      h("button", { type: "button", id: "replay-next", onclick: go(index + 1), disabled: index === steps.length - 1 }, t("next")),
      h("button", { type: "button", id: "replay-last", "aria-label": t("last"), onclick: go(steps.length - 1) }, "»")),
    h("p", { class: "caption", id: "replay-caption" }, entry ? ui.logLine(entry) : step.event.type),
    panel);
}
