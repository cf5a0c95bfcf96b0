// The server contract: JSON over HTTP with "Authorization: tma <initData>", and one WebSocket per open table
// that resumes from the last seq it saw, detects gaps and resyncs. initData ages (the server takes it for a day),
// so the server also hands out a session token of its own (each /api answer's X-Cardroom-Session header, each
// welcome's ``session``): the latest is kept here and in sessionStorage and sent along, on every /api call and
// in every hello, so a table left open for days still gets back in; a refused sign-in drops it.

const SESSION_KEY = "cardroom.session";
const SESSION_HEADER = "X-Cardroom-Session";
let session = readSession();

function readSession() {
  try {
    return sessionStorage.getItem(SESSION_KEY) || null;
  } catch {
    return null;
  }
}

// The latest session token the server handed out, or null.
export function currentSession() {
  return session;
}

// Keep ``token`` (a fresh one from the server) as the session; null forgets it.
export function keepSession(token) {
  session = token || null;
  try {
    if (session) sessionStorage.setItem(SESSION_KEY, session);
    else sessionStorage.removeItem(SESSION_KEY);
  } catch {
    // private mode: the token lives as long as the page
  }
}

// ``message`` is the server's sentence in the reader's language, or "" when there is none (the network failed),
// so the page can say its own ``err.message || t("error_generic")``; ``code`` is for the code, never for people.
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || "");
    this.status = status;
    this.code = code;
  }
}

export class Api {
  constructor(getInitData) {
    this.getInitData = getInitData;
  }

  async request(method, path, body) {
    const headers = { Accept: "application/json" };
    const auth = this.getInitData();
    if (auth) headers.Authorization = `tma ${auth}`;
    if (session) headers[SESSION_HEADER] = session;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (err) {
      throw new ApiError(0, "network", "");
    }
    const fresh = response.headers.get(SESSION_HEADER);
    if (fresh) keepSession(fresh);
    let data = null;
    try { data = await response.json(); } catch { data = null; }
    if (response.status === 401) keepSession(null);
    if (!response.ok) {
      throw new ApiError(response.status, (data && data.code) || "http_error", (data && data.message) || "");
    }
    return data;
  }

  get(path) { return this.request("GET", path); }
  post(path, body = {}) { return this.request("POST", path, body); }
}

// Whether the table is in front of the person: the page is visible and, inside Telegram, the Mini App is not put
// aside (Bot API 8.0's activated/deactivated). The server counts an open socket as there until told otherwise.
function inFront(tgActive) {
  return document.visibilityState === "visible" && tgActive;
}

// a connection is checked after PING_EVERY ms with nothing heard: a ping the server answers at once (with the table's
// seq); nothing at all heard for PONG_WAIT ms after it and the connection counts as dead, so a page whose network
// went away says so and reconnects within about 7 s
const PING_EVERY = 2500;
const PONG_WAIT = 3000;
// redirects without a welcome, counted across failed tries until a welcome, before the page asks its own address to
// serve it where it is (hello's ``stay``): an owner whose address is wrong cannot bounce it for ever
const MAX_HOPS = 3;
const RETRY_CAP = 1500; // ms between tries at most, however long the server is away
// every wait before a new try is drawn at random between half of it and all of it, so a thousand pages that lost
// their process at the same moment do not all knock at the same instant (the first try after a restart too)
const jittered = (ms) => ms / 2 + Math.random() * (ms / 2);
const RESTART_SPREAD = 300; // ms over which the pages of a process that stopped come back
// close code 1012 (service restart): the process is stopping (a deploy) and has handed its tables over; the page's own
// address, which the load balancer sends to a live process, is asked again at once
const RESTART = 1012;
const QUIET_FOR = 1000; // ms a reconnection after a restart may take before the page says the connection is lost
// a move sent just before the connection dropped is kept this long (ms) and sent again, with its seq, once the table
// welcomes the page back at that same seq (the server refuses a move made twice, so it can never count double);
// past it, or with the table moved on meanwhile, it is dropped and the welcome's view says what happened
const RESEND_WITHIN = 15000;

