"""Business rules of the Partner API, by business area.

    kernel/        what every area shares: clock and Runtime, ids, money, errors,
                   the six countries' rules, the outbox of events
    access/        users, companies, console sign-in, API keys, the credential of a request
    people/        employees: what partners read, HR's actions, bulk tools
    payroll/       the pure rules, the runs partners read, HR's moves of a run
    attendance/    storing clock events, pairing them (pure), attendance days
    partner_safe   what partners see of every area (the API and event payloads)
    sandbox        sandbox companies and the events they can be made to emit
    (webhooks/ and oauth/ will be areas of their own.)

The rules of this package: no Flask, no Redis, no network. Nothing here reads `request`,
`current_app` or `g`; the company, the clock (or the Runtime, for actions that hand work
on after commit) and IDs come in as arguments. Functions here may read and write the
models (`app.models`), never the other way round; the kernel imports no area.
tests/unit/test_layers.py holds all of this.
"""
