"""Two clicks at once have one effect (STYLE 14; the PostgreSQL + Redis pass of .ci/run
is where this matters most, and SQLite must hold too).

Each test races the same domain action in two threads, released together by a barrier,
each on its own connection and committing, for ROUNDS rounds: exactly one journal
entry, one event, one row, and the loser gets the refusal a second click would get.
"""

import functools
import json
import logging
import os
import queue
import threading
import time
from datetime import date, timedelta

import pytest

from app.domain import credentials, sandbox
from app.domain.access import keys, signin
from app.domain.access import users as access
from app.domain.access.principal import Principal
from app.domain.attendance import ingest as attendance
from app.domain.kernel import events as outbox
from app.domain.kernel.clock import to_db
from app.domain.kernel.errors import Conflict, DomainError, NotFound, ValidationFailed
from app.domain.kernel.ids import new_id
from app.domain.kernel.runtime import Runtime
from app.domain.kernel.sealing import Sealer
from app.domain.oauth import apps as oauth_apps
from app.domain.oauth import connections as oauth
from app.domain.payroll import accounts, drafts, moves, posting, provision
from app.domain.payroll.rules import accrual_journal, net_by_account
from app.domain.people import actions as hr
from app.domain.people import bulk
from app.domain.webhooks import claims, deliveries, delivery_log, endpoints
from app.domain.webhooks.deliveries import Outcome
from app.domain.webhooks.urls import check_url
from app.models import (
    ApiKey,
    Company,
    Employee,
    IdentityLink,
    JournalEntry,
    JournalLine,
    OAuthApp,
    OAuthConnection,
    OAuthToken,
    OutboxEvent,
    PayrollRun,
    User,
    WebhookDelivery,
    WebhookEndpoint,
)
from app.models.base import connection, write_transaction
from app.models.keys import credentials_version
from tests.helpers import one_each, one_won, punch

ROUNDS = 10


@pytest.fixture
def company(committed, clock, runtime):
    """A committed sandbox (ten employees, a finalized run), removed afterwards."""
    user = committed(access.get_or_create_user, f"{new_id('u')}@example.com", clock)
    made = committed(sandbox.create_sandbox, user, "KW", runtime, seed=7)
    yield made
    committed(lambda: (made.delete_instance(recursive=True), user.delete_instance(recursive=True)))


def events(company_id, event_type, needle):
    return [row for row in OutboxEvent.select().where(OutboxEvent.company == company_id,
                                                       OutboxEvent.type == event_type)
            if needle in row.payload]


def entries(run_id, kind):
    return JournalEntry.select().where(JournalEntry.run == run_id, JournalEntry.kind == kind).count()


def finalized_run(committed, company, month, runtime):
    entity = committed(lambda: company.entities.get())
    draft = committed(drafts.build_draft_run, entity, month, runtime.clock)
    return committed(moves.finalize_run, draft, runtime)


def correct_basic(run, person, amounts, runtime):
    return moves.correct_run(run, {person.id: {"basic": next(amounts)}}, runtime)


def months():
    return [f"2027-{month:02d}" for month in range(1, ROUNDS + 1)]


def test_finalizing_twice_at_once_posts_one_accrual(committed, race, company, clock, runtime):
    entity = committed(lambda: company.entities.get())
    for month in months():
        draft = committed(drafts.build_draft_run, entity, month, clock)
        one_won(race(moves.finalize_run, draft, runtime), Conflict)
        with connection():
            assert entries(draft.id, "accrual") == 1
            assert len(events(company.id, "payroll_run.finalized", draft.id)) == 1


def test_paying_twice_at_once_posts_one_payment(committed, race, company, clock, runtime):
    for month in months():
        run = finalized_run(committed, company, month, runtime)
        one_won(race(moves.mark_paid, run, runtime), Conflict)
        with connection():
            assert entries(run.id, "payment") == 1
            assert len(events(company.id, "payroll_run.paid", run.id)) == 1


def test_deleting_twice_at_once_posts_one_reversal_and_zeroes_the_accounts(committed, race, company, clock, runtime):
    for month in months():
        run = finalized_run(committed, company, month, runtime)
        one_won(race(moves.delete_run, run, runtime), (Conflict, NotFound))
        with connection():
            assert entries(run.id, "reversal") == 1
            assert len(events(company.id, "payroll_run.deleted", run.id)) == 1
            lines = [[(line.account_code, line.account_name, line.debit_minor, line.credit_minor)
                      for line in JournalLine.select().join(JournalEntry).where(JournalEntry.run == run.id)]]
            assert set(net_by_account(lines).values()) == {0}


def test_two_corrections_at_once_leave_the_journal_equal_to_the_lines(committed, race, company, clock, runtime):
    person = committed(lambda: Employee.get(Employee.company == company.id, Employee.staff_number == "SBX-001"))
    for round_number, month in enumerate(months()):
        run = finalized_run(committed, company, month, runtime)
        raises = iter([1_111_000 + round_number, 2_222_000 + round_number])
        outcomes = race(correct_basic, run, person, raises, runtime)
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        with connection():
            stored = PayrollRun.get_by_id(run.id)
            posted = [[line[:4] for line in entry] for entry in posting.posted_lines(stored, posting.ACCRUAL_KINDS)]
            target = accrual_journal(posting.components_of(stored), stored.country)
            expected = net_by_account([target])
            assert {k: v for k, v in net_by_account(posted).items() if v} == {k: v for k, v in expected.items() if v}
            assert len(events(company.id, "payroll_run.corrected", run.id)) == 2


