"""Sound effects synthesised with numpy at start-up, played through ``pygame.mixer``.

No sound files: each effect is a short tone, chirp or arpeggio built from sine/triangle waves with an
attack/decay envelope. If the mixer cannot start (no audio device, dummy driver refusing, unsupported
sample format), :class:`Audio` is a silent no-op: :meth:`Audio.play` never raises, and one line on
stderr says that sound is off. The mixer is started with the process's stderr (file descriptor 2)
pointed at the null device, so what the system's sound libraries print while probing for a device (ALSA
lists every card it cannot find) never reaches the terminal.
"""
from __future__ import annotations

import contextlib
import os
import sys
from typing import Any, Iterator

import numpy as np

#: Sample rate asked of the mixer, in Hz.
RATE = 44100

# (start Hz, end Hz, duration s, wave, volume 0..1) segments, played one after another.
_Seg = tuple[float, float, float, str, float]

_RECIPES: dict[str, list[_Seg]] = {
    "click": [(1400, 1200, 0.035, "sine", 0.35)],
    "place": [(520, 330, 0.09, "tri", 0.55)],
    "rotate": [(900, 1000, 0.045, "sine", 0.3)],
    "gobble": [(420, 880, 0.18, "tri", 0.5)],
    "double": [(420, 880, 0.14, "tri", 0.5), (560, 1180, 0.16, "tri", 0.5)],
    "penalty": [(330, 160, 0.28, "tri", 0.5)],
    "reject": [(150, 140, 0.12, "square", 0.22)],
    "win": [(523.25, 523.25, 0.11, "tri", 0.5), (659.25, 659.25, 0.11, "tri", 0.5),
            (783.99, 783.99, 0.11, "tri", 0.5), (1046.5, 1046.5, 0.3, "tri", 0.5)],
    "lose": [(392.0, 392.0, 0.16, "tri", 0.45), (311.13, 311.13, 0.16, "tri", 0.45),
             (261.63, 240.0, 0.36, "tri", 0.45)],
    "out": [(700, 520, 0.07, "sine", 0.4), (520, 390, 0.1, "sine", 0.4)],
    "undo": [(700, 500, 0.06, "sine", 0.3)],
    "hint": [(880, 880, 0.06, "sine", 0.3), (1320, 1320, 0.08, "sine", 0.3)],
    "start": [(392.0, 392.0, 0.08, "tri", 0.4), (587.33, 587.33, 0.14, "tri", 0.4)],
    # a wooden knock: a short burst of inharmonic partials of a small bar (see "wood" in synth)
    "knock": [(720, 690, 0.07, "wood", 0.8)],
}

#: Names :meth:`Audio.play` knows.
SOUND_NAMES: tuple[str, ...] = tuple(_RECIPES)


def synth(name: str, rate: int = RATE) -> np.ndarray:
    """Mono float32 samples in [-1, 1] of sound ``name`` at ``rate`` Hz. Raises KeyError if unknown."""
    parts = []
    for f0, f1, dur, wave, vol in _RECIPES[name]:
        n = max(1, int(rate * dur))
        t = np.arange(n, dtype=np.float64) / rate
        freq = np.linspace(f0, f1, n)
        phase = 2.0 * np.pi * np.cumsum(freq) / rate
        if wave == "sine":
            w = np.sin(phase)
        elif wave == "wood":
            # a free bar's first partials (ratios 1 : 2.76 : 5.40) dying away fast, the higher ones
            # faster, over a tick of seeded noise for the strike (the same samples every time)
            noise = np.random.default_rng(7).uniform(-1.0, 1.0, n) * np.exp(-t / 0.004)
            w = (np.sin(phase) * np.exp(-t / (dur * 0.35)) + 0.5 * np.sin(2.76 * phase) * np.exp(-t / (dur * 0.18))
                 + 0.25 * np.sin(5.40 * phase) * np.exp(-t / (dur * 0.1)) + 0.35 * noise) / 1.6
        elif wave == "tri":
            w = 2.0 / np.pi * np.arcsin(np.sin(phase))
        else:  # soft square
            w = np.tanh(4.0 * np.sin(phase))
        attack = np.minimum(1.0, t / 0.004)
        decay = np.exp(-t * (5.0 / dur))
        parts.append((w * attack * decay * vol).astype(np.float32))
    return np.concatenate(parts)


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """While inside, file descriptor 2 goes to the null device (C libraries write there directly,
    past ``sys.stderr``); restored on the way out. Where the descriptor cannot be moved it is left
    alone."""
    try:
        sys.stderr.flush()
    except Exception:  # noqa: BLE001 - a closed or odd stderr: nothing to flush
        pass
    try:
        saved = os.dup(2)
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        yield
        return
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


