"""The layering of the project, read from the source with ``ast`` (nothing is imported).

Rules:

1. nothing under ``sim/`` imports ``games`` except ``sim/core/registry.py`` (which finds a game's spec
   by name at run time);
2. there is no import cycle among the project's modules (``sim``, ``games``).

What counts as an import: every ``import`` / ``from ... import`` statement of a module, at module level
and inside functions and classes (a lazy import is still a dependency), except those under an
``if TYPE_CHECKING:`` block (never run). Relative imports are resolved.

How packages count: each file is one node; a package is the node of its ``__init__.py``.
``import a.b.c`` and ``from a.b import c`` (``c`` a submodule) depend on module ``a.b.c`` only;
``from a.b import name`` (``name`` not a submodule) depends on ``a/b/__init__.py``. Python also runs the
``__init__`` of every parent package first; that is not counted as a dependency, since a submodule does
not use what its parent's ``__init__`` defines unless it names it. So a package ``__init__`` that
imports its own submodules is fine, and a cycle is a real one: a module that uses a name defined in a
module that (directly or through others) uses it back.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sim", "games")


def _modules(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module under ``sim/`` and ``games/`` of ``root``."""
    out = {}
    for pkg in PACKAGES:
        for path in sorted((root / pkg).rglob("*.py")):
            rel = path.relative_to(root).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, skipping ``if TYPE_CHECKING:`` bodies."""
    found: list = []

    def walk(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for sub in child.orelse:
                    walk_stmt(sub)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append(child)
            walk(child)

    def walk_stmt(stmt: ast.AST) -> None:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            found.append(stmt)
        walk(stmt)

    walk(tree)
    return found


def _resolve(name: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute module a ``from`` import names (resolving ``.`` / ``..``)."""
    if not node.level:
        return node.module or ""
    parts = name.split(".")
    if path.name != "__init__.py":
        parts = parts[:-1]          # the package this module is in
    if node.level > 1:
        parts = parts[: len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the project modules it imports (see the module docstring for what counts)."""
    mods = _modules(root)
    deps: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in _imports(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = _resolve(name, path, node)
                for a in node.names:
                    sub = f"{base}.{a.name}"
                    targets.append(sub if sub in mods else base)
            for t in targets:
                if t.split(".")[0] not in PACKAGES:
                    continue
                # the longest known module the name starts with (``import a.b.c`` -> ``a.b.c``)
                while t and t not in mods:
                    t = t.rpartition(".")[0]
                if t and t != name:
                    deps[name].add(t)
    return deps


def _cycles(deps: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(deps[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(deps):
        if v not in index:
            visit(v)
    return out


def test_the_graph_sees_lazy_relative_and_package_imports():
    deps = graph()
    # lazy (inside a function), absolute: the registry is the one sim module that reaches games,
    # and the app reaches it through a function-level import of sim.app.main
    assert "sim.core.registry" in deps["sim.app.cli"]
    # relative: "from . import protocol as P" in sim/net/host.py is the submodule
    assert "sim.net.protocol" in deps["sim.net.host"]
    # "from sim.core.registry import GameSpec" in games/gobble/__init__.py
    assert "sim.core.registry" in deps["games.gobble"]


def test_package_inits_type_checking_and_lazy_imports_count_as_documented(tmp_path):
    pkg = tmp_path / "games" / "x"
    pkg.mkdir(parents=True)
    (tmp_path / "games" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("def scene():\n    from .view import View\n    return View\n")
    (pkg / "rules.py").write_text("X = 1\n")
    (pkg / "draw.py").write_text("from . import rules\n")
    (pkg / "view.py").write_text("from typing import TYPE_CHECKING\nfrom . import draw\n"
                                 "if TYPE_CHECKING:\n    from games.x.rules import X\n"
                                 "class View:\n    def spec(self):\n        from . import SPEC\n")
    deps = graph(tmp_path)
    assert deps["games.x.draw"] == {"games.x.rules"}         # a submodule named by "from . import"
    assert deps["games.x.view"] == {"games.x.draw", "games.x"}  # SPEC: a name of the __init__
    assert deps["games.x.rules"] == set()                    # the parent's __init__ is not counted
    assert _cycles(deps) == [["games.x", "games.x.view"]]    # the view uses back the __init__ using it


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_sim_imports_games_only_through_the_registry():
    bad = sorted(f"{m} -> {d}" for m, ds in graph().items() if m.startswith("sim") and m != "sim.core.registry"
                 for d in ds if d.split(".")[0] == "games")
    assert bad == []


def test_no_import_cycles():
    assert _cycles(graph()) == []
