// Every method once against the service the README's command serves
// (tests/e2e/test_typescript_client.py starts it and sets PARTNER_API_BASE_URL and
// PARTNER_API_KEY, a sandbox key, with webhooks to 127.0.0.1 allowed), the package
// imported by its name as a partner's code imports it.
import assert from "node:assert/strict";
import { once } from "node:events";
import { type IncomingHttpHeaders, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";

import { ApiError, Client, OPERATIONS, type WebhookHeaders, verifyWebhook } from "partner-api-client";

const base = process.env.PARTNER_API_BASE_URL;
const apiKey = process.env.PARTNER_API_KEY;
const skip = base && apiKey ? false : "needs PARTNER_API_BASE_URL and PARTNER_API_KEY (a served sandbox)";
const MONEY = /^-?\d+\.\d+$/;

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const found: T[] = [];
  for await (const item of items) found.push(item);
  return found;
}

async function refusal(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(() => undefined, (caught: unknown) => caught);
  assert.ok(error instanceof ApiError, `not refused as ApiError: ${String(error)}`);
  return error;
}

test("every published operation has a method", { skip }, async () => {
  const document = await (await fetch(`${base}/v1/openapi.json`)).json() as
    { paths: Record<string, Record<string, { operationId?: string }>> };
  const published = Object.values(document.paths).flatMap((item) => Object.values(item))
    .flatMap((operation) => (typeof operation === "object" && operation.operationId ? [operation.operationId] : []));
  assert.deepEqual(Object.keys(OPERATIONS).sort(), published.sort());
  const client = new Client({ apiKey: apiKey ?? "", baseUrl: base });
  for (const method of Object.values(OPERATIONS)) {
    let target: unknown = client;
    for (const name of method.split(".")) target = (target as Record<string, unknown>)[name];
    assert.equal(typeof target, "function", method);
  }
});

