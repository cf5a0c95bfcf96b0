// Bottom sheets: one at a time over the page, closed by their button, a tap outside or Escape.

import { h } from "./dom.js";
import { t } from "./i18n.js";

let open = null;

export function closeSheet() {
  if (open) open.close();
}

// A sheet titled ``title`` holding ``body`` (nodes); ``cls`` names it for styles and tests. Returns {el, close}.
export function openSheet(title, body, { cls = "", onClose = null } = {}) {
  closeSheet();
  const id = `sheet-${Math.random().toString(36).slice(2, 8)}`;
  const onKey = (ev) => { if (ev.key === "Escape") close(); };
  const close = () => {
    backdrop.remove();
    document.removeEventListener("keydown", onKey);
    if (open && open.el === backdrop) open = null;
    if (onClose) onClose();
  };
  const backdrop = h("div", { class: "sheet-backdrop", role: "dialog", "aria-modal": "true", "aria-labelledby": id,
    onclick: (ev) => { if (ev.target === backdrop) close(); } },
  h("div", { class: `sheet ${cls}`.trim() },
    h("div", { class: "sheet-head" },
      h("h2", { id, text: title }),
      h("button", { class: "icon-btn sheet-close", type: "button", "aria-label": t("close"), text: "×", onclick: close })),
    ...[body].flat()));
  document.addEventListener("keydown", onKey);
  document.body.append(backdrop);
  open = { el: backdrop, close };
  return open;
}
