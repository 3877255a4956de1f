"""Random-input fuzzing of any scene through the real loop (:meth:`App.step`).

``fuzz_scene(app, n_events, seed, check)`` feeds random mouse motion, presses and releases (buttons
1-3, often as clicks or drags at one spot), wheel notches and trackpad fractions (``precise_y``), and
key presses from :data:`DEFAULT_KEYS` (rotate q/e, hint h, Ctrl+Z / Ctrl+Y, space, Enter, arrows, Tab,
digits) into the scene on top of the stack, with frame times between 0 and 0.3 s, and calls ``check()``
after every frame. Everything is deterministic from ``seed``; exceptions propagate.

``hostile=True`` mixes in what a careless system or player sends (a tenth of the events): wheel deltas
of both signs from fractions to millions (and NaN), text input with NUL, lone surrogates, control
characters, emoji and right-to-left text, floods of one key held down (key repeat without KEYUP), focus
lost and regained, the pointer leaving and entering, mouse events in the letterbox and off the window,
and window resizes from 1x1 px to 7680x4320 px (the window is given its size back at the end). A window
larger than 4K (3840x2160 px) is kept for 1..4 frames, then resized to an ordinary size again, as a
player who maximises and restores would: every frame at 8K costs a 33-megapixel scale.

Keeping the scene under test on top: Esc and the F-keys are not sent by default (they leave the scene,
open rules or toggle the window). If the scene itself pushes something (a dialog, the rules), that is
fuzzed for the frame it appeared in and then popped; if the scene leaves the stack by its own doing
(e.g. a "Menu" or "New game" button), whatever replaced it is popped back to the depth the scene had
and the scene is pushed again. Both are counted in the returned stats.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Sequence

import pygame

#: Keys sent by default, with the modifier they are sent with.
DEFAULT_KEYS: tuple[tuple[int, int], ...] = (
    (pygame.K_q, 0), (pygame.K_e, 0), (pygame.K_h, 0),
    (pygame.K_z, pygame.KMOD_LCTRL), (pygame.K_y, pygame.KMOD_LCTRL), (pygame.K_z, 0),
    (pygame.K_SPACE, 0), (pygame.K_RETURN, 0),
    (pygame.K_LEFT, 0), (pygame.K_RIGHT, 0), (pygame.K_UP, 0), (pygame.K_DOWN, 0),
    (pygame.K_TAB, 0), (pygame.K_1, 0), (pygame.K_2, 0), (pygame.K_r, 0), (pygame.K_n, 0),
)

_FRAME_TIMES = (1 / 60, 1 / 60, 1 / 60, 1 / 30, 0.0, 0.1, 0.3)

#: Hostile wheel deltas (precise_y), text and window sizes (px).
HOSTILE_WHEEL = (1e6, -1e6, 3000.7, -3000.7, 0.01, -0.01, 1e308, -1e308, float("nan"), float("inf"))
HOSTILE_TEXT = ("\x00", "a\x00b", "\ud800", "x\udfff", "\x1b[2J", "\n\t\r", "😀", "👩‍👩‍👧", "שלום",
                "مرحبا", "\u202eabc", "\u200f", "e\u0301", "\ufeff", "A" * 200)
HOSTILE_SIZES = ((1, 1), (2, 1), (1, 600), (320, 200), (1280, 800), (7680, 4320), (3000, 500),
                 (1000, 1000))
#: Window area (px) above which a hostile size is kept only for 1..4 frames.
HUGE_AREA = 3840 * 2160


def _key_unicode(key: int, mod: int) -> str:
    if mod & pygame.KMOD_CTRL:
        return ""
    name = pygame.key.name(key)
    return name if len(name) == 1 else (" " if key == pygame.K_SPACE else "")


class _Gen:
    def __init__(self, app: Any, rng: random.Random, keys: Sequence[tuple[int, int]],
                 hotspots: Callable[[], Sequence[tuple[int, int]]] | None, hostile: bool = False):
        self.app = app
        self.hostile = hostile
        self.resizes = 0
        self.huge_frames: int | None = None  # frames left at a huge window size
        self.rng = rng
        self.keys = list(keys)
        self.hotspots = hotspots
        self.pos = (640, 400)
        self.held: list[int] = []
        self.keys_down: list[tuple[int, int]] = []

    def _point(self) -> tuple[int, int]:
        rng = self.rng
        w, h = self.app.LOGICAL_SIZE
        r = rng.random()
        if r < 0.35:  # stay near the last point (clicks and small drags)
            x = self.pos[0] + rng.randint(-12, 12)
            y = self.pos[1] + rng.randint(-12, 12)
        elif r < 0.6 and self.hotspots is not None:
            spots = list(self.hotspots())
            if spots:
                x, y = rng.choice(spots)
                x += rng.randint(-6, 6)
                y += rng.randint(-6, 6)
            else:
                x, y = rng.randrange(w), rng.randrange(h)
        else:
            x, y = rng.randrange(w), rng.randrange(h)
        return (min(max(int(x), 0), w - 1), min(max(int(y), 0), h - 1))

    def _win(self, p: tuple[int, int]) -> tuple[int, int]:
        return self.app.logical_to_window(p)

    def hostile_events(self) -> list[Any]:
        """One burst of hostile input (see the module docstring); may resize the window now."""
        rng, E = self.rng, pygame.event.Event
        r = rng.random()
        if r < 0.2:
            py = rng.choice(HOSTILE_WHEEL)
            return [E(pygame.MOUSEWHEEL, x=0, y=int(py) if abs(py) < 1e9 else 0, precise_x=0.0, precise_y=py,
                      flipped=rng.random() < 0.2, touch=False, which=0)]
        if r < 0.4:
            return [E(pygame.TEXTINPUT, text=rng.choice(HOSTILE_TEXT))]
        if r < 0.5:
            key, mod = rng.choice(self.keys)
            return [E(pygame.KEYDOWN, key=key, mod=mod, unicode=_key_unicode(key, mod), scancode=0)
                    for _ in range(rng.randint(10, 60))]
        if r < 0.6:
            kinds = [getattr(pygame, n) for n in ("WINDOWFOCUSLOST", "WINDOWFOCUSGAINED", "WINDOWLEAVE",
                                                  "WINDOWENTER", "WINDOWMINIMIZED", "WINDOWRESTORED",
                                                  "ACTIVEEVENT") if hasattr(pygame, n)]
            return [E(rng.choice(kinds), gain=rng.randint(0, 1), state=rng.randint(1, 6))]
        if r < 0.97:   # the letterbox and beyond the window's edge
            ww, wh = self.app.window_size()
            vp = self.app.viewport()
            x = rng.choice((-5000, -1, 0, vp.x - 1, vp.right, ww - 1, ww, 10 ** 6, rng.randrange(max(1, ww))))
            y = rng.choice((-5000, -1, 0, vp.y - 1, vp.bottom, wh - 1, wh, 10 ** 6, rng.randrange(max(1, wh))))
            b = rng.choice((1, 2, 3))
            kind = rng.choice((pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP))
            if kind == pygame.MOUSEMOTION:
                return [E(kind, pos=(x, y), rel=(rng.randint(-10 ** 5, 10 ** 5), 0), buttons=(1, 0, 0),
                          touch=False)]
            return [E(kind, pos=(x, y), button=b, touch=False)]
        return [self.resize(rng.choice(HOSTILE_SIZES))]

    def resize(self, size: tuple[int, int]) -> Any:
        """Resize the window to ``size`` (px) now; returns the event a system sends for it."""
        self.app.set_window_size(size)
        self.resizes += 1
        self.huge_frames = self.rng.randint(1, 4) if size[0] * size[1] > HUGE_AREA else None
        return pygame.event.Event(getattr(pygame, "WINDOWRESIZED", pygame.VIDEORESIZE), x=size[0], y=size[1],
                                  w=size[0], h=size[1], size=size)

    def frame_start(self) -> list[Any]:
        """Events that open a frame: the resize back from a huge window once its frames are up."""
        if self.huge_frames is None:
            return []
        self.huge_frames -= 1
        if self.huge_frames > 0:
            return []
        return [self.resize(self.rng.choice([s for s in HOSTILE_SIZES if s[0] * s[1] <= HUGE_AREA]))]

    def event(self) -> Any:
        rng = self.rng
        r = rng.random()
        if r < 0.38:
            new = self._point()
            wp, wo = self._win(new), self._win(self.pos)
            self.pos = new
            buttons = tuple(int(b in self.held) for b in (1, 2, 3))
            return pygame.event.Event(pygame.MOUSEMOTION, pos=wp, rel=(wp[0] - wo[0], wp[1] - wo[1]),
                                      buttons=buttons, touch=False)
        if r < 0.62:
            if self.held and rng.random() < 0.6:
                b = self.held.pop(rng.randrange(len(self.held)))
                return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=self._win(self.pos), button=b,
                                          touch=False)
            b = rng.choice((1, 1, 1, 1, 2, 3))
            if rng.random() < 0.5:
                self.pos = self._point()
            if b not in self.held:
                self.held.append(b)
            return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=self._win(self.pos), button=b,
                                      touch=False)
        if r < 0.74:
            if rng.random() < 0.6:
                py = float(rng.choice((-1, 1)))
            else:
                py = round(rng.uniform(-1.5, 1.5), 3)
            return pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=int(py), precise_x=0.0, precise_y=py,
                                      flipped=False, touch=False, which=0)
        if self.keys_down and rng.random() < 0.4:
            key, mod = self.keys_down.pop(rng.randrange(len(self.keys_down)))
            return pygame.event.Event(pygame.KEYUP, key=key, mod=mod, unicode="", scancode=0)
        key, mod = rng.choice(self.keys)
        self.keys_down.append((key, mod))
        return pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=_key_unicode(key, mod),
                                  scancode=0)


def fuzz_scene(app: Any, n_events: int, seed: int, check: Callable[[], Any] | None = None,
               events_per_frame: int = 4, keys: Sequence[tuple[int, int]] | None = None,
               hotspots: Callable[[], Sequence[tuple[int, int]]] | None = None,
               scene: Any = None, follow: bool = False, hostile: bool = False) -> dict[str, int]:
    """Fuzz ``scene`` (default: the app's top scene) with ``n_events`` random events.

    Events are sent in frames of 0..``events_per_frame`` events through ``app.step`` with a random
    frame time (0..0.3 s); ``check()`` runs after every frame and should raise AssertionError on a
    broken invariant. ``keys`` replaces :data:`DEFAULT_KEYS` ((key, mod) pairs); ``hotspots()`` may
    return logical points (px) worth clicking (e.g. button centres), aimed at a quarter of the time.
    Mouse positions are generated in logical px and converted to window px with
    ``app.logical_to_window`` so the app's mapping gives them back. Returns counts: frames, events,
    popped (dialogs the scene opened and the harness closed), repushed. Raises ValueError if there is
    no scene to fuzz; any exception from the scene propagates.

    ``follow``: when the scene leaves and a scene of the same class takes its place at the same depth
    (e.g. "New game"), fuzz that one from then on instead of pushing the old one back ("followed"
    in the stats), so a long run keeps playing live games rather than a finished one.

    ``hostile``: a tenth of the events are hostile (module docstring); "resizes" in the stats counts the
    window resizes, and the window gets its size back at the end.
    """
    target = scene if scene is not None else app.top
    if target is None:
        raise ValueError("no scene to fuzz")
    if app.top is not target:
        app.push(target)
    depth = len(app.stack) - 1  # scenes below the target
    rng = random.Random(seed)
    gen = _Gen(app, rng, keys if keys is not None else DEFAULT_KEYS, hotspots, hostile)
    stats = {"frames": 0, "events": 0, "popped": 0, "repushed": 0, "followed": 0, "resizes": 0}
    size = app.window_size()
    try:
        _fuzz_frames(app, n_events, rng, gen, check, events_per_frame, target, depth, follow, stats)
    finally:
        stats["resizes"] = gen.resizes
        if gen.resizes:
            app.set_window_size(size)
    return stats


def _fuzz_frames(app: Any, n_events: int, rng: random.Random, gen: _Gen, check: Any, events_per_frame: int,
                 target: Any, depth: int, follow: bool, stats: dict[str, int]) -> None:
    sent = 0
    while sent < n_events:
        k = min(n_events - sent, rng.randint(0, max(0, events_per_frame)))
        events = gen.frame_start()
        for _ in range(k):
            if gen.hostile and rng.random() < 0.1:
                events.extend(gen.hostile_events())
            else:
                events.append(gen.event())
        sent += k
        app.running = True  # a Quit button pressed by chance must not end the run
        app.step(events, rng.choice(_FRAME_TIMES))
        stats["frames"] += 1
        stats["events"] += k
        if check is not None:
            check()
        if follow and target not in app.stack and len(app.stack) > depth \
                and type(app.stack[depth]) is type(target):
            target = app.stack[depth]
            stats["followed"] += 1
        if target in app.stack:
            while app.top is not target:
                app.pop()
                stats["popped"] += 1
        else:
            while len(app.stack) > depth:
                app.pop()
            app.push(target)
            stats["repushed"] += 1
