"""Bounded LAN soak (issue 4): loopback only, ends by itself.

Starts a :class:`sim.net.host.Host` on 127.0.0.1 (ephemeral port) with 6 LAN seats and 6
:class:`sim.net.client.Client` s that say they are ready, then send intents as fast as the rate limit allows (a little faster
now and then, to exercise the limiter) for ``--seconds`` s. Each picks legal moves from its own view with
``games/gobble/lan.py``; about one intent in ten is junk (a stale action, a replayed sequence number, a
malformed action). When a race ends a new one starts on a new host, until the time is up.

A probe connection (outside the seats) sends a malformed message every ``--probe-interval`` s and times
the host's error reply: the host must keep answering. At the end it prints the latency from intent
received to broadcast (``Host.stats.latencies``, seconds, shown in ms) as p50/p95/max, the counts, and
the probe's round trips, as text and (``--json``) as one JSON line. Exit status 1 if the host stopped
answering the probe (a round trip over ``--max-probe`` s or no answer at all).

    python tools/soak_lan.py [--seconds 60] [--json]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sim.net import protocol as P  # noqa: E402
from sim.net.client import Client  # noqa: E402
from sim.net.host import Host  # noqa: E402
from games.gobble.lan import choose  # noqa: E402
from sim.core.registry import get_spec  # noqa: E402

SEATS = 6


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    v = sorted(values)
    return v[min(len(v) - 1, int(round(q * (len(v) - 1))))]


class Probe(threading.Thread):
    """Times round trips to the host on a connection of its own (malformed JSON -> an error reply)."""

    def __init__(self, port_fn, interval: float, stop: threading.Event):
        super().__init__(name="soak-probe", daemon=True)
        self.port_fn, self.interval, self.stop = port_fn, interval, stop
        self.rtts: list[float] = []
        self.failures = 0

    def run(self) -> None:
        from websockets.sync.client import connect

        while not self.stop.is_set():
            port = self.port_fn()
            if port is None:
                time.sleep(0.05)
                continue
            try:
                with connect(f"ws://127.0.0.1:{port}", open_timeout=5, compression=None) as ws:
                    while not self.stop.is_set() and self.port_fn() == port:
                        t0 = time.perf_counter()
                        ws.send("{not json")
                        reply = json.loads(ws.recv(timeout=5))
                        if reply.get("type") == "error":
                            self.rtts.append(time.perf_counter() - t0)
                        self.stop.wait(self.interval)
            except Exception:  # noqa: BLE001 - a probe that got no answer in time counts as a failure
                if not self.stop.is_set() and self.port_fn() == port:
                    self.failures += 1
                    time.sleep(0.1)


def junk(c: Client, rng: random.Random, last_action: dict | None) -> str:
    """Send one bad intent; returns its kind."""
    kind = rng.choice(["stale", "replay", "malformed"])
    if kind == "stale" and last_action is not None:
        c.send_intent(last_action)  # already played (or from an old view): the rules reject it
    elif kind == "replay" and c._seq > 0:
        c.send_raw(P.encode({"type": "intent", "seq": 1, "seat": c.seat, "token": c.token,
                             "action": {"t": "discard", "tile": 1}}))
    else:
        kind = "malformed"
        c.send_intent({"t": "place", "src": "pile", "tile": "x", "rot": 9, "q": 0})
    return kind


def run_round(deadline: float, args, rng: random.Random, totals: dict, latencies: list[float],
              current_port: list) -> None:
    host = Host(get_spec("gobble"), players=SEATS, bots=[], seed=rng.randrange(1 << 30), tick=0.02,
                options={"gift_timeout": 2.0}, record_path=Path(args.tmp) / f"soak-{totals['rounds']}.json")
    host.start()
    clients: list[Client] = []
    try:
        for i in range(SEATS):
            clients.append(Client("127.0.0.1", host.port, f"soak{i}").start())
            clients[-1].set_ready(True)  # the race starts when all six are ready
        current_port[0] = host.port
        last: dict[int, dict | None] = {i: None for i in range(SEATS)}
        period = 1.0 / P.RATE
        next_t = time.monotonic()
        while time.monotonic() < deadline and not all(c.over or c.closed.is_set() for c in clients):
            for i, c in enumerate(clients):
                if c.latest is None or c.over or c.closed.is_set():
                    continue
                n = 20 if rng.random() < args.overdrive else 1  # now and then, faster than allowed
                for _ in range(n):
                    if rng.random() < args.junk:
                        totals["junk_" + junk(c, rng, last[i])] += 1
                    else:
                        a = choose(c.latest["view"], c.seat, rng)
                        if a is None:
                            continue
                        c.send_intent(a)
                        last[i] = a
                    totals["sent"] += 1
            next_t += period
            delay = next_t - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            else:
                next_t = time.monotonic()
        time.sleep(0.3)  # let the last answers arrive
        for c in clients:
            totals["answered"] += len(c.results)
            totals["client_accepted"] += sum(1 for r in c.results.values() if r["type"] == "accepted")
            totals["rate_limit_errors"] += sum(1 for e in c.errors if e.get("code") == "rate_limited")
            totals["other_errors"] += sum(1 for e in c.errors if e.get("code") != "rate_limited")
        if all(c.over for c in clients):
            totals["races_finished"] += 1
            ok = all(c.latest["view"] == host.view(c.seat) for c in clients)
            totals["final_views_match"] += int(ok)
    finally:
        current_port[0] = None
        for c in clients:
            c.close(2.0)
        host.stop(timeout=5.0)
        st = host.stats
        totals["accepted"] += st.accepted
        totals["rejected"] += st.rejected
        totals["errors"] += st.errors
        totals["dropped_slow"] += st.dropped_slow
        totals["rate_limited"] += st.rate_limited
        latencies.extend(st.latencies)
        totals["rounds"] += 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--junk", type=float, default=0.1, help="share of junk intents")
    ap.add_argument("--overdrive", type=float, default=0.05, help="share of ticks with a 20-intent burst")
    ap.add_argument("--probe-interval", type=float, default=0.25)
    ap.add_argument("--max-probe", type=float, default=1.0, help="slowest acceptable probe round trip, s")
    ap.add_argument("--json", action="store_true", help="also print the figures as one JSON line")
    ap.add_argument("--tmp", default=None, help="folder for the race records (default: a temp folder)")
    args = ap.parse_args(argv)
    import tempfile

    tmpdir = None
    if args.tmp is None:
        tmpdir = tempfile.TemporaryDirectory(prefix="soak-lan-")
        args.tmp = tmpdir.name
    rng = random.Random(args.seed)
    totals = {k: 0 for k in ("rounds", "races_finished", "final_views_match", "sent", "answered",
                             "client_accepted", "accepted", "rejected", "errors", "rate_limit_errors",
                             "other_errors", "dropped_slow", "rate_limited", "junk_stale", "junk_replay", "junk_malformed")}
    latencies: list[float] = []
    current_port: list = [None]
    stop = threading.Event()
    probe = Probe(lambda: current_port[0], args.probe_interval, stop)
    probe.start()
    t0 = time.monotonic()
    deadline = t0 + args.seconds
    try:
        while time.monotonic() < deadline:
            run_round(deadline, args, rng, totals, latencies, current_port)
    finally:
        stop.set()
        probe.join(10)
        if tmpdir is not None:
            tmpdir.cleanup()
    elapsed = time.monotonic() - t0
    rate_limited = totals["rate_limited"]
    ms = lambda v: None if v is None else round(v * 1000, 3)  # noqa: E731
    out = {
        "seconds": round(elapsed, 1), "rounds": totals["rounds"], "races_finished": totals["races_finished"],
        "final_views_match": totals["final_views_match"],
        "sent": totals["sent"], "accepted": totals["accepted"], "client_accepted": totals["client_accepted"],
        "rejected": totals["rejected"] - rate_limited, "rate_limited": rate_limited,
        "rate_limit_errors": totals["rate_limit_errors"], "unanswered": totals["sent"] - totals["answered"], "dropped_slow": totals["dropped_slow"],
        "junk": {k[5:]: totals[k] for k in ("junk_stale", "junk_replay", "junk_malformed")},
        "latency_ms": {"n": len(latencies), "p50": ms(pct(latencies, 0.5)), "p95": ms(pct(latencies, 0.95)),
                       "max": ms(max(latencies) if latencies else None)},
        "probe_ms": {"n": len(probe.rtts), "p50": ms(pct(probe.rtts, 0.5)), "max": ms(max(probe.rtts, default=None)),
                     "failures": probe.failures},
    }
    lat, pr = out["latency_ms"], out["probe_ms"]
    print(f"soak: {out['seconds']} s, {out['rounds']} race(s), {out['races_finished']} finished "
          f"({out['final_views_match']} with every client's final view equal to the host's)")
    print(f"intents: sent {out['sent']}, accepted {out['accepted']}, rejected {out['rejected']}, "
          f"rate-limited {out['rate_limited']} ({out['rate_limit_errors']} rate_limited errors), "
          f"slow clients dropped {out['dropped_slow']}")
    print(f"latency intent received -> broadcast (ms, n={lat['n']}): p50 {lat['p50']} p95 {lat['p95']} "
          f"max {lat['max']}")
    print(f"probe round trip (ms, n={pr['n']}): p50 {pr['p50']} max {pr['max']}, failures {pr['failures']}")
    if args.json:
        print(json.dumps(out), flush=True)
    responsive = pr["n"] > 0 and pr["failures"] == 0 and (pr["max"] or 0) <= args.max_probe * 1000
    print("host responsive: " + ("yes" if responsive else "NO"), flush=True)
    return 0 if responsive else 1


if __name__ == "__main__":
    sys.exit(main())
