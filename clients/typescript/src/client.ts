/**
 * The client: typed calls through openapi-fetch on the types openapi-typescript made from
 * the API's OpenAPI document (src/schema.ts), each request through the Transport (the
 * credential, retries, `ApiError`), every page walked for the caller, ids checked before
 * they go into their path segment. Parameters and bodies are spelled as the API spells
 * them (`updated_since`, `rate_limit`); money stays the API's decimal strings.
 */
import createClient, { type Client as FetchClient, defaultPathSerializer } from "openapi-fetch";

import { type Fetch, type Sleep, timer } from "./fetch.js";
import { Credential, Transport, idempotencyKey } from "./http.js";
import { DEFAULT_BASE_URL, type OAuthApp, type Token } from "./oauth.js";
import type { components, operations, paths } from "./schema.js";
import { VERSION } from "./version.js";

export type Schemas = components["schemas"];
export type Company = Schemas["Company"];
export type Credential_ = Schemas["Credential"];
export type Employee = Schemas["Employee"];
export type PayrollRun = Schemas["PayrollRun"];
export type AttendanceDay = Schemas["AttendanceDay"];
export type Event = Schemas["Event"];
export type EventType = Schemas["EventType"];
/** An event type's name, as an endpoint subscribes to it (`"employee.updated"`, `"*"`). */
export type EventName = Schemas["CreateWebhookEndpoint"]["events"][number];
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type JournalAccount = Schemas["JournalAccount"];
export type LedgerEntry = Schemas["LedgerEntry"];
export type Leave = Schemas["Leave"];
export type LeaveBalance = Schemas["LeaveBalance"];

/** The query of a list operation, less the cursor the client follows for you. */
type Query<Operation extends keyof operations> =
  Omit<NonNullable<NonNullable<operations[Operation]["parameters"]["query"]>>, "cursor">;
type Body<Operation extends keyof operations> = operations[Operation] extends {
  requestBody?: { content: { "application/json": infer Content } };
} ? Content : never;

/** Every POST method takes `idempotencyKey` (default: a fresh one), kept across the call's retries. */
export interface PostOptions {
  idempotencyKey?: string | undefined;
}

export interface ClientOptions {
  /** A key (`svc_test_...`, `svc_live_...`), or give `oauthToken`. */
  apiKey?: string | undefined;
  /** An app's access token: a `Token` is refreshed through `oauthApp` when it runs out. */
  oauthToken?: string | Token | undefined;
  oauthApp?: OAuthApp | undefined;
  /** Each new token after a refresh, to keep (its refresh token replaces the old one, which stops working). */
  onTokenRefresh?: ((token: Token) => void | Promise<void>) | undefined;
  /** Default `http://127.0.0.1:8000`, where `flask --app wsgi serve` listens. */
  baseUrl?: string | undefined;
  /** Per try, in milliseconds (default 30,000). */
  timeoutMs?: number | undefined;
  /** Tries after the first, where one may be made (default 3). */
  maxRetries?: number | undefined;
  /** What sends a request (default: the platform's fetch). */
  fetch?: Fetch | undefined;
  /** What waits between tries (default: a timer). */
  sleep?: Sleep | undefined;
}

function must<T>(data: T | undefined): T {
  if (data === undefined) throw new Error("the API answered without a body where the document promises one");
  return data;
}

/**
 * An id as one path segment: openapi-fetch escapes it (`/`, `?`, `#`, `%`, ...), so
 * `employees.get("../company")` asks for that employee, never the company. A `.` or `..`
 * segment would be resolved away by the URL parser, escaped or not (WHATWG URL reads
 * `%2E%2E` as `..` too), and an empty one would address the collection: RangeError, before
 * anything is sent. Every path parameter goes through it, `client.raw`'s too.
 */
export function segment(id: string): string {
  if (id === "") throw new RangeError("an id is empty: it would address the collection");
  if (/^(?:\.|%2e){1,2}$/i.test(id)) {
    throw new RangeError(`the id ${JSON.stringify(id)} is a dot segment a URL resolves away`);
  }
  return id;
}

/** openapi-fetch's own path serializer, each parameter checked by `segment` first. */
function checkedPath(pathname: string, parameters: Record<string, unknown>): string {
  for (const value of Object.values(parameters ?? {})) {
    if (typeof value === "string") segment(value);
  }
  return defaultPathSerializer(pathname, parameters);
}

/** Every item of every page, the cursor followed for the caller. */
async function* pages<T>(page: (cursor: string | undefined) => Promise<{ data: T[]; next_cursor?: string | null }>,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const answer = await page(cursor);
    yield* answer.data;
    if (!answer.next_cursor) return;
    cursor = answer.next_cursor;
  }
}

