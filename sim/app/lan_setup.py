"""The launcher's "Host a game" and "Join a game" dialogs (issue 4), for every game whose ``GameSpec``
has ``lan``; nothing here names a game.

* :class:`HostSetupScene`: the game (the Game button cycles through the games that can be hosted),
  the number of seats, each other seat a LAN player or a bot (the game's
  levels), the game's options (a row of choices per option of its schema, ``GameSpec.options``, as
  in its set-up dialog), the host's own name, the address to bind (127.0.0.1 unless changed) and the port. "Start
  hosting" starts a :class:`sim.net.host.Host` in this app (its own thread), joins it as the first seat
  with a :class:`sim.net.client.Client`, and opens the game's LAN lobby (``spec.make_lan_scene``, or
  the shared :class:`~sim.app.lan_lobby.LobbyScene` that then opens the game's own screen on a
  :class:`~sim.net.remote.RemoteMatch`; the Gobble race's shows the address to share and switches to the race when every seat is taken and every
  LAN player, the host's own player too, is ready).
* :class:`JoinScene`: type ``HOST:PORT`` and a name; "Join" connects, and once the host's welcome
  says which game it hosts, opens that game's LAN lobby.

Nothing here waits on the network: the client connects in its thread and the lobby reports what comes.
"""
from __future__ import annotations

from typing import Any

import pygame

from .scene import Scene
from .widgets import Button, clean_text, mix

DEFAULT_PORT = 8765
OPTIONS_X, OPTIONS_W, OPTION_ROW = 780, 460, 64   # the Host dialog's column of game options (px)


def lan_specs() -> list[Any]:
    """The specs of the registered games that can be hosted and joined from the launcher."""
    from sim.core.registry import game_names, get_spec

    return [s for s in (get_spec(n) for n in game_names()) if s.lan]


def kind_label(kind: str) -> str:
    """"LAN player", or "Easy bot" for ``bot:easy``."""
    return "LAN player" if kind == "lan" else f"{kind[4:].capitalize()} bot"


class TextField:
    """A one-line text box: click to focus, type, Backspace; ``limit`` characters at most; what the
    renderer refuses (NUL, control characters, lone surrogates) never enters it (:func:`clean_text`)."""

    def __init__(self, rect: Any, text: str = "", limit: int = 64, label: str = ""):
        self.rect = pygame.Rect(rect)
        self.text = clean_text(text, limit)
        self.limit = limit
        self.label = label
        self.focused = False

    def handle_event(self, event: Any) -> bool:
        et = event.type
        if et == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.focused = self.rect.collidepoint(event.pos)
            return self.focused
        if not self.focused:
            return False
        if et == pygame.TEXTINPUT:
            self.text = (self.text + clean_text(getattr(event, "text", "")))[: self.limit]
            return True
        if et == pygame.KEYDOWN:
            if event.key == pygame.K_BACKSPACE:
                self.text = self.text[:-1]
                return True
            if event.key in (pygame.K_ESCAPE, pygame.K_TAB, pygame.K_RETURN, pygame.K_KP_ENTER):
                return False
            return True   # letters arrive as TEXTINPUT; keep app keys (M: sound) from firing while typing
        return False

    def draw(self, surface: pygame.Surface, app: Any) -> None:
        th = app.theme
        if self.label:
            img = app.font(15, True).render(self.label, True, th.text_dim)
            surface.blit(img, (self.rect.x, self.rect.y - 24))
        pygame.draw.rect(surface, mix(th.bg, th.panel, 0.6), self.rect, border_radius=8)
        pygame.draw.rect(surface, th.highlight if self.focused else th.panel_edge, self.rect,
                         2 if self.focused else 1, border_radius=8)
        img = app.font(20).render(self.text, True, th.text)
        surface.blit(img, img.get_rect(midleft=(self.rect.x + 12, self.rect.centery)))
        if self.focused and int(app.time * 2) % 2 == 0:
            x = self.rect.x + 14 + img.get_width()
            pygame.draw.line(surface, th.text, (x, self.rect.y + 10), (x, self.rect.bottom - 10), 2)


class _Dialog(Scene):
    """Shared frame: a title, fields, buttons, an error line; Tab moves between fields, Enter submits."""

    heading = ""

    def __init__(self, app: Any):
        super().__init__(app)
        self.fields: list[TextField] = []
        self.error: str | None = None
        self.b_cancel = Button((420, 690, 200, 50), "Cancel", self.cancel, font_size=18)

    def cancel(self) -> None:
        self.app.pop()

    def submit(self) -> None:
        raise NotImplementedError

    def buttons(self) -> list[Button]:
        return [self.b_cancel]

    def handle_event(self, event: Any) -> bool:
        for f in self.fields:
            if f.handle_event(event):
                return True
        for b in self.buttons():
            if b.handle_event(event):
                return True
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.submit()
                return True
            if event.key == pygame.K_TAB and self.fields:
                i = next((k for k, f in enumerate(self.fields) if f.focused), -1)
                for f in self.fields:
                    f.focused = False
                self.fields[(i + 1) % len(self.fields)].focused = True
                return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        th = self.app.theme
        surface.fill(th.bg)
        img = self.app.font(36, True).render(self.heading, True, th.text)
        surface.blit(img, img.get_rect(midtop=(640, 40)))
        for f in self.fields:
            f.draw(surface, self.app)
        for b in self.buttons():
            b.draw(surface, self.app)
        if self.error:
            img = self.app.font(17, True).render(clean_text(self.error, 160), True, th.bad)
            surface.blit(img, img.get_rect(midbottom=(640, 676)))


