"""Records and autosaves written by the version-1 record format (files kept in ``tests/data/v1/``, made
by the code of that format: a finished game of each registered game from ``playtable selfplay``, and an
autosave of a game in progress) still load, replay to the same position and give the same outcome."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.core import record, registry

DATA = Path(__file__).parent / "data" / "v1"
EXPECTED = json.loads((DATA / "expected.json").read_text())


def test_every_registered_game_has_a_finished_record_and_an_autosave():
    names = {p.name for p in DATA.glob("*.json")} - {"expected.json"}
    assert names == {f"{g}-{kind}.json" for g in registry.game_names() for kind in ("finished", "autosave")}
    assert set(EXPECTED) == names


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_version_1_file_loads_and_replays(name):
    path = DATA / name
    raw = json.loads(path.read_text())
    assert raw["format_version"] == 1
    m = record.load(path)
    want = EXPECTED[name]
    assert (m.is_over(), m.cursor, len(m.log)) == (want["over"], want["cursor"], want["entries"])
    assert json.loads(json.dumps(m.outcome())) == want["outcome"]
    assert [[e["p"], e["a"], *([e["t"]] if "t" in e else [])] for e in m.log] == raw["actions"]
    assert m.rules.invariants(m.state) == []
    # and it saves again in today's format, which loads to the same position
    again = record.from_record(json.loads(json.dumps(record.to_record(m))))
    assert record.to_record(again) == record.to_record(m)
