// The page: connects, keeps the state (state.js) and renders it. Every render rebuilds
// #app from the state; the focused control is found again by its data-key.

import { h, mount } from "./dom.js";
import { gameOf } from "./games/index.js";
import { translate } from "./i18n.js";
import { applyFrame, initialState, resumePlan } from "./state.js";
import { Connection } from "./net.js";
import { lobbyView, nameForm } from "./lobby.js";
import { tick } from "./parts.js";
import { logLine, roomView } from "./room.js";
import { canDraw, commitment } from "./seed.js";

const store = window.localStorage;
const AUTO = "auto"; // the ref of requests the page sends by itself

const ui = {
  state: initialState(),
  lang: "en",
  name: store.getItem("umpire.name") || "",
  connected: false,
  routed: false,
  games: {}, // each game module's own page state, by game name
  confirming: null,
  form: { game: null, options: {}, room: {}, help: {} }, // the create form: values set, by game
  drafts: {},
  acting: null,
  replays: {},
  replayAsked: {},
  seeds: {},
  conn: null,
};
ui.lang = store.getItem("umpire.lang") || ((navigator.language || "en").startsWith("it") ? "it" : "en");
ui.t = (key, args, game) => translate(ui.lang, key, args, game);
ui.send = (message) => ui.conn && ui.conn.send(message);
ui.sendAuto = (message) => ui.send({ ...message, ref: AUTO });
ui.act = (room, action) => {
  ui.acting = room.id; // hide the controls until the ack (or the error)
  ui.state.error = null;
  ui.send({ type: "act", room: room.id, action });
  render();
};
ui.confirmButton = (id, label, question, action) => {
  if (ui.confirming === id) {
    return h("span", { class: "confirm", role: "alertdialog", "aria-label": question },
      h("span", {}, question), " ",
      h("button", { type: "button", id: `${id}-yes`, class: "danger", "data-key": `${id}-yes`, onclick: () => { ui.confirming = null; action(); } }, ui.t("yes")),
      h("button", { type: "button", id: `${id}-no`, "data-key": `${id}-no`, onclick: () => { ui.confirming = null; render(); } }, ui.t("no")));
  }
  return h("button", { type: "button", id, "data-key": id, onclick: () => { ui.confirming = id; render(); } }, label);
};
ui.seedCheck = (seed, hash) => {
  const key = `${seed}:${hash}`;
  if (!(key in ui.seeds)) {
    ui.seeds[key] = "…";
    if (canDraw()) {
      commitment(seed).then((hex) => {
        ui.seeds[key] = hex === hash ? ui.t("seedOk") : ui.t("seedBad");
        render();
      });
    }
  }
  return ui.seeds[key];
};

// -- connection ---------------------------------------------------------------------

function wsUrl() {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/`;
}

function onFrame(frame) {
  const state = ui.state;
  if (frame.type === "error" && frame.code === "bad_token") {
    store.removeItem("umpire.token");
    ui.conn.ws.close();
    return;
  }
  if (frame.type === "error" && frame.ref === AUTO) {
    // a request the page made by itself (resume, lobby refresh) failed: a room that is
    // gone after a restart, say; forget it instead of showing an error
    if (frame.room && frame.code === "no_such_room") delete state.rooms[frame.room];
    render();
    return;
  }
  if (frame.type === "rooms" && !state.current && JSON.stringify(frame.rooms) === JSON.stringify(state.lobby)) return;
  applyFrame(state, frame);
  if ((frame.type === "ack" || frame.type === "error") && ui.acting === frame.room) ui.acting = null;
  if (frame.type === "welcome") ui.acting = null;
  const followed = typeof frame.room === "string" && state.rooms[frame.room];
  if (followed && followed.table) {
    const module = gameOf(followed.game);
    if (module.onFrame) module.onFrame(ui, followed, frame);
  }
  if (frame.type === "hint") ui.hintAt = frame.seq; // the position it was worked out for: shown while the room is still there
  if (frame.type === "clock" && state.rooms[frame.room]) state.rooms[frame.room].clockAt = Date.now();
  if (frame.type === "welcome") {
    store.setItem("umpire.token", frame.token);
    askCatalogue();
    for (const entry of resumePlan(state)) ui.send({ type: "resume", ...entry, ref: AUTO });
    if (!ui.routed) {
      ui.routed = true;
      route();
    }
  }
  if (frame.type === "created" || frame.type === "joined" || frame.type === "watching") {
    const hash = `#/room/${frame.room}`;
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }
  render();
}

