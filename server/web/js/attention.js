// "Your turn": when any game waits for this page's player, the tab's title and icon say
// so, and (only if the player turned it on: off by default, kept in localStorage) a short
// tone is played with WebAudio when a new turn arrives. No sound file is shipped.

// The tab's icons are data: addresses, drawn here: switching them never asks the server,
// which may be away (a request then is a failed load in the console). The idle icon is
// favicon.svg's picture; the turn's adds a red dot.
const DOTS =
  '<rect x="6" y="6" width="88" height="88" rx="18" fill="#fff" stroke="#1f1d1a" stroke-width="8"/>' +
  '<circle cx="30" cy="30" r="9" fill="#a8322d"/><circle cx="50" cy="50" r="9"/><circle cx="70" cy="70" r="9"/>';
const RED_DOT = '<circle cx="80" cy="20" r="19" fill="#e0362b" stroke="#fff" stroke-width="5"/>';
const icon = (inside) =>
  "data:image/svg+xml," +
  encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${inside}</svg>`);
export const ICON = icon(DOTS);
export const ICON_TURN = icon(DOTS + RED_DOT);
const SOUND_KEY = "umpire.sound";

/** The rooms that wait for this page's player: a turn frame of a running game (pure). */
export function waitingRooms(state) {
  return Object.values(state.rooms || {})
    .filter((room) => room.turn && room.frame && room.frame.state === "playing" && room.seat !== null && room.seat !== undefined)
    .map((room) => room.id);
}

/** Whether the sound is on (off unless the player turned it on). */
export function soundOn() {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

let context = null;

/** A short two-note tone (about a third of a second). */
export function beep() {
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return;
  context ||= new Audio();
  if (context.state === "suspended") context.resume().catch(() => {});
  const now = context.currentTime;
  [[660, 0], [880, 0.14]].forEach(([frequency, at]) => {
    const tone = context.createOscillator();
    const gain = context.createGain();
    tone.type = "sine";
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(0.2, now + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.16);
    tone.connect(gain).connect(context.destination);
    tone.start(now + at);
    tone.stop(now + at + 0.18);
  });
}

let waitingBefore = new Set();

/** Bring the title, the icon and the sound button up to date (on every render). */
export function attend(ui) {
  const waiting = waitingRooms(ui.state);
  const title = waiting.length ? ui.t("titleYourTurn") : "umpire";
  if (document.title !== title) document.title = title;
  const link = document.getElementById("favicon");
  const href = waiting.length ? ICON_TURN : ICON;
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
  const fresh = waiting.some((id) => !waitingBefore.has(id));
  waitingBefore = new Set(waiting);
  if (fresh && soundOn()) beep();
  const button = document.getElementById("sound");
  if (button) {
    const on = soundOn();
    button.textContent = ui.t(on ? "soundOn" : "soundOff");
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.setAttribute("title", ui.t("soundLabel"));
  }
}

/** Wire the top bar's sound button (the choice is kept in localStorage). */
export function setupSound(ui) {
  const button = document.getElementById("sound");
  if (!button) return;
  button.addEventListener("click", () => {
    const on = !soundOn();
    try {
      localStorage.setItem(SOUND_KEY, on ? "on" : "off");
    } catch {
      // a page without storage keeps the sound off
    }
    if (on) beep(); // a first tone says what it sounds like (and unlocks audio)
    attend(ui);
  });
}
