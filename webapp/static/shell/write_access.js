// Turn messages for someone the bot cannot write to yet: the first time they open a table they sit at (a lobby or a
// game, however they came to it: the group's Join, an invitation, the page), the page says why in one line and asks
// Telegram for write access; Telegram's yes is told to the server, which lets the bot message them from their next
// turn. Asked once per device and person, whatever the answer.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import * as tg from "./tg.js";

const PATH = "/api/me/write_access";
const ASKED_KEY = "cardroom.write_access_asked";

let looking = false; // the server is being asked, or was on this page: once per page at most

function askedKey() {
  return `${ASKED_KEY}.${tg.userId()}`;
}

function askedBefore() {
  try {
    return Boolean(localStorage.getItem(askedKey()));
  } catch {
    return false; // nowhere to remember it: once per page
  }
}

function rememberAsked() {
  try {
    localStorage.setItem(askedKey(), "1");
  } catch {
    // once per page, then
  }
}

// Whether a view is of a table where the bot will want to call this person to their turn: one they sit at, in its
// lobby or being played; a guided first game and the deal of the day are played at once, against AI players.
function seatedAtLiveTable(view) {
  const table = view.table;
  const seated = view.you !== null && view.you !== undefined;
  return seated && (table.status === "lobby" || table.status === "playing") && !table.lesson && !table.daily;
}

// Called with each view of the open table (``screen`` a TableScreen): asks at most once, when it should.
export async function askForTurnMessages(screen, view) {
  if (looking || !seatedAtLiveTable(view) || !tg.mayAskWriteAccess() || askedBefore()) return;
  looking = true;
  let reach;
  try {
    reach = await screen.app.api.get(PATH);
  } catch {
    looking = false; // asked again with the next view
    return;
  }
  if (reach.can_message || !screen.el.isConnected) return;
  rememberAsked();
  // the table's note shape, tinted as a request rather than the warning a stand-in move is
  const line = h("p", { class: "standin-note write-access-note", role: "status", text: t("allow_messages_why"),
    style: "background: color-mix(in srgb, var(--accent) 14%, var(--bg))" });
  screen.el.insertBefore(line, screen.body);
  const asked = tg.askWriteAccess((allowed) => {
    line.remove();
    // the bot also hears Telegram's own service message about it; a failed report is left to that
    if (allowed) screen.app.api.post(PATH, { status: "allowed" }).catch(() => {});
  });
  if (!asked) line.remove();
}
