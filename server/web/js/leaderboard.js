// The leaderboard page (#/leaderboard/GAME/RULES/POOL): a game, its rule set and a pool
// (people or bots) chosen by three selects that change the address, and the table the
// server sends (`leaderboard`). The games and their rule sets come from the catalogue.

import { h } from "./dom.js";
import { playerHash } from "./player.js";
import { gameTitle } from "./room.js";

export const POOLS = ["human", "bot"];

/** The rule sets a game is rated under, from its catalogue entry: the choices of its
 * `rules` (or `preset`) option, else its presets' names. */
export function ruleSets(entry) {
  if (!entry) return [];
  const option = (entry.options || []).find((o) => (o.name === "rules" || o.name === "preset") && o.choices);
  if (option) return option.choices;
  return (entry.presets || []).map((p) => p.name);
}

/** The address of a leaderboard. */
export function boardHash(game, rules, pool) {
  return `#/leaderboard/${[game, rules || "", pool || "human"].map(encodeURIComponent).join("/")}`;
}

/** The leaderboard asked for by `parts` (the address after #/leaderboard/), with the
 * catalogue's first game when none is named: {game, rules, pool}. */
export function boardQuery(parts, catalogue) {
  const [game, rules, pool] = parts.map((p) => decodeURIComponent(p || ""));
  const first = catalogue && catalogue.games.length ? catalogue.games[0].name : "";
  return { game: game || first, rules: rules || null, pool: POOLS.includes(pool) ? pool : "human" };
}

/** An entry's player as {id, name} (a player object, or its name alone). */
export function entryPlayer(entry) {
  const p = entry.player;
  if (p && typeof p === "object") return p;
  return { id: entry.player_id || String(p), name: entry.name || String(p) };
}

/** A rating as shown: whole points, with "?" when provisional. */
export function shownRating(ui, rating, provisional) {
  return `${Math.round(rating)}${provisional ? ui.t("provisionalMark") : ""}`;
}

export function leaderboardView(ui) {
  const t = ui.t;
  const query = ui.board;
  const catalogue = ui.state.catalogue;
  const frame = ui.state.leaderboard;
  const shown = frame && query && frame.game === query.game && frame.pool === query.pool && (!query.rules || frame.rules === query.rules) ? frame : null;
  const rules = shown ? shown.rules : query && query.rules;
  const entry = catalogue && query ? catalogue.games.find((g) => g.name === query.game) : null;
  const go = (game, set, pool) => { location.hash = boardHash(game, set, pool); };
  const sets = ruleSets(entry);
  const controls = h("form", { class: "board-controls", "aria-label": t("leaderboard"), onsubmit: (e) => e.preventDefault() },
    h("div", { class: "field-stack" }, h("label", { for: "lb-game" }, t("game")),
      h("select", { id: "lb-game", onchange: (e) => go(e.target.value, null, query.pool) },
        ((catalogue && catalogue.games) || []).map((g) => h("option", { value: g.name, selected: query && g.name === query.game }, g.title)))),
    h("div", { class: "field-stack" }, h("label", { for: "lb-rules" }, t("ruleSet")),
      h("select", { id: "lb-rules", onchange: (e) => go(query.game, e.target.value, query.pool) },
        (sets.length ? sets : rules ? [rules] : []).map((r) => h("option", { value: r, selected: r === rules }, r)))),
    h("div", { class: "field-stack" }, h("label", { for: "lb-pool" }, t("pool")),
      h("select", { id: "lb-pool", onchange: (e) => go(query.game, rules, e.target.value) },
        POOLS.map((p) => h("option", { value: p, selected: query && p === query.pool }, t(`pool_${p}`))))));
  let body;
  if (!shown) body = h("p", { class: "muted" }, "…");
  else if (!shown.entries.length) body = h("p", { class: "muted", id: "board-empty" }, t("boardEmpty", { count: shown.min_games }));
  else {
    const bots = shown.pool === "bot";
    body = h("div", { class: "table-wrap" }, h("table", { class: "leaderboard", id: "leaderboard" },
      h("caption", {}, `${gameTitle(ui, shown.game)} · ${shown.rules} · ${t(`pool_${shown.pool}`)}`),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("rank")), h("th", { scope: "col" }, t("player")),
        bots ? h("th", { scope: "col" }, t("version")) : null,
        h("th", { scope: "col", class: "num" }, t("rating")), h("th", { scope: "col", class: "num" }, t("deviation")),
        h("th", { scope: "col", class: "num" }, t("games")))),
      h("tbody", {}, shown.entries.map((e) => [e, entryPlayer(e)]).map(([e, who]) => h("tr", { "data-player": who.name, class: ui.state.player && who.id === ui.state.player.id ? "me" : null },
        h("td", {}, e.rank),
        h("td", {}, h("a", { href: playerHash(who) }, who.name)),
        bots ? h("td", { class: "version" }, e.version || "–") : null,
        h("td", { class: "num rating", title: e.provisional ? t("provisional") : null }, shownRating(ui, e.rating, e.provisional)),
        h("td", { class: "num" }, Math.round(e.deviation)),
        h("td", { class: "num" }, e.games))))));
  }
  return h("section", { class: "card leaderboard-page" },
    h("h1", {}, t("leaderboard")), controls,
    shown ? h("p", { class: "muted small-note" }, t("minGames", { count: shown.min_games })) : null,
    body);
}
