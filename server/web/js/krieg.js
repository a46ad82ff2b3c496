// The Kriegspiel board: your own pieces, click-click or drag to attempt a move, promotion
// picker, the umpire's log lives in main.js; markers are kept in this browser only.

import { h } from "./dom.js";
import { FILES, attemptsFrom, clockNow, seatNames } from "./state.js";

const GLYPHS = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
const PIECE_KEY = { k: "piece_k", q: "piece_q", r: "piece_r", b: "piece_b", n: "piece_n", p: "piece_p" };

function squares(flipped) {
  const out = [];
  for (let r = 0; r < 8; r += 1) {
    for (let f = 0; f < 8; f += 1) {
      const rank = flipped ? r + 1 : 8 - r;
      const file = flipped ? 7 - f : f;
      out.push(FILES[file] + rank);
    }
  }
  return out;
}

/** The board grid: 64 buttons; `pieces` {square: letter}; `options` for interaction. */
export function boardGrid(ui, pieces, { flipped = false, selected = null, targets = [], markers = {}, onSquare = null, onDrop = null, label = "" } = {}) {
  const t = ui.t;
  return h("div", { class: "board", role: "group", "aria-label": label || t("board") },
    squares(flipped).map((sq, index) => {
      const coords = `${index >= 56 ? " coord-file" : ""}${index % 8 === 0 ? " coord-rank" : ""}`;
      const piece = pieces[sq];
      const dark = (FILES.indexOf(sq[0]) + Number(sq[1])) % 2 === 0;
      const marker = markers[sq];
      const color = piece ? (piece === piece.toUpperCase() ? "white" : "black") : null;
      const name = piece ? t("squareWith", { square: sq, color: t(color), piece: t(PIECE_KEY[piece.toLowerCase()]) }) : sq;
      return h("button", {
        type: "button",
        class: `sq ${dark ? "dark" : "light"}${coords}${sq === selected ? " selected" : ""}${targets.includes(sq) ? " target" : ""}`,
        "data-square": sq,
        "data-file": sq[0],
        "data-rank": sq[1],
        "data-key": `sq-${sq}`,
        "aria-label": marker ? `${name} (${t("marker")}: ${t(PIECE_KEY[marker])})` : name,
        draggable: piece && onDrop ? "true" : null,
        onclick: onSquare ? () => onSquare(sq) : null,
        ondragstart: onDrop ? (e) => { e.dataTransfer.setData("text/plain", sq); } : null,
        ondragover: onDrop ? (e) => e.preventDefault() : null,
        ondrop: onDrop ? (e) => { e.preventDefault(); onDrop(e.dataTransfer.getData("text/plain"), sq); } : null,
      },
        piece ? h("span", { class: `piece ${color}`, "aria-hidden": "true" }, GLYPHS[piece]) : null,
        !piece && marker ? h("span", { class: "marker", "aria-hidden": "true" }, GLYPHS[marker]) : null,
      );
    }),
  );
}

function fmtClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function clockText(ui, room, seat, seconds) {
  return `${seatNames(room)[seat] || "?"} (${ui.t(seat === 0 ? "white" : "black")}) ${fmtClock(seconds)}`;
}

/** Update the running clocks' text in place (called twice a second). */
export function tickClocks(ui, room) {
  const clocks = clockNow(room, Date.now());
  if (!clocks) return;
  for (const el of document.querySelectorAll(".clock[data-seat]")) {
    const seat = Number(el.dataset.seat);
    el.textContent = clockText(ui, room, seat, clocks[seat]);
  }
}