// handlers: onView(view, events, kind), onRefused(frame), onError(frame), onStatus("open"|"closed"),
// onWatching(n): how many people have the table open without a seat (welcome, update and watching frames)
export class TableSocket {
  constructor(tableId, getInitData, handlers) {
    this.tableId = tableId;
    this.getInitData = getInitData;
    this.handlers = handlers;
    this.seq = null;
    this.ws = null;
    // Several processes: the table lives on one (its owner), and another sends the socket there with a redirect
    // frame naming the owner's address. ``owner`` is that address until a connection to it fails (the owner died),
    // when the socket comes back to the page's own address, whose process then takes the table.
    this.owner = null;
    this.hops = 0;
    this.welcomed = false;
    this.quiet = null; // while a restart's reconnection is under way: the timer that says the connection is lost
    this.closed = false;
    this.retry = 0;
    this.refs = 0;
    this.pending = new Map();
    this.inflight = new Map(); // ref -> {frame, at}: the moves among ``pending``
    this.unsent = new Map(); // ref -> {frame, resolve, at}: moves in flight when the connection dropped
    this.lastHeard = Date.now();
    this.pingedAt = null; // when the last ping left, while nothing has been heard since
    this.timer = setInterval(() => this.tick(), 1000);
    this.tg = (window.Telegram && window.Telegram.WebApp) || null;
    this.tgActive = !(this.tg && this.tg.isActive === false);
    this.onVisible = () => {
      if (document.visibilityState === "visible") this.ensure();
      this.reportPresence();
    };
    this.onActivated = () => { this.tgActive = true; this.reportPresence(); };
    this.onDeactivated = () => { this.tgActive = false; this.reportPresence(); };
    document.addEventListener("visibilitychange", this.onVisible);
    if (this.tg && typeof this.tg.onEvent === "function") {
      try {
        this.tg.onEvent("activated", this.onActivated);
        this.tg.onEvent("deactivated", this.onDeactivated);
      } catch { /* an older Telegram: visibility alone */ }
    }
    this.connect();
  }