def test_two_drafts_for_one_month_at_once_make_one_run(committed, race, company, clock):
    entity = committed(lambda: company.entities.get())
    for month in months():
        one_won(race(drafts.build_draft_run, entity, month, clock), Conflict)
        with connection():
            assert PayrollRun.select().where(PayrollRun.entity == entity.id, PayrollRun.payroll_month == month,
                                             PayrollRun.status != "deleted").count() == 1


def test_ending_employment_twice_at_once_announces_one_leaver(committed, race, company, clock, runtime):
    for round_number in range(ROUNDS):
        person = committed(hr.hire, company, {"staff_number": f"RACE-{round_number}", "name_en": "Racer",
                                              "employment_type": "full_time", "hire_date": date(2026, 1, 1),
                                              "basic_salary_minor": 500_000}, runtime)
        one_won(race(hr.end_employment, company.id, person.id, date(2026, 11, 20), runtime), Conflict)
        with connection():
            assert len(events(company.id, "employee.left", person.id)) == 1


def test_two_hourly_runs_at_once_end_each_due_employment_once(committed, race, company, clock, runtime):
    """end_due_employments beside itself (two schedulers during a handover, or an
    operator's run-due beside the hourly job): one employee.left per leaver."""
    people = committed(lambda: list(Employee.select().where(Employee.company == company.id).limit(ROUNDS)))
    for person in people:
        committed(hr.end_employment, company.id, person.id, date(2026, 11, 30), runtime)
    clock.set(clock.now().replace(month=11, day=30, hour=9))
    outcomes = race(hr.end_due_employments, runtime)
    assert all(isinstance(outcome, int) for outcome in outcomes) and sum(outcomes) == ROUNDS, outcomes
    with connection():
        left = [json.loads(row.payload)["data"]["employee"]["id"] for row in
                OutboxEvent.select().where(OutboxEvent.company == company.id, OutboxEvent.type == "employee.left")]
        assert sorted(left) == sorted(person.id for person in people)  # each once
        assert all(Employee.get_by_id(person.id).status == "left" for person in people)


def test_two_identical_edits_at_once_announce_one_update(committed, race, company, clock, runtime):
    people = committed(lambda: list(Employee.select().where(Employee.company == company.id).limit(ROUNDS)))
    for person in people:
        outcomes = race(hr.update_employee, company.id, person.id, {"job_title": "Night shift lead"}, runtime)
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        with connection():  # its own update (others' name it too, as their manager)
            updates = [json.loads(row.payload)["data"]["employee"]["id"]
                       for row in events(company.id, "employee.updated", person.id)]
            assert updates.count(person.id) == 1


def test_two_hires_of_one_staff_number_at_once_make_one_employee(committed, race, company, clock, runtime):
    for round_number in range(ROUNDS):
        fields = {"staff_number": f"TWIN-{round_number}", "name_en": "Twin", "employment_type": "contract",
                  "hire_date": date(2026, 1, 1), "basic_salary_minor": 400_000}
        outcomes = race(hr.hire, company, fields, runtime)
        one_won(outcomes, ValidationFailed)
        refusal = next(o for o in outcomes if isinstance(o, Exception))
        assert refusal.errors == [("staff_number", f"TWIN-{round_number} is already taken in this company")]
        with connection():
            assert Employee.select().where(Employee.company == company.id,
                                           Employee.staff_number == f"TWIN-{round_number}").count() == 1


def test_revoking_a_key_twice_at_once_revokes_it_once(committed, race, company, clock, runtime):
    for _ in range(ROUNDS):
        key, _ = committed(keys.create_key, company, [], clock)
        outcomes = race(credentials.revoke_key, key.id, runtime)
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        with connection():
            assert ApiKey.get_by_id(key.id).revoked_at is not None


def test_credential_changes_at_once_take_turns_on_the_version_without_a_deadlock(committed, race, company, clock,
                                                                                 runtime):
    """Every credential change moves the one credentials version row (issue 46) as its
    transaction's last write: an app's disconnection ending two connections, the second
    one's refresh token revoked, a key and an access token revoked, all at once, never
    deadlock, and the version moves once per transaction, none lost."""
    app, owner = _oauth_app(committed, company, clock)
    for _ in range(ROUNDS):
        first, second = (committed(oauth.redeem_code, app, _oauth_code(committed, app, owner, company, clock),
                                   OAUTH_REDIRECT, OAUTH_VERIFIER, runtime) for _ in range(2))
        key, _ = committed(keys.create_key, company, [], clock)
        todo = queue.SimpleQueue()  # each thread takes one
        for action in (functools.partial(oauth.disconnect_app, company.id, app.id, runtime),
                       functools.partial(oauth.revoke_token, app, second.refresh_token, runtime),
                       functools.partial(credentials.revoke_key, key.id, runtime),
                       functools.partial(oauth.revoke_token, app, first.access_token, runtime)):
            todo.put(action)
        before = committed(credentials_version)
        outcomes = race(lambda actions: actions.get()(), todo, threads=4)
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        assert committed(credentials_version) == before + 4


def test_two_sandboxes_for_one_user_at_once_make_one(committed, race, clock, runtime):
    for _ in range(ROUNDS):
        user = committed(access.get_or_create_user, f"{new_id('u')}@example.com", clock)
        outcomes = race(sandbox.create_sandbox, user, "BH", runtime)
        one_won(outcomes, Conflict)
        with connection():
            made = list(Company.select().where(Company.sandbox_owner == user.id))
            assert len(made) == 1
            made[0].delete_instance(recursive=True)
            User.delete_by_id(user.id)