class Audio:
    """Named sound effects. ``app.settings["sound"]`` False mutes them; :attr:`available` is False when
    the mixer could not start (then everything is a no-op)."""

    def __init__(self, app: Any = None):
        self.app = app
        self.sounds: dict[str, Any] = {}
        self.available = False
        self.last_played: str | None = None  # for tests: the last name play() sent to the mixer
        self.last_volume: float | None = None  # for tests: the volume of the last knock()
        try:
            import pygame
            if not pygame.mixer.get_init():
                with quiet_stderr():
                    pygame.mixer.init(RATE, -16, 2, 512)
            init = pygame.mixer.get_init()
            if not init:
                print("playtable: sound is off (the mixer did not start)", file=sys.stderr)
                return
            freq, fmt, channels = init
            if fmt not in (-16, 16):
                pygame.mixer.quit()
                with quiet_stderr():
                    pygame.mixer.init(RATE, -16, 2, 512)
                freq, fmt, channels = pygame.mixer.get_init()
                if fmt not in (-16, 16):
                    print("playtable: sound is off (no 16-bit sample format)", file=sys.stderr)
                    return
            for name in _RECIPES:
                mono = synth(name, freq)
                pcm = np.clip(mono * 32767.0, -32768, 32767).astype(np.int16)
                if fmt == 16:
                    pcm = (pcm.astype(np.int32) + 32768).astype(np.uint16)
                data = np.repeat(pcm[:, None], channels, axis=1) if channels > 1 else pcm
                self.sounds[name] = pygame.mixer.Sound(buffer=np.ascontiguousarray(data).tobytes())
            self.available = True
        except Exception as e:  # no audio device or driver: stay silent
            self.sounds = {}
            self.available = False
            reason = " ".join(str(e).split()) or e.__class__.__name__
            print(f"playtable: sound is off ({reason})", file=sys.stderr)

    @property
    def enabled(self) -> bool:
        """Whether sounds are audible now (mixer up and sound on in the settings)."""
        if not self.available:
            return False
        settings = getattr(self.app, "settings", None) or {}
        return bool(settings.get("sound", True))

    def play(self, name: str) -> None:
        """Play sound ``name`` (see :data:`SOUND_NAMES`); unknown names, muted sound and a missing mixer
        are silent no-ops. Never raises."""
        if not self.enabled:
            return
        snd = self.sounds.get(name)
        if snd is None:
            return
        try:
            snd.play()
            self.last_played = name
        except Exception:
            pass

    def knock(self, strength: float) -> None:
        """Play the wooden knock at volume ``strength`` (0..1, clamped; a stick striking wood: the screen
        scales it with the impact). Silent like :meth:`play` when muted or without a mixer; never
        raises. :attr:`last_volume` keeps the volume last sent (for tests)."""
        if not self.enabled:
            return
        snd = self.sounds.get("knock")
        try:
            v = min(1.0, max(0.0, float(strength)))
        except (TypeError, ValueError):
            return
        if snd is None or v <= 0.0:
            return
        try:
            channel = snd.play()
            if channel is not None:
                channel.set_volume(v)
            self.last_played = "knock"
            self.last_volume = v
        except Exception:
            pass

    def close(self) -> None:
        """Stop the mixer (if this object started it, or at all: the app owns audio)."""
        try:
            import pygame
            if pygame.mixer.get_init():
                pygame.mixer.quit()
        except Exception:
            pass
        self.available = False
