"""The documentation site (docs/, mkdocs.yml) cannot drift from the code: it builds with
`mkdocs build --strict`, and every `sh`, `python` and `ts` example of every page runs, in
the page's order, against a service started by the README's command (`flask --app wsgi
serve`), with PARTNER_API_KEY and PARTNER_API_BASE_URL set as the guides tell a partner
to set them, the client package importable and its `partner-api` command on the PATH. A
`ts` example is compiled (strict: a type error fails it) and run with node in a project
where the TypeScript client is installed from its packed tarball (tests/e2e/typescript.py).

An HTML comment right before an example tells this test how to run it:

    <!-- test: skip WHY -->               not run here; WHY names what runs it or why it cannot
    <!-- test: background ready=TEXT -->  started and left running (a receiver, `listen`) once it
                                          prints TEXT; stopped when the page is done
    <!-- test: expect=TEXT -->            with background: TEXT must appear in its output by then
    <!-- test: compile only: WHY -->      a `ts` example compiled (type errors fail it), not run;
                                          WHY names what runs it or why it cannot

The examples of a page run as in one reader's terminal: a variable one shell example sets
the next one sees, but a program they start (a Python example, `flask`, `partner-api`)
sees only what was exported, as the guides tell a reader to (`export NAME=...`). So a
guide that sets a variable without `export` before a Python receiver reads it fails here
as it fails for the reader. An example fails the test by exiting non-zero, or by
printing a traceback or an `internal_error`."""

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.api.problems import CODES
from app.cli import serve
from config import web_server
from tests.e2e.test_serve import serving
from tests.e2e.typescript import build, example, install

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
EXAMPLE = re.compile(r"((?:^<!--[^\n]*-->\n)*)^```(\w*)[^\n]*\n(.*?)^```", re.S | re.M)
DIRECTIVE = re.compile(r"<!-- test: (.*?) -->")
RUNNABLE = ("sh", "python", "ts")
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


@pytest.fixture(scope="module")
def typescript_project(tmp_path_factory):
    """A partner's project with the TypeScript client installed, for the `ts` examples."""
    built = build(tmp_path_factory.mktemp("typescript") / "partner-api-client")
    return install(built, built.parent / "partner-app", compiler=True)


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


def test_the_service_has_one_default_port_and_the_docs_site_another(monkeypatch):
    """A new partner met port 5000 in the quick start and the errors page while `serve`
    listened on 8000 (the Procfile's web process too), and the README's `mkdocs serve` took
    8000 as well: the service has one default port everywhere, the docs site another."""
    for name in ("HOST", "PORT"):
        monkeypatch.delenv(name, raising=False)
    port = next(param.default for param in serve.params if param.name == "port")
    assert web_server()["bind"] == f"127.0.0.1:{port}"  # the Procfile's web process
    site = re.search(r"^dev_addr: (\S+)", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M).group(1)
    assert site.startswith("127.0.0.1:") and site != f"127.0.0.1:{port}"
    guide = (DOCS / "partners" / "quick-start.md").read_text(encoding="utf-8")
    assert f"export PARTNER_API_BASE_URL=http://127.0.0.1:{port}\n" in guide
    assert f'"http://127.0.0.1:{port}/errors#' in (DOCS / "partners" / "errors.md").read_text(encoding="utf-8")
    for path in (ROOT / "README.md", DOCS / "requirements.txt", *sorted(DOCS.rglob("*.md"))):
        text = path.read_text(encoding="utf-8")
        assert ":5000" not in text, path
        assert all(site in line for line in text.splitlines() if "mkdocs serve" in line and "127.0.0.1:" in line), path


def test_every_example_is_runnable_or_says_why_not():
    for page in PAGES:
        for directives, language, _, line in examples(page):
            where = f"docs/{page}:{line}"
            assert language, f"{where}: name the block's language (sh, python, text, json, ...)"
            if "skip" in directives:
                assert len(directives.split("skip", 1)[1].strip()) > 15, f"{where}: say why it is skipped"
            if "compile only" in directives:
                assert language == "ts", f"{where}: only a ts example is compiled without running"
                assert len(directives.split("compile only", 1)[1].strip(": ")) > 15, f"{where}: say why it is not run"
            if language == "bash":
                raise AssertionError(f"{where}: write sh, which this test runs, not bash")


def test_examples_run_as_in_a_readers_terminal(tmp_path):
    """What let a guide set WEBHOOK_SECRET without `export` before a Python receiver read
    it: every variable reached every example. Now a shell example's variables reach the
    next shell example, and a program only when exported."""
    state = tmp_path / "state.sh"
    state.write_text("")

    def run(language, code):
        done = subprocess.run(command(language, code, state), cwd=tmp_path, capture_output=True, text=True,
                              env={"PATH": os.environ["PATH"], **exported(state)}, timeout=30)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    run("sh", 'SET_ONLY=$(echo "a b")\nexport EXPORTED="c \\"d\\" $SET_ONLY"\nLIST=(x y)')
    assert run("python", "import os; print(os.environ.get('SET_ONLY'), os.environ['EXPORTED'])") == 'None c "d" a b'
    shown = run("sh", 'echo "$SET_ONLY|$EXPORTED|${LIST[1]}"\n'
                      'python3 -c \'import os; print(os.environ.get("SET_ONLY"))\'')
    assert shown == 'a b|c "d" a b|y\nNone'  # the next shell example has both; a program it starts, the export
    assert run("sh", "export SET_ONLY; [[ ab =~ (b) ]]") == ""
    assert run("python", "import os; print(os.environ['SET_ONLY'])") == "a b"


@pytest.mark.parametrize("page", [page for page in PAGES
                                  if any(language in RUNNABLE and "skip" not in directives
                                         for directives, language, _, _ in examples(page))])
def test_the_examples_of_each_page_run_against_the_served_service(page, served, tmp_path, request):
    state, started = tmp_path / "state.sh", []
    state.write_text("")
    project = request.getfixturevalue("typescript_project") if any(
        language == "ts" and "skip" not in directives for directives, language, _, _ in examples(page)) else None
    try:
        for directives, language, code, line in examples(page):
            if language not in RUNNABLE or "skip" in directives:
                continue
            where = f"docs/{page}:{line}"
            env = {**served, **exported(state)}
            argv = example(project, code, run="compile only" not in directives) if language == "ts" \
                else command(language, code, state)
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


# A shell example in the terminal the page's examples share: it starts with the variables
# the examples before it left (`state`), and leaves them, exported or not, to the next:
# those it set (`declare -p`, which keeps whether each is exported) and every exported one.
SHELL = """set -euo pipefail
__known=" $(compgen -v | tr '\\n' ' ') "
. "{state}"
{code}
{{ for __name in $(compgen -v); do
    case "$__known" in *" $__name "*) ;; *) case "$__name" in __*) ;; *) declare -p "$__name";; esac;; esac
  done
  export -p; }} > "{state}"
"""


def command(language, code, state):
    """The argv that runs an example of `language` in the page's terminal (see SHELL); a
    Python example is a program started there, which gets `exported(state)` only."""
    if language == "python":
        return [sys.executable, "-c", code]
    return ["bash", "-c", SHELL.format(state=state, code=code)]


def exported(state):
    """The variables the page's shell examples exported so far (`declare -x` lines): what
    a program they start has in its environment."""
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
