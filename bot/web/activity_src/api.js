// The Activity's API, same-origin through Discord's proxy: addresses relative to the page's own
// (/activity/ here, / at the root of the proxy), the session in a header on every call.

const root = location.pathname.replace(/\/?$/, "/");
export const base = root + "api/";

export class ApiError extends Error {
  constructor(status, error, retryAfter) {
    super((error && error.message) || "");
    this.status = status;
    this.code = (error && error.code) || "";
    this.retryAfter = retryAfter || 1; // seconds, when the server asked to slow down (429)
  }
}

export class Api {
  constructor() {
    this.session = null;
    this.language = "en";
    this.renew = null; // () => Promise<void>: signs in again once the session has ended
  }

  url(path, extra) {
    const query = new URLSearchParams(extra || {});
    query.set("locale", this.language);
    return base + path + "?" + query.toString();
  }

  async config() {
    return answer(await fetch(this.url("config")));
  }

  async signIn(code, instanceId) {
    const body = { code };
    if (instanceId) body.instance_id = instanceId;
    const signed = await answer(await fetch(this.url("token"), {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    }));
    this.session = signed.session;
    return signed;
  }

  // A call with the session; a session that has ended is renewed once and the call made again.
  async call(method, path, body, renewed) {
    const options = { method, headers: { Authorization: "Bearer " + this.session } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    try {
      return await answer(await fetch(this.url(path), options));
    } catch (error) {
      if (error.status === 401 && this.renew && !renewed) {
        await this.renew();
        return this.call(method, path, body, true);
      }
      throw error;
    }
  }

  // A move, sent again after a dropped connection (or when asked to slow down) with the same
  // request id: the server plays it once and answers "again" to a repeat, so a move is never lost
  // nor doubled.
  async move(tableId, seen, action) {
    const body = { seen, action, request: requestId() };
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.call("POST", "table/" + tableId + "/move", body);
      } catch (error) {
        const slowed = error instanceof ApiError && error.status === 429;
        if ((error instanceof ApiError && !slowed) || attempt >= 4) throw error;
        await pause(slowed ? error.retryAfter * 1000 : 250 * 2 ** attempt);
      }
    }
  }

  events(tableId, version) {
    return this.url("table/" + tableId + "/events", { session: this.session, v: String(version) });
  }

  picture(tableId, name, version) {
    return this.url("table/" + tableId + "/" + name, { session: this.session, v: String(version) });
  }
}

async function answer(response) {
  let data = {};
  try {
    data = await response.json();
  } catch (error) {
    if (response.ok) throw error;
  }
  if (!response.ok) throw new ApiError(response.status, data.error, Number(response.headers.get("Retry-After")));
  return data;
}

export function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function requestId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
}
