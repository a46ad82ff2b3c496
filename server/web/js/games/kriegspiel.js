// Kriegspiel: the board's state from views and the umpire's announcements (pure), the
// board (your own pieces, click-click or drag to attempt a move, the promotion picker,
// markers kept in this browser only), the replay of the real game with its PGN, and the
// game's words.

import { h } from "../dom.js";
import { seatNames } from "../shared.js";
import { FILES, pgn } from "./san.js";

export const NAME = "kriegspiel";
export { FILES };

// -- state (pure) ------------------------------------------------------------------------

/** A fresh board: your own pieces only, and what the umpire said. */
export function newTable() {
  return {
    color: null, rules: "", toMove: "white", board: {}, refused: [], tries: null,
    drawOffer: null, outcome: null, revealed: null, mustTryPawnCapture: false,
    offerBlocked: false, // we offered a draw and the opponent has not moved since
    draw: null, // the last draw offer: {color, state: offered | declined | lapsed | accepted}
    triesOf: null, lastMove: null, checked: false,
  };
}

/** Take what a view (snapshot or turn) says of the board. */
export function applyView(room, view) {
  const k = room.table;
  if (view.color) k.color = view.color;
  if (!room.log.length && view.announcements) {
    for (const event of view.announcements) {
      const entry = announce(room, event, true);
      if (entry) room.log.push(entry);
    }
  }
  k.rules = view.rules || k.rules;
  k.toMove = view.to_move ?? null;
  k.drawOffer = view.draw_offer ?? null;
  if (view.outcome) k.outcome = { ...(k.outcome || {}), ...view.outcome };
  if (view.board !== undefined) k.board = parsePlacement(view.board);
  k.refused = [...(view.refused || [])];
  k.mustTryPawnCapture = Boolean(view.must_try_pawn_capture);
  if (view.revealed) k.revealed = view.revealed;
}

/** Apply one announcement to the board; return its log line or null. */
export function applyEvent(room, event) {
  return announce(room, event, false);
}

/** A FEN piece placement -> {square: piece letter} ("P" white pawn, "k" black king). */
export function parsePlacement(fen) {
  const board = {};
  const ranks = String(fen || "").split(" ")[0].split("/");
  if (ranks.length !== 8) return board;
  ranks.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else {
        board[FILES[file] + String(8 - i)] = ch;
        file += 1;
      }
    }
  });
  return board;
}

/** Apply one of your own moves (UCI) to your board of own pieces. */
export function applyOwnMove(board, uci) {
  const from = uci.slice(0, 2);
  const to = uci.slice(2, 4);
  const piece = board[from];
  if (!piece) return board;
  delete board[from];
  if (piece.toLowerCase() === "k" && Math.abs(FILES.indexOf(to[0]) - FILES.indexOf(from[0])) === 2) {
    const rank = from[1];
    const kingside = to[0] > from[0];
    const rookFrom = (kingside ? "h" : "a") + rank;
    const rookTo = (kingside ? "f" : "d") + rank;
    if (board[rookFrom]) {
      board[rookTo] = board[rookFrom];
      delete board[rookFrom];
    }
  }
  const promotion = uci[4];
  board[to] = promotion ? (piece === piece.toUpperCase() ? promotion.toUpperCase() : promotion) : piece;
  return board;
}

/** The legal attempts from `square` in a turn's `legal` list: {to: [uci, ...]} (several
 * for a promotion). */
export function attemptsFrom(legal, square) {
  const out = {};
  for (const action of legal || []) {
    if (/^[a-h][1-8][a-h][1-8][qrbn]?$/.test(action) && action.startsWith(square)) {
      (out[action.slice(2, 4)] ||= []).push(action);
    }
  }
  return out;
}

