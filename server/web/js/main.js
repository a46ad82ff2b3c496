// The page: connects, keeps the state (state.js) and renders it. Every render rebuilds
// #app from the state; the focused control is found again by its data-key.

import { attend, setupSound } from "./attention.js";
import { h, keep, mount } from "./dom.js";
import { gameOf } from "./games/index.js";
import { hasWord, translate } from "./i18n.js";
import { applyFrame, initialState, isAccount, resumePlan, tournamentOf } from "./state.js";
import { Connection } from "./net.js";
import { lobbyView } from "./lobby.js";
import { accountView, entryForm } from "./account.js";
import { boardHash, boardQuery, leaderboardView } from "./leaderboard.js";
import { playerView } from "./player.js";
import { tournamentHash, tournamentView, tournamentsView } from "./tournaments.js";
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
  page: "lobby", // lobby, room, account, leaderboard, player (from the address)
  entryMode: store.getItem("umpire.kind") === "account" ? "login" : "guest", // the first form's tab
  entryName: store.getItem("umpire.name") || "",
  entryError: null, // why the last login (or guest name) was refused
  login: null, // {name, password} while logging in as the first message
  notice: null, // a line of news (logged out, password changed...)
  problem: null, // a form's own check that failed (a key of the page's words)
  fields: {}, // what was typed into the account forms, kept across re-renders
  copied: false,
  board: null, // the leaderboard asked for: {game, rules, pool}
  profileName: null, // the player page shown
  profileMissing: null,
};
ui.lang = store.getItem("umpire.lang") || ((navigator.language || "en").startsWith("it") ? "it" : "en");
ui.t = (key, args, game) => translate(ui.lang, key, args, game);
ui.send = (message) => ui.conn && ui.conn.send(message);
ui.sendAuto = (message) => ui.send({ ...message, ref: AUTO });
let actions = 0;
ui.act = (room, action) => {
  ui.acting = room.id; // hide the controls until the ack (or the error)
  ui.state.error = null;
  // shown as "pending" until the server acknowledges it (queued while disconnected)
  actions += 1;
  ui.pendingAct = { room: room.id, action, ref: `act-${actions}` };
  ui.focusAfter = true; // the button goes away: focus lands on the table, not <body>
  ui.send({ type: "act", room: room.id, action, ref: ui.pendingAct.ref });
  render();
};
ui.request = (message) => {
  ui.state.error = null;
  ui.problem = null;
  ui.notice = null;
  ui.pending = message.type;
  ui.send(message);
  render();
};
ui.confirmButton = (id, label, question, action, name = null) => {
  if (ui.confirming === id) {
    return h("span", { class: "confirm", role: "alertdialog", "aria-label": question },
      h("span", {}, question), " ",
      h("button", { type: "button", id: `${id}-yes`, class: "danger", "data-key": `${id}-yes`, onclick: () => { ui.confirming = null; action(); } }, ui.t("yes")),
      h("button", { type: "button", id: `${id}-no`, "data-key": `${id}-no`, onclick: () => { ui.confirming = null; render(); } }, ui.t("no")));
  }
  return h("button", { type: "button", id, "data-key": id, "aria-label": name, onclick: () => { ui.confirming = id; render(); } }, label);
};
ui.seedCheck = (seed, hash) => {
  const key = `${seed}:${hash}`;
  if (!(key in ui.seeds)) {
    ui.seeds[key] = "…";
    if (canDraw()) {
      commitment(seed).then((hex) => {
        ui.seeds[key] = hex === hash ? "seedOk" : "seedBad"; // worded at each render: the language may change
        render();
      });
    }
  }
  return ui.seeds[key] === "…" ? "…" : ui.t(ui.seeds[key]);
};

// -- connection ---------------------------------------------------------------------

