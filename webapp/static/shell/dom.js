// Tiny DOM helpers: build elements without innerHTML, so names from other players stay text.

export function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

let toastTimer = 0;

// A short message. With ``over``, the button it answers (on screen), the message stands over that button, where
// it covers neither the screen's title nor another button; otherwise under the top bar.
export function toast(message, kind = "info", over = null) {
  let box = document.getElementById("toast");
  if (!box) {
    box = h("div", { id: "toast", role: "status", "aria-live": "polite" });
    document.body.append(box);
  }
  box.textContent = message;
  const r = over && over.isConnected ? over.getBoundingClientRect() : null;
  const onScreen = r && r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
  box.style.top = onScreen ? `${r.top}px` : "";
  box.style.left = onScreen ? `${r.left + r.width / 2}px` : "";
  box.style.width = onScreen ? `${r.width}px` : "";
  box.style.minHeight = onScreen ? `${r.height}px` : "";
  box.className = `toast show ${kind}${onScreen ? " over" : ""}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.classList.remove("show"); }, kind === "error" ? 4000 : 2500);
}

export function formatClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// Load a table's own stylesheet once; resolves when it is in (or failed), so the first render is styled.
export function loadStyles(href) {
  return new Promise((resolve) => {
    if (document.querySelector(`link[href="${href}"]`)) { resolve(); return; }
    const link = h("link", { rel: "stylesheet", href });
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve);
    document.head.append(link);
  });
}
