"""What each scope gives, in the words a person decides on: the key form and the OAuth
consent page show the same sentences (Contract, Employee and Payroll run; DESIGN.md,
Never returned), so nobody grants `webhooks:manage` thinking it reads nothing."""

from app.i18n import lazy_text as _l

SCOPE_WORDS = {
    "employees:read": _l("Read your employees' work records: names, staff numbers, jobs, departments, branches, "
                         "managers, work contact details, employment type and status, hire and end dates"),
    "payroll:read": _l("Read closed payroll runs: company totals by pay component and the journal entries"),
    "attendance:read": _l("Read attendance days: shifts, breaks and worked time"),
    "attendance:write": _l("Send clock-in, clock-out and break events"),
    # Issue 48: the kind of a leave other than annual or unpaid never leaves, but its dates do.
    "leave:read": _l("Read leave and annual leave balances: who is away on which dates, and whether the leave is "
                     "annual, unpaid or other; sick leave, maternity and every other kind are shown only as other, "
                     "though the dates of a long or repeated other leave can still suggest why"),
    # Contract, Events: an event's data is the employee record or the run summary itself,
    # delivered to whoever subscribed, whatever else the credential may read.
    "webhooks:manage": _l("Register webhook endpoints, which receive the full data of every event they subscribe "
                          "to: employees' work records (as employees:read reads them), payroll run totals (as "
                          "payroll:read reads them) and rejected clock events, even without those scopes; leave "
                          "events only with leave:read"),
    # v1.3: a sandbox's own data is generated; nothing real is read or changed.
    "sandbox:manage": _l("In a sandbox company only: make events happen and reset it to its generated data "
                         "(its keys, webhook endpoints and apps are kept)"),
}
NEVER_SHARED = _l("No app ever receives anyone's salary or allowances, bank details or IBAN, civil ID or passport "
                   "number, date of birth, social insurance number, documents, or reason for leaving. But a payroll "
                   "total over one person is that person's figure: in a month with a single leaver, the journal "
                   "shows what they were paid on leaving, from which their wage and whether they resigned can be "
                   "worked out.")
