"""Events per second of the pairing function alone, on one core.

    .venv/bin/python bench/pairing.py [--events 1000000] [--rounds 3]

Generates a month of realistic clock events (clock-in, a break, clock-out per working day,
with a few missing and duplicated punches and a second source now and then) for enough
employees to reach `--events`, then times `pair()` over every employee. Beside it, the
same events are only sorted by pairing's key: the floor any pairing must pay. Target: at
least 200,000 events per second.
"""

import argparse
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.domain.attendance.pairing import ClockEvent, pair, sort_key  # noqa: E402

START = datetime(2026, 10, 1, tzinfo=UTC)
EVENTS_PER_EMPLOYEE = 100  # about 25 working days of 4 punches


def employee_events(rng, employee):
    events, n = [], 0

    def add(kind, at, source="pos", channel="partner_api"):
        nonlocal n
        n += 1
        events.append(ClockEvent(f"aev_{employee}_{n}", f"{employee}-{n}", channel, source, kind, at, "HQ"))

    day = START
    while len(events) < EVENTS_PER_EMPLOYEE:
        if day.weekday() not in (4, 5):  # Friday and Saturday off
            start = day + timedelta(hours=5, minutes=rng.randrange(-20, 40))
            if rng.random() > 0.02:
                add("clock_in", start)
            add("break_start", start + timedelta(hours=4))
            add("break_end", start + timedelta(hours=4, minutes=rng.randrange(20, 60)))
            if rng.random() > 0.02:
                add("clock_out", start + timedelta(hours=9, minutes=rng.randrange(0, 90)))
            if rng.random() < 0.05:  # the employee app also punched in, overlapping
                add("clock_in", start + timedelta(minutes=5), "app", "employee_app")
        day += timedelta(days=1)
    return events[:EVENTS_PER_EMPLOYEE]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    rng = random.Random(42)
    employees = [employee_events(rng, e) for e in range(options.events // EVENTS_PER_EMPLOYEE)]
    total = sum(len(events) for events in employees)
    now = START + timedelta(days=40)
    best_pair = best_sort = float("inf")
    for _ in range(options.rounds):
        started = time.perf_counter()
        for events in employees:
            sorted(events, key=sort_key)
        best_sort = min(best_sort, time.perf_counter() - started)
        started = time.perf_counter()
        shifts = rejections = 0
        for events in employees:
            result = pair(events, "Asia/Riyadh", now)
            shifts += len(result.shifts)
            rejections += len(result.rejections)
        best_pair = min(best_pair, time.perf_counter() - started)
    print(f"\npairing {total:,} events of {len(employees):,} employees, best of {options.rounds}")
    print(f"  shifts {shifts:,}, rejections {rejections:,}")
    print(f"  pair()               {total / best_pair:12,.0f} events/s   target >= 200,000")
    print(f"  sort only (floor)    {total / best_sort:12,.0f} events/s")
    print(f"  pair / sort time     {best_pair / best_sort:12.1f}x")


if __name__ == "__main__":
    main()
