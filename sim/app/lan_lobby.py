"""The LAN lobby shared by every game that can be hosted (``GameSpec.lan``): seats, names, ready
marks and the Ready toggle, fed by a :class:`sim.net.client.Client`; nothing here waits on the network
(the client runs in its own thread) and nothing here names a game.
"""
from __future__ import annotations

from typing import Any

import pygame

from .scene import Scene
from .widgets import Button, clean_text


def lobby_scene(app: Any, spec: Any, client: Any, host: Any, address: str) -> Any:
    """The first scene of a joined LAN game: the game's own lobby (``spec.make_lan_scene``), or the
    shared :class:`LobbyScene`."""
    if spec.make_lan_scene is not None:
        return spec.make_lan_scene(app, client, host, address)
    return LobbyScene(app, client, host, address, spec)


def leave(client: Any, host: Any) -> None:
    """Close ``client`` (politely) and stop ``host`` if this app runs it; quick, never raises."""
    try:
        if client is not None:
            client.close(timeout=1.0)
    except Exception:  # noqa: BLE001
        pass
    try:
        if host is not None:
            host.stop(timeout=3.0)
    except Exception:  # noqa: BLE001
        pass


class LobbyScene(Scene):
    """The lobby of game ``spec``: the address to share, each seat with its name and a ready mark (a
    check mark and "Ready", or a hollow circle and "Not ready"), a Ready toggle for this machine's seat
    (button or key R) and a line saying what the game waits for. The host starts the game when every
    seat is taken and every LAN player is ready (bots always are); the first view then opens the game
    (:meth:`open_game`: the game's own scene, :meth:`game_scene`, on a
    :class:`~sim.net.remote.RemoteMatch`, pushed over this lobby, which leaves the host when the
    game's scene is closed)."""

    word = "game"   # what is played: "the game starts"

    def __init__(self, app: Any, client: Any, host: Any = None, address: str | None = None,
                 spec: Any = None):
        super().__init__(app)
        self.spec = spec
        self.title = f"{spec.title if spec is not None else 'LAN'} (LAN lobby)"
        self.remote: Any = None
        self.client = client
        self.lan_host = host
        self.address = address or client.url.replace("ws://", "")
        self.handed_over = False
        self.want: bool | None = None   # the flag last asked for, until the host reports it
        self.b_ready = Button((430, 660, 240, 50), "Ready (R)", self.toggle_ready, hotkey=pygame.K_r,
                              style="primary", font_size=18)
        self.b_leave = Button((690, 660, 160, 50), "Leave", self.do_leave, font_size=18)

    # ------------------------------------------------------------------ state
    def ready(self) -> bool:
        """This seat's ready flag as shown: the one last asked for while the host has not answered."""
        return self.client.is_ready if self.want is None else self.want

    def can_toggle(self) -> bool:
        c = self.client
        return c.welcome is not None and not c.started and not c.closed.is_set() and c.closing is None

    def toggle_ready(self) -> None:
        """Ready / not ready for this machine's seat (the R key)."""
        if not self.can_toggle():
            return
        want = not self.ready()
        try:
            self.client.set_ready(want)
        except ConnectionError:
            return
        self.want = want

    def waiting(self) -> tuple[int, list[int]]:
        """(free seats, taken seats not ready), from the host's last lobby message."""
        names = list(self.client.names or [])
        ready = list(self.client.ready or [False] * len(names))
        unready = [i for i, n in enumerate(names) if n is not None and not ready[i]]
        return sum(n is None for n in names), unready

    def options_text(self) -> str:
        """The game's options as the host set them, in the game's own words ("Dice: Classic · Share
        hands: Off · Draw pile: 101 tiles"); "" for a game without options."""
        from sim.core.options import dialog_options

        given = self.client.options or {}
        parts = []
        for o in dialog_options(getattr(self.spec, "options", ())):
            v = given.get(o.key, o.default)
            vals, labels = o.dialog_values(), o.dialog_labels()
            text = labels[vals.index(v)] if v in vals else str(v)
            parts.append(f"{o.label}: {text}")
        return " · ".join(parts)

    def status(self) -> str:
        """What the game waits for, in one line ("Waiting for 2 players to be ready")."""
        free, unready = self.waiting()
        mine = self.client.seat in unready
        if not free and unready == [self.client.seat]:
            return "Waiting for you to be ready: press R"
        parts = []
        if free:
            parts.append(f"{free} more player{'s' if free != 1 else ''} to join")
        if unready:
            parts.append(f"{len(unready)} player{'s' if len(unready) != 1 else ''} to be ready")
        if not parts:
            return f"Everyone is ready: the {self.word} starts"
        return "Waiting for " + " and ".join(parts) + (" (you too: press R)" if mine else "")

    # ------------------------------------------------------------------ scene
    def do_leave(self) -> None:
        self.app.pop()

    def on_exit(self) -> None:
        if not self.handed_over or self.remote is not None:
            leave(self.client, self.lan_host)

    def on_enter(self) -> None:
        if self.remote is not None and self.app.top is self:   # back from the game's scene: leave
            self.app.pop()

    def open_game(self) -> None:
        """The game has started: open its own scene on this seat's ``RemoteMatch``, over the lobby."""
        from sim.net.remote import RemoteMatch

        remote = RemoteMatch(self.spec, self.client)
        try:
            remote.poll()
        except ValueError as e:
            self.client.errors.append({"type": "error", "code": "bad_view", "message": str(e)})
            self.client.close(timeout=1.0)
            return
        self.remote = remote
        self.app.push(self.game_scene(remote))

    def game_scene(self, remote: Any) -> Any:
        """The game's scene on ``remote`` (default: the game's own, ``spec.make_scene``)."""
        return self.spec.make_scene(self.app, remote)

    def handle_event(self, event: Any) -> bool:
        for b in (self.b_ready, self.b_leave):
            if b.handle_event(event):
                return True
        return False

    def update(self, dt: float) -> None:
        c = self.client
        if self.want is not None and c.is_ready == self.want:
            self.want = None
        mine = self.ready()
        self.b_ready.enabled = self.can_toggle()
        self.b_ready.label = "Not ready (R)" if mine else "Ready (R)"
        self.b_ready.style = "normal" if mine else "primary"
        # lobby messages only update the client's fields; the game's scene reads the rest itself
        if c.latest is not None and c.welcome is not None and not self.handed_over:
            self.handed_over = True
            self.open_game()

    def draw(self, surface: pygame.Surface) -> None:
        th = self.app.theme
        surface.fill(th.bg)
        f = self.app.font
        c = self.client

        def text(s, size, col, bold=False, **anchor):
            img = f(size, bold).render(s, True, col)
            r = img.get_rect(**anchor)
            surface.blit(img, r)
            return r

        text(f"{self.spec.title if self.spec is not None else ''} · LAN {self.word}", 40, th.text, True,
             midtop=(640, 60))
        text(f"Host address: {self.address}", 22, th.accent, True, midtop=(640, 130))
        opts = self.options_text() if c.welcome is not None else ""
        if opts:
            img = self.app.font(15, True).render(clean_text(opts, 160), True, th.text)
            if img.get_width() > 1200:
                img = pygame.transform.smoothscale(img, (1200, img.get_height() * 1200 // img.get_width()))
            surface.blit(img, img.get_rect(midtop=(640, 194)))
        if self.lan_host is not None:
            text("Players on other computers join with this address (Join a game).", 16, th.text_dim,
                 midtop=(640, 166))
        names = list(c.names or [])
        ready = list(c.ready or [False] * len(names))
        away = list(c.away or [False] * len(names))
        box = pygame.Rect(350, 224, 580, 60 + 46 * max(2, len(names)))
        pygame.draw.rect(surface, th.panel, box, border_radius=14)
        pygame.draw.rect(surface, th.panel_edge, box, 1, border_radius=14)
        text("SEATS", 14, th.text_dim, True, topleft=(box.x + 24, box.y + 18))
        text("READY", 14, th.text_dim, True, topright=(box.right - 24, box.y + 18))
        if c.errors and c.welcome is None:
            text(f"Could not join: {c.errors[-1].get('message')}", 18, th.bad, True, midtop=(640, box.y + 60))
        elif c.welcome is None:
            text("Connecting…", 18, th.text, midtop=(640, box.y + 60))
        else:
            for i, n in enumerate(names):
                y = box.y + 50 + 46 * i
                if i == c.seat:
                    pygame.draw.rect(surface, th.panel_edge, (box.x + 12, y - 8, box.w - 24, 40), 1,
                                     border_radius=8)
                bot = n is not None and str(n).startswith("bot:")
                label = "waiting for a player…" if n is None else f"{str(n)[4:].capitalize()} bot" if bot else n
                if i == c.seat:
                    label += "  (you)"
                elif away[i]:
                    label += "  (reconnecting…)"
                text(f"P{i + 1}", 18, th.accent, True, topleft=(box.x + 24, y))
                text(label, 18, th.text_dim if n is None or away[i] else th.text, n is not None,
                     topleft=(box.x + 80, y))
                if n is None:
                    continue
                on = self.ready() if i == c.seat else ready[i]
                word = "Ready (bot)" if bot else "Ready" if on else "Not ready"
                r = text(word, 17, th.good if on else th.text_dim, on, topright=(box.right - 24, y + 1))
                mark = (r.x - 20, r.centery)
                if on:
                    pygame.draw.circle(surface, th.good, mark, 11)
                    text("✓", 17, th.bg, True, center=mark)
                else:
                    pygame.draw.circle(surface, th.text_dim, mark, 10, 2)
            free, unready = self.waiting()
            col = th.good if not free and not unready else th.text
            text(self.status(), 19, col, True, midtop=(640, box.bottom + 20))
            text(f"The {self.word} starts when every seat is taken and every player is ready; bots always "
                 "are.",
                 15, th.text_dim, midtop=(640, box.bottom + 50))
        if c.closing is not None:
            text(f"The host ended the game: {c.closing}", 18, th.bad, True, midtop=(640, box.bottom + 80))
        elif c.closed.is_set() and c.welcome is not None:
            text("The connection to the host was lost.", 18, th.bad, True, midtop=(640, box.bottom + 80))
        self.b_ready.draw(surface, self.app)
        self.b_leave.draw(surface, self.app)