function announce(room, e, replayOnly) {
  const k = room.table;
  const who = (color) => (color && color === k.color ? "You" : color === "white" ? "White" : "Black");
  switch (e.type) {
    case "game_started":
      k.rules = e.rules || k.rules;
      k.toMove = e.to_move || "white";
      if (e.color) k.color = e.color;
      if (e.board && !replayOnly) k.board = parsePlacement(e.board);
      return k.color
        ? { key: "ev_game_started_krieg", args: { rules: k.rules, color: k.color }, tr: ["color"] }
        : { key: "ev_game_started_krieg_spectator", args: { rules: k.rules } };
    case "move": {
      const parts = [];
      k.checked = false; // your own move got out of check (the enemy's may give it again)
      if (e.move) {
        if (!replayOnly) applyOwnMove(k.board, e.move);
        k.lastMove = e.move.slice(0, 4);
        parts.push({ key: "ev_move_own", args: { move: e.move } });
      } else parts.push({ key: "ev_move", args: { who: who(e.color) }, tr: ["who"] });
      if (e.capture && e.en_passant_at) { // English rules: the square the capturing pawn lands on
        parts.push({ key: "ev_capture_en_passant", args: { square: e.en_passant_at, pawn: e.capture } });
      } else if (e.capture) {
        parts.push({ key: "ev_capture", args: { square: e.capture, what: `captured_${e.captured || "none"}` }, tr: ["what"] });
      }
      if (e.capture && e.color !== k.color && k.color && !replayOnly) delete k.board[e.capture];
      // the enemy's move gave check: your own king is attacked
      if (e.check && e.check.length && k.color && e.color !== k.color) k.checked = true;
      if (e.check && e.check.length) {
        const [a, b] = e.check.map((d) => `dir_${d}`);
        parts.push(b ? { key: "ev_check_two", args: { a, b }, tr: ["a", "b"] } : { key: "ev_check", args: { dirs: a }, tr: ["dirs"] });
      }
      if (e.promotion) parts.push({ key: "ev_promotion", args: {} });
      k.toMove = e.color === "white" ? "black" : "white";
      if (e.color !== k.color) k.offerBlocked = false; // our offer may be made again
      k.refused = [];
      k.tries = null;
      k.mustTryPawnCapture = false;
      if (k.drawOffer && k.drawOffer !== e.color) {
        k.drawOffer = null;
        if (k.draw && k.draw.state === "offered") k.draw = { ...k.draw, state: "lapsed" }; // moved instead of answering
      }
      return { parts };
    }
    case "illegal":
      if (e.move) {
        if (!k.refused.includes(e.move)) k.refused.push(e.move);
        return { key: "ev_illegal_own", args: { move: e.move, answer: `answer_${e.answer || "illegal"}` }, tr: ["answer"] };
      }
      return { key: "ev_illegal", args: { who: who(e.color), answer: `answer_${e.answer || "illegal"}` }, tr: ["who", "answer"] };
    case "pawn_tries": {
      let text = "";
      if (e.squares) text = e.squares.join(", ") || "0";
      else if ("count" in e) text = String(e.count);
      else if ("pawns" in e) text = String(e.pawns);
      else if ("any" in e) text = e.any ? "✓" : "0";
      k.tries = text;
      k.triesOf = e.color && e.color === k.color ? "you" : e.color || null;
      return { key: "ev_pawn_tries", args: { who: who(e.color), text }, tr: ["who"] };
    }
    case "any":
      if (e.answer && e.color === k.color) k.mustTryPawnCapture = true;
      return { key: "ev_any", args: { who: who(e.color), answer: e.answer ? "yesWord" : "noWord" }, tr: ["who", "answer"] };
    case "draw_offered":
      k.drawOffer = e.color;
      if (e.color === k.color) k.offerBlocked = true; // not again before the opponent moves
      k.draw = { color: e.color, state: "offered" };
      return { key: "ev_draw_offered", args: { who: who(e.color) }, tr: ["who"] };
    case "draw_declined":
      k.drawOffer = null;
      if (k.draw) k.draw = { ...k.draw, state: "declined" };
      return { key: "ev_draw_declined", args: { who: who(e.color) }, tr: ["who"] };
    case "game_over":
      k.toMove = null;
      k.outcome = { ...e };
      if (k.draw && k.draw.state === "offered") k.draw = { ...k.draw, state: e.reason === "agreed_draw" ? "accepted" : "lapsed" };
      return { key: "ev_krieg_over", args: { result: e.result || "", reason: `reason_${e.reason}` }, tr: ["reason"] };
    default:
      return null;
  }
}

