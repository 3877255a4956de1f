"""``playtable bench``: speed figures, printed, never asserted (specs/DESIGN.md "Tests").

The game figures come from each game's ``GameSpec.bench`` hook; this module runs them, and first
prints the bare frame every screen's figures are compared with (``framebench.floor_ms``) and the
launcher's frame, then last the idle figures: the process's CPU over ``idle`` s of the real loop with
nothing happening, in the launcher and in each game waiting for a human (``framebench.idle_cpu``);
a real-time game, whose bots play on, also with its default seats (their play, not idle).
"""
from __future__ import annotations

import sys
from typing import Any, Callable

#: s of idle measured per screen by default
IDLE_SECONDS = 10.0


def run_bench(game: str | None = None, idle: float = IDLE_SECONDS) -> int:
    """Print every game's figures (only game ``game``'s when given), then the idle figures (``idle`` s
    each; 0 skips them); returns 0.

    Raises ``UnknownGame`` for an unknown ``game``."""
    from sim.core.registry import game_names, get_spec

    from . import framebench

    def out(line: str) -> None:
        print(line, flush=True)

    if game is not None:
        get_spec(game)  # unknown names fail before anything runs
    out(f"playtable bench (Python {sys.version.split()[0]})")
    floor = framebench.floor_frames()
    out(f"bare frame: fill + flip at 1280x800 (dummy driver), nothing drawn: {framebench.describe(floor)}")
    if game is None:
        framebench.report(out, "launcher: frame time when drawn (dummy driver)", launcher_frames())
    for name in game_names():
        spec = get_spec(name)
        if spec.bench is not None and game in (None, name):
            spec.bench(out)
    if idle > 0:
        if game is None:
            idle_line(out, "launcher", lambda app: _launcher(app), idle)
        for name in game_names():
            if game in (None, name):
                spec = get_spec(name)
                if spec.realtime and spec.default_players:
                    # a race does not wait for a human: its bots play on; the still figure is the humans'
                    idle_line(out, f"{name}, every seat human", waiting_for_human(name, humans_only=True), idle)
                    idle_line(out, f"{name}, its default seats", waiting_for_human(name), idle,
                              "no input while its bots race")
                else:
                    idle_line(out, name, waiting_for_human(name), idle)
    return 0


def _launcher(app: Any) -> Any:
    from .launcher import LauncherScene
    return app.push(LauncherScene(app))


def launcher_frames(frames: int = 200) -> dict[str, list[tuple[float, float]]]:
    """(wall ms, CPU ms) of the launcher drawn anew every frame (the pointer moving over it)."""
    import pygame

    from .framebench import _timed_app
    from .launcher import LauncherScene

    def drive(app: Any, i: int) -> list:
        return [pygame.event.Event(pygame.MOUSEMOTION, pos=(200 + (i * 13) % 800, 250 + (i * 7) % 450),
                                   rel=(1, 1), buttons=(0, 0, 0))]
    return {"pointer moving": _timed_app(lambda app: app.push(LauncherScene(app)), drive, frames)}


def waiting_for_human(name: str, humans_only: bool = False) -> Callable[[Any], Any]:
    """A set-up for :func:`framebench.idle_cpu`: a new match of game ``name`` with its default seats
    (``GameSpec.default_players``: a human and the game's bots; with ``humans_only`` every one of them
    a human) and options, seed 1, shown by the game's screen."""
    def setup(app: Any) -> Any:
        from sim.core.match import Match, check_setup
        from sim.core.registry import get_spec

        spec = get_spec(name)
        rules = spec.make_rules()
        config = None
        if spec.default_players:
            seats = ["human"] * len(spec.default_players) if humans_only else list(spec.default_players)
            config = {"seats": seats}
            if spec.players_key:
                config[spec.players_key] = len(spec.default_players)
            config = check_setup(rules, config)
        return app.start_match(spec, Match(rules, config, 1), autosave=False)
    return setup


def idle_line(out: Callable[[str], None], what: str, setup: Callable[[Any], Any], seconds: float,
              happening: str = "nothing happening") -> None:
    """Measure and print one idle figure."""
    from .framebench import idle_cpu
    cpu, drawn, settled = idle_cpu(setup, seconds)
    out(f"idle: {what}: {cpu:.2f} % of one core over {seconds:g} s with {happening} "
        f"({drawn} frames drawn; still after {settled:.1f} s)")
