/**
 * What every request goes through: the credential (an OAuth token refreshed when it runs
 * out, or once when the API refuses it), a fresh Idempotency-Key on every POST that has
 * none (which is what lets a POST be tried again), 429 and 503 tried again after
 * `Retry-After`, and a refusal thrown as `ApiError`.
 */
import { randomUUID } from "node:crypto";

import { ApiError } from "./errors.js";
import type { Fetch, Sleep } from "./fetch.js";
import type { OAuthApp, Token } from "./oauth.js";

export const MAX_WAIT_MS = 60_000; // the longest wait between two tries (a longer Retry-After is cut to it)
// The IETF draft "The Idempotency-Key HTTP Header Field", as the API takes it: 1 to 255
// printable ASCII characters, no space at either end.
const IDEMPOTENCY_KEY = /^[!-~](?:[ -~]{0,253}[!-~])?$/;

/** The caller's own key as it is, or a fresh one (a UUID 4); a key the API would refuse (400) is refused here. */
export function idempotencyKey(given?: string): string {
  if (given === undefined) return randomUUID();
  if (!IDEMPOTENCY_KEY.test(given)) {
    throw new RangeError("idempotencyKey must be 1 to 255 printable ASCII characters, with no space at either end");
  }
  return given;
}

const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC_850 = /^[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const ASCTIME = /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

/**
 * An HTTP-date (RFC 9110 5.6.7: IMF-fixdate, or the obsolete RFC 850 and asctime forms a
 * recipient must read) in Unix milliseconds.
 */
export function httpDate(text: string): number | undefined {
  let at = Number.NaN;
  if (IMF_FIXDATE.test(text) || RFC_850.test(text)) at = Date.parse(text);
  else if (ASCTIME.test(text)) at = Date.parse(`${text} GMT`); // asctime is UTC; Date.parse would read local time
  return Number.isNaN(at) ? undefined : at;
}

/**
 * `Retry-After` in milliseconds (RFC 9110 10.2.3), undefined when it says nothing usable:
 * delay-seconds in ASCII digits, or an HTTP-date counted from the answer's `Date` (the
 * server's clock against itself) or, without one, from `now`.
 */
export function retryAfter(value: string | null, date: string | null, now: number = Date.now()): number | undefined {
  const text = (value ?? "").trim();
  if (/^[0-9]+$/.test(text)) return Number(text) * 1000;
  const at = httpDate(text);
  if (at === undefined) return undefined;
  const sent = date === null ? undefined : httpDate(date.trim());
  return Math.max(at - (sent ?? now), 0);
}

/** Milliseconds before the next try: the answer's Retry-After, else a backoff that doubles; at most MAX_WAIT_MS. */
export function waitBefore(answer: Response, attempt: number): number {
  const asked = retryAfter(answer.headers.get("Retry-After"), answer.headers.get("Date"));
  return Math.min(asked ?? 2 ** attempt * 500, MAX_WAIT_MS);
}

/**
 * The bearer token of every request: a key, or an OAuth token refreshed once it is (about
 * to be) expired, or once when the API refuses it; each new one handed to `onRefresh` to
 * be kept. Calls made side by side share one refresh (a refresh token works once).
 */
export class Credential {
  private refreshing: Promise<void> | undefined;

  constructor(private token: string | Token, private readonly app?: OAuthApp,
              private readonly onRefresh?: (token: Token) => void | Promise<void>) {}

  async current(): Promise<string> {
    const token = this.token;
    if (typeof token !== "string" && this.app !== undefined && token.refresh_token && expired(token)) {
      await this.refresh(token.access_token);
    }
    return typeof this.token === "string" ? this.token : this.token.access_token;
  }

  /** Refresh unless that is done already (the token is no longer `refused`); false with nothing to refresh with. */
  async refresh(refused: string): Promise<boolean> {
    const token = this.token;
    const app = this.app;
    if (typeof token === "string" || app === undefined || !token.refresh_token) return false;
    if (token.access_token !== refused) return true;
    this.refreshing ??= (async () => {
      try {
        this.token = await app.refresh(token);
        await this.onRefresh?.(this.token);
      } finally {
        this.refreshing = undefined;
      }
    })();
    await this.refreshing;
    return true;
  }
}

export const LEEWAY_SECONDS = 30; // a token this close to its end is refreshed before it is used

export function expired(token: Token, leeway: number = LEEWAY_SECONDS): boolean {
  return token.expires_at !== null && token.expires_at - leeway <= Date.now() / 1000;
}

export interface TransportOptions {
  credential: Credential;
  timeoutMs: number;
  maxRetries: number;
  fetch: Fetch;
  sleep: Sleep;
}

export class Transport {
  constructor(private readonly options: TransportOptions) {}

  /**
   * The answer to one request, tried again where that cannot do a thing twice: a GET
   * after a connection error or timeout; anything after 429 (refused before it was looked
   * at) or 503; a POST (always with its Idempotency-Key, kept across its tries: the API
   * answers a repeat with the first answer) also after a connection error, a timeout or
   * 409 `idempotency_key_in_use` (its first try is still running). A PATCH or DELETE is
   * never tried again after a lost answer: it may have been done. A refusal throws
   * `ApiError`; the caller's own abort rejects at once with its reason (an AbortError
   * unless it gave one), a wait before a try included.
   */
  async send(original: Request): Promise<Response> {
    const { credential, maxRetries } = this.options;
    const method = original.method.toUpperCase();
    if (method === "POST" && !original.headers.has("Idempotency-Key")) {
      original.headers.set("Idempotency-Key", idempotencyKey());
    }
    const once = method === "POST"; // keyed: the API does it once, however often asked
    let attempt = 0;
    let refreshed = false;
    for (;;) {
      const bearer = await credential.current();
      let answer: Response;
      try {
        answer = await this.attempt(original, bearer);
      } catch (error) {
        if (original.signal.aborted || !(method === "GET" || once) || attempt >= maxRetries) throw error;
        attempt += 1;
        await this.wait(Math.min(2 ** attempt * 250, MAX_WAIT_MS), original.signal);
        continue;
      }
      if (answer.status === 401 && !refreshed && (await credential.refresh(bearer))) {
        refreshed = true; // revoked or expired early: one refresh, then the answer stands
        continue;
      }
      if (attempt < maxRetries && (await retried(answer, once))) {
        attempt += 1;
        await this.wait(waitBefore(answer, attempt), original.signal);
        continue;
      }
      if (answer.status >= 400) throw await ApiError.from(answer);
      return answer;
    }
  }

  /**
   * One try, its answer read whole within its time: a body that stops coming is a lost
   * answer like a connection that never opened (tried again where that is safe), never a
   * timeout thrown later, where the caller reads it.
   */
  private async attempt(original: Request, bearer: string): Promise<Response> {
    const copy = original.clone();
    const both = either(original.signal, AbortSignal.timeout(this.options.timeoutMs));
    try {
      const request = new Request(copy, { signal: both.signal });
      request.headers.set("Authorization", `Bearer ${bearer}`);
      const answer = await this.options.fetch(request);
      const body = NULL_BODY.has(answer.status) ? null : await answer.arrayBuffer();
      return new Response(body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
    } finally {
      both.abort(); // done: its listeners leave the caller's signal
    }
  }

  /** The wait before the next try, ended (rejecting) by the caller's own abort signal. */
  private async wait(milliseconds: number, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    let stop: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      stop = () => reject(signal.reason);
      signal.addEventListener("abort", stop, { once: true });
    });
    try {
      await Promise.race([this.options.sleep(milliseconds, signal), aborted]); // a sleep of yours may not heed it
    } finally {
      if (stop) signal.removeEventListener("abort", stop);
    }
  }
}

const NULL_BODY = new Set([101, 204, 205, 304]); // statuses whose answer has no body (Fetch's null body status)

/**
 * A controller whose signal aborts when either signal does, with its reason (as
 * AbortSignal.any, which Node has from 20.3 only); aborting it removes its listeners.
 */
function either(first: AbortSignal, second: AbortSignal): AbortController {
  const both = new AbortController();
  for (const signal of [first, second]) {
    if (signal.aborted) {
      both.abort(signal.reason);
      break;
    }
    signal.addEventListener("abort", () => both.abort(signal.reason), { once: true, signal: both.signal });
  }
  return both;
}

/**
 * Whether to ask again after this answer: 429 and 503 always (every POST carries a key);
 * 409 `idempotency_key_in_use` for a POST (`once`).
 */
async function retried(answer: Response, once: boolean): Promise<boolean> {
  if (answer.status === 429 || answer.status === 503) return true;
  if (!once || answer.status !== 409) return false;
  try {
    const body: unknown = await answer.clone().json();
    return typeof body === "object" && body !== null && (body as { code?: unknown }).code === "idempotency_key_in_use";
  } catch {
    return false;
  }
}
