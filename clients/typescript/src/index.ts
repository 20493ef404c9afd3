export {
  Attendance, Client, Employees, Events, JournalEntries, LeaveBalances, LeaveRecords, OPERATIONS, PayrollRuns,
  Sandbox, Webhooks, segment,
} from "./client.js";
export type {
  AttendanceDay, ClientOptions, Company, Credential_ as Credential, Employee, Event, EventName, EventType,
  JournalAccount, LedgerEntry, Leave, LeaveBalance, PayrollRun, PostOptions, Schemas, WebhookDelivery, WebhookEndpoint,
} from "./client.js";
export { ApiError } from "./errors.js";
export type { Problem, ProblemError } from "./errors.js";
export { MAX_WAIT_MS, httpDate, retryAfter } from "./http.js";
export type { Fetch, Sleep } from "./fetch.js";
export { OAuthApp, OAuthError } from "./oauth.js";
export type { Authorization, OAuthAppOptions, Token } from "./oauth.js";
export type { components, operations, paths } from "./schema.js";
export { SignatureError, TOLERANCE_SECONDS, signWebhook, verifyWebhook } from "./webhooks.js";
export type { WebhookHeaders } from "./webhooks.js";
export { VERSION } from "./version.js";
