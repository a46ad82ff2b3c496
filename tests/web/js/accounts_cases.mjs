// Cases for the pure parts of the accounts, leaderboard and player pages: the frames in
// state.js, the rating chart's geometry (chart.js), the leaderboard's address and rule
// sets, the password checks, and both languages having every word. They run under Node's
// test runner (accounts.test.mjs) or in Chromium (tests/web/test_accounts_js.py).

import { applyFrame, initialState, isAccount, nameKey, profileGames, ratingDelta } from "../../../server/web/js/state.js";
import { chartGeometry } from "../../../server/web/js/chart.js";
import { boardHash, boardQuery, entryPlayer, ruleSets } from "../../../server/web/js/leaderboard.js";
import { passwordProblem } from "../../../server/web/js/account.js";
import { STRINGS, translate } from "../../../server/web/js/i18n.js";

function eq(actual, expected, what = "") {
  const a = JSON.stringify(actual);
  const b = JSON.stringify(expected);
  if (a !== b) throw new Error(`${what} expected ${b}, got ${a}`);
}

const ana = { id: "p1", name: "ana", bot: false, kind: "guest" };
const CATALOGUE = {
  games: [
    { name: "g1", title: "One", presets: [{ name: "quick" }, { name: "long" }], options: [{ name: "preset", choices: ["quick", "long"] }] },
    { name: "g2", title: "Two", presets: [], options: [{ name: "rules", choices: ["a", "b"] }, { name: "x", choices: ["y"] }] },
    { name: "g3", title: "Three", presets: [{ name: "p" }], options: [] },
  ],
};

export const cases = [
  ["register turns the guest into an account; its kind is kept", () => {
    const s = applyFrame(initialState(), { type: "welcome", player: ana, token: "t", seats: [] });
    eq(isAccount(s.player), false);
    applyFrame(s, { type: "account", player: { ...ana, kind: "account" } });
    eq(isAccount(s.player), true);
    eq(s.accountChanged.kind, "account");
    eq(s.token, "t", "the session token stays:");
  }],
  ["a bot account's token is kept once, and the list holds each bot once", () => {
    const s = initialState();
    const bot = { id: "b1", name: "anabot", bot: true, kind: "bot" };
    applyFrame(s, { type: "bot_accounts", bots: [bot] });
    applyFrame(s, { type: "bot_account", player: bot, token: "secret" });
    eq(s.bots.map((b) => b.id), ["b1"]);
    eq(s.botToken, { player: bot, token: "secret" });
    applyFrame(s, { type: "bot_account", player: { ...bot, id: "b2", name: "two" }, token: "s2" });
    eq(s.bots.map((b) => b.id), ["b1", "b2"]);
    eq(s.botToken.token, "s2");
  }],
  ["logged_out, leaderboard and profile frames are kept", () => {
    const s = initialState();
    applyFrame(s, { type: "logged_out", revoked: 3 });
    eq(s.loggedOut, { revoked: 3 });
    applyFrame(s, { type: "leaderboard", game: "g2", rules: "a", pool: "human", min_games: 1, entries: [] });
    eq(s.leaderboard.rules, "a");
    applyFrame(s, { type: "profile", player: ana, stats: {}, history: [], ratings: [] });
    eq(s.profile.player.name, "ana");
  }],
  ["a profile's games: rated ones first, each with its ratings, stats and games", () => {
    const parts = profileGames({
      player: ana,
      stats: { g1: { games: 2, wins: 1 }, g2: { games: 1 } },
      history: [{ room: "r1", game: "g2" }, { room: "r2", game: "g1" }, { room: "r3", game: "g2" }],
      ratings: [{ game: "g2", rules: "a", rating: 1500 }],
    });
    eq(parts.map((p) => p.game), ["g2", "g1"]);
    eq(parts[0].history.map((g) => g.room), ["r1", "r3"]);
    eq(parts[0].ratings.length, 1);
    eq(parts[1].stats, { games: 2, wins: 1 });
    eq(profileGames(null), []);
  }],
  ["a rating change reads as whole points that add up", () => {
    eq(ratingDelta({ before: 1500, after: 1432.6 }), { before: 1500, after: 1433, delta: -67 });
    eq(ratingDelta({ before: 1499.5, after: 1510.4 }), { before: 1500, after: 1510, delta: 10 });
  }],
  ["names compare by their key (case and width folded)", () => {
    eq(nameKey("Ana"), nameKey("ana"));
    eq(nameKey("ＡＮＡ"), "ana");
    eq(nameKey("Straße"), nameKey("STRASSE"), "ß folds as casefold does:");
  }],
  ["the chart spans the history in whole steps; a flat one still has a height", () => {
    const shape = chartGeometry([[1, 1500], [2, 1432], [3, 1460]], { width: 320, height: 140, pad: 28 });
    eq([shape.low, shape.high], [1400, 1500]);
    eq(shape.points.length, 3);
    eq(shape.points[0].x < shape.points[1].x && shape.points[1].x < shape.points[2].x, true);
    eq(shape.points[0].y < shape.points[1].y, true, "higher ratings are drawn higher:");
    eq(shape.path.startsWith("M") && shape.path.split("L").length, 3);
    eq(shape.ticks.map((t) => t.rating), [1400, 1450, 1500]);
    const flat = chartGeometry([[1, 1500]]);
    eq(flat.high - flat.low, 100);
    eq(flat.points[0].y > flat.top && flat.points[0].y < flat.bottom, true);
    eq(chartGeometry([]), null);
  }],
  ["the leaderboard's rule sets come from the catalogue, its address round-trips", () => {
    eq(ruleSets(CATALOGUE.games[0]), ["quick", "long"]);
    eq(ruleSets(CATALOGUE.games[1]), ["a", "b"]);
    eq(ruleSets(CATALOGUE.games[2]), ["p"]);
    eq(ruleSets(null), []);
    const hash = boardHash("g2", "a b", "bot");
    eq(hash, "#/leaderboard/g2/a%20b/bot");
    eq(boardQuery(hash.split("/").slice(2), CATALOGUE), { game: "g2", rules: "a b", pool: "bot" });
    eq(boardQuery([], CATALOGUE), { game: "g1", rules: null, pool: "human" });
    eq(boardQuery(["g3", "", "nobody"], null), { game: "g3", rules: null, pool: "human" });
    eq(entryPlayer({ player: { id: "p", name: "n" } }), { id: "p", name: "n" });
  }],
  ["passwords: 8 to 1,024 characters, typed twice alike", () => {
    eq(passwordProblem("short"), "passwordLength");
    eq(passwordProblem("x".repeat(1025)), "passwordLength");
    eq(passwordProblem("long enough", "long enougH"), "passwordsDiffer");
    eq(passwordProblem("long enough", "long enough"), null);
  }],
  ["every word exists in both languages; slots fill", () => {
    eq(Object.keys(STRINGS.it).filter((k) => !(k in STRINGS.en)), []);
    eq(Object.keys(STRINGS.en).filter((k) => !(k in STRINGS.it)), []);
    eq(translate("en", "yourRating", { before: "1500", after: "1433?", delta: "−67" }), "Your rating: 1500 → 1433? (−67)");
    eq(translate("it", "yourRating", { before: "1500", after: "1433?", delta: "−67" }), "Il tuo punteggio: 1500 → 1433? (−67)");
  }],
];
