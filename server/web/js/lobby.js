// The lobby: the name form, the list of rooms (refreshed by main.js) and the create form.

import { h } from "./dom.js";

export function nameForm(ui) {
  const t = ui.t;
  const submit = (e) => {
    e.preventDefault();
    const value = document.getElementById("name").value.trim();
    if (!value) return;
    ui.setName(value.slice(0, 32));
  };
  return h("form", { class: "card name-form", onsubmit: submit },
    h("h1", {}, t("chooseName")),
    h("label", { for: "name" }, t("name")),
    h("input", { id: "name", name: "name", maxlength: 32, autocomplete: "nickname", required: true, "data-key": "name" }),
    h("button", { type: "submit", class: "primary" }, t("continue")));
}

export function lobbyView(ui) {
  const t = ui.t;
  const rooms = ui.state.lobby;
  const mine = Object.values(ui.state.rooms).filter((r) => r.frame.state);
  return h("div", { class: "lobby" },
    h("section", { class: "card" },
      h("h1", {}, t("lobby")),
      mine.length
        ? h("nav", { class: "my-rooms", "aria-label": t("myRooms") }, h("h2", {}, t("myRooms")),
            h("ul", {}, mine.map((r) => h("li", {}, h("a", { href: `#/room/${encodeURIComponent(r.id)}` }, `${t(r.game)} ${r.id}`), " ", h("span", { class: `state ${r.frame.state}` }, t(`state_${r.frame.state}`))))))
        : null,
      rooms.length
        ? h("ul", { class: "rooms" }, rooms.map((r) => roomCard(ui, r)))
        : h("p", { class: "muted" }, t("noRooms"))),
    createForm(ui));
}

function roomCard(ui, r) {
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

export function createForm(ui) {
  const t = ui.t;
  const f = ui.form;
  const set = (key, parse) => (e) => {
    f[key] = parse(e.target);
    if (key === "game") ui.render();
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
