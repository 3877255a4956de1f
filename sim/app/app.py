"""The application: the only owner of the pygame loop (specs/DESIGN.md "App").

One frame = events -> fixed-step updates -> draw -> present:

* **Events.** Window mouse coordinates are mapped to the logical 1280x800 px surface here and only here
  (:meth:`App.window_to_logical`): ``event.pos`` / ``event.rel`` of mouse events are replaced before any
  scene sees them; presses, releases and motion in the letterbox are dropped (except a release that ends
  a press the scenes saw, which is clamped to the picture's edge so no drag is left hanging);
  MOUSEBUTTONDOWN/UP with ``button >= 4`` (the wheel's duplicate of MOUSEWHEEL) are dropped. MOUSEWHEEL
  is turned into whole steps here (:meth:`App.map_wheel`): trackpad fractions accumulate, ``flipped`` is
  applied, non-finite deltas are dropped and one event carries at most ``MAX_WHEEL_STEPS``, so a scene
  sees ``y == precise_y`` = a small nonzero whole number and ``flipped`` False. Events go to
  the top scene only (scenes below a dialog never see them). F11 (fullscreen) and F12 (screenshot) are
  handled by the app before scenes; Esc (back), F1 (rules) and M (mute) after the top scene declined them.
* **Update.** ``update(STEP)`` of every visible scene (the top non-overlay scene and the overlays above
  it, bottom first) runs once per whole ``STEP`` (1/60 s) in the accumulated frame time; a frame's time
  is clamped to ``MAX_FRAME`` (0.25 s) so a slow frame never spirals. A scene that must pause under a
  dialog checks ``app.top is self``.
* **Draw.** The top non-overlay scene, then the overlays above it, onto ``App.surface`` (logical size),
  which is scaled and letterboxed into the resizable window; when the window is the logical size,
  ``App.surface`` is the window itself (nothing is copied or scaled).
* **Redraw only on a change.** A frame is drawn when an event arrived, the stack or the window changed,
  a toast shows, or a visible scene's ``wants_frame()`` says it animates (an animation, a clock, a bot
  to move, physics awake), and once more after the last frame a scene wanted. Otherwise the picture
  stays as it is, and :meth:`App.run` waits for the next event (at most ``IDLE_WAKE`` s, then the time
  waited is spent in updates as usual, so clocks keep time and polled things advance) instead of
  spinning.

Tests drive the real loop with ``App(headless=True)`` and :meth:`App.step` (given events, fake ``dt``).
"""
from __future__ import annotations

import dataclasses
import math
import os
import sys
import time as _walltime
import traceback
from pathlib import Path
from typing import Any, Iterable

import pygame

from sim.core import record as _record
from sim.core.storage import autosave_path, data_dir, load_json_or, write_json_atomic

from . import theme as _theme
from .audio import Audio
from .scene import Scene
from .widgets import clean_text

#: Settings with their defaults (stored in ``data_dir()/settings.json``).
DEFAULT_SETTINGS: dict[str, Any] = {
    "palette": _theme.DEFAULT_PALETTE,
    "sound": True,
    "fullscreen": False,
    "symbols": False,
    "lan_name": "",  # the name last used to host or join a LAN race
}

_DEFAULT_SHOT = object()  # F12: save to the default screenshot folder
_MOUSE_POS_EVENTS = (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)


def settings_path() -> Path:
    """The settings file, ``data_dir()/settings.json``."""
    return data_dir() / "settings.json"


def load_settings() -> dict[str, Any]:
    """Settings from disk merged over :data:`DEFAULT_SETTINGS`; unknown keys and values of the wrong
    type are ignored, a missing or unreadable file gives the defaults; text loses what the renderer
    refuses (NUL, control characters, lone surrogates: :func:`clean_text`). Never raises for bad
    content."""
    raw = load_json_or(settings_path(), {})
    out = dict(DEFAULT_SETTINGS)
    if isinstance(raw, dict):
        for key, default in DEFAULT_SETTINGS.items():
            val = raw.get(key)
            if isinstance(default, bool):
                if isinstance(val, bool):
                    out[key] = val
            elif key == "palette":
                if isinstance(val, str) and val in _theme.PALETTES:
                    out[key] = val
            elif isinstance(val, str) and len(val) <= 32:
                out[key] = clean_text(val)
    return out


