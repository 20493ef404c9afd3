// What holds without a served API: Retry-After, signatures against vectors made by other
// implementations (OpenSSL's command line, the Python standardwebhooks package), ids, and
// the retry rules against a real HTTP server of the test's own that answers as scripted.
import assert from "node:assert/strict";
import { once } from "node:events";
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, test } from "node:test";

import {
  ApiError, Client, SignatureError, httpDate, retryAfter, segment, signWebhook, verifyWebhook,
} from "partner-api-client";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const BODY = '{"id":"evt_1","type":"ping","created_at":"2026-11-21T09:00:00Z","company_id":"cmp_1","livemode":false,'
  + '"data":{"webhook_id":"whk_1"}}';
const AT = 1763715600;
// `openssl dgst -sha256 -hmac $SECRET` of "1763715600." and BODY
const CONTRACT = "b1f76930672734cd9069224a317e0a85c043c37c20be0476c8535f8f0eb913e2";
// standardwebhooks (Python) Webhook(SECRET).sign("evt_1", 1763715600, BODY)
const STANDARD = "v1,eZMcm/a56V+JtZa9QKXg7pL3cwUFMfFz/9rXmWVM/Gw=";

describe("Retry-After", () => {
  test("is delay-seconds in ASCII digits or an HTTP-date, counted from the answer's Date", () => {
    assert.equal(retryAfter("7", null), 7000);
    assert.equal(retryAfter(" 0 ", null), 0);
    const date = "Sun, 06 Nov 1994 08:49:37 GMT";
    assert.equal(retryAfter("Sun, 06 Nov 1994 08:49:47 GMT", date), 10_000);
    assert.equal(retryAfter("Sunday, 06-Nov-94 08:49:57 GMT", date), 20_000); // RFC 850
    assert.equal(retryAfter("Sun Nov  6 08:50:07 1994", date), 30_000); // asctime, UTC
    assert.equal(retryAfter("Sun, 06 Nov 1994 08:49:27 GMT", date), 0); // past: at once
    assert.equal(retryAfter("Sun, 06 Nov 1994 08:49:47 GMT", null, Date.parse(date)), 10_000);
  });

  test("says nothing when it is not one", () => {
    for (const text of ["", "١٠", "1.5", "-3", "soon", "2026-11-27", "1e3", "²"]) {
      assert.equal(retryAfter(text, null), undefined, text);
    }
    assert.equal(httpDate("Sun, 06 Nov 1994 08:49:37 PST"), undefined);
  });
});

describe("verifyWebhook", () => {
  const contract = { "X-SVC-Signature": `t=${AT},v1=${CONTRACT}` };
  const standard = { "webhook-id": "evt_1", "webhook-timestamp": String(AT), "webhook-signature": STANDARD };

  test("verifies both forms against vectors of other implementations", () => {
    assert.equal(verifyWebhook(BODY, contract, SECRET, { now: AT }).id, "evt_1");
    assert.equal(verifyWebhook(Buffer.from(BODY), standard, SECRET, { now: AT + 300 }).type, "ping");
    assert.deepEqual(signWebhook(BODY, SECRET, "evt_1", { now: AT }),
                     { "Content-Type": "application/json", ...contract, ...standard });
  });

  test("takes any v1 of a rotation, Node's header arrays and fetch's Headers", () => {
    const rotated = { "x-svc-signature": [`t=${AT},v1=${"0".repeat(64)},v1=${CONTRACT}`, "t=1,v1=00"] };
    assert.equal(verifyWebhook(BODY, rotated, SECRET, { now: AT }).id, "evt_1");
    const both = new Headers({ ...standard, "webhook-signature": `v1,AAAA ${STANDARD}` });
    assert.equal(verifyWebhook(BODY, both, SECRET, { now: AT - 300 }).id, "evt_1");
  });

  test("refuses anything short of a match, always as SignatureError", () => {
    const refused: Array<[string | Uint8Array, Record<string, string>, string, number]> = [
      [BODY, contract, SECRET, AT + 301], // too old
      [BODY, contract, SECRET, AT - 301], // too new
      [`${BODY} `, contract, SECRET, AT],
      [BODY, contract, "whsec_other", AT],
      [BODY, { "X-SVC-Signature": `v1=${CONTRACT}` }, SECRET, AT],
      [BODY, { "X-SVC-Signature": `t=١٧٦٣٧١٥٦٠٠,v1=${CONTRACT}` }, SECRET, AT],
      [BODY, { "X-SVC-Signature": `t=${AT},v1=${CONTRACT.toUpperCase()}` }, SECRET, AT],
      [BODY, { "X-SVC-Signature": `t=${AT},v1=zz` }, SECRET, AT],
      [BODY, { ...standard, "webhook-timestamp": "1.763715600e9" }, SECRET, AT],
      [BODY, { ...standard, "webhook-id": "evt_2" }, SECRET, AT],
      [BODY, { ...standard, "webhook-signature": STANDARD.replace("v1,", "v2,") }, SECRET, AT],
      [BODY, { ...standard }, "not-base64-%%", AT],
      [BODY, {}, SECRET, AT],
      [new Uint8Array([0xff, 0xfe]), signWebhook("\ufffd", SECRET, "evt_1", { now: AT }), SECRET, AT],
    ];
    for (const [body, headers, secret, now] of refused) {
      assert.throws(() => verifyWebhook(body, headers, secret, { now }), SignatureError, JSON.stringify(headers));
    }
    const array = signWebhook("[1]", SECRET, "evt_1", { now: AT });
    assert.throws(() => verifyWebhook("[1]", array, SECRET, { now: AT }), /not a JSON event/);
  });
});

