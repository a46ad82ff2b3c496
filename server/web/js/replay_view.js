// The replay panel of a finished room: step through its events with everything revealed.
// The game module makes the replay's steps and draws each step (its `replay`); this panel
// loads the whole stream, captions every step with its log line and steps through them.

import { h } from "./dom.js";
import { gameOf } from "./games/index.js";
import { captions, fullHistory } from "./state.js";

/** Start (once) making the replay of `room`; returns its slot ({status, data, index}). */
function load(ui, room, replay) {
  const slot = ui.replays[room.id];
  if (slot) return slot;
  const events = fullHistory(room);
  if (!events || !replay.ready(room)) {
    // joined late: ask once for the whole stream (the state keeps every event by number);
    // what the module still waits for comes with the final snapshot (its onFrame asks)
    if (!events && !ui.replayAsked[room.id]) {
      ui.replayAsked[room.id] = true;
      ui.sendAuto({ type: "resume", room: room.id, since: 0, ...(room.invite ? { invite: room.invite } : {}) });
    }
    return { status: "loading" };
  }
  const made = { status: "loading", index: 0 };
  ui.replays[room.id] = made;
  const ready = (data) => {
    Object.assign(made, { status: "ready", data, index: data.steps.length - 1, captions: captions(room, events) });
    ui.render();
  };
  const result = replay.make(room, events);
  if (result && result.unavailable) return Object.assign(made, { status: "unavailable", note: result.unavailable });
  Promise.resolve(result).then(ready);
  return made;
}

/** The replay card, or null when the room is not finished or its game has no replay. */
export function replayView(ui, room) {
  const t = ui.t;
  const replay = gameOf(room.game).replay;
  if (room.frame.state !== "finished" || !room.frame.seed || !replay) return null;
  const slot = load(ui, room, replay);
  if (slot.status !== "ready") {
    const note = slot.status === "unavailable" ? ui.t(slot.note, {}, room.game) : "…";
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
  return h("section", { class: "card replay", "aria-label": t("replay") },
    h("h2", {}, t("replay")),
    h("div", { class: "controls" },
      h("button", { type: "button", id: "replay-first", "aria-label": t("first"), onclick: go(0) }, "«"),
      h("button", { type: "button", id: "replay-prev", onclick: go(index - 1), disabled: index === 0 }, t("prev")),
      h("span", { id: "replay-step" }, t("step", { n: index + 1, total: steps.length })),
      h("button", { type: "button", id: "replay-next", onclick: go(index + 1), disabled: index === steps.length - 1 }, t("next")),
      h("button", { type: "button", id: "replay-last", "aria-label": t("last"), onclick: go(steps.length - 1) }, "»")),
    h("p", { class: "caption", id: "replay-caption" }, entry ? ui.logLine(entry, room.game) : step.event.type),
    replay.panel(ui, room, slot.data, step));
}