def _default_name(app: Any, fallback: str) -> str:
    return clean_text(app.settings.get("lan_name") or "", 32).strip() or fallback


class HostSetupScene(_Dialog):
    """Choose the seats and start hosting; the host's own player takes seat 1."""

    def __init__(self, app: Any, spec: Any = None):
        super().__init__(app)
        self.specs = lan_specs()
        self.b_game = Button((600, 236, 440, 40), "", self.next_game, font_size=16)
        self.set_game(spec or self.specs[0])
        self.f_name = TextField((240, 150, 320, 46), _default_name(app, "Host"), 32, "YOUR NAME")
        self.f_bind = TextField((600, 150, 260, 46), "127.0.0.1", 64, "LISTEN ON")
        self.f_port = TextField((900, 150, 140, 46), str(DEFAULT_PORT), 5, "PORT")
        self.fields = [self.f_name, self.f_bind, self.f_port]
        self.b_less = Button((240, 236, 46, 40), "-", lambda: self.set_players(len(self.kinds) - 1), font_size=22)
        self.b_more = Button((400, 236, 46, 40), "+", lambda: self.set_players(len(self.kinds) + 1), font_size=22)
        self.b_start = Button((660, 690, 220, 50), "Start hosting", self.submit, style="primary", font_size=18)

    def set_game(self, spec: Any) -> None:
        """Host game ``spec``: its player counts and bot levels; the seats start over."""
        self.spec = spec
        self.heading = f"Host a {spec.title} game"
        self.b_game.label = f"Game: {spec.title}" + ("  (click for another)" if len(self.specs) > 1 else "")
        info = spec.make_rules().info
        self.min_players, self.max_players = info.min_players, info.max_players
        self.kind_choices = ("lan",) + tuple(f"bot:{lvl}" for lvl in spec.seat_levels)
        self.kinds = ["you"] + ["lan"] * (max(2, self.min_players) - 1)
        from sim.core.options import dialog_options
        self.options = dialog_options(getattr(spec, "options", ()))
        self.values = {o.key: o.default for o in self.options}
        self._build()

    def set_option(self, key: str, value: Any) -> None:
        self.values[key] = value
        self._build()

    def next_game(self) -> None:
        names = [s.name for s in self.specs]
        i = names.index(self.spec.name) if self.spec.name in names else -1
        self.set_game(self.specs[(i + 1) % len(self.specs)])

    def set_players(self, n: int) -> None:
        n = max(self.min_players, min(self.max_players, n))
        self.kinds = (self.kinds + ["lan"] * self.max_players)[:n]
        self._build()

    def cycle(self, i: int) -> None:
        k = self.kinds[i]
        self.kinds[i] = self.kind_choices[(self.kind_choices.index(k) + 1) % len(self.kind_choices)]
        self._build()

    def _build(self) -> None:
        self.seat_buttons = []
        for i in range(1, len(self.kinds)):
            b = Button((460, 300 + 60 * i, 260, 46), kind_label(self.kinds[i]),
                       lambda i=i: self.cycle(i), font_size=17)
            self.seat_buttons.append(b)
        self.option_rows: list[list[Button]] = []
        for k, o in enumerate(self.options):
            vals, labels = o.dialog_values(), o.dialog_labels()
            w = min(120, (OPTIONS_W - 6 * (len(vals) - 1)) // len(vals))
            row = []
            for j, (v, text) in enumerate(zip(vals, labels)):
                on = v == self.values[o.key]
                row.append(Button((OPTIONS_X + j * (w + 6), 338 + OPTION_ROW * k, w, 34),
                                  ("✓ " if on else "") + str(text), lambda k=o.key, v=v: self.set_option(k, v),
                                  style="primary" if on else "normal", font_size=15))
            self.option_rows.append(row)

    def option_values(self) -> dict[str, Any]:
        """The game options chosen, as config keys (the defaults left out)."""
        return {o.key: self.values[o.key] for o in self.options if self.values[o.key] != o.default}

    def buttons(self) -> list[Button]:
        return ([self.b_less, self.b_more, self.b_game] + self.seat_buttons
                + [b for row in self.option_rows for b in row] + [self.b_start, self.b_cancel])

    def submit(self) -> None:
        from sim.net.client import Client
        from sim.net.host import Host

        name = self.f_name.text.strip()
        if not name:
            self.error = "Type your name"
            return
        if name != self.app.settings.get("lan_name"):
            self.app.set_setting("lan_name", name)  # offered again next time
        port_text = self.f_port.text.strip() or "0"
        if not port_text.isdigit() or int(port_text) > 65535:
            self.error = "The port is a number from 0 to 65535"
            return
        bind = self.f_bind.text.strip() or "127.0.0.1"
        bots = [k for k in self.kinds[1:] if k != "lan"]
        try:
            host = Host(self.spec, players=len(self.kinds), bots=bots, bind=bind, port=int(port_text),
                        options=self.option_values(), log=lambda text: print(f"host: {text}", flush=True))
            host.start()
        except (OSError, ValueError, RuntimeError) as e:
            self.error = f"Could not host: {e}".splitlines()[0]
            return
        connect_to = "127.0.0.1" if bind in ("0.0.0.0", "::", "") else bind
        client = Client(connect_to, host.port, name)
        try:
            client.start(wait_welcome=False)
        except Exception as e:  # noqa: BLE001
            host.stop()
            self.error = f"Could not join the new host: {e}"
            return
        from .lan_lobby import lobby_scene
        self.app.replace(lobby_scene(self.app, self.spec, client, host, f"{bind}:{host.port}"))

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        th = self.app.theme
        f = self.app.font
        surface.blit(f(15, True).render("SEATS", True, th.text_dim), (240, 214))
        img = f(26, True).render(str(len(self.kinds)), True, th.text)
        surface.blit(img, img.get_rect(center=(343, 256)))
        surface.blit(f(14).render("127.0.0.1: this computer only; 0.0.0.0: the LAN", True, th.text_dim),
                     (600, 202))
        for i in range(len(self.kinds)):
            y = 300 + 60 * i
            surface.blit(f(20, True).render(f"P{i + 1}", True, th.accent), (400, y + 10))
        if self.options:
            surface.blit(f(15, True).render("GAME OPTIONS", True, th.text_dim), (OPTIONS_X, 290))
        for o, row in zip(self.options, self.option_rows):
            surface.blit(f(15, True).render(o.label, True, th.text), (OPTIONS_X, row[0].rect.y - 21))
        you = f(18, True).render(f"{self.f_name.text.strip() or 'You'} (you, the host)", True, th.text)
        surface.blit(you, you.get_rect(midleft=(470, 323)))
        note = ("Click a seat to switch it between a LAN player and a bot. "
                "The game starts when every seat is taken and every player is ready.")
        img = f(15).render(note, True, th.text_dim)
        surface.blit(img, img.get_rect(midtop=(640, 640)))


class JoinScene(_Dialog):
    """Type the host's address and a name, then Join."""

    heading = "Join a game"

    def __init__(self, app: Any, address: str | None = None):
        super().__init__(app)
        self.client: Any = None    # connecting: the welcome says which game the host runs
        self.f_addr = TextField((340, 200, 600, 50), address or f"127.0.0.1:{DEFAULT_PORT}", 80,
                                "HOST ADDRESS (HOST:PORT, as the host's lobby shows it)")
        self.f_name = TextField((340, 310, 600, 50), _default_name(app, "Player"), 32, "YOUR NAME")
        self.fields = [self.f_addr, self.f_name]
        self.f_addr.focused = True
        self.b_join = Button((660, 690, 220, 50), "Join", self.submit, style="primary", font_size=18)

    def buttons(self) -> list[Button]:
        return [self.b_join, self.b_cancel]

    def submit(self) -> None:
        from sim.net.client import Client

        if self.client is not None:
            return
        addr = self.f_addr.text.strip()
        host, _, port = addr.rpartition(":")
        if not host or not port.isdigit() or int(port) > 65535:
            self.error = "The address is HOST:PORT, e.g. 192.168.1.20:8765"
            return
        name = self.f_name.text.strip()
        if not name:
            self.error = "Type your name"
            return
        if name != self.app.settings.get("lan_name"):
            self.app.set_setting("lan_name", name)  # offered again next time
        client = Client(host.strip("[]"), int(port), name)
        try:
            client.start(wait_welcome=False)
        except Exception as e:  # noqa: BLE001
            self.error = f"Could not join: {e}"
            return
        self.client, self.address = client, addr
        self.error = None

    def cancel(self) -> None:
        if self.client is not None:
            self.client.close(timeout=1.0)
            self.client = None
        super().cancel()

    def update(self, dt: float) -> None:
        """Once the host's welcome arrives, open the lobby of the game it hosts (or say why not)."""
        from sim.core.registry import UnknownGame, get_spec

        c = self.client
        if c is None:
            return
        why = None
        if c.welcome is not None:
            try:
                spec = get_spec(str(c.welcome.get("game")))
            except UnknownGame:
                spec = None
            if spec is not None and spec.lan:
                from .lan_lobby import lobby_scene
                self.client = None
                self.app.replace(lobby_scene(self.app, spec, c, None, self.address))
                return
            why = f"This program cannot show the host's game ({str(c.welcome.get('game'))[:32]})"
        elif c.errors or c.closed.is_set():
            why = f"Could not join: {c.errors[-1]['message'] if c.errors else 'the connection closed'}"
        if why is not None:
            self.error = why
            c.close(timeout=1.0)
            self.client = None

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        if self.client is not None:
            img = self.app.font(17, True).render("Connecting…", True, self.app.theme.text)
            surface.blit(img, img.get_rect(midbottom=(640, 676)))
