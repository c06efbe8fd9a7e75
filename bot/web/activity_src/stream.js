// The table's live stream (server-sent events): a state at each version, whoever moved. The
// browser reconnects by itself after a drop and says where it was (Last-Event-ID); a stream the
// server refused or closed is opened again here, from the version last shown (v=), so every move
// made meanwhile arrives, once.

import { pause } from "./api.js";

export class Stream {
  constructor(api, tableId, hooks) {
    this.api = api;
    this.tableId = tableId;
    this.hooks = hooks; // {version(), state(data), lost(), back(), ended(), refused(code)}
    this.source = null;
    this.stopped = false;
    this.failures = 0;
    this.open();
  }

  open() {
    if (this.stopped) return;
    const source = new EventSource(this.api.events(this.tableId, this.hooks.version()));
    this.source = source;
    source.addEventListener("open", () => {
      this.failures = 0;
      this.hooks.back();
    });
    source.addEventListener("state", (event) => this.hooks.state(JSON.parse(event.data)));
    source.addEventListener("end", () => {
      this.close();
      this.hooks.ended();
    });
    source.addEventListener("expired", () => {
      source.close();
      this.renewed();
    });
    source.addEventListener("refused", (event) => {
      this.close();
      this.hooks.refused(JSON.parse(event.data).code);
    });
    source.addEventListener("error", () => {
      if (this.source !== source || this.stopped) return;
      this.hooks.lost();
      if (source.readyState === EventSource.CLOSED) this.again(); // refused or failed: ours to retry
    });
  }

  async again() {
    this.failures += 1;
    await pause(Math.min(30000, 500 * 2 ** Math.min(this.failures, 6)));
    if (this.stopped) return;
    if (this.failures % 3 === 0 && this.api.renew) {
      try {
        await this.api.renew(); // a stream refused for an ended session opens with a new one
      } catch (error) {
        // signed in again at the next try
      }
    }
    this.open();
  }

  async renewed() {
    try {
      await this.api.renew();
    } catch (error) {
      this.hooks.lost();
    }
    this.open();
  }

  close() {
    this.stopped = true;
    if (this.source) this.source.close();
  }
}
