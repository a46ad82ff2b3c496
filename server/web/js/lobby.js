// The lobby: the list of rooms (refreshed by main.js) and the create form,
// built from the server's catalogue: its games, their options (a control per option type),
// presets and help, and the room options each game takes.

import { h } from "./dom.js";
import { hasWord } from "./i18n.js";
import { gameTitle } from "./room.js";
import { seatNames } from "./shared.js";
import { seekExtras, seekMessage, seeksView } from "./seeks.js";

export function lobbyView(ui) {
  const t = ui.t;
  const rooms = ui.state.lobby;
  const mine = Object.values(ui.state.rooms).filter((r) => r.frame.state);
  return h("div", { class: "lobby" },
    seeksView(ui),
    h("section", { class: "card" },
      h("h1", {}, t("lobby")),
      mine.length
        ? h("nav", { class: "my-rooms", "aria-label": t("myRooms") }, h("h2", {}, t("myRooms")),
            h("ul", {}, mine.map((r) => h("li", {}, h("a", { href: `#/room/${encodeURIComponent(r.id)}` }, `${gameTitle(ui, r.game)} ${r.id}`), " ", h("span", { class: `state ${r.frame.state}` }, t(`state_${r.frame.state}`)), r.left ? [" ", h("span", { class: "muted left-mark" }, t("youLeft"))] : null))))
        : null,
      rooms.length
        ? h("ul", { class: "rooms" }, rooms.map((r) => roomCard(ui, r)))
        : h("p", { class: "muted" }, t("noRooms")),
      pager(ui)),
    createForm(ui));
}

/** The rooms of a full page: the server's page size (docs/protocol.md, `list_rooms`). */
const ROOMS_PAGE = 30;

/** The lobby's pages (list_rooms answers a page of rooms): where this one is, and the
 * buttons to the previous and next pages, when there are more rooms than one page. */
function pager(ui) {
  const { offset, total } = ui.state.lobbyPage;
  const shown = ui.state.lobby.length;
  if (!shown || (offset === 0 && shown >= total)) return null;
  const go = (to) => ui.send({ type: "list_rooms", offset: Math.max(0, to) });
  return h("nav", { class: "pager", "aria-label": ui.t("lobby") },
    h("span", {}, ui.t("roomsPage", { first: offset + 1, last: offset + shown, total })), " ",
    offset > 0 ? h("button", { type: "button", onclick: () => go(offset - ROOMS_PAGE) }, ui.t("prev")) : null,
    offset + shown < total ? h("button", { type: "button", onclick: () => go(offset + shown) }, ui.t("next")) : null);
}

function roomCard(ui, r) {
  const t = ui.t;
  const taken = r.seats.filter((s) => s.player).length;
  const free = taken < r.seats.length;
  return h("li", { class: "room-card", "data-room": r.room },
    h("span", { class: "game" }, gameTitle(ui, r.game)), " ",
    h("span", { class: "id" }, r.room), " ",
    h("span", { class: `state ${r.state}` }, t(`state_${r.state}`)), " ",
    h("span", { class: "fill" }, `${taken}/${r.seats.length}`), " ",
    r.rated ? [h("span", { class: "state rated" }, t("rated")), " "] : null,
    // the names as the room shows them (a repeated name with its seat: "name#1, name#2")
    h("span", { class: "names" }, seatNames({ frame: r }).filter((n) => n).join(", ")), " ",
    r.state === "waiting" && free ? h("button", { type: "button", onclick: () => ui.send({ type: "join", room: r.room }), "aria-label": `${t("join")} ${r.room}` }, t("join")) : null,
    r.spectators === "live" || (r.spectators === "after" && r.state === "finished")
      ? h("button", { type: "button", onclick: () => ui.watch(r.room), "aria-label": `${t(r.state === "finished" ? "replay" : "watch")} ${r.room}` }, t(r.state === "finished" ? "replay" : "watch"))
      : null);
}

/** The label of an option ("opt_<name>" in the game's or the interface's words, else the
 * name itself). */
