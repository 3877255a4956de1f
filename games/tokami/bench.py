"""Tokami speed figures for ``playtable bench`` (printed, never asserted; specs/DESIGN.md "Tests";
issue "Tokami": physics step cost with all 36 sticks awake, bot think time per turn, the scene's frame
time while dragging).

:func:`run` prints, through ``out(line)``:

* the physics step cost (µs per 1/240 s step) of the crisscross cube with sleeping switched off, so all
  36 sticks stay awake the whole time (research/tokami.md §4 measured 211-226 µs at 20 iterations);
* the step cost of the settled cube once every stick sleeps, beside pymunk's own ``space.step``;
* the bots' think time per decision by level (mean, p95 and max, CPU seconds and wall seconds, and the
  level's budget): each level decides the raise and the winning stick on the full settled pile and on
  six later positions (reached by easy bots playing a few turns).

* on the LAN over loopback (:func:`bench_lan`): how soon the host's frame answers a hand input, and
  how many frames a second another client receives while the hand moves.

The screen's frame time while dragging a stick comes from ``view.frame_times`` (``sim.app.framebench``),
printed after these by the game's ``bench`` hook.

It takes well under a minute.
"""
from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any, Callable

from sim.core.match import Match
from sim.core.rules import PHYSICS

from . import driver, model
from .ai import LEVELS, THINK_BUDGET, make_bot
from .rules import TokamiRules
from .world import SETTINGS, TokamiWorld


def bench_step(out: Callable[[str], None], steps: int = 1200) -> float:
    """CPU µs per physics step with the 36 sticks of the cube awake (sleeping off); prints it (and the
    wall time) and returns it."""
    w = TokamiWorld(dict(enumerate(model.cube_poses())), settings=replace(SETTINGS, sleep_time=math.inf))
    w.step(24)                                   # contacts made
    c0, t0 = time.process_time(), time.perf_counter()
    w.step(steps)
    us = (time.process_time() - c0) / steps * 1e6
    wall = (time.perf_counter() - t0) / steps * 1e6
    awake = len(w.speeds())
    out(f"tokami: physics step with all 36 sticks awake: {us:.0f} us CPU per 1/240 s step ({wall:.0f} us wall; "
        f"{steps} steps, {awake} sticks awake at the end, {len(w.fallen)} fallen)")
    return us


def bench_asleep(out: Callable[[str], None], steps: int = 2400) -> float:
    """CPU µs per physics step of the settled cube once every stick sleeps, against pymunk's own
    ``space.step`` on the same space; prints both and returns the world's."""
    w = TokamiWorld(dict(enumerate(model.cube_poses())))
    w.settle()
    w.step(240)
    asleep = sum(1 for sid in w.ids() if w.body(sid).is_sleeping)
    c0 = time.process_time()
    w.step(steps)
    us = (time.process_time() - c0) / steps * 1e6
    dt = w.world.settings.dt
    c0 = time.process_time()
    for _ in range(steps):
        w.space.step(dt)
    bare = (time.process_time() - c0) / steps * 1e6
    out(f"tokami: physics step of the settled pile ({asleep} of {len(w.ids())} sticks asleep): {us:.1f} us CPU "
        f"per step (pymunk's space.step alone: {bare:.1f} us; {steps} steps)")
    return us


def positions(seed: int = 4, turns: tuple[int, ...] = (0, 3, 6, 10, 14, 18, 22)) -> list[Any]:
    """States in phase turn after the given numbers of turns of easy bots (0: the settled cube); the
    physics is driven as in selfplay (``selfplay.TokamiSelfplay.actor``)."""
    from .selfplay import TokamiSelfplay

    seats = ["bot:easy", "bot:easy"]
    m = Match(TokamiRules(), {"players": 2, "seats": seats, "rounds": 1}, seed)
    game = TokamiSelfplay(m, seats, lambda kind, fields, text=None: None)
    m.listeners.append(game.watch)
    bots = [make_bot(i, "easy", seed) for i in range(2)]
    out: list[Any] = []
    while not m.is_over() and len(out) < len(turns):
        s = m.state
        p = m.active_players()[0]
        if p == PHYSICS:
            m.submit(p, game.actor(p, bots))
            continue
        if s.phase == "turn" and game.turns in turns:
            out.append(s)
        m.submit(p, bots[p].select_action(m.rules, s, p))
    return out


