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
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "value" && "value" in el && !SVG_TAGS.has(tag)) el.value = value;
    else if (key === "checked" || key === "disabled" || key === "selected") el[key] = Boolean(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
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
