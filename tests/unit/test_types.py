"""Every public function of the domain and the API carries type hints (the type checker,
mypy, run by .ci/run, then checks their bodies). Public: a module-level function or a
method of a module-level class whose name does not start with `_` (`__init__` counts:
it is how the class is called). Views and schema hooks take what flask-smorest and
marshmallow hand them and are left to those libraries' own types.

NOT_YET lists the modules still to be annotated; it only shrinks: a module that gets
its hints leaves it (the test says so), and no other module may lose them."""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("app/domain", "app/api")
NOT_YET = {
    "app/api/auth.py",
    "app/api/docs.py",
    "app/api/openapi.py",
    "app/api/principal_cache.py",
    "app/api/problems.py",
    "app/api/ratelimit.py",
    "app/api/request_id.py",
    "app/api/request_limits.py",
    "app/api/schemas.py",
}


def modules():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            yield str(path.relative_to(ROOT))


def unannotated(path):
    """(line, name) of each public function or method missing an annotation."""
    tree = ast.parse((ROOT / path).read_text())
    found = []

    def check(function, owner=""):
        if function.name.startswith("_") and function.name != "__init__":
            return
        decorators = {ast.unparse(d).split("(")[0].split(".")[-1] for d in function.decorator_list}
        if decorators & {"validates_schema", "validates", "pre_load", "post_load", "post_dump", "route",
                         "response", "arguments", "operation", "overload"}:
            return
        args = function.args
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        if owner and params and params[0].arg in ("self", "cls") and not any(
                d in decorators for d in ("staticmethod",)):
            params = params[1:]
        params += [a for a in (args.vararg, args.kwarg) if a is not None]
        missing = [p.arg for p in params if p.annotation is None]
        if function.returns is None and function.name != "__init__":
            missing.append("return")
        if missing:
            found.append((function.lineno, f"{owner}{function.name}: {', '.join(missing)}"))

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            check(node)
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    check(item, f"{node.name}.")
    return found


ALL = list(modules())


@pytest.mark.parametrize("path", [p for p in ALL if p not in NOT_YET])
def test_public_functions_carry_type_hints(path):
    missing = unannotated(path)
    assert not missing, f"{path}: " + "; ".join(f"line {line} {what}" for line, what in missing)


@pytest.mark.parametrize("path", sorted(NOT_YET))
def test_a_module_still_to_annotate_leaves_the_list_once_it_is_done(path):
    assert (ROOT / path).exists(), f"{path} is gone: take it off NOT_YET"
    assert unannotated(path), f"{path} carries its hints now: take it off NOT_YET"


def test_the_check_sees_a_missing_hint():
    tree_text = "def shown(a, b: int) -> int: ...\ndef _hidden(a): ...\nclass K:\n    def m(self, x: int): ...\n"
    path = ROOT / "tests" / "output" / "types_probe.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(tree_text)
    found = [what for _, what in unannotated(str(path.relative_to(ROOT)))]
    assert found == ["shown: a", "K.m: return"]
