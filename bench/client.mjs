// Listing employees through the partner's TypeScript client against a bare fetch loop over
// the same pages, side by side in one Node process (bench/client.py --typescript runs it
// against the service it serves; the package built in place first:
// `cd clients/typescript && npm ci && npm run build`).
//
//   node bench/client.mjs BASE_URL API_KEY EMPLOYEES LIMIT ROUNDS
//
// Each round lists every employee twice, interleaved: with `client.employees.list({ limit })`
// (openapi-fetch, the transport's credential and retry rules, the cursor followed for you)
// and with a plain fetch loop that asks each page, parses its JSON and follows
// `next_cursor`; both read each employee's staff number. Prints the best time of each, as JSON.
import { Client } from "../clients/typescript/dist/index.js";

const [base, key, employees, limit, rounds] = process.argv.slice(2);
const expected = Number(employees);

async function withClient() {
  const started = performance.now();
  const client = new Client({ apiKey: key, baseUrl: base });
  const seen = new Set();
  for await (const employee of client.employees.list({ limit: Number(limit) })) seen.add(employee.staff_number);
  return [(performance.now() - started) / 1000, seen.size];
}

async function bare() {
  const started = performance.now();
  const seen = new Set();
  const url = new URL("/v1/employees", base);
  url.searchParams.set("limit", limit);
  for (;;) {
    const page = await (await fetch(url, { headers: { Authorization: `Bearer ${key}` } })).json();
    for (const employee of page.data) seen.add(employee.staff_number);
    if (!page.next_cursor) break;
    url.searchParams.set("cursor", page.next_cursor);
  }
  return [(performance.now() - started) / 1000, seen.size];
}

await bare(); // warm the connection pool, both web workers and the database's cache
const timings = { client: [], bare: [] };
for (let round = 0; round < Number(rounds); round += 1) {
  for (const [name, run] of [["client", withClient], ["bare", bare]]) {
    const [seconds, count] = await run();
    if (count !== expected) throw new Error(`${name} saw ${count} employees, not ${expected}`);
    timings[name].push(seconds);
  }
}
console.log(JSON.stringify({ client: Math.min(...timings.client), bare: Math.min(...timings.bare) }));
