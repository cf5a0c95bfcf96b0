// How many people watch a table without a seat: "👁 2" in the table's top bar, from the socket's frames.

import { h, loadStyles } from "./dom.js";
import { tn } from "./i18n.js";

loadStyles(new URL("./record.css", import.meta.url).href); // not awaited: the page shows before it is in

// Add the count to an open TableScreen's top bar (hidden while nobody watches).
export function showWatching(screen) {
  const badge = h("span", { class: "watching-count", role: "status", hidden: true });
  const bar = screen.el.querySelector(".topbar");
  if (bar) bar.insertBefore(badge, screen.conn && screen.conn.parentNode === bar ? screen.conn : null);
  screen.socket.handlers.onWatching = (n) => {
    badge.hidden = !n;
    badge.dataset.n = String(n);
    badge.textContent = n ? `👁 ${n}` : "";
    const label = tn("watching_n", n);
    badge.title = label;
    badge.setAttribute("aria-label", label);
  };
  return badge;
}
