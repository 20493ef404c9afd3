"""The documentation site (docs/, mkdocs.yml) cannot drift from the code: it builds with
`mkdocs build --strict`, and every `sh` and `python` example of every page runs, in the
page's order, against a service started by the README's command (`flask --app wsgi
serve`), with PARTNER_API_KEY and PARTNER_API_BASE_URL set as the guides tell a partner
to set them, the client package importable and its `partner-api` command on the PATH.

An HTML comment right before an example tells this test how to run it:

    <!-- test: skip WHY -->               not run here; WHY names what runs it or why it cannot
    <!-- test: background ready=TEXT -->  started and left running (a receiver, `listen`) once it
                                          prints TEXT; stopped when the page is done
    <!-- test: expect=TEXT -->            with background: TEXT must appear in its output by then

Shell examples of a page share their variables (each runs with `set -a`, so what one sets
the next one sees, as in one terminal); an example fails the test by exiting non-zero, or
by printing a traceback or an `internal_error`."""

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.api.problems import CODES
from tests.e2e.test_serve import serving

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
EXAMPLE = re.compile(r"((?:^<!--[^\n]*-->\n)*)^```(\w*)[^\n]*\n(.*?)^```", re.S | re.M)
DIRECTIVE = re.compile(r"<!-- test: (.*?) -->")
RUNNABLE = ("sh", "python")
PAGES = sorted(path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md"))


def examples(page):
    """(directives, language, code, line) of each fenced block of `page`."""
    text = (DOCS / page).read_text(encoding="utf-8")
    for found in EXAMPLE.finditer(text):
        directives = " ".join(DIRECTIVE.findall(found.group(1)))
        yield directives, found.group(2), found.group(3), text.count("\n", 0, found.start(2)) + 1


def option(directives, name):
    found = re.search(rf'{name}=(?:"([^"]*)"|(\S+))', directives)
    return (found.group(1) or found.group(2)) if found else None


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    folder = tmp_path_factory.mktemp("docs")
    with serving(folder, WEBHOOK_ALLOW_PRIVATE_NETWORKS="127.0.0.0/8") as (base, key, database, _):
        tools = folder / "bin"
        tools.mkdir()
        command = tools / "partner-api"  # as `pip install ./clients/python` installs it
        command.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m partner_api.cli "$@"\n')
        command.chmod(0o755)
        # The operator's pages run `flask --app wsgi ...` on the served database, as the
        # service's own folder and settings would.
        env = {**os.environ, "PARTNER_API_KEY": key, "PARTNER_API_BASE_URL": base,
               "PATH": f"{tools}:{Path(sys.executable).parent}:{os.environ['PATH']}",
               "PYTHONPATH": f"{ROOT / 'clients' / 'python' / 'src'}:{ROOT}", "PYTHONUNBUFFERED": "1",
               "DATABASE_URL": f"sqlite:///{database}", "REDIS_URL": "", "NO_MKDOCS_2_WARNING": "1"}
        yield env


def test_the_site_builds_strict(tmp_path):
    """What `.ci/run` runs: a warning (a broken link or anchor, a page left out of the nav)
    fails the build."""
    if shutil.which("mkdocs", path=str(Path(sys.executable).parent)) is None:
        pytest.fail("mkdocs is not installed: pip install -r docs/requirements.txt")
    done = subprocess.run([str(Path(sys.executable).parent / "mkdocs"), "build", "--strict", "--site-dir",
                           str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stderr[-4000:]
    assert (tmp_path / "site" / "reference" / "openapi.json").read_text().startswith("{")
    # Offline: no page loads a script, a stylesheet, a font or an image from elsewhere
    # (the theme's Google Fonts are off; Swagger UI's files ship in the site).
    fetched = {f"{page.relative_to(tmp_path)}: {found}" for page in (tmp_path / "site").rglob("*.html")
               for found in re.findall(r'<(?:script|img|iframe)[^>]* src="(https?://[^"]+)"|'
                                       r'<link[^>]* href="(https?://[^"]+)"', page.read_text(encoding="utf-8"))
               if any(found)}
    assert fetched == set()


def test_the_errors_guide_lists_every_problem_code():
    guide = (DOCS / "partners" / "errors.md").read_text(encoding="utf-8")
    assert [code for code in CODES if f"`{code}`" not in guide] == []


def test_every_example_is_runnable_or_says_why_not():
    for page in PAGES:
        for directives, language, _, line in examples(page):
            where = f"docs/{page}:{line}"
            assert language, f"{where}: name the block's language (sh, python, text, json, ...)"
            if "skip" in directives:
                assert len(directives.split("skip", 1)[1].strip()) > 15, f"{where}: say why it is skipped"
            if language == "bash":
                raise AssertionError(f"{where}: write sh, which this test runs, not bash")


@pytest.mark.parametrize("page", [page for page in PAGES
                                  if any(language in RUNNABLE and "skip" not in directives
                                         for directives, language, _, _ in examples(page))])
def test_the_examples_of_each_page_run_against_the_served_service(page, served, tmp_path):
    state, started = tmp_path / "state.sh", []
    state.write_text("")
    try:
        for directives, language, code, line in examples(page):
            if language not in RUNNABLE or "skip" in directives:
                continue
            where = f"docs/{page}:{line}"
            env = {**served, **exported(state)}
            if language == "python":
                argv = [sys.executable, "-c", code]
            else:
                argv = ["bash", "-c", f"set -euo pipefail -a\n. {state}\n{code}\nexport -p > {state}"]
            if "background" in directives:
                log = tmp_path / f"background-{line}.log"
                process = subprocess.Popen(argv, cwd=tmp_path, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
                                           text=True)
                started.append((process, log, option(directives, "expect"), where))
                ready = option(directives, "ready")
                if ready:
                    wait_for_text(log, ready, process, where)
                continue
            done = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
            output = done.stdout + done.stderr
            assert done.returncode == 0, f"{where} exited {done.returncode}:\n{output[-3000:]}"
            assert "Traceback" not in output and '"internal_error"' not in output, f"{where}:\n{output[-3000:]}"
        for process, log, expect, where in started:
            if expect:
                wait_for_text(log, expect, process, where)
    finally:
        for process, _, _, _ in started:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def exported(state):
    """The variables the page's shell examples set so far (`export -p`'s lines)."""
    found = {}
    for name, value in re.findall(r'^declare -x (\w+)="(.*)"$', state.read_text(), re.M):
        if name not in ("PWD", "OLDPWD", "SHLVL", "_"):
            found[name] = value.replace('\\"', '"').replace("\\$", "$").replace("\\\\", "\\")
    return found


def wait_for_text(log, text, process, where, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if text in log.read_text():
            return
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise AssertionError(f"{where}: {text!r} never appeared:\n{log.read_text()[-3000:]}")
