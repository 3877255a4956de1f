"""The explicit table of games: name -> where its ``GameSpec`` lives (no folder scanning).

A ``GameSpec`` is found lazily by importing the module named in ``GAMES``, so listing games never
imports pygame; a game's view is built through ``make_scene`` only by the app.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable


class UnknownGame(KeyError):
    def __str__(self) -> str:  # KeyError quotes its argument; give a readable line instead
        return str(self.args[0]) if self.args else "unknown game"


@dataclass(frozen=True)
class GameSpec:
    """Everything the app needs to offer a game.

    ``make_rules()`` -> a Rules object; ``make_scene(app, match, **opts)`` -> the game's Scene (imports
    pygame); ``agents`` maps bot names to factories ``(seed) -> Agent``; ``rules_text`` is the path of the
    in-app rules (``games/<g>/rules.md``).
    """

    name: str
    title: str
    summary: str
    make_rules: Callable[[], Any]
    make_scene: Callable[..., Any]
    rules_text: Path
    agents: dict[str, Callable[..., Any]] = field(default_factory=dict)
    default_agent: str = ""
    players: str = "1"
    #: real-time games are played by seats ("human", "bot:LEVEL") given with --players
    realtime: bool = False
    make_bot: Callable[..., Any] | None = None
    default_players: tuple[str, ...] = ()
    #: ``make_setup(app, spec)`` -> a dialog Scene that starts the match (the launcher's Play opens it)
    make_setup: Callable[..., Any] | None = None
    #: Turn-based games with seats (hot-seat humans and bots): the bot levels offered ("easy", ...).
    #: ``make_bot(seat, level, seed)`` then returns an Agent for that seat.
    levels: tuple[str, ...] = ()
    #: ``cli_options(parser)`` adds the game's own flags to ``play`` and ``selfplay`` (e.g. ``--size``).
    cli_options: Callable[[Any], None] | None = None
    #: ``make_config(options, seats) -> config`` from those flags (``options``: argparse Namespace,
    #: ``seats``: list of "human" / "bot:LEVEL"); raises ``ValueError`` with a reason.
    make_config: Callable[[Any, list[str]], dict] | None = None
    #: ``selfplay(match, seats, emit)`` -> the game's own part of one selfplay game, a
    #: :class:`sim.core.selfplay.SelfplayGame` (None: that class as it is).
    selfplay: Callable[..., Any] | None = None
    #: Seats of ``playtable selfplay`` without ``--players`` (empty: ``default_players``).
    selfplay_players: tuple[str, ...] = ()
    #: Config keys holding one value per seat (e.g. a handicap): selfplay rotates them with the seats.
    seat_keys: tuple[str, ...] = ()
    #: ``bench(out)``: the game's ``playtable bench`` figures (``out(text)`` prints one line).
    bench: Callable[[Callable[[str], None]], None] | None = None
    #: The game's options (:class:`sim.core.options.Option`): its flags, set-up dialog rows and config
    #: check come from these.
    options: tuple = ()
    #: The config key holding the number of seats (None: the game always has the same number).
    players_key: str | None = "players"

    def has_flags(self) -> bool:
        return self.cli_options is not None or any(not o.dialog_only for o in self.options)

    def add_flags(self, parser: Any) -> None:
        """The game's own flags for ``play`` / ``selfplay`` on an argparse ``parser``."""
        if self.cli_options is not None:
            self.cli_options(parser)
        else:
            from .options import add_flags
            add_flags(parser, self.options)

    def config_for(self, flags: Any, seats: list[str]) -> dict:
        """The match config for ``seats`` ("human", "bot:LEVEL") and the game's flags given
        (``flags``: an argparse Namespace), before the rules check it."""
        if self.make_config is not None:
            return self.make_config(flags, seats)
        from .options import from_flags
        cfg: dict[str, Any] = {"seats": list(seats)}
        if self.players_key:
            cfg[self.players_key] = len(seats)
        cfg.update(from_flags(self.options, flags))
        return cfg
    #: Real-time games: the levels ``make_bot(seat, level, seed)`` takes (turn-based games list theirs
    #: in ``levels``).
    bot_levels: tuple[str, ...] = ()
    #: Whether the game can be hosted on the LAN (``playtable host``, the launcher's Host a game). The
    #: game needs the rules' ``observe``, ``state_to_json`` and ``state_from_json``.
    lan: bool = False
    #: ``make_lan_scene(app, client, host, address)`` -> the game's own LAN lobby/screen for a joined
    #: ``sim.net.client.Client`` (``host``: the ``Host`` this app runs, or None). None: the shared lobby,
    #: then the game's own scene on a ``sim.net.remote.RemoteMatch``.
    make_lan_scene: Callable[..., Any] | None = None
    #: ``lan_choose(view, seat, rng) -> action | None``: a scripted LAN player for ``join --auto`` that
    #: reads the raw ``view`` of a ``state`` message (None: wait). None: a random legal action of the
    #: seat's ``RemoteMatch.state``.
    lan_choose: Callable[..., Any] | None = None
    #: ``lan_events(events, seat) -> events``: the events ``seat`` may be told (e.g. a gift's tile only to
    #: its giver; a turn-based game whose screen reacts to its events, e.g. Streetcar's move list, sends
    #: them too). None: no events are sent, each ``state`` message carries the view.
    lan_events: Callable[[list, int], list] | None = None
    #: ``lan_check(msg)``: a client's further check of a ``state`` message from the host (e.g. its
    #: ``events``), after the protocol's own checks and the view read back by ``rules.state_from_json``;
    #: raises ``ValueError`` (or any error) if this game's screen could not show it, and the client
    #: drops it. None: no further check.
    lan_check: Callable[[dict], None] | None = None
    #: Turn-based games whose every action is public to every seat (no hidden draws): the host sends
    #: the applied action log with each view, so a remote screen can show the move list and replay it.
    lan_log: bool = False
    #: Games played with a live hand (Tokami's pile): ``make_lan_live(rules)`` -> the host's live part
    #: (``sim.net.host.LivePart``: the seat's hand stream in, the physics stepped on the host, ``live``
    #: frames out). None: no hand stream.
    make_lan_live: Callable[..., Any] | None = None
    #: ``lan_live_check(msg)``: a client's check of a ``live`` message's game part (raises ``ValueError``
    #: or any error if this game's screen could not show it; the client drops it).
    lan_live_check: Callable[[dict], None] | None = None
    #: ``lan_auto(remote, seed)`` -> a scripted player for ``join --auto`` of a game played with a live
    #: hand: its ``step()`` is called every 20 ms or so and sends this seat's hand and intents itself
    #: (``remote``: the seat's ``RemoteMatch``). None: ``lan_choose`` or a random legal action.
    lan_auto: Callable[..., Any] | None = None

    @property
    def seated(self) -> bool:
        """Whether the game is played by seats given with ``--players`` (real-time or turn-based)."""
        return self.realtime or bool(self.levels)

    @property
    def seat_levels(self) -> tuple[str, ...]:
        """The bot levels of a seated game (``levels`` or ``bot_levels``)."""
        return self.levels or self.bot_levels


