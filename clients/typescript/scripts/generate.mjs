#!/usr/bin/env node
// src/schema.ts from the service's OpenAPI document, by openapi-typescript:
//
//   npm run generate                     the document of the checkout this package sits in
//   npm run generate -- --from FILE|URL  another document (a served /v1/openapi.json)
//   npm run check-types                  exit 1 when src/schema.ts differs from the document
//
// The checkout's document is what `flask --app wsgi openapi print` prints with the embedded
// defaults (every release live), as the documentation site publishes it; a field with a
// default is optional (it is, in a request body: defaultNonNullable off). PYTHON names the
// Python that has the service's requirements (default: the checkout's .venv), and
// PARTNER_API_CHECKOUT the checkout (default: the one this package sits in).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const CHECKOUT = process.env.PARTNER_API_CHECKOUT ?? join(PACKAGE, "..", "..");
const TARGET = join(PACKAGE, "src", "schema.ts");
const HEADER = `/**
 * The Partner API's OpenAPI document as TypeScript types, made by openapi-typescript
 * (scripts/generate.mjs: \`npm run generate\`). Do not edit: CI fails when this file differs
 * from the document the service publishes.
 */

`;

function served() {
  const python = process.env.PYTHON ?? [join(CHECKOUT, ".venv", "bin", "python")].find(existsSync) ?? "python3";
  const folder = mkdtempSync(join(tmpdir(), "openapi-"));
  const env = { ...process.env, DATABASE_URL: `sqlite:///${folder}/document.db`, REDIS_URL: "",
                APP_ENV: "development" };
  delete env.LIVE_RELEASES;
  delete env.LIVE_OPERATIONS;
  try {
    const done = spawnSync(python, ["-m", "flask", "--app", "wsgi", "openapi", "print"],
                           { cwd: CHECKOUT, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    if (done.status !== 0) {
      throw new Error(`the OpenAPI document could not be made (${python} -m flask --app wsgi openapi print):\n`
                      + (done.stderr || String(done.error)));
    }
    return JSON.parse(done.stdout);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function given(source) {
  if (/^https?:\/\//.test(source)) {
    const answer = await fetch(source);
    if (!answer.ok) throw new Error(`${source} answered ${answer.status}`);
    return answer.json();
  }
  return JSON.parse(readFileSync(source, "utf8"));
}

const args = process.argv.slice(2);
const check = args.includes("--check");
const from = args.indexOf("--from");
const document = from >= 0 ? await given(args[from + 1]) : served();
const made = HEADER + astToString(await openapiTS(document, { silent: true, defaultNonNullable: false }));
if (check) {
  const kept = existsSync(TARGET) ? readFileSync(TARGET, "utf8") : "";
  if (kept !== made) {
    console.error("src/schema.ts is not what the OpenAPI document makes: run `npm run generate` in "
                  + "clients/typescript and commit the result");
    process.exit(1);
  }
  console.log("src/schema.ts matches the OpenAPI document");
} else {
  writeFileSync(TARGET, made);
  console.log(`wrote src/schema.ts (${made.split("\n").length} lines)`);
}