function wsUrl() {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/`;
}

/** Forget who this page was and show the first form again (`notice` above it). */
function signedOut(notice, error = null) {
  for (const key of ["umpire.token", "umpire.name", "umpire.kind"]) store.removeItem(key);
  if (ui.conn) ui.conn.stop();
  Object.assign(ui, { conn: null, connected: false, routed: false, name: "", login: null, notice, entryError: error, state: initialState(), fields: {} });
  ui.replays = {};
  ui.replayAsked = {};
  if (location.hash && location.hash !== "#/") history.replaceState(null, "", "#/");
  render();
}

/** The page's words for an error code (a code the page does not know yet is said in
 * general words; the server's English message is never shown). */
function errorText(error) {
  const key = `err_${error.code}`;
  return hasWord(key) ? ui.t(key) : ui.t("err_unknown", { code: error.code });
}
ui.errorText = errorText;

/** Invite codes by room, kept in this browser: a private room's page (`#/room/ID`),
 * opened again or reloaded, watches it with its invite. */
function invites() {
  try {
    return JSON.parse(store.getItem("umpire.invites") || "{}") || {};
  } catch {
    return {};
  }
}
function keepInvite(room, invite) {
  if (!room || !invite) return;
  const all = invites();
  if (all[room] === invite) return;
  all[room] = invite;
  const rooms = Object.keys(all);
  if (rooms.length > 100) delete all[rooms[0]]; // the oldest go first
  store.setItem("umpire.invites", JSON.stringify(all));
}

/** Watch room `id` (with its invite when this browser knows it), or resume it from where
 * this page left it (a room the player left and comes back to: its log is kept). */
ui.watch = (id) => {
  const room = ui.state.rooms[id];
  const invite = (room && room.invite) || invites()[id];
  if (room && room.seq) {
    ui.send({ type: "resume", room: id, since: room.seq, ...(invite ? { invite } : {}) });
    const hash = `#/room/${encodeURIComponent(id)}`;
    if (location.hash !== hash) location.hash = hash;
  } else ui.send({ type: "watch", ...(invite ? { invite } : { room: id }) });
};

/** The frames of accounts: true when `frame` was handled here. */
function onAccountFrame(frame) {
  const before = ui.conn && !ui.conn.ready;
  if (frame.type === "error" && before && !ui.login && frame.code === "name_taken" && store.getItem("umpire.token") && !ui.nameless) {
    // The name asked for belongs to an account. The token is never dropped for that (it is
    // the player's identity, seats and history): say hello again with the token alone, so
    // the stored name wins; the player may then choose another name.
    ui.nameless = true;
    ui.notice = errorText(frame);
    ui.conn.ws.send(JSON.stringify({ type: "hello", v: 1, token: store.getItem("umpire.token") }));
    return true;
  }
  if (frame.type === "error" && before && (ui.login || frame.code === "name_taken")) {
    // a login (or a new guest's name) refused before any welcome: back to the first form
    const name = ui.login ? ui.login.name : ui.name;
    signedOut(null, errorText(frame));
    ui.entryName = name;
    render();
    return true;
  }
  if (frame.type === "error" && frame.code === "bad_token") {
    store.removeItem("umpire.token");
    if (["account", "bot"].includes(store.getItem("umpire.kind"))) {
      // a logged-out or expired session: an account logs in again, it never turns guest
      const name = ui.name;
      ui.entryMode = "login";
      signedOut(ui.t("sessionEnded"));
      ui.entryName = name;
      render();
    } else ui.conn.ws.close();
    return true;
  }
  if (frame.type === "error" && frame.code === "no_such_player" && ui.page === "player") {
    ui.profileMissing = ui.profileName;
    render();
    return true;
  }
  if (frame.type === "logged_out") {
    ui.entryMode = "login";
    const name = ui.name;
    signedOut(ui.pending === "logout-all" ? ui.t("loggedOutEverywhere", { revoked: frame.revoked }) : ui.t("loggedOut"));
    ui.entryName = name;
    render();
    return true;
  }
  return false;
}

function onFrame(frame) {
  if (onAccountFrame(frame)) return;
  if (frame.type === "welcome" && ui.state.player && ui.state.player.id !== frame.player.id) {
    // logged in to another account on this connection: the rooms were the guest's
    ui.state = initialState();
    ui.replays = {};
    ui.replayAsked = {};
    ui.routed = false;
  }
  const state = ui.state;
  if (frame.type === "error" && frame.ref === "invite" && ["bad_state", "room_full"].includes(frame.code) && ui.inviteTried) {
    // the invite's room has started (or is full): watch it instead, with the same invite
    ui.send({ type: "watch", invite: ui.inviteTried, ref: "invite-watch" });
    return;
  }
  if (frame.type === "error" && (frame.ref === "invite" || frame.ref === "invite-watch")) ui.inviteTried = null; // a bad invite
  if (frame.type === "error" && frame.ref === AUTO) {
    // a request the page made by itself (resume, lobby refresh) failed: a room that is
    // gone after a restart, say; forget it instead of showing an error
    if (frame.room && frame.code === "no_such_room") delete state.rooms[frame.room];
    render();
    return;
  }
  if (frame.type === "rooms" && !state.current && JSON.stringify(frame.rooms) === JSON.stringify(state.lobby)) return;
  applyFrame(state, frame);
  const pending = ui.pendingAct;
  if ((frame.type === "ack" || frame.type === "error") && pending && frame.ref === pending.ref) ui.pendingAct = null;
  if ((frame.type === "ack" || frame.type === "error") && ui.acting === frame.room && !(ui.pendingAct && ui.pendingAct.room === frame.room)) ui.acting = null;
  if (frame.type === "welcome" && ui.pendingAct && !(ui.conn && ui.conn.queue.some((m) => m.ref === ui.pendingAct.ref))) {
    ui.pendingAct = null; // sent before the loss: its answer went with the old connection
  }
  if (frame.type === "welcome" && !ui.pendingAct) ui.acting = null; // an action still queued goes out now
  if ((frame.type === "watching" || frame.type === "joined" || frame.type === "created") && ui.inviteTried) {
    if (state.rooms[frame.room] && !state.rooms[frame.room].invite) state.rooms[frame.room].invite = ui.inviteTried;
    keepInvite(frame.room, ui.inviteTried);
    ui.inviteTried = null;
  }
  const attached = typeof frame.room === "string" && state.rooms[frame.room];
  if (attached && attached.invite) keepInvite(frame.room, attached.invite);
  else if (attached && invites()[frame.room]) attached.invite = invites()[frame.room]; // watched with it
  if (frame.type === "watching" || frame.type === "resumed") {
    // attached after its start: ask once for the whole stream, so that the log has the
    // lines from before (state.fullLog)
    const room = state.rooms[frame.room];
    if (room && !ui.replayAsked[room.id] && room.seq > 0 && (!room.log.length || room.log[0].seq > 1)) {
      ui.replayAsked[room.id] = true;
      ui.sendAuto({ type: "resume", room: room.id, since: 0, ...(room.invite ? { invite: room.invite } : {}) });
    }
  }
  const followed = typeof frame.room === "string" && state.rooms[frame.room];
  if (followed && followed.table) {
    const module = gameOf(followed.game);
    if (module.onFrame) module.onFrame(ui, followed, frame);
  }
  if (frame.type === "hint") ui.hintAt = frame.seq; // the position it was worked out for: shown while the room is still there
  if (frame.type === "clock" && state.rooms[frame.room]) state.rooms[frame.room].clockAt = Date.now();
  if (frame.type === "paused" && frame.paused && state.rooms[frame.room]) state.rooms[frame.room].pausedAt = Date.now();
  if (frame.type === "account") {
    store.setItem("umpire.kind", frame.player.kind);
    store.setItem("umpire.name", frame.player.name);
    ui.name = frame.player.name;
    ui.notice = ui.t(ui.pending === "change_password" ? "passwordChanged" : "claimed", { name: frame.player.name });
    if (ui.page === "account") ui.send({ type: "list_bots" });
  }
  if (frame.type === "match") {
    // the server opened a room with a seat for us (a seek taken, a rematch, a tournament's
    // round): attach to it and go there
    ui.send({ type: "resume", room: frame.room, since: 0, ref: AUTO });
    const hash = `#/room/${encodeURIComponent(frame.room)}`;
    if (location.hash !== hash) location.hash = hash;
  }
  if (frame.type === "tournament" && ui.creatingTournament) {
    ui.creatingTournament = false;
    const id = tournamentOf(frame).id;
    if (id) location.hash = tournamentHash(id);
  }
  if (frame.type === "error" && ui.page === "tournament" && /tournament/.test(frame.code || "")) ui.tournamentMissing = ui.tournamentId;
  if (frame.type === "error") ui.creatingTournament = false;
  if (frame.type === "catalogue" && ui.page === "leaderboard" && ui.board && !ui.board.game) route();
  if (frame.type === "welcome") {
    if (ui.login) ui.notice = null;
    ui.login = null;
    ui.nameless = false;
    ui.entryError = null;
    ui.name = frame.player.name;
    store.setItem("umpire.name", frame.player.name);
    store.setItem("umpire.kind", frame.player.kind || "guest");
    store.setItem("umpire.token", frame.token);
    askCatalogue();
    for (const entry of resumePlan(state)) ui.send({ type: "resume", ...entry, ref: AUTO });
    if (!ui.routed) {
      ui.routed = true;
      route();
    }
  }
  if ((frame.type === "created" || frame.type === "joined" || frame.type === "watching") && frame.ref !== AUTO) {
    // (a room the page attached to by itself, e.g. for a finished game's final view, is
    // not shown in place of the page the player is on)
    // the room is the page now: from the lobby a new history entry (Back returns to the
    // lobby); an invite link's address is replaced (Back would send the invite again)
    const hash = `#/room/${frame.room}`;
    if (location.hash !== hash) {
      if (/^#\/?(invite\/|room\/)/.test(location.hash)) history.replaceState(null, "", hash);
      else history.pushState(null, "", hash);
    }
    ui.page = "room";
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
      if (ui.login) return { type: "login", v: 1, name: ui.login.name, password: ui.login.password };
      const token = store.getItem("umpire.token");
      if (token && ui.nameless) return { type: "hello", v: 1, token };
      return token ? { type: "hello", v: 1, name: ui.name, token } : { type: "hello", v: 1, name: ui.name };
    },
  });
  ui.conn.open();
}

