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

Every screen: :func:`targets` lists the launcher, settings, the Host and Join dialogs and, for each
registered game, its screen (every seat at this machine), set-up dialog, rules, a replay and (games that
can be hosted) the LAN lobby against a host on loopback, each with its invariants. The long mode runs
them with hostile input and prints one row per screen (events, frames, exceptions)::

    python -m sim.app.fuzz --events 100000 --all [--seed S] [--chunk N]
    python -m sim.app.fuzz --events 5000 --screen tokami:screen --screen launcher
    python -m sim.app.fuzz --list
"""
from __future__ import annotations

import os
import random
from typing import Any, Callable, Sequence

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # the table is the run's only output
import pygame  # noqa: E402

from sim.core.selfplay import check_invariants  # noqa: E402

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
               scene: Any = None, follow: bool = False, hostile: bool = False,
               into: dict[str, int] | None = None) -> dict[str, int]:
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

    ``into``: a dict the counts are kept in as the run goes (so they are known after an exception too).
    """
    target = scene if scene is not None else app.top
    if target is None:
        raise ValueError("no scene to fuzz")
    if app.top is not target:
        app.push(target)
    depth = len(app.stack) - 1  # scenes below the target
    rng = random.Random(seed)
    gen = _Gen(app, rng, keys if keys is not None else DEFAULT_KEYS, hotspots, hostile)
    stats = into if into is not None else {}
    stats.update({"frames": 0, "events": 0, "popped": 0, "repushed": 0, "followed": 0, "resizes": 0})
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


# ---------------------------------------------------------------------------------- every screen
class Target:
    """One screen the long run fuzzes. ``open(app)`` pushes it over a launcher in ``app`` and returns
    ``(scene, check)``: ``check()`` raises AssertionError on a broken invariant after a frame.
    ``hotspots(scene)``: a function of the points worth clicking (button centres), or None.
    ``follow``: keep fuzzing a new scene of the same class that replaces it (a new game). ``close()``:
    what to stop once a run of it is over (a host on loopback)."""

    def __init__(self, name: str, open: Callable[[Any], tuple[Any, Callable[[], None]]], follow: bool = False,
                 hotspots: Callable[[Any], Callable[[], Sequence[tuple[int, int]]]] | None = None):
        self.name = name
        self.open = open
        self.follow = follow
        self.hotspots = hotspots
        self.closers: list[Callable[[], None]] = []

    def close(self) -> None:
        while self.closers:
            self.closers.pop()()


def human_config(spec: Any) -> dict | None:
    """The rules' default config of ``spec`` with every seat at this machine (None for one seat)."""
    from sim.core import seats as seatlib
    rules = spec.make_rules()
    cfg = rules.default_config()
    n = seatlib.seat_count(rules, cfg)
    return None if n == 1 else {**cfg, "seats": ["human"] * n}


def _canon_match(m: Any) -> str:
    import json

    from sim.core import record
    return json.dumps(record.to_record(m), sort_keys=True, default=repr)


def match_check(app: Any, shown: list, seed: int) -> Callable[[], None]:
    """After every frame: the rules' invariants hold in the match of the scene being fuzzed
    (``shown[0]``, followed to the newest scene of its class on the stack); every 10th frame a second
    draw leaves that match as it was; every 20th frame a seat at this machine whose move it is makes
    a random legal move, so later phases of the game are fuzzed too."""
    rng = random.Random(seed)
    frames = [0]

    def check() -> None:
        frames[0] += 1
        for s in reversed(app.stack):
            if type(s) is type(shown[0]):
                shown[0] = s
                break
        m = getattr(shown[0], "match", None)
        if m is None:
            return
        check_invariants(m)
        if frames[0] % 10 == 0:
            before = (_canon_match(m), m.cursor, m.time)
            app.draw()
            assert (_canon_match(m), m.cursor, m.time) == before, "drawing changed the match"
        if frames[0] % 20 == 0 and not m.is_over() and m.cursor == len(m.log) and app.top is shown[0]:
            seats = [getattr(s, "kind", "human") for s in getattr(m, "seats", [])]
            players = [p for p in m.active_players() if 0 <= p < len(seats) and seats[p] == "human"]
            st = m.rules.at_time(m.state, m.time) if m.rules.info.realtime else m.state
            acts = m.rules.legal_actions(st, players[0]) if players else []
            if acts:
                m.submit(players[0], rng.choice(acts))
    return check


def played(spec: Any, config: dict | None, seed: int, moves: int = 60) -> Any:
    """A match of ``spec`` after up to ``moves`` random legal moves of its seats (time passing in a
    real-time game); it stops early where no seat may act (e.g. a physics outcome is due)."""
    from sim.core.match import Match
    m = Match(spec.make_rules(), config, seed)
    rules, rng = m.rules, random.Random(seed)
    for _ in range(moves):
        if m.is_over():
            break
        if rules.info.realtime:
            m.advance(0.3)
        players = [p for p in m.active_players() if p >= 0]
        st = rules.at_time(m.state, m.time) if rules.info.realtime else m.state
        acts = rules.legal_actions(st, players[0]) if players else []
        if not acts:
            if rules.info.realtime and not m.is_over():
                continue
            break
        m.submit(players[0], rng.choice(acts))
    return m