/** The query with the cursor of the next page (none on the first). */
function paged<Q extends object>(query: Q, cursor: string | undefined): Q | (Q & { cursor: string }) {
  return cursor === undefined ? query : { ...query, cursor };
}

function key(options: PostOptions): { "Idempotency-Key": string } {
  return { "Idempotency-Key": idempotencyKey(options.idempotencyKey) };
}

class Resource {
  constructor(protected readonly raw: FetchClient<paths>) {}
}

export class Employees extends Resource {
  /** listEmployees: every employee, oldest first; `limit` is the page size. */
  list(query: Query<"listEmployees"> = {}): AsyncGenerator<Employee, void, undefined> {
    return pages(async (cursor) =>
      must((await this.raw.GET("/v1/employees", { params: { query: paged(query, cursor) } })).data));
  }

  /** getEmployee */
  async get(employeeId: string): Promise<Employee> {
    const path = { employee_id: employeeId };
    return must((await this.raw.GET("/v1/employees/{employee_id}", { params: { path } })).data);
  }
}

export class PayrollRuns extends Resource {
  /** listPayrollRuns: every closed run, newest month first (`from`, `to`: YYYY-MM). */
  list(query: Query<"listPayrollRuns"> = {}): AsyncGenerator<Schemas["PayrollRunSummary"], void, undefined> {
    return pages(async (cursor) =>
      must((await this.raw.GET("/v1/payroll-runs", { params: { query: paged(query, cursor) } })).data));
  }

  /** getPayrollRun: the run with its components and journal. */
  async get(payrollRunId: string): Promise<PayrollRun> {
    const path = { payroll_run_id: payrollRunId };
    return must((await this.raw.GET("/v1/payroll-runs/{payroll_run_id}", { params: { path } })).data);
  }
}

export class JournalEntries extends Resource {
  /**
   * listJournalEntries (v1.3): every journal entry the company posted, each once, in
   * posting order; of one legal entity, one accounting month (`period`: YYYY-MM), or
   * posted after the entry `after` (the id of the last one handled).
   */
  list(query: Query<"listJournalEntries"> = {}): AsyncGenerator<LedgerEntry, void, undefined> {
    return pages(async (cursor) =>
      must((await this.raw.GET("/v1/journal-entries", { params: { query: paged(query, cursor) } })).data));
  }
}

export class LeaveRecords extends Resource {
  /** listLeave (v1.3, scope leave:read): every leave, oldest recorded first. */
  list(query: Query<"listLeave"> = {}): AsyncGenerator<Leave, void, undefined> {
    return pages(async (cursor) =>
      must((await this.raw.GET("/v1/leave", { params: { query: paged(query, cursor) } })).data));
  }
}

export class LeaveBalances extends Resource {
  /** listLeaveBalances (v1.3, scope leave:read): each active employee's annual balance as of the end of `as_of`. */
  list(query: Query<"listLeaveBalances"> = {}): AsyncGenerator<LeaveBalance, void, undefined> {
    return pages(async (cursor) =>
      must((await this.raw.GET("/v1/leave-balances", { params: { query: paged(query, cursor) } })).data));
  }
}

export class Attendance extends Resource {
  /** ingestAttendanceEvents: one result per event, in order. */
  async ingest(events: Body<"ingestAttendanceEvents">["events"], options: PostOptions = {},
  ): Promise<Schemas["IngestResponse"]["results"]> {
    const answer = await this.raw.POST("/v1/attendance/events", { body: { events }, params: { header: key(options) } });
    return must(answer.data).results;
  }

  /** listAttendanceDays: every day from `from` to `to` (YYYY-MM-DD, at most 62 days). */
  days(query: Query<"listAttendanceDays">): AsyncGenerator<AttendanceDay, void, undefined> {
    return pages(async (cursor) =>
      must((await this.raw.GET("/v1/attendance", { params: { query: paged(query, cursor) } })).data));
  }
}

export class Events extends Resource {
  /** listEvents: the company's events, oldest first; `types` a list or the API's comma-separated string. */
  list(query: Omit<Query<"listEvents">, "types"> & { types?: string | readonly string[] | undefined } = {},
  ): AsyncGenerator<Event, void, undefined> {
    const { types: given, ...rest } = query;
    const types = typeof given === "string" || given === undefined ? given : given.join(",");
    return pages(async (cursor) => must((await this.raw.GET("/v1/events", {
      params: { query: paged({ ...rest, ...(types ? { types } : {}) }, cursor) },
    })).data));
  }

