// How many people watch a table without a seat: an eye and "2" in the table's top bar, from the socket's frames.

import { h, loadStyles } from "./dom.js";
import { tn } from "./i18n.js";

loadStyles(new URL("./record.css", import.meta.url).href); // not awaited: the page shows before it is in

// Add the count to an open TableScreen's top bar (hidden while nobody watches).
export function showWatching(screen) {
  const count = h("span", { class: "n" });
  const badge = h("span", { class: "watching-count", role: "status", hidden: true }, eye(), count);
  const bar = screen.el.querySelector(".topbar");
  if (bar) bar.insertBefore(badge, screen.conn && screen.conn.parentNode === bar ? screen.conn : null);
  screen.socket.handlers.onWatching = (n) => {
    badge.hidden = !n;
    badge.dataset.n = String(n);
    count.textContent = n ? String(n) : "";
    const label = tn("watching_n", n);
    badge.title = label;
    badge.setAttribute("aria-label", label);
  };
  return badge;
}

// An eye drawn in SVG (the 👁 emoji is missing from some phones' fonts).
function eye() {
  const span = h("span", { class: "eye", "aria-hidden": "true" });
  span.innerHTML = '<svg viewBox="0 0 24 24" width="16" height="16"><path d="M12 5C6.5 5 2.7 9.2 1.5 12c1.2 2.8 5 7 10.5 7s9.3-4.2 10.5-7C21.3 9.2 17.5 5 12 5zm0 11.5a4.5 4.5 0 110-9 4.5 4.5 0 010 9zm0-2.3a2.2 2.2 0 100-4.4 2.2 2.2 0 000 4.4z"/></svg>';
  return span;
}
