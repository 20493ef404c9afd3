"""The Procfile's worker and scheduler outlive Redis going away (app/jobs/worker.py)."""

import redis

from app.jobs import worker as processes


class Runner:
    def __init__(self, outcomes, made):
        self.outcomes, self.stopping = outcomes, False
        made.append(self)

    def run(self):
        outcome = self.outcomes.pop(0)
        if outcome == "stop":  # SIGTERM while Redis is away: RQ's handler, then Redis fails too
            self.stopping = True
            raise redis.ConnectionError("gone")
        if isinstance(outcome, Exception):
            raise outcome


def test_a_runner_that_loses_redis_is_made_again_after_a_growing_wait(monkeypatch):
    waits, made = [], []
    monkeypatch.setattr(processes.time, "sleep", waits.append)
    outcomes = [redis.ConnectionError("refused"), redis.TimeoutError("slow"), redis.ConnectionError("refused"), None]
    processes.outliving_redis("worker", lambda: Runner(outcomes, made), Runner.run)
    assert len(made) == 4 and outcomes == [] and waits == [1.0, 2.0, 4.0]


def test_a_stop_asked_for_while_redis_is_away_stops_it(monkeypatch):
    waits, made = [], []
    monkeypatch.setattr(processes.time, "sleep", waits.append)
    outcomes = [redis.ConnectionError("refused"), "stop", None]
    processes.outliving_redis("scheduler", lambda: Runner(outcomes, made), Runner.run)
    assert len(made) == 2 and waits == [1.0] and outcomes == [None]


def test_redis_failing_while_the_runner_is_made_counts_too(monkeypatch):
    waits, made, attempts = [], [], []
    monkeypatch.setattr(processes.time, "sleep", waits.append)

    def make():
        attempts.append(1)
        if len(attempts) == 1:
            raise redis.ConnectionError("refused")  # RQ's worker names itself in Redis as it is made
        return Runner([None], made)

    processes.outliving_redis("worker", make, Runner.run)
    assert len(attempts) == 2 and waits == [1.0]


def test_other_faults_are_not_hidden(monkeypatch):
    monkeypatch.setattr(processes.time, "sleep", lambda seconds: None)
    try:
        processes.outliving_redis("worker", lambda: Runner([ValueError("a bug")], []), Runner.run)
    except ValueError as exc:
        assert str(exc) == "a bug"
    else:
        raise AssertionError("a fault that is not Redis went unnoticed")