/** Apply a real move (UCI) to a board with both sides (en passant included). */
export function applyRealMove(board, uci) {
  const from = uci.slice(0, 2);
  const to = uci.slice(2, 4);
  const piece = board[from];
  if (piece && piece.toLowerCase() === "p" && from[0] !== to[0] && !board[to]) delete board[to[0] + from[1]];
  return applyOwnMove(board, uci);
}

/** The replay of a finished Kriegspiel room: [{event, board, move}] where `board` has
 * both sides' pieces after the real moves so far (from the final view's `revealed`). */
export function kriegReplay(events, revealed) {
  const moves = (revealed && revealed.moves) || [];
  const board = parsePlacement((revealed && revealed.start_fen) || "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
  const steps = [];
  let played = 0;
  for (const event of events) {
    let move = null;
    if (event.type === "move" && played < moves.length) {
      move = moves[played];
      applyRealMove(board, move);
      played += 1;
    }
    steps.push({ event, board: { ...board }, move });
  }
  return { steps, unmatched: moves.length - played };
}

// -- the page ----------------------------------------------------------------------------

const PIECE_SET = "/pieces/kosal"; // CC BY 4.0, see pieces/kosal/LICENSE.txt

/** A piece's picture: the SVG of letter `piece` ("Q" white queen, "n" black knight). */
export function pieceImage(piece, cls = "piece") {
  const white = piece === piece.toUpperCase();
  return h("img", {
    class: `${cls} ${white ? "white" : "black"}`, src: `${PIECE_SET}/${white ? "w" : "b"}${piece.toUpperCase()}.svg`,
    alt: "", "aria-hidden": "true", draggable: "false", "data-piece": piece,
  });
}

/** Whether `sq` ("a1") is a dark square: a1 is dark, h1 light. */
export function isDark(sq) {
  return (FILES.indexOf(sq[0]) + Number(sq[1])) % 2 === 1;
}
const PIECE_KEY = { k: "piece_k", q: "piece_q", r: "piece_r", b: "piece_b", n: "piece_n", p: "piece_p" };

/** This page's own state of the board: selection, flip, marker tool, promotion. */
function local(ui) {
  return (ui.games[NAME] ||= { selected: null, flipped: false, marker: null, promotion: null, cursor: null, revealAsked: {} });
}

function say(ui) {
  return (key, args) => ui.t(key, args, NAME);
}

/** Seat 0 plays white (what the clocks say beside a name). */
export function seatLabel(ui, seat) {
  return ui.t(seat === 0 ? "white" : "black", {}, NAME);
}

/** The page's reaction to a frame of a Kriegspiel room. */
export function onFrame(ui, room, frame) {
  const mine = local(ui);
  if (frame.type === "turn") {
    mine.selected = mine.selected && frame.legal.some((a) => a.startsWith(mine.selected)) ? mine.selected : null;
  }
  if (frame.type === "room" && frame.state === "finished" && !room.table.revealed && !mine.revealAsked[room.id]) {
    // the end's view (a snapshot) holds the real position: attach again to get it (a
    // private room only by its invite)
    mine.revealAsked[room.id] = true;
    ui.sendAuto({ type: "watch", ...(room.invite ? { invite: room.invite } : { room: room.id }) });
  }
}

function act(ui, room, action) {
  const mine = local(ui);
  mine.selected = null;
  mine.promotion = null;
  ui.act(room, action);
}

function attempt(ui, room, options) {
  if (options.length > 1) {
    local(ui).promotion = { room: room.id, options };
    ui.render();
    return;
  }
  act(ui, room, options[0]);
}

function markers(roomId) {
  try {
    return JSON.parse(localStorage.getItem(`umpire.markers.${roomId}`) || "{}");
  } catch {
    return {};
  }
}

function setMarker(ui, roomId, sq, piece) {
  const all = markers(roomId);
  if (all[sq] === piece) delete all[sq];
  else all[sq] = piece;
  localStorage.setItem(`umpire.markers.${roomId}`, JSON.stringify(all));
  ui.render();
}

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
export function boardGrid(ui, pieces, { flipped = false, selected = null, targets = [], marks = {}, onSquare = null, onDrop = null, label = "", lastMove = null, checked = null, own = true, markerColor = "black", cursor = null, onCursor = null } = {}) {
  const t = say(ui);
  const last = lastMove ? [lastMove.slice(0, 2), lastMove.slice(2, 4)] : [];
  const order = squares(flipped);
  // the board is one Tab stop (a roving tabindex): the cursor's square, else the selected
  // one, else the first; the arrow keys move over the board as it is shown
  const stop = [cursor, selected].find((sq) => sq && order.includes(sq)) || order[0];
  const arrows = (e, index) => {
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -8, ArrowDown: 8 }[e.key];
    if (step === undefined) return;
    e.preventDefault();
    const col = index % 8;
    if ((step === -1 && col === 0) || (step === 1 && col === 7) || index + step < 0 || index + step > 63) return;
    const next = e.currentTarget.parentElement.querySelector(`[data-square="${order[index + step]}"]`);
    e.currentTarget.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  };
  return h("div", { class: "board", role: "group", "aria-label": label || t("board") },
    order.map((sq, index) => {
      const coords = `${index >= 56 ? " coord-file" : ""}${index % 8 === 0 ? " coord-rank" : ""}`;
      const piece = pieces[sq];
      const dark = isDark(sq);
      const marker = marks[sq];
      const target = targets.includes(sq);
      const color = piece ? (piece === piece.toUpperCase() ? "white" : "black") : null;
      let name = piece ? t(own ? "squareWith" : "squareWithAny", { square: sq, color: t(color), piece: t(PIECE_KEY[piece.toLowerCase()]) }) : sq;
      if (marker) name += ` (${t("marker")}: ${t(PIECE_KEY[marker])})`;
      if (last.includes(sq)) name += ` (${t("lastMoveSquare")})`;
      if (sq === checked) name += ` (${t("inCheck")})`;
      if (target) name += ` (${t("canMoveHere")})`;
      const flags = `${sq === selected ? " selected" : ""}${target ? " target" : ""}${last.includes(sq) ? " last-move" : ""}${sq === checked ? " check" : ""}`;
      return h("button", {
        type: "button",
        class: `sq ${dark ? "dark" : "light"}${coords}${flags}`,
        "data-square": sq,
        "data-file": sq[0],
        "data-rank": sq[1],
        "data-key": `sq-${sq}`,
        "aria-label": name,
        tabindex: sq === stop ? "0" : "-1",
        draggable: piece && onDrop ? "true" : null,
        onclick: onSquare ? () => onSquare(sq) : null,
        onkeydown: (e) => arrows(e, index),
        onfocus: onCursor ? () => onCursor(sq) : null,
        ondragstart: onDrop ? (e) => { e.dataTransfer.setData("text/plain", sq); } : null,
        ondragover: onDrop ? (e) => e.preventDefault() : null,
        ondrop: onDrop ? (e) => { e.preventDefault(); onDrop(e.dataTransfer.getData("text/plain"), sq); } : null,
      },
        piece ? pieceImage(piece) : null,
        !piece && marker ? pieceImage(markerColor === "white" ? marker.toUpperCase() : marker, "marker") : null,
        // a legal target: a ring (an empty square's dot), a shape and not a colour alone
        target ? h("span", { class: "target-mark", "aria-hidden": "true" }) : null,
        index % 8 === 0 ? h("span", { class: "coord", "aria-hidden": "true" }, sq[1]) : null,
      );
    }),
  );
}

