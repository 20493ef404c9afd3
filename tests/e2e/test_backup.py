"""Backups that restore, as an operator runs them: `backup create` while the service
writes on, `backup restore` into a fresh database, and every table compared. On SQLite,
and on PostgreSQL when the suite runs there (TEST_DATABASE_URL)."""

import hashlib
import json
import os
import subprocess
import sys

from tests.e2e.databases import rows
from tests.e2e.processes import ROOT, wait_for

SECRET_KEY = "a-backup-test-secret-key-of-more-than-32-characters"


def env_of(url, secret_key=SECRET_KEY):
    return {**os.environ, "DATABASE_URL": url, "REDIS_URL": "", "SECRET_KEY": secret_key}


def flask(url, *args, check=True):
    done = subprocess.run([sys.executable, "-m", "flask", "--app", "wsgi", *args], cwd=ROOT, env=env_of(url),
                          capture_output=True, text=True, timeout=300)
    assert not check or done.returncode == 0, done.stdout + done.stderr
    return done


def helper(url, *args, secret_key=SECRET_KEY):
    """tests/e2e/load_writer.py: the service's own code, against `url`."""
    return subprocess.run([sys.executable, "-m", "tests.e2e.load_writer", *args], cwd=ROOT,
                          env=env_of(url, secret_key), capture_output=True, text=True, timeout=120)


def tables(url):
    if url.startswith("sqlite:///"):
        found = rows(url, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    else:
        found = rows(url, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
    return sorted(name for (name,) in found)


def checksum(url, *names):
    digest = hashlib.sha256()
    for name in names:
        for row in sorted(repr(row) for row in rows(url, f"SELECT * FROM {name}")):
            digest.update(row.encode())
    return digest.hexdigest()


def census(url):
    """Every table's row count, and checksums of the outbox and the journal."""
    return {"counts": {name: rows(url, f"SELECT COUNT(*) FROM {name}")[0][0] for name in tables(url)},
            "outbox": checksum(url, "outbox_event"),
            "journal": checksum(url, "journal_entry", "journal_line")}


def _updates(url):
    [(count,)] = rows(url, "SELECT count(*) FROM outbox_event WHERE type = 'employee.updated'")
    return count


def test_a_backup_taken_under_load_restores_whole_and_consistent(databases, tmp_path):
    source = databases.new("bk_source")
    flask(source, "db", "upgrade")
    made = json.loads(flask(source, "sandbox", "create", "--country", "KW", "--email", "ops@example.com",
                            "--json").stdout)
    signing_secret = helper(source, "endpoint").stdout.strip()  # stored sealed with SECRET_KEY
    assert signing_secret.startswith("whsec_")
    stop = tmp_path / "stop"
    before = _updates(source)
    writer = subprocess.Popen([sys.executable, "-m", "tests.e2e.load_writer", "write", str(stop)], cwd=ROOT,
                              env=env_of(source), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert wait_for(lambda: _updates(source) >= before + 20), "the writer never wrote"  # under load
        under_load = flask(source, "backup", "create", str(tmp_path / "under-load.backup")).stdout
    finally:
        stop.touch()
        written = int(writer.communicate(timeout=60)[0].strip())
    assert written > 0 and "backup written" in under_load

    # Restored whole and consistent: a snapshot, with no HR action torn from its event.
    restored = databases.new("bk_under_load")
    flask(restored, "backup", "restore", str(tmp_path / "under-load.backup"))
    live, snapshot = census(source), census(restored)
    assert set(snapshot["counts"]) == set(live["counts"])
    assert all(snapshot["counts"][name] <= live["counts"][name] for name in live["counts"])
    titles = dict(rows(restored, "SELECT id, job_title FROM employee"))
    latest = {}
    for (payload,) in rows(restored, "SELECT payload FROM outbox_event WHERE type = 'employee.updated' "
                                     "ORDER BY created_at, id"):
        data = json.loads(payload)["data"]["employee"]
        latest[data["id"]] = data["job_title"]
    assert latest and all(titles[employee_id] == title for employee_id, title in latest.items())

    # Once quiet, a backup restores to exactly what is stored.
    flask(source, "backup", "create", str(tmp_path / "quiet.backup"))
    exact = databases.new("bk_quiet")
    flask(exact, "backup", "restore", str(tmp_path / "quiet.backup"))
    assert census(exact) == live
    assert made["company_id"] in dict(rows(exact, "SELECT id, name_en FROM company"))
    assert "ok       migrations" in flask(exact, "doctor", check=False).stdout
    # Sealed columns open with the same SECRET_KEY, and only with it: keep the .env.
    assert list(json.loads(helper(exact, "secrets").stdout).values()) == [signing_secret]
    elsewhere = helper(exact, "secrets", secret_key="another-secret-key-of-more-than-32-characters")
    assert elsewhere.returncode != 0 and "sealed with a key this service no longer has" in elsewhere.stderr
