// Connecting an app with OAuth (PKCE) and the package: print the consent URL, read back
// the URL the customer's browser landed on, keep the token in a file, and call the API
// with it, the token refreshed and saved again whenever it expires. The token file is the
// Python client's too (Token.to_dict()).
//
//   node connect-app.js CLIENT_ID CLIENT_SECRET REDIRECT_URI token.json
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline/promises";

import { Client, OAuthApp, type Token } from "partner-api-client";

const [clientId, clientSecret, redirectUri, kept] = process.argv.slice(2);
if (!clientId || !clientSecret || !redirectUri || !kept) {
  console.error("usage: node connect-app.js CLIENT_ID CLIENT_SECRET REDIRECT_URI token.json");
  process.exit(2);
}
const baseUrl = process.env.PARTNER_API_BASE_URL ?? "http://127.0.0.1:8000";
const app = new OAuthApp({ clientId, clientSecret, redirectUri, baseUrl });
const save = (token: Token): void => writeFileSync(kept, JSON.stringify(token));

let token: Token;
if (existsSync(kept)) {
  token = JSON.parse(readFileSync(kept, "utf8")) as Token;
} else {
  const asked = await app.authorizationUrl(["employees:read"]);
  console.log(`open: ${asked.url}`);
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  const landed = await terminal.question("paste the URL you were sent back to: ");
  terminal.close();
  token = await app.exchange(landed.trim(), asked);
  save(token);
}
const client = new Client({ oauthToken: token, oauthApp: app, onTokenRefresh: save, baseUrl });
const company = await client.company();
let staff = 0;
for await (const _ of client.employees.list()) staff += 1;
console.log(`connected to ${company.id}: ${staff} employees`);
