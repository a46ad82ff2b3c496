// The Perudo table: your dice, the other cups, the bids, the bid picker, the reveal.

import { h } from "./dom.js";
import { legalBids, matches, parseBid, placings, seatNames } from "./state.js";

const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 25], [72, 25], [28, 50], [72, 50], [28, 75], [72, 75]],
};

/** One die as SVG; `face` null draws a hidden die. */
export function die(face, { label, hot = false, size = 40 } = {}) {
  const pips = face ? PIPS[face].map(([cx, cy]) => h("circle", { cx, cy, r: 9, class: face === 1 ? "pip ace" : "pip" })) : [h("text", { x: 50, y: 66, "text-anchor": "middle", class: "q" }, "?")];
  return h(
    "svg",
    { class: `die${hot ? " hot" : ""}${face ? "" : " hidden"}`, viewBox: "0 0 100 100", width: size, height: size, role: "img", "aria-label": label, "data-face": face || "" },
    h("rect", { x: 4, y: 4, width: 92, height: 92, rx: 16 }),
    ...pips,
  );
}

/** Whole seconds left in a timed Perudo turn (the room has a turn_time). */
export function turnLeft(room, now) {
  return Math.max(0, Math.ceil(room.clock.turn_time - (now - room.clockAt) / 1000));
}

/** Update the turn timer in place (called twice a second). */
export function tickTurn(room) {
  const el = document.querySelector(".turn-timer");
  if (el && room.clock && room.clock.turn_time) el.textContent = ` · ${turnLeft(room, Date.now())} s`;
}

/** The whole table for `room` (a room state) in the page `ui`. */
export function perudoTable(ui, room) {
  const t = ui.t;
  const p = room.perudo;
  const names = seatNames(room);
  const seats = room.frame.seats || [];
  const parts = [];
  if (p.palifico !== null && p.palifico !== undefined && !p.outcome) {
    parts.push(h("p", { class: "palifico", role: "status" }, t("palificoBanner", { name: names[p.palifico] || "?" })));
  }
  const reveal = p.reveal && p.reveal.revealed && p.reveal.revealed.length ? p.reveal : null;
  if (room.seat !== null && p.dice.length) {
    parts.push(
      h("section", { class: "mine", "aria-label": t("yourDice") },
        h("h3", {}, t("yourDice")),
        h("div", { class: "dice my-dice" }, p.dice.map((f) => die(f, { label: String(f), size: 48 }))),
      ),
    );
  }
  const cups = [];
  seats.forEach((s, seat) => {
    if (seat === room.seat) return;
    const out = p.out.includes(seat);
    const count = p.counts ? p.counts[seat] : null;
    let dice;
    if (count !== null && !out) dice = Array.from({ length: count }, () => die(null, { label: t("diceUnknown"), size: 30 }));
    else dice = out ? [] : [h("span", { class: "muted" }, t("diceUnknown"))];
    cups.push(
      h("li", { class: `cup${p.toMove === seat ? " to-move" : ""}${out ? " out" : ""}`, "data-seat": seat, "aria-label": t("cup", { name: names[seat] || "?" }) },
        h("span", { class: "who" }, names[seat] || "?"),
        count !== null ? h("span", { class: "count" }, t("diceCount", { count })) : null,
        h("span", { class: "dice" }, dice),
      ),
    );
  });
  parts.push(h("ul", { class: "cups" }, cups));
  if (reveal) {
    const bidFace = (parseBid(reveal.bid) || {}).face;
    parts.push(
      h("section", { class: "reveal", "aria-live": "polite" },
        h("h3", {}, t("revealTitle", { count: reveal.count, bid: reveal.bid, verdict: t(reveal.bidTrue ? "bidTrue" : "bidFalse") })),
        h("ul", { class: "cups revealed-cups" }, reveal.revealed.map((r) =>
          h("li", { class: "cup", "data-seat": r.seat },
            h("span", { class: "who" }, r.seat === room.seat ? t("you") : names[r.seat] || "?"),
            h("span", { class: "dice" }, r.dice.map((f) => die(f, { label: String(f), hot: matches(f, bidFace, reveal.acesWild), size: 30 })))))),
        h("ul", { class: "changes" }, p.changes.map((c) => h("li", { class: c.change < 0 ? "lost" : "gained" }, t(c.change < 0 ? "ev_lost" : c.change > 0 ? "ev_gained" : "ev_kept", { name: names[c.seat] || "?", reason: String(c.reason || "").replaceAll("_", " ") })))),
      ),
    );
  }
  parts.push(
    h("section", { class: "bids" },
      h("h3", {}, t("bids")),
      p.bids.length ? h("ol", { class: "bid-list" }, p.bids.map((b) => h("li", {}, `${names[b.seat] || "?"}: ${b.bid}`))) : h("p", { class: "muted" }, t("noBids")),
    ),
  );
  if (!p.outcome && room.frame.state === "playing") {
    const limit = room.clock && room.clock.turn_time ? turnLeft(room, Date.now()) : null;
    parts.push(h("p", { class: "turn-of" }, room.turn ? t("yourTurn") : t("turnOf", { name: names[p.toMove] || "…" }),
      limit !== null ? h("span", { class: "turn-timer", "aria-label": t("turnTimer") }, ` · ${limit} s`) : null));
  }
  if (room.turn && ui.acting !== room.id) parts.push(bidPicker(ui, room));
  if (room.seat !== null && room.frame.state === "playing") {
    parts.push(h("button", { type: "button", class: "small", id: "hint", onclick: () => ui.send({ type: "hint", room: room.id, lang: ui.lang }) }, t("hint")));
  }
  const hint = ui.state.hint;
  if (hint && hint.room === room.id && ui.hintAt === room.seq && room.frame.state === "playing") {
    const playable = room.turn && ui.acting !== room.id && (room.turn.legal || []).includes(hint.action);
    parts.push(h("aside", { class: "hint", "aria-live": "polite" },
      h("strong", {}, t("hintTitle", { action: hint.action })),
      h("p", {}, hint.explanation || ""),
      playable ? h("button", { type: "button", id: "play-hint", class: "small", onclick: () => ui.act(room, hint.action) }, t("playHint", { action: hint.action })) : null));
  }
  if (p.outcome) parts.push(outcomeView(ui, room, names));
  return h("div", { class: "perudo" }, parts);
}