function route() {
  const hash = location.hash.replace(/^#\/?/, "");
  const [kind, arg, ...more] = hash.split("/");
  const state = ui.state;
  ui.page = kind === "invite" || kind === "room" ? "room" : ["account", "leaderboard", "player", "tournaments", "tournament"].includes(kind) ? kind : "lobby";
  ui.confirming = null;
  if (ui.page !== "room") state.current = null;
  if (kind === "account") {
    ui.notice = null;
    ui.problem = null;
    if (isAccount(state.player)) ui.sendAuto({ type: "list_bots" });
  } else if (kind === "leaderboard") {
    ui.board = boardQuery([arg, ...more], state.catalogue);
    if (ui.board.game) {
      const ask = { type: "leaderboard", game: ui.board.game, pool: ui.board.pool };
      if (ui.board.rules) ask.rules = ui.board.rules;
      ui.send(ask);
    }
  } else if (kind === "player" && arg) {
    // #/player/NAME (an account's, a bot's or a house bot's), or #/player/NAME/ID (a
    // guest's: guests' names are not unique, so they are found by id)
    ui.profileName = decodeURIComponent(arg);
    ui.profileId = more[0] ? decodeURIComponent(more[0]) : null;
    ui.profileMissing = null;
    ui.send(ui.profileId ? { type: "profile", player: ui.profileId } : { type: "profile", name: ui.profileName });
  } else if (kind === "tournaments") {
    ui.send({ type: "tournaments" });
  } else if (kind === "tournament" && arg) {
    ui.tournamentId = decodeURIComponent(arg);
    ui.tournamentMissing = null;
    ui.send({ type: "tournament", tournament: ui.tournamentId });
  } else if (kind === "invite" && arg) {
    ui.inviteTried = decodeURIComponent(arg);
    ui.send({ type: "join", invite: ui.inviteTried, ref: "invite" });
  } else if (kind === "room" && arg) {
    const id = decodeURIComponent(arg);
    state.current = id;
    const known = state.rooms[id];
    if ((!known || known.left) && !state.pendingSeats.some((s) => s.room === id)) ui.watch(id);
  } else {
    state.current = null;
    ui.send({ type: "list_rooms", offset: state.lobbyPage.offset });
    ui.sendAuto({ type: "seeks" }); // and the server keeps them up to date while we watch
  }
  render();
}

window.addEventListener("hashchange", () => {
  if (ui.conn && ui.name) route();
});

setInterval(() => {
  if (ui.connected && ui.page === "lobby") ui.send({ type: "list_rooms", offset: ui.state.lobbyPage.offset, ref: AUTO });
}, 2000);
setInterval(() => {
  const room = ui.state.current && ui.state.rooms[ui.state.current];
  if (room) tick(room);
}, 500);

// -- rendering ----------------------------------------------------------------------

// A render replaces the page's controls. One that lands while a pointer is pressed on a
// control (a frame arriving between mousedown and mouseup) leaves the press and the
// release on two different buttons, and the browser fires the click on their common
// ancestor: the click is lost (CI: "add bot" pressed as the last bot's room frame came
// in, and no add_bot went out). So a render waits for the press to end and its click to
// go (RELEASE_AFTER ms after a release that makes no click; PRESS_WAIT ms at most).
const PRESS_WAIT = 5000;
const RELEASE_AFTER = 100;
let pressed = false;
let deferred = false;
function release() {
  pressed = false;
  if (deferred) {
    deferred = false;
    render();
  }
}
document.addEventListener("pointerdown", () => {
  pressed = true;
  setTimeout(() => { if (pressed) release(); }, PRESS_WAIT);
}, true);
document.addEventListener("pointerup", () => setTimeout(() => { if (pressed) release(); }, RELEASE_AFTER), true);
document.addEventListener("pointercancel", () => setTimeout(release, 0), true);
// the click's target is settled: its handlers render at once, a deferred render after them
document.addEventListener("click", () => {
  pressed = false;
  setTimeout(release, 0);
}, true);

const FIELDS = new Set(["INPUT", "SELECT", "TEXTAREA"]);

function render() {
  if (pressed) {
    deferred = true;
    return;
  }
  const t = ui.t;
  document.documentElement.lang = ui.lang;
  const banner = document.getElementById("banner");
  banner.hidden = ui.connected || !ui.name;
  banner.textContent = t("disconnected");
  const langButton = document.getElementById("lang");
  langButton.textContent = t("language");
  langButton.setAttribute("aria-label", t("languageLabel"));
  header();
  attend(ui); // "your turn": the title, the icon, the optional sound
  const active = document.activeElement;
  const focused = active && active.dataset ? active.dataset.key : null;
  const app = document.getElementById("app");
  if (!ui.name || ui.login) mount(app, entryForm(ui));
  else mount(app, errorLine(), ui.page === "room" ? null : matchWaiting(), page());
  for (const list of app.querySelectorAll(".log-lines, .chat-lines")) list.scrollTop = list.scrollHeight; // newest in view
  const again = focused && app.querySelector(`[data-key="${CSS.escape(focused)}"]`);
  // a field being typed in stays the same element (its caret and selection with it)
  if (again && FIELDS.has(active.tagName) && keep(active, again)) active.focus();
  else if (again) again.focus();
  else if (focused || ui.focusAfter) {
    // the control that had the focus is gone (an action was sent, a turn ended): the
    // table takes it, never <body>, so that the next Tab reaches the table's controls
    const landing = app.querySelector("[data-focus-landing]");
    if (landing) landing.focus();
  }
  ui.focusAfter = false;
}

/** The page the address names. */
function page() {
  if (ui.page === "account") return accountView(ui);
  if (ui.page === "leaderboard") return leaderboardView(ui);
  if (ui.page === "player") return playerView(ui);
  if (ui.page === "tournaments") return tournamentsView(ui);
  if (ui.page === "tournament") return tournamentView(ui, ui.tournamentId);
  const room = ui.state.current && ui.state.rooms[ui.state.current];
  return room ? roomView(ui, room) : lobbyView(ui);
}

/** The top bar's links: the lobby, the leaderboard, and who you are (your account page). */
function header() {
  const me = ui.state.player;
  const nav = document.getElementById("nav");
  const link = (href, label, id, current) => h("a", { href, id, "aria-current": current ? "page" : null }, label);
  mount(nav, ui.name ? [
    link("#/", ui.t("lobby"), "nav-lobby", ui.page === "lobby"),
    // the leaderboard last shown, else the first game's
    link("#/tournaments", ui.t("tournaments"), "nav-tournaments", ui.page === "tournaments" || ui.page === "tournament"),
    link(ui.board && ui.board.game ? boardHash(ui.board.game, ui.board.rules, ui.board.pool) : "#/leaderboard", ui.t("leaderboard"), "nav-board", ui.page === "leaderboard"),
  ] : null);
  const mine = document.getElementById("me");
  mount(mine, me ? h("a", { href: "#/account", id: "nav-account", "aria-current": ui.page === "account" ? "page" : null, "aria-label": `${ui.t("account")}: ${me.name}` },
    me.name, isAccount(me) ? null : h("span", { class: "guest-mark" }, ` (${ui.t("kind_guest")})`)) : null);
}

/** On every page but a room's: the unfinished rooms the server opened for us (a match: a
 * seek, a rematch, a tournament's round), each with a link. A page reloaded or
 * reconnected resumes them from welcome.seats (its seat is then taken, and the game may
 * start) but stays where it was: this says where the game is. */
function matchWaiting() {
  const waiting = Object.values(ui.state.rooms).filter((r) => !r.left && r.frame.match && ["waiting", "playing"].includes(r.frame.state) && r.seat !== null && r.seat !== undefined);
  if (!waiting.length) return null;
  return h("ul", { class: "match-waiting", role: "status" }, waiting.map((r) => h("li", {},
    ui.t(r.frame.state === "playing" ? "matchPlaying" : "matchWaiting"), " ", h("a", { href: `#/room/${encodeURIComponent(r.id)}`, "data-room": r.id }, ui.t("matchGo", { room: r.id })))));
}

function errorLine() {
  const error = ui.state.error;
  if (!error) return null;
  return h("p", { class: "error", role: "alert", "data-code": error.code }, errorText(error));
}

ui.render = () => render();
ui.logLine = (entry, game) => logLine(ui, entry, game);
ui.setName = (name) => {
  ui.name = name;
  ui.notice = null;
  ui.entryError = null;
  store.setItem("umpire.name", name);
  store.setItem("umpire.kind", "guest");
  store.removeItem("umpire.token");
  connect();
  render();
};
ui.logIn = (name, password) => {
  ui.login = { name, password };
  ui.entryError = null;
  ui.notice = null;
  ui.name = name;
  store.removeItem("umpire.token");
  connect();
  render();
};
ui.logOut = (everywhere) => {
  ui.pending = everywhere ? "logout-all" : "logout";
  ui.send({ type: "logout", everywhere });
};

setupSound(ui);
document.getElementById("lang").addEventListener("click", () => {
  ui.lang = ui.lang === "en" ? "it" : "en";
  store.setItem("umpire.lang", ui.lang);
  if (ui.connected) askCatalogue();
  render();
});

if (ui.name) connect();
render();
