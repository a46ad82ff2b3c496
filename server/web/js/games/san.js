// Standard algebraic notation for the Kriegspiel replay's PGN: a small move generator
// (enough for SAN: legality, disambiguation, check and mate), no I/O. The real moves come
// from the server in UCI; this only spells them the way PGN readers expect.

/** The files of the board, a to h. */
export const FILES = "abcdefgh";

const KNIGHT = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];
const KING = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];
const ROOK = [[1, 0], [-1, 0], [0, 1], [0, -1]];
const BISHOP = [[1, 1], [1, -1], [-1, 1], [-1, -1]];

const sq = (f, r) => (f >= 0 && f < 8 && r >= 0 && r < 8 ? FILES[f] + (r + 1) : null);
const fileOf = (s) => FILES.indexOf(s[0]);
const rankOf = (s) => Number(s[1]) - 1;
const isWhite = (p) => p === p.toUpperCase();

/** A position: {board: {square: piece}, white: bool (to move), ep: square|null}. */
export function fromFen(fen) {
  const [placement, turn = "w", , ep = "-"] = fen.split(" ");
  const board = {};
  placement.split("/").forEach((row, i) => {
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) f += Number(ch);
      else board[sq(f++, 7 - i)] = ch;
    }
  });
  return { board, white: turn === "w", ep: ep === "-" ? null : ep };
}

/** Whether `target` is attacked by the side `white`. */
export function attacked(board, target, white) {
  const f = fileOf(target);
  const r = rankOf(target);
  const at = (df, dr) => board[sq(f + df, r + dr)];
  const own = (p, kind) => p && isWhite(p) === white && p.toLowerCase() === kind;
  const pawnRank = white ? -1 : 1;
  if (own(at(-1, pawnRank), "p") || own(at(1, pawnRank), "p")) return true;
  if (KNIGHT.some(([df, dr]) => own(at(df, dr), "n"))) return true;
  if (KING.some(([df, dr]) => own(at(df, dr), "k"))) return true;
  for (const [dirs, kinds] of [[ROOK, "rq"], [BISHOP, "bq"]]) {
    for (const [df, dr] of dirs) {
      for (let k = 1; k < 8; k += 1) {
        const s = sq(f + df * k, r + dr * k);
        if (!s) break;
        const p = board[s];
        if (p) {
          if (isWhite(p) === white && kinds.includes(p.toLowerCase())) return true;
          break;
        }
      }
    }
  }
  return false;
}

function pseudoMoves(pos) {
  const { board, white } = pos;
  const moves = [];
  for (const [from, p] of Object.entries(board)) {
    if (isWhite(p) !== white) continue;
    const f = fileOf(from);
    const r = rankOf(from);
    const kind = p.toLowerCase();
    const add = (to) => {
      const q = board[to];
      if (!q || isWhite(q) !== white) moves.push({ from, to, piece: p });
    };
    if (kind === "p") {
      const dir = white ? 1 : -1;
      const last = white ? 7 : 0;
      const push = (to) => {
        if (rankOf(to) === last) for (const promo of "qrbn") moves.push({ from, to, piece: p, promo });
        else moves.push({ from, to, piece: p });
      };
      const one = sq(f, r + dir);
      if (one && !board[one]) {
        push(one);
        const two = sq(f, r + 2 * dir);
        if (r === (white ? 1 : 6) && !board[two]) push(two);
      }
      for (const df of [-1, 1]) {
        const to = sq(f + df, r + dir);
        if (to && ((board[to] && isWhite(board[to]) !== white) || to === pos.ep)) push(to);
      }
    } else if (kind === "n" || kind === "k") {
      for (const [df, dr] of kind === "n" ? KNIGHT : KING) {
        const to = sq(f + df, r + dr);
        if (to) add(to);
      }
    } else {
      const dirs = kind === "r" ? ROOK : kind === "b" ? BISHOP : [...ROOK, ...BISHOP];
      for (const [df, dr] of dirs) {
        for (let k = 1; k < 8; k += 1) {
          const to = sq(f + df * k, r + dr * k);
          if (!to) break;
          add(to);
          if (board[to]) break;
        }
      }
    }
  }
  return moves;
}

