// What holds without a served API: Retry-After, signatures against vectors made by other
// implementations (OpenSSL's command line, the Python standardwebhooks package), ids, and
// the retry rules against a real HTTP server of the test's own that answers as scripted.
import assert from "node:assert/strict";
import { once } from "node:events";
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createHmac } from "node:crypto";
import { describe, test } from "node:test";

import {
  ApiError, Client, OAuthApp, OAuthError, SignatureError, type Token, httpDate, retryAfter, segment, signWebhook,
  verifyWebhook,
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
      [BODY, { "X-SVC-Signature": `t=${AT}=1,v1=${CONTRACT}` }, SECRET, AT], // split at the first "="
      [BODY, {}, SECRET, AT],
    ];
    for (const [body, headers, secret, now] of refused) {
      assert.throws(() => verifyWebhook(body, headers, secret, { now }), SignatureError, JSON.stringify(headers));
    }
    const array = signWebhook("[1]", SECRET, "evt_1", { now: AT });
    assert.throws(() => verifyWebhook("[1]", array, SECRET, { now: AT }), /not a JSON event/);
    const bytes = Buffer.from([0x7b, 0xff, 0x7d]); // signed as it is, but not UTF-8
    const mac = createHmac("sha256", SECRET).update(`${AT}.`).update(bytes).digest("hex");
    assert.throws(() => verifyWebhook(bytes, { "X-SVC-Signature": `t=${AT},v1=${mac}` }, SECRET, { now: AT }),
                  /not a JSON event/);
  });

  test("whatever a JavaScript caller hands it, the one error is SignatureError", () => {
    const loose = verifyWebhook as (body: unknown, headers: unknown, secret: string) => unknown;
    const junk: Array<[unknown, unknown]> = [
      [BODY, { "x-svc-signature": 5 }], [BODY, { "x-svc-signature": null, "webhook-signature": [7] }],
      [BODY, undefined], [BODY, null], [BODY, "t=1"], [JSON.parse(BODY), contract], [undefined, contract],
    ];
    for (const [body, headers] of junk) {
      assert.throws(() => loose(body, headers, SECRET), SignatureError, String(headers));
    }
  });
});