def test_linking_one_reference_twice_at_once_keeps_one_link(committed, race, company, clock, runtime):
    person = committed(lambda: Employee.get(Employee.company == company.id, Employee.staff_number == "SBX-004"))
    for round_number in range(ROUNDS):
        reference = f"P-{round_number}"
        sent = [{**punch(100 * round_number + n, "clock_in", "2026-11-20T08:00:00+03:00"),
                 "employee_ref": {"type": "external_id", "value": reference}} for n in range(3)]
        committed(attendance.ingest, company, sent, runtime)
        outcomes = race(attendance.link_reference, company, "acme-pos", "external_id", reference, person.id, runtime)
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        assert sum(outcomes) == 3  # every waiting event moved once
        with connection():
            assert IdentityLink.select().where(IdentityLink.company == company.id,
                                               IdentityLink.value == reference).count() == 1


def test_no_race_here_leaks_an_unexpected_error(committed, race, company, clock, runtime):
    """Every loser above is a domain refusal: the console shows it, the API answers 409."""
    run = finalized_run(committed, company, "2028-01", runtime)
    outcomes = race(moves.delete_run, run, runtime, threads=4)
    assert all(not isinstance(o, Exception) or isinstance(o, DomainError) for o in outcomes), outcomes
    assert sum(not isinstance(o, Exception) for o in outcomes) == 1


def test_one_reset_link_used_twice_at_once_sets_one_password(committed, race, clock):
    for round_number in range(ROUNDS):
        user = committed(access.get_or_create_user, f"{new_id('u')}@example.com", clock)
        _, token = committed(signin.request_password_reset, user.email, clock)
        one_won(race(signin.reset_password, token, f"new pass phrase {round_number}", clock), Conflict)
        committed(User.delete_by_id, user.id)


def test_discarding_a_draft_twice_at_once_removes_it_once(committed, race, company, clock):
    entity = committed(lambda: company.entities.get())
    for month in months():
        draft = committed(drafts.build_draft_run, entity, month, clock)
        one_won(race(moves.discard_draft, draft), NotFound)
        with connection():
            assert PayrollRun.get_or_none(PayrollRun.id == draft.id) is None


def test_archiving_twice_at_once_archives_once_and_announces_nothing(committed, race, company, clock):
    people = committed(lambda: list(Employee.select().where(Employee.company == company.id).limit(ROUNDS)))
    for person in people:
        outcomes = race(hr.archive_employee, company.id, person.id)
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        with connection():
            assert Employee.get_by_id(person.id).archived
            assert not events(company.id, "employee.updated", person.id)


def test_two_workers_given_one_event_write_its_deliveries_once(committed, race, company, clock):
    quiet = Runtime(clock)  # no hand-offs: the deliveries are only written
    owner = _webhook_owner(committed, company, clock)
    committed(endpoints.create_endpoint, owner, _target(), ["employee.updated"], Runtime(clock, sealer=_SEALER))
    for round_number in range(ROUNDS):
        event_id = committed(outbox.emit, company, "employee.updated", {"round": round_number}, quiet)
        outcomes = race(claims.fan_out, [event_id], clock.now(), threads=4)
        assert sorted(fresh for fresh, _ in outcomes) == [0, 0, 0, 1], outcomes
        with connection():
            assert WebhookDelivery.select().where(WebhookDelivery.event == event_id).count() == 1


def test_budgeted_fan_outs_of_one_backlog_at_once_write_each_events_deliveries_once(committed, race, company,
                                                                                      clock):
    """Four drains' rounds over one backlog at once, each taking what fits in a budget of
    3 deliveries: every event is taken by exactly one of them, whole (both endpoints'
    deliveries), and what none took is still undispatched for the next round."""
    quiet = Runtime(clock)
    owner = _webhook_owner(committed, company, clock)
    for _ in range(2):
        committed(endpoints.create_endpoint, owner, _target(), ["employee.updated"], Runtime(clock, sealer=_SEALER))
    for _ in range(ROUNDS):
        backlog = [committed(outbox.emit, company, "employee.updated", {"n": n}, quiet) for n in range(6)]
        outcomes = race(functools.partial(claims.fan_out, backlog, clock.now(), budget=3), threads=4)
        taken = [attempt.event_id for _, attempts in outcomes for attempt in attempts]
        assert sorted(fresh for fresh, _ in outcomes) == [1, 1, 1, 1], outcomes  # one whole event each, in turn
        assert all(taken.count(event_id) in (0, 2) for event_id in backlog), outcomes
        with connection():
            for event_id in backlog:
                written = WebhookDelivery.select().where(WebhookDelivery.event == event_id).count()
                dispatched = OutboxEvent.get_by_id(event_id).dispatched_at is not None
                assert written == taken.count(event_id) and dispatched == (written == 2)


def test_replays_at_once_queue_each_event_once(committed, race, company, clock):
    """Four replays of one endpoint at once: they take turns under its row lock, so the
    first queues every event and the others find them waiting; unlocked, each would
    queue the whole backlog again."""
    quiet = Runtime(clock)
    owner = _webhook_owner(committed, company, clock)
    endpoint, _ = committed(endpoints.create_endpoint, owner, _target(), ["employee.updated"],
                            Runtime(clock, sealer=_SEALER))
    made = [committed(outbox.emit, company, "employee.updated", {"n": n}, quiet) for n in range(5)]
    committed(lambda: OutboxEvent.update(dispatched_at=clock.now()).where(OutboxEvent.id.in_(made)).execute())
    for _ in range(ROUNDS):
        committed(lambda: WebhookDelivery.delete().where(WebhookDelivery.endpoint == endpoint.id).execute())
        outcomes = race(delivery_log.replay, endpoint.id, clock.now(), quiet, threads=4)
        assert sorted(len(queued) for queued in outcomes) == [0, 0, 0, 5], outcomes
        with connection():
            assert sorted(row.event_id for row in WebhookDelivery.select().where(
                WebhookDelivery.endpoint == endpoint.id)) == sorted(made)


