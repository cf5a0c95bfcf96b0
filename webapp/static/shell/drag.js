// Drag to play: a card pulled from the hand follows the finger; let go over the felt and it is played, anywhere
// else and it glides back to its place. A movement shorter than a few px stays a tap. Pointer events, so a mouse,
// a pen and a finger all drag alike.

import { reducedMotion } from "./motion.js";

const THRESHOLD = 8; // px a finger may wander and still tap

const inside = (el, x, y) => {
  const r = el.getBoundingClientRect();
  return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
};

// Let cards of ``hand`` that ``canDrag(card)`` allows be dragged onto ``felt()`` (the drop zone, found at each
// drag since tables draw anew); ``drop(card, x, y)`` plays it, told where it was let go. Returns a function that
// stops listening.
export function dragToPlay(hand, felt, { canDrag, drop }) {
  let drag = null;

  const finish = () => {
    if (!drag) return;
    if (drag.zone) drag.zone.classList.remove("drop-here");
    drag = null;
  };

  // a drag is not also a tap: the click that ends it goes nowhere
  const swallowClick = () => {
    const stop = (ev) => { ev.stopPropagation(); ev.preventDefault(); };
    window.addEventListener("click", stop, true);
    setTimeout(() => window.removeEventListener("click", stop, true), 0);
  };

  const begin = (ev) => {
    const el = drag.card;
    const r = el.getBoundingClientRect();
    const ghost = el.cloneNode(true);
    ghost.classList.remove("selected");
    ghost.classList.add("dragging");
    Object.assign(ghost.style, { left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, transform: "none" });
    document.body.append(ghost);
    el.classList.add("lifted");
    drag.ghost = ghost;
    drag.rect = r;
    drag.zone = felt();
    move(ev);
  };

  const down = (ev) => {
    if (drag || (ev.pointerType === "mouse" && ev.button !== 0)) return;
    const el = ev.target.closest(".card[data-card]");
    if (!el || !hand.contains(el) || !canDrag(el.dataset.card)) return;
    drag = { card: el, name: el.dataset.card, id: ev.pointerId, x: ev.clientX, y: ev.clientY, ghost: null, zone: null };
  };

  const move = (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    const dx = ev.clientX - drag.x;
    const dy = ev.clientY - drag.y;
    if (!drag.ghost) {
      if (Math.hypot(dx, dy) < THRESHOLD) return;
      begin(ev);
      return;
    }
    ev.preventDefault();
    drag.ghost.style.transform = `translate(${dx}px, ${dy}px) rotate(${Math.max(-10, Math.min(10, dx / 12))}deg) scale(1.08)`;
    if (drag.zone) drag.zone.classList.toggle("drop-here", inside(drag.zone, ev.clientX, ev.clientY));
  };

  const up = (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    const { ghost, card, name, zone } = drag;
    finish();
    if (!ghost) return; // a tap: the card's own click handles it
    swallowClick();
    const back = () => {
      ghost.remove();
      card.classList.remove("lifted");
    };
    if (ev.type === "pointerup" && zone && zone.isConnected && inside(zone, ev.clientX, ev.clientY)) {
      back();
      drop(name, ev.clientX, ev.clientY);
      return;
    }
    if (reducedMotion()) {
      back();
      return;
    }
    ghost.animate([{ transform: ghost.style.transform }, { transform: "none" }], { duration: 180, easing: "ease-out" })
      .finished.then(back, back);
  };

  hand.addEventListener("pointerdown", down);
  window.addEventListener("pointermove", move, { passive: false });
  window.addEventListener("pointerup", up);
  window.addEventListener("pointercancel", up);
  return () => {
    hand.removeEventListener("pointerdown", down);
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", up);
    if (drag && drag.ghost) drag.ghost.remove();
    finish();
  };
}
