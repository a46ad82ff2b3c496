// The websocket: connect, say hello with the stored token, resume, and reconnect by itself
// with a growing delay after any loss (network or server restart). A quiet connection is
// pinged every 15 s; one silent for 40 s is taken for dead (a network that vanished
// without closing it) and replaced.

const PING_EVERY = 15000;
const DEAD_AFTER = 40000;

export class Connection {
  constructor(url, { onFrame, onStatus, hello }) {
    this.url = url;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.hello = hello; // () => the first message: hello, or login
    this.ws = null;
    this.delay = 250;
    this.queue = [];
    this.ready = false;
    this.lastHeard = Date.now();
    this.stopped = false;
    this.timer = setInterval(() => this.heartbeat(), PING_EVERY);
  }

  /** Close for good (log out, a failed login): no reconnection, nothing more sent. */
  stop() {
    this.stopped = true;
    clearInterval(this.timer);
    const ws = this.ws;
    this.ws = null;
    this.ready = false;
    this.queue = [];
    if (ws) ws.close();
  }

  heartbeat() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN || !this.ready) return;
    if (Date.now() - this.lastHeard > DEAD_AFTER) {
      this.lost(ws); // do not wait for a closing handshake that may never come
      ws.close();
    } else ws.send(JSON.stringify({ type: "ping", ref: "heartbeat" }));
  }

  lost(ws) {
    if (this.ws !== ws || this.stopped) return;
    this.ws = null;
    this.ready = false;
    this.onStatus(false);
    setTimeout(() => this.open(), this.delay);
    this.delay = Math.min(this.delay * 2, 3000);
  }

  open() {
    if (this.stopped) return;
    const ws = new WebSocket(this.url);
    this.lastHeard = Date.now();
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.delay = 250;
      ws.send(JSON.stringify(this.hello()));
    });
    ws.addEventListener("message", (msg) => {
      if (this.ws !== ws) return; // a socket given up for dead
      this.lastHeard = Date.now();
      let frame;
      try {
        frame = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (frame.type === "pong" && frame.ref === "heartbeat") return;
      if (frame.type === "welcome") {
        this.ready = true;
        this.onStatus(true);
        this.onFrame(frame);
        for (const queued of this.queue.splice(0)) ws.send(JSON.stringify(queued));
        return;
      }
      this.onFrame(frame);
    });
    ws.addEventListener("close", () => this.lost(ws));
  }

  /** Send a message now, or once connected. */
  send(message) {
    if (this.ready && this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
    else this.queue.push(message);
  }
}
