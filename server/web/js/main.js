// The page: connects, keeps the state (state.js) and renders it. Every render rebuilds
// #app from the state; the focused control is found again by its data-key.

import { h, mount } from "./dom.js";
import { translate } from "./i18n.js";
import { applyFrame, initialState, resumePlan, seatNames } from "./state.js";
import { perudoTable, tickTurn } from "./perudo.js";
import { kriegTable, tickClocks } from "./krieg.js";
import { Connection } from "./net.js";
import { replayView } from "./replay_view.js";

const store = window.localStorage;
const AUTO = "auto"; // the ref of requests the page sends by itself
const BOTS = {
  perudo: ["perudo-simple", "perudo-expert", "perudo-random", "autopilot"],
  kriegspiel: ["kriegspiel-random", "kriegspiel-meta"],
};

const ui = {
  state: initialState(),
  lang: "en",
  name: store.getItem("umpire.name") || "",
  connected: false,
  routed: false,
  pick: { face: null, quantity: null },
  krieg: { selected: null, flipped: false, marker: null, promotion: null },
  confirming: null,
  form: { game: "perudo", seats: 4, dice: 5, preset: "piatnik", reveal: "until_proven", turnTime: 0, calza: false, counts: false, palifico: true, rules: "wild16", clock: 0, fen: "", private: false, chat: true, spectators: "live" },
  drafts: {},
  acting: null,
  revealAsked: {},
  replays: {},
  replayAsked: {},
  seeds: {},
  conn: null,
};
ui.lang = store.getItem("umpire.lang") || ((navigator.language || "en").startsWith("it") ? "it" : "en");
ui.t = (key, args) => translate(ui.lang, key, args);
ui.send = (message) => ui.conn && ui.conn.send(message);
ui.act = (room, action) => {
  ui.acting = room.id; // hide the controls until the ack (or the error)
  ui.state.error = null;
  ui.krieg.selected = null;
  ui.krieg.promotion = null;
  ui.send({ type: "act", room: room.id, action });
  render();
};
ui.choose = (pick) => {
  ui.pick = pick;
  render();
};
ui.attempt = (room, options) => {
  if (options.length > 1) {
    ui.krieg.promotion = { room: room.id, options };
    render();
    return;
  }
  ui.act(room, options[0]);
};
ui.selectSquare = (sq) => {
  ui.krieg.selected = sq;
  ui.krieg.promotion = null;
  render();
};
ui.flip = () => {
  ui.krieg.flipped = !ui.krieg.flipped;
  render();
};
ui.markers = (roomId) => {
  try {
    return JSON.parse(store.getItem(`umpire.markers.${roomId}`) || "{}");
  } catch {
    return {};
  }
};
ui.setMarker = (roomId, sq, piece) => {
  const markers = ui.markers(roomId);
  if (markers[sq] === piece) delete markers[sq];
  else markers[sq] = piece;
  store.setItem(`umpire.markers.${roomId}`, JSON.stringify(markers));
  render();
};
ui.setMarkerTool = (piece) => {
  ui.krieg.marker = piece;
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
    if (window.crypto && crypto.subtle) {
      const bytes = new Uint8Array(seed.match(/../g).map((x) => parseInt(x, 16)));
      crypto.subtle.digest("SHA-256", bytes).then((digest) => {
        const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
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
  const followed = frame.type === "room" && state.rooms[frame.room];
  if (followed && frame.state === "finished" && followed.game === "kriegspiel" && !followed.krieg.revealed && !ui.revealAsked[frame.room]) {
    // the end's view (a snapshot) holds the real position: attach again to get it
    ui.revealAsked[frame.room] = true;
    ui.send({ type: "watch", room: frame.room, ref: AUTO });
  }
  if (frame.type === "hint" && state.rooms[frame.room]) ui.hintAt = state.rooms[frame.room].seq; // shown until the next event
  if (frame.type === "clock" && state.rooms[frame.room]) state.rooms[frame.room].clockAt = Date.now();
  if (frame.type === "welcome") {
    store.setItem("umpire.token", frame.token);
    for (const entry of resumePlan(state)) ui.send({ type: "resume", ...entry, ref: AUTO });
    if (!ui.routed) {
      ui.routed = true;
      route();
    }
  }
  if (frame.type === "turn") ui.krieg.selected = ui.krieg.selected && frame.legal.some((a) => a.startsWith(ui.krieg.selected)) ? ui.krieg.selected : null;
  if (frame.type === "created" || frame.type === "joined" || frame.type === "watching") {
    const hash = `#/room/${frame.room}`;
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }
  render();
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
  if (room && room.clock && room.frame.state === "playing") {
    if (room.game === "kriegspiel") tickClocks(ui, room);
    else tickTurn(room);
  }
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
  if (!ui.name) mount(app, nameForm());
  else {
    const room = ui.state.current && ui.state.rooms[ui.state.current];
    mount(app, errorLine(), room ? roomView(room) : lobbyView());
  }
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

function nameForm() {
  const t = ui.t;
  const submit = (e) => {
    e.preventDefault();
    const value = document.getElementById("name").value.trim();
    if (!value) return;
    ui.name = value.slice(0, 32);
    store.setItem("umpire.name", ui.name);
    connect();
    render();
  };
  return h("form", { class: "card name-form", onsubmit: submit },
    h("h1", {}, t("chooseName")),
    h("label", { for: "name" }, t("name")),
    h("input", { id: "name", name: "name", maxlength: 32, autocomplete: "nickname", required: true, "data-key": "name" }),
    h("button", { type: "submit", class: "primary" }, t("continue")));
}

function lobbyView() {
  const t = ui.t;
  const rooms = ui.state.lobby;
  return h("div", { class: "lobby" },
    h("section", { class: "card" },
      h("h1", {}, t("lobby")),
      rooms.length
        ? h("ul", { class: "rooms" }, rooms.map(roomCard))
        : h("p", { class: "muted" }, t("noRooms"))),
    createForm());
}

function roomCard(r) {
  const t = ui.t;
  const taken = r.seats.filter((s) => s.player).length;
  const free = taken < r.seats.length;
  return h("li", { class: "room-card", "data-room": r.room },
    h("span", { class: "game" }, t(r.game)), " ",
    h("span", { class: "id" }, r.room), " ",
    h("span", { class: `state ${r.state}` }, t(`state_${r.state}`)), " ",
    h("span", { class: "fill" }, `${taken}/${r.seats.length}`), " ",
    h("span", { class: "names" }, r.seats.filter((s) => s.name).map((s) => s.name).join(", ")), " ",
    r.state === "waiting" && free ? h("button", { type: "button", onclick: () => ui.send({ type: "join", room: r.room }), "aria-label": `${t("join")} ${r.room}` }, t("join")) : null,
    r.spectators === "live" || (r.spectators === "after" && r.state === "finished")
      ? h("button", { type: "button", onclick: () => ui.send({ type: "watch", room: r.room }), "aria-label": `${t(r.state === "finished" ? "replay" : "watch")} ${r.room}` }, t(r.state === "finished" ? "replay" : "watch"))
      : null);
}

function field(label, control) {
  return h("label", { class: "field" }, h("span", {}, label), control);
}

function createForm() {
  const t = ui.t;
  const f = ui.form;
  const set = (key, parse) => (e) => {
    f[key] = parse(e.target);
    if (key === "game") render();
  };
  const num = (el) => Number(el.value);
  const val = (el) => el.value;
  const chk = (el) => el.checked;
  const fields = [
    field(t("game"), h("select", { id: "f-game", "data-key": "f-game", onchange: set("game", val) },
      ["perudo", "kriegspiel"].map((g) => h("option", { value: g, selected: f.game === g }, t(g))))),
  ];
  if (f.game === "perudo") {
    fields.push(
      field(t("seats"), h("input", { id: "f-seats", type: "number", min: 2, max: 6, value: f.seats, "data-key": "f-seats", oninput: set("seats", num) })),
      field(t("dicePerPlayer"), h("input", { id: "f-dice", type: "number", min: 1, max: 10, value: f.dice, "data-key": "f-dice", oninput: set("dice", num) })),
      field(t("preset"), h("select", { id: "f-preset", onchange: set("preset", val) }, ["piatnik", "classic"].map((p) => h("option", { value: p, selected: f.preset === p }, p)))),
      field(t("revealRule"), h("select", { id: "f-reveal", onchange: set("reveal", val) }, ["until_proven", "all"].map((r) => h("option", { value: r, selected: f.reveal === r }, t(`reveal_${r}`))))),
      field(t("turnTime"), h("input", { id: "f-turn-time", type: "number", min: 0, max: 3600, value: f.turnTime, oninput: set("turnTime", num) })),
      field(t("calza"), h("input", { id: "f-calza", type: "checkbox", checked: f.calza, onchange: set("calza", chk) })),
      field(t("showDiceCounts"), h("input", { id: "f-counts", type: "checkbox", checked: f.counts, onchange: set("counts", chk) })),
      field(t("palifico"), h("input", { id: "f-palifico", type: "checkbox", checked: f.palifico, onchange: set("palifico", chk) })),
    );
  } else {
    fields.push(
      field(t("rules"), h("select", { id: "f-rules", onchange: set("rules", val) }, ["wild16", "cincinnati", "rand", "english"].map((r) => h("option", { value: r, selected: f.rules === r }, r)))),
      field(t("clockMinutes"), h("input", { id: "f-clock", type: "number", min: 0, max: 180, value: f.clock, oninput: set("clock", num) })),
      field(t("fen"), h("input", { id: "f-fen", value: f.fen, placeholder: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", oninput: set("fen", val) })),
    );
  }
  fields.push(
    field(t("private"), h("input", { id: "f-private", type: "checkbox", checked: f.private, onchange: set("private", chk) })),
    field(t("chatOn"), h("input", { id: "f-chat", type: "checkbox", checked: f.chat, onchange: set("chat", chk) })),
    field(t("spectatorsLabel"), h("select", { id: "f-spectators", onchange: set("spectators", val) }, ["live", "after", "none"].map((s) => h("option", { value: s, selected: f.spectators === s }, t(`spectators_${s}`))))),
  );
  const submit = (e) => {
    e.preventDefault();
    const message = { type: "create_room", game: f.game, public: !f.private, chat: f.chat, spectators: f.spectators };
    if (f.game === "perudo") {
      if (f.turnTime > 0) message.turn_time = f.turnTime;
      message.options = { seats: f.seats, dice_per_player: f.dice, preset: f.preset, reveal: f.reveal, calza: f.calza, show_dice_counts: f.counts, palifico: f.palifico };
    } else {
      message.options = { rules: f.rules };
      if (f.fen.trim()) message.options.fen = f.fen.trim();
      if (f.clock > 0) message.clock = { base: f.clock * 60, increment: 0 };
    }
    ui.state.error = null;
    ui.send(message);
  };
  return h("form", { class: "card create", id: "create", onsubmit: submit, "aria-label": t("createRoom") },
    h("h2", {}, t("createRoom")), fields, h("button", { type: "submit", class: "primary", id: "f-create" }, t("create")));
}

function roomView(room) {
  const t = ui.t;
  const frame = room.frame;
  const me = ui.state.player;
  const isHost = me && frame.host === me.id;
  const waiting = frame.state === "waiting";
  const names = seatNames(room);
  const header = h("div", { class: "room-head" },
    h("h1", {}, t("room", { room: room.id }), " ", h("span", { class: "muted" }, `${t(room.game || "perudo")} · `, h("span", { class: "room-state", "data-state": frame.state || "" }, frame.state ? t(`state_${frame.state}`) : "…"))),
    h("a", { href: "#/", class: "back", onclick: () => { ui.send({ type: "list_rooms" }); } }, t("back")));
  const invite = room.invite
    ? h("p", { class: "invite" }, h("label", { for: "invite-link" }, t("invite")), " ",
        h("input", { id: "invite-link", readonly: true, value: `${location.origin}/#/invite/${room.invite}` }),
        h("button", { type: "button", class: "small", onclick: () => navigator.clipboard && navigator.clipboard.writeText(`${location.origin}/#/invite/${room.invite}`) }, t("copy")))
    : null;
  const seats = h("ul", { class: "seats" }, (frame.seats || []).map((s, i) => {
    const badges = [];
    if (s.player && s.player === (me && me.id)) badges.push(t("you"));
    if (s.player && s.player === frame.host) badges.push(t("host"));
    if (s.bot) badges.push(t("bot"));
    if (s.player && !s.connected) badges.push(t("away"));
    if (s.autopilot && !s.house) badges.push(t("autopilot"));
    const add = isHost && waiting && !s.player
      ? [h("select", { id: `bot-kind-${i}`, "aria-label": t("botKind", { seat: i }), "data-key": `bot-kind-${i}` }, (BOTS[room.game] || []).map((b) => h("option", { value: b }, b))),
         h("button", { type: "button", class: "small", "data-key": `add-bot-${i}`, "aria-label": t("addBotTo", { seat: i }), onclick: () => ui.send({ type: "add_bot", room: room.id, seat: i, bot: document.getElementById(`bot-kind-${i}`).value }) }, t("addBot"))]
      : [];
    return h("li", { class: `seat${s.player ? "" : " free"}`, "data-seat": i },
      h("span", { class: "seat-no" }, t("seatLabel", { seat: i })), " ",
      h("span", { class: "name" }, names[i] || t("freeSeat")), " ",
      badges.length ? h("span", { class: "badges" }, badges.join(" · ")) : null, " ", add);
  }));
  const actions = [];
  if (isHost && waiting) actions.push(h("button", { type: "button", id: "start", class: "primary", onclick: () => ui.send({ type: "start", room: room.id }) }, t("start")));
  const leave = () => {
    ui.send({ type: "leave", room: room.id });
    location.hash = "#/";
  };
  actions.push(frame.state === "playing" && room.seat !== null ? ui.confirmButton("leave", t("leave"), t("leaveConfirm"), leave) : h("button", { type: "button", id: "leave", onclick: leave }, t("leave")));
  let table = null;
  if (waiting) table = h("p", { class: "muted" }, t("waitingPlayers"));
  else if (room.game === "perudo") table = perudoTable(ui, room);
  else if (room.game === "kriegspiel") table = kriegTable(ui, room);
  if (room.seat === null && !waiting) actions.push(h("span", { class: "muted" }, t("spectating")));
  return h("div", { class: "room" },
    h("section", { class: "card head" }, header, invite, seats, h("div", { class: "actions" }, actions)),
    h("section", { class: "card table" }, table),
    replayView(ui, room),
    h("div", { class: "side" }, logView(room), chatView(room)));
}

function logLine(entry) {
  const t = ui.t;
  if (entry.parts) return entry.parts.map(logLine).join(" ");
  const args = { ...entry.args };
  for (const key of entry.tr || []) args[key] = t(args[key]);
  return t(entry.key, args);
}

function logView(room) {
  const t = ui.t;
  const lines = room.log.slice(-40);
  return h("section", { class: "card log", "aria-label": t("log") },
    h("h2", {}, t("log")),
    h("ol", { class: "log-lines", "aria-live": "polite" }, lines.map((entry) => h("li", {}, logLine(entry)))));
}

function chatView(room) {
  const t = ui.t;
  if (room.frame.chat === false) return h("section", { class: "card chat" }, h("p", { class: "muted" }, t("chatOff")));
  const send = (e) => {
    e.preventDefault();
    const input = document.getElementById("chat-input");
    const text = input.value.trim();
    if (!text) return;
    ui.send({ type: "say", room: room.id, text });
    ui.drafts[room.id] = "";
    input.value = "";
  };
  return h("section", { class: "card chat", "aria-label": t("chat") },
    h("h2", {}, room.seat === null ? t("chatSpectators") : t("chatPlayers")),
    h("ol", { class: "chat-lines", "aria-live": "polite" }, room.chat.map((m) => h("li", {}, h("strong", { class: "chat-name" }, m.name), ": ", h("span", { class: "chat-text" }, m.text)))),
    h("form", { class: "say", onsubmit: send },
      h("input", { id: "chat-input", maxlength: 300, "aria-label": t("say"), placeholder: t("say"), value: ui.drafts[room.id] || "", "data-key": "chat-input", oninput: (e) => { ui.drafts[room.id] = e.target.value; } }),
      h("button", { type: "submit", id: "chat-send" }, t("send"))));
}

ui.render = () => render();
ui.logLine = (entry) => logLine(entry);

document.getElementById("lang").addEventListener("click", () => {
  ui.lang = ui.lang === "en" ? "it" : "en";
  store.setItem("umpire.lang", ui.lang);
  render();
});

if (ui.name) connect();
render();