/** Ask for the catalogue of games in the page's language (after welcome, and again when
 * the language changes). */
function askCatalogue() {
  ui.sendAuto({ type: "catalogue", lang: ui.lang });
}

function connect() {
  ui.conn = new Connection(wsUrl(), {
    onFrame,
    onStatus: (up) => {
      ui.connected = up;
      render();
    },
    hello: () => {
      const token = store.getItem("umpire.token");
      return token ? { type: "hello", v: 1, name: ui.name, token } : { type: "hello", v: 1, name: ui.name };
    },
  });
  ui.conn.open();
}

function route() {
  const hash = location.hash.replace(/^#\/?/, "");
  const [kind, arg] = hash.split("/");
  const state = ui.state;
  if (kind === "invite" && arg) {
    ui.send({ type: "join", invite: decodeURIComponent(arg) });
  } else if (kind === "room" && arg) {
    const id = decodeURIComponent(arg);
    state.current = id;
    if (!state.rooms[id] && !state.pendingSeats.some((s) => s.room === id)) ui.send({ type: "watch", room: id });
  } else {
    state.current = null;
    ui.send({ type: "list_rooms" });
  }
  render();
}

window.addEventListener("hashchange", () => {
  if (ui.conn && ui.name) route();
});

setInterval(() => {
  if (ui.connected && !ui.state.current) ui.send({ type: "list_rooms", ref: AUTO });
}, 2000);
setInterval(() => {
  const room = ui.state.current && ui.state.rooms[ui.state.current];
  if (room) tick(room);
}, 500);

// -- rendering ----------------------------------------------------------------------

function render() {
  const t = ui.t;
  document.documentElement.lang = ui.lang;
  const banner = document.getElementById("banner");
  banner.hidden = ui.connected || !ui.name;
  banner.textContent = t("disconnected");
  const langButton = document.getElementById("lang");
  langButton.textContent = t("language");
  langButton.setAttribute("aria-label", t("languageLabel"));
  document.getElementById("me").textContent = ui.state.player ? ui.state.player.name : "";
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  const app = document.getElementById("app");
  if (!ui.name) mount(app, nameForm(ui));
  else {
    const room = ui.state.current && ui.state.rooms[ui.state.current];
    mount(app, errorLine(), room ? roomView(ui, room) : lobbyView(ui));
  }
  for (const list of app.querySelectorAll(".log-lines, .chat-lines")) list.scrollTop = list.scrollHeight; // newest in view
  if (focused) {
    const again = app.querySelector(`[data-key="${CSS.escape(focused)}"]`);
    if (again) again.focus();
  }
}

function errorLine() {
  const error = ui.state.error;
  if (!error) return null;
  return h("p", { class: "error", role: "alert" }, `${error.code}: ${error.message}`);
}

ui.render = () => render();
ui.logLine = (entry, game) => logLine(ui, entry, game);
ui.setName = (name) => {
  ui.name = name;
  store.setItem("umpire.name", name);
  connect();
  render();
};

document.getElementById("lang").addEventListener("click", () => {
  ui.lang = ui.lang === "en" ? "it" : "en";
  store.setItem("umpire.lang", ui.lang);
  if (ui.connected) askCatalogue();
  render();
});

if (ui.name) connect();
render();
