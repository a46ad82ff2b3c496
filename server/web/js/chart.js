// A rating history as a line chart's geometry, pure (no DOM): points in, coordinates out.
// player.js draws it as SVG. The x axis is the games in order (each rated game one step,
// as a rating moves only when a game ends); the y axis spans the lowest and highest
// rating, padded to whole steps of 50 so that a flat history still has a height.

const STEP = 50;

/** The geometry of `history` ([[at, rating], ...], oldest first) in a `width` x `height`
 * box with `pad` around the plot: {points: [{x, y, at, rating}], path, low, high, ticks:
 * [{y, rating}]}; null for an empty history. */
export function chartGeometry(history, { width = 320, height = 140, pad = 28 } = {}) {
  if (!history || !history.length) return null;
  const ratings = history.map(([, rating]) => rating);
  let low = Math.floor(Math.min(...ratings) / STEP) * STEP;
  let high = Math.ceil(Math.max(...ratings) / STEP) * STEP;
  if (high - low < 2 * STEP) {
    const middle = (high + low) / 2;
    low = Math.floor((middle - STEP) / STEP) * STEP;
    high = low + 2 * STEP;
  }
  const left = pad + 12;
  const span = width - left - pad / 2;
  const top = pad / 2;
  const tall = height - pad;
  const x = (i) => (history.length === 1 ? left + span / 2 : left + (span * i) / (history.length - 1));
  const y = (rating) => top + tall * (1 - (rating - low) / (high - low));
  const round = (v) => Math.round(v * 10) / 10;
  const points = history.map(([at, rating], i) => ({ x: round(x(i)), y: round(y(rating)), at, rating }));
  const path = points.map((p, i) => `${i ? "L" : "M"}${p.x} ${p.y}`).join(" ");
  const ticks = [low, (low + high) / 2, high].map((rating) => ({ y: round(y(rating)), rating }));
  return { points, path, low, high, ticks, left, right: round(left + span), top, bottom: round(top + tall) };
}
