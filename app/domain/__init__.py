"""Business rules of the Partner API, by business area.

The areas depend one way: an area imports its own modules and those of the areas listed
before it here (kernel first, the lowest), never one listed after it, and people and
attendance (one rank) do not import one another (tests/unit/test_layers.py, DOMAIN_AREAS,
holds this order).

    kernel         what every area shares: clock and Runtime, ids, money, errors, text,
                   the six countries' rules, the outbox of events, the order of locks
    access         users, companies, console sign-in, API keys, the principal of a request
    partner_safe   what partners see of every area (the API and event payloads)
    people         employees: what partners read, HR's actions, bulk tools
    attendance     storing clock events, pairing them (pure), attendance days
    leave          the six laws' leave rules, requests, balances, what leave does to pay
    payroll        the pure rules, the runs partners read, HR's moves of a run
    webhooks       endpoints, their URLs' safety, signing, deliveries and how they are sent
    oauth          apps, approvals, connections and their tokens (which end their endpoints)
    credentials    every credential /v1 accepts (keys, OAuth tokens), and revoking a key
                   with the webhook endpoints it owns
    sandbox        sandbox companies: made, with their generated data
    sandbox_triggers  the events a sandbox can be made to emit, by the real action behind each
    sandbox_reset  a sandbox's data made new again, its credentials and endpoints kept

What a lower area must make happen above it is handed up through the Runtime (an event
written, credentials changed) or done by a module above both (credentials revokes a key
and stops its endpoints in one transaction).

The rules of this package: no Flask, no Redis, no network. Nothing here reads `request`,
`current_app` or `g`; the company, the clock (or the Runtime, for actions that hand work
on after commit) and IDs come in as arguments. Functions here may read and write the
models (`app.models`), never the other way round.
"""
