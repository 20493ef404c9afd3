"""The house's rules, checked on the source: imports point one way, and the domain
neither reaches for the web, Redis or the network nor keeps hooks others set.

Layers, top to bottom (a module may import its own layer's and any lower layer's):
the app factory; the CLI and the launcher; the entry points api, console, jobs, oauth and
ops (which do not import one another); the per-app services (extensions, mail, egress,
telemetry, metrics, limits); domain; models;
config. Inside domain, the business areas depend one way too (DOMAIN_AREAS, the order
app/domain/__init__.py writes down).
"""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
APP = ROOT / "app"

LAYERS = [
    ("app",),
    ("app.cli", "app.serve", "app.gunicorn_settings", "app.gunicorn_worker"),
    ("app.api", "app.console", "app.jobs", "app.oauth", "app.ops"),
    ("app.extensions", "app.mail", "app.egress", "app.telemetry", "app.metrics", "app.i18n", "app.notices",
     "app.translations", "app.limits"),
    ("app.domain",),
    ("app.models",),
]
PEERS_APART = ("app.api", "app.console", "app.jobs", "app.oauth", "app.ops")
# The domain's areas, bottom to top: an area may import its own modules and those of a
# lower rank; areas of one rank do not import one another.
DOMAIN_AREAS = [
    ("kernel",),
    ("access",),
    ("partner_safe",),
    ("people", "attendance"),
    ("leave",),
    ("payroll",),
    ("webhooks",),
    ("oauth",),
    ("credentials", "sandbox"),
    ("sandbox_triggers", "sandbox_reset"),
]
# No HTTP client, no Redis, no mail server, no web framework inside the domain.
NOT_IN_DOMAIN = ("flask", "werkzeug", "requests", "httpx", "urllib3", "redis", "rq", "smtplib", "socket",
                 "http.client", "urllib.request", "aiosmtpd")