  url() {
    const path = `/ws/${encodeURIComponent(this.tableId)}`;
    if (this.owner) return this.owner.replace(/^http/, "ws") + path;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}${path}`;
  }

  connect() {
    if (this.closed) return;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.owner = null; // an address the browser will not open: back to the page's own
      ws = new WebSocket(this.url());
    }
    this.ws = ws;
    this.welcomed = false;
    this.redirect = null;
    ws.onopen = () => {
      this.lastHeard = Date.now();
      this.pingedAt = null;
      const stay = !this.owner && this.hops >= MAX_HOPS;
      ws.send(JSON.stringify({ type: "hello", init_data: this.getInitData(), last_seq: this.seq, session, stay }));
    };
    ws.onmessage = (msg) => {
      this.lastHeard = Date.now();
      this.pingedAt = null;
      let frame;
      try { frame = JSON.parse(msg.data); } catch { return; }
      this.receive(frame);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.failPending();
      if (this.closed) return;
      if (this.redirect && this.hops < MAX_HOPS) { // the table lives elsewhere: go there at once
        this.owner = this.redirect;
        this.hops += 1;
        this.connect();
        return;
      }
      const restarting = Boolean(event) && event.code === RESTART;
      // the owner is gone, or stopping: back to the page's own address
      if (restarting || (this.owner && !this.welcomed)) this.owner = null;
      // the hops are kept until a welcome: past MAX_HOPS the page's own address is asked to serve it
      // a restart's reconnection is said only if it takes longer than QUIET_FOR or its first try fails
      if (!restarting) this.lost();
      else if (!this.quiet) this.quiet = setTimeout(() => this.lost(), QUIET_FOR);
      // capped low: a server back is seen within 2 s; a restart's first try is at once, spread over RESTART_SPREAD
      const delay = restarting && this.retry === 0 ? Math.random() * RESTART_SPREAD
        : jittered(Math.min(RETRY_CAP, 250 * 2 ** this.retry));
      this.retry += 1;
      this.reconnectTimer = setTimeout(() => this.connect(), delay);
    };
  }

  // Say the connection is lost, unless it is back by now.
  lost() {
    clearTimeout(this.quiet);
    this.quiet = null;
    if (this.closed || (this.ws && this.welcomed)) return;
    this.handlers.onStatus && this.handlers.onStatus("closed");
  }

  ensure() {
    if (!this.closed && !this.ws) {
      clearTimeout(this.reconnectTimer);
      this.retry = 0;
      this.connect();
    }
  }

  tick() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    if (this.pingedAt !== null && now - this.pingedAt > PONG_WAIT) {
      // nothing heard since a ping: the connection is dead, whatever the browser thinks; its close may take minutes
      ws.close();
      ws.onclose(null);
      return;
    }
    if (this.pingedAt === null && now - this.lastHeard > PING_EVERY) {
      this.pingedAt = now;
      ws.send(JSON.stringify({ type: "ping", t: now }));
    }
  }

  receive(frame) {
    if (typeof frame.watching === "number" && this.handlers.onWatching) this.handlers.onWatching(frame.watching);
    switch (frame.type) {
      case "welcome":
        clearTimeout(this.quiet);
        this.quiet = null;
        this.retry = 0;
        this.hops = 0;
        this.welcomed = true;
        if (frame.session) keepSession(frame.session);
        this.seq = frame.seq;
        if (!inFront(this.tgActive)) this.reportPresence(); // a socket counts as in front until told otherwise
        this.handlers.onStatus && this.handlers.onStatus("open");
        this.handlers.onView(frame.view, [], "welcome");
        this.resend(frame.seq);
        break;
      case "update":
        // the mover's own update carries its move's ref: it is the move's acknowledgement
        if (frame.ref !== undefined) this.settle(frame.ref, { ok: true, seq: frame.seq });
        // lobby changes keep the seq; only moves advance it, so an older seq is all that can be skipped
        if (this.seq !== null && frame.seq < this.seq) break;
        if (this.seq !== null && frame.seq > this.seq + 1) {
          this.send({ type: "resync" }); // a gap: the welcome brings the fresh view
          break;
        }
        this.seq = frame.seq;
        this.handlers.onView(frame.view, frame.events || [], frame.kind);
        break;
      case "ack":
        this.settle(frame.ref, { ok: true, seq: frame.seq });
        break;
      case "refused":
        this.settle(frame.ref, { ok: false, code: frame.code, message: frame.message });
        this.handlers.onRefused && this.handlers.onRefused(frame);
        break;
      case "pong":
        // the table moved on while this page heard nothing of it (an update lost with a lagging socket): resync
        if (typeof frame.seq === "number" && this.seq !== null && frame.seq > this.seq) this.send({ type: "resync" });
        break;
      case "redirect":
        if (typeof frame.url === "string" && /^https?:\/\//.test(frame.url)) this.redirect = frame.url;
        break;
      case "error":
        if (frame.code === "unauthorized") keepSession(null);
        this.handlers.onError && this.handlers.onError(frame);
        break;
      default:
        break;
    }
  }

  // Tell the server whether the table is in front of the person (the bot writes turn messages only when not).
  reportPresence() {
    this.send({ type: "presence", active: inFront(this.tgActive) });
  }

  send(frame) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  act(action, seq) {
    return this.request({ type: "act", seq, action });
  }

  settle(ref, result) {
    const resolve = this.pending.get(ref);
    if (resolve) {
      this.pending.delete(ref);
      this.inflight.delete(ref);
      resolve(result);
    }
  }

  // Send an intent; resolves with {ok, seq} or {ok:false, code, message} (a move in flight when the connection
  // drops is sent again once the table welcomes the page back, see ``failPending``).
  request(frame) {
    this.refs += 1;
    const ref = `r${this.refs}`;
    return new Promise((resolve) => {
      if (!this.send({ ...frame, ref })) {
        resolve({ ok: false, code: "offline", message: "" });
        return;
      }
      this.pending.set(ref, resolve);
      if (frame.type === "act") this.inflight.set(ref, { frame: { ...frame, ref }, at: Date.now() });
    });
  }

  // The connection dropped: a move in flight waits to be sent again (``resend``); anything else fails now.
  failPending() {
    const now = Date.now();
    for (const [ref, resolve] of this.pending) {
      const move = this.inflight.get(ref);
      if (!this.closed && move && now - move.at < RESEND_WITHIN) {
        this.unsent.set(ref, { ...move, resolve });
        setTimeout(() => this.expire(ref), RESEND_WITHIN - (now - move.at)); // not back in time: it fails then
      } else {
        resolve({ ok: false, code: "offline", message: "" });
      }
    }
    this.pending.clear();
    this.inflight.clear();
  }

  expire(ref) {
    const move = this.unsent.get(ref);
    if (!move) return;
    this.unsent.delete(ref);
    move.resolve({ ok: false, code: "offline", message: "" });
  }

  // Welcomed back at ``seq``: the moves kept since the drop that were made at that seq go again; the others are
  // over (the welcome's view shows the table as it is now).
  resend(seq) {
    const now = Date.now();
    for (const [ref, move] of this.unsent) {
      if (move.frame.seq === seq && now - move.at < RESEND_WITHIN && this.send(move.frame)) {
        this.pending.set(ref, move.resolve);
        this.inflight.set(ref, move);
      } else {
        move.resolve({ ok: false, code: "moved_on", message: "" });
      }
    }
    this.unsent.clear();
  }

  close() {
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.quiet);
    document.removeEventListener("visibilitychange", this.onVisible);
    if (this.tg && typeof this.tg.offEvent === "function") {
      try {
        this.tg.offEvent("activated", this.onActivated);
        this.tg.offEvent("deactivated", this.onDeactivated);
      } catch { /* nothing to undo */ }
    }
    this.failPending();
    for (const move of this.unsent.values()) move.resolve({ ok: false, code: "offline", message: "" });
    this.unsent.clear();
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
  }
}
