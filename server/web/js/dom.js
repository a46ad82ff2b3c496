// A tiny DOM builder. Text is always set with textContent and attributes with
// setAttribute, so a name or a chat line can never become markup.

const SVG_NS = "http://www.w3.org/2000/svg";
const SVG_TAGS = new Set(["svg", "rect", "circle", "text", "g", "path", "title", "line"]);

/** h("button", {class: "x", onclick: fn}, "text", child, [more]) -> element. */
export function h(tag, attrs = {}, ...children) {
  const el = SVG_TAGS.has(tag) ? document.createElementNS(SVG_NS, tag) : document.createElement(tag);
  if (attrs && attrs.id && !attrs["data-key"]) attrs = { ...attrs, "data-key": attrs.id };
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") listen(el, key.slice(2), value);
    else if (key === "value" && "value" in el && !SVG_TAGS.has(tag)) el.value = value;
    else if (key === "checked" || key === "disabled" || key === "selected") el[key] = Boolean(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

// Each element's handlers by event type. The listener added once per type calls the
// handler of the table, so that a control kept through a redraw (keep(), below) runs
// the closures of the render that kept it, never those of the render that made it.
const HANDLERS = new WeakMap();

function listen(el, type, handler) {
  let table = HANDLERS.get(el);
  if (!table) HANDLERS.set(el, (table = {}));
  if (!(type in table)) el.addEventListener(type, (event) => { const current = HANDLERS.get(el)[type]; if (current) current(event); });
  table[type] = handler;
}

/** Put `old` (a form control the last render made) back in place of `fresh` (the one
 * this render made for it) when the two are the same control: the same markup, value
 * and checked state. The control keeps what a redraw cannot rebuild: the caret, the
 * selected text, a composition under way (a person who selected "4" to type "3" over
 * it typed "43" after the lobby's list refreshed). It takes `fresh`'s handlers.
 * Returns whether it was kept. */
export function keep(old, fresh) {
  if (old === fresh || old.tagName !== fresh.tagName || old.outerHTML !== fresh.outerHTML) return false;
  if (old.value !== fresh.value || old.checked !== fresh.checked) return false;
  const table = HANDLERS.get(old) || {};
  for (const type of Object.keys(table)) table[type] = null;
  for (const [type, handler] of Object.entries(HANDLERS.get(fresh) || {})) listen(old, type, handler);
  fresh.replaceWith(old);
  return true;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace the children of `el` with `children`. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
}