function label(ui, name, game) {
  const key = `opt_${name.replaceAll(".", "_")}`;
  return hasWord(key, game) ? ui.t(key, {}, game) : name.replaceAll("_", " ");
}

/** The option help as the server words it, with the protocol's values it quotes shown as
 * code: values to type or read on the wire, not words of the page's language. A value is
 * a name with "_" or a JSON object; `true`/`false`/`null`/`none` before ":"; one of the
 * option's choices before ":", "(", ";" or the end, or after "or"; another option's name
 * compared ("seats > 6"). The same word used as prose ("an ordinary face") stays prose. */
function helpText(ui, option, game) {
  const entry = (ui.state.catalogue?.games || []).find((g) => g.name === game);
  const choices = new Set(option.choices || []);
  const names = new Set();
  if (entry) for (const o of [...entry.options, ...(ui.state.catalogue.room_options || [])]) names.add(o.name);
  const text = option.help;
  const quoted = (word, at) => {
    const before = text.slice(0, at);
    const after = text.slice(at + word.length);
    if (word.startsWith("{") || word.includes("_")) return true;
    if (["true", "false", "null", "none"].includes(word) && after.startsWith(":")) return true;
    if (choices.has(word) && (/^(:| \(|;|$)/.test(after) || /\b(or|o)\s$/.test(before))) return true;
    return names.has(word) && /^ [<>=]/.test(after);
  };
  const out = [];
  let at = 0;
  for (const m of text.matchAll(/\{[^{}]*\}|[A-Za-z_][A-Za-z0-9_]*/g)) {
    if (!quoted(m[0], m.index)) continue;
    out.push(text.slice(at, m.index), h("code", {}, m[0]));
    at = m.index + m[0].length;
  }
  out.push(text.slice(at));
  return out;
}

function choiceLabel(ui, option, choice, game) {
  const key = `choice_${option.name}_${choice}`;
  return hasWord(key, game) ? ui.t(key, {}, game) : choice;
}

/** The control of one option, of its type: a checkbox, a choice, a number or a text. */
function control(ui, option, id, value, set, game) {
  const common = { id, "data-key": id };
  if (option.type === "bool" && option.default === null) {
    // three ways: unset (the server decides: "automatic"), yes, no
    const shown = value === true ? "true" : value === false ? "false" : "";
    return h("select", { ...common, onchange: (e) => set(e.target.value === "" ? undefined : e.target.value === "true") },
      [["", ui.t("boolAuto")], ["true", ui.t("yes")], ["false", ui.t("no")]].map(([v, text]) => h("option", { value: v, selected: v === shown }, text)));
  }
  if (option.type === "bool") {
    return h("input", { ...common, type: "checkbox", checked: Boolean(value), onchange: (e) => set(e.target.checked) });
  }
  if (option.choices) {
    return h("select", { ...common, onchange: (e) => set(e.target.value) },
      option.choices.map((c) => h("option", { value: c, selected: value === c }, choiceLabel(ui, option, c, game))));
  }
  if (option.type === "int" || option.type === "float") {
    const parse = (text) => (text.trim() === "" ? undefined : option.type === "int" ? Math.trunc(Number(text)) : Number(text));
    return h("input", { ...common, type: "number", min: option.min ?? null, max: option.max ?? null, step: option.type === "int" ? 1 : "any", value: value ?? "", oninput: (e) => set(parse(e.target.value)) });
  }
  return h("input", { ...common, value: value ?? "", oninput: (e) => set(e.target.value.trim() || undefined) });
}

/** One option as a form field: its label, a "?" that shows its help, its control. */
export function field(ui, option, id, value, set, game) {
  const name = label(ui, option.name, game);
  const key = `${game}:${option.name}`;
  const open = Boolean(ui.form.help[key]);
  const toggle = option.help
    ? h("button", { type: "button", class: "help-toggle", id: `${id}-help`, "aria-expanded": open ? "true" : "false", "aria-label": `${ui.t("help")}: ${name}`, onclick: () => { ui.form.help[key] = !open; ui.render(); } }, "?")
    : null;
  const help = open ? h("p", { class: "help" }, helpText(ui, option, game)) : null;
  if (option.type === "object" && option.fields) {
    const current = { ...(value || {}) }; // the same object for every member's edits
    const member = (m) => field(ui, { ...m, name: `${option.name}.${m.name}` }, `${id}-${m.name}`, m.name in current ? current[m.name] : m.default, (v) => {
      if (v === undefined) delete current[m.name];
      else current[m.name] = v;
      set(Object.keys(current).length ? current : undefined);
    }, game);
    return h("fieldset", { class: "field-group" }, h("legend", {}, name, " ", toggle), help, option.fields.map(member));
  }
  return h("div", { class: "field-wrap" },
    h("div", { class: "field" }, h("span", { class: "field-name" }, h("label", { for: id }, name), " ", toggle), control(ui, option, id, value, set, game)),
    help);
}

/** The values to send of the options given (touched ones only, so that a preset or the
 * server's defaults decide the rest); an object goes only with every required member. */
export function chosen(options, values) {
  const out = {};
  for (const option of options) {
    const value = values[option.name];
    if (value === undefined) continue;
    if (option.type === "object" && !(option.fields || []).every((m) => m.default !== null || value[m.name] !== undefined)) continue;
    out[option.name] = value;
  }
  return out;
}

export function createForm(ui) {
  const t = ui.t;
  const catalogue = ui.state.catalogue;
  if (!catalogue || !catalogue.games.length) return h("section", { class: "card" }, h("p", { class: "muted" }, t("loading")));
  const f = ui.form;
  const game = catalogue.games.find((g) => g.name === f.game) || catalogue.games[0];
  f.game = game.name;
  const values = (f.options[game.name] ||= {});
  const setter = (store, name) => (value) => {
    if (value === undefined) delete store[name];
    else store[name] = value;
  };
  const roomOptions = catalogue.room_options.filter((o) => game.room_options.includes(o.name));
  const fields = [
    h("div", { class: "field" }, h("label", { for: "f-game" }, t("game")),
      h("select", { id: "f-game", "data-key": "f-game", onchange: (e) => { f.game = e.target.value; ui.render(); } },
        catalogue.games.map((g) => h("option", { value: g.name, selected: g.name === game.name }, g.title)))),
  ];
  if (game.presets.length) {
    fields.push(h("div", { class: "presets", role: "group", "aria-label": t("presets") }, h("span", {}, t("presets")),
      game.presets.map((p) => h("button", { type: "button", class: "small", "data-preset": p.name, title: p.help, onclick: () => { Object.assign(values, p.values); ui.render(); } }, choiceLabel(ui, { name: "preset" }, p.name, game.name)))));
  }
  for (const option of game.options) {
    const value = option.name in values ? values[option.name] : option.default;
    fields.push(field(ui, option, `f-${option.name}`, value, setter(values, option.name), game.name));
  }
  for (const option of roomOptions) {
    const value = option.name in f.room ? f.room[option.name] : option.default;
    fields.push(field(ui, option, `f-${option.name}`, value, setter(f.room, option.name), game.name));
  }
  const submit = (e) => {
    e.preventDefault();
    ui.state.error = null;
    if (e.submitter && e.submitter.id === "f-seek") {
      ui.send(seekMessage(ui, game, chosen(game.options, values), chosen(roomOptions, f.room)));
      return;
    }
    ui.send({ type: "create_room", game: game.name, options: chosen(game.options, values), ...chosen(roomOptions, f.room) });
  };
  return h("form", { class: "card create", id: "create", onsubmit: submit, "aria-label": t("createRoom") },
    h("h2", {}, t("createRoom")), fields,
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "primary", id: "f-create" }, t("create")),
      h("button", { type: "submit", id: "f-seek", "aria-describedby": "seek-note" }, t("seekGame"))),
    seekExtras(ui));
}