/** The whole Kriegspiel area for `room`. */
export function table(ui, room) {
  const t = say(ui);
  const k = room.table;
  const mine = local(ui);
  const legal = room.turn && ui.acting !== room.id ? room.turn.legal || [] : [];
  const sel = mine.selected;
  const moves = sel ? attemptsFrom(legal, sel) : {};
  const marks = markers(room.id);
  const flipped = (k.color === "black") !== mine.flipped;
  const onSquare = (sq) => {
    if (mine.marker !== null) {
      setMarker(ui, room.id, sq, mine.marker);
      return;
    }
    if (sel && moves[sq]) {
      attempt(ui, room, moves[sq]);
      return;
    }
    const piece = k.board[sq];
    const own = piece && (piece === piece.toUpperCase()) === (k.color === "white");
    mine.selected = own && sq !== sel ? sq : null;
    mine.promotion = null;
    ui.render();
  };
  const onDrop = (from, to) => {
    const options = attemptsFrom(legal, from)[to];
    if (options) attempt(ui, room, options);
  };
  const parts = [];
  if (room.seat === null && !k.revealed) parts.push(h("p", { class: "muted" }, t("kriegSpectator")));
  if (k.revealed && k.revealed.fen) {
    // the end: the real final position, both sides, on the table itself
    parts.push(h("p", { class: "muted final-caption" }, t("finalPosition")));
    parts.push(boardGrid(ui, parsePlacement(k.revealed.fen), { flipped, own: false, label: t("finalPosition"), lastMove: lastReal(k.revealed) }));
  } else if (room.seat !== null) {
    const king = Object.keys(k.board).find((sq) => k.board[sq] === (k.color === "white" ? "K" : "k"));
    parts.push(boardGrid(ui, k.board, {
      flipped, selected: sel, targets: Object.keys(moves), marks, onSquare, onDrop: legal.length ? onDrop : null,
      lastMove: k.lastMove, checked: k.checked ? king : null, markerColor: k.color === "white" ? "black" : "white",
      cursor: mine.cursor || king, onCursor: (sq) => { mine.cursor = sq; },
    }));
  }
  if (mine.promotion && mine.promotion.room === room.id) {
    const options = mine.promotion.options;
    parts.push(h("div", { class: "promotion", role: "group", "aria-label": t("promoteTo") },
      h("span", {}, t("promoteTo")),
      options.map((choice) => h("button", { type: "button", "data-promote": choice[4], "aria-label": t(PIECE_KEY[choice[4]]), onclick: () => attempt(ui, room, [choice]) }, pieceImage(k.color === "white" ? choice[4].toUpperCase() : choice[4])))));
  }
  const info = [];
  if (k.outcome) info.push(h("p", { class: "game-over", role: "status" }, ui.logLine({ key: "gameOver", args: { result: k.outcome.result || "", reason: `reason_${k.outcome.reason}` }, tr: ["reason"] }, NAME)));
  else if (room.frame.state === "playing") info.push(h("p", { class: "turn-of" }, room.turn ? t("yourTurn") : t(k.toMove === "black" ? "toPlayBlack" : "toPlayWhite")));
  if (k.checked && !k.outcome) info.push(h("p", { class: "in-check", role: "status" }, t("youAreInCheck")));
  if (k.refused.length) info.push(h("p", { class: "refused" }, t("refused", { moves: k.refused.join(", ") })));
  if (k.tries && !k.outcome) info.push(h("p", { class: "tries" }, t(k.triesOf === "you" ? "pawnTriesYou" : k.triesOf === "black" ? "pawnTriesBlack" : "pawnTriesWhite", { text: k.tries })));
  if (k.draw && !(k.draw.state === "accepted")) {
    // a draw offer: offered, then declined or lapsed (the other side moved instead)
    const whose = !k.color ? "watch" : k.draw.color === k.color ? "mine" : "theirs"; // a spectator, or a player
    info.push(h("p", { class: "draw-state", id: "draw-state", role: "status", "data-state": k.draw.state },
      t(`draw_${k.draw.state}_${whose}`, { who: t(k.draw.color === "white" ? "White" : "Black") })));
  }
  parts.push(h("div", { class: "krieg-info" }, info));
  if (room.seat !== null && room.frame.state === "playing") parts.push(controls(ui, room, legal));
  return h("div", { class: "krieg" }, parts);
}

