// Hosted tournaments: the list and the create form (#/tournaments), and one tournament's
// page (#/tournament/ID): register or withdraw, the host's Start, the live standings with
// their tie-breaks, and every round's pairings linking to their rooms. The server pushes
// `tournament` frames to entrants and to pages that asked for one (`tournament {id}`).

import { h } from "./dom.js";
import { chosen, field } from "./lobby.js";
import { gameTitle } from "./room.js";
import { changedOptions } from "./seeks.js";
import { catalogueGame } from "./state.js";

export const FORMATS = ["swiss", "round_robin", "arena"];
/** Tie-break columns, in the order shown, when a standings line has them. */
const TIEBREAKS = ["buchholz", "sonneborn_berger", "wins"];

/** The address of a tournament's page. */
export function tournamentHash(id) {
  return `#/tournament/${encodeURIComponent(id)}`;
}

/** A person in a tournament frame ({player, name}, a player object, or an id). */
export function who(entry) {
  if (!entry) return { id: null, name: "?" };
  if (typeof entry === "string") return { id: entry, name: entry };
  const p = entry.player;
  if (p && typeof p === "object") return { id: p.id, name: p.name };
  return { id: p || entry.id || null, name: entry.name || p || "?" };
}

/** The entrants of a tournament, as [{id, name}]. */
export function entrantsOf(t) {
  const list = Array.isArray(t.entrants) ? t.entrants : Array.isArray(t.players) ? t.players : [];
  return list.map((e) => ({ ...who(e), withdrawn: Boolean(e.withdrawn), house: e.house || null }));
}

function entrantCount(t) {
  if (typeof t.entrants === "number") return t.entrants;
  if (typeof t.entrant_count === "number") return t.entrant_count;
  return entrantsOf(t).filter((e) => !e.withdrawn).length;
}

/** Whether the player `me` is registered. */
export function registered(t, me) {
  if (!me) return false;
  if (typeof t.registered === "boolean") return t.registered;
  const list = Array.isArray(t.entrants) ? t.entrants : [];
  return list.some((e) => who(e).id === me.id && !e.withdrawn);
}

function stateWord(ui, t) {
  const s = t.state || t.status || "";
  return s ? ui.t(`tstate_${s}`) : "";
}

function title(ui, t) {
  return t.name || ui.t("tournamentOf", { game: gameTitle(ui, t.game), format: ui.t(`format_${t.format}`) });
}

export function tournamentsView(ui) {
  const t = ui.t;
  const list = ui.state.tournaments;
  const me = ui.state.player;
  const body = list === null
    ? h("p", { class: "muted" }, "…")
    : list.length
      ? h("ul", { class: "tournament-list" }, list.map((x) => h("li", { "data-tournament": x.id },
          h("a", { href: tournamentHash(x.id) }, title(ui, x)), " ",
          h("span", { class: `state ${x.state || ""}` }, stateWord(ui, x)), " ",
          h("span", { class: "muted" }, t("entrantsCount", { count: entrantCount(x) })),
          registered(x, me) ? [" ", h("span", { class: "badges" }, t("youAreIn"))] : null)))
      : h("p", { class: "muted", id: "no-tournaments" }, t("noTournaments"));
  return h("div", { class: "tournaments" },
    h("section", { class: "card" }, h("h1", {}, t("tournaments")), body),
    createTournamentForm(ui));
}

