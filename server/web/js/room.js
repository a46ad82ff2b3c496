// A room: its seats and host controls (bot pickers from the catalogue), the time, the
// game's table (its module's), hints where the catalogue says the game has them, the seed
// check, the replay, the log and the chat.

import { h } from "./dom.js";
import { gameOf } from "./games/index.js";
import { hasWord } from "./i18n.js";
import { timeLine } from "./parts.js";
import { replayView } from "./replay_view.js";
import { words as spaced } from "./shared.js";
import { catalogueGame, fullLog, ratingDelta, rematchOf, seatNames } from "./state.js";

/** Copy `text` to the clipboard (the clipboard API on secure pages, else the selection
 * of the field `fallback`), then say so on the button: `ui.copiedKey` = `key`. */
export function copyText(ui, key, text, fallback = null) {
  const done = () => {
    ui.copiedKey = key;
    ui.render();
  };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, done);
  else {
    const field = fallback && document.getElementById(fallback);
    if (field) {
      field.select();
      document.execCommand("copy");
    }
    done();
  }
}

/** A "Copy" button that says "Copied" once it has copied. */
function copyButton(ui, key, text, label, fallback = null) {
  const copied = ui.copiedKey === key;
  return h("button", { type: "button", class: "small copy", id: `copy-${key}`, "data-key": `copy-${key}`, "aria-label": label, onclick: () => copyText(ui, key, text, fallback) },
    copied ? ui.t("copied") : ui.t("copy"), copied ? h("span", { class: "visually-hidden", role: "status" }, ui.t("copied")) : null);
}

/** The title of game `name` from the catalogue (its name until the catalogue is here). */
export function gameTitle(ui, name) {
  const entry = catalogueGame(ui.state, name);
  return entry ? entry.title : name || "…";
}

/** The bots a host may add to a room of `game`: [{value, label}] ("name:level" too). */
export function botChoices(ui, game) {
  const entry = catalogueGame(ui.state, game);
  const out = [];
  for (const bot of (entry && entry.bots) || []) {
    out.push({ value: bot.name, label: bot.name });
    for (const level of bot.levels) out.push({ value: `${bot.name}:${level}`, label: ui.t("botLevel", { bot: bot.name, level }) });
  }
  return out;
}