def modules():
    for path in sorted(APP.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        yield name, path, ast.parse(path.read_text(), str(path))


def imports_of(name, tree):
    """Every module an import statement names, at any depth (late imports included)."""
    package = name if tree_is_package(name) else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            yield node.lineno, base
            for alias in node.names:  # `from app.domain import events` imports app.domain.events
                yield node.lineno, f"{base}.{alias.name}"


def tree_is_package(name):
    return (ROOT / pathlib.Path(*name.split(".")) / "__init__.py").exists()


def within(module, prefix):
    return module == prefix or module.startswith(prefix + ".")


def layer_of(module):
    best = None
    for rank, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if within(module, prefix) and (best is None or len(prefix) > len(best[1])):
                best = (rank, prefix)
    return best


def real(module):
    """Only names that are modules of app/ (not `app.domain.kernel.clock.to_db`)."""
    path = ROOT / pathlib.Path(*module.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


ALL = list(modules())


def area_of(module):
    """(rank, area) of a module inside app.domain; None for app.domain itself."""
    parts = module.split(".")
    if parts[:2] != ["app", "domain"] or len(parts) < 3:
        return None
    for rank, areas in enumerate(DOMAIN_AREAS):
        if parts[2] in areas:
            return rank, parts[2]
    raise AssertionError(f"{module}: app/domain/{parts[2]} is in no rank of DOMAIN_AREAS; place it there "
                         "and in app/domain/__init__.py")


def wrong_imports(name, tree):
    """Each import of module `name` that points against the layers or the areas' order."""
    rank, own = layer_of(name)
    wrong = []
    for line, imported in imports_of(name, tree):
        if not within(imported, "app") or not real(imported):
            continue
        target = layer_of(imported)
        if target is None:
            continue
        target_rank, target_prefix = target
        if target_rank < rank:
            wrong.append(f"line {line}: {name} imports {imported}, a higher layer")
        elif own in PEERS_APART and target_prefix in PEERS_APART and target_prefix != own:
            wrong.append(f"line {line}: {name} imports {imported}, a peer entry point")
        elif within(name, "app.domain") and within(imported, "app.domain"):
            mine, theirs = area_of(name), area_of(imported)
            if mine is None or theirs is None or mine[1] == theirs[1]:
                continue
            if theirs[0] > mine[0]:
                wrong.append(f"line {line}: the area {mine[1]} imports {imported}, of the higher area {theirs[1]}")
            elif theirs[0] == mine[0]:
                wrong.append(f"line {line}: the area {mine[1]} imports {imported}, of its peer area {theirs[1]}")
    return wrong


@pytest.mark.parametrize("name,path,tree", ALL, ids=[name for name, _, _ in ALL])
def test_no_import_points_back_up(name, path, tree):
    wrong = wrong_imports(name, tree)
    assert not wrong, "\n".join(wrong)


def test_the_areas_order_is_the_one_app_domain_writes_down():
    written = (APP / "domain" / "__init__.py").read_text()
    for areas in DOMAIN_AREAS:
        for area in areas:
            assert f"    {area}" in written, f"app/domain/__init__.py does not place {area}"
    on_disk = {path.stem if path.is_file() else path.name for path in (APP / "domain").iterdir()
               if path.name != "__init__.py" and not path.name.startswith("__")}
    assert on_disk == {area for areas in DOMAIN_AREAS for area in areas}


DOMAIN = [(name, path, tree) for name, path, tree in ALL if within(name, "app.domain")]


@pytest.mark.parametrize("name,path,tree", DOMAIN, ids=[name for name, _, _ in DOMAIN])
def test_the_domain_does_no_web_redis_or_network(name, path, tree):
    wrong = [f"line {line}: {imported}" for line, imported in imports_of(name, tree)
             if any(within(imported, banned) for banned in NOT_IN_DOMAIN)]
    assert not wrong, f"{name} imports " + ", ".join(wrong)


@pytest.mark.parametrize("name,path,tree", DOMAIN, ids=[name for name, _, _ in DOMAIN])
def test_the_domain_keeps_no_hook_that_others_set(name, path, tree):
    """No `global` rebinding, and no module-level name bound to None for someone to fill
    in later: what happens after a commit is the Runtime's, handed in as an argument."""
    wrong = [f"line {node.lineno}: global {', '.join(node.names)}" for node in ast.walk(tree)
             if isinstance(node, ast.Global)]
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Constant) \
                and node.value.value is None:
            wrong.append(f"line {node.lineno}: a module-level name set to None")
    assert not wrong, f"{name}: " + "; ".join(wrong)


def test_nothing_outside_the_domain_sets_a_domain_modules_attributes():
    wrong = []
    for name, _, tree in ALL:
        domain_names = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                        and node.module and within(node.module, "app.domain") for alias in node.names
                        if real(f"{node.module}.{alias.name}")}
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else []
            for target in targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                        and target.value.id in domain_names:
                    wrong.append(f"{name} line {node.lineno}: sets {target.value.id}.{target.attr}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("module, planted", [
    ("app.domain.access.fake", "from app.domain.webhooks import endpoints"),
    ("app.domain.access.fake", "from app.domain.oauth.connections import ACCESS_PREFIX"),
    ("app.domain.kernel.fake", "import app.domain.people.employees"),
    ("app.domain.people.fake", "from app.domain.payroll import rules"),
    ("app.domain.webhooks.fake", "from app.domain import credentials"),
])
def test_a_planted_import_against_the_areas_order_is_found(module, planted):
    assert wrong_imports(module, ast.parse(planted + "\n")), planted
    assert not wrong_imports("app.domain.sandbox", ast.parse("from app.domain.people import actions\n"))


def test_the_rules_see_a_violation():
    """The walk itself works: an arrow back in a made-up module is found."""
    tree = ast.parse("from app.api.auth import operation\nimport flask\nfrom app.domain import sandbox\n")
    found = [imported for _, imported in imports_of("app.domain.kernel.fake", tree)]
    assert "app.api.auth" in found and "flask" in found and "app.domain.sandbox" in found
    assert layer_of("app.api.auth")[0] < layer_of("app.domain.kernel.fake")[0]
