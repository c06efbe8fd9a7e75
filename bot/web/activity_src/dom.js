// A few lines of DOM building: every text goes in as text; only the server's HTML fragments,
// which it escapes itself (bot/web/markup.py), go in as HTML.

export function el(tag, attrs, children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "html") node.innerHTML = value;
    else if (key === "on") for (const [name, handler] of Object.entries(value)) node.addEventListener(name, handler);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children || []) if (child) node.appendChild(child);
  return node;
}

export function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
}