function createTournamentForm(ui) {
  const t = ui.t;
  const catalogue = ui.state.catalogue;
  if (!catalogue || !catalogue.games.length) return h("section", { class: "card" }, h("p", { class: "muted" }, t("loading")));
  const f = (ui.tform ||= { game: null, options: {}, format: "swiss", rounds: "3", duration: "", rated: "", startsAt: "", name: "" });
  const game = catalogue.games.find((g) => g.name === f.game) || catalogue.games[0];
  f.game = game.name;
  const values = (f.options[game.name] ||= {});
  const setter = (name) => (value) => {
    if (value === undefined) delete values[name];
    else values[name] = value;
  };
  const keep = (key) => (e) => { f[key] = e.target.value; };
  const row = (id, label, control) => h("div", { class: "field" }, h("label", { for: id }, label), control);
  const fields = [
    row("t-name", t("tournamentName"), h("input", { id: "t-name", maxlength: 64, value: f.name, oninput: keep("name") })),
    row("t-game", t("game"), h("select", { id: "t-game", onchange: (e) => { f.game = e.target.value; ui.render(); } },
      catalogue.games.map((g) => h("option", { value: g.name, selected: g.name === game.name }, g.title)))),
    row("t-format", t("format"), h("select", { id: "t-format", onchange: (e) => { f.format = e.target.value; ui.render(); } },
      FORMATS.map((name) => h("option", { value: name, selected: name === f.format }, t(`format_${name}`))))),
  ];
  if (f.format === "arena") fields.push(row("t-duration", t("durationMinutes"), h("input", { id: "t-duration", type: "number", min: 1, max: 1440, step: 1, value: f.duration, oninput: keep("duration") })));
  else if (f.format === "swiss") fields.push(row("t-rounds", t("roundsCount"), h("input", { id: "t-rounds", type: "number", min: 1, max: 50, step: 1, value: f.rounds, oninput: keep("rounds") })));
  fields.push(row("t-rated", t("opt_rated"), h("select", { id: "t-rated", onchange: keep("rated") },
    [["", t("boolAuto")], ["true", t("yes")], ["false", t("no")]].map(([v, text]) => h("option", { value: v, selected: v === f.rated }, text)))));
  fields.push(row("t-starts", t("startsAt"), h("input", { id: "t-starts", type: "datetime-local", value: f.startsAt, oninput: keep("startsAt") })));
  fields.push(h("p", { class: "help" }, t("startsAtNote")));
  for (const option of game.options) {
    const value = option.name in values ? values[option.name] : option.default;
    fields.push(field(ui, option, `t-${option.name}`, value, setter(option.name), game.name));
  }
  const submit = (e) => {
    e.preventDefault();
    const message = { type: "create_tournament", game: game.name, options: chosen(game.options, values), format: f.format };
    if (f.name.trim()) message.name = f.name.trim();
    if (f.format === "swiss" && f.rounds !== "") message.rounds = Math.trunc(Number(f.rounds));
    if (f.format === "arena" && f.duration !== "") message.duration = Math.trunc(Number(f.duration) * 60);
    if (f.rated !== "") message.rated = f.rated === "true";
    if (f.startsAt) message.starts_at = new Date(f.startsAt).getTime() / 1000; // seconds since the epoch
    ui.creatingTournament = true;
    ui.request(message);
  };
  return h("form", { class: "card create", id: "create-tournament", onsubmit: submit, "aria-label": t("createTournament") },
    h("h2", {}, t("createTournament")), fields,
    h("button", { type: "submit", class: "primary", id: "t-create" }, t("create")));
}