#: name -> "module:attribute" of its GameSpec. Only playable games are listed.
GAMES: dict[str, str] = {
    "gobble-solitaire": "games.gobble:SOLITAIRE",
    "gobble": "games.gobble:RACE",
    "tumbleweed": "games.tumbleweed:SPEC",
    "tokami": "games.tokami:SPEC",
    "streetcar": "games.streetcar:SPEC",
    "tomtube": "games.tomtube:SPEC",
}


def lazy(target: str) -> Callable[..., Any]:
    """A function that imports ``"module:attr"`` when first called and calls it with its arguments, so a
    game's package names its rules, screen and dialog without importing them (nor pygame) up front."""
    mod, attr = target.split(":")

    def call(*args: Any, **kw: Any) -> Any:
        return getattr(importlib.import_module(mod), attr)(*args, **kw)
    call.__qualname__ = call.__name__ = f"lazy({target})"
    return call


def game_names() -> list[str]:
    return list(GAMES)


def register(name: str, target: str) -> Callable[[], None]:
    """Add game ``name`` whose spec is at ``target`` ("module:attribute"), e.g. a game kept with the
    tests. Returns a function that takes the entry out again (and restores one it replaced).
    Raises ``ValueError`` for a target that is not "module:attribute"."""
    mod, sep, attr = target.partition(":")
    if not name or not sep or not mod or not attr:
        raise ValueError(f"a game is registered as 'module:attribute', not {target!r}")
    had = name in GAMES
    old = GAMES.get(name)
    GAMES[name] = target

    def unregister() -> None:
        if GAMES.get(name) != target:
            return
        if had:
            GAMES[name] = old
        else:
            del GAMES[name]
    return unregister


def get_spec(name: str) -> GameSpec:
    """The spec of game ``name``; raises :class:`UnknownGame` naming the known games."""
    try:
        target = GAMES[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(GAMES)})") from None
    mod, attr = target.split(":")
    return getattr(importlib.import_module(mod), attr)
