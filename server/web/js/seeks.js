// Seeks in the lobby: the open seeks (the `seeks` frame, pushed to the lobby while it is
// shown), one click to take one, your own with a Cancel button; and what the create form
// adds to make a seek with the same options (a rating range, house bots after T seconds).

import { h } from "./dom.js";
import { gameTitle } from "./room.js";
import { catalogueGame, seekOwner } from "./state.js";

/** What the seek form's own fields hold (kept across re-renders). */
function extras(ui) {
  return (ui.seekForm ||= { lo: "", hi: "", fillAfter: "" });
}

/** The `seek` message of the create form's values: the game's options, and of the room
 * options only those a seek takes (rated, clock). */
export function seekMessage(ui, game, options, roomOptions) {
  const f = extras(ui);
  const message = { type: "seek", game: game.name, options };
  if (roomOptions.rated !== undefined) message.rated = roomOptions.rated;
  if (roomOptions.clock !== undefined) message.clock = roomOptions.clock;
  if (typeof options.seats === "number") message.seats = options.seats;
  const lo = f.lo === "" ? null : Number(f.lo);
  const hi = f.hi === "" ? null : Number(f.hi);
  if (lo !== null || hi !== null) message.rating_range = [lo ?? 0, hi ?? 9999];
  if (f.fillAfter !== "") message.fill_after = Number(f.fillAfter);
  return message;
}

/** The seek's own fields, under the create form's buttons. */
export function seekExtras(ui) {
  const t = ui.t;
  const f = extras(ui);
  const number = (id, key, label, attrs = {}) => h("div", { class: "field" }, h("label", { for: id }, label),
    h("input", { id, type: "number", step: 1, min: 0, value: f[key], ...attrs, oninput: (e) => { f[key] = e.target.value.trim(); } }));
  return h("fieldset", { class: "field-group seek-extras" },
    h("legend", {}, t("seekOptions")),
    h("p", { class: "help", id: "seek-note" }, t("seekNote")),
    number("seek-lo", "lo", t("ratingFrom"), { max: 4000 }),
    number("seek-hi", "hi", t("ratingTo"), { max: 4000 }),
    number("seek-fill", "fillAfter", t("fillAfter"), { max: 3600 }));
}

/** The options of a game that differ from its defaults (the server spells every option
 * out), as "name=value" strings. */
export function changedOptions(ui, game, options) {
  const entry = catalogueGame(ui.state, game);
  const defaults = Object.fromEntries(((entry && entry.options) || []).map((o) => [o.name, o.default]));
  return Object.entries(options || {})
    .filter(([k, v]) => !(k in defaults) || JSON.stringify(defaults[k]) !== JSON.stringify(v))
    .map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`);
}

/** A few words about a seek: its options that differ from the defaults, its clock. */
function optionsText(ui, seek) {
  const parts = changedOptions(ui, seek.game, seek.options);
  if (seek.clock) parts.push(`⏱ ${seek.clock.base}+${seek.clock.increment || 0}`);
  return parts.join(" · ");
}

export function seeksView(ui) {
  const t = ui.t;
  const me = ui.state.player;
  const seeks = ui.state.seeks || [];
  const line = (seek) => {
    const owner = seekOwner(seek);
    const mine = Boolean(me && owner.id === me.id);
    const range = seek.rating_range ? t("ratingRange", { lo: seek.rating_range[0], hi: seek.rating_range[1] }) : null;
    const wanted = seek.seats && seek.seats > 2 ? t("seekSeats", { count: seek.seats }) : null;
    return h("li", { class: `seek${mine ? " mine" : ""}`, "data-seek": seek.id, "data-game": seek.game },
      h("span", { class: "game" }, gameTitle(ui, seek.game)), " ",
      h("span", { class: "owner" }, owner.name, seek.rating ? ` (${Math.round(seek.rating)})` : ""), " ",
      h("span", { class: `state ${seek.rated ? "rated" : "casual"}` }, t(seek.rated ? "rated" : "casual")), " ",
      range ? [h("span", { class: "range" }, range), " "] : null,
      wanted ? [h("span", { class: "fill" }, wanted), " "] : null,
      h("span", { class: "seek-options muted" }, optionsText(ui, seek)), " ",
      mine
        ? h("button", { type: "button", class: "small", id: `cancel-seek-${seek.id}`, "aria-label": t("cancelSeekOf", { game: gameTitle(ui, seek.game) }), onclick: () => ui.send({ type: "cancel_seek", seek: seek.id }) }, t("cancelSeek"))
        : h("button", { type: "button", class: "small primary", id: `take-seek-${seek.id}`, "aria-label": t("takeSeekOf", { name: owner.name, game: gameTitle(ui, seek.game) }), onclick: () => ui.send({ type: "take_seek", seek: seek.id }) }, t("takeSeek")));
  };
  return h("section", { class: "card seeks", "aria-label": t("seeks") },
    h("h2", {}, t("seeks")),
    seeks.length ? h("ul", { class: "seek-list", "aria-live": "polite" }, seeks.map(line)) : h("p", { class: "muted", id: "no-seeks" }, t("noSeeks")));
}