def test_two_workers_never_both_send_one_attempt(committed, race, company, clock):
    quiet = Runtime(clock)
    owner = _webhook_owner(committed, company, clock)
    committed(endpoints.create_endpoint, owner, _target(), ["employee.updated"], Runtime(clock, sealer=_SEALER))
    for round_number in range(ROUNDS):
        event_id = committed(outbox.emit, company, "employee.updated", {"round": round_number}, quiet)
        [attempt] = committed(claims.fan_out, [event_id], clock.now())[1]
        [delivery_id] = [attempt.delivery_id]
        committed(claims.release, [attempt], clock.now())  # pending again, due: a job's to claim
        outcomes = race(claims.claim_many, [delivery_id], clock.now(), threads=4)
        assert sorted(len(taken) for taken in outcomes) == [0, 0, 0, 1], outcomes
        [[attempt]] = [taken for taken in outcomes if taken]
        results = race(deliveries.record_many, [(attempt, Outcome(200, b"ok"))], clock.now(), quiet)
        assert sorted(str(result) for result in results) == ["[None]", "[None]"], results
        with connection():
            assert WebhookDelivery.get_by_id(delivery_id).status == "succeeded"
            assert attempt.delivery_id == delivery_id


def test_two_workers_recording_failures_for_one_endpoint_take_turns_without_a_deadlock(committed, company, clock,
                                                                                        caplog):
    """Each worker's failures plan retries (their inserts check the endpoint's key, a KEY
    SHARE lock) and then move the endpoint's streak under its row lock: taken FOR NO KEY
    UPDATE, which those checks do not block, so the two take turns. FOR UPDATE deadlocked
    them, and each batch fell back to recording its outcomes one by one."""
    quiet = Runtime(clock)
    owner = _webhook_owner(committed, company, clock)
    committed(endpoints.create_endpoint, owner, _target(), ["employee.updated"], Runtime(clock, sealer=_SEALER))
    for round_number in range(ROUNDS):
        made = [committed(outbox.emit, company, "employee.updated", {"round": round_number, "n": n}, quiet)
                for n in range(4)]
        attempts = committed(claims.fan_out, made, clock.now())[1]
        barrier, faults = threading.Barrier(2), []

        def record(batch, barrier=barrier, faults=faults):
            with committed.app.app_context(), connection():
                barrier.wait()
                try:
                    deliveries.record_many([(attempt, Outcome(500, b"down")) for attempt in batch], clock.now(), quiet)
                except Exception as exc:  # noqa: BLE001 (the outcome under test)
                    faults.append(exc)

        workers = [threading.Thread(target=record, args=(attempts[half::2],)) for half in (0, 1)]
        with caplog.at_level(logging.WARNING, logger="app.domain.webhooks.deliveries"):
            for worker in workers:
                worker.start()
            for worker in workers:
                worker.join(30)
        assert not faults and "failed; recording each alone" not in caplog.text, caplog.text
        with connection():
            assert sorted(row.status for row in WebhookDelivery.select().where(
                WebhookDelivery.event.in_(made))) == ["failed"] * 4 + ["pending"] * 4  # each with its retry


_SEALER = Sealer(["test-secret-key"])


def _webhook_owner(committed, company, clock):
    key, _ = committed(keys.create_key, company, ["webhooks:manage"], clock)
    return Principal(kind="api_key", credential_id=key.id, company=company, entities=(),
                     scopes=frozenset({"webhooks:manage"}))


def _target():
    return check_url("https://93.184.215.14/hook", lambda host, port: [host])


def test_two_test_pings_at_once_are_both_queued(committed, race, company, clock):
    """Send test reads the endpoint's company, then writes the ping: on SQLite a plain
    (deferred) transaction doing that beside another writer failed at once with
    "database is locked" (seen end to end); both clicks now get their ping."""
    owner = _webhook_owner(committed, company, clock)
    endpoint, _ = committed(endpoints.create_endpoint, owner, _target(), ["employee.updated"],
                            Runtime(clock, sealer=_SEALER))
    quiet = Runtime(clock)
    for _ in range(ROUNDS):
        outcomes = race(endpoints.send_test, endpoint, quiet)
        assert all(isinstance(outcome, str) for outcome in outcomes), outcomes
    with connection():
        assert OutboxEvent.select().where(OutboxEvent.company == company.id, OutboxEvent.type == "ping").count() \
            == 2 * ROUNDS


def test_two_rotations_at_once_keep_both_new_secrets_and_end_the_first(committed, race, company, clock):
    """Unlocked, both would read the first secret as the one they replace: one of the
    two new secrets, each shown to its caller, would never sign anything."""
    owner = _webhook_owner(committed, company, clock)
    sealing = Runtime(clock, sealer=_SEALER)
    endpoint, first = committed(endpoints.create_endpoint, owner, _target(), ["employee.updated"], sealing)
    for _ in range(ROUNDS):
        outcomes = race(lambda: endpoints.rotate_secret(endpoints.owned_by(owner), endpoint.id, sealing))
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        row = committed(WebhookEndpoint.get_by_id, endpoint.id)
        assert {_SEALER.open(row.secret_sealed), _SEALER.open(row.previous_secret_sealed)} \
            == {secret for _, secret in outcomes}
        assert first not in {secret for _, secret in outcomes}


