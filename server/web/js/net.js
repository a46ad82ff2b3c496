// The websocket: connect, say hello with the stored token, resume, and reconnect by itself
// with a growing delay after any loss (network or server restart).

export class Connection {
  constructor(url, { onFrame, onStatus, hello }) {
    this.url = url;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.hello = hello; // () => hello message
    this.ws = null;
    this.delay = 250;
    this.queue = [];
    this.ready = false;
  }

  open() {
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.delay = 250;
      ws.send(JSON.stringify(this.hello()));
    });
    ws.addEventListener("message", (msg) => {
      let frame;
      try {
        frame = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (frame.type === "welcome") {
        this.ready = true;
        this.onStatus(true);
        this.onFrame(frame);
        for (const queued of this.queue.splice(0)) ws.send(JSON.stringify(queued));
        return;
      }
      this.onFrame(frame);
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ready = false;
      this.onStatus(false);
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 3000);
    });
  }

  /** Send a message now, or once connected. */
  send(message) {
    if (this.ready && this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
    else this.queue.push(message);
  }
}
