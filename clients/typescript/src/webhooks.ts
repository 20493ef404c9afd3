/**
 * Verifying a webhook delivery before trusting it: the contract's `X-SVC-Signature`
 * (`t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`, keyed with the secret string) or the
 * Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`,
 * the signature made by the `standardwebhooks` package), on the raw body, within 5
 * minutes of this machine's clock. `signWebhook` makes both, as the service does (for your tests).
 */
import { createHmac, timingSafeEqual } from "node:crypto";

import { Webhook } from "standardwebhooks";

import type { components } from "./schema.js";

export const TOLERANCE_SECONDS = 300; // Contract, Signature 4

export type Event = components["schemas"]["Event"];
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** The delivery is not from the service (or is too old): answer 400 and drop it. */
export class SignatureError extends Error {
  override readonly name = "SignatureError";
}

/**
 * Header names lowercased, a repeated header's first value (Node's `req.headers` or a
 * fetch `Headers`); a value that is not text, or headers that are not an object, count as
 * absent (a JavaScript caller can hand anything).
 */
function lowered(headers: unknown): Map<string, string> {
  const found = new Map<string, string>();
  if (typeof headers !== "object" || headers === null) return found;
  const entries: Iterable<[string, unknown]> =
    headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) {
    const first: unknown = Array.isArray(value) ? value[0] : value;
    if (typeof first === "string") found.set(name.toLowerCase(), first);
  }
  return found;
}

/** A Unix time in ASCII digits, at most 12 of them (beyond the year 30000: never within the tolerance). */
function seconds(text: string | undefined): number | undefined {
  const trimmed = (text ?? "").trim();
  return /^[0-9]{1,12}$/.test(trimmed) ? Number(trimmed) : undefined;
}

/**
 * The event of a delivery whose signature (either form) matches `secret`; any `v1` value
 * of the contract's header may match (a rotation signs with both secrets). `body` is the
 * raw body as received (a Buffer, or its text): never a re-serialised JSON.parse.
 * Whatever the headers and body hold, anything short of that throws `SignatureError`: a
 * receiver answers it with 400, never 500.
 */
export function verifyWebhook(body: string | Uint8Array, headers: WebhookHeaders, secret: string,
                              options: { now?: number | undefined } = {}): Event {
  if (typeof body !== "string" && !(body instanceof Uint8Array)) {
    throw new SignatureError("the body must be the raw body as received (a Buffer or its text), not parsed JSON");
  }
  const raw = typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body);
  const found = lowered(headers);
  const now = options.now ?? Date.now() / 1000;
  const contract = found.get("x-svc-signature");
  if (contract !== undefined) {
    const parts = contract.split(",").filter((part) => part.includes("=")).map((part): [string, string] => {
      const at = part.indexOf("="); // the first: `t=1=2` is t with the value "1=2", not 1
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    });
    const stamps = parts.filter(([name]) => name === "t").map(([, value]) => value);
    const stamp = seconds(stamps[0]);
    if (stamps[0] === undefined || stamp === undefined) {
      throw new SignatureError("no timestamp in X-SVC-Signature (t=, Unix seconds in ASCII digits)");
    }
    within(stamp, now);
    const expected = createHmac("sha256", secret).update(`${stamps[0]}.`).update(raw).digest();
    const matches = parts.some(([name, value]) => name === "v1" && /^[0-9a-f]{64}$/.test(value)
                                                  && timingSafeEqual(expected, Buffer.from(value, "hex")));
    if (!matches) throw new SignatureError("no v1 signature matches this secret");
    return event(raw);
  }
  const signatures = found.get("webhook-signature");
  if (signatures !== undefined) {
    // The timestamp is read here (Unix seconds in ASCII digits; the package's parseInt
    // takes "1e9" for 1) and checked against `now`; the package computes the signature
    // (its verify() would check the time against this machine's clock, whatever `now` says).
    const stamp = seconds(found.get("webhook-timestamp"));
    if (stamp === undefined) {
      throw new SignatureError("no timestamp in webhook-timestamp (Unix seconds in ASCII digits)");
    }
    within(stamp, now);
    let expected: Buffer;
    try {
      expected = Buffer.from(new Webhook(secret).sign(found.get("webhook-id") ?? "", new Date(stamp * 1000), raw));
    } catch (error) { // a secret that is not whsec_ and base64
      throw new SignatureError(error instanceof Error && error.message ? error.message : "not verified");
    }
    const matches = signatures.split(" ").some((signature) => {
      const given = Buffer.from(signature); // "v1,<base64>", as the package's sign() writes it
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!found.has("webhook-id") || !matches) throw new SignatureError("no v1 signature matches this secret");
    return event(raw);
  }
  throw new SignatureError("no signature header");
}

function within(stamp: number, now: number): void {
  if (Math.abs(now - stamp) > TOLERANCE_SECONDS) throw new SignatureError("the timestamp is more than 5 minutes away");
}

/** The signed body as the event it must be: a JSON object. */
function event(raw: Buffer): Event {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(raw));
  } catch {
    throw new SignatureError("the signed body is not a JSON event");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new SignatureError("the signed body is not a JSON event");
  }
  return parsed as Event;
}

/**
 * The headers the service puts on a delivery of `body`: `X-SVC-Signature` and the
 * Standard Webhooks three, signed with `secret` at `now` (Unix seconds; this machine's clock).
 */
export function signWebhook(body: string, secret: string, eventId: string,
                            options: { now?: number | undefined } = {}): Record<string, string> {
  const timestamp = Math.floor(options.now ?? Date.now() / 1000);
  const contract = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  const standard = new Webhook(secret).sign(eventId, new Date(timestamp * 1000), body);
  return {
    "Content-Type": "application/json", "X-SVC-Signature": `t=${timestamp},v1=${contract}`,
    "webhook-id": eventId, "webhook-timestamp": String(timestamp), "webhook-signature": standard,
  };
}