def test_a_double_clicked_roll_secret_rolls_once(committed, race, company, clock):
    """Both clicks name the secret the console page showed: one replaces it, the other
    is told so, and the secret shown is the endpoint's."""
    owner = _webhook_owner(committed, company, clock)
    sealing = Runtime(clock, sealer=_SEALER)
    endpoint, _ = committed(endpoints.create_endpoint, owner, _target(), ["employee.updated"], sealing)
    for _ in range(ROUNDS):
        seen = committed(lambda: endpoints.secret_version(WebhookEndpoint.get_by_id(endpoint.id)))
        outcomes = race(lambda seen=seen: endpoints.rotate_secret(endpoints.of_company(company.id), endpoint.id,
                                                                  sealing, replacing=seen))
        one_won(outcomes, Conflict)
        [(_, secret)] = [outcome for outcome in outcomes if not isinstance(outcome, Exception)]
        assert _SEALER.open(committed(WebhookEndpoint.get_by_id, endpoint.id).secret_sealed) == secret


OAUTH_REDIRECT = "https://partner.example/callback"
OAUTH_VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"  # RFC 7636, appendix B


def _oauth_app(committed, company, clock):
    """An app of the sandbox's own organisation (it reaches the sandbox in development
    mode), and the sandbox's owner, who approves."""
    app, _ = committed(oauth_apps.create_app, company, "Racer", [OAUTH_REDIRECT], ["employees:read"], clock)
    return app, committed(lambda: User.get_by_id(company.sandbox_owner_id))


def _oauth_code(committed, app, owner, company, clock):
    return committed(oauth.issue_code, app, owner, company, OAUTH_REDIRECT, ("employees:read",),
                     oauth.s256(OAUTH_VERIFIER), clock)


def test_of_fifty_redemptions_of_one_code_exactly_one_gets_tokens(committed, race, company, clock, runtime,
                                                                  wide_pool):
    app, owner = _oauth_app(committed, company, clock)
    for _ in range(2):
        code = _oauth_code(committed, app, owner, company, clock)
        outcomes = race(oauth.redeem_code, app, code, OAUTH_REDIRECT, OAUTH_VERIFIER, runtime, threads=50)
        one_won(outcomes, oauth.OAuthError)
        assert {o.error for o in outcomes if isinstance(o, Exception)} == {"invalid_grant"}
        [won] = [o for o in outcomes if not isinstance(o, Exception)]
        with connection():
            assert OAuthConnection.select().where(OAuthConnection.app == app.id,
                                                  OAuthConnection.id == won.connection_id).count() == 1
            # The losers were second uses: the connection the code made has ended.
            assert OAuthConnection.get_by_id(won.connection_id).revoked_reason == "code_reused"


def test_of_twenty_refreshes_with_one_token_at_most_one_succeeds_and_the_family_ends(committed, race, company,
                                                                                     clock, runtime):
    app, owner = _oauth_app(committed, company, clock)
    for _ in range(2):
        code = _oauth_code(committed, app, owner, company, clock)
        tokens = committed(oauth.redeem_code, app, code, OAUTH_REDIRECT, OAUTH_VERIFIER, runtime)
        outcomes = race(oauth.refresh, app, tokens.refresh_token, None, runtime, threads=20)
        succeeded = [o for o in outcomes if not isinstance(o, Exception)]
        assert len(succeeded) <= 1, outcomes
        assert all(isinstance(o, oauth.OAuthError) for o in outcomes if isinstance(o, Exception)), [
            str(o) for o in outcomes if isinstance(o, Exception) and not isinstance(o, oauth.OAuthError)]
        assert all(o.error == "invalid_grant" for o in outcomes if isinstance(o, Exception)), outcomes
        # The reuse killed the family: no token of the connection works, the new one included.
        with connection():
            assert OAuthConnection.get_by_id(tokens.connection_id).revoked_reason == "refresh_token_reused"
            assert OAuthToken.select().where(OAuthToken.connection == tokens.connection_id,
                                             OAuthToken.revoked_at.is_null()).count() == 0


def _oauth_secret(committed, app_id, clock):
    return committed(oauth_apps.rotate_secret, app_id, clock)


def _token_endpoint(app):
    """POST /oauth/token as a client would: (status, error or None, body)."""
    def post(form):
        answer = app.test_client().post("/oauth/token", data=form)
        body = answer.get_json()
        return answer.status_code, body.get("error"), body
    return post


def test_of_twenty_redemptions_at_the_token_endpoint_exactly_one_gets_tokens(app, committed, race, company, clock,
                                                                             wide_pool):
    """Authlib's flow over the domain's single-use take, in one transaction per request."""
    client_app, owner = _oauth_app(committed, company, clock)
    secret = _oauth_secret(committed, client_app.id, clock)
    for _ in range(2):
        code = _oauth_code(committed, client_app, owner, company, clock)
        form = {"grant_type": "authorization_code", "code": code, "redirect_uri": OAUTH_REDIRECT,
                "code_verifier": OAUTH_VERIFIER, "client_id": client_app.id, "client_secret": secret}
        outcomes = race(_token_endpoint(app), form, threads=20)
        assert sorted(status for status, _, _ in outcomes) == [200] + [400] * 19, outcomes
        assert {error for status, error, _ in outcomes if status == 400} == {"invalid_grant"}
        [won] = [body for status, _, body in outcomes if status == 200]
        with connection():  # the losers were second uses: the connection the code made has ended
            [made] = OAuthConnection.select().join(OAuthToken).where(
                OAuthToken.token_hash == oauth.hash_secret(won["access_token"]))
            assert made.revoked_reason == "code_reused"


