"""Where a payroll run stands with the bank (v1.3, issue 25 part 3): `wps_status` on the
run, moved by an HR command and the console, announced by `payroll_run.wps_updated`,
switched off with v1.3; the salary file itself never leaves."""

import re
from dataclasses import replace

import pytest

from app.domain.kernel.errors import Conflict, ValidationFailed
from app.domain.payroll import drafts, moves
from app.models import PayrollRun
from tests.api.console import post, text
from tests.helpers import event_ids, new_events


def closed_run(company):
    return PayrollRun.get(PayrollRun.company == company.id, PayrollRun.status == "finalized")


def test_an_hr_command_moves_the_run_with_the_bank_and_partners_see_each_step(client, headers, sandbox, run,
                                                                              clock):
    closed = closed_run(sandbox)
    assert client.get(f"/v1/payroll-runs/{closed.id}", headers=headers).get_json()["wps_status"] == "not_submitted"
    for step in ("submitted", "rejected", "submitted", "accepted"):
        clock.advance(minutes=1)
        seen = event_ids(sandbox)
        result = run("payroll", "wps", closed.id, "--status", step)
        assert result.exit_code == 0 and f"{closed.id} is {step} with the bank" in result.output, result.output
        [event] = new_events(sandbox, seen)
        assert event["type"] == "payroll_run.wps_updated" and event["data"]["payroll_run"]["wps_status"] == step
        shown = client.get(f"/v1/payroll-runs/{closed.id}", headers=headers).get_json()
        assert shown["wps_status"] == step and shown["updated_at"] == event["data"]["payroll_run"]["updated_at"]
    listed = client.get("/v1/payroll-runs", headers=headers).get_json()["data"]
    assert [r["wps_status"] for r in listed if r["id"] == closed.id] == ["accepted"]
    assert "iban" not in str(shown).lower()


@pytest.mark.parametrize("steps, refused, says", [
    ((), "accepted", "it can become submitted"),
    (("submitted",), "submitted", "it can become accepted or rejected"),
    (("submitted", "accepted"), "rejected", "nothing else (it is final)"),
])
def test_a_move_the_bank_cannot_make_is_refused_and_changes_nothing(sandbox, runtime, steps, refused, says):
    closed = closed_run(sandbox)
    for step in steps:
        moves.set_wps_status(closed, step, runtime)
    before = PayrollRun.get_by_id(closed.id)
    with pytest.raises(Conflict, match=re.escape(says)):
        moves.set_wps_status(closed, refused, runtime)
    after = PayrollRun.get_by_id(closed.id)
    assert (after.wps_status, after.updated_at) == (before.wps_status, before.updated_at)


def test_only_a_closed_run_goes_to_the_bank_and_only_known_states(sandbox, runtime, clock):
    draft = drafts.build_draft_run(sandbox.entities.get(), "2026-12", clock)
    with pytest.raises(Conflict, match="only a finalized or paid run"):
        moves.set_wps_status(draft, "submitted", runtime)
    with pytest.raises(ValidationFailed):
        moves.set_wps_status(closed_run(sandbox), "lost", runtime)


def test_the_command_says_a_refusal_in_one_line(sandbox, run):
    result = run("payroll", "wps", closed_run(sandbox).id, "--status", "accepted")
    assert result.exit_code != 0 and "it can become submitted" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_without_v1_3_nothing_is_sent_of_it(app, client, headers, sandbox, runtime, monkeypatch, live_releases):
    closed = closed_run(sandbox)
    quiet = replace(runtime, beyond_contract=False)  # as create_app builds it with v1.3 out of LIVE_RELEASES
    seen = event_ids(sandbox)
    moves.set_wps_status(closed, "submitted", quiet)
    assert new_events(sandbox, seen) == []  # no event type beyond the contract
    moves.mark_paid(closed, quiet)
    [paid] = new_events(sandbox, seen)
    assert "wps_status" not in paid["data"]["payroll_run"]
    live_releases(["v1.0", "v1.1", "v1.2"])
    assert "wps_status" not in client.get(f"/v1/payroll-runs/{closed.id}", headers=headers).get_json()
    assert all("wps_status" not in r for r in client.get("/v1/payroll-runs", headers=headers).get_json()["data"])


def test_the_console_records_each_step_and_a_second_click_is_refused(client, in_sandbox):
    closed = closed_run(in_sandbox)
    path = f"/console/payroll/{closed.id}"
    page = client.get(path)
    assert "With the bank (WPS)" in text(page) and "Mark submitted" in text(page)
    seen = event_ids(in_sandbox)
    done = post(client, f"{path}/wps_submitted", page=path)
    assert "The salary file is submitted with the bank" in text(done)
    assert "Mark accepted" in text(done) and "Mark rejected" in text(done)
    again = post(client, f"{path}/wps_submitted", page=path)
    assert "it can become accepted or rejected" in text(again)
    assert [e["type"] for e in new_events(in_sandbox, seen)] == ["payroll_run.wps_updated"]
    assert PayrollRun.get_by_id(closed.id).wps_status == "submitted"
    assert post(client, f"{path}/wps_lost", page=path).status_code == 404


def test_partners_with_payroll_read_find_it_in_the_events_feed(client, headers, sandbox, runtime):
    closed = closed_run(sandbox)
    moves.set_wps_status(closed, "submitted", runtime)
    feed = client.get("/v1/events?types=payroll_run.wps_updated", headers=headers).get_json()["data"]
    assert [e["data"]["payroll_run"]["wps_status"] for e in feed] == ["submitted"]