/** The position after a move (UCI or {from, to, promo}); castling and en passant included. */
export function play(pos, move) {
  const m = typeof move === "string" ? { from: move.slice(0, 2), to: move.slice(2, 4), promo: move[4] } : move;
  const board = { ...pos.board };
  const p = board[m.from];
  delete board[m.from];
  const kind = p.toLowerCase();
  if (kind === "p" && m.to === pos.ep) delete board[m.to[0] + m.from[1]];
  if (kind === "k" && Math.abs(fileOf(m.to) - fileOf(m.from)) === 2) {
    const rank = m.from[1];
    const [rf, rt] = fileOf(m.to) > fileOf(m.from) ? ["h", "f"] : ["a", "d"];
    board[rt + rank] = board[rf + rank];
    delete board[rf + rank];
  }
  board[m.to] = m.promo ? (isWhite(p) ? m.promo.toUpperCase() : m.promo) : p;
  const double = kind === "p" && Math.abs(rankOf(m.to) - rankOf(m.from)) === 2;
  const ep = double ? m.from[0] + String((rankOf(m.from) + rankOf(m.to)) / 2 + 1) : null;
  return { board, white: !pos.white, ep };
}

function kingOf(board, white) {
  return Object.keys(board).find((s) => board[s] === (white ? "K" : "k"));
}

function legal(pos) {
  return pseudoMoves(pos).filter((m) => {
    const after = play(pos, m);
    const king = kingOf(after.board, pos.white);
    return king && !attacked(after.board, king, !pos.white);
  });
}

/** The SAN of a UCI move in `pos` (assumed legal). */
export function san(pos, uci) {
  const from = uci.slice(0, 2);
  const to = uci.slice(2, 4);
  const promo = uci[4];
  const p = pos.board[from];
  const kind = p.toLowerCase();
  let text;
  if (kind === "k" && Math.abs(fileOf(to) - fileOf(from)) === 2) {
    text = fileOf(to) > fileOf(from) ? "O-O" : "O-O-O";
  } else {
    const capture = Boolean(pos.board[to]) || (kind === "p" && to === pos.ep);
    if (kind === "p") {
      text = (capture ? `${from[0]}x` : "") + to + (promo ? `=${promo.toUpperCase()}` : "");
    } else {
      const rivals = legal(pos).filter((m) => m.to === to && m.piece === p && m.from !== from);
      let hint = "";
      if (rivals.length) {
        if (!rivals.some((m) => m.from[0] === from[0])) hint = from[0];
        else if (!rivals.some((m) => m.from[1] === from[1])) hint = from[1];
        else hint = from;
      }
      text = kind.toUpperCase() + hint + (capture ? "x" : "") + to;
    }
  }
  const after = play(pos, uci);
  const king = kingOf(after.board, after.white);
  if (king && attacked(after.board, king, pos.white)) text += legal(after).length ? "+" : "#";
  return text;
}

/** A PGN of the real game: `moves` in UCI from `startFen`, with the seven-tag roster.
 * It is a chess game as far as chess programs go: no `Variant` tag (python-chess and the
 * common GUIs refuse a variant they do not know); its Kriegspiel nature is in the tags
 * `UmpireVariant` and `Rules`, which they ignore. */
export function pgn({ startFen, moves, white = "?", black = "?", result = "*", date = "????.??.??", event = "umpire Kriegspiel", rules = "" }) {
  const standard = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  const fen = startFen || standard;
  let pos = fromFen(fen);
  let number = Number(fen.split(" ")[5] || 1);
  const tokens = [];
  moves.forEach((uci, i) => {
    if (pos.white) tokens.push(`${number}.`);
    else if (i === 0) tokens.push(`${number}...`);
    tokens.push(san(pos, uci));
    if (!pos.white) number += 1;
    pos = play(pos, uci);
  });
  tokens.push(result);
  const quote = (v) => String(v).replaceAll("\\", "\\\\").replaceAll('"', '\\"');
  const tags = [["Event", event], ["Site", "?"], ["Date", date], ["Round", "-"], ["White", white], ["Black", black], ["Result", result], ["UmpireVariant", "Kriegspiel"]];
  if (rules) tags.push(["Rules", rules]);
  if (fen !== standard) tags.push(["SetUp", "1"], ["FEN", fen]);
  const lines = [];
  let line = "";
  for (const token of tokens) {
    if (line && line.length + token.length + 1 > 79) {
      lines.push(line);
      line = token;
    } else line = line ? `${line} ${token}` : token;
  }
  if (line) lines.push(line);
  return `${tags.map(([k, v]) => `[${k} "${quote(v)}"]`).join("\n")}\n\n${lines.join("\n")}\n`;
}