function controls(ui, room, legal) {
  const t = say(ui);
  const mine = local(ui);
  const out = [
    h("button", { type: "button", class: "small", id: "flip", onclick: () => { mine.flipped = !mine.flipped; ui.render(); } }, t("flip")),
    h("label", { class: "small" }, t("marker"), " ",
      h("select", { id: "marker", "data-key": "marker", onchange: (e) => { mine.marker = e.target.value || null; ui.render(); } },
        h("option", { value: "", selected: mine.marker === null }, t("markerNone")),
        ["q", "r", "b", "n", "p", "k"].map((p) => h("option", { value: p, selected: mine.marker === p }, t(PIECE_KEY[p]))))),
  ];
  const button = (id, action, key) => h("button", { type: "button", id, onclick: () => act(ui, room, action) }, t(key));
  if (legal.includes("any")) out.push(button("any", "any", "any"));
  // the other side's offer may be answered out of turn too (no turn frame comes then)
  const k = room.table;
  const answer = k.drawOffer && k.color && k.drawOffer !== k.color && ui.acting !== room.id;
  if (legal.includes("accept_draw") || answer) out.push(button("accept-draw", "accept_draw", "acceptDraw"));
  if (legal.includes("decline_draw") || answer) out.push(button("decline-draw", "decline_draw", "declineDraw"));
  // a draw may be offered out of turn too (as resigning may): when no offer stands and the
  // opponent has not moved since ours (the server's rule)
  const outOfTurn = k.color && k.toMove && k.toMove !== k.color && ui.acting !== room.id;
  if (legal.includes("offer_draw") || (outOfTurn && !k.drawOffer && !k.offerBlocked)) out.push(button("offer-draw", "offer_draw", "offerDraw"));
  out.push(ui.confirmButton("resign", t("resign"), t("resignConfirm"), () => act(ui, room, "resign")));
  return h("div", { class: "controls" }, out);
}

