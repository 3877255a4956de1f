"""The ``playtable`` command (specs/DESIGN.md "CLI").

::

    playtable [--headless] [--frames N] [--screenshot PATH]            launcher
    playtable [--headless ...] play GAME [--seed S]                     start a game
    playtable selfplay GAME --games N --seed S [--bot NAME] [--json]    headless bot games
    playtable play gobble --players human,bot:hard,bot:medium [--handicap 3,0,0] [--seed S]
    playtable selfplay gobble --players bot:hard,bot:easy --games N --seed S [--json]
    playtable replay FILE [--headless]                                  replay a saved record
    playtable play GAME --players human,bot:medium [GAME FLAGS]         turn-based games with seats
    playtable selfplay GAME --players bot:hard,bot:easy --games N --seed S [--json] [GAME FLAGS]
    playtable bench [GAME]                                              print speed figures
    playtable host GAME [--bind ADDR] [--port P] [--players N] [--bots bot:hard,...] [GAME FLAGS]
                                                                        LAN host (gobble, tumbleweed, ...)
    playtable join HOST:PORT --name N [--token T] [--auto]              join a LAN game (prints state)

Bad input (unknown game, bad flag, unreadable or illegal record) prints one line on stderr and exits
with status 2; nothing is written.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from sim.core.match import check_setup

EXIT_USAGE = 2

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


class UsageError(Exception):
    """Bad command-line input: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one clear line, no usage dump
        raise UsageError(message)


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return v


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None


def _nonnegative(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= v <= 3600.0:
        raise argparse.ArgumentTypeError(f"a number of seconds from 0 to 3600, not {text!r}")
    return v


def _port(text: str) -> int:
    v = _int(text)
    if not 0 <= v <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}")
    return v


