"""Every public function of the domain and the API carries type hints (the type checker,
mypy, run by .ci/run, then checks their bodies). Public: a module-level function or a
method of a module-level class whose name does not start with `_` (`__init__` counts:
it is how the class is called). Views and schema hooks take what flask-smorest and
marshmallow hand them and are left to those libraries' own types."""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("app/domain", "app/api")


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


@pytest.mark.parametrize("path", ALL)
def test_public_functions_carry_type_hints(path):
    missing = unannotated(path)
    assert not missing, f"{path}: " + "; ".join(f"line {line} {what}" for line, what in missing)


def test_the_check_sees_a_missing_hint():
    tree_text = "def shown(a, b: int) -> int: ...\ndef _hidden(a): ...\nclass K:\n    def m(self, x: int): ...\n"
    path = ROOT / "tests" / "output" / "types_probe.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(tree_text)
    found = [what for _, what in unannotated(str(path.relative_to(ROOT)))]
    assert found == ["shown: a", "K.m: return"]