test("reads pages, money as strings, and the sandbox's events", { skip }, async () => {
  const client = new Client({ apiKey: apiKey ?? "", baseUrl: base });
  const company = await client.company();
  const me = await client.credential();
  assert.equal(me.type, "api_key");
  assert.equal(me.company_id, company.id);
  assert.equal(me.livemode, false);
  const people = await all(client.employees.list({ limit: 3 })); // 10 employees, pages of 3: the cursor followed
  assert.equal(people.length, 10);
  const first = people[0]!;
  assert.equal((await client.employees.get(first.id)).staff_number, first.staff_number);
  assert.equal((await all(client.employees.list({ status: "active" }))).length, 10);
  const [summary] = await all(client.payrollRuns.list());
  const run = await client.payrollRuns.get(summary!.id);
  assert.match(run.totals.net, MONEY); // a decimal string, never a JavaScript number
  assert.equal(typeof run.totals.net, "string");
  assert.match(run.journal_entries[0]!.lines[0]!.debit, MONEY);
  const entries = await all(client.journalEntries.list({ limit: 1 }));
  assert.ok(entries.length >= 2);
  assert.deepEqual(await all(client.journalEntries.list({ after: entries.at(-1)!.id })), []);
  const accounts = await client.journalAccounts();
  assert.ok(accounts.length > 0 && (await client.eventTypes()).length > 0);

  const at = new Date(Date.now() - 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");
  const [result] = await client.attendance.ingest([{
    external_id: "ts-1", employee_ref: { type: "employee_code", value: first.staff_number }, type: "clock_in", at,
    source: "ts-client",
  }]);
  assert.equal(result!.status, "accepted");
  const today = new Date().toISOString().slice(0, 10);
  const before = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  await all(client.attendance.days({ from: before, to: today }));
  await all(client.leave.list({ employee_id: first.id }));
  const balances = await all(client.leaveBalances.list({ limit: 4 }));
  assert.equal(balances.length, 10);

  const made = await client.sandbox.trigger({ type: "employee.updated", employee_id: first.id,
                                              set: { job_title: "Cashier" } });
  assert.equal((await client.events.get(made.id)).id, made.id);
  const listed = await all(client.events.list({ types: ["employee.updated"], limit: 50 }));
  assert.ok(listed.some((event) => event.id === made.id));
  assert.equal((await client.employees.get(first.id)).job_title, "Cashier");
  // One Idempotency-Key, one event: the second call is answered with the first's result.
  const once1 = await client.sandbox.trigger({ type: "employee.updated" }, { idempotencyKey: `ts-${made.id}` });
  const once2 = await client.sandbox.trigger({ type: "employee.updated" }, { idempotencyKey: `ts-${made.id}` });
  assert.equal(once2.id, once1.id);

  const reset = await client.sandbox.reset();
  assert.deepEqual([reset.company_id, reset.employees], [company.id, 10]);
  const refused = await refusal(client.events.get(made.id)); // a fresh history
  assert.deepEqual([refused.status, refused.code], [404, "not_found"]);
});

test("refusals are ApiError with the problem's fields; ids stay one path segment", { skip }, async () => {
  const client = new Client({ apiKey: apiKey ?? "", baseUrl: base });
  const missing = await refusal(client.employees.get("emp_nobody"));
  assert.deepEqual([missing.status, missing.code], [404, "not_found"]);
  assert.match(missing.requestId ?? "", /^req_\w+$/);
  assert.ok(missing.title && missing.type);
  for (const wrong of ["../company", "emp_1?x=1#y"]) { // unescaped, each would ask for something else
    assert.equal((await refusal(client.employees.get(wrong))).code, "not_found", wrong);
  }
  await assert.rejects(client.employees.get(".."), RangeError);
  const invalid = await refusal(client.webhooks.create({ url: "not a url", events: ["employee.updated"] }));
  assert.equal(invalid.code, "validation_failed");
  assert.ok(invalid.errors.some((error) => error.path === "url"), JSON.stringify(invalid.errors));
  const stranger = new Client({ apiKey: `svc_test_${"0".repeat(40)}`, baseUrl: base });
  assert.equal((await refusal(stranger.company())).status, 401);
});

test("a real delivery verifies in both signature forms", { skip }, async () => {
  const received: Array<{ body: Buffer; headers: IncomingHttpHeaders }> = [];
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ body: Buffer.concat(chunks), headers: request.headers });
      response.writeHead(200).end();
    });
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  const client = new Client({ apiKey: apiKey ?? "", baseUrl: base });
  try {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const hook = await client.webhooks.create({ url, events: ["employee.updated"], rate_limit: 20 });
    assert.match(hook.secret, /^whsec_/);
    assert.deepEqual((await client.webhooks.list()).map((endpoint) => endpoint.id), [hook.id]);
    assert.equal((await client.webhooks.get(hook.id)).url, url);
    const updated = await client.webhooks.update(hook.id, { events: ["employee.updated", "employee.left"] });
    assert.deepEqual(updated.events, ["employee.updated", "employee.left"]);
    const made = await client.sandbox.trigger({ type: "employee.updated" });
    const deadline = Date.now() + 20_000;
    while (!received.some((delivery) => delivery.body.includes(made.id)) && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 100)); // a real receiver: the delivery is on its way
    }
    const delivery = received.find((found) => found.body.includes(made.id));
    assert.ok(delivery, "no delivery came");
    const { body, headers } = delivery;
    const contract: WebhookHeaders = { "x-svc-signature": headers["x-svc-signature"] };
    assert.equal(verifyWebhook(body, contract, hook.secret).id, made.id);
    const standard = Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"]
      .map((name) => [name, headers[name]])) as WebhookHeaders;
    assert.equal(verifyWebhook(body, standard, hook.secret).type, "employee.updated");
    assert.throws(() => verifyWebhook(body, contract, "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), /no v1 signature/);

    await client.webhooks.test(hook.id);
    const rotated = await client.webhooks.rotateSecret(hook.id, { expire_previous_in: 0 });
    assert.notEqual(rotated.secret, hook.secret);
    assert.equal((await client.webhooks.replay(hook.id, { since: new Date(Date.now() - 3_600_000).toISOString() }))
      .queued >= 1, true);
    const logged = await client.webhooks.deliveries(hook.id);
    assert.ok(logged.length > 0);
    const again = await client.webhooks.redeliver(hook.id, logged[0]!.id);
    assert.equal(again.event_id, logged[0]!.event_id);
    await client.webhooks.delete(hook.id);
    assert.equal((await refusal(client.webhooks.get(hook.id))).status, 404);
  } finally {
    receiver.close();
    receiver.closeAllConnections();
  }
});

test("follow gives each new event once, after the one last handled, until its signal aborts", { skip }, async () => {
  const client = new Client({ apiKey: apiKey ?? "", baseUrl: base });
  const types = ["employee.updated"] as const;
  const handled = await client.sandbox.trigger({ type: "employee.updated" });
  const later = [(await client.sandbox.trigger({ type: "employee.updated" })).id,
                 (await client.sandbox.trigger({ type: "employee.updated" })).id];
  const seen: string[] = [];
  const stop = new AbortController();
  for await (const event of client.events.follow({ after: handled.id, types, pollMs: 100, signal: stop.signal })) {
    seen.push(event.id);
    if (seen.length === 2) stop.abort();
  }
  assert.deepEqual(seen, later);

  const waiting = new AbortController();
  const deadline = setTimeout(() => waiting.abort(), 20_000); // a feed that never gives it: the test fails, not hangs
  const made = new Promise<string>((done, fail) => setTimeout(() => { // while the feed waits between polls
    client.sandbox.trigger({ type: "employee.updated" }).then((event) => done(event.id), (error: unknown) => {
      waiting.abort();
      fail(error);
    });
  }, 300));
  const next: string[] = [];
  for await (const event of client.events.follow({ after: later[1], types, pollMs: 100, signal: waiting.signal })) {
    next.push(event.id);
    waiting.abort();
  }
  clearTimeout(deadline);
  assert.deepEqual(next, [await made]); // its answer may come after the feed's
});
