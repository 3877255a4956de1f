"""The ``playtable`` command: selfplay records, replay, and one-line errors for bad input."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from games.gobble.data import TILE_NUMBERS
from sim.app import cli
from sim.core.record import from_record


def run_cli(args, capsys):
    rc = cli.main(args)
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def test_selfplay_records_replay_and_conserve_tiles(capsys, tmp_path):
    rc, out, err = run_cli(["selfplay", "gobble-solitaire", "--games", "8", "--seed", "5", "--json"], capsys)
    assert rc == 0, err
    lines = [json.loads(x) for x in out.splitlines()]
    games, summary = lines[:-1], lines[-1]
    assert len(games) == 8 and summary["summary"] is True
    for g in games:
        m = from_record(g["record"])
        assert m.is_over()
        # every state along the way accounts for all 56 tiles exactly once
        for st in m.states:
            assert m.rules.invariants(st) == []
        s = m.state
        on_table = [n for n, _ in s.board.tiles.values()]
        assert sorted(on_table + list(s.penalty)) == list(TILE_NUMBERS)
        assert m.outcome() == g["outcome"]
        # the CLI replay prints the same result
        path = tmp_path / f"g{g['seed']}.json"
        path.write_text(json.dumps(g["record"]))
        rc, out2, err2 = run_cli(["replay", str(path), "--headless"], capsys)
        assert rc == 0, err2
        assert json.loads(out2)["result"] == g["outcome"]
    assert summary["games"] == 8
    assert summary["mean"]["penalty"] == pytest.approx(sum(g["outcome"]["penalty"] for g in games) / 8, abs=1e-3)
    assert "wins" not in summary          # one seat: its figures are the score summary
    assert "baseline" in summary and summary["baseline"]["seats"] == ["bot:random"]


def test_greedy_beats_random_over_same_seeds(capsys):
    rc, out, _ = run_cli(["selfplay", "gobble-solitaire", "--games", "40", "--seed", "100", "--json"], capsys)
    s = json.loads(out.splitlines()[-1])
    assert s["mean"]["penalty"] < s["baseline"]["mean"]["penalty"]
    assert s["mean"]["win"] > s["baseline"]["mean"]["win"]


def test_selfplay_is_deterministic(capsys):
    _, a, _ = run_cli(["selfplay", "gobble-solitaire", "--games", "2", "--seed", "9", "--json", "--baseline", "none"], capsys)
    _, b, _ = run_cli(["selfplay", "gobble-solitaire", "--games", "2", "--seed", "9", "--json", "--baseline", "none"], capsys)
    strip = lambda text: [json.loads(x).get("record") for x in text.splitlines()[:-1]]
    assert strip(a) == strip(b)


@pytest.mark.parametrize("args,fragment", [
    (["play", "no-such-game"], "unknown game"),
    (["selfplay", "chess", "--games", "1"], "unknown game"),
    (["selfplay", "gobble-solitaire", "--games", "zero"], "--games"),
    (["selfplay", "gobble-solitaire", "--games", "1", "--bot", "nobody"], "unknown bot"),
    (["--frames", "-3"], "--frames"),
    (["--no-such-flag"], "unrecognized"),
])
def test_bad_input_is_one_line_exit_2(args, fragment, capsys):
    rc, out, err = run_cli(args, capsys)
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0] and "Traceback" not in err


def _a_record(capsys):
    _, out, _ = run_cli(["selfplay", "gobble-solitaire", "--games", "1", "--seed", "2", "--json"], capsys)
    return json.loads(out.splitlines()[0])["record"]


def test_replay_rejects_bad_files(capsys, tmp_path):
    rec = _a_record(capsys)
    cases = {}
    text = json.dumps(rec)
    cases["truncated"] = text[: len(text) // 2]
    tampered = json.loads(text)
    for row in tampered["actions"]:
        if row[0] == 0 and row[1]["t"] == "place":
            row[1]["rot"] = (row[1]["rot"] + 1) % 6 if row[1]["rot"] is not None else 0
            row[1]["q"] += 5
            break
    cases["tampered"] = json.dumps(tampered)
    foreign = dict(rec, game="tumbleweed-9000")
    cases["foreign"] = json.dumps(foreign)
    cases["not_a_record"] = json.dumps({"hello": 1})
    for name, body in cases.items():
        p = tmp_path / f"{name}.json"
        p.write_text(body)
        rc, out, err = run_cli(["replay", str(p), "--headless"], capsys)
        assert rc == 2, name
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, (name, err)
        assert out == ""


def test_console_script_reports_errors_without_traceback():
    proc = subprocess.run([sys.executable, "-m", "sim.app.cli", "play", "nope"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("playtable: error: unknown game")
    assert "Traceback" not in proc.stderr


def test_bad_screenshot_paths(capsys, tmp_path):
    for path, fragment in ((str(tmp_path), "is a folder"), (str(tmp_path / "no" / "x.png"), "does not exist")):
        rc, out, err = run_cli(["--headless", "--frames", "1", "--screenshot", path], capsys)
        assert rc == 2 and fragment in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "no").exists()


def unblock_later(fifo, after=5.0):
    """Every ``after`` s, open and close ``fifo`` for writing, so a reader wrongly blocked on it gets an
    empty file and the test fails instead of hanging. ``.cancel()`` it when done."""
    import os
    import threading

    class Guard(threading.Thread):
        def __init__(self):
            super().__init__(daemon=True)
            self.done = threading.Event()

        def run(self):
            while not self.done.wait(after):
                try:
                    os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
                except OSError:
                    pass

        def cancel(self):
            self.done.set()
    g = Guard()
    g.start()
    return g


def _one_line_exit_2(args, capsys, fragment):
    rc, out, err = run_cli(args, capsys)
    assert rc == 2, (args, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0] and "Traceback" not in err, (args, err)
    return lines[0]


def test_replay_checks_the_kind_and_size_of_its_file(capsys, tmp_path):
    import os
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")                    # endless: must not be read
    _one_line_exit_2(["replay", str(zero), "--headless"], capsys, "not a regular file")
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)                                 # no writer: reading would wait for ever
    guard = unblock_later(fifo)
    _one_line_exit_2(["replay", str(fifo), "--headless"], capsys, "not a regular file")
    guard.cancel()
    _one_line_exit_2(["replay", str(tmp_path), "--headless"], capsys, "not a regular file")
    big = tmp_path / "big.json"
    with open(big, "wb") as f:                      # sparse: huge on paper, nothing to read first
        f.truncate(100 * 1024 * 1024)
    _one_line_exit_2(["replay", str(big), "--headless"], capsys, "too big")


def test_replay_refuses_too_many_actions_and_absurd_times(capsys, tmp_path):
    from sim.core.record import MAX_ACTIONS
    rec = _a_record(capsys)
    many = dict(rec, actions=[[0, {"t": "x"}]] * (MAX_ACTIONS + 1), cursor=0)
    p = tmp_path / "many.json"
    p.write_text(json.dumps(many))
    _one_line_exit_2(["replay", str(p), "--headless"], capsys, "limit")
    _, out, _ = run_cli(["selfplay", "gobble", "--players", "bot:easy,bot:easy", "--games", "1", "--seed", "1",
                         "--json"], capsys)
    race = json.loads(out.splitlines()[0])["record"]
    assert len(race["actions"][0]) == 3
    for t in (10 ** 400, -1, 1e300):
        bad = json.loads(json.dumps(race))
        bad["actions"][0][2] = t
        p = tmp_path / "race.json"
        p.write_text(json.dumps(bad))
        _one_line_exit_2(["replay", str(p), "--headless"], capsys, "time")


@pytest.mark.parametrize("port", ["70000", "-1", "65536"])
def test_host_port_out_of_range_is_one_line(port, capsys):
    _one_line_exit_2(["host", "gobble", "--port", port], capsys, "port")


def test_host_refuses_a_bad_port_itself():
    from sim.core.registry import get_spec
    from sim.net.host import Host
    for port in (70000, -1):
        with pytest.raises(ValueError, match="port"):
            Host(get_spec("gobble"), port=port)


def test_a_data_folder_that_is_a_file_or_cannot_be_made_is_one_line(capsys, tmp_path, monkeypatch):
    afile = tmp_path / "home"
    afile.write_text("not a folder")
    monkeypatch.setenv("PLAYTABLE_HOME", str(afile))
    _one_line_exit_2(["--headless", "--frames", "1"], capsys, "is a file")
    monkeypatch.setenv("PLAYTABLE_HOME", str(afile / "inside"))
    _one_line_exit_2(["--headless", "--frames", "1"], capsys, "data folder")