/** The whole Kriegspiel area for `room`. */
export function kriegTable(ui, room) {
  const t = ui.t;
  const k = room.krieg;
  const names = seatNames(room);
  const legal = room.turn && ui.acting !== room.id ? room.turn.legal || [] : [];
  const sel = ui.krieg.selected;
  const moves = sel ? attemptsFrom(legal, sel) : {};
  const markers = ui.markers(room.id);
  const flipped = (k.color === "black") !== ui.krieg.flipped;
  const onSquare = (sq) => {
    if (ui.krieg.marker !== null) {
      ui.setMarker(room.id, sq, ui.krieg.marker);
      return;
    }
    if (sel && moves[sq]) {
      ui.attempt(room, moves[sq]);
      return;
    }
    const piece = k.board[sq];
    const mine = piece && (piece === piece.toUpperCase()) === (k.color === "white");
    ui.selectSquare(mine && sq !== sel ? sq : null);
  };
  const onDrop = (from, to) => {
    const options = attemptsFrom(legal, from)[to];
    if (options) ui.attempt(room, options);
  };
  const parts = [];
  const clocks = clockNow(room, Date.now());
  if (clocks && !k.outcome) {
    parts.push(h("p", { class: "clocks", "aria-label": t("clocks") },
      clocks.map((c, seat) => h("span", { class: `clock${room.clock.to_move === seat ? " running" : ""}`, "data-seat": seat }, clockText(ui, room, seat, c)))));
  }
  if (room.seat === null && !k.revealed) parts.push(h("p", { class: "muted" }, t("kriegSpectator")));
  if (room.seat !== null) {
    parts.push(boardGrid(ui, k.board, { flipped, selected: sel, targets: Object.keys(moves), markers, onSquare, onDrop: legal.length ? onDrop : null }));
  }
  if (ui.krieg.promotion && ui.krieg.promotion.room === room.id) {
    const options = ui.krieg.promotion.options;
    parts.push(h("div", { class: "promotion", role: "group", "aria-label": t("promoteTo") },
      h("span", {}, t("promoteTo")),
      options.map((uci) => h("button", { type: "button", "data-promote": uci[4], "aria-label": t(PIECE_KEY[uci[4]]), onclick: () => ui.attempt(room, [uci]) }, GLYPHS[k.color === "white" ? uci[4].toUpperCase() : uci[4]]))));
  }
  const info = [];
  if (k.outcome) info.push(h("p", { class: "game-over", role: "status" }, t("gameOver", { result: k.outcome.result || "", reason: String(k.outcome.reason || "").replaceAll("_", " ") })));
  else if (room.frame.state === "playing") info.push(h("p", { class: "turn-of" }, room.turn ? t("yourTurn") : t("turnOf", { name: t(k.toMove || "white") })));
  if (k.refused.length) info.push(h("p", { class: "refused" }, t("refused", { moves: k.refused.join(", ") })));
  if (k.tries) info.push(h("p", { class: "tries" }, t("pawnTries", { text: k.tries })));
  parts.push(h("div", { class: "krieg-info" }, info));
  if (room.seat !== null && room.frame.state === "playing") {
    const controls = [
      h("button", { type: "button", class: "small", id: "flip", onclick: () => ui.flip() }, t("flip")),
      h("label", { class: "small" }, t("marker"), " ",
        h("select", { id: "marker", "data-key": "marker", onchange: (e) => ui.setMarkerTool(e.target.value || null) },
          h("option", { value: "", selected: ui.krieg.marker === null }, t("markerNone")),
          ["q", "r", "b", "n", "p", "k"].map((p) => h("option", { value: p, selected: ui.krieg.marker === p }, t(PIECE_KEY[p]))))),
    ];
    if (legal.includes("any")) controls.push(h("button", { type: "button", id: "any", onclick: () => ui.act(room, "any") }, t("any")));
    if (legal.includes("accept_draw")) controls.push(h("button", { type: "button", id: "accept-draw", onclick: () => ui.act(room, "accept_draw") }, t("acceptDraw")));
    if (legal.includes("decline_draw")) controls.push(h("button", { type: "button", id: "decline-draw", onclick: () => ui.act(room, "decline_draw") }, t("declineDraw")));
    if (legal.includes("offer_draw")) controls.push(h("button", { type: "button", id: "offer-draw", onclick: () => ui.act(room, "offer_draw") }, t("offerDraw")));
    controls.push(ui.confirmButton("resign", t("resign"), t("resignConfirm"), () => ui.act(room, "resign")));
    parts.push(h("div", { class: "controls" }, controls));
  }
  return h("div", { class: "krieg" }, parts);
}
