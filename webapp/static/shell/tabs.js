// The home screen's tabs: Tables (new game and the open tables), History (finished games) and Leaderboard.
// The chosen tab is kept in the address (?tab=), so coming back from a table or a replay lands on it.

import { h, loadStyles } from "./dom.js";
import { t } from "./i18n.js";
import { historyPanel } from "./history.js";
import { leaderboardPanel } from "./leaderboard.js";

loadStyles(new URL("./record.css", import.meta.url).href); // not awaited: the page shows before it is in

const TABS = ["tables", "history", "leaderboard"];

export function homeTabs(app, tablesPanel) {
  const asked = new URLSearchParams(location.search).get("tab");
  let current = TABS.includes(asked) ? asked : "tables";
  const panels = {
    tables: () => tablesPanel,
    history: () => historyPanel(app),
    leaderboard: () => leaderboardPanel(app),
  };
  const built = {};
  const buttons = {};
  const body = h("div", { class: "tab-panels" });
  const bar = h("div", { class: "tabs", role: "tablist" }, TABS.map((name) => {
    buttons[name] = h("button", {
      class: "tab", type: "button", role: "tab", id: `tab-${name}`, dataset: { tab: name },
      "aria-controls": `panel-${name}`, text: t(`tab_${name}`), onclick: () => select(name, true),
    });
    return buttons[name];
  }));
  const select = (name, remember) => {
    current = name;
    for (const tab of TABS) {
      buttons[tab].setAttribute("aria-selected", String(tab === name));
      buttons[tab].classList.toggle("active", tab === name);
      if (built[tab]) built[tab].hidden = tab !== name;
    }
    if (!built[name]) {
      built[name] = h("div", { class: `tab-panel panel-${name}`, id: `panel-${name}`, role: "tabpanel",
        "aria-labelledby": `tab-${name}` }, panels[name]());
      body.append(built[name]);
    }
    if (remember) history.replaceState(null, "", app.urlWith({ tab: name === "tables" ? null : name }));
  };
  select(current, false);
  return h("div", { class: "home-tabs" }, bar, body);
}