  /**
   * Every new event as it comes, oldest first, for ever (or until `signal` aborts: the
   * loop then ends): the feed is asked again after `pollMs` while nothing comes, backing
   * off to `maxPollMs`. It starts after the event `after` (the id of the last one you
   * handled, kept where your program keeps its state: pass it again after a restart and
   * nothing is lost or repeated) or, without one, at `since` (default: now).
   */
  async *follow(options: {
    after?: string | undefined; since?: string | undefined; types?: string | readonly string[] | undefined;
    pollMs?: number | undefined; maxPollMs?: number | undefined; signal?: AbortSignal | undefined;
  } = {}): AsyncGenerator<Event, void, undefined> {
    const { types, pollMs = 1000, maxPollMs = 30_000, signal = new AbortController().signal } = options;
    let after = options.after;
    const since = options.since ?? new Date().toISOString();
    let wait = pollMs;
    while (!signal.aborted) {
      let came = false;
      const from = after === undefined ? { since } : { after };
      for await (const event of this.list({ limit: 200, ...from, ...(types === undefined ? {} : { types }) })) {
        yield event;
        after = event.id;
        came = true;
        if (signal.aborted) return;
      }
      wait = came ? pollMs : Math.min(wait * 2, maxPollMs);
      if (!came) await timer(wait, signal).catch(() => undefined); // an abort ends the wait, then the loop
    }
  }

  /** getEvent */
  async get(eventId: string): Promise<Event> {
    const path = { event_id: eventId };
    return must((await this.raw.GET("/v1/events/{event_id}", { params: { path } })).data);
  }
}

export class Webhooks extends Resource {
  /** createWebhookEndpoint: the endpoint, with its `secret` (shown this once). */
  async create(body: Body<"createWebhookEndpoint">, options: PostOptions = {},
  ): Promise<Schemas["CreatedWebhookEndpoint"]> {
    return must((await this.raw.POST("/v1/webhooks", { body, params: { header: key(options) } })).data);
  }

  /** listWebhookEndpoints: this credential's endpoints. */
  async list(): Promise<WebhookEndpoint[]> {
    return must((await this.raw.GET("/v1/webhooks")).data).data;
  }

  /** getWebhookEndpoint */
  async get(webhookId: string): Promise<WebhookEndpoint> {
    const path = { webhook_id: webhookId };
    return must((await this.raw.GET("/v1/webhooks/{webhook_id}", { params: { path } })).data);
  }

  /** updateWebhookEndpoint: only what is given changes (`rate_limit: null` removes the endpoint's pace, v1.3). */
  async update(webhookId: string, body: Body<"updateWebhookEndpoint">): Promise<WebhookEndpoint> {
    const path = { webhook_id: webhookId };
    return must((await this.raw.PATCH("/v1/webhooks/{webhook_id}", { params: { path }, body })).data);
  }

  /** deleteWebhookEndpoint */
  async delete(webhookId: string): Promise<void> {
    await this.raw.DELETE("/v1/webhooks/{webhook_id}", { params: { path: { webhook_id: webhookId } } });
  }

  /** sendTestWebhook: a `ping` is on its way. */
  async test(webhookId: string, options: PostOptions = {}): Promise<void> {
    await this.raw.POST("/v1/webhooks/{webhook_id}/test", {
      params: { path: { webhook_id: webhookId }, header: key(options) },
    });
  }

  /** rotateWebhookSecret: the endpoint with its new `secret`. */
  async rotateSecret(webhookId: string, body: Body<"rotateWebhookSecret"> = {}, options: PostOptions = {},
  ): Promise<Schemas["RotatedWebhookEndpoint"]> {
    return must((await this.raw.POST("/v1/webhooks/{webhook_id}/rotate-secret", {
      params: { path: { webhook_id: webhookId }, header: key(options) }, body,
    })).data);
  }

  /** listWebhookDeliveries: at most 100, newest first. */
  async deliveries(webhookId: string, query: Query<"listWebhookDeliveries"> = {}): Promise<WebhookDelivery[]> {
    return must((await this.raw.GET("/v1/webhooks/{webhook_id}/deliveries", {
      params: { path: { webhook_id: webhookId }, query },
    })).data).data;
  }

  /** redeliverWebhook: the new attempt, on its way. */
  async redeliver(webhookId: string, deliveryId: string, options: PostOptions = {}): Promise<WebhookDelivery> {
    return must((await this.raw.POST("/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", {
      params: { path: { webhook_id: webhookId, delivery_id: deliveryId }, header: key(options) },
    })).data);
  }

  /** replayWebhookEvents: `{queued}`. */
  async replay(webhookId: string, body: Body<"replayWebhookEvents">, options: PostOptions = {},
  ): Promise<Schemas["ReplayQueued"]> {
    return must((await this.raw.POST("/v1/webhooks/{webhook_id}/replay", {
      params: { path: { webhook_id: webhookId }, header: key(options) }, body,
    })).data);
  }
}

