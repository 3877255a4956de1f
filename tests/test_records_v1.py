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


#: Version-1 files whose human seats were named: the set-up dialog and the LAN host kept the names in
#: ``meta["names"]`` (``tests/data/v1-named/``, written by that code).
NAMED = {
    "streetcar-named-autosave.json": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "hard"},
                                      {"kind": "human", "name": "Bea"}],
    "tumbleweed-lan-autosave.json": [{"kind": "human", "name": "Cy"}, {"kind": "human", "name": "Dot"}],
}


@pytest.mark.parametrize("name", sorted(NAMED))
def test_version_1_seats_and_names_move_to_the_match(name):
    path = DATA.parent / "v1-named" / name
    raw = json.loads(path.read_text())
    assert raw["format_version"] == 1 and "seats" in raw["config"] and "names" in raw["meta"]
    m = record.load(path)
    assert [s.to_json() for s in m.seats] == NAMED[name]
    assert "seats" not in m.config and "names" not in m.meta
    assert (m.cursor, len(m.log)) == (raw["cursor"], len(raw["actions"]))
    rec = record.to_record(m)
    assert rec["format_version"] == 2 and rec["seats"] == NAMED[name] and "seats" not in rec["config"]
    assert record.to_record(record.from_record(json.loads(json.dumps(rec)))) == rec


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_version_1_files_name_their_seats_in_the_record(name):
    raw = json.loads((DATA / name).read_text())
    m = record.load(DATA / name)
    listed = raw["config"].get("seats")
    want = list(listed) if listed else ["human"] * len(m.seats)
    assert [s.text() for s in m.seats] == want
