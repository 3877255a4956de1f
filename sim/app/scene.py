"""Scene base class: the unit the app loop drives (specs/DESIGN.md "App").

Contract between the app (``sim.app.app.App``) and every scene:

* ``handle_event(event) -> bool``: called for each pygame event, top scene first; return True if the
  event was consumed. Mouse events arrive with ``event.pos`` already mapped to *logical* coordinates
  (``App.LOGICAL_SIZE`` = 1280x800 px), events in the letterbox are dropped, and MOUSEBUTTONDOWN/UP with
  ``button >= 4`` (the wheel's duplicate buttons) never reach scenes: use MOUSEWHEEL, which arrives as
  whole, clamped steps (``App.map_wheel``; read it with :class:`WheelSteps`). Never read ``pygame.mouse.get_pos()``: use ``event.pos``.
* ``update(dt)``: called with the fixed step ``App.STEP`` (1/60 s) zero or more times a frame.
* ``draw(surface)``: draw onto the logical surface; must not change any game state.
* ``overlay = True`` scenes (dialogs) are drawn over the scene below them, which is drawn first.
  ``opaque = True``: the scene's ``draw`` paints every pixel (a full-size background first), so the
  app does not clear the surface before it.
* ``wants_frame() -> bool``: whether the scene must be drawn again although no event arrived (an
  animation, a clock or pulse on screen, a bot to move, physics awake, something polled). The app draws
  a frame after every event and when the stack changes anyway, plus one more after the last frame a
  scene wanted; when no visible scene wants one, nothing is drawn and the loop waits for events. It is
  asked once a frame, after the updates, so a scene may answer True once when a shown clock's text
  changed. The default is True (drawn every frame): a scene says False only when its picture is still.

Services a scene may use through ``self.app``: ``push(scene)``, ``pop()``, ``replace(scene)``,
``theme`` (colours, see ``sim.app.theme``), ``font(size, bold=False)``, ``audio.play(name)``,
``settings`` (dict), ``show_rules(spec)``, ``to_launcher()``, ``time`` (seconds since start, from the
app's clock, for animation only).
"""
from __future__ import annotations

from typing import Any


class Scene:
    """Base scene: consumes nothing, draws nothing."""

    overlay = False
    #: Whether draw() paints every pixel of the logical surface (then the app does not clear it first).
    opaque = False
    #: Title shown in window caption / screenshots.
    title = "Playtable"

    def __init__(self, app: Any):
        self.app = app

    def on_enter(self) -> None:
        """Called when the scene becomes the top of the stack."""

    def on_exit(self) -> None:
        """Called when the scene leaves the stack."""

    def handle_event(self, event: Any) -> bool:
        return False

    def update(self, dt: float) -> None:
        pass

    def wants_frame(self) -> bool:
        """Whether the scene must be drawn again with no event (see the module doc); default True."""
        return True

    def draw(self, surface: Any) -> None:
        pass



class WheelSteps:
    """Turns MOUSEWHEEL events into whole steps: one notch = one step; fractional trackpad
    ``precise_y`` values are accumulated (specs/DESIGN.md "Library pitfalls"). Events from the app are
    already whole and clamped (``App.map_wheel``); fractions are still summed here for
    events given to a scene directly."""

    def __init__(self) -> None:
        self.acc = 0.0

    def feed(self, event: Any) -> int:
        """Whole steps (+ = away from the user / up) carried by a MOUSEWHEEL event."""
        y = getattr(event, "precise_y", None)
        if y is None:
            y = float(getattr(event, "y", 0))
        if getattr(event, "flipped", False):
            y = -y
        self.acc += y
        steps = int(self.acc)  # truncates toward zero
        self.acc -= steps
        return steps
