"""The README's first command installs requirements.txt alone: every module the service
imports must come from the standard library, from this repository, or from a
distribution pinned there (tests/requirements.txt is not installed in production)."""

import ast
import re
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVICE = [*sorted((ROOT / "app").rglob("*.py")), ROOT / "wsgi.py", ROOT / "config.py"]


def pinned(path):
    names = set()
    for line in path.read_text().splitlines():
        found = re.match(r"([A-Za-z0-9_.-]+)==", line.strip())
        if found:
            names.add(re.sub(r"[-_.]+", "-", found.group(1)).lower())
    return names


def imported_top_levels():
    names = set()
    for path in SERVICE:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def test_every_import_of_the_service_is_pinned_in_requirements_txt():
    runtime, distributions = pinned(ROOT / "requirements.txt"), packages_distributions()
    ours = {"app", "config", "wsgi", "migrations"}
    missing = {}
    for name in sorted(imported_top_levels() - ours - set(sys.stdlib_module_names)):
        providers = {re.sub(r"[-_.]+", "-", d).lower() for d in distributions.get(name, [])}
        if not providers & runtime:
            missing[name] = sorted(providers) or ["(not installed)"]
    assert missing == {}, f"imported by the service but not pinned in requirements.txt: {missing}"
