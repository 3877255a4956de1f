"""Rules code is pure (specs/DESIGN.md "Core interface"; sim/core "never imports pygame").

Checked by parsing the source (AST), so every future game's rules.py/board.py/data.py is covered:
no pygame import, no wall-clock reads, no global ``random`` functions (seeded ``random.Random``
instances are fine).
"""
from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Modules of a game that may touch pygame, the clock or threads: its screens, drawing, bots, tools.
NOT_RULES = ("__init__", "view", "draw", "boardview", "ai", "bench", "selfplay", "cli", "driver")

RULES_FILES = sorted(
    list((ROOT / "sim" / "core").rglob("*.py"))
    + [p for p in (ROOT / "games").glob("*/*.py") if not p.stem.startswith(NOT_RULES)]
)

CLOCK_FUNCS = {"time", "time_ns", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns",
               "process_time", "process_time_ns", "thread_time", "localtime", "gmtime", "ctime"}
DATETIME_FUNCS = {"now", "utcnow", "today"}
RANDOM_OK = {"Random"}  # seeded instances only


def _dotted(node: ast.AST) -> str | None:
    """'a.b.c' for a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def impurities(source: str, filename: str = "<src>") -> list[str]:
    """Every impure construct in ``source`` as 'line: what'."""
    tree = ast.parse(source, filename)
    bad: list[str] = []
    # local name -> module it stands for ('time', 'random', 'datetime', 'datetime.datetime', ...)
    modules: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                top = a.name.split(".")[0]
                if top == "pygame":
                    bad.append(f"{node.lineno}: imports pygame")
                if a.name in ("time", "random", "datetime"):
                    modules[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if mod.split(".")[0] == "pygame":
                bad.append(f"{node.lineno}: imports from pygame")
            for a in node.names:
                local = a.asname or a.name
                if mod == "time" and a.name in CLOCK_FUNCS | {"*"}:
                    bad.append(f"{node.lineno}: imports time.{a.name}")
                elif mod == "random" and a.name not in RANDOM_OK:
                    bad.append(f"{node.lineno}: imports random.{a.name} (global random state)")
                elif mod == "datetime" and a.name in ("datetime", "date"):
                    modules[local] = f"datetime.{a.name}"
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _dotted(node.func)
        if not name or "." not in name:
            continue
        head, _, attr = name.rpartition(".")
        target = modules.get(head.split(".")[0])
        if target is None:
            continue
        full = target + head[len(head.split(".")[0]):]
        if full == "time" and attr in CLOCK_FUNCS:
            bad.append(f"{node.lineno}: calls {name}() (wall clock)")
        elif full == "random" and attr not in RANDOM_OK:
            bad.append(f"{node.lineno}: calls {name}() (global random state)")
        elif full in ("datetime.datetime", "datetime.date") and attr in DATETIME_FUNCS:
            bad.append(f"{node.lineno}: calls {name}() (wall clock)")
    return bad


# ------------------------------------------------------------------ the checker itself
@pytest.mark.parametrize("src", [
    "import pygame",
    "import pygame.font",
    "from pygame import Rect",
    "from pygame.locals import *",
    "import time\nt = time.time()",
    "import time as tm\nt = tm.monotonic()",
    "import time\nt = time.perf_counter()",
    "from time import perf_counter",
    "from time import time as now",
    "import datetime\nd = datetime.datetime.now()",
    "from datetime import datetime\nd = datetime.now()",
    "from datetime import datetime as dt\nd = dt.utcnow()",
    "from datetime import date\nd = date.today()",
    "import random\nx = random.random()",
    "import random\nx = random.choice([1, 2])",
    "import random as r\nr.shuffle([1])",
    "import random\nrandom.seed(3)",
    "from random import choice",
    "from random import shuffle as sh",
    "import random\nrng = random.SystemRandom()",
])
def test_checker_flags_impure_code(src):
    assert impurities(textwrap.dedent(src)), src


@pytest.mark.parametrize("src", [
    "import random\nrng = random.Random(3)\nx = rng.random()\nrng.shuffle([1])",
    "from random import Random\nrng = Random('a/1')",
    "import math\nx = math.sqrt(2)",
    "def f(rng):\n    return rng.choice([1, 2])",
    "import time_utils\ntime_utils.time()",
    "from dataclasses import replace",
])
def test_checker_accepts_pure_code(src):
    assert impurities(textwrap.dedent(src)) == [], src


# ------------------------------------------------------------------------ the real code
def test_rules_files_found():
    names = {p.relative_to(ROOT).as_posix() for p in RULES_FILES}
    for must in ("sim/core/rules.py", "sim/core/match.py", "sim/core/record.py", "sim/core/hexgrid.py",
                 "games/gobble/rules.py", "games/gobble/board.py", "games/gobble/data.py",
                 "games/gobble/race.py", "games/tokami/model.py"):
        assert must in names


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_rules_code_is_pure(path):
    bad = impurities(path.read_text(encoding="utf-8"), str(path))
    assert bad == [], f"{path.relative_to(ROOT)}: " + "; ".join(bad)


def test_importing_rules_code_does_not_import_pygame():
    # Fresh interpreter: importing every core module and every game's rules/board/data (and the game
    # package with its GameSpec) must not pull pygame in.
    mods = sorted({".".join(p.relative_to(ROOT).with_suffix("").parts) for p in RULES_FILES})
    mods = [m[: -len(".__init__")] if m.endswith(".__init__") else m for m in mods]
    games = sorted({p.parent.name for p in RULES_FILES if p.parts[-3] == "games"})
    code = textwrap.dedent(f"""
        import importlib, sys
        for m in {mods!r} + ["games." + g for g in {games!r}]:
            importlib.import_module(m)
        from sim.core.registry import game_names, get_spec
        for name in game_names():
            get_spec(name).make_rules()
        bad = sorted(m for m in sys.modules if m == "pygame" or m.startswith("pygame."))
        print(",".join(bad))
    """)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"pygame imported: {out.stdout.strip()}"