/** The last real move of a finished game (UCI, its squares only), or null. */
function lastReal(revealed) {
  const moves = revealed.moves || [];
  return moves.length ? moves[moves.length - 1].slice(0, 4) : null;
}

// -- the replay: the real moves, and the real game's PGN ---------------------------------

/** The PGN of the real game, as a file download (made in the page). */
export function gamePgn(room, names) {
  const k = room.table;
  const outcome = k.outcome || room.frame.outcome || {};
  const ranks = outcome.ranks || [];
  const fromRanks = ranks.length === 2 ? (ranks[0] === ranks[1] ? "1/2-1/2" : ranks[0] < ranks[1] ? "1-0" : "0-1") : "*";
  const result = outcome.result || fromRanks;
  // the date the game started (the room frame's `started`, seconds since the epoch, UTC)
  const started = room.frame.started ? new Date(room.frame.started * 1000) : null;
  const date = started ? started.toISOString().slice(0, 10).replaceAll("-", ".") : undefined;
  return pgn({ startFen: k.revealed.start_fen, moves: k.revealed.moves, white: names[0] || "?", black: names[1] || "?", result, date, event: `umpire Kriegspiel ${room.id}`, rules: k.rules });
}

function downloadPgn(room, names) {
  const blob = new Blob([gamePgn(room, names)], { type: "application/x-chess-pgn" });
  const link = h("a", { href: URL.createObjectURL(blob), download: `umpire-${room.id}.pgn` });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** The replay of a finished room (replay_view.js): once the final view revealed the
 * real moves. */
export const replay = {
  ready: (room) => Boolean(room.table.revealed),
  make: (room, events) => kriegReplay(events, room.table.revealed),
  panel(ui, room, data, step) {
    const t = say(ui);
    const names = seatNames(room);
    return h("div", { class: "replay-board" },
      boardGrid(ui, step.board, { flipped: room.table.color === "black", label: ui.t("replay"), own: false, lastMove: step.move }),
      step.move ? h("p", { class: "moves" }, t("realMove", { move: step.move })) : null,
      h("button", { type: "button", id: "pgn", onclick: () => downloadPgn(room, names) }, t("downloadPgn")));
  },
};

// -- words -------------------------------------------------------------------------------

export const words = {
  en: {
    board: "Board",
    flip: "Flip board",
    any: "Any?",
    offerDraw: "Offer draw",
    acceptDraw: "Accept draw",
    declineDraw: "Decline draw",
    resign: "Resign",
    resignConfirm: "Resign this game?",
    promoteTo: "Promote to",
    piece_q: "queen",
    piece_r: "rook",
    piece_b: "bishop",
    piece_n: "knight",
    piece_k: "king",
    piece_p: "pawn",
    white: "white",
    black: "black",
    refused: "Refused this turn: {moves}",
    pawnTriesYou: "Your pawn tries: {text}",
    pawnTriesWhite: "White's pawn tries: {text}",
    pawnTriesBlack: "Black's pawn tries: {text}",
    toPlayWhite: "White to play",
    toPlayBlack: "Black to play",
    squareWith: "{square}, your {color} {piece}",
    squareWithAny: "{square}, {color} {piece}",
    lastMoveSquare: "last move",
    inCheck: "in check",
    youAreInCheck: "Your king is in check.",
    canMoveHere: "you can try a move here",
    finalPosition: "The final position, every piece shown",
    marker: "Marker",
    markerNone: "no marker",
    gameOver: "Game over: {result} ({reason})",
    kriegSpectator: "A spectator hears only the umpire: the pieces are shown at the end.",
    downloadPgn: "Download PGN",
    realMove: "Real move: {move}",
    ev_game_started_krieg: "The game starts under {rules} rules. You play {color}.",
    ev_game_started_krieg_spectator: "The game starts under {rules} rules.",
    ev_move_own: "You moved {move}.",
    ev_move: "{who} moved.",
    ev_capture: "Capture on {square}{what}.",
    ev_capture_en_passant: "Capture en passant at {square} (pawn {pawn} taken).",
    ev_check: "Check: {dirs}.",
    ev_promotion: "A pawn was promoted.",
    ev_illegal_own: "You tried {move}: {answer}.",
    ev_illegal: "{who} tried a move: {answer}.",
    ev_pawn_tries: "{who}: pawn tries {text}.",
    ev_any: "{who} asked “Are there any?”: {answer}.",
    ev_draw_offered: "{who} offered a draw.",
    ev_draw_declined: "{who} declined the draw.",
    ev_krieg_over: "Game over: {result} ({reason}).",
    ev_check_two: "Check: {a} and {b}.",
    captured_pawn: " (a pawn)",
    captured_piece: " (a piece)",
    captured_none: "",
    answer_illegal: "illegal",
    answer_impossible: "impossible",
    dir_rank: "on the rank",
    dir_file: "on the file",
    dir_long_diagonal: "on the long diagonal",
    dir_short_diagonal: "on the short diagonal",
    dir_knight: "by a knight",
    reason_checkmate: "checkmate",
    reason_stalemate: "stalemate",
    reason_insufficient_material: "insufficient material",
    reason_fifty_moves: "the 50-move rule",
    reason_seventyfive_moves: "the 75-move rule",
    reason_threefold_repetition: "threefold repetition",
    reason_fivefold_repetition: "fivefold repetition",
    reason_resignation: "resignation",
    reason_agreed_draw: "draw agreed",
    reason_time: "time ran out",
    reason_time_forfeit: "time ran out",
    reason_flag: "time ran out",
    draw_offered_mine: "You offered a draw: waiting for the answer.",
    draw_offered_theirs: "{who} offers a draw.",
    draw_declined_mine: "Your draw offer was declined.",
    draw_declined_theirs: "You declined the draw.",
    draw_lapsed_mine: "Your draw offer lapsed: a move was made instead.",
    draw_lapsed_theirs: "The draw offer lapsed.",
    draw_offered_watch: "{who} offers a draw.",
    draw_declined_watch: "{who}'s draw offer was declined.",
    draw_lapsed_watch: "{who}'s draw offer lapsed.",
    yesWord: "yes",
    noWord: "no",
    White: "White",
    Black: "Black",
    You: "You",
    opt_rules: "Rules",
    opt_fen: "Start position (FEN, optional)",
    opt_auto_fifty_moves: "The 50-move rule ends the game",
    opt_auto_threefold: "Threefold repetition ends the game",
    opt_auto_seventyfive_moves: "The 75-move rule ends the game",
    opt_auto_fivefold: "Fivefold repetition ends the game",
  },
  it: {
    board: "Scacchiera",
    flip: "Gira la scacchiera",
    any: "Ce ne sono?",
    offerDraw: "Proponi patta",
    acceptDraw: "Accetta la patta",
    declineDraw: "Rifiuta la patta",
    resign: "Abbandona",
    resignConfirm: "Abbandonare la partita?",
    promoteTo: "Promuovi a",
    piece_q: "donna",
    piece_r: "torre",
    piece_b: "alfiere",
    piece_n: "cavallo",
    piece_k: "re",
    piece_p: "pedone",
    white: "bianco",
    black: "nero",
    refused: "Rifiutate in questo turno: {moves}",
    pawnTriesYou: "I tuoi tentativi di pedone: {text}",
    pawnTriesWhite: "Tentativi di pedone del Bianco: {text}",
    pawnTriesBlack: "Tentativi di pedone del Nero: {text}",
    toPlayWhite: "Tocca al Bianco",
    toPlayBlack: "Tocca al Nero",
    squareWith: "{square}, il tuo {piece} {color}",
    squareWithAny: "{square}, {piece} {color}",
    lastMoveSquare: "ultima mossa",
    inCheck: "sotto scacco",
    youAreInCheck: "Il tuo re è sotto scacco.",
    canMoveHere: "qui puoi tentare una mossa",
    finalPosition: "La posizione finale, con tutti i pezzi",
    marker: "Segnaposto",
    markerNone: "nessun segnaposto",
    gameOver: "Partita finita: {result} ({reason})",
    kriegSpectator: "Chi guarda sente solo l'arbitro: i pezzi si vedono alla fine.",
    downloadPgn: "Scarica il PGN",
    realMove: "Mossa reale: {move}",
    ev_game_started_krieg: "Si comincia con le regole {rules}. Giochi col {color}.",
    ev_game_started_krieg_spectator: "Si comincia con le regole {rules}.",
    ev_move_own: "Hai mosso {move}.",
    ev_move: "{who} ha mosso.",
    ev_capture: "Presa in {square}{what}.",
    ev_capture_en_passant: "Presa en passant in {square} (preso il pedone in {pawn}).",
    ev_check: "Scacco: {dirs}.",
    ev_promotion: "Un pedone è stato promosso.",
    ev_illegal_own: "Hai provato {move}: {answer}.",
    ev_illegal: "{who} ha provato una mossa: {answer}.",
    ev_pawn_tries: "{who}: tentativi di pedone {text}.",
    ev_any: "{who} ha chiesto «Ce ne sono?»: {answer}.",
    ev_draw_offered: "{who} propone la patta.",
    ev_draw_declined: "{who} rifiuta la patta.",
    ev_krieg_over: "Partita finita: {result} ({reason}).",
    ev_check_two: "Scacco: {a} e {b}.",
    captured_pawn: " (un pedone)",
    captured_piece: " (un pezzo)",
    captured_none: "",
    answer_illegal: "illegale",
    answer_impossible: "impossibile",
    dir_rank: "sulla traversa",
    dir_file: "sulla colonna",
    dir_long_diagonal: "sulla diagonale lunga",
    dir_short_diagonal: "sulla diagonale corta",
    dir_knight: "di cavallo",
    reason_checkmate: "scacco matto",
    reason_stalemate: "stallo",
    reason_insufficient_material: "materiale insufficiente",
    reason_fifty_moves: "regola delle 50 mosse",
    reason_seventyfive_moves: "regola delle 75 mosse",
    reason_threefold_repetition: "triplice ripetizione",
    reason_fivefold_repetition: "quintuplice ripetizione",
    reason_resignation: "abbandono",
    reason_agreed_draw: "patta concordata",
    reason_time: "tempo scaduto",
    reason_time_forfeit: "tempo scaduto",
    reason_flag: "tempo scaduto",
    draw_offered_mine: "Hai proposto la patta: in attesa della risposta.",
    draw_offered_theirs: "{who} propone la patta.",
    draw_declined_mine: "La tua proposta di patta è stata rifiutata.",
    draw_declined_theirs: "Hai rifiutato la patta.",
    draw_lapsed_mine: "La tua proposta di patta è decaduta: è stata giocata una mossa.",
    draw_lapsed_theirs: "La proposta di patta è decaduta.",
    draw_offered_watch: "{who} propone la patta.",
    draw_declined_watch: "La proposta di patta è stata rifiutata ({who} l'aveva fatta).",
    draw_lapsed_watch: "La proposta di patta è decaduta ({who} l'aveva fatta).",
    yesWord: "sì",
    noWord: "no",
    White: "Il bianco",
    Black: "Il nero",
    You: "Tu",
    opt_rules: "Regole",
    opt_fen: "Posizione iniziale (FEN, facoltativa)",
    opt_auto_fifty_moves: "La regola delle 50 mosse chiude la partita",
    opt_auto_threefold: "La triplice ripetizione chiude la partita",
    opt_auto_seventyfive_moves: "La regola delle 75 mosse chiude la partita",
    opt_auto_fivefold: "La quintuplice ripetizione chiude la partita",
  },
};
