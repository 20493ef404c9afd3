"""The TypeScript client (clients/typescript) as a partner gets it: built in a copy of its
folder, packed with `npm pack`, and installed from the tarball into a fresh project. Used
by its own tests (test_typescript_client.py) and by the documentation's `ts` examples
(test_docs.py).

Without `node` and `npm`, what needs them skips, unless TYPESCRIPT_CLIENT_REQUIRED=1 (set
by .ci/run, which installs Debian's nodejs and npm). npm fetches the package's locked
dependencies, or takes them from its cache."""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "clients" / "typescript"
NPM_QUIET = ("--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error")
GUIDE = ROOT / "docs" / "partners" / "typescript-client.md"


def guide_tsconfig():
    """The tsconfig.json the guide tells a partner to write (its first `json` block): the
    one its examples are compiled with here."""
    text = GUIDE.read_text(encoding="utf-8")
    return json.loads(re.search(r"^```json\n(.*?)^```", text, re.S | re.M).group(1))


def node_tools():
    """Skip (or fail, where required) without node and npm, or with a Node older than the
    client's 20."""
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    why = f"{' and '.join(missing)} not installed (apt-get install nodejs npm)" if missing else None
    if not missing:
        version = subprocess.run(["node", "-p", "process.versions.node"], capture_output=True, text=True).stdout
        if int(version.split(".")[0] or 0) < 20:
            why = f"the TypeScript client needs Node 20 or later, not {version.strip()}"
    if why is not None:
        if os.environ.get("TYPESCRIPT_CLIENT_REQUIRED") == "1":
            pytest.fail(f"{why} (TYPESCRIPT_CLIENT_REQUIRED)")
        pytest.skip(why)


def run(argv, cwd, timeout=300, **env):
    """What the command printed; its output in the failure when it exits non-zero."""
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, env={**os.environ, **env})
    assert done.returncode == 0, f"{' '.join(map(str, argv))} exited {done.returncode}:\n" \
                                 f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def build(folder):
    """The package built in `folder` (a copy; its locked dependencies installed there): its
    sources with `npm run build`, its tests and examples with tsconfig.test.json, both strict."""
    node_tools()
    shutil.copytree(PACKAGE, folder, ignore=shutil.ignore_patterns("node_modules", "dist", "build", "*.tgz"))
    run(["npm", "ci", *NPM_QUIET], folder, timeout=600)
    run(["npm", "run", "--silent", "build"], folder)
    run(["npx", "tsc", "-p", "tsconfig.test.json"], folder)
    return folder


def install(built, project, *, compiler=False):
    """A fresh project in `project` with the package packed from `built` installed, as
    `npm install ./partner-api-client-*.tgz` installs it; with `compiler`, also the
    TypeScript and Node types the package is built with, and the guide's tsconfig.json."""
    packed = json.loads(run(["npm", "pack", "--json", "--pack-destination", str(project.parent)], built))[0]
    assert {entry["path"] for entry in packed["files"]} >= {"dist/index.js", "dist/index.d.ts", "package.json"}
    project.mkdir()
    (project / "package.json").write_text(json.dumps({"name": "partner-app", "private": True, "type": "module"}))
    wanted = [str(project.parent / packed["filename"])]
    if compiler:
        tools = json.loads((built / "package.json").read_text())["devDependencies"]
        wanted += [f"{name}@{tools[name]}" for name in ("typescript", "@types/node")]
        (project / "tsconfig.json").write_text(json.dumps(guide_tsconfig(), indent=2))
    run(["npm", "install", *NPM_QUIET, *wanted], project, timeout=600)
    return project


def example(project, code, *, run=True):
    """The argv that compiles a guide's TypeScript example in `project` (type errors fail
    it), as the guide says (`npx tsc && node out/example.js`), and (with `run`) runs it."""
    (project / "example.ts").write_text(code, encoding="utf-8")
    compile_ = f'cd "{project}" && ./node_modules/.bin/tsc -p tsconfig.json'
    return ["sh", "-c", f"{compile_} && exec node out/example.js" if run else compile_]
