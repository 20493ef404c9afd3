"""METRICS_DIR keeps the files of living processes only (app/metrics.py)."""

import os
import subprocess

from app.metrics import remove_ended


def test_the_files_of_ended_processes_are_removed_and_the_rest_kept(tmp_path):
    ended = subprocess.Popen(["true"])
    ended.wait()
    for name in (f"counter_{os.getpid()}.db", f"histogram_{os.getpid()}.db", f"counter_{ended.pid}.db",
                 f"histogram_{ended.pid}.db", f"gauge_livesum_{ended.pid}.db", "notes.txt", "counter_x.db"):
        (tmp_path / name).write_bytes(b"")
    assert remove_ended(str(tmp_path)) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [f"counter_{os.getpid()}.db", f"histogram_{os.getpid()}.db", "notes.txt", "counter_x.db"])
    assert remove_ended(str(tmp_path)) == 0