def test_of_ten_refreshes_at_the_token_endpoint_at_most_one_succeeds_and_the_family_ends(
        app, committed, race, company, clock, runtime):
    client_app, owner = _oauth_app(committed, company, clock)
    secret = _oauth_secret(committed, client_app.id, clock)
    for _ in range(2):
        code = _oauth_code(committed, client_app, owner, company, clock)
        tokens = committed(oauth.redeem_code, client_app, code, OAUTH_REDIRECT, OAUTH_VERIFIER, runtime)
        form = {"grant_type": "refresh_token", "refresh_token": tokens.refresh_token, "client_id": client_app.id,
                "client_secret": secret}
        outcomes = race(_token_endpoint(app), form, threads=10)
        assert [status for status, _, _ in outcomes].count(200) <= 1, outcomes
        assert {(status, error) for status, error, _ in outcomes if status != 200} == {(400, "invalid_grant")}
        with connection():
            assert OAuthConnection.get_by_id(tokens.connection_id).revoked_reason == "refresh_token_reused"
            assert OAuthToken.select().where(OAuthToken.connection == tokens.connection_id,
                                             OAuthToken.revoked_at.is_null()).count() == 0


def test_two_registrations_of_one_app_name_at_once_make_one_app(committed, race, company, clock):
    for round_ in range(ROUNDS):
        outcomes = race(oauth_apps.create_app, company, f"Twin {round_}", [OAUTH_REDIRECT], ["employees:read"],
                        clock)
        one_won(outcomes, ValidationFailed)
        name = f"Twin {round_}"
        assert committed(lambda: OAuthApp.select().where(OAuthApp.organisation == company.id,
                                                         OAuthApp.name == name).count()) == 1  # noqa: B023


def test_a_double_clicked_rotate_secret_rotates_once(committed, race, company, clock):
    """Both clicks name the secret the page showed: one replaces it, the other is told it
    was replaced already, so the secret left on the screen is the one that works."""
    app, _ = _oauth_app(committed, company, clock)
    for _ in range(ROUNDS):
        seen = committed(lambda: oauth_apps.secret_version(OAuthApp.get_by_id(app.id)))
        outcomes = race(functools.partial(oauth_apps.rotate_secret, app.id, clock, organisation_id=company.id,
                                          replacing=seen))
        one_won(outcomes, Conflict)
        [secret] = [outcome for outcome in outcomes if isinstance(outcome, str)]
        assert committed(oauth_apps.authenticate, app.id, secret) is not None


def test_two_reconciliations_at_once_announce_each_bulk_change_once(committed, race, company, runtime):
    """The nightly reconciliation decides what is owed under each employee's row lock:
    two running at once (a second scheduler before the lock, an operator's `jobs
    reconcile` beside the night's) write one event per changed employee, not two."""
    staff = committed(lambda: [e.id for e in Employee.select().where(Employee.company == company.id)])
    for round_ in range(ROUNDS):
        committed(lambda: Employee.update(job_title=f"Bulk title {round_}")  # noqa: B023 (run now)
                  .where(Employee.company == company.id).execute())  # a bulk tool: no events
        seen = committed(lambda: {e.id for e in OutboxEvent.select().where(OutboxEvent.company == company.id)})
        outcomes = race(bulk.reconcile, runtime)
        assert all(isinstance(outcome, dict) for outcome in outcomes), outcomes
        with connection():
            written = [json.loads(e.payload) for e in OutboxEvent.select().where(OutboxEvent.company == company.id)
                       if e.id not in seen]
        announced = sorted(event["data"]["employee"]["id"] for event in written)
        assert announced == sorted(staff), (len(announced), len(staff))
        assert {event["type"] for event in written} == {"employee.updated"}


FEED = ("employee.created", "employee.updated", "employee.left", "payroll_run.finalized", "payroll_run.paid",
        "payroll_run.corrected", "payroll_run.deleted", "attendance.rejected")


def read_feed(committed, company_id, after=None, limit=7):
    """The events feed from `after` to its end as it stands: (ids in order, the last position)."""
    ids = []
    while True:
        more, after = committed(feed_page, company_id, after, limit)
        if not more:
            return ids, after
        ids += more


def feed_page(company_id, after, limit):
    """(ids of one page of the feed after `after`, the position of its last event)."""
    page = outbox.feed(company_id, FEED, after=after, limit=limit)
    ids = [json.loads(envelope)["id"] for envelope in page.items]
    return ids, page.next_after or (outbox.position_of(company_id, ids[-1], FEED) if ids else after)


def updated(company, runtime, note):
    with write_transaction():
        return outbox.emit(company, "employee.updated", {"employee": {"id": note}}, runtime)


@pytest.mark.skipif("sqlite" in (os.environ.get("TEST_DATABASE_URL") or "sqlite"),
                    reason="SQLite takes one writer at a time: no transaction can commit behind another")
