"""Gobble's ``playtable bench`` figures (``GameSpec.bench`` of both variants); printed, never asserted
(specs/DESIGN.md "Tests").

Gobble Solitaire (:func:`bench_solitaire`): legal-placement search for one tile on a 50-tile board (µs),
games per second with the greedy and random bots, the Solitaire scene's frame time (median and p95, ms)
at 1280x800 under the dummy video driver with 50 tiles on the board. The race (:func:`bench_race`): the
race scene's frame time with one human seat and 5 bots placing in real time, and races per second in
selfplay.
"""
from __future__ import annotations

import time

from sim.core.registry import get_spec


def _fifty_tile_match(seed: int = 11):
    """A Solitaire match played by the greedy bot until 50 tiles are on the board and a tile is held."""
    from .ai import make_solitaire_agent
    from sim.core.match import Match
    SOLITAIRE = get_spec("gobble-solitaire")

    rules = SOLITAIRE.make_rules()
    for s in range(seed, seed + 100):
        m = Match(rules, None, s)
        bot = make_solitaire_agent("greedy", s)
        while not m.is_over():
            st = m.state
            if len(st.board) >= 50 and st.phase == "place":
                return m
            m.submit(0, bot.select_action(rules, st, 0))
    raise RuntimeError("no 50-tile position found")


def bench_placement_search(out) -> None:
    from . import board as board_mod

    m = _fifty_tile_match()
    b = m.state.board
    tiles = list(range(1, 57))
    board_mod._FIT_CACHE.clear()
    t0 = time.perf_counter()
    for n in tiles:
        b.placements(n)
    cold = (time.perf_counter() - t0) / len(tiles) * 1e6
    reps = 200
    t0 = time.perf_counter()
    for _ in range(reps):
        for n in tiles:
            b.placements(n)
    warm = (time.perf_counter() - t0) / (reps * len(tiles)) * 1e6
    spaces = len(b.spaces())
    out(f"gobble: legal placements of one tile, 50-tile board ({spaces} playable spaces): "
        f"{warm:.1f} us (first search, empty fit cache: {cold:.1f} us)")


def bench_solitaire_games(out, games: int = 40) -> None:
    from sim.app.cli import play_bot_game
    SOLITAIRE = get_spec("gobble-solitaire")

    for bot in ("greedy", "random"):
        t0 = time.perf_counter()
        for i in range(games):
            play_bot_game(SOLITAIRE, bot, 1000 + i)
        dt = time.perf_counter() - t0
        out(f"gobble-solitaire: {games / dt:.1f} games/s with the {bot} bot ({games} games)")


def bench_scene_frames(out, frames: int = 300) -> None:
    """The Solitaire scene with 50 tiles on the board while the mouse wanders over it (hover, ghost)."""
    import pygame

    from sim.app.framebench import report, run_frames

    def drive(scene, match, i):
        w, h = scene.app.LOGICAL_SIZE
        pos = (int(w * 0.3 + (i * 7) % int(w * 0.4)), int(h * 0.3 + (i * 5) % int(h * 0.4)))
        return [pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(0, 0, 0))], "hover"
    groups = run_frames(get_spec("gobble-solitaire"), _fifty_tile_match(), drive, frames, warmup=10)
    report(out, "gobble-solitaire scene: frame time at 1280x800 (dummy driver, 50 tiles)", groups)


def _race_in_progress(seed: int = 4, tiles: int = 16):
    """A 6-seat race (one human seat that does not move, 5 bots of mixed levels) played by the bots in
    simulated time until ``tiles`` tiles are on the board; returns the match and its bots."""
    from sim.ai.realtime import BotTimers
    from sim.core.match import Match
    RACE = get_spec("gobble")

    seats = ["human", "bot:hard", "bot:medium", "bot:easy", "bot:hard", "bot:medium"]
    m = Match(RACE.make_rules(), {"players": 6, "seats": seats}, seed)
    bots = [RACE.make_bot(i, k.split(":", 1)[1], seed) for i, k in enumerate(seats) if k.startswith("bot:")]
    timers = BotTimers(m, bots)
    while len(m.state.board) < tiles and not m.is_over():
        due = [t for t in (timers.next_due(), m.rules.next_timer(m.state)) if t is not None]
        m.advance(max(min(due), m.time) - m.time)
        timers.run_due()
    return m, bots


def bench_race_frames(out, frames: int = 600) -> None:
    """Frame time of the race scene with one human seat and 5 bots placing: the match clock moves
    1/60 s a frame (real time), so the bots act during the measured frames; the mouse drags the
    human's revealed tile over the board half of the time (legal cells and the snapping ghost)."""
    import pygame

    from sim.app.framebench import report, run_frames

    m, bots = _race_in_progress()
    n0, board0 = len(m.log), len(m.state.board)
    E = pygame.event.Event

    def drive(scene, match, i):
        w, h = scene.app.LOGICAL_SIZE
        x = int(w * 0.1 + (i * 7) % int(w * 0.55))
        y = int(h * 0.3 + (i * 5) % int(h * 0.55))
        ev = [E(pygame.MOUSEMOTION, pos=(x, y), rel=(1, 1), buttons=(0, 0, 0))]
        if i % 120 == 0 and scene.hand_slots():
            c = scene.hand_slots()[0][1]
            ev = [E(pygame.MOUSEMOTION, pos=c, rel=(0, 0), buttons=(0, 0, 0)),
                  E(pygame.MOUSEBUTTONDOWN, pos=c, button=1)] + ev
        elif i % 120 == 60 and scene.hold is not None:
            ev.append(E(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
        return ev, "1 human + 5 bots"
    groups = run_frames(get_spec("gobble"), m, drive, frames, warmup=10, bots=bots)
    acts = sum(1 for e in m.log[n0:] if e["p"] >= 0)
    placed = len(m.state.board) - board0
    report(out, f"gobble race scene: frame time at 1280x800 (dummy driver; {acts} bot actions, {placed} tiles "
                f"placed in {frames / 60:.0f} s of match time)", groups)


def bench_race_selfplay(out, races: int = 100) -> None:
    """Races per second in selfplay (simulated time, 4 bots of mixed levels, invariants not checked)."""
    from sim.core import selfplay
    RACE = get_spec("gobble")

    seats = list(RACE.selfplay_players)
    s = selfplay.run(RACE, seats, races, 2000, lambda sat: {"players": len(sat), "seats": sat},
                     out=lambda line: None, clock=time.perf_counter)
    out(f"gobble race selfplay: {s['games_per_second']:.1f} races/s (4 bots: {', '.join(seats)}; {races} races)")


def bench_solitaire(out) -> None:
    """Every Gobble Solitaire figure; ``out(text)`` prints one line."""
    bench_placement_search(out)
    bench_solitaire_games(out)
    bench_scene_frames(out)


def bench_race(out) -> None:
    """Every race figure; ``out(text)`` prints one line."""
    bench_race_frames(out)
    bench_race_selfplay(out)