test("an id is one path segment, never a dot segment or nothing", () => {
  assert.equal(segment("../company"), "../company"); // escaped by openapi-fetch into one segment
  for (const id of ["", ".", "..", "%2e", "%2E%2e", ".%2E"]) assert.throws(() => segment(id), RangeError, id);
});

/** An HTTP server answering each request with the next of `answers`; what it was asked, in order. */
async function scripted(answers: Array<(request: IncomingMessage, response: ServerResponse) => void>) {
  const asked: Array<{ method: string; url: string; headers: IncomingMessage["headers"]; body: string }> = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => { body += chunk.toString(); });
    request.on("end", () => {
      asked.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body });
      const answer = answers.shift();
      if (answer === undefined) throw new Error("asked more often than scripted");
      answer(request, response);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, asked, close: () => server.close() };
}

const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
  (_: IncomingMessage, response: ServerResponse) => {
    response.writeHead(status, { "Content-Type": "application/problem+json", "X-Request-Id": "req_h", ...headers });
    response.end(JSON.stringify({ type: `x#${code}`, title: code, status, code, request_id: "req_b", detail: "no" }));
  };
const ok = (body: unknown, status = 200) => (_: IncomingMessage, response: ServerResponse) => {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify(body));
};
const cut = (request: IncomingMessage) => { request.socket.destroy(); }; // the answer is lost
const COMPANY = { id: "cmp_1", name: { en: "A", ar: "أ" } };

describe("retries", () => {
  test("after 429 and 503 wait Retry-After (capped at 60 s), else a doubling backoff", async () => {
    const server = await scripted([problem(429, "rate_limited", { "Retry-After": "2" }),
                                   problem(503, "internal_error", { "Retry-After": "3600" }),
                                   problem(503, "internal_error"), ok(COMPANY)]);
    const waits: number[] = [];
    const client = new Client({ apiKey: "svc_test_x", baseUrl: server.base,
                                sleep: async (ms) => { waits.push(ms); } });
    try {
      assert.equal((await client.company()).id, "cmp_1");
      assert.deepEqual(waits, [2000, 60_000, 4000]); // the third wait's backoff: 2 ** 3 * 500
      assert.deepEqual(server.asked.map((asked) => asked.headers.authorization), Array(4).fill("Bearer svc_test_x"));
    } finally {
      server.close();
    }
  });

  test("a POST keeps one Idempotency-Key across its tries, lost answers and key_in_use included", async () => {
    const server = await scripted([cut, problem(503, "internal_error"), problem(409, "idempotency_key_in_use"),
                                   ok({ id: "evt_1", type: "employee.updated" }, 201), ok({ id: "evt_2" }, 201)]);
    const client = new Client({ apiKey: "svc_test_x", baseUrl: server.base, sleep: async () => {} });
    try {
      await client.sandbox.trigger({ type: "employee.updated" });
      const keys = server.asked.map((asked) => asked.headers["idempotency-key"]);
      assert.equal(keys.length, 4);
      assert.match(String(keys[0]), /^[0-9a-f-]{36}$/);
      assert.ok(keys.every((key) => key === keys[0]), String(keys));
      assert.deepEqual(server.asked.map((asked) => JSON.parse(asked.body)),
                       Array(4).fill({ type: "employee.updated" }));
      await client.sandbox.trigger({ type: "employee.updated" }, { idempotencyKey: "mine-1" });
      assert.equal(server.asked[4]?.headers["idempotency-key"], "mine-1");
      await assert.rejects(client.sandbox.trigger({ type: "employee.updated" }, { idempotencyKey: " padded" }),
                           RangeError);
      assert.equal(server.asked.length, 5); // refused before anything was sent
    } finally {
      server.close();
    }
  });

  test("a PATCH whose answer was lost is not tried again, nor is anything past maxRetries", async () => {
    const server = await scripted([cut, problem(429, "rate_limited"), problem(429, "rate_limited")]);
    const client = new Client({ apiKey: "svc_test_x", baseUrl: server.base, maxRetries: 1, sleep: async () => {} });
    try {
      await assert.rejects(client.webhooks.update("whk_1", { active: false }), TypeError); // fetch failed
      const refused = await client.company().catch((error: unknown) => error);
      assert.ok(refused instanceof ApiError);
      assert.equal(refused.status, 429);
      assert.equal(refused.code, "rate_limited");
      assert.equal(refused.requestId, "req_b");
      assert.equal(refused.detail, "no");
      assert.equal(server.asked.length, 3);
    } finally {
      server.close();
    }
  });

  test("a refusal that is not a problem still says its status and the request id", async () => {
    const server = await scripted([(_, response) => {
      response.writeHead(502, { "Content-Type": "text/html", "X-Request-Id": "req_proxy" });
      response.end("<h1>Bad gateway</h1>");
    }]);
    const client = new Client({ apiKey: "svc_test_x", baseUrl: server.base });
    try {
      const refused = await client.employees.get("emp_1").catch((error: unknown) => error);
      assert.ok(refused instanceof ApiError);
      assert.deepEqual([refused.status, refused.code, refused.requestId], [502, "internal_error", "req_proxy"]);
      assert.equal(server.asked[0]?.url, "/v1/employees/emp_1");
    } finally {
      server.close();
    }
  });
});
