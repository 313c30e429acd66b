// A tiny DOM helper: h("div.cls#id", {attrs, on: {click}}, children…). No framework.

export function h(tag, attrs = null, ...children) {
  const [name, ...rest] = tag.split(/(?=[.#])/);
  const el = document.createElement(name || "div");
  for (const part of rest) {
    if (part.startsWith(".")) el.classList.add(part.slice(1));
    else if (part.startsWith("#")) el.id = part.slice(1);
  }
  if (attrs) setAttrs(el, attrs);
  append(el, children);
  return el;
}

export function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "on") {
      for (const [event, handler] of Object.entries(value)) el.addEventListener(event, handler);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, v);
    } else if (key in el && typeof value !== "string") {
      el[key] = value;
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, value);
    }
  }
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** Make `host`'s children the ones given, changing only what differs: a child equal to the one in
 * its place stays as it is (isEqualNode), an element of the same tag and the same `data-id` (none:
 * the same) is patched in place (its attributes, then its children the same way), anything else
 * is replaced (a new play is a new element: its entrance plays again). What did not change is
 * not styled, laid out or painted again, and keeps its focus and its scroll. A child of the page
 * marked `data-keep` (a slot the page owns, such as my hand) is left where it is, after the
 * others. For trees without handlers: a handler is not compared, and the old one stays. */
export function patch(host, ...children) {
  const fresh = [];
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    fresh.push(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  patchChildren(host, fresh);
  return host;
}

function patchChildren(el, fresh) {
  const kept = [...el.childNodes].filter((node) => node.dataset?.keep);
  const old = [...el.childNodes].filter((node) => !node.dataset?.keep);
  fresh.forEach((next, i) => {
    const current = old[i];
    if (!current) el.insertBefore(next, kept[0] ?? null);
    else if (!patchNode(current, next)) el.replaceChild(next, current);
  });
  for (const extra of old.slice(fresh.length)) extra.remove();
}

/** Turn `current` into `next` in place; false when it cannot be (another kind of node). */
function patchNode(current, next) {
  if (current.isEqualNode(next)) return true;
  if (current.nodeType !== next.nodeType || current.nodeName !== next.nodeName) return false;
  if (current.dataset?.id !== next.dataset?.id) return false;
  if (current.nodeType === Node.TEXT_NODE) {
    current.nodeValue = next.nodeValue;
    return true;
  }
  if (current.nodeType !== Node.ELEMENT_NODE) return false;
  for (const { name } of [...current.attributes]) {
    if (!next.hasAttribute(name)) current.removeAttribute(name);
  }
  for (const { name, value } of next.attributes) {
    if (current.getAttribute(name) !== value) current.setAttribute(name, value);
  }
  patchChildren(current, [...next.childNodes]);
  return true;
}

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];