def game_flags_help() -> str:
    """Each game's own flags for ``play`` / ``selfplay`` (``GameSpec.add_flags``), as help text."""
    from sim.core.registry import game_names, get_spec

    lines = ["game flags (after the game's name):"]
    for name in game_names():
        try:
            spec = get_spec(name)
        except Exception:  # noqa: BLE001 - a broken game must not break --help
            continue
        if not spec.has_flags():
            continue
        gp = argparse.ArgumentParser(add_help=False)
        spec.add_flags(gp)
        for act in gp._actions:
            flag = ", ".join(act.option_strings)
            if act.metavar:
                flag += f" {act.metavar}"
            elif act.choices:
                flag += " " + "|".join(str(c) for c in act.choices)
            elif act.nargs != 0:
                flag += f" {act.dest.upper()}"
            lines.append(f"  {name:<11} {flag:<34} {act.help or ''}")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    from sim.core.registry import game_names

    names = ", ".join(game_names())
    p = _Parser(prog="playtable", description="Playtable: table games with real rules and opponents. "
                f"Games: {names}. With no command, the launcher opens.",
                epilog="Bad input prints one line on stderr and exits with status 2.")
    p.add_argument("--headless", action="store_true", help="run without a window (dummy video driver)")
    p.add_argument("--frames", type=_positive, help="stop after N frames")
    p.add_argument("--screenshot", metavar="PATH", help="save the last frame as PNG")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)

    flags = game_flags_help()
    play = sub.add_parser("play", help="start a game", description="Start a new game in the window.",
                          epilog=flags, formatter_class=argparse.RawDescriptionHelpFormatter)
    play.add_argument("game", help=f"one of: {names}")
    play.add_argument("--seed", type=_int, help="seed of the game's random draws (default: random)")
    play.add_argument("--players", help="seats, e.g. human,bot:hard,bot:medium (games with seats)")
    play.add_argument("--handicap", help="real-time games: extra tiles per seat, e.g. 3,0,0")

    sp = sub.add_parser("selfplay", help="bots play whole games headless",
                        description="Bots play whole games without a window, as fast as the machine allows.",
                        epilog=flags, formatter_class=argparse.RawDescriptionHelpFormatter)
    sp.add_argument("game", help=f"one of: {names}")
    sp.add_argument("--games", type=_positive, default=10, help="number of games (default 10)")
    sp.add_argument("--seed", type=_int, default=0, help="seed of the first game; game i uses seed+i")
    sp.add_argument("--bot", default=None, help="gobble-solitaire: greedy (default) or random")
    sp.add_argument("--players", help="seats, e.g. bot:hard,bot:easy (games with seats)")
    sp.add_argument("--handicap", help="real-time games: extra tiles per seat, e.g. 3,0")
    sp.add_argument("--baseline", default="random",
                    help="bot to compare with over the same seeds ('none' to skip)")
    sp.add_argument("--json", action="store_true", help="one JSON line per game and a summary line")

    rp = sub.add_parser("replay", help="replay a saved match record",
                        description="Replay a match record: the autosave, a finished game kept in the data "
                        "folder's games/, or a line of `selfplay --json`. With --headless, print the "
                        "final result as one JSON line.")
    rp.add_argument("file", help="a match record (JSON)")
    rp.add_argument("--headless", action="store_true", dest="replay_headless")

    bp = sub.add_parser("bench", help="print speed figures", description="Print speed figures of every game, "
                        "or of one game.")
    bp.add_argument("game", nargs="?", help=f"only this game: {names}")
    bp.add_argument("--idle", type=_nonnegative, default=10.0, metavar="SECONDS",
                    help="seconds of idle CPU measured per screen (default 10; 0 skips it)")

    hp = sub.add_parser("host", help="host a LAN game", description="Host a game for players on "
                        "other machines (sim/net/PROTOCOL.md). Binds to 127.0.0.1 unless --bind is given.",
                        epilog=flags, formatter_class=argparse.RawDescriptionHelpFormatter)
    hp.add_argument("game", help="a game that can be hosted: " + ", ".join(lan_games()))
    hp.add_argument("--bind", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    hp.add_argument("--port", type=_port, default=8765, help="port, 0 to 65535 (default 8765; 0: any free)")
    hp.add_argument("--players", type=_positive, help="number of seats (default: the game's fewest; "
                    "gobble: 2 to 6)")
    hp.add_argument("--bots", default="", help="bot seats, e.g. bot:hard,bot:easy (the rest wait for LAN players)")
    hp.add_argument("--seed", type=_int, help="seed of the game (default: random)")
    hp.add_argument("--record", help="where to save the record (default: the data folder's games/)")

    jp = sub.add_parser("join", help="join a LAN game", description="Join a hosted game in a window (with "
                        "a display), or with --headless / --auto print each message as one JSON line.")
    jp.add_argument("address", help="HOST:PORT")
    jp.add_argument("--name", required=True, help="your name (1 to 32 characters)")
    jp.add_argument("--token", help="rejoin your seat with the token printed when you joined")
    jp.add_argument("--auto", action="store_true", help="play scripted moves from this seat's view (no window)")
    jp.add_argument("--headless", action="store_true", dest="join_headless",
                    help="no window: print each message as one JSON line")
    return p


def lan_games() -> list[str]:
    """The registered games that can be hosted on the LAN (``GameSpec.lan``)."""
    from sim.core.registry import game_names, get_spec

    out = []
    for name in game_names():
        try:
            if get_spec(name).lan:
                out.append(name)
        except Exception:  # noqa: BLE001 - a broken game must not break --help
            continue
    return out


def host_options(spec: Any, args: argparse.Namespace, players: int, bots: list[str]) -> dict:
    """The rest of the hosted game's config from its own flags (``GameSpec.config_for``), checked by
    its rules: everything but the seats. Raises UsageError with the reason."""
    if not spec.has_flags():
        return {}
    seats = ["human"] * max(0, players - len(bots)) + bots
    try:
        cfg = check_setup(spec.make_rules(), spec.config_for(args, seats))
    except ValueError as e:
        raise UsageError(str(e)) from None
    given = spec.config_for(args, seats)
    return {k: v for k, v in cfg.items() if k in given and k not in ("seats", "players", spec.players_key)}


def cmd_host(args: argparse.Namespace) -> int:
    from sim.core.registry import get_spec
    from sim.net.host import Host

    spec = get_spec(args.game)
    if not spec.lan:
        raise UsageError(f"{spec.name} cannot be hosted on the LAN (games that can: {', '.join(lan_games())})")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if spec.levels:
        bots = [f"bot:{spec.levels[0]}" if b == "bot" else b for b in bots]
    players = args.players or spec.make_rules().info.min_players
    options = host_options(spec, args, players, bots)
    try:
        host = Host(spec, players=players, bots=bots, seed=args.seed, bind=args.bind, port=args.port,
                    options=options, record_path=args.record, log=lambda text: print(text, flush=True))
        host.start()
    except (ValueError, OSError) as e:
        raise UsageError(str(e)) from None
    import signal

    def _term(signum, frame):  # a TERM (or an INT where the shell ignores it) ends the game politely
        raise KeyboardInterrupt

    old = {}
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            old[sig] = signal.signal(sig, _term)
        except (ValueError, OSError):  # not the main thread
            pass
    try:
        while not host.finished.wait(0.5):
            pass
        time.sleep(2.0)  # let the clients read the result
    except KeyboardInterrupt:
        pass
    finally:
        host.stop()
        for sig, h in old.items():
            signal.signal(sig, h)
    if host.record_saved:
        print(f"record saved: {host.record_saved}", flush=True)
    return 0


def cmd_join(args: argparse.Namespace) -> int:
    import random as _random

    from sim.core.registry import UnknownGame, get_spec
    from sim.net.client import Client
    from sim.net.remote import RemoteMatch, choose_legal

    addr, _, port = args.address.rpartition(":")
    if not addr or not port.isdigit():
        raise UsageError(f"address must be HOST:PORT, not {args.address!r}")
    client = Client(addr, int(port), args.name, token=args.token)
    window = not (args.auto or getattr(args, "join_headless", False) or getattr(args, "headless", False)) \
        and bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    try:
        client.start()
    except (ConnectionError, OSError) as e:
        raise UsageError(f"could not join {args.address}: {e}") from None
    try:
        spec = get_spec(str(client.welcome.get("game")))
    except UnknownGame:
        client.close(timeout=1.0)
        raise UsageError(f"the host at {args.address} hosts a game this program does not know: "
                         f"{str(client.welcome.get('game'))[:40]!r}") from None
    print(json.dumps({"seat": client.seat, "token": client.token}), flush=True)
    if window:
        from sim.app.lan_window import run_join_window
        try:
            return run_join_window(spec, client, args.address)
        finally:
            client.close(timeout=1.0)
    rng = _random.Random()
    remote = RemoteMatch(spec, client) if spec.lan_choose is None else None
    # a game played with a live hand scripts its hand itself (GameSpec.lan_auto), stepped every 20 ms
    player = (spec.lan_auto(remote, rng.randrange(2 ** 31))
              if args.auto and remote is not None and spec.lan_auto is not None else None)
    sent_at = -1   # turn-based: the host's log length when this seat last sent an intent
    if not client.welcome["started"]:
        client.set_ready(True)  # a scripted join is ready at once (a window's lobby has a Ready toggle)
    shown = ("state", "over", "error", "closing", "rejected", "lobby")
    try:
        while not client.closed.is_set():
            try:
                msg = client.inbox.get(timeout=0.02 if player is not None else 0.1)
            except Exception:  # noqa: BLE001 - queue.Empty
                msg = None
            if msg is not None and msg["type"] in shown:
                print(json.dumps(msg, separators=(",", ":")), flush=True)
                if msg["type"] in ("over", "closing"):
                    break
            if player is not None:
                try:
                    player.step()
                except ValueError as e:
                    raise UsageError(f"the host sent a view this program cannot read: {e}") from None
                except ConnectionError:
                    continue          # the host has gone: what it said last is printed below
            elif remote is not None:
                try:
                    remote.poll()
                except ValueError as e:
                    raise UsageError(f"the host sent a view this program cannot read: {e}") from None
                if args.auto and remote.state is not None and not remote.waiting() and remote.n > sent_at \
                        and client.seat in remote.active_players():
                    action = choose_legal(remote.rules, remote.state, client.seat, rng)
                    if action is not None:
                        sent_at = remote.n
                        try:
                            remote.submit(client.seat, action)
                        except Exception:  # noqa: BLE001 - IllegalAction: wait for the next view
                            pass
            elif args.auto and client.latest is not None and all(
                    q in client.results for q in range(client.welcome["last_seq"] + 1, client._seq + 1)):
                action = spec.lan_choose(client.latest["view"], client.seat, rng)
                if action:
                    try:
                        client.send_intent(action)
                    except ConnectionError:
                        continue
        while True:                   # the host's last words (its closing line) that came with the end
            try:
                msg = client.inbox.get_nowait()
            except Exception:  # noqa: BLE001 - queue.Empty
                break
            if msg["type"] in shown:
                print(json.dumps(msg, separators=(",", ":")), flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        client.close()
    return 0


# ---------------------------------------------------------------- selfplay
def play_bot_game(spec: Any, bot_name: str, seed: int, config: dict | None = None):
    """One whole game of a one-seat ``spec`` (``config``, default the rules' own) by its bot
    ``bot_name`` from ``seed`` (the selfplay driver's); returns the Match."""
    from sim.core import selfplay
    return selfplay.play_game(spec, [f"bot:{bot_name}"], seed, config)


def parse_seats(spec: Any, players: str | None, bots_only: bool = False) -> list[str]:
    """The seats of a turn-based game with seats from ``--players`` (default: ``spec.default_players``).

    Raises UsageError for an unknown seat kind, or a human seat when ``bots_only``."""
    seats = [x.strip() for x in players.split(",")] if players else list(spec.default_players)
    # plain "bot" is the game's first level (e.g. Tom Tube's one bot: --players human,bot)
    seats = [f"bot:{spec.levels[0]}" if x == "bot" and spec.levels else x for x in seats]
    kinds = ["human", "bot"] + [f"bot:{lvl}" for lvl in spec.levels]
    for x in seats:
        if x not in kinds:
            raise UsageError(f"unknown player {x!r} for {spec.name} (use {', '.join(kinds)})")
        if bots_only and x == "human":
            raise UsageError("selfplay seats must all be bots")
    return seats


def game_config(spec: Any, options: argparse.Namespace, bots_only: bool = False) -> dict:
    """The config of a turn-based game with seats from ``--players`` and the game's own flags, checked
    by its rules. Raises UsageError with the rules' reason."""
    seats = parse_seats(spec, getattr(options, "players", None), bots_only)
    try:
        cfg = spec.config_for(options, seats)
        return check_setup(spec.make_rules(), cfg)
    except ValueError as e:
        raise UsageError(str(e)) from None


def flags_config(spec: Any, options: argparse.Namespace | None) -> dict | None:
    """The config of a game without seats from its option flags (None when none is given), checked by
    its rules. Raises UsageError with the rules' reason."""
    if options is None or not spec.options:
        return None
    from sim.core.options import from_flags
    given = from_flags(spec.options, options)
    if not given:
        return None
    try:
        return check_setup(spec.make_rules(), given)
    except ValueError as e:
        raise UsageError(str(e)) from None


def seats_config(spec: Any, players: str | None, handicap: str | None, bots_only: bool = False,
                 options: argparse.Namespace | None = None) -> dict | None:
    """The match config for ``--players`` / ``--handicap`` and the game's flags (None when the game
    takes none of them and none is given).

    Raises UsageError for a game without seats, an unknown seat kind or a bad handicap list."""
    if not spec.realtime:
        if handicap:
            raise UsageError(f"{spec.name} takes no --handicap")
        if spec.levels:
            opts = options if options is not None else argparse.Namespace(players=players)
            return game_config(spec, opts, bots_only)
        if players:
            raise UsageError(f"{spec.name} takes no --players")
        return flags_config(spec, options)
    seats = [x.strip() for x in players.split(",")] if players else list(spec.default_players)
    kinds = ["human"] + [f"bot:{lvl}" for lvl in spec.bot_levels]
    for x in seats:
        if x not in kinds:
            raise UsageError(f"unknown player {x!r} (use {', '.join(kinds)})")
        if bots_only and x == "human":
            raise UsageError("selfplay seats must all be bots")
    cfg: dict[str, Any] = {"players": len(seats), "seats": seats}
    if options is not None and spec.options:
        from sim.core.options import from_flags
        cfg.update(from_flags(spec.options, options))
    if handicap:
        try:
            cfg["handicap"] = [int(x) for x in handicap.split(",")]
        except ValueError:
            raise UsageError(f"--handicap must be whole numbers separated by commas, not {handicap!r}") from None
    try:
        return check_setup(spec.make_rules(), cfg)
    except ValueError as e:
        raise UsageError(str(e)) from None


def cmd_selfplay(args: argparse.Namespace) -> int:
    """``playtable selfplay GAME``: the selfplay driver (``sim.core.selfplay``) for every game, the seats
    from ``--players`` (or the one seat of ``--bot``) and the game's flags, the rules' invariants checked
    after every action, think times and games per second in CPU seconds. Bad seats, bots or flags:
    UsageError before any game is played."""
    from sim.core import selfplay
    from sim.core.registry import get_spec

    spec = get_spec(args.game)
    baseline = None
    if spec.seated:
        if args.bot or (args.handicap and not spec.realtime):
            raise UsageError(f"{spec.name} takes --players, not --bot{'' if spec.realtime else ' or --handicap'}")
        players = args.players or ",".join(spec.selfplay_players) or None
        base = seats_config(spec, players, args.handicap, bots_only=True, options=args)
        seats = list(base["seats"]) if spec.realtime else parse_seats(spec, players, bots_only=True)

        def config_for(sat: list[str]) -> dict:
            return {k: v for k, v in base.items() if k != "seats"}
    else:
        if args.players or args.handicap:
            raise UsageError(f"{spec.name} takes --bot, not --players or --handicap")
        bot = args.bot or spec.default_agent
        if bot not in spec.agents:
            raise UsageError(f"unknown bot {bot!r} for {spec.name} (known: {', '.join(spec.agents)})")
        if args.baseline not in ("none", bot):
            if args.baseline not in spec.agents:
                raise UsageError(f"unknown baseline bot {args.baseline!r} (known: {', '.join(spec.agents)}, none)")
            baseline = f"bot:{args.baseline}"
        seats = [f"bot:{bot}"]
        config = flags_config(spec, args)

        def config_for(sat: list[str]) -> dict | None:
            return config
    try:
        selfplay.run(spec, seats, args.games, args.seed, config_for, bool(args.json), sys.stdout,
                     selfplay.check_invariants, baseline, clock=time.process_time)
    except ValueError as e:
        raise UsageError(str(e)) from None
    return 0


# ------------------------------------------------------------------ replay
def cmd_replay(args: argparse.Namespace, headless: bool) -> int:
    from sim.core.record import RecordError, from_record
    from sim.core.storage import read_json

    try:
        data = read_json(args.file)
    except ValueError as e:
        raise UsageError(str(e)) from None
    if isinstance(data, dict) and "record" in data and "format" not in data:
        data = data["record"]  # a line written by `playtable selfplay --json`
    try:
        match = from_record(data)
    except RecordError as e:
        raise UsageError(f"{args.file}: {e}") from None
    if headless and (getattr(args, "frames", None) or getattr(args, "screenshot", None)):
        # the replay screen itself, without a window: --frames N --screenshot PATH save its last frame
        from sim.app.main import run_app
        return run_app(headless=True, frames=args.frames or 1, screenshot=args.screenshot, replay=match)
    if headless:
        print(json.dumps({"game": match.rules.info.name, "seed": match.seed, "actions": len(match.log),
                          "over": match.is_over(), "result": match.outcome()}, separators=(",", ":")))
        return 0
    from sim.app.main import run_app
    return run_app(headless=False, frames=None, screenshot=None, replay=match)


# -------------------------------------------------------------------- main
def _check_screenshot(path: str) -> None:
    """Raise UsageError unless a PNG can be written at ``path``."""
    shot = Path(path)
    folder = shot.parent if str(shot.parent) else Path(".")
    if shot.is_dir():
        raise UsageError(f"--screenshot {path!r} is a folder, not a file name")
    if not folder.is_dir():
        raise UsageError(f"--screenshot: folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK):
        raise UsageError(f"--screenshot: cannot write in folder {str(folder)!r}")


def _game_flags(args: argparse.Namespace, extra: list[str]) -> None:
    """Parse the game's own flags (``GameSpec.add_flags``) of ``play`` / ``selfplay`` from ``extra``
    into ``args``. Raises UsageError for a flag that neither playtable nor the game knows."""
    spec = None
    if getattr(args, "command", None) in ("play", "selfplay", "host"):
        from sim.core.registry import get_spec
        spec = get_spec(args.game)
    if spec is None or not spec.has_flags():
        if extra:
            raise UsageError(f"unrecognized arguments: {' '.join(extra)}")
        return
    gp = _Parser(prog=f"playtable {args.command} {spec.name}", add_help=False)
    spec.add_flags(gp)
    opts = gp.parse_args(extra)
    for k, v in vars(opts).items():
        setattr(args, k, v)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    from sim.core.registry import UnknownGame
    from sim.core.storage import DataDirError

    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args, extra = build_parser().parse_known_args(argv)
        _game_flags(args, extra)
        headless = bool(args.headless or getattr(args, "replay_headless", False))
        if args.command == "selfplay":
            return cmd_selfplay(args)
        if args.screenshot:
            _check_screenshot(args.screenshot)
        if args.command == "replay":
            if (args.frames or args.screenshot) and not os.environ.get("DISPLAY") \
                    and not os.environ.get("WAYLAND_DISPLAY"):
                headless = True
            return cmd_replay(args, headless)
        if args.command == "host":
            return cmd_host(args)
        if args.command == "join":
            return cmd_join(args)
        if args.command == "bench":
            from sim.app.bench import run_bench
            return run_bench(args.game, args.idle)
        game = None
        seed = None
        config = None
        if args.command == "play":
            from sim.core.registry import get_spec
            spec = get_spec(args.game)
            config = seats_config(spec, args.players, args.handicap, options=args)
            game, seed = args.game, args.seed
        if (args.frames or args.screenshot) and not headless and not os.environ.get("DISPLAY") \
                and not os.environ.get("WAYLAND_DISPLAY"):
            headless = True
        from sim.app.main import run_app
        return run_app(headless=headless, frames=args.frames, screenshot=args.screenshot, game=game, seed=seed,
                       config=config)
    except UsageError as e:
        print(f"playtable: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except (UnknownGame, DataDirError) as e:
        print(f"playtable: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