test("an id is one escaped path segment, never a dot segment or nothing, client.raw's too", async () => {
  for (const id of ["", ".", "..", "%2e", "%2E%2e", ".%2E"]) assert.throws(() => segment(id), RangeError, id);
  const server = await scripted([ok({ id: "x" }), ok({ id: "y" })]);
  const client = new Client({ apiKey: "svc_test_x", baseUrl: server.base });
  try {
    await client.employees.get("../company");
    await client.events.get("evt_1?x=1#y");
    assert.deepEqual(server.asked.map((asked) => asked.url),
                     ["/v1/employees/..%2Fcompany", "/v1/events/evt_1%3Fx%3D1%23y"]);
    await assert.rejects(client.employees.get(".."), RangeError);
    await assert.rejects(client.raw.GET("/v1/employees/{employee_id}", { params: { path: { employee_id: "." } } }),
                         RangeError);
    assert.equal(server.asked.length, 2); // nothing sent for either
  } finally {
    server.close();
  }
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
  return { base: `http://127.0.0.1:${port}`, asked, close: () => server.close(),
           closeAll: () => server.closeAllConnections() };
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

  test("an HTTP-date Retry-After is counted from the answer's Date", async () => {
    const server = await scripted([problem(503, "internal_error", { "Retry-After": "Sun, 06 Nov 1994 08:49:44 GMT",
                                                                    Date: "Sun, 06 Nov 1994 08:49:37 GMT" }),
                                   ok(COMPANY)]);
    const waits: number[] = [];
    const client = new Client({ apiKey: "svc_test_x", baseUrl: server.base, sleep: async (ms) => { waits.push(ms); } });
    try {
      await client.company();
      assert.deepEqual(waits, [7000]);
    } finally {
      server.close();
    }
  });

  test("a body that stops coming is a lost answer: a GET is tried again", async () => {
    const stall = (_: IncomingMessage, response: ServerResponse) => {
      response.writeHead(200, { "Content-Type": "application/json", "Content-Length": "100" });
      response.write('{"id": "cmp_'); // and nothing more
    };
    const server = await scripted([stall, ok(COMPANY)]);
    const client = new Client({ apiKey: "svc_test_x", baseUrl: server.base, timeoutMs: 200, sleep: async () => {} });
    try {
      assert.equal((await client.company()).id, "cmp_1");
      assert.equal(server.asked.length, 2);
    } finally {
      server.close();
      server.closeAll();
    }
  });

  test("the caller's abort ends the wait before a try at once", async () => {
    const server = await scripted([problem(503, "internal_error", { "Retry-After": "60" })]);
    const client = new Client({ apiKey: "svc_test_x", baseUrl: server.base }); // a real timer: 60 s
    const stop = new AbortController();
    try {
      const started = Date.now();
      setTimeout(() => stop.abort(new Error("enough")), 100);
      await assert.rejects(client.raw.GET("/v1/company", { signal: stop.signal }), /enough/);
      assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
      assert.equal(server.asked.length, 1);
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

/**
 * An authorization server and API that rotate: each refresh token works once (a second use
 * ends the connection, as the service's does); a wrong client secret is a 401 with a
 * WWW-Authenticate challenge.
 */
async function rotating() {
  const state = { live: "rt_0", access: new Set(["at_0"]), refreshes: 0, revoked: false, refuseAll: false };
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => { body += chunk.toString(); });
    request.on("end", () => {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const json = (status: number, answer: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { "Content-Type": "application/json", ...headers }).end(JSON.stringify(answer));
      };
      if (request.url === "/.well-known/oauth-authorization-server") {
        json(200, { issuer: base, authorization_endpoint: `${base}/oauth/authorize`,
                    token_endpoint: `${base}/oauth/token`, revocation_endpoint: `${base}/oauth/revoke` });
      } else if (request.url === "/oauth/token") {
        // RFC 6749 2.3.1: each of the pair form-urlencoded, then Basic (oauth4webapi writes "_" as %5F)
        const pair = Buffer.from((request.headers.authorization ?? "").replace("Basic ", ""), "base64").toString();
        if (pair.split(":").map(decodeURIComponent).join(":") !== "app_1:svc_cs_1") {
          json(401, { error: "invalid_client" }, { "WWW-Authenticate": 'Basic realm="oauth"' });
          return;
        }
        const form = new URLSearchParams(body);
        if (form.get("refresh_token") !== state.live || state.revoked) {
          state.revoked = true;
          json(400, { error: "invalid_grant", error_description: "the refresh token was used already" });
          return;
        }
        state.refreshes += 1;
        state.live = `rt_${state.refreshes}`;
        state.access = new Set([`at_${state.refreshes}`]);
        json(200, { access_token: `at_${state.refreshes}`, token_type: "Bearer", expires_in: 3600,
                    refresh_token: state.live, scope: "employees:read" });
      } else {
        const bearer = (request.headers.authorization ?? "").replace("Bearer ", "");
        if (!state.access.has(bearer) || state.refuseAll) {
          json(401, { code: "unauthenticated", title: "no", status: 401 });
          return;
        }
        json(200, { ...COMPANY, token: bearer });
      }
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, state, close: () => server.close() };
}

/** The app the rotating server knows (app_1), at `base`, with `secret`. */
const appAt = (base: string, secret = "svc_cs_1") =>
  new OAuthApp({ clientId: "app_1", clientSecret: secret, redirectUri: "http://x/cb", baseUrl: base });

describe("OAuth tokens", () => {
  const token = (expiresAt: number): Token => ({ access_token: "at_0", refresh_token: "rt_0", expires_at: expiresAt,
                                                 scope: "employees:read" });

  test("an expired token is refreshed before use, a refused one once, each new one handed on", async () => {
    const server = await rotating();
    try {
      const app = appAt(server.base);
      const kept: Token[] = [];
      const client = new Client({ oauthToken: token(0), oauthApp: app, baseUrl: server.base,
                                  onTokenRefresh: (fresh) => { kept.push(fresh); } });
      const [first, second, third] = await Promise.all([client.company(), client.company(), client.company()]);
      assert.deepEqual([first, second, third].map((answer) => (answer as { token?: string }).token),
                       ["at_1", "at_1", "at_1"]); // side by side, one refresh
      assert.deepEqual(kept.map((fresh) => fresh.refresh_token), ["rt_1"]);
      server.state.access = new Set(["revoked-early"]); // refused before its time: refreshed once, then it stands
      assert.equal(((await client.company()) as { token?: string }).token, "at_2");
      server.state.refuseAll = true; // nothing is accepted now: one refresh, then the 401 is the answer
      assert.equal((await refused(client.company())).status, 401);
      assert.equal(server.state.refreshes, 3);
    } finally {
      server.close();
    }
  });

  test("two Clients sharing an app and a token spend its refresh token once", async () => {
    const server = await rotating();
    try {
      const app = appAt(server.base);
      const clients = [0, 1].map(() => new Client({ oauthToken: token(0), oauthApp: app, baseUrl: server.base }));
      for (const client of clients) assert.equal(((await client.company()) as { token?: string }).token, "at_1");
      assert.deepEqual([server.state.refreshes, server.state.revoked], [1, false]);
    } finally {
      server.close();
    }
  });

  test("the server's refusals are OAuthError: a wrong secret, a spent refresh token", async () => {
    const server = await rotating();
    try {
      const wrong = appAt(server.base, "nope");
      const secret = await wrong.refresh(token(0)).catch((error: unknown) => error);
      assert.ok(secret instanceof OAuthError && secret.error === "invalid_client", String(secret));
      server.state.live = "rt_other";
      const app = appAt(server.base);
      const spent = await app.refresh(token(0)).catch((error: unknown) => error);
      assert.ok(spent instanceof OAuthError && spent.error === "invalid_grant", String(spent));
      const elsewhere = appAt(`${server.base}/other`);
      const issuer = await elsewhere.authorizationUrl(["employees:read"]).catch((error: unknown) => error);
      assert.ok(issuer instanceof OAuthError, String(issuer)); // no metadata where its issuer says
    } finally {
      server.close();
    }
  });
});

async function refused(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(() => undefined, (caught: unknown) => caught);
  assert.ok(error instanceof ApiError, String(error));
  return error;
}