/** One tournament's page. */
export function tournamentView(ui, id) {
  const t = ui.t;
  const x = ui.state.tournament[id];
  if (!x) return h("section", { class: "card" }, h("h1", {}, t("tournament")), h("p", { class: "muted" }, ui.tournamentMissing === id ? t("noSuchTournament") : "…"));
  const me = ui.state.player;
  const state = x.state || x.status || "";
  const open = ["registering", "created", "scheduled", "open", ""].includes(state);
  const running = state === "running" || state === "playing";
  const mine = registered(x, me);
  const isHost = me && (x.host === me.id || (x.host && x.host.id === me.id));
  const actions = [];
  if ((open || (running && x.format === "arena")) && !mine) actions.push(h("button", { type: "button", class: "primary", id: "t-join", onclick: () => ui.send({ type: "join_tournament", tournament: x.id }) }, t("register")));
  if ((open || running) && mine) actions.push(ui.confirmButton("t-leave", t("withdraw"), t("withdrawConfirm"), () => ui.send({ type: "leave_tournament", tournament: x.id })));
  if (open && isHost) {
    actions.push(h("button", { type: "button", id: "t-start", onclick: () => ui.send({ type: "start_tournament", tournament: x.id }) }, t("startTournament")));
    // the host registers house bots, one at a time
    const bots = ((catalogueGame(ui.state, x.game) || {}).bots || []).filter((b) => b.name !== "autopilot");
    if (bots.length) {
      actions.push(h("span", { class: "add-house" },
        h("select", { id: "t-bot", "aria-label": t("houseBot") }, bots.map((b) => h("option", { value: b.name }, b.name))),
        h("button", { type: "button", class: "small", id: "t-add-bot", onclick: () => ui.send({ type: "join_tournament", tournament: x.id, bot: document.getElementById("t-bot").value }) }, t("addBot"))));
    }
  }
  const facts = [
    [t("game"), gameTitle(ui, x.game)],
    [t("format"), t(`format_${x.format}`)],
    typeof x.rounds === "number" && x.rounds ? [t("roundsCount"), `${x.round || 0} / ${x.rounds}`] : null,
    x.duration ? [t("durationMinutes"), Math.round(x.duration / 60)] : null,
    [t("ratedQ"), t(x.rated ? "rated" : "casual")],
    x.starts_at ? [t("startsAt"), new Date(typeof x.starts_at === "number" ? x.starts_at * 1000 : x.starts_at).toLocaleString(ui.lang)] : null,
    changedOptions(ui, x.game, x.options).length ? [t("options"), changedOptions(ui, x.game, x.options).join(" · ")] : null,
  ].filter(Boolean);
  return h("div", { class: "tournament-page", "data-tournament": x.id, "data-state": state },
    h("section", { class: "card" },
      h("div", { class: "room-head" },
        h("h1", {}, title(ui, x), " ", h("span", { class: `state ${state}`, id: "t-state" }, stateWord(ui, x))),
        h("a", { href: "#/tournaments", class: "back" }, t("allTournaments"))),
      h("dl", { class: "facts" }, facts.map(([k, v]) => [h("dt", {}, k), h("dd", {}, String(v))])),
      currentGame(ui, x),
      h("div", { class: "actions" }, actions)),
    standingsView(ui, x),
    roundsView(ui, x));
}

/** A link to your own room of the round being played, when there is one. */
function currentGame(ui, x) {
  const me = ui.state.player;
  if (!me) return null;
  for (const round of [...roundsOf(x)].reverse()) {
    for (const p of pairingsOf(round)) {
      if (p.room && !(p.scores ?? p.result) && seatsOf(p).some((s) => s.id === me.id)) {
        return h("p", { class: "my-game" }, h("a", { href: `#/room/${encodeURIComponent(p.room)}`, id: "t-my-room" }, ui.t("yourGame", { room: p.room })));
      }
    }
  }
  return null;
}

function standingsOf(x) {
  return Array.isArray(x.standings) ? x.standings : [];
}

function standingsView(ui, x) {
  const t = ui.t;
  const state = x.status || x.state || "";
  // before the start the standings are all zeros: the entrants are shown instead
  const lines = ["created", "registering", "scheduled", "open", ""].includes(state) ? [] : standingsOf(x);
  const me = ui.state.player;
  const breaks = TIEBREAKS.filter((k) => lines.some((l) => l[k] !== undefined || (l.tiebreaks && l.tiebreaks[k] !== undefined)));
  const entrants = entrantsOf(x);
  const present = entrants.filter((e) => !e.withdrawn);
  let body;
  if (lines.length) {
    body = h("div", { class: "table-wrap" }, h("table", { class: "standings", id: "standings", "aria-label": t("standings") },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("rank")), h("th", { scope: "col" }, t("player")),
        h("th", { scope: "col", class: "num" }, t("points")),
        breaks.map((k) => h("th", { scope: "col", class: `num tb-${k}`, title: t(`tb_${k}`), "aria-label": t(`tb_${k}`) }, t(`tbShort_${k}`))),
        h("th", { scope: "col", class: "num" }, t("games")))),
      h("tbody", {}, lines.map((l, i) => {
        const p = who(l);
        const value = (k) => (l[k] !== undefined ? l[k] : l.tiebreaks ? l.tiebreaks[k] : "");
        return h("tr", { "data-player": p.name, class: [me && p.id === me.id ? "me" : "", l.withdrawn ? "withdrawn" : ""].join(" ").trim() || null },
          h("td", {}, l.rank ?? i + 1),
          h("td", {}, p.name, l.withdrawn ? ` (${t("withdrawn")})` : ""),
          h("td", { class: "num points" }, fmt(l.points ?? l.score ?? 0)),
          breaks.map((k) => h("td", { class: `num tb-${k}` }, fmt(value(k)))),
          h("td", { class: "num" }, l.games ?? l.played ?? ""));
      }))));
  } else if (present.length) {
    body = h("ul", { class: "entrants", id: "entrants" }, entrants.filter((e) => !e.withdrawn).map((e) =>
      h("li", { "data-player": e.name, class: me && e.id === me.id ? "me" : null }, e.name, e.house ? h("span", { class: "badges" }, ` · ${t("bot")}`) : null)));
  } else body = h("p", { class: "muted" }, t("noEntrants"));
  return h("section", { class: "card", "aria-label": t("standings") }, h("h2", {}, lines.length ? t("standings") : t("entrantsTitle", { count: present.length })), body);
}