export function roomView(ui, room) {
  const t = ui.t;
  const frame = room.frame;
  const me = ui.state.player;
  const isHost = me && frame.host === me.id;
  const waiting = frame.state === "waiting";
  const names = seatNames(room);
  const module = gameOf(room.game);
  const header = h("div", { class: "room-head" },
    h("h1", {}, t("room", { room: room.id }), " ", h("span", { class: "muted" }, `${gameTitle(ui, room.game)} · `, h("span", { class: "room-state", "data-state": frame.state || "" }, frame.state ? t(`state_${frame.state}`) : "…"),
      frame.state ? [" · ", h("span", { class: "rated", "data-rated": frame.rated ? "true" : "false" }, t(frame.rated ? "rated" : "casual"))] : null)),
    h("a", { href: "#/", class: "back", onclick: () => { ui.send({ type: "list_rooms" }); } }, t("back")));
  const link = `${location.origin}/#/invite/${room.invite}`;
  const invite = room.invite
    ? h("p", { class: "invite" }, h("label", { for: "invite-link" }, t("invite")), " ",
        h("input", { id: "invite-link", readonly: true, value: link }),
        copyButton(ui, "invite", link, t("copyInvite"), "invite-link"))
    : null;
  const bots = botChoices(ui, room.game);
  const seats = h("ul", { class: "seats" }, (frame.seats || []).map((s, i) => {
    const badges = [];
    if (s.player && s.player === (me && me.id)) badges.push(t("you"));
    if (s.player && s.player === frame.host) badges.push(t("host"));
    if (s.bot) badges.push(t("bot"));
    if (s.player && !s.connected && !s.house) badges.push(t("away")); // a house bot is the server's own
    if (s.autopilot && !s.house) badges.push(t("autopilot"));
    // each picker keeps its choice across re-renders (a seat taken elsewhere re-renders all)
    const picks = (ui.botPicks ||= {});
    const pickKey = `${room.id}/${i}`;
    const add = isHost && waiting && !s.player && bots.length
      ? [h("select", { id: `bot-kind-${i}`, "aria-label": t("botKind", { seat: i }), "data-key": `bot-kind-${i}`, onchange: (e) => { picks[pickKey] = e.target.value; } },
           bots.map((b) => h("option", { value: b.value, selected: picks[pickKey] === b.value }, b.label))),
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
  if (room.seat === null && !waiting) actions.push(h("span", { class: "muted" }, t("spectating")));
  const table = waiting || !room.table
    ? h("p", { class: "muted" }, t("waitingPlayers"))
    : [timeLine(ui, room, module.seatLabel ? (seat) => module.seatLabel(ui, seat) : null), pendingView(ui, room), module.table(ui, room), rematchView(ui, room), ratingsView(ui, room), hintView(ui, room), seedView(ui, room)];
  const paused = room.paused ? h("p", { class: "paused", role: "status", "aria-live": "polite" }, t("pausedNotice")) : null;
  return h("div", { class: "room" },
    h("section", { class: "card head" }, header, paused, invite, seats, h("div", { class: "actions" }, actions)),
    // where the focus lands when the control that had it goes away (main.js)
    h("section", { class: "card table", tabindex: "-1", "data-focus-landing": "", "data-key": "table-landing", "aria-label": t("table") }, table),
    replayView(ui, room),
    h("div", { class: "side" }, logView(ui, room), chatView(ui, room)));
}

/** An action sent and not yet acknowledged: "pending" (and, while the connection is
 * down, that it goes out once the page is connected again). */
function pendingView(ui, room) {
  const pending = ui.pendingAct;
  if (!pending || pending.room !== room.id) return null;
  return h("p", { class: "pending", id: "pending", role: "status", "data-action": pending.action },
    ui.t(ui.connected ? "pendingSending" : "pendingOffline", { action: pending.action }));
}

/** At a game's end, a player may offer a rematch (`rematch`), accept one offered (the
 * same message) or decline it (`decline_rematch`); the room frame's `rematch` says who
 * offered, and the new room comes as a `match` frame (main.js goes there). */
function rematchView(ui, room) {
  const t = ui.t;
  if (room.frame.state !== "finished" || room.seat === null || room.seat === undefined) return null;
  const r = rematchOf(room.frame);
  const names = seatNames(room);
  const who = (seats) => seats.map((s) => names[s] || "?").join(", ");
  const others = r.offered.filter((s) => s !== room.seat);
  const mine = r.offered.includes(room.seat);
  const send = (type) => ui.send({ type, room: room.id });
  let body;
  if (r.room) {
    body = [h("span", {}, t("rematchReady")), " ", h("a", { href: `#/room/${encodeURIComponent(r.room)}`, id: "rematch-room" }, t("rematchGo"))];
  } else if (r.declined.length) {
    body = h("span", { id: "rematch-declined" }, t("rematchDeclined", { names: who(r.declined) }));
  } else if (mine) {
    body = h("span", { id: "rematch-waiting" }, t("rematchWaiting"));
  } else if (others.length) {
    body = [h("span", { id: "rematch-offered" }, t("rematchOffered", { names: who(others), count: others.length })), " ",
      h("button", { type: "button", class: "primary small", id: "rematch-accept", onclick: () => send("rematch") }, t("rematchAccept")), " ",
      h("button", { type: "button", class: "small", id: "rematch-decline", onclick: () => send("decline_rematch") }, t("rematchDecline"))];
  } else {
    body = h("button", { type: "button", class: "primary", id: "rematch", onclick: () => send("rematch") }, t("rematchOffer"));
  }
  return h("div", { class: "rematch", role: "status", "aria-label": t("rematch") }, body);
}

/** The rating changes of a rated game's end (the room frame's `ratings`), yours first;
 * each name links to its player page. */
function ratingsView(ui, room) {
  const t = ui.t;
  const changes = room.frame.ratings;
  if (!changes || !changes.length) return null;
  const names = seatNames(room);
  const me = ui.state.player;
  const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");
  const mine = changes.find((c) => me && c.player === me.id);
  const line = (c) => {
    const { before, after, delta } = ratingDelta(c);
    const mark = c.provisional ? t("provisionalMark") : "";
    return { before: `${before}`, after: `${after}${mark}`, delta: signed(delta), name: names[c.seat] || "?" };
  };
  return h("section", { class: "rating-changes", "aria-label": t("ratingChanges") },
    mine ? h("p", { class: "my-rating", id: "rating-change", role: "status", "data-delta": ratingDelta(mine).delta }, t("yourRating", line(mine))) : null,
    h("h3", {}, t("ratingChanges")),
    h("ul", {}, changes.map((c) => {
      const seat = (room.frame.seats || [])[c.seat];
      const text = t("ratingChange", line(c));
      return h("li", { "data-seat": c.seat, "data-delta": ratingDelta(c).delta },
        seat && seat.name ? h("a", { href: `#/player/${encodeURIComponent(seat.name)}` }, text) : text);
    })));
}

/** The hint button and the last hint, in games the catalogue says have hints. */
function hintView(ui, room) {
  const t = ui.t;
  const entry = catalogueGame(ui.state, room.game);
  if (!entry || !entry.hints || room.seat === null || room.frame.state !== "playing") return null;
  const module = gameOf(room.game);
  if (module.seatOut && module.seatOut(room)) return null; // out of the game: nothing to hint
  const out = [h("button", { type: "button", class: "small", id: "hint", onclick: () => ui.send({ type: "hint", room: room.id, lang: ui.lang }) }, t("hint"))];
  const hint = ui.state.hint;
  if (hint && hint.room === room.id && ui.hintAt === room.seq) {
    const playable = room.turn && ui.acting !== room.id && (room.turn.legal || []).includes(hint.action);
    out.push(h("aside", { class: "hint", "aria-live": "polite" },
      h("strong", {}, t("hintTitle", { action: hint.action })),
      h("p", {}, hint.explanation || ""),
      playable ? h("button", { type: "button", id: "play-hint", class: "small", onclick: () => ui.act(room, hint.action) }, t("playHint", { action: hint.action })) : null));
  }
  return h("div", { class: "hints" }, out);
}

/** A finished game's seed, checked in the page against the commitment published at the
 * start. */
function seedView(ui, room) {
  const t = ui.t;
  const { seed, seed_sha256: hash } = room.frame;
  if (room.frame.state !== "finished" || !seed || !hash) return null;
  // whole, so that a player can check them by hand (sha256 of the seed's bytes)
  return h("div", { class: "seed seed-facts" },
    h("p", {}, h("span", {}, t("seedLabel")), " ", h("code", { id: "seed-value" }, seed), " ", copyButton(ui, "seed", seed, t("copySeed"))),
    h("p", {}, h("span", {}, t("hashLabel")), " ", h("code", { id: "hash-value" }, String(hash)), " ", copyButton(ui, "hash", String(hash), t("copyHash"))),
    h("p", { id: "seed-check" }, ui.seedCheck(seed, hash)));
}

export function logLine(ui, entry, game) {
  const t = (key, args) => ui.t(key, args, game);
  if (entry.parts) return entry.parts.map((part) => logLine(ui, part, game)).join(" ");
  const args = { ...entry.args };
  // a word to translate; a reason code the page has no words for is said as its words
  for (const key of entry.tr || []) args[key] = hasWord(args[key], game) ? t(args[key]) : spaced(String(args[key]).replace(/^reason_/, ""));
  return t(entry.key, args);
}

function logView(ui, room) {
  const t = ui.t;
  const lines = fullLog(room).slice(-200); // the list scrolls: the newest in view
  return h("section", { class: "card log", "aria-label": t("log") },
    h("h2", {}, t("log")),
    h("ol", { class: "log-lines", "aria-live": "polite" }, lines.map((entry) => h("li", {}, logLine(ui, entry, room.game)))));
}

function chatView(ui, room) {
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