function bidPicker(ui, room) {
  const t = ui.t;
  const legal = room.turn.legal || [];
  const byFace = legalBids(legal);
  const faces = Object.keys(byFace).map(Number).sort();
  let face = ui.pick.face;
  if (!faces.includes(face)) face = faces[0] ?? null;
  const quantities = face ? byFace[face] : [];
  let quantity = ui.pick.quantity;
  if (!quantities.includes(quantity)) quantity = quantities[0] ?? null;
  ui.pick = { face, quantity };
  const bid = face && quantity ? `${quantity}x${face}` : null;
  return h("section", { class: "picker", "aria-label": t("yourTurn") },
    faces.length
      ? h("div", { class: "faces", role: "radiogroup", "aria-label": t("face") },
          [1, 2, 3, 4, 5, 6].map((f) =>
            h("button", { type: "button", class: `face${f === face ? " chosen" : ""}`, role: "radio", "aria-checked": f === face ? "true" : "false", "aria-label": `${t("face")} ${f}`, disabled: !faces.includes(f), "data-key": `face-${f}`, onclick: () => ui.choose({ face: f, quantity }) }, die(f, { label: String(f), size: 34 })),
          ),
        )
      : null,
    faces.length
      ? h("label", {}, t("quantity"), " ",
          h("select", { id: "quantity", "data-key": "quantity", onchange: (e) => ui.choose({ face, quantity: Number(e.target.value) }) },
            quantities.map((q) => h("option", { value: q, selected: q === quantity }, String(q))),
          ),
        )
      : null,
    bid ? h("button", { type: "button", id: "bid", class: "primary", "data-key": "bid", onclick: () => ui.act(room, bid) }, t("bidButton", { bid })) : null,
    legal.includes("dudo") ? h("button", { type: "button", id: "dudo", class: "danger", "data-key": "dudo", onclick: () => ui.act(room, "dudo") }, t("dudo")) : null,
    legal.includes("calza") ? h("button", { type: "button", id: "calza", "data-key": "calza", onclick: () => ui.act(room, "calza") }, t("calzaButton")) : null,
  );
}

function outcomeView(ui, room, names) {
  const t = ui.t;
  const p = room.perudo;
  return h("section", { class: "outcome" },
    h("h3", {}, t("placings")),
    h("ol", { class: "placings" }, placings(p.outcome).map(({ seat, rank }) => h("li", { "data-rank": rank }, t("place", { rank, name: names[seat] || "?" })))),
    p.seed ? h("p", { class: "seed" }, t("seedCheck", { seed: p.seed.slice(0, 16) + "…", hash: String(p.seedSha256 || "").slice(0, 16) + "…" }), " ", h("span", { id: "seed-check" }, ui.seedCheck(p.seed, p.seedSha256))) : null,
  );
}
