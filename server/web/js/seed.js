// The fairness checks any game can make in the page: sha256(seed) against the commitment
// published at the start, and the server's draws from the revealed seed (server/games/
// base.py `draw`: HMAC-SHA256(seed, label + "#" + counter) read as a 64-bit integer, with
// rejection sampling). WebCrypto only: it exists on secure pages (https, or localhost).

const SPACE = 1n << 64n;
const encoder = new TextEncoder();

function hexBytes(hex) {
  return new Uint8Array((hex.match(/../g) || []).map((x) => parseInt(x, 16)));
}

function hex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether this page can recompute draws (WebCrypto is there). */
export function canDraw() {
  return Boolean(globalThis.crypto && crypto.subtle);
}

/** The HMAC key of a seed (hex). */
export function seedKey(seedHex) {
  return crypto.subtle.importKey("raw", hexBytes(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** A uniform integer in [0, n) from the seed's key and the label, as the server draws it. */
export async function draw(key, label, n) {
  const limit = SPACE - (SPACE % BigInt(n));
  for (let counter = 0; ; counter += 1) {
    const digest = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${label}#${counter}`)));
    let value = 0n;
    for (let i = 0; i < 8; i += 1) value = (value << 8n) | BigInt(digest[i]);
    if (value < limit) return Number(value % BigInt(n));
  }
}

/** sha256 of a seed (hex) as hex. */
export async function commitment(seedHex) {
  return hex(await crypto.subtle.digest("SHA-256", hexBytes(seedHex)));
}