def bench_think(out: Callable[[str], None], states: list[Any] | None = None) -> dict[str, dict[str, float]]:
    """Think time per decision by level on ``states`` (default :func:`positions`): each level decides
    the raise, and if its raise succeeds (the plan run through the driver), the winning stick. Prints one
    line per level; returns ``{level: {"mean", "p95", "max", "wall_mean", "wall_max", "decisions",
    "budget"}}`` (CPU seconds but the wall ones; p95 by nearest rank)."""
    rules = TokamiRules()
    states = positions() if states is None else states
    figures: dict[str, dict[str, float]] = {}
    for level in LEVELS:
        cpu: list[float] = []
        wall: list[float] = []
        for k, s in enumerate(states):
            bot = make_bot(s.player, level, k)
            state = s
            for _phase in ("turn", "winning"):
                c0, w0 = time.process_time(), time.perf_counter()
                d = bot.decide(state)
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - w0)
                if "plan" not in d:
                    break
                after, _ev = rules.apply(state, state.player, d["action"])
                state, _ev = rules.apply(after, PHYSICS, driver.run_plan(after, d["plan"]))
                if state.phase != "winning":
                    break
        ranked = sorted(cpu)
        p95 = ranked[min(len(ranked) - 1, math.ceil(0.95 * len(ranked)) - 1)]     # nearest rank
        figures[level] = {"mean": sum(cpu) / len(cpu), "p95": p95, "max": max(cpu),
                          "wall_mean": sum(wall) / len(wall), "wall_max": max(wall), "decisions": len(cpu),
                          "budget": THINK_BUDGET[level]}
        f = figures[level]
        out(f"tokami: {level} bot think time per decision: {f['mean']:.2f} s mean, {f['p95']:.2f} s p95, "
            f"{f['max']:.2f} s max CPU (budget {f['budget']:.2f} s) "
            f"({f['wall_mean']:.2f} / {f['wall_max']:.2f} s wall; {len(cpu)} decisions on piles of "
            f"{', '.join(str(len(s.poses)) for s in states)} sticks)")
    return figures


def bench_lan(out: Callable[[str], None]) -> None:
    """Tokami on the LAN over loopback: a host (the default 40 frames a second) and two clients; one
    client's hand drags the top along-stick up in the plane, lifts it out and lays it on the pile (50
    hand inputs a second, as the screen sends them). Prints the time from sending a hand input to the
    first frame that says it was applied (median, p95, max; the pile's answer on screen comes at most
    one display frame later, the hand itself is drawn at the pointer at once) and the frames a second
    the other client received while the hand moved."""
    import statistics
    import tempfile

    from sim.core.registry import get_spec
    from sim.net.client import Client
    from sim.net.host import Host

    spec = get_spec("tokami")
    with tempfile.TemporaryDirectory() as tmp:
        host = Host(spec, players=2, seed=7, options={"rounds": 1}, record_path=f"{tmp}/bench.json").start()
        clients = []
        try:
            for name in ("A", "B"):
                c = Client("127.0.0.1", host.port, name, log=lambda text: None).start()
                c.set_ready(True)
                clients.append(c)
            if not all(c.wait_for(lambda c: c.latest is not None and c.latest["view"]["phase"] == "turn", 10)
                       for c in clients):
                out("tokami LAN: the game did not start")
                return
            st = spec.make_rules().state_from_json(clients[0].latest["view"])
            mover = next(c for c in clients if c.seat == st.player)
            other = next(c for c in clients if c is not mover)
            sid = max((i for i, p in st.poses.items() if p[0] == "along"),
                      key=lambda i: model.highest_point(st.poses[i]))
            _k, _l, x, y, a = st.poses[sid]
            inputs = [{"op": "grab", "stick": sid, "x": x, "y": y, "n": clients[0].latest["n"]}]
            inputs += [{"op": "move", "x": x, "y": y + 0.6 * k, "a": a} for k in range(1, 26)]
            inputs += [{"op": "lift", "kind": None, "lane": None, "pull": 0.0},
                       {"op": "ghost", "kind": "across", "lane": 2}]
            inputs += [{"op": "move", "x": x * (1 - k / 10), "y": y + 15 + 4 * k, "a": a * (1 - k / 10)}
                       for k in range(1, 11)]
            inputs.append({"op": "lay", "x": 0.0, "y": y + 55.0, "a": 0.0, "close": True})
            for h in inputs:
                mover.send_hand(h)
                time.sleep(0.02)
            mover.wait_for(lambda c: c.latest["view"]["phase"] not in ("turn", "raise"), 10)
            d = sorted(mover.hand_delays)
            fr = [t for t, m in list(other.lives) if m.get("kind") == "hand"]
            rate = (len(fr) - 1) / (fr[-1] - fr[0]) if len(fr) > 1 and fr[-1] > fr[0] else 0.0
            if d:
                out(f"tokami LAN (loopback): hand input -> host frame median {1000 * statistics.median(d):.1f} ms, "
                    f"p95 {1000 * d[int(0.95 * (len(d) - 1))]:.1f} ms, max {1000 * d[-1]:.1f} ms over {len(d)} inputs; "
                    f"{rate:.1f} frames a second to the other client while the hand moved")
        finally:
            for c in clients:
                c.close(timeout=1.0)
            host.stop()


def run(out: Callable[[str], None] = print) -> None:
    """Print the Tokami engine figures (see the module doc)."""
    bench_step(out)
    bench_asleep(out)
    bench_think(out)
    bench_lan(out)


if __name__ == "__main__":
    run()
