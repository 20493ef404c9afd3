import type { components } from "./schema.js";

export type Problem = components["schemas"]["Problem"];
export type ProblemError = components["schemas"]["ProblemError"];

/**
 * An answer the API refused (`application/problem+json`, RFC 9457): branch on `code`,
 * never on `title`. `requestId` is the one to quote to the API's host (the problem's
 * `request_id`, else the `X-Request-Id` header); `problem` is the body as it came, with
 * any field this version does not name.
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly type: string | undefined;
  readonly detail: string | undefined;
  readonly requestId: string | undefined;
  readonly errors: ProblemError[];
  readonly problem: Record<string, unknown>;

  constructor(status: number, problem: Record<string, unknown>, requestId?: string | null) {
    const text = (name: string): string | undefined =>
      typeof problem[name] === "string" ? (problem[name] as string) : undefined;
    const code = text("code") ?? "internal_error";
    const title = text("title") ?? `HTTP ${status}`;
    const detail = text("detail");
    const id = text("request_id") ?? requestId ?? undefined;
    const errors = Array.isArray(problem.errors) ? (problem.errors as ProblemError[]) : [];
    // A validation_failed problem says which field, and why, in its errors: the message does too.
    const fields = errors.map((error) => `${error.path}: ${error.message}`).join("; ");
    super(`${status} ${code}: ${detail ?? title}${fields ? ` (${fields})` : ""} (request ${id ?? "unknown"})`);
    this.status = status;
    this.code = code;
    this.title = title;
    this.type = text("type");
    this.detail = detail;
    this.requestId = id;
    this.errors = errors;
    this.problem = problem;
  }

  /** The error a refusal stands for: its problem body read (a body that is not a JSON object counts as none). */
  static async from(answer: Response): Promise<ApiError> {
    let problem: Record<string, unknown> = {};
    try {
      const body: unknown = JSON.parse(await answer.text());
      if (body !== null && typeof body === "object" && !Array.isArray(body)) {
        problem = body as Record<string, unknown>;
      }
    } catch {
      // not JSON (a proxy's page): the status and the request id still say what happened
    }
    return new ApiError(answer.status, problem, answer.headers.get("X-Request-Id"));
  }
}