export class Sandbox extends Resource {
  /**
   * triggerSandboxEvent: makes the event happen (sandbox keys only) and returns it; on the
   * employee or run given, and for employee.updated setting the fields in `set`.
   */
  async trigger(body: Body<"triggerSandboxEvent">, options: PostOptions = {}): Promise<Event> {
    return must((await this.raw.POST("/v1/sandbox/events", { body, params: { header: key(options) } })).data);
  }

  /**
   * resetSandbox: the sandbox back to its generated staff, runs and journals, with a
   * fresh event history; its keys, endpoints and apps kept.
   */
  async reset(options: PostOptions = {}): Promise<Schemas["SandboxReset"]> {
    return must((await this.raw.POST("/v1/sandbox/reset", { params: { header: key(options) } })).data);
  }
}

/**
 * The Partner API for one credential: `new Client({ apiKey: "svc_test_...", baseUrl })`,
 * or `new Client({ oauthToken: token, oauthApp: app, onTokenRefresh: save })` for a
 * connected app. Resources as properties; lists are async iterators over every page;
 * `raw` is the openapi-fetch client for any operation by its path, through the same
 * credential, retries and errors.
 */
export class Client {
  readonly raw: FetchClient<paths>;
  readonly employees: Employees;
  readonly payrollRuns: PayrollRuns;
  readonly journalEntries: JournalEntries;
  readonly leave: LeaveRecords;
  readonly leaveBalances: LeaveBalances;
  readonly attendance: Attendance;
  readonly events: Events;
  readonly webhooks: Webhooks;
  readonly sandbox: Sandbox;

  constructor(options: ClientOptions) {
    const token = options.apiKey ?? options.oauthToken;
    if (!token) {
      throw new TypeError("no credential: give apiKey (svc_test_... or svc_live_...) or oauthToken; "
                          + "both are empty or missing");
    }
    const send = options.fetch ?? ((request: Request) => fetch(request));
    const transport = new Transport({
      credential: new Credential(token, options.oauthApp, options.onTokenRefresh),
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 3,
      fetch: send,
      sleep: options.sleep ?? timer,
    });
    this.raw = createClient<paths>({
      baseUrl: (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ""),
      headers: { "User-Agent": `partner-api-client-node/${VERSION}` },
      pathSerializer: checkedPath,
      fetch: (request) => transport.send(request),
    });
    this.employees = new Employees(this.raw);
    this.payrollRuns = new PayrollRuns(this.raw);
    this.journalEntries = new JournalEntries(this.raw);
    this.leave = new LeaveRecords(this.raw);
    this.leaveBalances = new LeaveBalances(this.raw);
    this.attendance = new Attendance(this.raw);
    this.events = new Events(this.raw);
    this.webhooks = new Webhooks(this.raw);
    this.sandbox = new Sandbox(this.raw);
  }

  /** getCompany: the company the credential belongs to. */
  async company(): Promise<Company> {
    return must((await this.raw.GET("/v1/company")).data);
  }

  /** getCredential (v1.3): what this client's own key or access token is and may do. */
  async credential(): Promise<Credential_> {
    return must((await this.raw.GET("/v1/credential")).data);
  }

  /** listEventTypes: every event type with its `data` schema. */
  async eventTypes(): Promise<EventType[]> {
    return must((await this.raw.GET("/v1/event-types")).data).data;
  }

  /** listJournalAccounts: the chart of accounts as the company maps it now. */
  async journalAccounts(query: Query<"listJournalAccounts"> = {}): Promise<JournalAccount[]> {
    return must((await this.raw.GET("/v1/journal-accounts", { params: { query } })).data).data;
  }
}

/** The method each operation of the document is called by: a test holds that every published operation has one. */
export const OPERATIONS: Readonly<Record<keyof operations, string>> = {
  getCompany: "company", getCredential: "credential", listEmployees: "employees.list", getEmployee: "employees.get",
  listPayrollRuns: "payrollRuns.list", getPayrollRun: "payrollRuns.get",
  ingestAttendanceEvents: "attendance.ingest", listAttendanceDays: "attendance.days",
  listWebhookEndpoints: "webhooks.list", createWebhookEndpoint: "webhooks.create",
  getWebhookEndpoint: "webhooks.get", updateWebhookEndpoint: "webhooks.update",
  deleteWebhookEndpoint: "webhooks.delete", sendTestWebhook: "webhooks.test",
  rotateWebhookSecret: "webhooks.rotateSecret", listWebhookDeliveries: "webhooks.deliveries",
  replayWebhookEvents: "webhooks.replay", redeliverWebhook: "webhooks.redeliver",
  listEventTypes: "eventTypes", listEvents: "events.list", getEvent: "events.get",
  listJournalAccounts: "journalAccounts", listJournalEntries: "journalEntries.list",
  triggerSandboxEvent: "sandbox.trigger", resetSandbox: "sandbox.reset", listLeave: "leave.list",
  listLeaveBalances: "leaveBalances.list",
};