def test_the_feed_holds_back_what_a_running_transaction_wrote_until_it_commits(committed, company, clock):
    """An event written first but committed last is not skipped: the feed shows nothing
    past a transaction still running, then both in order once it ends."""
    quiet = Runtime(clock)
    seen, position = read_feed(committed, company.id)
    wrote, release, written = [], threading.Event(), threading.Event()

    def slow_writer():
        with committed.app.app_context(), connection(), write_transaction():
            wrote.append(outbox.emit(company, "employee.updated", {"employee": {"id": "slow"}}, quiet))
            written.set()
            release.wait(30)

    thread = threading.Thread(target=slow_writer)
    thread.start()
    assert written.wait(30)
    quick = committed(updated, company, quiet, "quick")  # committed while the slow one runs
    shown, _ = read_feed(committed, company.id, position)
    assert quick not in shown and wrote[0] not in shown  # neither yet: the quick one waits
    release.set()
    thread.join(30)
    # Both come once no older transaction of the cluster runs: another database's (the
    # other test process's) can hold them back a moment longer (and the sandbox's own
    # events with them, hence the filter), never drop them.
    deadline, both = time.monotonic() + 30, {wrote[0], quick}
    while not both <= set(later := read_feed(committed, company.id, position)[0]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [event for event in later if event in both] == [wrote[0], quick]


def test_walking_the_feed_while_writers_commit_returns_every_event_once(committed, company, clock):
    """Three writers commit events (one or two per transaction) while a reader walks the
    feed page by page; the reader, then one more read from its last position, gets
    every event exactly once."""
    quiet = Runtime(clock)
    written = []

    def writer(number):
        with committed.app.app_context():
            for round_number in range(40):
                with connection(), write_transaction():
                    written.extend(outbox.emit(company, "employee.updated", {"employee": {"id": f"{number}"}}, quiet)
                                   for _ in range(1 + round_number % 2))

    writers = [threading.Thread(target=writer, args=(number,)) for number in range(3)]
    for thread in writers:
        thread.start()
    ids, position = [], None
    while any(thread.is_alive() for thread in writers):
        page, position = committed(feed_page, company.id, position, 7)
        ids += page
    for thread in writers:
        thread.join(60)
    # The feed holds events back while any older transaction of the cluster is open (on
    # PostgreSQL txids are cluster-wide: another database's work delays it too); it
    # delays, never drops, so read on from the same place until all have come.
    deadline = time.monotonic() + 30
    while True:
        rest, position = read_feed(committed, company.id, position)
        ids += rest
        if set(written) <= set(ids) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    with connection():
        everything = [row.id for row in OutboxEvent.select(OutboxEvent.id).where(OutboxEvent.company == company.id,
                                                                               OutboxEvent.type.in_(FEED))]
    assert len(ids) == len(set(ids)), "an event came twice"
    assert sorted(ids) == sorted(everything) and set(written) <= set(ids)


def test_a_double_clicked_wps_step_is_recorded_and_announced_once(committed, race, company, clock, runtime):
    for month in months():
        run = finalized_run(committed, company, month, runtime)
        one_won(race(moves.set_wps_status, run, "submitted", runtime), Conflict)
        with connection():
            assert PayrollRun.get_by_id(run.id).wps_status == "submitted"
            assert len(events(company.id, "payroll_run.wps_updated", run.id)) == 1


def test_an_earlier_month_corrected_while_another_is_deleted_leaves_the_provision_tied(committed, race, company,
                                                                                        clock, runtime):
    """Each move posts its true-up under the entity's lock, seeing what the other posted
    (issue 33): the provision ends where the latest run says, once."""
    person = committed(lambda: Employee.get(Employee.company == company.id, Employee.staff_number == "SBX-001"))
    entity = committed(lambda: company.entities.get())
    for round_number in range(ROUNDS // 2):
        year = 2027 + round_number
        runs = [finalized_run(committed, company, f"{year}-{month:02d}", runtime) for month in (1, 2, 3)]
        one = one_each(functools.partial(moves.correct_run, runs[0],
                                         {person.id: {"basic": 1_500_000 + round_number}}, runtime),
                       functools.partial(moves.delete_run, runs[1], runtime))
        outcomes = race(one)
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        with connection():
            assert provision.tie(entity.id).true_up() == []
            assert provision.tie(entity.id, provision.LEAVE).true_up() == []
            # one true-up of each provision after each move (the raise revalues the leave held too)
            true_ups = JournalEntry.select().where(JournalEntry.run == runs[2].id, JournalEntry.kind == "true_up")
            assert sorted(line.account_key for entry in true_ups for line in entry.lines
                          if line.account_key in ("end_of_service_provision", "leave_provision")) == [
                "end_of_service_provision"] * 2 + ["leave_provision"] * 2


def after_a_moment(function, *args):
    """`function(*args)` 20 ms on: the other thread's move has begun."""
    time.sleep(0.02)
    return function(*args)


@pytest.fixture
def slow_chart(monkeypatch):
    """Reading the chart of accounts takes 50 ms: a race that a lock does not hold lands
    inside a move instead of around it."""
    read_chart = accounts.in_force

    def slowly(*args):
        chart = read_chart(*args)
        time.sleep(0.05)
        return chart

    monkeypatch.setattr(accounts, "in_force", slowly)


def test_a_finalize_racing_a_chart_change_posts_under_one_chart_entirely(committed, race, company, clock, runtime,
                                                                        slow_chart):
    """The opening and the accrual both credit the provision: with the company's chart
    held still for the move, both name it by one code, before the change or after.
    Reading the chart is slowed, so a change that did not wait would land between them."""
    entity = committed(lambda: company.entities.get())
    for round_number, month in enumerate(months()):
        committed(hr.hire, company, {"staff_number": f"LATE-{round_number}", "name_en": "Late",
                                     "hire_date": date(2015, 1, 1), "employment_type": "full_time",
                                     "basic_salary_minor": 800_000}, runtime)
        draft = committed(drafts.build_draft_run, entity, month, clock)  # an opening: the late entry
        code = f"P-{round_number}"
        one = one_each(functools.partial(moves.finalize_run, draft, runtime),
                       functools.partial(after_a_moment, accounts.set_mapping, company.id,
                                         "end_of_service_provision", code, clock))
        outcomes = race(one)
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
        with connection():
            codes = {line.account_code for line in JournalLine.select().join(JournalEntry)
                     .where(JournalEntry.run == draft.id, JournalLine.account_key == "end_of_service_provision")}
            assert len(codes) == 1, codes


def test_a_draft_built_while_another_month_is_finalized_waits_for_nobody(committed, race, company, clock, runtime,
                                                                        slow_chart):
    """The finalize holds the company's chart (FOR NO KEY UPDATE) and then the entity; the
    draft holds the entity and writes a run that refers to the company. Had the chart been
    taken FOR UPDATE, each would wait for the other (a deadlock PostgreSQL breaks by
    failing one). Reading the chart is slowed to let the draft take the entity first."""
    entity = committed(lambda: company.entities.get())
    for round_number in range(ROUNDS // 2):
        year = 2028 + round_number
        draft = committed(drafts.build_draft_run, entity, f"{year}-01", clock)
        one = one_each(functools.partial(moves.finalize_run, draft, runtime),
                       functools.partial(after_a_moment, drafts.build_draft_run, entity, f"{year}-02", clock))
        outcomes = race(one)
        assert not [o for o in outcomes if isinstance(o, Exception)], outcomes


def test_workers_claiming_rounds_at_once_each_take_their_own(committed, race, company, clock):
    """Two drains' rounds claimed at the same moment (issue 49): on PostgreSQL each skips
    the rows the other holds (SKIP LOCKED), on SQLite they take turns; either way no
    event and no due attempt is taken by both, and both rounds get work."""
    quiet = Runtime(clock)
    owner = _webhook_owner(committed, company, clock)
    committed(endpoints.create_endpoint, owner, _target(), ["employee.updated"], Runtime(clock, sealer=_SEALER))
    lease = clock.now() + timedelta(seconds=20)
    committed(claims.fan_out_pending, 100_000, clock.now(), lease)  # other tests' events: out of the way
    for round_number in range(ROUNDS):
        made = {committed(outbox.emit, company, "employee.updated", {"round": round_number, "n": n}, quiet)
                for n in range(8)}
        rounds = race(claims.fan_out_pending, 4, clock.now(), lease)
        taken = [{attempt.event_id for attempt in attempts} & made for _, attempts in rounds]
        assert all(taken) and not taken[0] & taken[1], rounds
        mine = [attempt for _, attempts in rounds for attempt in attempts if attempt.event_id in made]
        committed(claims.release, mine, clock.now())  # due again: for the drains' claim_due
        claimed = [{attempt.delivery_id for attempt in attempts} & {a.delivery_id for a in mine}
                   for attempts in race(claims.claim_due, clock.now(), lease, 1000)]
        assert not claimed[0] & claimed[1] and claimed[0] | claimed[1] == {a.delivery_id for a in mine}, claimed


def test_a_claim_taken_over_is_no_longer_its_first_workers(committed, company, clock):
    """A worker froze holding an attempt; its claim ran out and another worker took the
    attempt over. When the first wakes, what it records, gives back or renews changes
    nothing: the attempt is the second worker's, whose answer is the one recorded."""
    quiet = Runtime(clock)
    owner = _webhook_owner(committed, company, clock)
    committed(endpoints.create_endpoint, owner, _target(), ["employee.updated"], Runtime(clock, sealer=_SEALER))
    event_id = committed(outbox.emit, company, "employee.updated", {"frozen": True}, quiet)
    [first] = committed(claims.fan_out, [event_id], clock.now(), timedelta(seconds=20))[1]
    clock.advance(seconds=21)  # the first worker's claim has run out
    [second] = [attempt for attempt in committed(claims.claim_due, clock.now(),
                                                 clock.now() + timedelta(seconds=20), 1000)
                if attempt.delivery_id == first.delivery_id]
    assert second.lease > first.lease
    assert committed(deliveries.record_many, [(first, Outcome(500, b"late"))], clock.now(), quiet) == [None]
    committed(claims.release, [first], clock.now())
    assert committed(claims.renew, [first], clock.now() + timedelta(seconds=40)) == []
    with connection():
        row = WebhookDelivery.get_by_id(first.delivery_id)
        assert (row.status, row.due_at, row.response_status) == ("sending", to_db(second.lease), None)
    committed(deliveries.record_many, [(second, Outcome(200, b"ok"))], clock.now(), quiet)
    with connection():
        assert WebhookDelivery.get_by_id(first.delivery_id).status == "succeeded"
        assert WebhookDelivery.select().where(WebhookDelivery.event == event_id).count() == 1  # no retry planned


def test_a_late_record_and_a_takeover_at_once_leave_one_owner(committed, company, clock):
    """A worker whose claim ran out records its answer while another worker's drain takes
    the attempt over, at the same moment (issue 49): either the record lands first (the
    attempt is done, and the takeover does not take it) or the takeover does (the attempt
    is the new claim's, and the late record changes nothing). Never both, never neither."""
    quiet = Runtime(clock)
    owner = _webhook_owner(committed, company, clock)
    committed(endpoints.create_endpoint, owner, _target(), ["employee.updated"], Runtime(clock, sealer=_SEALER))
    committed(claims.fan_out_pending, 100_000, clock.now(), clock.now())  # other tests' events: out of the way
    for round_number in range(ROUNDS):
        event_id = committed(outbox.emit, company, "employee.updated", {"late": round_number}, quiet)
        [first] = committed(claims.fan_out, [event_id], clock.now(), timedelta(seconds=20))[1]
        clock.advance(seconds=21)  # its claim has run out
        lease = clock.now() + timedelta(seconds=20)
        barrier, taken = threading.Barrier(2), []

        def late_record(barrier=barrier, first=first):
            with committed.app.app_context(), connection():
                barrier.wait()
                deliveries.record_many([(first, Outcome(200, b"late"))], clock.now(), quiet)

        def take_over(barrier=barrier, taken=taken, lease=lease, mine=first.delivery_id):
            with committed.app.app_context(), connection():
                barrier.wait()
                taken.extend(a for a in claims.claim_due(clock.now(), lease, 1000) if a.delivery_id == mine)

        workers = [threading.Thread(target=late_record), threading.Thread(target=take_over)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(30)
        with connection():
            row = WebhookDelivery.get_by_id(first.delivery_id)
        if taken:
            assert (row.status, row.due_at, row.response_status) == ("sending", to_db(lease), None)
            committed(deliveries.record_many, [(taken[0], Outcome(200, b"ok"))], clock.now(), quiet)
        else:
            assert (row.status, row.response_status) == ("succeeded", 200)
