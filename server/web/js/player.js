// A player's page (#/player/NAME), from the server's `profile` frame: per game, each
// rating (with its provisional marker and its history drawn as an SVG chart), the
// profile's statistics and the recent games, each linking to its replay (#/room/ID).

import { chartGeometry } from "./chart.js";
import { h } from "./dom.js";
import { hasWord } from "./i18n.js";
import { shownRating } from "./leaderboard.js";
import { gameTitle } from "./room.js";
import { nameKey, profileGames } from "./state.js";

function date(ui, seconds) {
  if (!seconds) return "";
  return new Date(seconds * 1000).toLocaleDateString(ui.lang === "it" ? "it-IT" : "en-GB", { year: "numeric", month: "short", day: "numeric" });
}

/** The address of a player's page: by name for accounts, bots and house bots, by name
 * and id for a guest (whose name another guest may have too). */
export function playerHash(player) {
  const name = encodeURIComponent(player.name);
  return !player.kind || player.kind === "guest" ? `#/player/${name}/${encodeURIComponent(player.id)}` : `#/player/${name}`;
}

/** The rating history of one rating as an SVG line chart (null without a history). */
export function ratingChart(ui, rating) {
  const history = rating.history || [];
  const shape = chartGeometry(history);
  if (!shape) return null;
  const t = ui.t;
  const label = t("chartLabel", { rules: rating.rules, count: history.length, first: Math.round(history[0][1]), last: Math.round(history[history.length - 1][1]) });
  return h("svg", { class: "chart", viewBox: "0 0 320 140", role: "img", "aria-label": label, "data-points": history.length },
    h("title", {}, label),
    shape.ticks.map((tick) => h("g", { class: "tick" },
      h("line", { x1: shape.left, x2: shape.right, y1: tick.y, y2: tick.y }),
      h("text", { x: shape.left - 4, y: tick.y + 4, "text-anchor": "end" }, Math.round(tick.rating)))),
    h("path", { class: "line", d: shape.path }),
    shape.points.map((p) => h("circle", { cx: p.x, cy: p.y, r: 3, class: "point" },
      h("title", {}, t("chartPoint", { rating: Math.round(p.rating), date: date(ui, p.at) })))));
}

function ratingCard(ui, rating) {
  const t = ui.t;
  return h("div", { class: "rating-card", "data-rules": rating.rules, "data-version": rating.version || "" },
    h("h3", {}, t("ratingOf", { rules: rating.rules }), rating.version ? ` · ${rating.version}` : ""),
    h("p", { class: "rating-value" },
      h("strong", { class: "rating", title: rating.provisional ? t("provisional") : null }, shownRating(ui, rating.rating, rating.provisional)), " ",
      rating.provisional ? h("span", { class: "badge provisional" }, t("provisional")) : null, " ",
      h("span", { class: "muted" }, t("ratingDetail", { deviation: Math.round(rating.deviation), count: rating.games }))),
    ratingChart(ui, rating));
}

/** A statistic's label: the interface's or the game's word for it, else its key. */
function statLabel(ui, key, game) {
  const word = `stat_${key}`;
  return hasWord(word, game) ? ui.t(word, {}, game) : key.replaceAll("_", " ");
}

function statValue(key, value) {
  if (typeof value !== "number") return String(value);
  if (key.endsWith("_rate") || key.endsWith("_accuracy")) return `${Math.round(value * 100)}%`;
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

function resultOf(ui, entry) {
  if (entry.status !== "finished") return ui.t(`state_${entry.status}`);
  if (entry.rank === 1) return ui.t("result_won");
  if (entry.rank === null || entry.rank === undefined) return ui.t("state_finished");
  return ui.t("result_place", { rank: entry.rank });
}

function gameSection(ui, part) {
  const t = ui.t;
  const stats = Object.entries(part.stats);
  return h("section", { class: "card player-game", "data-game": part.game, "aria-label": gameTitle(ui, part.game) },
    h("h2", {}, gameTitle(ui, part.game)),
    part.ratings.length ? h("div", { class: "ratings" }, part.ratings.map((r) => ratingCard(ui, r))) : null,
    stats.length
      ? [h("h3", {}, t("stats")), h("dl", { class: "stats" }, stats.map(([key, value]) => [
          h("dt", {}, statLabel(ui, key, part.game)), h("dd", { "data-stat": key }, statValue(key, value))]))]
      : null,
    h("h3", {}, t("recentGames")),
    part.history.length
      ? h("ul", { class: "recent" }, part.history.map((g) => h("li", { "data-room": g.room },
          h("a", { href: `#/room/${encodeURIComponent(g.room)}`, "aria-label": t("openReplay", { room: g.room }) }, g.room), " ",
          h("span", { class: "muted" }, date(ui, g.finished || g.started)), " ",
          h("span", { class: "result" }, resultOf(ui, g)))))
      : h("p", { class: "muted" }, t("noGames")));
}

export function playerView(ui) {
  const t = ui.t;
  const asked = ui.profileName;
  const profile = ui.state.profile;
  if (ui.profileMissing === asked) return h("section", { class: "card" }, h("p", { id: "no-player" }, t("noSuchPlayer", { name: asked })));
  const wanted = ui.profileId ? profile && profile.player.id === ui.profileId : profile && nameKey(profile.player.name) === nameKey(asked);
  if (!wanted) return h("section", { class: "card" }, h("p", { class: "muted" }, "…"));
  const who = profile.player;
  const games = profileGames(profile);
  return h("div", { class: "player-page" },
    h("section", { class: "card" },
      h("h1", {}, t("playerPage", { name: who.name })),
      h("p", { class: "kind", "data-kind": who.kind || "guest" }, t(`kind_${who.kind || "guest"}`))),
    games.length ? games.map((part) => gameSection(ui, part)) : h("section", { class: "card" }, h("p", { class: "muted" }, t("noGames"))));
}