def finished_path(game: str) -> Path:
    """Where a finished match's record is kept: ``data_dir()/games/<game>-<date-time>.json``."""
    stamp = _walltime.strftime("%Y%m%d-%H%M%S")
    base = data_dir() / "games" / f"{game}-{stamp}"
    p, k = base.with_suffix(".json"), 1
    while p.exists():
        k += 1
        p = base.parent / f"{base.name}-{k}.json"
    return p


class App:
    """The pygame-ce application: window, scene stack, services, loop.

    ``headless=True`` forces the dummy video and audio drivers (set before the display starts) and a
    1280x800 px window, ignores the stored fullscreen setting, and makes :meth:`run` use a fake clock
    (every frame lasts ``STEP`` s, no sleeping) so headless runs are deterministic.

    Services for scenes: :meth:`push`, :meth:`pop`, :meth:`replace`, :attr:`theme`, :meth:`font`,
    :attr:`audio`, :attr:`settings`, :meth:`show_rules`, :meth:`to_launcher`, :attr:`time`,
    :meth:`start_match`. Raises ``pygame.error`` if the display cannot be opened (e.g. no display
    server and ``headless=False``). ``window_size`` (px) overrides the initial windowed size.
    """

    LOGICAL_SIZE = (1280, 800)
    #: Fixed update step in s.
    STEP = 1.0 / 60.0
    #: Longest frame time in s fed to the accumulator (a slower frame is clamped).
    MAX_FRAME = 0.25
    #: Most whole wheel steps (notches) one MOUSEWHEEL event may carry; a larger delta (a trackpad
    #: flick, a bogus value of thousands) is cut to this, the excess is not carried over.
    MAX_WHEEL_STEPS = 5
    CAPTION = "Playtable"
    #: Longest wait for an event, in s, while nothing wants a frame.
    IDLE_WAKE = 0.1

    def __init__(self, headless: bool = False, window_size: tuple[int, int] | None = None):
        self.headless = bool(headless)
        if self.headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            os.environ["SDL_AUDIODRIVER"] = "dummy"
        pygame.display.init()
        pygame.font.init()
        self.settings: dict[str, Any] = load_settings()
        self.stack: list[Scene] = []
        self.running = True
        #: Seconds since start, summed from the frame times given to :meth:`step` (animation only).
        self.time = 0.0
        self.frame_count = 0
        #: frames actually drawn and presented (``frame_count`` counts every step)
        self.frames_drawn = 0
        #: whether :meth:`run` waits for events while idle (off headless: a fake clock never waits)
        self.idle_wait = not self.headless
        #: whether :meth:`run` reads the real clock (off headless: every frame lasts ``STEP``)
        self.real_clock = not self.headless
        self._dirty = True        # the picture must be drawn again (events, stack, window changed)
        self._wanted = True       # a scene wanted the last frame (so one more is drawn after it stops)
        self._acc = 0.0
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._pressed: set[int] = set()  # mouse buttons whose press reached the scenes
        self._wheel_acc = [0.0, 0.0]  # wheel (x, y) fractions not yet given to the scenes as steps
        self._pending_shot: Any = None  # a Path, _DEFAULT_SHOT or None
        self._toast: tuple[str, float] | None = None
        self.last_screenshot: Path | None = None
        # the match in progress (set by start_match)
        self.match: Any = None
        self.current_spec: Any = None
        self._game_scene: Scene | None = None
        self._autosave_listener: Any = None

        pygame.display.set_caption(self.CAPTION)
        self._offscreen = pygame.Surface(self.LOGICAL_SIZE)
        self.surface = self._offscreen
        self._scaled: pygame.Surface | None = None
        if window_size is None:
            window_size = self.LOGICAL_SIZE if self.headless else self._default_window_size()
        self._windowed_size = tuple(window_size)
        self.fullscreen = False
        if self.settings["fullscreen"] and not self.headless:
            self._set_mode(True)
        else:
            self._set_mode(False)
        self.audio = Audio(self)
        self.clock = pygame.time.Clock()

    # ---------------------------------------------------------------- window
    def _default_window_size(self) -> tuple[int, int]:
        w, h = self.LOGICAL_SIZE
        try:
            dw, dh = pygame.display.get_desktop_sizes()[0]
        except (pygame.error, IndexError):
            return (w, h)
        scale = min(1.0, 0.9 * dw / w, 0.9 * dh / h)
        return (max(320, int(w * scale)), max(200, int(h * scale)))

    def _set_mode(self, fullscreen: bool) -> None:
        if fullscreen:
            self.window = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            self.window = pygame.display.set_mode(self._windowed_size, pygame.RESIZABLE)
        self.fullscreen = fullscreen
        self._direct()

    def _direct(self) -> None:
        """Draw straight into the window when it is the logical size, else into the logical surface
        that :meth:`present` scales; the picture is drawn anew either way."""
        win = pygame.display.get_surface()
        direct = win is not None and win.get_size() == self.LOGICAL_SIZE
        target = win if direct else self._offscreen
        self.surface = target
        self._dirty = True

    def set_window_size(self, size: tuple[int, int]) -> None:
        """Resize the (windowed) window to ``size`` px; the picture is re-letterboxed."""
        self._windowed_size = (int(size[0]), int(size[1]))
        self._set_mode(False)

    def set_fullscreen(self, on: bool) -> None:
        """Switch fullscreen on or off and store it in the settings."""
        on = bool(on)
        if on != self.fullscreen:
            if on:
                surf = pygame.display.get_surface()
                if surf is not None:
                    self._windowed_size = surf.get_size()
            self._set_mode(on)
        if self.settings.get("fullscreen") != on:
            self.settings["fullscreen"] = on
            self.save_settings()

    def toggle_fullscreen(self) -> None:
        self.set_fullscreen(not self.fullscreen)

    def window_size(self) -> tuple[int, int]:
        surf = pygame.display.get_surface()
        return surf.get_size() if surf is not None else self.LOGICAL_SIZE

    def viewport(self) -> pygame.Rect:
        """Where the logical picture sits in the window, in window px (aspect kept, centred)."""
        ww, wh = self.window_size()
        lw, lh = self.LOGICAL_SIZE
        scale = min(ww / lw, wh / lh)
        vw, vh = max(1, round(lw * scale)), max(1, round(lh * scale))
        return pygame.Rect((ww - vw) // 2, (wh - vh) // 2, vw, vh)

    def window_to_logical(self, pos: tuple[float, float], clamp: bool = False) -> tuple[int, int] | None:
        """Map a window position (px) to logical px; None if it lies in the letterbox (unless
        ``clamp``, which moves it to the nearest edge of the picture)."""
        vp = self.viewport()
        lw, lh = self.LOGICAL_SIZE
        x = (pos[0] - vp.x) * lw / vp.w
        y = (pos[1] - vp.y) * lh / vp.h
        if clamp:
            x = min(max(x, 0.0), lw - 1.0)
            y = min(max(y, 0.0), lh - 1.0)
        elif not (0.0 <= x < lw and 0.0 <= y < lh):
            return None
        return (int(x), int(y))

    def logical_to_window(self, pos: tuple[float, float]) -> tuple[int, int]:
        """Inverse of :meth:`window_to_logical`: the window px showing logical point ``pos``."""
        vp = self.viewport()
        lw, lh = self.LOGICAL_SIZE
        return (int(vp.x + (pos[0] + 0.5) * vp.w / lw), int(vp.y + (pos[1] + 0.5) * vp.h / lh))

    def map_event(self, event: Any) -> Any | None:
        """The event as scenes must see it (logical ``pos``/``rel``), or None if it is dropped."""
        et = event.type
        if et in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and getattr(event, "button", 1) >= 4:
            return None
        if et == pygame.MOUSEWHEEL:
            return self.map_wheel(event)
        if et not in _MOUSE_POS_EVENTS:
            return event
        d = dict(event.dict)
        lp = self.window_to_logical(d.get("pos", (0, 0)))
        if et == pygame.MOUSEBUTTONUP:
            button = d.get("button", 1)
            if button in self._pressed:
                self._pressed.discard(button)
                if lp is None:
                    lp = self.window_to_logical(d.get("pos", (0, 0)), clamp=True)
            elif lp is None:
                return None
        elif lp is None:
            return None
        elif et == pygame.MOUSEBUTTONDOWN:
            self._pressed.add(d.get("button", 1))
        d["pos"] = lp
        if "rel" in d:
            vp = self.viewport()
            lw, lh = self.LOGICAL_SIZE
            rx, ry = d["rel"]
            d["rel"] = (round(rx * lw / vp.w), round(ry * lh / vp.h))
        return pygame.event.Event(et, d)

    def map_wheel(self, event: Any) -> Any | None:
        """A MOUSEWHEEL event as whole steps: ``precise_y`` (else ``y``; likewise x) is added to what
        earlier events left over, with ``flipped`` applied and the sum clamped to
        ``MAX_WHEEL_STEPS``; the whole part is delivered as ``y == precise_y`` (``x == precise_x``),
        ``flipped=False``. None (dropped) when no whole step results; NaN, infinite or non-numeric
        deltas count as 0."""
        d = dict(event.dict)
        sign = -1.0 if d.get("flipped") else 1.0
        lim = float(self.MAX_WHEEL_STEPS)
        steps = []
        for k, axis in enumerate(("x", "y")):
            v = d.get("precise_" + axis)
            if not isinstance(v, (int, float)):
                v = d.get(axis, 0)
            try:
                v = float(v)
            except (TypeError, ValueError, OverflowError):
                v = 0.0
            if not math.isfinite(v):
                v = 0.0
            acc = min(max(self._wheel_acc[k] + sign * v, -lim), lim)
            whole = int(acc)  # toward zero
            self._wheel_acc[k] = acc - whole
            steps.append(whole)
        if steps == [0, 0]:
            return None
        d.update(x=steps[0], y=steps[1], precise_x=float(steps[0]), precise_y=float(steps[1]),
                 flipped=False)
        return pygame.event.Event(pygame.MOUSEWHEEL, d)

    # ----------------------------------------------------------------- scenes
    @property
    def top(self) -> Scene | None:
        """The top scene, or None when the stack is empty."""
        return self.stack[-1] if self.stack else None

    def push(self, scene: Scene) -> Scene:
        """Put ``scene`` on top of the stack and call its ``on_enter``. Returns the scene."""
        self.stack.append(scene)
        self._dirty = True
        scene.on_enter()
        return scene

    def pop(self) -> Scene | None:
        """Remove the top scene (calling its ``on_exit``), then call ``on_enter`` of the new top.
        Returns the removed scene, or None if the stack was empty."""
        if not self.stack:
            return None
        scene = self.stack.pop()
        self._dirty = True
        self._removed(scene)
        if self.stack:
            self.stack[-1].on_enter()
        return scene

    def replace(self, scene: Scene) -> Scene:
        """Swap the top scene for ``scene`` (``on_exit`` of the old one, ``on_enter`` of the new)."""
        if self.stack:
            self._removed(self.stack.pop())
        return self.push(scene)

    def to_launcher(self) -> None:
        """Pop every scene above the bottom one (the launcher)."""
        if len(self.stack) <= 1:
            return
        while len(self.stack) > 1:
            self._removed(self.stack.pop())
        self._dirty = True
        self.stack[0].on_enter()

    def quit(self) -> None:
        """Stop the loop at the end of this frame."""
        self.running = False

    def _removed(self, scene: Scene) -> None:
        try:
            scene.on_exit()
        finally:
            if scene is self._game_scene:
                self._end_match_binding()

    # ------------------------------------------------------------- services
    @property
    def theme(self) -> _theme.Palette:
        """The current palette; ``symbols`` is forced on when the "symbols" setting is on."""
        pal = _theme.palette(self.settings.get("palette", _theme.DEFAULT_PALETTE))
        if self.settings.get("symbols") and not pal.symbols:
            pal = dataclasses.replace(pal, symbols=True)
        return pal

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        """The bundled DejaVu Sans at ``size`` px (cached); never a system font."""
        key = (int(size), bool(bold))
        f = self._fonts.get(key)
        if f is None:
            f = pygame.font.Font(str(_theme.FONT_BOLD if bold else _theme.FONT_REGULAR), key[0])
            self._fonts[key] = f
        return f

    def save_settings(self) -> None:
        """Write the settings atomically to ``data_dir()/settings.json``; an OSError is reported on
        stderr and otherwise ignored (the game goes on with the settings in memory)."""
        try:
            write_json_atomic(settings_path(), self.settings)
        except OSError as e:
            print(f"playtable: cannot save settings: {e}", file=sys.stderr)

    def set_setting(self, key: str, value: Any) -> None:
        """Change one setting and persist it. Raises KeyError for an unknown key."""
        if key not in DEFAULT_SETTINGS:
            raise KeyError(key)
        if key == "fullscreen":
            self.set_fullscreen(bool(value))
            return
        self.settings[key] = value
        self._dirty = True
        self.save_settings()

    def toggle_sound(self) -> None:
        self.set_setting("sound", not self.settings.get("sound", True))
        self.toast("Sound on" if self.settings["sound"] else "Sound off")

    def toast(self, text: str, seconds: float = 1.6) -> None:
        """Show a short message at the bottom of the picture for ``seconds`` s."""
        self._toast = (text, self.time + seconds)
        self._dirty = True

    @property
    def toast_text(self) -> str | None:
        """The toast shown now, or None."""
        return self._toast[0] if self._toast is not None and self.time < self._toast[1] else None

    def show_rules(self, spec: Any) -> Scene:
        """Push the rules of ``spec`` (a GameSpec) as an overlay; returns the rules scene."""
        from .rules_view import RulesScene
        return self.push(RulesScene(self, spec))

    def screenshot(self, path: str | Path | None = None) -> Path:
        """Save the logical surface as PNG to ``path`` (default ``data_dir()/screenshots/...``).
        Raises pygame.error / OSError if the file cannot be written."""
        if path is None:
            folder = data_dir() / "screenshots"
            folder.mkdir(parents=True, exist_ok=True)
            stamp = _walltime.strftime("%Y%m%d-%H%M%S")
            n = 0
            while True:
                path = folder / f"playtable-{stamp}-{n:02d}.png"
                if not path.exists():
                    break
                n += 1
        path = Path(path)
        if path.parent and not path.parent.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.surface, str(path))
        self.last_screenshot = path
        return path

    # ---------------------------------------------------------------- matches
    def start_match(self, spec: Any, match: Any, *, autosave: bool = True, **scene_opts: Any) -> Scene:
        """Show ``match`` of game ``spec``: build ``spec.make_scene(self, match, **scene_opts)``, go back
        to the launcher, push the scene, and (``autosave``) save the match after every action
        (atomically, to ``autosave_path()``; deleted once the match is over). The match is saved once
        at start, so "Resume" always means the latest match, unless no player has acted in it yet
        (:meth:`Match.has_moves`) while the autosave holds another unfinished match: that one stays
        until the first move, when it is moved to ``saves/``; a set-up left without a move leaves no
        file behind and no Resume (the launcher offers only matches with a move). An unreadable old
        autosave is first renamed to ``autosave-unreadable-<time>.json`` rather than overwritten.
        ``autosave=False`` (replays) leaves the autosave alone. Returns the scene. Exceptions from
        ``make_scene`` propagate and leave the stack unchanged."""
        scene = spec.make_scene(self, match, **scene_opts)
        if autosave:
            self._preserve_unreadable_autosave()
        self.to_launcher()
        self._end_match_binding()
        self.match = match
        self.current_spec = spec
        self._game_scene = scene
        if autosave:
            self._autosave_listener = self._make_autosave_listener(match)
            match.listeners.append(self._autosave_listener)
            self._autosave_listener(match, [])
        return self.push(scene)

    def _make_autosave_listener(self, match: Any):
        kept = [False]   # whether another match in the autosave was dealt with (moved to saves/)

        def autosave(m: Any, events: list) -> None:
            if m is not self.match:
                return
            path = autosave_path()
            if not kept[0]:
                if not m.has_moves() and not m.is_over() and self._autosave_holds_other(m):
                    return   # only set up: the unfinished match in the autosave stays until a move
                self._keep_unfinished_autosave(m)
                kept[0] = True
            try:
                if m.is_over():
                    # keep the finished game for `playtable replay`, then clear the autosave
                    _record.save(m, finished_path(m.rules.info.name))
                    path.unlink(missing_ok=True)
                else:
                    _record.save(m, path)
            except OSError as e:  # a full disk must not end the game
                print(f"playtable: autosave failed: {e}", file=sys.stderr)
        return autosave

    def _preserve_unreadable_autosave(self) -> None:
        path = autosave_path()
        if not path.exists():
            return
        try:
            _record.load(path)
        except Exception:  # noqa: BLE001 - anything unreadable is kept aside, never overwritten
            stamp = _walltime.strftime("%Y%m%d-%H%M%S")
            try:
                path.rename(path.with_name(f"autosave-unreadable-{stamp}.json"))
            except OSError:
                pass

    def _autosave_holds_other(self, match: Any) -> bool:
        """Whether the autosave holds an unfinished match with a move that is not ``match``."""
        path = autosave_path()
        if not path.exists():
            return False
        try:
            old = _record.load(path)
        except Exception:  # noqa: BLE001 - unreadable ones were already set aside
            return False
        same = old.seed == match.seed and old.rules.info.name == match.rules.info.name \
            and old.log == match.log[: len(old.log)]
        return not same and old.has_moves() and not old.is_over()

    def _keep_unfinished_autosave(self, match: Any) -> None:
        """A new match must not silently destroy an unfinished one: if the autosave holds another
        match, move it to ``data_dir()/saves/`` first (it can be opened with ``playtable replay``)."""
        path = autosave_path()
        if not path.exists():
            return
        try:
            old = _record.load(path)
        except Exception:  # noqa: BLE001 - unreadable ones were already set aside
            return
        if old.seed == match.seed and old.rules.info.name == match.rules.info.name \
                and old.log == match.log[: len(old.log)]:
            return  # the same match, resumed
        if not old.has_moves():
            return  # only set up, never played: nothing worth keeping
        dest = data_dir() / "saves" / f"{old.rules.info.name}-{_walltime.strftime('%Y%m%d-%H%M%S')}.json"
        try:
            dest.parent.mkdir(parents=True, exist_ok=True)
            path.replace(dest)
            self.toast(f"The unfinished match was kept in {dest.parent}", 3.0)
        except OSError:
            pass

    def _end_match_binding(self) -> None:
        if self.match is not None and self._autosave_listener is not None:
            try:
                self.match.listeners.remove(self._autosave_listener)
            except ValueError:
                pass
        self.match = None
        self.current_spec = None
        self._game_scene = None
        self._autosave_listener = None

    # ------------------------------------------------------------------ frame
    def _app_key_before(self, event: Any) -> bool:
        if event.type != pygame.KEYDOWN:
            return False
        if event.key == pygame.K_F11:
            self.toggle_fullscreen()
            return True
        if event.key == pygame.K_F12:
            if self._pending_shot is None:
                self._pending_shot = _DEFAULT_SHOT
            return True
        return False

    def _app_key_after(self, event: Any) -> None:
        if event.type != pygame.KEYDOWN:
            return
        mods = getattr(event, "mod", 0)
        if mods & (pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META):
            return
        if event.key == pygame.K_ESCAPE:
            if len(self.stack) > 1:
                self.pop()
        elif event.key == pygame.K_F1:
            spec = self.current_spec
            if spec is not None and not any(getattr(s, "is_rules", False) for s in self.stack):
                self.show_rules(spec)
        elif event.key == pygame.K_m:
            self.toggle_sound()

    def dispatch(self, event: Any) -> None:
        """Deliver one raw (window-coordinate) event: app keys, mapping, top scene, fallbacks."""
        if event.type in (pygame.QUIT, getattr(pygame, "WINDOWCLOSE", -1)):
            self.quit()
            return
        if self._app_key_before(event):
            return
        ev = self.map_event(event)
        if ev is None:
            return
        top = self.top
        consumed = bool(top.handle_event(ev)) if top is not None else False
        if not consumed:
            self._app_key_after(ev)

    def step(self, events: Iterable[Any], dt: float) -> bool:
        """Run exactly one frame: dispatch ``events`` (window coordinates), update with ``dt`` s of
        elapsed time (clamped to ``MAX_FRAME``, spent in whole ``STEP`` updates of the visible scenes),
        then draw and present if anything changed (:meth:`needs_draw`). Returns :attr:`running`."""
        for event in events:
            self._dirty = True
            self.dispatch(event)
            if not self.running:
                break
        dt = max(0.0, float(dt))
        self.time += dt
        self._acc += min(dt, self.MAX_FRAME)
        while self._acc >= self.STEP - 1e-9:
            self._acc -= self.STEP
            for scene in self.visible_scenes():
                scene.update(self.STEP)
        self._acc = max(0.0, self._acc)
        wanted = self.scenes_want_frame()
        win = pygame.display.get_surface()
        if (win is not None and win.get_size() == self.LOGICAL_SIZE) != (self.surface is win):
            self._direct()      # the window was resized to or from the logical size
        if self._dirty or wanted or self._wanted or self._toast is not None or self._pending_shot is not None:
            self._dirty = False
            self.draw()
            if self._pending_shot is not None:
                target = self._pending_shot
                self._pending_shot = None
                try:
                    saved = self.screenshot(None if target is _DEFAULT_SHOT else target)
                    if target is _DEFAULT_SHOT:
                        self.toast(f"Screenshot saved in {saved.parent}: {saved.name}", 3.0)
                except (pygame.error, OSError) as e:
                    self.toast(f"Screenshot failed: {e}")
            self._draw_toast()
            self.present()
            self.frames_drawn += 1
        self._wanted = wanted
        self.frame_count += 1
        return self.running

    def scenes_want_frame(self) -> bool:
        """Whether a visible scene animates: every visible scene's ``wants_frame()`` is asked (once a
        frame, after the updates)."""
        return [scene.wants_frame() for scene in self.visible_scenes()].count(True) > 0

    def needs_draw(self) -> bool:
        """Whether the next frame is drawn even if no event arrives: the picture is out of date, a
        toast shows, a screenshot is due, or a visible scene wanted the last frame (scenes are asked
        once a frame, after its updates)."""
        return bool(self._dirty or self._wanted or self._toast is not None or self._pending_shot is not None)

    def invalidate(self) -> None:
        """Have the next frame drawn (for a change made outside events and scene updates)."""
        self._dirty = True

    def draw(self) -> None:
        """Draw the top non-overlay scene and the overlays above it onto :attr:`surface` (cleared to
        the theme's background first unless that scene is ``opaque``)."""
        scenes = self.visible_scenes()
        if not (scenes and scenes[0].opaque):
            self.surface.fill(self.theme.bg)
        for scene in scenes:
            scene.draw(self.surface)

    def visible_scenes(self) -> list[Scene]:
        """The top non-overlay scene and the overlays above it, bottom first (drawn and updated)."""
        if not self.stack:
            return []
        base = len(self.stack) - 1
        while base > 0 and self.stack[base].overlay:
            base -= 1
        return self.stack[base:]

    def _draw_toast(self) -> None:
        if self._toast is None:
            return
        text, until = self._toast
        if self.time >= until:
            self._toast = None
            return
        if getattr(self.top, "shows_toasts", False):
            return   # the screen shows it in its notices area, clear of its board
        th = self.theme
        img = self.font(18).render(text, True, th.text)
        r = img.get_rect(midbottom=(self.LOGICAL_SIZE[0] // 2, self.LOGICAL_SIZE[1] - 24))
        box = r.inflate(32, 16)
        pygame.draw.rect(self.surface, th.panel, box, border_radius=10)
        pygame.draw.rect(self.surface, th.panel_edge, box, 1, border_radius=10)
        self.surface.blit(img, r)

    def present(self) -> None:
        """Show the picture: flip when :attr:`surface` is the window itself; otherwise scale the
        logical surface into the window (letterboxed) first."""
        win = pygame.display.get_surface()
        if win is None:
            return
        if self.surface is not win:
            if win.get_size() == self.LOGICAL_SIZE:
                win.blit(self.surface, (0, 0))
            else:
                vp = self.viewport()
                win.fill((0, 0, 0))
                if self._scaled is None or self._scaled.get_size() != vp.size:
                    self._scaled = pygame.Surface(vp.size)
                pygame.transform.smoothscale(self.surface, vp.size, self._scaled)
                win.blit(self._scaled, vp.topleft)
        pygame.display.flip()

    def wait_events(self, timeout: float) -> list:
        """The events that arrive within ``timeout`` s (returns as soon as there is one; an empty list
        after the timeout). Blocks in the window system where it can; a driver that cannot block
        (dummy, offscreen: no window, no person at it) is polled every 20 ms, since SDL would poll it
        every 1 ms."""
        if pygame.display.get_driver() not in ("dummy", "offscreen"):
            ev = pygame.event.wait(max(1, int(timeout * 1000)))
            return [] if ev.type == pygame.NOEVENT else [ev] + pygame.event.get()
        end = _walltime.monotonic() + timeout
        while True:
            events = pygame.event.get()
            left = end - _walltime.monotonic()
            if events or left <= 0:
                return events
            _walltime.sleep(min(0.02, left))

    def run(self, frames: int | None = None, screenshot: str | Path | None = None,
            seconds: float | None = None) -> int:
        """Run the loop until quit, or for ``frames`` frames / ``seconds`` s of wall time if given. With
        ``screenshot``, the last frame (without toasts) is saved there as PNG. Real clock at 60 fps,
        waiting for events while nothing wants a frame (:attr:`idle_wait`); in headless mode every
        frame lasts ``STEP`` s without sleeping or waiting. Returns the exit code (0)."""
        n = 0
        end = None if seconds is None else _walltime.monotonic() + seconds
        while self.running and (frames is None or n < frames):
            last = frames is not None and n == frames - 1
            if last and screenshot is not None:
                self._pending_shot = Path(screenshot)
            events = pygame.event.get()
            idle = False
            if self.idle_wait and not events and not self.needs_draw():
                wait = self.IDLE_WAKE if end is None else min(self.IDLE_WAKE, end - _walltime.monotonic())
                events = self.wait_events(wait)
                idle = not events
            if not self.real_clock:
                dt = self.STEP
            else:   # after an idle wait the time waited is spent in updates (clocks keep time)
                dt = (self.clock.tick() if idle else self.clock.tick(60)) / 1000.0
            self.step(events, dt)
            n += 1
            if end is not None and _walltime.monotonic() >= end:
                break
        if screenshot is not None and (frames is None or n < frames):
            try:
                self.screenshot(screenshot)
            except (pygame.error, OSError) as e:
                print(f"playtable: cannot save screenshot: {e}", file=sys.stderr)
        return 0

    def close(self) -> None:
        """Leave every scene and shut the display and audio down."""
        while self.stack:
            try:
                self._removed(self.stack.pop())
            except Exception:  # closing must finish
                traceback.print_exc()
        self.audio.close()
        pygame.display.quit()
