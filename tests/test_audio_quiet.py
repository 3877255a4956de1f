"""Without a usable sound device the app stays quiet: one line on stderr says that sound is off, and
nothing the system's sound libraries print while probing for a device gets through."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROBE = "from sim.app.audio import Audio\na = Audio(None)\nprint('available' if a.available else 'silent')\n"


@pytest.mark.parametrize("driver", ["alsa", "no-such-driver"])
def test_a_machine_without_sound_gets_one_line_saying_sound_is_off(driver, tmp_path):
    env = dict(os.environ, SDL_AUDIODRIVER=driver, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1",
               PLAYTABLE_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    # no sound card for ALSA to find: an empty configuration that names none
    env["ALSA_CONFIG_PATH"] = str(tmp_path / "no-cards.conf")
    (tmp_path / "no-cards.conf").write_text("")
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    if out.stdout.strip() == "available":      # this machine has a working device after all
        assert lines == []
    else:
        assert len(lines) == 1 and lines[0].startswith("playtable: sound is off ("), out.stderr


def test_quiet_stderr_restores_the_descriptor(capfd):
    from sim.app.audio import quiet_stderr
    with quiet_stderr():
        os.write(2, b"swallowed\n")
    os.write(2, b"shown\n")
    err = capfd.readouterr().err
    assert "shown" in err and "swallowed" not in err
