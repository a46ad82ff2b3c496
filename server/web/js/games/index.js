// The one place that knows which games this client can show: each game is one module of
// this folder, registered here. A module exports:
//   NAME                           the game's name in the server's catalogue
//   words                          its texts: {en: {...}, it: {...}}
//   newTable()                     a fresh state of its table (pure)
//   applyView(room, view)          take a snapshot's or a turn's view (pure)
//   applyEvent(room, event)        apply an event; return its log line or null (pure)
//   table(ui, room)                the table, as DOM
// and optionally onFrame(ui, room, frame) (the page's reaction to a frame of its rooms),
// seatLabel(ui, seat) (a word beside a seat's name: "white"), and replay ({ready(room),
// make(room, events), panel(ui, room, data, step)}) for finished games. Everything else in
// the client (lobby, create form, bot pickers) comes from the server's catalogue.

import { h } from "../dom.js";
import { addWords } from "../i18n.js";
import * as goofspiel from "./goofspiel.js";
import * as kriegspiel from "./kriegspiel.js";
import * as perudo from "./perudo.js";

const MODULES = [perudo, kriegspiel, goofspiel];

/** The game modules by name. */
export const GAMES = Object.fromEntries(MODULES.map((module) => [module.NAME, module]));

for (const module of MODULES) addWords(module.NAME, module.words);

/** A game the server runs but this client has no module for: its log and a note. */
const UNKNOWN = {
  NAME: "",
  words: { en: {}, it: {} },
  newTable: () => ({}),
  applyView: () => {},
  applyEvent: () => null,
  table: (ui, room) => h("p", { class: "muted" }, ui.t("noClient", { game: room.game })),
};

/** The module of game `name` (a stand-in that shows nothing for an unknown game). */
export function gameOf(name) {
  return GAMES[name] || UNKNOWN;
}