def _stack_check(app: Any, bottom: Any) -> Callable[[], None]:
    def check() -> None:
        assert app.stack and app.stack[0] is bottom, "the launcher left the bottom of the stack"
        for s in app.stack:
            scroll, top = getattr(s, "scroll", None), getattr(s, "max_scroll", None)
            if isinstance(scroll, (int, float)) and isinstance(top, (int, float)):
                assert 0 <= scroll <= max(0, top), f"{type(s).__name__} scrolled to {scroll} of {top}"
    return check


def targets(names: Sequence[str] | None = None, seed: int = 0) -> list[Target]:
    """Every screen and set-up dialog: the launcher, settings, the Host and Join dialogs, and for each
    registered game its screen (every seat at this machine), set-up dialog, rules, a replay of a short
    random game and, for games that can be hosted, the LAN lobby against a host on loopback. ``names``
    picks some by name (``Target.name``); an unknown name raises ValueError."""
    from sim.core import registry

    from .launcher import LauncherScene

    def launcher(app: Any) -> Any:
        return app.push(LauncherScene(app))

    def simple(make: Callable[[Any], Any]) -> Callable[[Any], tuple[Any, Callable[[], None]]]:
        def open_(app: Any) -> tuple[Any, Callable[[], None]]:
            base = launcher(app)
            scene = make(app)
            if app.top is not scene:
                app.push(scene)
            return scene, _stack_check(app, base)
        return open_

    def buttons(scene: Any) -> Callable[[], list[tuple[int, int]]]:
        return lambda: [b.rect.center for b in scene.buttons()] if hasattr(scene, "buttons") else []

    def open_launcher(app: Any) -> tuple[Any, Callable[[], None]]:
        base = launcher(app)
        return base, _stack_check(app, base)

    from .lan_setup import HostSetupScene, JoinScene
    from .settings_view import SettingsScene

    def host_dialog(app: Any) -> Any:
        dialog = HostSetupScene(app)
        dialog.f_port.text = "0"   # "Start hosting" takes a free port, not the usual one
        return dialog

    out = [Target("launcher", open_launcher, hotspots=buttons),
           Target("settings", simple(SettingsScene), hotspots=buttons),
           Target("host-dialog", simple(host_dialog), hotspots=buttons),
           Target("join-dialog", simple(JoinScene), hotspots=buttons)]
    for name in registry.game_names():
        spec = registry.get_spec(name)
        out.append(Target(f"{name}:screen", _game_opener(spec, seed), follow=True))
        if spec.make_setup is not None:
            out.append(Target(f"{name}:setup", _setup_opener(spec, seed), hotspots=buttons))
        out.append(Target(f"{name}:rules", simple(lambda app, spec=spec: app.show_rules(spec))))
        out.append(Target(f"{name}:replay", _replay_opener(spec, seed)))
        if spec.lan:
            t = Target(f"{name}:lobby", lambda app: (None, lambda: None), hotspots=buttons)
            t.open = _lobby_opener(spec, t)
            out.append(t)
    if names:
        known = {t.name: t for t in out}
        bad = [n for n in names if n not in known]
        if bad:
            raise ValueError(f"no screen named {bad[0]!r} (known: {', '.join(known)})")
        out = [known[n] for n in names]
    return out


def _game_opener(spec: Any, seed: int) -> Callable[[Any], tuple[Any, Callable[[], None]]]:
    def open_(app: Any) -> tuple[Any, Callable[[], None]]:
        from sim.core.match import Match

        from .launcher import LauncherScene
        app.push(LauncherScene(app))
        scene = app.start_match(spec, Match(spec.make_rules(), human_config(spec), seed))
        return scene, match_check(app, [scene], seed)
    return open_


def _setup_opener(spec: Any, seed: int) -> Callable[[Any], tuple[Any, Callable[[], None]]]:
    def open_(app: Any) -> tuple[Any, Callable[[], None]]:
        from .launcher import LauncherScene
        app.push(LauncherScene(app))
        dialog = app.push(spec.make_setup(app, spec))

        def check() -> None:   # the games the dialog starts keep their invariants
            m = app.match
            if m is not None:
                check_invariants(m)
        return dialog, check
    return open_


def _replay_opener(spec: Any, seed: int) -> Callable[[Any], tuple[Any, Callable[[], None]]]:
    def open_(app: Any) -> tuple[Any, Callable[[], None]]:
        from .launcher import LauncherScene
        from .replay import ReplayScene
        app.push(LauncherScene(app))
        match = played(spec, human_config(spec), seed)
        app.start_match(spec, match, autosave=False)
        replay = app.push(ReplayScene(app, match))
        n = len(match.log)

        def check() -> None:   # a replay moves through the record and never adds to it
            assert len(match.log) == n and 0 <= match.cursor <= n
            check_invariants(match)
        return replay, check
    return open_


