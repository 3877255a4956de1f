"""The bounded LAN soak script (tools/soak_lan.py) runs briefly and prints its figures."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_soak_short_run_prints_figures():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "soak_lan.py"), "--seconds", "3", "--json"],
                         capture_output=True, text=True, timeout=90, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "p50" in out.stdout and "p95" in out.stdout and "host responsive: yes" in out.stdout
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("{"))
    fig = json.loads(line)
    lat = fig["latency_ms"]
    assert lat["n"] > 0 and 0 <= lat["p50"] <= lat["p95"] <= lat["max"]
    assert fig["accepted"] > 0 and fig["rejected"] >= 0 and fig["rate_limited"] >= 0
    assert fig["probe_ms"]["n"] > 0 and fig["probe_ms"]["failures"] == 0
    assert fig["final_views_match"] == fig["races_finished"]