function fmt(n) {
  return typeof n === "number" ? String(Math.round(n * 100) / 100) : String(n ?? "");
}

/** The rounds as [{round, pairings}]: from a flat `games` list ({round, board, players,
 * room, scores}), else as the frame gives them. */
export function roundsOf(x) {
  if (Array.isArray(x.games)) {
    const by = new Map();
    for (const g of [...x.games].sort((a, b) => a.round - b.round || (a.board ?? 0) - (b.board ?? 0))) {
      if (!by.has(g.round)) by.set(g.round, []);
      by.get(g.round).push(g);
    }
    return [...by].map(([round, pairings]) => ({ round, pairings }));
  }
  if (Array.isArray(x.rounds_played)) return x.rounds_played;
  if (Array.isArray(x.pairings)) return [{ round: x.round || 1, pairings: x.pairings }];
  return Array.isArray(x.rounds) ? x.rounds : [];
}

function pairingsOf(round) {
  return Array.isArray(round) ? round : round.pairings || round.games || [];
}

/** Names by player id, from the entrants and the standings. */
function namesOf(x) {
  const out = new Map();
  for (const e of [...entrantsOf(x), ...standingsOf(x).map(who)]) if (e.id) out.set(e.id, e.name);
  return out;
}

/** A pairing's players as [{id, name}] in seat order (ids named from the entrants). */
function seatsOf(p, names = null) {
  const list = p.seats || p.players || [p.white, p.black].filter(Boolean);
  return list.map((e) => (typeof e === "string" && names && names.has(e) ? { id: e, name: names.get(e) } : who(e)));
}

function resultText(ui, p) {
  const r = p.scores ?? p.result ?? p.outcome ?? null;
  if (r === null || r === undefined) return p.room ? ui.t("inPlay") : "";
  if (typeof r === "string") return r;
  if (Array.isArray(r)) return r.map(fmt).join(" – ");
  if (r.points) return r.points.map(fmt).join(" – ");
  if (r.ranks) return r.ranks.join(" – ");
  return JSON.stringify(r);
}

function roundsView(ui, x) {
  const t = ui.t;
  const rounds = roundsOf(x);
  if (!rounds.length) return null;
  const me = ui.state.player;
  const known = namesOf(x);
  return h("section", { class: "card rounds", "aria-label": t("rounds") },
    h("h2", {}, t("rounds")),
    [...rounds].reverse().map((round, i) => {
      const n = round.round ?? rounds.length - i;
      return h("section", { class: "round", "data-round": n },
        h("h3", {}, t("roundN", { n })),
        h("ul", { class: "pairings" }, pairingsOf(round).map((p) => {
          const players = seatsOf(p, known);
          const bye = p.bye || players.length === 1;
          const names = players.map((s) => s.name).join(" – ") + (bye ? ` (${t("bye")})` : "");
          const mine = me && players.some((s) => s.id === me.id);
          return h("li", { class: mine ? "me" : null, "data-room": p.room || null },
            p.room ? h("a", { href: `#/room/${encodeURIComponent(p.room)}` }, names) : h("span", {}, names), " ",
            h("span", { class: "result muted" }, resultText(ui, p)));
        })));
    }));
}