def _lobby_opener(spec: Any, target: Target) -> Callable[[Any], tuple[Any, Callable[[], None]]]:
    def open_(app: Any) -> tuple[Any, Callable[[], None]]:
        from sim.net.client import Client
        from sim.net.host import Host

        from .lan_lobby import leave, lobby_scene
        from .launcher import LauncherScene
        base = app.push(LauncherScene(app))
        host = Host(spec, players=2, seed=1, tick=0.05, log=lambda text: None).start()
        client = Client("127.0.0.1", host.port, "Fuzz", log=lambda text: None).start()
        target.closers.append(lambda: leave(client, host))
        lobby = app.push(lobby_scene(app, spec, client, None, host.address))
        return lobby, _stack_check(app, base)
    return open_


def run_target(target: Target, events: int, seed: int, chunk: int = 5000,
               report: Callable[[str], None] | None = None) -> dict[str, int]:
    """Fuzz ``target`` with ``events`` hostile events in runs of ``chunk``, each in a fresh headless
    app (the screen opened anew); an exception ends its run, is counted and reported once (its
    traceback through ``report``), and the next run goes on. Returns counts: events, frames,
    exceptions."""
    import traceback

    from .app import App
    total = {"events": 0, "frames": 0, "exceptions": 0}
    seen: set[str] = set()
    done, k = 0, 0
    while done < events:
        n = min(chunk, events - done)
        stats: dict[str, int] = {}
        app = App(headless=True)
        try:
            scene, check = target.open(app)
            spots = target.hotspots(scene) if target.hotspots is not None else None
            fuzz_scene(app, n, seed=random.Random(f"{seed}/{target.name}/{k}").randrange(2 ** 32), check=check,
                       events_per_frame=6, hotspots=spots, scene=scene, follow=target.follow, hostile=True,
                       into=stats)
        except Exception:  # noqa: BLE001 - counted and reported; the run goes on
            total["exceptions"] += 1
            text = traceback.format_exc()
            last = text.strip().splitlines()[-1]
            if last not in seen and report is not None:
                seen.add(last)
                report(f"{target.name} (run {k}):\n{text}")
        finally:
            target.close()
            app.close()
        total["events"] += stats.get("events", 0)
        total["frames"] += stats.get("frames", 0)
        done += n
        k += 1
    return total


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m sim.app.fuzz --events N (--all | --screen NAME ...) [--seed S] [--list]``: hostile
    fuzz of every screen (or those named), printing a table (screen, events, frames, exceptions).
    Exit status 0 if nothing raised, 1 otherwise, 2 on bad flags (one line on stderr)."""
    import argparse
    import sys
    import tempfile

    from .cli import _positive

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> Any:  # one clear line, no usage dump
            print(f"fuzz: {message}", file=sys.stderr)
            raise SystemExit(2)

    p = Parser(prog="python -m sim.app.fuzz", description="Hostile random input on every screen.")
    p.add_argument("--events", type=_positive, default=2000, help="events per screen (default 2000)")
    p.add_argument("--all", action="store_true", help="every screen and set-up dialog")
    p.add_argument("--screen", action="append", default=[], metavar="NAME", help="this screen (repeatable)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random input (default 0)")
    p.add_argument("--chunk", type=_positive, default=5000, help="events per fresh app (default 5000)")
    p.add_argument("--list", action="store_true", help="list the screens and exit")
    args = p.parse_args(argv)
    if not (args.all or args.screen or args.list):
        p.error("name the screens: --all or --screen NAME (--list shows them)")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        chosen = targets(None if args.all or args.list else args.screen, seed=args.seed)
    except ValueError as e:
        p.error(str(e))
    if args.list:
        print("\n".join(t.name for t in chosen))
        return 0
    bad = 0
    before = os.environ.get("PLAYTABLE_HOME")
    with tempfile.TemporaryDirectory(prefix="playtable-fuzz-") as home:
        os.environ["PLAYTABLE_HOME"] = home   # settings and autosaves of the run stay out of the user's
        try:
            bad = _table(chosen, args)
        finally:
            if before is None:
                os.environ.pop("PLAYTABLE_HOME", None)
            else:
                os.environ["PLAYTABLE_HOME"] = before
    return 1 if bad else 0


def _table(chosen: Sequence[Target], args: Any) -> int:
    """Run ``chosen`` and print the table; returns the number of exceptions."""
    import contextlib
    import sys
    import time
    bad = 0
    print(f"{'screen':<26}{'events':>9}{'frames':>9}{'exceptions':>12}{'seconds':>9}", flush=True)
    for t in chosen:
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(sys.stderr):   # what screens print (a host's log) goes aside
            r = run_target(t, args.events, args.seed, args.chunk,
                           report=lambda text: print(text, file=sys.stderr, flush=True))
        bad += r["exceptions"]
        print(f"{t.name:<26}{r['events']:>9}{r['frames']:>9}{r['exceptions']:>12}"
              f"{time.perf_counter() - t0:>9.0f}", flush=True)
    return bad

if __name__ == "__main__":
    raise SystemExit(main())
