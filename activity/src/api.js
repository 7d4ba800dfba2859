// The Activity's backend, reached through Discord's proxy: every request of the page goes to the same origin,
// under /.proxy/ when the page runs in Discord (https://<application>.discordsays.com), else beside the page
// (the web companion's own /activity/ pages, as in the end-to-end test).

/** The base every API path is appended to, for a page at `location`. */
export function apiBase(location) {
  if (/(^|\.)discordsays\.com$/.test(location.hostname)) return '/.proxy/';
  return new URL('./', location.href).pathname;
}

/** A refusal of the backend: `key` names it (activity.error.*), `message` says it in the member's language. */
export class Refusal extends Error {
  constructor(status, key, message) {
    super(message);
    this.status = status;
    this.key = key;
  }
}

export class Api {
  constructor(base, fetcher = (...args) => fetch(...args)) {
    this.base = base;
    this.fetch = fetcher;
    this.ticket = null;
    // Where the API of the member's server is, after sign-in: `api/`, or `shard-N/api/` when several
    // processes run the bot's servers (the backend says which).
    this.route = 'api/';
  }

  headers(json) {
    const headers = {};
    if (json) headers['Content-Type'] = 'application/json';
    if (this.ticket) headers.Authorization = `Bearer ${this.ticket}`;
    return headers;
  }

  async request(method, path, body) {
    const response = await this.fetch(this.base + path, {
      method,
      headers: this.headers(body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (!response.ok) {
      throw new Refusal(response.status, data?.error ?? 'activity.error.internal', data?.message ?? `HTTP ${response.status}`);
    }
    return data;
  }

  post(path, body) {
    return this.request('POST', path, body ?? {});
  }

  get(path) {
    return this.request('GET', path);
  }
}

/**
 * Reads Server-Sent Events from a text stream: feed it chunks, it calls `onEvent(name, data)` per event.
 * (The page reads the live board with fetch, not EventSource, so that the ticket travels in a header and never
 * in a URL that a proxy might log.)
 */
export class EventParser {
  constructor(onEvent) {
    this.onEvent = onEvent;
    this.buffer = '';
    this.name = 'message';
    this.data = [];
  }

  feed(chunk) {
    this.buffer += chunk;
    let end;
    while ((end = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, end);
      const newline = this.buffer.startsWith('\r\n', end) ? 2 : 1;
      this.buffer = this.buffer.slice(end + newline);
      this.line(line);
    }
  }

  line(line) {
    if (line === '') {
      if (this.data.length) this.onEvent(this.name, this.data.join('\n'));
      this.name = 'message';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.name = value;
    else if (field === 'data') this.data.push(value);
  }
}

/** Follows the live board until `signal` aborts or the stream ends; resolves with how it ended. */
export async function follow(api, onEvent, signal) {
  const response = await api.fetch(api.base + api.route + 'live', { headers: api.headers(false), signal, cache: 'no-store' });
  if (!response.ok) {
    let data = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    throw new Refusal(response.status, data?.error ?? 'activity.error.internal', data?.message ?? `HTTP ${response.status}`);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const parser = new EventParser(onEvent);
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return 'ended';
    parser.feed(decoder.decode(value, { stream: true }));
  }
}
