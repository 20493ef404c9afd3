/**
 * The Partner API's OpenAPI document as TypeScript types, made by openapi-typescript
 * (scripts/generate.mjs: `npm run generate`). Do not edit: CI fails when this file differs
 * from the document the service publishes.
 */

export interface paths {
    "/v1/company": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the company the key belongs to
         * @description Any valid key. Release v1.0.
         */
        get: operations["getCompany"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/credential": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the caller's own credential is and may do (beyond the contract, v1.3)
         * @description Any valid key. Release v1.3.
         */
        get: operations["getCredential"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/employees": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List employees, oldest first
         * @description Scope: `employees:read`. Release v1.0.
         */
        get: operations["listEmployees"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/employees/{employee_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                employee_id: string;
            };
            cookie?: never;
        };
        /**
         * Read one employee
         * @description Scope: `employees:read`. Release v1.0.
         */
        get: operations["getEmployee"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payroll-runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List closed payroll runs, newest month first
         * @description Scope: `payroll:read`. Release v1.0.
         */
        get: operations["listPayrollRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payroll-runs/{payroll_run_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                payroll_run_id: string;
            };
            cookie?: never;
        };
        /**
         * Read one closed payroll run with components and journal
         * @description Scope: `payroll:read`. Release v1.0.
         */
        get: operations["getPayrollRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/attendance/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Push clock events (1 to 500); each is handled on its own
         * @description Scope: `attendance:write`. Release v1.1.
         */
        post: operations["ingestAttendanceEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/attendance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List attendance days, one per employee per day, by date
         * @description Scope: `attendance:read`. Release v1.1.
         */
        get: operations["listAttendanceDays"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List this credential's webhook endpoints
         * @description Scope: `webhooks:manage`. Release v1.2.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Register an endpoint; the signing secret is in this response only
         * @description Scope: `webhooks:manage`. Release v1.2.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        /**
         * Read one webhook endpoint
         * @description Scope: `webhooks:manage`. Release v1.2.
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Remove an endpoint
         * @description Scope: `webhooks:manage`. Release v1.2.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change the URL, the events, or re-enable (`active: true`)
         * @description Scope: `webhooks:manage`. Release v1.2.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a `ping` to this endpoint
         * @description Scope: `webhooks:manage`. Release v1.2.
         */
        post: operations["sendTestWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new signing secret, shown in this response only; the one it replaces keeps signing beside it
         *     until `previous_secret_expires_at` (beyond the contract, v1.3)
         * @description Scope: `webhooks:manage`. Release v1.3.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        /**
         * The delivery log: newest first, at most 100, the last 30 days
         * @description Scope: `webhooks:manage`. Release v1.2.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send again what this endpoint missed since a time: same event ids and bodies, new signatures
         *     (beyond the contract, v1.3)
         * @description Scope: `webhooks:manage`. Release v1.3.
         */
        post: operations["replayWebhookEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
                delivery_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a logged delivery's event again: same id and body, fresh signature
         * @description Scope: `webhooks:manage`. Release v1.2.
         */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/event-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every webhook event type, with the JSON Schema of its `data` (beyond the contract, v1.3)
         * @description Any valid key. Release v1.3.
         */
        get: operations["listEventTypes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the company's events, oldest first (beyond the contract, v1.3)
         * @description Any valid key. Release v1.3.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/{event_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                event_id: string;
            };
            cookie?: never;
        };
        /**
         * Read one event (beyond the contract, v1.3)
         * @description Any valid key. Release v1.3.
         */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/journal-accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The journal accounts as the company maps them now (beyond the contract, v1.3)
         * @description Scope: `payroll:read`. Release v1.3.
         */
        get: operations["listJournalAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/journal-entries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the company's journal entries in posting order (beyond the contract, v1.3)
         * @description Scope: `payroll:read`. Release v1.3.
         */
        get: operations["listJournalEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/leave": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the company's leave, oldest recorded first (beyond the contract, v1.3)
         * @description Scope: `leave:read`. Release v1.3.
         */
        get: operations["listLeave"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/leave-balances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List each active employee's annual leave balance, by employee id (beyond the contract, v1.3)
         * @description Scope: `leave:read`. Release v1.3.
         */
        get: operations["listLeaveBalances"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sandbox/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make an event happen in the key's sandbox company (beyond the contract, v1.3)
         * @description Scope: `webhooks:manage` or `sandbox:manage`. Release v1.3.
         */
        post: operations["triggerSandboxEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sandbox/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reset the key's sandbox company to its generated data (beyond the contract, v1.3): its employees,
         *     leave, attendance, runs, journals, settings and events are made again as a new sandbox's; its keys,
         *     webhook endpoints and OAuth apps are kept
         * @description Scope: `webhooks:manage` or `sandbox:manage`. Release v1.3.
         */
        post: operations["resetSandbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ProblemError: {
            /** @example events[0].at */
            path: string;
            /** @example Must carry a UTC offset. */
            message: string;
        };
        Problem: {
            /** @example https://api.example.com/errors#not_found */
            type: string;
            /** @description Human text; do not branch on it. */
            title: string;
            /** @example 404 */
            status: number;
            /**
             * @description Stable code; branch on this. One of `invalid_request`, `unauthenticated`, `insufficient_scope`, `api_not_enabled`, `sandbox_only`, `not_found`, `method_not_allowed`, `conflict`, `idempotency_key_in_use`, `payload_too_large`, `validation_failed`, `idempotency_key_reused`, `rate_limited`, `internal_error`; tolerate codes added later.
             * @example not_found
             */
            code: string;
            /** @description Same as the X-Request-Id header. */
            request_id: string;
            /** @description What exactly was wrong, for a developer to read. */
            detail?: string;
            /** @description Only for `validation_failed`: one item per invalid field. */
            errors?: components["schemas"]["ProblemError"][];
        };
        LocalizedName: {
            en: string;
            ar: string | null;
        };
        Entity: {
            /** @description Use as the `entity_id` filter. */
            id: string;
            /** @description ISO 3166-1 alpha-2 country code. */
            country: string;
            name: components["schemas"]["LocalizedName"];
            /** @description ISO 4217. */
            currency: string;
            primary: boolean;
        };
        Company: {
            id: string;
            name: components["schemas"]["LocalizedName"];
            country: string;
            currency: string;
            /** @description IANA name; clock events are paired in it. */
            timezone: string;
            sandbox: boolean;
            entities: components["schemas"]["Entity"][];
        };
        CredentialApp: {
            client_id: string;
            name: string;
        };
        Credential: {
            /** @description `api_key` or `oauth_access_token`. Tolerate unknown values. */
            type: string;
            /** @description The key's id, as the console lists it; or the access token's own id. */
            id: string;
            /** @description The key's name, as the company gave it; null for an access token (see `app`). */
            name: string | null;
            company_id: string;
            /** @description `false` for a sandbox company's credential. */
            livemode: boolean;
            /** @description What it may do, sorted. */
            scopes: string[];
            /**
             * Format: date-time
             * @description When the key was made, or the access token issued.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description The key's (or the connection's) last use, noted at most once a minute: this request may not show.
             */
            last_used_at: string | null;
            /**
             * Format: date-time
             * @description When an access token stops working; null for a key (it works until revoked).
             */
            expires_at: string | null;
            /** @description The OAuth app an access token was issued to; null for a key. */
            app: components["schemas"]["CredentialApp"] | (Record<string, never> | null);
        };
        Branch: {
            id: string;
            name: string;
        };
        Employee: {
            id: string;
            staff_number: string;
            name: components["schemas"]["LocalizedName"];
            job_title: string | null;
            department: string | null;
            /**
             * @description `active`, `on_leave`, `suspended` or `left`. Tolerate unknown values.
             * @example active
             */
            status: string;
            /** @description `full_time`, `part_time` or `contract`. Tolerate unknown values. */
            employment_type: string;
            country: string;
            entity_id: string;
            branch: (Record<string, never> | null) | components["schemas"]["Branch"];
            manager_id: string | null;
            contact_email: string | null;
            /** @description E.164. */
            contact_phone: string | null;
            /** Format: date */
            hire_date: string;
            /** Format: date */
            termination_date: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        EmployeePage: {
            data: components["schemas"]["Employee"][];
            /** @description Pass back as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
        };
        Totals: {
            /**
             * @description Decimal string in the currency's minor-unit precision.
             * @example 1250.500
             */
            gross: string;
            /**
             * @description Decimal string in the currency's minor-unit precision.
             * @example 1250.500
             */
            deductions: string;
            /**
             * @description Decimal string in the currency's minor-unit precision.
             * @example 1250.500
             */
            net: string;
            /**
             * @description Decimal string in the currency's minor-unit precision.
             * @example 1250.500
             */
            employer_contributions: string;
            /**
             * @description gross + employer_contributions.
             * @example 1250.500
             */
            total_cost: string;
            /**
             * @description Beyond the contract (v1.3): the month's net change in the end-of-service and leave-salary provisions, accruals less releases (components of kind `provision`); the journal posts them to 5300 End-of-service benefits expense against 2300 End-of-service benefits provision, and to 5310 Leave salary expense against 2310 Leave salary provision (leave taken uses it). Not in total_cost, which is what the run pays; an end-of-service benefit or a leave encashment paid to a leaver is in gross, out of its provision.
             * @example 1250.500
             */
            provisions?: string;
        };
        PayrollRunSummary: {
            id: string;
            entity_id: string;
            country: string;
            /** @example 2026-10 */
            payroll_month: string;
            /** @description `finalized` or `paid`. */
            status: string;
            currency: string;
            employee_count: number;
            totals: components["schemas"]["Totals"];
            /** Format: date-time */
            finalized_at: string;
            /** Format: date-time */
            paid_at: string | null;
            /** Format: date-time */
            updated_at: string;
            /**
             * @description Beyond the contract (v1.3): where the run's salary file stands with the bank under the Wage Protection System, as HR records it: `not_submitted`, `submitted`, `accepted` or `rejected` (a rejected file is submitted again). The file itself is never shared. Each change is announced by `payroll_run.wps_updated`. Tolerate unknown values.
             * @example submitted
             */
            wps_status?: string;
        };
        PayrollRunPage: {
            data: components["schemas"]["PayrollRunSummary"][];
            /** @description Pass back as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
        };
        Component: {
            /** @example housing */
            code: string;
            name: components["schemas"]["LocalizedName"];
            /** @description `earning`, `deduction` or `employer_contribution`; beyond the contract (v1.3), `provision`: a month's change in the end-of-service or leave-salary provision. Tolerate unknown values. */
            kind: string;
            /**
             * @description Decimal string in the currency's minor-unit precision.
             * @example 1250.500
             */
            amount: string;
            /** @description Employees it applies to. */
            employee_count: number;
        };
        JournalLine: {
            /**
             * @description Beyond the contract (v1.3): the account's stable key, the same in every company (listJournalAccounts); `account_code` and `account_name` are the company's mapping of it when the entry was posted. Two keys may share a code: their lines stay apart.
             * @example basic_salaries
             */
            account_key?: string;
            account_code: string;
            account_name: string;
            /**
             * @description Decimal string in the currency's minor-unit precision.
             * @example 1250.500
             */
            debit: string;
            /**
             * @description Decimal string in the currency's minor-unit precision.
             * @example 1250.500
             */
            credit: string;
            /**
             * @description Beyond the contract (v1.3), only on an expense line split by the company's cost centres: `{"department": <name or null>}` (or `branch`); null is the unassigned group. A split line never stands for fewer than 3 employees: smaller groups are shown unassigned, and a small unassigned group joins the smallest named one, shown unassigned too (only when fewer than 3 share the account's amount at all is it one unassigned line for them). The split lines of an account sum to what it would be whole.
             * @example {
             *       "department": "Sales"
             *     }
             */
            dimensions?: {
                [key: string]: string | null;
            };
            /** @description Beyond the contract (v1.3), only on a split line: the employees it stands for: 3 or more, unless fewer than 3 share the account's amount at all (then one unassigned line). */
            employee_count?: number;
        };
        JournalEntry: {
            id: string;
            /** @description `accrual`, `payment`, `correction` or `reversal`; beyond the contract (v1.3), `opening`: a run brings in the end-of-service (Cr 2300) or leave-salary (Cr 2310) provision its employees had earned before the books carried them (Dr 3100 Retained earnings), apart from the month's cost, one entry each; and `true_up`: after a change to an earlier month (a correction, a deletion), the latest run brings a provision back to what its staff are owed at its month's end. Tolerate unknown values. */
            kind: string;
            /** Format: date-time */
            posted_at: string;
            /**
             * Format: date
             * @description Beyond the contract (v1.3): the date of the period the entry belongs to. An accrual or opening: the payroll month's last day; a payment: the day it was paid; a correction, reversal or true-up: the last day of the latest month posted for the entity when it was posted (posted months are not reopened). Null on entries posted before it was kept.
             */
            accounting_date?: string | null;
            /**
             * @description Beyond the contract (v1.3): what the entry is, for the ledger's narration.
             * @example Payroll 2026-09, Gulf Trading, accrual
             */
            memo?: string | null;
            /** @description Beyond the contract (v1.3): on a `reversal`, the id of the run's accrual entry it reverses (with everything posted on the run since); otherwise null. */
            reverses?: string | null;
            /** @description Beyond the contract (v1.3): on a `correction`, the id of the run's accrual entry it corrects; otherwise null. */
            corrects?: string | null;
            /** @description Debits equal credits to the minor unit. */
            lines: components["schemas"]["JournalLine"][];
        };
        PayrollRun: {
            id: string;
            entity_id: string;
            country: string;
            /** @example 2026-10 */
            payroll_month: string;
            /** @description `finalized` or `paid`. */
            status: string;
            currency: string;
            employee_count: number;
            totals: components["schemas"]["Totals"];
            /** Format: date-time */
            finalized_at: string;
            /** Format: date-time */
            paid_at: string | null;
            /** Format: date-time */
            updated_at: string;
            /**
             * @description Beyond the contract (v1.3): where the run's salary file stands with the bank under the Wage Protection System, as HR records it: `not_submitted`, `submitted`, `accepted` or `rejected` (a rejected file is submitted again). The file itself is never shared. Each change is announced by `payroll_run.wps_updated`. Tolerate unknown values.
             * @example submitted
             */
            wps_status?: string;
            components: components["schemas"]["Component"][];
            /** @description Posted entries, oldest first; never edited. */
            journal_entries: components["schemas"]["JournalEntry"][];
        };
        EmployeeRef: {
            /**
             * @description `employee_code` is the staff number, `email` the contact email (any case), `phone` the contact phone (compared in E.164), `external_id` your own id for the person, which HR links to an employee once.
             * @enum {string}
             */
            type: "external_id" | "employee_code" | "email" | "phone";
            value: string;
        };
        AttendanceEventInput: {
            /** @description Your id for the event: the idempotency key per company and `source`. At most 200 characters. */
            external_id: string;
            employee_ref: components["schemas"]["EmployeeRef"];
            /** @enum {string} */
            type: "clock_in" | "clock_out" | "break_start" | "break_end";
            /**
             * @description RFC 3339 with an explicit UTC offset; at most 5 minutes ahead and 35 days back.
             * @example 2026-11-21T08:02:11+03:00
             */
            at: string;
            /** @description Your location id. An unknown value never rejects an event. */
            branch_ref?: string;
            /**
             * @description Name of the sending system. At most 100 characters.
             * @example acme-pos
             */
            source: string;
        };
        IngestRequest: {
            events: components["schemas"]["AttendanceEventInput"][];
        };
        AttendanceEventResult: {
            /** @description Echo of the input; null when it was not a string, or not one line of text (a control or bidirectional control character, a NUL, a lone surrogate): that event is `rejected`. */
            external_id: string | null;
            /** @description `accepted`, `duplicate`, `unmatched_employee` or `rejected`. Tolerate unknown values. */
            status: string;
            /** @description Present for stored events, duplicates included. */
            event_id?: string;
            /** @description Present when `rejected`: a code (`missing_field`, `unknown_type`, `invalid_at`, `at_in_future`, `at_too_old`, `unknown_employee_ref_type`, `invalid_employee_ref`, `invalid_text` naming the field and the character's code point, ...), a colon, and what to fix. */
            reason?: string;
        };
        IngestResponse: {
            /** @description One per input event, in request order. */
            results: components["schemas"]["AttendanceEventResult"][];
        };
        Shift: {
            /** Format: date-time */
            clock_in: string;
            /** Format: date-time */
            clock_out: string;
            break_minutes: number;
            /** @description Clock-in to clock-out, less breaks. */
            worked_minutes: number;
            branch_ref: string | null;
            /** @description One of `partner_api`, `employee_app`, `manual`. Tolerate unknown values. */
            source: string;
            /** @description The sending system's name: the `source` of your events. */
            source_system: string;
        };
        OpenShift: {
            /** Format: date-time */
            clock_in: string;
            break_minutes: number;
            branch_ref: string | null;
            /** @description One of `partner_api`, `employee_app`, `manual`. Tolerate unknown values. */
            source: string;
            source_system: string;
        };
        AttendanceDay: {
            employee_id: string;
            /**
             * Format: date
             * @description Local day in the company timezone on which the shifts started.
             */
            date: string;
            shifts: components["schemas"]["Shift"][];
            worked_minutes: number;
            break_minutes: number;
            /** @description A clock-in still waiting for its clock-out (for up to 16 hours). */
            open_shift: components["schemas"]["OpenShift"] | (Record<string, never> | null);
            /** @description One of `partner_api`, `employee_app`, `manual`. Tolerate unknown values. */
            sources: string[];
        };
        AttendanceDayPage: {
            data: components["schemas"]["AttendanceDay"][];
            /** @description Pass back as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
        };
        WebhookEndpoint: {
            id: string;
            url: string;
            /** @description Event types: employee.created, employee.updated, employee.left, payroll_run.finalized, payroll_run.paid, payroll_run.corrected, payroll_run.deleted, attendance.rejected, ping, payroll_run.wps_updated, leave.approved, leave.cancelled. The test operation sends its `ping` whether or not `ping` is listed. Beyond the contract (v1.3): `["*"]` alone subscribes to every type the company's events have, now and later, but `ping`; a type a scope gates (`leave.*`: `leave:read`) only while the owning credential holds that scope. */
            events: string[];
            active: boolean;
            /** @description Null while active; `delivery_failures` (7 days of failures), `key_revoked` (the owning key was revoked), `connection_revoked` (the owning OAuth connection ended: the customer revoked the app, or its tokens were revoked), `manual` (PATCH `active: false`), or beyond the contract (v1.3) `endpoint_gone` (the receiver answered 410 Gone). Tolerate unknown values. */
            disabled_reason: string | null;
            /** @description Beyond the contract (v1.3): at most this many deliveries a second to this endpoint, 1 to 10000, held across every worker; null for none. A delivery waiting for its turn is not a failure: it is neither retried early nor counted toward disabling. */
            rate_limit?: number | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        WebhookEndpointList: {
            data: components["schemas"]["WebhookEndpoint"][];
        };
        CreateWebhookEndpoint: {
            /** @description `https://` on a public host, at most 2,048 characters, no user name or password, and no whitespace, control character (C0, C1) or bidirectional control (U+202A-U+202E, U+2066-U+2069): 422 naming `url` and the character's code point. */
            url: string;
            /** @description Event types: employee.created, employee.updated, employee.left, payroll_run.finalized, payroll_run.paid, payroll_run.corrected, payroll_run.deleted, attendance.rejected, ping, payroll_run.wps_updated, leave.approved, leave.cancelled. The test operation sends its `ping` whether or not `ping` is listed. Beyond the contract (v1.3): `["*"]` alone subscribes to every type the company's events have, now and later, but `ping`; a type a scope gates (`leave.*`: `leave:read`) only while the owning credential holds that scope. */
            events: ("employee.created" | "employee.updated" | "employee.left" | "payroll_run.finalized" | "payroll_run.paid" | "payroll_run.corrected" | "payroll_run.deleted" | "attendance.rejected" | "ping" | "payroll_run.wps_updated" | "leave.approved" | "leave.cancelled" | "*")[];
            /**
             * @description Beyond the contract (v1.3): at most this many deliveries a second to this endpoint, 1 to 10000, held across every worker; null for none. A delivery waiting for its turn is not a failure: it is neither retried early nor counted toward disabling. Left out: none.
             * @example 50
             */
            rate_limit?: number | null;
        };
        CreatedWebhookEndpoint: {
            id: string;
            url: string;
            /** @description Event types: employee.created, employee.updated, employee.left, payroll_run.finalized, payroll_run.paid, payroll_run.corrected, payroll_run.deleted, attendance.rejected, ping, payroll_run.wps_updated, leave.approved, leave.cancelled. The test operation sends its `ping` whether or not `ping` is listed. Beyond the contract (v1.3): `["*"]` alone subscribes to every type the company's events have, now and later, but `ping`; a type a scope gates (`leave.*`: `leave:read`) only while the owning credential holds that scope. */
            events: string[];
            active: boolean;
            /** @description Null while active; `delivery_failures` (7 days of failures), `key_revoked` (the owning key was revoked), `connection_revoked` (the owning OAuth connection ended: the customer revoked the app, or its tokens were revoked), `manual` (PATCH `active: false`), or beyond the contract (v1.3) `endpoint_gone` (the receiver answered 410 Gone). Tolerate unknown values. */
            disabled_reason: string | null;
            /** @description Beyond the contract (v1.3): at most this many deliveries a second to this endpoint, 1 to 10000, held across every worker; null for none. A delivery waiting for its turn is not a failure: it is neither retried early nor counted toward disabling. */
            rate_limit?: number | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description `whsec_...`: the signing secret, shown in this response only. Keep it. Beyond the contract (v1.3) it is `whsec_` and standard base64, so Standard Webhooks libraries verify the `webhook-signature` header with it as shown. */
            secret: string;
        };
        UpdateWebhookEndpoint: {
            /** @description As at create. */
            url?: string;
            /** @description Event types: employee.created, employee.updated, employee.left, payroll_run.finalized, payroll_run.paid, payroll_run.corrected, payroll_run.deleted, attendance.rejected, ping, payroll_run.wps_updated, leave.approved, leave.cancelled. The test operation sends its `ping` whether or not `ping` is listed. Beyond the contract (v1.3): `["*"]` alone subscribes to every type the company's events have, now and later, but `ping`; a type a scope gates (`leave.*`: `leave:read`) only while the owning credential holds that scope. */
            events?: ("employee.created" | "employee.updated" | "employee.left" | "payroll_run.finalized" | "payroll_run.paid" | "payroll_run.corrected" | "payroll_run.deleted" | "attendance.rejected" | "ping" | "payroll_run.wps_updated" | "leave.approved" | "leave.cancelled" | "*")[];
            /** @description `true` re-enables a disabled endpoint. */
            active?: boolean;
            /**
             * @description Beyond the contract (v1.3): at most this many deliveries a second to this endpoint, 1 to 10000, held across every worker; null for none. A delivery waiting for its turn is not a failure: it is neither retried early nor counted toward disabling. Left out: unchanged; null removes it.
             * @example 50
             */
            rate_limit?: number | null;
        };
        RotateSecret: {
            /**
             * @description Seconds the replaced secret keeps signing beside the new one (both `v1` values, newest first): 0 to 86400, 86400 if left out. 0 stops it at once. A secret replaced before, still in its overlap, stops now.
             * @default 86400
             */
            expire_previous_in?: number;
        };
        RotatedWebhookEndpoint: {
            id: string;
            url: string;
            /** @description Event types: employee.created, employee.updated, employee.left, payroll_run.finalized, payroll_run.paid, payroll_run.corrected, payroll_run.deleted, attendance.rejected, ping, payroll_run.wps_updated, leave.approved, leave.cancelled. The test operation sends its `ping` whether or not `ping` is listed. Beyond the contract (v1.3): `["*"]` alone subscribes to every type the company's events have, now and later, but `ping`; a type a scope gates (`leave.*`: `leave:read`) only while the owning credential holds that scope. */
            events: string[];
            active: boolean;
            /** @description Null while active; `delivery_failures` (7 days of failures), `key_revoked` (the owning key was revoked), `connection_revoked` (the owning OAuth connection ended: the customer revoked the app, or its tokens were revoked), `manual` (PATCH `active: false`), or beyond the contract (v1.3) `endpoint_gone` (the receiver answered 410 Gone). Tolerate unknown values. */
            disabled_reason: string | null;
            /** @description Beyond the contract (v1.3): at most this many deliveries a second to this endpoint, 1 to 10000, held across every worker; null for none. A delivery waiting for its turn is not a failure: it is neither retried early nor counted toward disabling. */
            rate_limit?: number | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description `whsec_...`: the signing secret, shown in this response only. Keep it. Beyond the contract (v1.3) it is `whsec_` and standard base64, so Standard Webhooks libraries verify the `webhook-signature` header with it as shown. */
            secret: string;
            /**
             * Format: date-time
             * @description Until when the secret this rotation replaced still signs every attempt, beside the new one; null when it stopped at once (`expire_previous_in: 0`).
             */
            previous_secret_expires_at: string | null;
        };
        WebhookDelivery: {
            id: string;
            event_id: string;
            event_type: string;
            /** @description `pending`, `succeeded` or `failed`. */
            status: string;
            /** @description 1 to 7; a redelivery is attempt 1. */
            attempt: number;
            /** Format: date-time */
            sent_at: string | null;
            /** @description The envelope sent, byte for byte. */
            request_body: string;
            /** @description Null when no answer came (timeout, TLS or connection failure). */
            response_status: number | null;
            /** @description The first 1 KB of the answer. */
            response_body: string | null;
            duration_ms: number | null;
            /**
             * Format: date-time
             * @description When the next attempt is planned: on a failed attempt that planned it, and on that pending attempt until it is sent. Null otherwise.
             */
            next_retry_at: string | null;
            /** @description Why no answer was recorded (beyond the contract, v1.3): `refused: ...` (the URL's addresses were not deliverable when sending: nothing was sent), `not sent: ...`, `timeout: ...`, `TLS: ...`, `HTTP: ...`. Null when the receiver answered or nothing was tried yet. Branch on the part before the colon, and tolerate new ones. */
            error?: string | null;
        };
        WebhookDeliveryList: {
            data: components["schemas"]["WebhookDelivery"][];
        };
        Replay: {
            /**
             * Format: date-time
             * @description Send again the events of the endpoint's types created since this time and since the endpoint was created (at most 30 days back).
             */
            since: string;
            /**
             * @description `failed`: only the events whose latest delivery to this endpoint did not succeed (it failed, or waits for a retry).
             * @enum {string}
             */
            status?: "failed";
        };
        ReplayQueued: {
            /** @description How many events will be sent now: one delivery each. An event already waiting for this endpoint is not queued twice (a planned retry is brought forward to now; one due or being sent is left), so a second replay right after the first queues 0. */
            queued: number;
        };
        EventType: {
            /** @example employee.updated */
            type: string;
            description: string;
            /** @description The release that brought this event type. */
            release: string;
            /** @description JSON Schema of the envelope's `data` for this type (self-contained). */
            schema: {
                [key: string]: unknown;
            };
        };
        EventTypeList: {
            data: components["schemas"]["EventType"][];
        };
        JournalAccount: {
            /**
             * @description Stable, the same in every company; journal lines carry it as `account_key`.
             * @example end_of_service_provision
             */
            key: string;
            /**
             * @description The company's code now.
             * @example 2300
             */
            code: string;
            name: components["schemas"]["LocalizedName"];
            /** @description `asset`, `liability`, `equity`, `expense`. Tolerate unknown values. */
            type: string;
            /** @example 2300 */
            default_code: string;
        };
        JournalAccountList: {
            data: components["schemas"]["JournalAccount"][];
        };
        LedgerEntry: {
            id: string;
            /** @description `accrual`, `payment`, `correction` or `reversal`; beyond the contract (v1.3), `opening`: a run brings in the end-of-service (Cr 2300) or leave-salary (Cr 2310) provision its employees had earned before the books carried them (Dr 3100 Retained earnings), apart from the month's cost, one entry each; and `true_up`: after a change to an earlier month (a correction, a deletion), the latest run brings a provision back to what its staff are owed at its month's end. Tolerate unknown values. */
            kind: string;
            /** Format: date-time */
            posted_at: string;
            /**
             * Format: date
             * @description Beyond the contract (v1.3): the date of the period the entry belongs to. An accrual or opening: the payroll month's last day; a payment: the day it was paid; a correction, reversal or true-up: the last day of the latest month posted for the entity when it was posted (posted months are not reopened). Null on entries posted before it was kept.
             */
            accounting_date: string | null;
            /**
             * @description Beyond the contract (v1.3): what the entry is, for the ledger's narration.
             * @example Payroll 2026-09, Gulf Trading, accrual
             */
            memo: string | null;
            /** @description Beyond the contract (v1.3): on a `reversal`, the id of the run's accrual entry it reverses (with everything posted on the run since); otherwise null. */
            reverses: string | null;
            /** @description Beyond the contract (v1.3): on a `correction`, the id of the run's accrual entry it corrects; otherwise null. */
            corrects: string | null;
            /** @description Debits equal credits to the minor unit. */
            lines: components["schemas"]["JournalLine"][];
            /** @description The run it was posted on. A deleted run's entries stay listed (its reversal among them); getPayrollRun of that run is 404, as the contract has it. */
            payroll_run_id: string;
            /**
             * @description The run's month.
             * @example 2026-10
             */
            payroll_month: string;
            /** @description The run's legal entity. */
            entity_id: string;
            /**
             * @description ISO 4217, of every amount.
             * @example KWD
             */
            currency: string;
            /** @description On a `true_up`, the id of the entry whose posting left the end-of-service provision off (a correction, a reversal, an accrual), which its memo names; otherwise null. */
            caused_by: string | null;
        };
        LedgerEntryPage: {
            data: components["schemas"]["LedgerEntry"][];
            /** @description Pass back as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
        };
        Leave: {
            id: string;
            employee_id: string;
            /**
             * @description `annual`, `unpaid` or `other`. Sick leave, maternity and paternity, Hajj, bereavement, marriage and every other kind are all `other`: what kind is never sent (it can tell of someone's health or family). Tolerate unknown values.
             * @example annual
             */
            type: string;
            /**
             * @description `requested`, `approved`, `declined` or `cancelled`. Only `approved` leave is time off. Tolerate unknown values.
             * @example approved
             */
            status: string;
            /**
             * Format: date
             * @description First day off.
             */
            start_date: string;
            /**
             * Format: date
             * @description Last day off (inclusive).
             */
            end_date: string;
            /** @description The leave's days as the law counts them: annual leave in working or calendar days as the country's law says (so a week may be 5 or 7), every other type in calendar days. */
            days: number;
            /**
             * Format: date-time
             * @description Moves on every change of this form.
             */
            updated_at: string;
        };
        LeavePage: {
            data: components["schemas"]["Leave"][];
            /** @description Pass back as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
        };
        LeaveBalance: {
            employee_id: string;
            /**
             * @description `annual`. Tolerate other values later.
             * @example annual
             */
            type: string;
            /** @description Annual leave earned by the end of `as_of` under the country's law (nothing before the qualifying service), less what the company's carry-over cap forfeited; 2 decimals. */
            accrued_days: number;
            /** @description Approved annual leave days on or before `as_of`. */
            taken_days: number;
            /** @description `accrued_days` less `taken_days`; 2 decimals. Negative where the company allows it. */
            balance_days: number;
            /** Format: date */
            as_of: string;
        };
        LeaveBalancePage: {
            data: components["schemas"]["LeaveBalance"][];
            /** @description Pass back as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
        };
        SandboxChanges: {
            /** @example Noura Al-Sabah */
            name_en?: string;
            name_ar?: string | null;
            /** @example Cashier */
            job_title?: string | null;
            department?: string | null;
            /** @enum {string} */
            employment_type?: "full_time" | "part_time" | "contract";
            /** @enum {string} */
            status?: "active" | "on_leave" | "suspended";
            contact_email?: string | null;
            contact_phone?: string | null;
        };
        TriggerSandboxEvent: {
            /**
             * @description The event type to make happen.
             * @example employee.updated
             * @enum {string}
             */
            type: "employee.created" | "employee.updated" | "employee.left" | "payroll_run.finalized" | "payroll_run.paid" | "payroll_run.corrected" | "payroll_run.deleted" | "payroll_run.wps_updated" | "leave.approved" | "leave.cancelled";
            /**
             * @description The active employee to act on (employee.updated, employee.left, leave.approved); by default the trigger chooses one.
             * @example emp_8sQw2ZfLk4PnTr6YbVx0Md
             */
            employee_id?: string;
            /** @description The closed run to act on (payroll_run.paid, payroll_run.corrected, payroll_run.deleted, payroll_run.wps_updated); by default the newest that can take the move. A run that cannot (a paid run to delete) is refused with 409. */
            payroll_run_id?: string;
            /**
             * @description For `employee.updated`: the fields to change, with their new values, as HR edits them (`name_en`, `name_ar` are the Employee's `name`), judged by HR's rules (a phone number, an email). By default the trigger changes the job title. A change that leaves everything partners see as it was is refused with 422.
             * @example {
             *       "job_title": "Cashier"
             *     }
             */
            set?: components["schemas"]["SandboxChanges"];
        };
        SandboxReset: {
            company_id: string;
            /** @description The staff made again (SBX-001 to SBX-010). */
            employees: number;
            /** @description Last month's run, finalized. */
            payroll_runs: number;
            /** @description The events the feed starts again with: each employee's `employee.created` and the run's `payroll_run.finalized`. */
            events: number;
        };
        EmployeeEventData: {
            employee: components["schemas"]["Employee"];
        };
        EmployeeUpdatedEventData: {
            employee: components["schemas"]["Employee"];
            /**
             * @description Beyond the contract (v1.3): each field of `employee` that changed since the form partners were last sent, with its value then (a nested field, such as `name` or `branch`, whole). `updated_at` is not listed. Absent for an employee whose earlier form was never sent.
             * @example {
             *       "job_title": "Sales Associate",
             *       "department": null
             *     }
             */
            previous_attributes?: {
                [key: string]: unknown;
            };
        };
        PayrollRunEventData: {
            payroll_run: components["schemas"]["PayrollRunSummary"];
        };
        PayrollRunDeletedEventData: {
            payroll_run_id: string;
        };
        AttendanceRejectedEventData: {
            external_id: string;
            event_id?: string | null;
            /** @description `orphan_clock_out`, `orphan_clock_in`, `shift_too_long`, `overlapping_shift` or `unmatched_employee_expired`. Tolerate unknown values. */
            reason: string;
            detail?: string | null;
        };
        PingEventData: {
            /** @description The endpoint the test was sent to. */
            webhook_id: string;
        };
        LeaveEventData: {
            leave: components["schemas"]["Leave"];
        };
        /** @description An employee was added. */
        EmployeeCreatedEvent: {
            /** @description Unique per event; a redelivery keeps it. Deduplicate on it. */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "employee.created";
            /** Format: date-time */
            created_at: string;
            company_id: string;
            /** @description `false` for sandbox companies. */
            livemode: boolean;
            data: components["schemas"]["EmployeeEventData"];
        };
        /** @description Any field of the Employee schema changed; with v1.3, `previous_attributes` says which, and what each was. */
        EmployeeUpdatedEvent: {
            /** @description Unique per event; a redelivery keeps it. Deduplicate on it. */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "employee.updated";
            /** Format: date-time */
            created_at: string;
            company_id: string;
            /** @description `false` for sandbox companies. */
            livemode: boolean;
            data: components["schemas"]["EmployeeUpdatedEventData"];
        };
        /** @description Employment ended. */
        EmployeeLeftEvent: {
            /** @description Unique per event; a redelivery keeps it. Deduplicate on it. */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "employee.left";
            /** Format: date-time */
            created_at: string;
            company_id: string;
            /** @description `false` for sandbox companies. */
            livemode: boolean;
            data: components["schemas"]["EmployeeEventData"];
        };
        /** @description A run was closed and its journal posted. */
        PayrollRunFinalizedEvent: {
            /** @description Unique per event; a redelivery keeps it. Deduplicate on it. */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "payroll_run.finalized";
            /** Format: date-time */
            created_at: string;
            company_id: string;
            /** @description `false` for sandbox companies. */
            livemode: boolean;
            data: components["schemas"]["PayrollRunEventData"];
        };
        /** @description A run was marked paid and its payment journal posted; with v1.3, also when a paid run pays what a correction left owing (another payment entry). */
        PayrollRunPaidEvent: {
            /** @description Unique per event; a redelivery keeps it. Deduplicate on it. */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "payroll_run.paid";
            /** Format: date-time */
            created_at: string;
            company_id: string;
            /** @description `false` for sandbox companies. */
            livemode: boolean;
            data: components["schemas"]["PayrollRunEventData"];
        };
        /** @description Amounts of a finalized or paid run changed: re-fetch the run. */
        PayrollRunCorrectedEvent: {
            /** @description Unique per event; a redelivery keeps it. Deduplicate on it. */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "payroll_run.corrected";
            /** Format: date-time */
            created_at: string;
            company_id: string;
            /** @description `false` for sandbox companies. */
            livemode: boolean;
            data: components["schemas"]["PayrollRunEventData"];
        };
        /** @description A finalized run was deleted and its journal reversed. */
        PayrollRunDeletedEvent: {
            /** @description Unique per event; a redelivery keeps it. Deduplicate on it. */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "payroll_run.deleted";
            /** Format: date-time */
            created_at: string;
            company_id: string;
            /** @description `false` for sandbox companies. */
            livemode: boolean;
            data: components["schemas"]["PayrollRunDeletedEventData"];
        };
        /** @description A stored clock event could not become attendance. */
        AttendanceRejectedEvent: {
            /** @description Unique per event; a redelivery keeps it. Deduplicate on it. */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "attendance.rejected";
            /** Format: date-time */
            created_at: string;
            company_id: string;
            /** @description `false` for sandbox companies. */
            livemode: boolean;
            data: components["schemas"]["AttendanceRejectedEventData"];
        };
        /** @description Sent by the test operation. */
        PingEvent: {
            /** @description Unique per event; a redelivery keeps it. Deduplicate on it. */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "ping";
            /** Format: date-time */
            created_at: string;
            company_id: string;
            /** @description `false` for sandbox companies. */
            livemode: boolean;
            data: components["schemas"]["PingEventData"];
        };
        /** @description HR recorded where the run's salary file stands with the bank (Wage Protection System): see `wps_status`. */
        PayrollRunWpsUpdatedEvent: {
            /** @description Unique per event; a redelivery keeps it. Deduplicate on it. */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "payroll_run.wps_updated";
            /** Format: date-time */
            created_at: string;
            company_id: string;
            /** @description `false` for sandbox companies. */
            livemode: boolean;
            data: components["schemas"]["PayrollRunEventData"];
        };
        /** @description A leave was approved (asked and approved at once, or approved later): `listLeave`'s item. Only to credentials with `leave:read`. */
        LeaveApprovedEvent: {
            /** @description Unique per event; a redelivery keeps it. Deduplicate on it. */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "leave.approved";
            /** Format: date-time */
            created_at: string;
            company_id: string;
            /** @description `false` for sandbox companies. */
            livemode: boolean;
            data: components["schemas"]["LeaveEventData"];
        };
        /** @description A leave was cancelled, whether it was approved or still requested (`listLeave` shows requested leave too): `listLeave`'s item. Only to credentials with `leave:read`. */
        LeaveCancelledEvent: {
            /** @description Unique per event; a redelivery keeps it. Deduplicate on it. */
            id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "leave.cancelled";
            /** Format: date-time */
            created_at: string;
            company_id: string;
            /** @description `false` for sandbox companies. */
            livemode: boolean;
            data: components["schemas"]["LeaveEventData"];
        };
        /** @description The webhook envelope, as each webhook delivery and the events feed carry it: one of the event types, chosen by `type`. Tolerate types added later. */
        Event: components["schemas"]["EmployeeCreatedEvent"] | components["schemas"]["EmployeeUpdatedEvent"] | components["schemas"]["EmployeeLeftEvent"] | components["schemas"]["PayrollRunFinalizedEvent"] | components["schemas"]["PayrollRunPaidEvent"] | components["schemas"]["PayrollRunCorrectedEvent"] | components["schemas"]["PayrollRunDeletedEvent"] | components["schemas"]["AttendanceRejectedEvent"] | components["schemas"]["PingEvent"] | components["schemas"]["PayrollRunWpsUpdatedEvent"] | components["schemas"]["LeaveApprovedEvent"] | components["schemas"]["LeaveCancelledEvent"];
        EventPage: {
            data: components["schemas"]["Event"][];
            /** @description Pass back as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
        };
    };
    responses: {
        /** @description Any other error, such as `internal_error` (500): a Problem. */
        DEFAULT_ERROR: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Cache-Control": components["headers"]["Cache-Control"];
                Vary: components["headers"]["Vary"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description A unique id of this request; quote it when asking for help. */
        "X-Request-Id": string;
        /** @description Requests allowed per minute. */
        "X-RateLimit-Limit": number;
        /** @description Requests left in the window. */
        "X-RateLimit-Remaining": number;
        /** @description Seconds until the allowance is fully restored. */
        "X-RateLimit-Reset": number;
        /** @description Seconds to wait before retrying. */
        "Retry-After": number;
        /** @description `private, no-cache`: this answer is the calling credential's alone; no shared cache may keep it, and a client revalidates before reusing it. */
        "Cache-Control": string;
        /** @description `Authorization`: another credential gets its own answer. */
        Vary: string;
        /** @description A strong tag of this body (beyond the contract, v1.3): send it back in `If-None-Match` to be answered 304 while the body is the same. */
        ETag: string;
        /** @description `true` on an answer given again (beyond the contract, v1.3): a request with this `Idempotency-Key` was answered before, and this is that answer, its status and body; nothing was done again. Absent otherwise. */
        "Idempotent-Replayed": "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getCompany: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of a body received before (beyond the contract, v1.3): while this operation would answer the same body, it answers 304 with no body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "cmp_3kTMd9Xq2LrVb7YwPz1NcA",
                     *       "name": {
                     *         "en": "Kuwait Sandbox Trading Co.",
                     *         "ar": "شركة الكويت التجريبية للتجارة"
                     *       },
                     *       "country": "KW",
                     *       "currency": "KWD",
                     *       "timezone": "Asia/Kuwait",
                     *       "sandbox": true,
                     *       "entities": [
                     *         {
                     *           "id": "ent_8sQw2ZfLk4PnTr6YbVx0Md",
                     *           "country": "KW",
                     *           "name": {
                     *             "en": "Kuwait Sandbox Trading Co.",
                     *             "ar": null
                     *           },
                     *           "currency": "KWD",
                     *           "primary": true
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["Company"];
                };
            };
            /** @description Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body this request would get. No body; the request still counts against the rate limit. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown or repeated query parameter (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This operation's release is not live yet (`not_found`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    getCredential: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of a body received before (beyond the contract, v1.3): while this operation would answer the same body, it answers 304 with no body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "type": "oauth_access_token",
                     *       "id": "tok_7Hq2LmXr9TbN3vYc1PdZkA",
                     *       "name": null,
                     *       "company_id": "cmp_3kTMd9Xq2LrVb7YwPz1NcA",
                     *       "livemode": false,
                     *       "scopes": [
                     *         "employees:read",
                     *         "payroll:read"
                     *       ],
                     *       "created_at": "2026-11-21T09:00:00Z",
                     *       "last_used_at": "2026-11-21T09:00:05Z",
                     *       "expires_at": "2026-11-21T10:00:00Z",
                     *       "app": {
                     *         "client_id": "app_5RtYu8Io2PlKj4HgFd6SaQ",
                     *         "name": "Ledger Sync"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Credential"];
                };
            };
            /** @description Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body this request would get. No body; the request still counts against the rate limit. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown or repeated query parameter (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This operation's release is not live yet (`not_found`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    listEmployees: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 200. */
                limit?: number;
                /** @description Opaque `next_cursor` of the previous page. One this query was not given (altered, from other filters, or empty) is 400 `invalid_request`. */
                cursor?: string;
                /** @description `active` (every status but `left`) or `left`. Omit for both. */
                status?: "active" | "left";
                /** @description Only employees of this legal entity. */
                entity_id?: string;
                /** @description Beyond the contract (v1.3): only the items whose partner form changed at or after this time (their `updated_at`, which an internal change never moves), oldest change first, ties by id. Keep the largest `updated_at` you saw and ask again from it: a tie is sent again rather than missed (deduplicate by `id`). */
                updated_since?: string;
            };
            header?: {
                /** @description The `ETag` of a body received before (beyond the contract, v1.3): while this operation would answer the same body, it answers 304 with no body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "emp_5hGk2LmQ9wXr3TbN7vYc1P",
                     *           "staff_number": "SBX-001",
                     *           "name": {
                     *             "en": "Fahad Al-Mutairi",
                     *             "ar": "فهد المطيري"
                     *           },
                     *           "job_title": "General Manager",
                     *           "department": "Management",
                     *           "status": "active",
                     *           "employment_type": "full_time",
                     *           "country": "KW",
                     *           "entity_id": "ent_8sQw2ZfLk4PnTr6YbVx0Md",
                     *           "branch": {
                     *             "id": "br_2NcVb8XmQ4kLp7RtZw9Yd1",
                     *             "name": "Head Office"
                     *           },
                     *           "manager_id": null,
                     *           "contact_email": "fahad.almutairi@kw-sandbox.example.com",
                     *           "contact_phone": "+96551234567",
                     *           "hire_date": "2021-03-14",
                     *           "termination_date": null,
                     *           "created_at": "2026-11-21T09:00:00Z",
                     *           "updated_at": "2026-11-21T09:00:00Z"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["EmployeePage"];
                };
            };
            /** @description Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body this request would get. No body; the request still counts against the rate limit. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad or unknown query parameter, invalid JSON or unknown cursor (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This operation's release is not live yet (`not_found`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    getEmployee: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of a body received before (beyond the contract, v1.3): while this operation would answer the same body, it answers 304 with no body. */
                "If-None-Match"?: string;
            };
            path: {
                employee_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "emp_5hGk2LmQ9wXr3TbN7vYc1P",
                     *       "staff_number": "SBX-001",
                     *       "name": {
                     *         "en": "Fahad Al-Mutairi",
                     *         "ar": "فهد المطيري"
                     *       },
                     *       "job_title": "General Manager",
                     *       "department": "Management",
                     *       "status": "active",
                     *       "employment_type": "full_time",
                     *       "country": "KW",
                     *       "entity_id": "ent_8sQw2ZfLk4PnTr6YbVx0Md",
                     *       "branch": {
                     *         "id": "br_2NcVb8XmQ4kLp7RtZw9Yd1",
                     *         "name": "Head Office"
                     *       },
                     *       "manager_id": null,
                     *       "contact_email": "fahad.almutairi@kw-sandbox.example.com",
                     *       "contact_phone": "+96551234567",
                     *       "hire_date": "2021-03-14",
                     *       "termination_date": null,
                     *       "created_at": "2026-11-21T09:00:00Z",
                     *       "updated_at": "2026-11-21T09:00:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Employee"];
                };
            };
            /** @description Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body this request would get. No body; the request still counts against the rate limit. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown or repeated query parameter (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in this company (`not_found`), or this operation's release is not live yet. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    listPayrollRuns: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 200. */
                limit?: number;
                /** @description Opaque `next_cursor` of the previous page. One this query was not given (altered, from other filters, or empty) is 400 `invalid_request`. */
                cursor?: string;
                /** @description First payroll month (YYYY-MM), inclusive. */
                from?: string;
                /** @description Last payroll month (YYYY-MM), inclusive; not before `from` (else 400 `invalid_request`). */
                to?: string;
                status?: "finalized" | "paid";
                /** @description Beyond the contract (v1.3): only the items whose partner form changed at or after this time (their `updated_at`, which an internal change never moves), oldest change first, ties by id. Keep the largest `updated_at` you saw and ask again from it: a tie is sent again rather than missed (deduplicate by `id`). */
                updated_since?: string;
            };
            header?: {
                /** @description The `ETag` of a body received before (beyond the contract, v1.3): while this operation would answer the same body, it answers 304 with no body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "prun_7Yc2NbX4kQ9mLr1TzWv8Pd",
                     *           "entity_id": "ent_8sQw2ZfLk4PnTr6YbVx0Md",
                     *           "country": "KW",
                     *           "payroll_month": "2026-10",
                     *           "status": "finalized",
                     *           "currency": "KWD",
                     *           "employee_count": 10,
                     *           "totals": {
                     *             "gross": "12840.000",
                     *             "deductions": "512.430",
                     *             "net": "12327.570",
                     *             "employer_contributions": "561.230",
                     *             "total_cost": "13401.230"
                     *           },
                     *           "finalized_at": "2026-11-21T09:00:00Z",
                     *           "paid_at": null,
                     *           "updated_at": "2026-11-21T09:00:00Z",
                     *           "wps_status": "submitted"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["PayrollRunPage"];
                };
            };
            /** @description Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body this request would get. No body; the request still counts against the rate limit. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad or unknown query parameter, invalid JSON or unknown cursor (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This operation's release is not live yet (`not_found`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    getPayrollRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of a body received before (beyond the contract, v1.3): while this operation would answer the same body, it answers 304 with no body. */
                "If-None-Match"?: string;
            };
            path: {
                payroll_run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "prun_7Yc2NbX4kQ9mLr1TzWv8Pd",
                     *       "entity_id": "ent_8sQw2ZfLk4PnTr6YbVx0Md",
                     *       "country": "KW",
                     *       "payroll_month": "2026-10",
                     *       "status": "finalized",
                     *       "currency": "KWD",
                     *       "employee_count": 10,
                     *       "totals": {
                     *         "gross": "12840.000",
                     *         "deductions": "512.430",
                     *         "net": "12327.570",
                     *         "employer_contributions": "561.230",
                     *         "total_cost": "13401.230"
                     *       },
                     *       "finalized_at": "2026-11-21T09:00:00Z",
                     *       "paid_at": null,
                     *       "updated_at": "2026-11-21T09:00:00Z",
                     *       "wps_status": "submitted",
                     *       "components": [
                     *         {
                     *           "code": "basic",
                     *           "name": {
                     *             "en": "Basic salary",
                     *             "ar": "الراتب الأساسي"
                     *           },
                     *           "kind": "earning",
                     *           "amount": "9300.000",
                     *           "employee_count": 10
                     *         }
                     *       ],
                     *       "journal_entries": [
                     *         {
                     *           "id": "jrn_4TqP8vLm2XcN6bR9kZw1Yd",
                     *           "kind": "accrual",
                     *           "posted_at": "2026-11-21T09:00:00Z",
                     *           "accounting_date": "2026-10-31",
                     *           "memo": "Payroll 2026-10, Gulf Trading, accrual",
                     *           "reverses": null,
                     *           "corrects": null,
                     *           "lines": [
                     *             {
                     *               "account_code": "5100",
                     *               "account_name": "Basic salaries",
                     *               "debit": "9300.000",
                     *               "credit": "0.000"
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["PayrollRun"];
                };
            };
            /** @description Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body this request would get. No body; the request still counts against the rate limit. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown or repeated query parameter (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in this company (`not_found`), or this operation's release is not live yet. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    ingestAttendanceEvents: {
        parameters: {
            query?: never;
            header?: {
                /** @description Beyond the contract (v1.3): a key of your choosing (a UUID is a good one), 1 to 255 printable ASCII characters, bare or as the IETF draft's quoted string. Send the same request again with the same key within 24 hours, and you get the first answer again (its status and body, with `Idempotent-Replayed: true`) and nothing is done twice. Only a success is kept: after an error the key is free again. The key is your company's; another request with it (another body, operation or credential) is 422 `idempotency_key_reused`, and the same one while the first still runs 409 `idempotency_key_in_use`. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "events": [
                 *         {
                 *           "external_id": "pos-8812",
                 *           "employee_ref": {
                 *             "type": "employee_code",
                 *             "value": "SBX-001"
                 *           },
                 *           "type": "clock_in",
                 *           "at": "2026-11-21T08:02:11+03:00",
                 *           "branch_ref": "salmiya-1",
                 *           "source": "acme-pos"
                 *         },
                 *         {
                 *           "external_id": "pos-8813",
                 *           "employee_ref": {
                 *             "type": "email",
                 *             "value": "someone@example.com"
                 *           },
                 *           "type": "clock_out",
                 *           "at": "2026-11-21T17:00:00+03:00",
                 *           "source": "acme-pos"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["IngestRequest"];
            };
        };
        responses: {
            /** @description One result per event, in request order. Per-event failures are `rejected` results, not HTTP errors. */
            207: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "results": [
                     *         {
                     *           "external_id": "pos-8812",
                     *           "status": "accepted",
                     *           "event_id": "aev_3kQ9LmZ2xWc7NbR1TyVp4D"
                     *         },
                     *         {
                     *           "external_id": "pos-8813",
                     *           "status": "unmatched_employee",
                     *           "event_id": "aev_8HvT2MqX5LzNc1RbW7Yk0P"
                     *         },
                     *         {
                     *           "external_id": "pos-8811",
                     *           "status": "rejected",
                     *           "reason": "at_in_future: `at` is more than 5 minutes in the future (check the device clock)"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["IngestResponse"];
                };
            };
            /** @description Bad or unknown query parameter, invalid JSON or unknown cursor (`invalid_request`). Beyond the contract (v1.3), `invalid_request` also for an `Idempotency-Key` that is not 1 to 255 printable ASCII characters. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This operation's release is not live yet (`not_found`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Beyond the contract (v1.3), `idempotency_key_in_use`: a request with this `Idempotency-Key` is still running; send it again in a moment. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description More than 500 events or a body over 1 MB (`payload_too_large`). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Well-formed JSON that fails validation (`validation_failed`). Beyond the contract (v1.3), `idempotency_key_reused`: this `Idempotency-Key` came with another request in the last 24 hours; nothing was done. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    listAttendanceDays: {
        parameters: {
            query: {
                /** @description Page size, 1 to 200. */
                limit?: number;
                /** @description Opaque `next_cursor` of the previous page. One this query was not given (altered, from other filters, or empty) is 400 `invalid_request`. */
                cursor?: string;
                /** @description First day, YYYY-MM-DD. */
                from: string;
                /** @description Last day, inclusive: not before `from`, and at most 62 days after it (else 400 `invalid_request`). */
                to: string;
                /** @description Only this employee's days. */
                employee_id?: string;
            };
            header?: {
                /** @description The `ETag` of a body received before (beyond the contract, v1.3): while this operation would answer the same body, it answers 304 with no body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "employee_id": "emp_5hGk2LmQ9wXr3TbN7vYc1P",
                     *           "date": "2026-11-20",
                     *           "shifts": [
                     *             {
                     *               "clock_in": "2026-11-20T05:02:11Z",
                     *               "clock_out": "2026-11-20T14:00:00Z",
                     *               "break_minutes": 45,
                     *               "worked_minutes": 492,
                     *               "branch_ref": "salmiya-1",
                     *               "source": "partner_api",
                     *               "source_system": "acme-pos"
                     *             }
                     *           ],
                     *           "worked_minutes": 492,
                     *           "break_minutes": 45,
                     *           "open_shift": null,
                     *           "sources": [
                     *             "partner_api"
                     *           ]
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["AttendanceDayPage"];
                };
            };
            /** @description Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body this request would get. No body; the request still counts against the rate limit. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad or unknown query parameter, invalid JSON or unknown cursor (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This operation's release is not live yet (`not_found`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of a body received before (beyond the contract, v1.3): while this operation would answer the same body, it answers 304 with no body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "whk_3kQ8mZr2LpX7vNc4TbW9yD",
                     *           "url": "https://erp.example.com/hooks/svc",
                     *           "events": [
                     *             "employee.created",
                     *             "employee.updated",
                     *             "employee.left"
                     *           ],
                     *           "active": true,
                     *           "disabled_reason": null,
                     *           "rate_limit": null,
                     *           "created_at": "2026-11-21T09:00:00Z",
                     *           "updated_at": "2026-11-21T09:00:00Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            /** @description Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body this request would get. No body; the request still counts against the rate limit. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown or repeated query parameter (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This operation's release is not live yet (`not_found`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Beyond the contract (v1.3): a key of your choosing (a UUID is a good one), 1 to 255 printable ASCII characters, bare or as the IETF draft's quoted string. Send the same request again with the same key within 24 hours, and you get the first answer again (its status and body, with `Idempotent-Replayed: true`) and nothing is done twice. Only a success is kept: after an error the key is free again. The key is your company's; another request with it (another body, operation or credential) is 422 `idempotency_key_reused`, and the same one while the first still runs 409 `idempotency_key_in_use`. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://erp.example.com/hooks/svc",
                 *       "events": [
                 *         "employee.created",
                 *         "employee.updated",
                 *         "employee.left"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["CreateWebhookEndpoint"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whk_3kQ8mZr2LpX7vNc4TbW9yD",
                     *       "url": "https://erp.example.com/hooks/svc",
                     *       "events": [
                     *         "employee.created",
                     *         "employee.updated",
                     *         "employee.left"
                     *       ],
                     *       "active": true,
                     *       "disabled_reason": null,
                     *       "rate_limit": null,
                     *       "created_at": "2026-11-21T09:00:00Z",
                     *       "updated_at": "2026-11-21T09:00:00Z",
                     *       "secret": "whsec_..."
                     *     }
                     */
                    "application/json": components["schemas"]["CreatedWebhookEndpoint"];
                };
            };
            /** @description Bad or unknown query parameter, invalid JSON or unknown cursor (`invalid_request`). Beyond the contract (v1.3), `invalid_request` also for an `Idempotency-Key` that is not 1 to 255 printable ASCII characters. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This operation's release is not live yet (`not_found`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Beyond the contract (v1.3), `idempotency_key_in_use`: a request with this `Idempotency-Key` is still running; send it again in a moment. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description More than 500 events or a body over 1 MB (`payload_too_large`). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Well-formed JSON that fails validation (`validation_failed`). Beyond the contract (v1.3), `idempotency_key_reused`: this `Idempotency-Key` came with another request in the last 24 hours; nothing was done. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of a body received before (beyond the contract, v1.3): while this operation would answer the same body, it answers 304 with no body. */
                "If-None-Match"?: string;
            };
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whk_3kQ8mZr2LpX7vNc4TbW9yD",
                     *       "url": "https://erp.example.com/hooks/svc",
                     *       "events": [
                     *         "employee.created",
                     *         "employee.updated",
                     *         "employee.left"
                     *       ],
                     *       "active": true,
                     *       "disabled_reason": null,
                     *       "rate_limit": null,
                     *       "created_at": "2026-11-21T09:00:00Z",
                     *       "updated_at": "2026-11-21T09:00:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body this request would get. No body; the request still counts against the rate limit. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown or repeated query parameter (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in this company (`not_found`), or this operation's release is not live yet. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed; its pending deliveries are cancelled. */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown or repeated query parameter (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in this company (`not_found`), or this operation's release is not live yet. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "active": true
                 *     }
                 */
                "application/json": components["schemas"]["UpdateWebhookEndpoint"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whk_3kQ8mZr2LpX7vNc4TbW9yD",
                     *       "url": "https://erp.example.com/hooks/svc",
                     *       "events": [
                     *         "employee.created",
                     *         "employee.updated",
                     *         "employee.left"
                     *       ],
                     *       "active": true,
                     *       "disabled_reason": null,
                     *       "rate_limit": null,
                     *       "created_at": "2026-11-21T09:00:00Z",
                     *       "updated_at": "2026-11-21T09:00:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Bad or unknown query parameter, invalid JSON or unknown cursor (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in this company (`not_found`), or this operation's release is not live yet. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description More than 500 events or a body over 1 MB (`payload_too_large`). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Well-formed JSON that fails validation (`validation_failed`). */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    sendTestWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Beyond the contract (v1.3): a key of your choosing (a UUID is a good one), 1 to 255 printable ASCII characters, bare or as the IETF draft's quoted string. Send the same request again with the same key within 24 hours, and you get the first answer again (its status and body, with `Idempotent-Replayed: true`) and nothing is done twice. Only a success is kept: after an error the key is free again. The key is your company's; another request with it (another body, operation or credential) is 422 `idempotency_key_reused`, and the same one while the first still runs 409 `idempotency_key_in_use`. */
                "Idempotency-Key"?: string;
            };
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A `ping` event (data `{webhook_id}`) is queued for immediate delivery. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown or repeated query parameter (`invalid_request`). Beyond the contract (v1.3), `invalid_request` also for an `Idempotency-Key` that is not 1 to 255 printable ASCII characters. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in this company (`not_found`), or this operation's release is not live yet. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Beyond the contract (v1.3), `idempotency_key_in_use`: a request with this `Idempotency-Key` is still running; send it again in a moment. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Beyond the contract (v1.3), `idempotency_key_reused`: this `Idempotency-Key` came with another request in the last 24 hours; nothing was done. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Beyond the contract (v1.3): a key of your choosing (a UUID is a good one), 1 to 255 printable ASCII characters, bare or as the IETF draft's quoted string. Send the same request again with the same key within 24 hours, and you get the first answer again (its status and body, with `Idempotent-Replayed: true`) and nothing is done twice. Only a success is kept: after an error the key is free again. The key is your company's; another request with it (another body, operation or credential) is 422 `idempotency_key_reused`, and the same one while the first still runs 409 `idempotency_key_in_use`. */
                "Idempotency-Key"?: string;
            };
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "expire_previous_in": 3600
                 *     }
                 */
                "application/json": components["schemas"]["RotateSecret"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whk_3kQ8mZr2LpX7vNc4TbW9yD",
                     *       "url": "https://erp.example.com/hooks/svc",
                     *       "events": [
                     *         "employee.created",
                     *         "employee.updated",
                     *         "employee.left"
                     *       ],
                     *       "active": true,
                     *       "disabled_reason": null,
                     *       "rate_limit": null,
                     *       "created_at": "2026-11-21T09:00:00Z",
                     *       "updated_at": "2026-11-21T09:00:00Z",
                     *       "secret": "whsec_...",
                     *       "previous_secret_expires_at": "2026-11-22T09:00:00Z"
                     *     }
                     */
                    "application/json": components["schemas"]["RotatedWebhookEndpoint"];
                };
            };
            /** @description Bad or unknown query parameter, invalid JSON or unknown cursor (`invalid_request`). Beyond the contract (v1.3), `invalid_request` also for an `Idempotency-Key` that is not 1 to 255 printable ASCII characters. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in this company (`not_found`), or this operation's release is not live yet. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Beyond the contract (v1.3), `idempotency_key_in_use`: a request with this `Idempotency-Key` is still running; send it again in a moment. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description More than 500 events or a body over 1 MB (`payload_too_large`). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Well-formed JSON that fails validation (`validation_failed`). Beyond the contract (v1.3), `idempotency_key_reused`: this `Idempotency-Key` came with another request in the last 24 hours; nothing was done. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Only deliveries in this state. */
                status?: "succeeded" | "failed" | "pending";
            };
            header?: {
                /** @description The `ETag` of a body received before (beyond the contract, v1.3): while this operation would answer the same body, it answers 304 with no body. */
                "If-None-Match"?: string;
            };
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "whd_7Hs2kLq9ZxW4mN8cVb3RtP",
                     *           "event_id": "evt_2mXc8QkL5vRz9TnB4wYh7D",
                     *           "event_type": "employee.created",
                     *           "status": "failed",
                     *           "attempt": 1,
                     *           "sent_at": "2026-11-21T09:00:01Z",
                     *           "request_body": "{\"id\":\"evt_2mXc8QkL5vRz9TnB4wYh7D\",\"type\":\"employee.created\",\"...\":\"...\"}",
                     *           "response_status": 503,
                     *           "response_body": "upstream unavailable",
                     *           "duration_ms": 84,
                     *           "next_retry_at": "2026-11-21T09:01:01Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            /** @description Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body this request would get. No body; the request still counts against the rate limit. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad or unknown query parameter, invalid JSON or unknown cursor (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in this company (`not_found`), or this operation's release is not live yet. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    replayWebhookEvents: {
        parameters: {
            query?: never;
            header?: {
                /** @description Beyond the contract (v1.3): a key of your choosing (a UUID is a good one), 1 to 255 printable ASCII characters, bare or as the IETF draft's quoted string. Send the same request again with the same key within 24 hours, and you get the first answer again (its status and body, with `Idempotent-Replayed: true`) and nothing is done twice. Only a success is kept: after an error the key is free again. The key is your company's; another request with it (another body, operation or credential) is 422 `idempotency_key_reused`, and the same one while the first still runs 409 `idempotency_key_in_use`. */
                "Idempotency-Key"?: string;
            };
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "since": "2026-11-20T00:00:00Z",
                 *       "status": "failed"
                 *     }
                 */
                "application/json": components["schemas"]["Replay"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "queued": 12
                     *     }
                     */
                    "application/json": components["schemas"]["ReplayQueued"];
                };
            };
            /** @description Bad or unknown query parameter, invalid JSON or unknown cursor (`invalid_request`). Beyond the contract (v1.3), `invalid_request` also for an `Idempotency-Key` that is not 1 to 255 printable ASCII characters. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in this company (`not_found`), or this operation's release is not live yet. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflicts with the current state (`conflict`). Beyond the contract (v1.3), `idempotency_key_in_use`: a request with this `Idempotency-Key` is still running; send it again in a moment. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description More than 500 events or a body over 1 MB (`payload_too_large`). */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Well-formed JSON that fails validation (`validation_failed`). Beyond the contract (v1.3), `idempotency_key_reused`: this `Idempotency-Key` came with another request in the last 24 hours; nothing was done. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Beyond the contract (v1.3): a key of your choosing (a UUID is a good one), 1 to 255 printable ASCII characters, bare or as the IETF draft's quoted string. Send the same request again with the same key within 24 hours, and you get the first answer again (its status and body, with `Idempotent-Replayed: true`) and nothing is done twice. Only a success is kept: after an error the key is free again. The key is your company's; another request with it (another body, operation or credential) is 422 `idempotency_key_reused`, and the same one while the first still runs 409 `idempotency_key_in_use`. */
                "Idempotency-Key"?: string;
            };
            path: {
                webhook_id: string;
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "whd_7Hs2kLq9ZxW4mN8cVb3RtP",
                     *       "event_id": "evt_2mXc8QkL5vRz9TnB4wYh7D",
                     *       "event_type": "employee.created",
                     *       "status": "pending",
                     *       "attempt": 1,
                     *       "sent_at": null,
                     *       "request_body": "{\"id\":\"evt_2mXc8QkL5vRz9TnB4wYh7D\",\"type\":\"employee.created\",\"...\":\"...\"}",
                     *       "response_status": null,
                     *       "response_body": null,
                     *       "duration_ms": null,
                     *       "next_retry_at": null
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Unknown or repeated query parameter (`invalid_request`). Beyond the contract (v1.3), `invalid_request` also for an `Idempotency-Key` that is not 1 to 255 printable ASCII characters. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in this company (`not_found`), or this operation's release is not live yet. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Conflicts with the current state (`conflict`). Beyond the contract (v1.3), `idempotency_key_in_use`: a request with this `Idempotency-Key` is still running; send it again in a moment. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Beyond the contract (v1.3), `idempotency_key_reused`: this `Idempotency-Key` came with another request in the last 24 hours; nothing was done. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    listEventTypes: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of a body received before (beyond the contract, v1.3): while this operation would answer the same body, it answers 304 with no body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "type": "payroll_run.deleted",
                     *           "description": "A finalized run was deleted and its journal reversed.",
                     *           "release": "v1.2",
                     *           "schema": {
                     *             "type": "object",
                     *             "properties": {
                     *               "payroll_run_id": {
                     *                 "type": "string"
                     *               }
                     *             },
                     *             "required": [
                     *               "payroll_run_id"
                     *             ]
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["EventTypeList"];
                };
            };
            /** @description Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body this request would get. No body; the request still counts against the rate limit. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown or repeated query parameter (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This operation's release is not live yet (`not_found`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 200. */
                limit?: number;
                /** @description Opaque `next_cursor` of the previous page. One this query was not given (altered, from other filters, or empty) is 400 `invalid_request`. */
                cursor?: string;
                /** @description Only these event types, comma-separated (`employee.created,employee.left`). */
                types?: string;
                /** @description Only events created at or after this time (RFC 3339 with its offset). */
                since?: string;
                /** @description Only events after this one (an event id) in the feed's order: keep the id of the last event you handled, and ask again with it to get what came since, each event once. Ignored beside a `cursor`. An id this feed does not hold (another company's, not of the types asked for, or older than its 30 days) is 400 `invalid_request`. */
                after?: string;
            };
            header?: {
                /** @description The `ETag` of a body received before (beyond the contract, v1.3): while this operation would answer the same body, it answers 304 with no body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "evt_3JkLm9QwXr2TbN7vYc1PdZ",
                     *           "type": "employee.updated",
                     *           "created_at": "2026-11-21T09:00:00Z",
                     *           "company_id": "cmp_7Yc2NbX4kQ9mLr1TzWv8Pd",
                     *           "livemode": true,
                     *           "data": {
                     *             "employee": {
                     *               "id": "emp_5hGk2LmQ9wXr3TbN7vYc1P",
                     *               "job_title": "General Manager"
                     *             }
                     *           }
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["EventPage"];
                };
            };
            /** @description Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body this request would get. No body; the request still counts against the rate limit. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad or unknown query parameter, invalid JSON or unknown cursor (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This operation's release is not live yet (`not_found`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of a body received before (beyond the contract, v1.3): while this operation would answer the same body, it answers 304 with no body. */
                "If-None-Match"?: string;
            };
            path: {
                event_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "evt_3JkLm9QwXr2TbN7vYc1PdZ",
                     *       "type": "employee.updated",
                     *       "created_at": "2026-11-21T09:00:00Z",
                     *       "company_id": "cmp_7Yc2NbX4kQ9mLr1TzWv8Pd",
                     *       "livemode": true,
                     *       "data": {
                     *         "employee": {
                     *           "id": "emp_5hGk2LmQ9wXr3TbN7vYc1P",
                     *           "job_title": "General Manager"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Event"];
                };
            };
            /** @description Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body this request would get. No body; the request still counts against the rate limit. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unknown or repeated query parameter (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in this company (`not_found`), or this operation's release is not live yet. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    listJournalAccounts: {
        parameters: {
            query?: {
                /** @description The accounts as this legal entity's journals use them (its own mapping wins over the company's). */
                entity_id?: string;
            };
            header?: {
                /** @description The `ETag` of a body received before (beyond the contract, v1.3): while this operation would answer the same body, it answers 304 with no body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "key": "end_of_service_provision",
                     *           "code": "2300",
                     *           "name": {
                     *             "en": "End-of-service benefits provision",
                     *             "ar": "مخصص مكافأة نهاية الخدمة"
                     *           },
                     *           "type": "liability",
                     *           "default_code": "2300"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["JournalAccountList"];
                };
            };
            /** @description Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body this request would get. No body; the request still counts against the rate limit. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad or unknown query parameter, invalid JSON or unknown cursor (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in this company (`not_found`), or this operation's release is not live yet. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    listJournalEntries: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 200. */
                limit?: number;
                /** @description Opaque `next_cursor` of the previous page. One this query was not given (altered, from other filters, or empty) is 400 `invalid_request`. */
                cursor?: string;
                /** @description Only the entries of this legal entity's runs. Not one of the company's: 404 `not_found`. */
                entity_id?: string;
                /** @description Only the entries whose `accounting_date` falls in this month (YYYY-MM): the entries of that period of the ledger. */
                period?: string;
                /** @description Only the entries posted after this one (an entry id) in the feed's order: keep the id of the last entry you handled, and ask again with it to get what was posted since, each entry once. Ignored beside a `cursor`. An id that is not one of the company's entries is 400 `invalid_request`. */
                after?: string;
            };
            header?: {
                /** @description The `ETag` of a body received before (beyond the contract, v1.3): while this operation would answer the same body, it answers 304 with no body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "jrn_4TqP8vLm2XcN6bR9kZw1Yd",
                     *           "kind": "true_up",
                     *           "payroll_run_id": "prun_7Yc2NbX4kQ9mLr1TzWv8Pd",
                     *           "payroll_month": "2026-10",
                     *           "entity_id": "ent_8sQw2ZfLk4PnTr6YbVx0Md",
                     *           "currency": "KWD",
                     *           "posted_at": "2026-11-21T09:00:00Z",
                     *           "accounting_date": "2026-10-31",
                     *           "memo": "Payroll 2026-10, Gulf Trading, end-of-service provision true-up (after the correction of payroll 2026-09, prun_2NcVb8XmQ4kLp7RtZw9Yd1)",
                     *           "corrects": null,
                     *           "reverses": null,
                     *           "caused_by": "jrn_9XcN6bR4TqP8vLm2kZw1Yd",
                     *           "lines": [
                     *             {
                     *               "account_key": "end_of_service_expense",
                     *               "account_code": "5300",
                     *               "account_name": "End-of-service benefits expense",
                     *               "debit": "12.500",
                     *               "credit": "0.000"
                     *             },
                     *             {
                     *               "account_key": "end_of_service_provision",
                     *               "account_code": "2300",
                     *               "account_name": "End-of-service benefits provision",
                     *               "debit": "0.000",
                     *               "credit": "12.500"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["LedgerEntryPage"];
                };
            };
            /** @description Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body this request would get. No body; the request still counts against the rate limit. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad or unknown query parameter, invalid JSON or unknown cursor (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description No such resource in this company (`not_found`), or this operation's release is not live yet. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    listLeave: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 200. */
                limit?: number;
                /** @description Opaque `next_cursor` of the previous page. One this query was not given (altered, from other filters, or empty) is 400 `invalid_request`. */
                cursor?: string;
                /** @description Only this employee's leave (none for an id that is not one of the company's employees). */
                employee_id?: string;
                /** @description Only leave in this status: `requested`, `approved`, `declined` or `cancelled`. */
                status?: "requested" | "approved" | "declined" | "cancelled";
                /** @description Only leave that ends on or after this day (YYYY-MM-DD). */
                from?: string;
                /** @description Only leave that starts on or before this day (YYYY-MM-DD), not before `from` (else 400 `invalid_request`). With `from`: the leave that touches that window. */
                to?: string;
                /** @description Beyond the contract (v1.3): only the items whose partner form changed at or after this time (their `updated_at`, which an internal change never moves), oldest change first, ties by id. Keep the largest `updated_at` you saw and ask again from it: a tie is sent again rather than missed (deduplicate by `id`). */
                updated_since?: string;
            };
            header?: {
                /** @description The `ETag` of a body received before (beyond the contract, v1.3): while this operation would answer the same body, it answers 304 with no body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "leave_6TqP8vLm2XcN6bR9kZw1Yd",
                     *           "employee_id": "emp_5hGk2LmQ9wXr3TbN7vYc1P",
                     *           "type": "annual",
                     *           "status": "approved",
                     *           "start_date": "2026-12-06",
                     *           "end_date": "2026-12-10",
                     *           "days": 5,
                     *           "updated_at": "2026-11-21T09:00:00Z"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["LeavePage"];
                };
            };
            /** @description Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body this request would get. No body; the request still counts against the rate limit. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad or unknown query parameter, invalid JSON or unknown cursor (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This operation's release is not live yet (`not_found`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    listLeaveBalances: {
        parameters: {
            query?: {
                /** @description Page size, 1 to 200. */
                limit?: number;
                /** @description Opaque `next_cursor` of the previous page. One this query was not given (altered, from other filters, or empty) is 400 `invalid_request`. */
                cursor?: string;
                /** @description The day the balances are at the end of (YYYY-MM-DD); default the company's today in its timezone. A day ahead is projected: service to it, and the leave approved until then. */
                as_of?: string;
                /** @description Only this employee's balance (none for an id that is not one of the company's active employees). */
                employee_id?: string;
            };
            header?: {
                /** @description The `ETag` of a body received before (beyond the contract, v1.3): while this operation would answer the same body, it answers 304 with no body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "employee_id": "emp_5hGk2LmQ9wXr3TbN7vYc1P",
                     *           "type": "annual",
                     *           "accrued_days": 26.25,
                     *           "taken_days": 10,
                     *           "balance_days": 16.25,
                     *           "as_of": "2026-11-21"
                     *         }
                     *       ],
                     *       "next_cursor": null
                     *     }
                     */
                    "application/json": components["schemas"]["LeaveBalancePage"];
                };
            };
            /** @description Not Modified (beyond the contract, v1.3): `If-None-Match` holds the tag of the body this request would get. No body; the request still counts against the rate limit. */
            304: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad or unknown query parameter, invalid JSON or unknown cursor (`invalid_request`). */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This operation's release is not live yet (`not_found`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    triggerSandboxEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Beyond the contract (v1.3): a key of your choosing (a UUID is a good one), 1 to 255 printable ASCII characters, bare or as the IETF draft's quoted string. Send the same request again with the same key within 24 hours, and you get the first answer again (its status and body, with `Idempotent-Replayed: true`) and nothing is done twice. Only a success is kept: after an error the key is free again. The key is your company's; another request with it (another body, operation or credential) is 422 `idempotency_key_reused`, and the same one while the first still runs 409 `idempotency_key_in_use`. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TriggerSandboxEvent"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "evt_3JkLm9QwXr2TbN7vYc1PdZ",
                     *       "type": "employee.updated",
                     *       "created_at": "2026-11-21T09:00:00Z",
                     *       "company_id": "cmp_7Yc2NbX4kQ9mLr1TzWv8Pd",
                     *       "livemode": true,
                     *       "data": {
                     *         "employee": {
                     *           "id": "emp_5hGk2LmQ9wXr3TbN7vYc1P",
                     *           "job_title": "General Manager"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Event"];
                };
            };
            /** @description Bad or unknown query parameter, invalid JSON or unknown cursor (`invalid_request`). Beyond the contract (v1.3), `invalid_request` also for an `Idempotency-Key` that is not 1 to 255 printable ASCII characters. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This operation's release is not live yet (`not_found`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The sandbox cannot make this event now (`conflict`); the detail says why and what to trigger first: for example no active employee left to update or end (trigger `employee.created`), or no closed run to correct (trigger `payroll_run.finalized`). Beyond the contract (v1.3), `idempotency_key_in_use`: a request with this `Idempotency-Key` is still running; send it again in a moment. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Well-formed JSON that fails validation (`validation_failed`). Beyond the contract (v1.3), `idempotency_key_reused`: this `Idempotency-Key` came with another request in the last 24 hours; nothing was done. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
    resetSandbox: {
        parameters: {
            query?: never;
            header?: {
                /** @description Beyond the contract (v1.3): a key of your choosing (a UUID is a good one), 1 to 255 printable ASCII characters, bare or as the IETF draft's quoted string. Send the same request again with the same key within 24 hours, and you get the first answer again (its status and body, with `Idempotent-Replayed: true`) and nothing is done twice. Only a success is kept: after an error the key is free again. The key is your company's; another request with it (another body, operation or credential) is 422 `idempotency_key_reused`, and the same one while the first still runs 409 `idempotency_key_in_use`. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "company_id": "cmp_3kTMd9Xq2LrVb7YwPz1NcA",
                     *       "employees": 10,
                     *       "payroll_runs": 1,
                     *       "events": 11
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxReset"];
                };
            };
            /** @description Bad or unknown query parameter, invalid JSON or unknown cursor (`invalid_request`). Beyond the contract (v1.3), `invalid_request` also for an `Idempotency-Key` that is not 1 to 255 printable ASCII characters. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Missing, malformed, revoked or wrong-environment key (`unauthenticated`). */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Key lacks the scope (`insufficient_scope`) or the Partner API is off (`api_not_enabled`). */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description This operation's release is not live yet (`not_found`). */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Beyond the contract (v1.3), `idempotency_key_in_use`: a request with this `Idempotency-Key` is still running; send it again in a moment. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Beyond the contract (v1.3), `idempotency_key_reused`: this `Idempotency-Key` came with another request in the last 24 hours; nothing was done. */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Too many requests (`rate_limited`); see Retry-After. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            default: components["responses"]["DEFAULT_ERROR"];
        };
    };
}
