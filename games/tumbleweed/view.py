"""The Tumbleweed screen (specs/tumbleweed.md; seed 004 "Options" and "Player preference options").

Layout at the logical 1280x800 px: on the left the notices area (the status line, the stale reminder,
a pass that would end the game, messages and toasts, one box per fact: ``TableScene.draw_notices``),
under it the hexhex board fitted to its side, and under that the hex under the pointer; a side panel
on the right with Rules and Menu, the two players (colour, who plays, running score, whose turn, the
bot's "thinking" mark), the buttons (Pass, Undo, Redo, Hint), the preferences, a legend of the marks on
the board, and the move list in notation with Export (a file in ``data_dir()/tumbleweed-games`` and the
clipboard) and Import (the clipboard's game, else the newest file there).

Edge labels spell the names the move list logs (AbstractPlay notation): the row letter left of each
row; a position in a row is read from the number under the board for the rows up to the middle one and
from the number over the board for the rows above it (:meth:`TumbleweedScene.edge_labels`).

What the screen shows, as the seed's aids and preferences say:

* **Player aid** (a table option, chosen in the set-up dialog and kept in the config): Beginner and
  Intermediate count controlled empty hexes in the running score and show a suicidal move's preview in
  grey; Beginner also highlights controlled hexes (influence) and outlines captures that are not
  suicidal; Expert counts stacks only, shows the preview in the mover's colour without its height, and
  reveals the territory at the end (the end card, and the influence overlay once the game is over).
* **Preferences** (side panel toggles, remembered in ``data_dir()/tumbleweed.json``): move confirmation
  (a click shows the preview, a second click on it plays), last-move highlight (a yellow tone),
  coordinates around the board (AbstractPlay names, ``notation``), influence (controlled empty hexes in
  the controller's colour with a dot or ring, contested ones striped light red; key I) and the capture
  outlines (dashed sky blue). The last two act at the Beginner aid only: at the others their toggles
  are disabled, the reason beside them.
* The stale reminder ("passing is recommended") when the rules raise it, and an end card with both
  players' stacks, territory and score.

Seats: seat 0 is the host (places the starting stacks, and in the free set-up the neutral stack), seat 1
the guest (chooses a colour with two buttons). Each seat is a human at this machine (two humans:
hot-seat) or a bot; a bot thinks in a :class:`sim.ai.worker.BotWorker` (never on the frame) and its move
is shown no sooner than ``BOT_DELAY`` s after the previous one.

Keys: P pass, I influence, C coordinates, R / W choose red / white, Enter play the previewed move,
Ctrl+Z undo (back to before your last move: the bot's replies and your move; hot-seat: the last move),
Ctrl+Y redo, H hint (the strongest bot's move becomes the preview), V the end card / the board, Esc
drops a preview (else the app's menu), F1 rules (the app's).

Scene contract (sim/app/scene.py): positions come from ``event.pos`` only; ``draw`` never changes the
match; animation and bots run from ``update(dt)``.
"""
from __future__ import annotations

import math
import random
import sys
from typing import Any

import pygame

from sim.app.table import TableScene
from sim.app.ui import Notice, button_row
from sim.app.setup_view import SeatSetupScene
from sim.app.widgets import Button, mix, unite_rects
from sim.core import storage
from sim.core.hexgrid import SQRT3, pixel_to_hex
from sim.core.match import Match
from sim.core.rules import IllegalAction
from sim.core.registry import get_spec

from . import draw
from .notation import LETTERS, cell_name, export_text, import_text, move_tokens, replay_tokens, sight_summary
from .rules import (CODE_HEIGHT, CODE_OWNER, COLOUR_NAMES, EMPTY, GUEST, HOST, NEUTRAL, NEUTRAL_HEIGHT, RED,
                    STALE_END, WHITE, TumbleweedState, cell_count, contested, control, is_suicidal,
                    nonsuicidal_captures, preview_height, scores)

W_LOGICAL, H_LOGICAL = 1280, 800
BOARD = pygame.Rect(0, 0, 896, 800)           # the left part of the screen: notices, board, hex info
NOTICES = pygame.Rect(16, 6, BOARD.w - 32, 150)   # the notices area, above the board
BOARD_AREA = pygame.Rect(0, 160, BOARD.w, 612)    # the board with its edge labels is fitted in here
INFO_Y = 785                       # centre of the line naming the hex under the pointer
PANEL = pygame.Rect(896, 0, 384, 800)
PX = PANEL.x + 18                  # panel content left edge
PW = PANEL.w - 36                  # panel content width
PLAYERS_CARD = pygame.Rect(PX, 70, PW, 136)
BUTTONS_Y = 214
OPTIONS_CARD = pygame.Rect(PX, 264, PW, 150)
LEGEND_CARD = pygame.Rect(PX, 422, PW, 94)
MOVES_CARD = pygame.Rect(PX, 524, PW, 224)
BOT_DELAY = 0.5                    # s a move stays on screen before a bot's reply is shown
MOVE_LINE = 21                     # px per line of the move list

#: Preferences (seed "Player preference options") with their defaults and panel labels.
PREF_DEFAULTS = {"confirm": True, "last_move": True, "coords": True, "influence": True, "captures": True}
PREF_LABELS = {"confirm": "Confirm moves", "last_move": "Last move", "coords": "Coordinates (C)",
               "influence": "Influence (I)", "captures": "Capture outlines"}
#: Preferences that only act at the Beginner aid (seed: "This option does not have any effect in
#: Intermediate and Expert player aid level").
BEGINNER_ONLY = ("influence", "captures")
#: Why those toggles are disabled at the other aids (shown beside them).
BEGINNER_ONLY_REASON = "Influence and outlines: Beginner aid only"
#: The folder (in the data folder) exported games are written to and imported from.
GAMES_FOLDER = "tumbleweed-games"

ENDED = {"passes": "two passes in a row", "no_moves": "neither player can place a stack",
         "stale": "the stale rule (5 turns without any change of hands)"}


# ------------------------------------------------------------------------------ preferences
def prefs_path():
    """Where the preferences are kept: ``data_dir()/tumbleweed.json`` (key ``"prefs"``)."""
    return storage.data_dir() / "tumbleweed.json"


def load_prefs() -> dict[str, bool]:
    """The stored preferences over :data:`PREF_DEFAULTS` (unknown keys and non-booleans ignored)."""
    data = storage.load_json_or(prefs_path(), {})
    out = dict(PREF_DEFAULTS)
    prefs = data.get("prefs") if isinstance(data, dict) else None
    if isinstance(prefs, dict):
        for k in PREF_DEFAULTS:
            if isinstance(prefs.get(k), bool):
                out[k] = prefs[k]
    return out


def save_prefs(prefs: dict[str, bool]) -> None:
    """Store the preferences atomically; a write error is reported on stderr and otherwise ignored."""
    data = storage.load_json_or(prefs_path(), {})
    if not isinstance(data, dict):
        data = {}
    data["prefs"] = {k: bool(prefs.get(k, v)) for k, v in PREF_DEFAULTS.items()}
    try:
        storage.write_json_atomic(prefs_path(), data)
    except OSError as e:
        print(f"playtable: cannot save Tumbleweed preferences: {e}", file=sys.stderr)


# ------------------------------------------------------------------------------ export and import
def games_folder():
    """Where exported games are written and imports are looked for: ``data_dir()/tumbleweed-games``."""
    return storage.data_dir() / GAMES_FOLDER


def export_game(match: Match) -> tuple[Any, bool]:
    """Write ``match``'s move list in notation (``notation.export_text``) to a new ``.txt`` file in
    :func:`games_folder` and put it on the clipboard where pygame offers one: ``(path, copied)``.
    Raises ``OSError`` when the file cannot be written."""
    import time

    text = export_text(match)
    folder = games_folder()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    n = 0
    while (folder / f"tumbleweed-{stamp}-{n:02d}.txt").exists():
        n += 1
    path = folder / f"tumbleweed-{stamp}-{n:02d}.txt"
    with open(path, "x", encoding="utf-8") as f:
        f.write(text)
    return path, _put_clipboard(text)


def _put_clipboard(text: str) -> bool:
    try:
        pygame.scrap.put_text(text)
        return pygame.scrap.get_text() == text
    except Exception:  # noqa: BLE001 - no clipboard (headless, no window): the file is enough
        return False


def _clipboard_text() -> str:
    try:
        text = pygame.scrap.get_text() if pygame.scrap.has_text() else ""
    except Exception:  # noqa: BLE001 - no clipboard
        return ""
    return text if isinstance(text, str) else ""


def import_source() -> tuple[str, str] | None:
    """What Import reads, as ``(where, text)``: the clipboard when it holds a game (tag lines), else
    the newest ``.txt`` file in :func:`games_folder`; None when there is neither. Raises
    ``ValueError`` with a reason when that file cannot be read."""
    clip = _clipboard_text()
    if "[" in clip and "]" in clip and "Tumbleweed" in clip:
        return "the clipboard", clip
    folder = games_folder()
    files = sorted(folder.glob("*.txt"), key=lambda p: (p.stat().st_mtime, p.name)) if folder.is_dir() else []
    if not files:
        return None
    path = files[-1]
    return path.name, storage.read_text_bounded(path)


def imported_match(text: str, config: dict) -> Match:
    """The game in ``text`` (``notation.import_text``) replayed at a table with ``config``'s seats
    and aid. Raises ``ValueError`` with a reason (a bad tag, the first bad move, no moves)."""
    game = import_text(text)
    tokens = move_tokens(game)
    if not tokens:
        raise ValueError("it holds no moves")
    cfg = dict(config)
    for k in ("size", "setup", "strict", "stale"):
        cfg[k] = game.config[k]
    return replay_tokens(cfg, tokens)


# ------------------------------------------------------------------------------ set-up dialog
class TumbleweedSetupScene(SeatSetupScene):
    """The launcher's set-up dialog for Tumbleweed: the two seats (P1 the host, P2 the guest) and the
    table options size, set-up, scoring and player aid. The config it starts has no ``players`` key
    (Tumbleweed always has two seats)."""

    def _build(self) -> None:
        super()._build()
        # wider option buttons than the generic dialog's, so "Intermediate" fits
        right = self.box.right - 36
        for row in self.option_rows:
            x0 = row[0].rect.x
            n = len(row)
            w = min(160, (right - x0 - 6 * (n - 1)) // n)
            for j, btn in enumerate(row):
                btn.rect.x = x0 + j * (w + 6)
                btn.rect.w = w


def describe_config(config: dict) -> str:
    """One line about a validated config for the set-up dialog."""
    n = config["size"]
    side = f"Side {n} (the standard board)" if n == 8 else f"Side {n}"
    setup = "P1 sets up (neutral stack too)" if config["setup"] == "free" else "P1 sets up"
    return f"{side}: {cell_count(n)} hexes. {setup}, P2 picks a colour, red starts."


def make_setup_scene(app: Any, spec: Any) -> TumbleweedSetupScene:
    """The set-up dialog (``GameSpec.make_setup``)."""
    return TumbleweedSetupScene(app, spec, min_players=2, max_players=2, max_handicap=0,
                                describe=describe_config, heading="New game")


# ------------------------------------------------------------------------------ demo positions
def demo_match(size: int = 8, plies: int = 30, seed: int = 1, level: str = "easy",
               config: dict | None = None) -> Match:
    """A match played by two ``level`` bots (node-budgeted, so no clock is read) until ``plies`` play
    turns have been made or the game ends: for screenshots, tests and benchmarks."""
    from .ai import make_agent
    from .rules import TumbleweedRules

    rules = TumbleweedRules()
    cfg = {"size": size, "seats": ["human", "human"], **(config or {})}
    m = Match(rules, cfg, seed)
    agents = [make_agent(level, seed * 2 + k, node_budget=2000) for k in (0, 1)]
    while not m.is_over() and m.state.ply < plies:
        p = m.active_players()[0]
        m.submit(p, agents[p].select_action(rules, m.state, p))
    return m


def frame_times(size: int = 11, frames: int = 240, plies: int = 60) -> dict[str, list[tuple[float, float]]]:
    """Frame times of the real loop on a middle-game board of side ``size`` (hot-seat, so no bot runs),
    by ``sim.app.framebench.run_frames``: the pointer wanders over the board (previews, sight lines);
    every 20th frame a move is played and then taken back, so the position layer is redrawn."""
    from sim.app.framebench import run_frames

    m = demo_match(size, plies, seed=2)
    cells = list(m.state.geo.cells)
    undo = [False]

    def drive(scene, match, i):
        if undo[0] and match.can_undo():
            match.undo()
        undo[0] = False
        x, y = scene.cell_pos(cells[(i * 37) % len(cells)])
        ev = [pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(1, 1), buttons=(0, 0, 0))]
        if i % 20 == 10 and not match.is_over():
            seat = match.active_players()[0]
            legal = [a for a in match.rules.legal_actions(match.state, seat) if a["t"] == "place"]
            if legal:
                match.submit(seat, legal[i % len(legal)])
                undo[0] = True
                return ev, "after a move"
        return ev, "hover"
    return run_frames(_spec(), m, drive, frames, prefs=dict(PREF_DEFAULTS, confirm=False))


def _spec():
    SPEC = get_spec("tumbleweed")  # through the registry: the package's __init__ imports this module
    return SPEC


# ------------------------------------------------------------------------------------ scene
class TumbleweedScene(TableScene):
    """A Tumbleweed match on ``match`` (any state: it draws whatever position the match is in).

    ``opts``: ``prefs`` (a dict over :data:`PREF_DEFAULTS`; default: the stored preferences).
    """


    title = "Tumbleweed"
    opaque = True          # draw() covers the screen: the board layer, then the panel

    BOT_DELAY = BOT_DELAY

    def __init__(self, app: Any, match: Match, **opts: Any):
        super().__init__(app, match, _spec())
        self.aid: str = match.config.get("aid", "beginner")
        prefs = opts.get("prefs")
        self.prefs: dict[str, bool] = dict(PREF_DEFAULTS)
        self.prefs.update(load_prefs() if prefs is None else {k: bool(v) for k, v in prefs.items()
                                                              if k in PREF_DEFAULTS})
        self.hover: tuple[int, int] | None = None
        self.pending: tuple[int, int] | None = None      # the previewed placement (confirmation)
        self.setup_red: tuple[int, int] | None = None    # the host's red hex while choosing white
        self.pass_armed = False                          # a game-ending pass waits for a second press
        self.move_scroll = 0                             # lines scrolled up from the end of the list
        self._stacks = draw.Stacks(lambda size: self.app.font(size, True))
        self._board_cache: tuple[tuple, pygame.Surface] | None = None
        self._pos_cache: tuple[tuple, Any, pygame.Surface, list] | None = None   # (options, state, layer, looks)
        self._areas: tuple[tuple, list] | None = None
        self._panel_cache: tuple[tuple, pygame.Surface] | None = None
        self._polys: dict[tuple, list] = {}             # hex corners per (zoom, scale, cell)
        self._moves_cache: tuple[tuple, list[str]] | None = None
        self._layout()
        self._build_buttons()
        self.on_enter()

    # ------------------------------------------------------------------ seats
    def who(self, colour: int) -> str:
        """"Red (you)", "White (hard bot)", "Red (Player 1)", "Red (Bob)" style label of the player of ``colour``."""
        seat = self.state.seat_of(colour)
        name = COLOUR_NAMES[colour].capitalize()
        if seat is None:
            return name
        kind = self.seats[seat]
        humans = sum(1 for s in self.seats if s == "human")
        if kind == "human":
            who = "you" if humans == 1 else f"Player {seat + 1}"
        elif kind.startswith("lan:"):     # a player at another machine, by the name they joined with
            who = kind[4:] or f"Player {seat + 1}"
        else:
            level = kind.split(":", 1)[1]
            who = f"{level} bot" if humans else f"bot {seat + 1}, {level}"
        return f"{name} ({who})"

    def influence_shown(self) -> bool:
        """The influence overlay: Beginner aid with the preference on, or any aid once the game is over
        (the territory is revealed at the end)."""
        return self.prefs["influence"] and (self.aid == "beginner" or self.match.is_over())

    def captures_shown(self) -> bool:
        return (self.prefs["captures"] and self.aid == "beginner" and self.state.phase == "play"
                and self.human_turn())

    def shown_scores(self) -> dict[str, dict[str, Any]]:
        """Per colour: ``{"stacks", "territory", "score", "territory_shown"}`` as the aid allows: Expert
        shows stacks only until the game is over."""
        sc = scores(self.state)
        hide = self.aid == "expert" and not self.match.is_over()
        out = {}
        for name, v in sc.items():
            out[name] = dict(v, territory_shown=not hide)
            if hide:
                out[name]["score"] = v["stacks"]
        return out

    # ------------------------------------------------------------------ geometry
    def _layout(self) -> None:
        n = self.state.size
        # the board with a ring of labels: 2n+1 hexes wide, 3n+1 corner radii high (labels included)
        s_w = (BOARD_AREA.w - 24) / (SQRT3 * (2 * n + 1))
        s_h = (BOARD_AREA.h - 6) / (3 * n + 1)
        self.s = max(8, int(min(s_w, s_h)))
        self.origin = BOARD_AREA.center
        self._board_rect: pygame.Rect | None = None

    def edge_labels(self) -> list[tuple[str, tuple[int, int], tuple[int, int], tuple[int, int]]]:
        """The labels around the board as ``(text, cell, step, centre px)``: ``cell`` is the off-board
        hex the label stands on and ``step`` the axial step a reader follows from it into the board;
        every hex reached names the label's part of its AbstractPlay name (``notation.cell_name``).
        Row letters stand left of their rows (step right). A position in a row runs along a line that
        bends at the middle row: at and below it the line runs up-left from a number under the board,
        at and above it down-left from a number over the board, so each number is written twice (at
        the bottom for the lower half, at the top for the upper half), as on AbstractPlay's board."""
        n = self.state.size
        s = self.s
        cells = self.state.geo.cells
        out = []
        first: dict[int, int] = {}
        for q, r in cells:
            first[r] = min(first.get(r, q), q)
        for r in sorted(first):
            x, y = self.cell_pos((first[r] - 1, r))
            out.append((LETTERS[n - 1 - r], (first[r] - 1, r), (1, 0), (round(x + s * 0.15), y)))
        low: dict[int, tuple[int, int]] = {}
        high: dict[int, tuple[int, int]] = {}
        for q, r in cells:
            j = int(cell_name(n, (q, r))[1:])
            if r >= 0 and (j not in low or r > low[j][1]):
                low[j] = (q, r)
            if r <= 0 and (j not in high or r < high[j][1]):
                high[j] = (q, r)
        for j, (q, r) in sorted(low.items()):     # under the lower half: the line runs up-left
            x, y = self.cell_pos((q, r + 1))
            out.append((str(j), (q, r + 1), (0, -1), (round(x - s * 0.2), round(y - s * 0.3))))
        for j, (q, r) in sorted(high.items()):    # over the upper half: the line runs down-left
            x, y = self.cell_pos((q + 1, r - 1))
            out.append((str(j), (q + 1, r - 1), (-1, 1), (round(x - s * 0.2), round(y + s * 0.3))))
        return out

    def label_size(self) -> int:
        """The edge labels' text size (px)."""
        return max(9, round(self.s * 0.5))

    def board_rect(self) -> pygame.Rect:
        """The board with its rim and edge labels (logical px); the notices stay clear of it."""
        if self._board_rect is None:
            ox, oy = self.origin
            n, s = self.state.size, self.s
            rad = n * SQRT3 * s
            rect = pygame.Rect(0, 0, math.ceil(2 * rad), math.ceil(2 * rad * math.sin(math.radians(60))))
            rect.center = (ox, oy)
            font = self.app.font(self.label_size(), True)
            for text, _cell, _step, centre in self.edge_labels():
                w, h = font.size(text)
                rect.union_ip(pygame.Rect(centre[0] - w // 2, centre[1] - h // 2, w, h))
            self._board_rect = rect
        return self._board_rect

    def notices_rect(self) -> pygame.Rect:
        return NOTICES

    def cell_pos(self, cell) -> tuple[int, int]:
        """Screen centre (px) of axial ``cell``."""
        q, r = cell
        return (round(self.origin[0] + self.s * SQRT3 * (q + r / 2)), round(self.origin[1] + self.s * 1.5 * r))

    def cell_at(self, pos) -> tuple[int, int] | None:
        """The board hex under ``pos`` (px), or None."""
        if not BOARD.collidepoint(pos):
            return None
        c = pixel_to_hex(pos[0] - self.origin[0], pos[1] - self.origin[1], self.s)
        return c if self.state.geo.on_board(c) else None

    # ------------------------------------------------------------------ buttons
    def _build_buttons(self) -> None:
        self.panel_buttons = button_row(PX, BUTTONS_Y, PW, 40, (
            ("Pass", self.do_pass, "P"), ("Undo", self.do_undo, "Ctrl+Z"), ("Redo", self.do_redo, "Ctrl+Y"),
            ("Hint", self.do_hint, "H")))
        self.b_pass, self.b_undo, self.b_redo, self.b_hint = self.panel_buttons
        # Rules and Menu beside the title
        self.b_rules = Button((PANEL.right - 18 - 150, 14, 72, 32), "Rules", self.do_rules, font_size=15,
                              tooltip="F1")
        self.b_menu = Button((PANEL.right - 18 - 72, 14, 72, 32), "Menu", self.do_menu, font_size=15,
                             style="quiet", tooltip="Esc")
        self.panel_buttons += [self.b_rules, self.b_menu]
        # the move list's export and import, in the header of its card
        self.b_export = Button((MOVES_CARD.right - 168, MOVES_CARD.y + 6, 76, 26), "Export", self.do_export,
                               font_size=13, tooltip="the move list to a file and the clipboard")
        self.b_import = Button((MOVES_CARD.right - 86, MOVES_CARD.y + 6, 76, 26), "Import", self.do_import,
                               font_size=13, tooltip="a move list from the clipboard or the newest file")
        self.panel_buttons += [self.b_export, self.b_import]
        self.pref_buttons: dict[str, Button] = {}
        half = (PW - 28 - 8) // 2
        for k, key in enumerate(PREF_DEFAULTS):
            x = OPTIONS_CARD.x + 14 + (k % 2) * (half + 8)
            y = OPTIONS_CARD.y + 34 + (k // 2) * 38
            self.pref_buttons[key] = Button((x, y, half, 32), "", lambda key=key: self.toggle_pref(key),
                                            font_size=14)
        # the guest's colour choice (a card over the board)
        box = self.choice_box()
        half = (box.w - 36 - 10) // 2
        self.b_red = Button((box.x + 18, box.bottom - 56, half, 42), "Red: 1st (R)",
                            lambda: self.do_choose("red"), style="primary", font_size=16)
        self.b_white = Button((box.x + 28 + half, box.bottom - 56, half, 42), "White: 2nd (W)",
                              lambda: self.do_choose("white"), font_size=16)
        self.end_buttons_for(self.end_box(), (BOARD.right - 196, BOARD_AREA.bottom + 1, 180, 27))
        self.b_show.font_size = 14    # under the board, right of the hex line
        self._refresh_buttons()

    def choice_box(self) -> pygame.Rect:
        """The colour-choice card: in the panel, over the preferences, so the whole board stays visible."""
        return pygame.Rect(PX, OPTIONS_CARD.y, PW, OPTIONS_CARD.h)

    def end_box(self) -> pygame.Rect:
        box = pygame.Rect(0, 0, 600, 330)
        box.center = (BOARD.centerx, BOARD.centery)
        return box

    def _refresh_buttons(self) -> None:
        st = self.state
        human = self.human_turn()
        self.b_pass.enabled = st.phase == "play" and human
        self.b_pass.label = "Pass!" if self.pass_armed else "Pass"
        self.b_undo.enabled = self.can_undo()
        self.b_redo.enabled = self.can_redo()
        self.b_hint.enabled = self.hint_refusal() is None
        self.b_import.enabled = not self.remote and not self.reviewing()
        for key, b in self.pref_buttons.items():
            b.enabled = self.pref_active(key)
            on = self.prefs[key] and b.enabled
            b.label = ("✓ " if on else "") + PREF_LABELS[key]
            b.style = "primary" if on else "normal"

    def pref_active(self, key: str) -> bool:
        """Whether preference ``key`` acts at this table's aid: the influence and capture outlines only
        at Beginner (the influence also once the game is over, when the territory is revealed)."""
        if key not in BEGINNER_ONLY or self.aid == "beginner":
            return True
        return key == "influence" and self.match.is_over()

    def choosing(self) -> bool:
        """Whether the colour-choice card is up (a human guest chooses)."""
        return self.state.phase == "choose" and self.human_turn()

    def active_buttons(self) -> list[Button]:
        over = self.match.is_over()
        if over and self.show_result:
            return list(self.end_buttons)
        out = list(self.panel_buttons)
        if self.choosing():
            out += [self.b_red, self.b_white]
        else:
            out += list(self.pref_buttons.values())
        if over:
            out.append(self.b_show)
        return out

    # ------------------------------------------------------------------ actions
    def click_cell(self, cell: tuple[int, int]) -> None:
        """A left click on board hex ``cell``."""
        st = self.state
        if self.match.is_over():
            return
        seat = self.to_act()
        if seat is None:
            return
        if self.played_elsewhere(seat):
            self.refuse(f"Wait: {self.seat_name(seat)} is to play")
            return
        if st.phase == "neutral":
            self.submit_as(seat, {"t": "neutral", "q": cell[0], "r": cell[1]})
        elif st.phase == "setup":
            owner, _h = st.stack(cell)
            if owner != EMPTY:
                self.refuse("that hex holds the neutral stack: the starting stacks go on empty hexes")
            elif self.setup_red is None:
                self.setup_red = cell
                self._sound("click")
            elif self.setup_red == cell:
                self.setup_red = None
                self._sound("click")
            else:
                red = self.setup_red
                if self.submit_as(seat, {"t": "setup", "red": list(red), "white": list(cell)}):
                    self.setup_red = None
        elif st.phase == "choose":
            self.refuse("choose a colour first: red moves first, white second")
        elif st.phase == "play":
            act = {"t": "place", "q": cell[0], "r": cell[1]}
            try:
                self.rules.check(st, seat, act)
            except IllegalAction as e:
                self.pending = None
                self.refuse(str(e))
                return
            if self.prefs["confirm"] and self.pending != cell:
                self.pending = cell
                self._sound("click")
                return
            self.pending = None
            self.submit_as(seat, act)

    def confirm_pending(self) -> None:
        """Play the previewed placement (Enter)."""
        if self.pending is not None and self.state.phase == "play" and self.human_turn():
            cell = self.pending
            self.pending = None
            self.submit_as(self.to_act(), {"t": "place", "q": cell[0], "r": cell[1]})

    def do_pass(self) -> None:
        """Pass (P). With confirmation on, a pass that would end the game (the opponent has just
        passed) needs a second press."""
        st = self.state
        if st.phase != "play" or not self.human_turn():
            if st.phase in ("neutral", "setup", "choose"):
                self.refuse("set-up steps cannot be passed")
            return
        if st.passes >= 1 and self.prefs["confirm"] and not self.pass_armed:
            self.pass_armed = True
            self.say("Your opponent passed: passing now ends the game. Press Pass (P) again to end it.",
                     self.theme.accent, 5.0, fact="passed")
            self._sound("click")
            return
        self.pass_armed = False
        self.pending = None
        self.submit_as(self.to_act(), {"t": "pass"})

    def after_undo(self) -> None:
        self.pending = None
        self.setup_red = None
        self.pass_armed = False

    def show_hint(self, action: dict) -> None:
        """The hinted placement becomes the preview (Enter plays it); other hints are said in words."""
        t = action.get("t")
        if t == "place":
            self.pending = (action["q"], action["r"])
            self.say(f"Hint: {cell_name(self.state.size, self.pending)}: Enter plays it", self.theme.accent, 6.0)
        elif t == "pass":
            self.say("Hint: pass (P)", self.theme.accent, 6.0)
        elif t == "setup":
            n = self.state.size
            self.setup_red = tuple(action["red"])
            self.say(f"Hint: red at {cell_name(n, tuple(action['red']))}, white at "
                     f"{cell_name(n, tuple(action['white']))}", self.theme.accent, 6.0)
        elif t == "neutral":
            self.say(f"Hint: the neutral stack at {cell_name(self.state.size, (action['q'], action['r']))}",
                     self.theme.accent, 6.0)
        elif t == "choose":
            self.say(f"Hint: choose {action['colour']}", self.theme.accent, 6.0)

    def do_export(self) -> None:
        """Export: the move list in notation to a new file in the data folder and to the clipboard."""
        try:
            path, copied = export_game(self.match)
        except OSError as e:
            self.refuse(f"the move list could not be saved: {e.strerror or e}")
            return
        self.say(f"Move list saved as {path.parent.name}/{path.name} in the data folder"
                 + (", and copied to the clipboard" if copied else ""), self.theme.good, 5.0, fact="file")
        self._sound("click")

    def do_import(self) -> None:
        """Import: the game on the clipboard, else the newest file in the games folder, replayed at this
        table (same seats and aid) as a new match; this one stays autosaved. A bad game changes nothing
        and one message says why."""
        if self.remote or self.reviewing():
            self.unavailable("no import in a game on the LAN or a replay")
            return
        try:
            src = import_source()
        except ValueError as e:
            self.refuse(f"import failed: {e}")
            return
        if src is None:
            self.refuse(f"nothing to import: copy a move list, or put a .txt file in {GAMES_FOLDER} "
                        "in the data folder")
            return
        where, text = src
        try:
            match = imported_match(text, dict(self.match.config, seats=[x.text() for x in self.match.seats]))
        except ValueError as e:
            self.refuse(f"not imported: {where} is not a game this table can play ({e})")
            return
        scene = self.app.start_match(self.spec, match, prefs=dict(self.prefs))
        scene.say(f"Imported from {where}: {len(move_tokens(match))} moves", self.theme.good, 5.0, fact="file")
        self._sound("start")

    def do_choose(self, colour: str) -> None:
        if not self.choosing():
            return
        self.submit_as(self.to_act(), {"t": "choose", "colour": colour})

    def toggle_pref(self, key: str) -> None:
        """Flip preference ``key`` and remember it; one that does not act at this aid is left alone
        and the reason said."""
        if not self.pref_active(key):
            self.unavailable(f"{PREF_LABELS[key].split(' (')[0]} shows at the Beginner aid only; this "
                             f"table plays at the {self.aid.capitalize()} aid")
            return
        self.prefs[key] = not self.prefs[key]
        save_prefs(self.prefs)
        on = "on" if self.prefs[key] else "off"
        self.say(f"{PREF_LABELS[key].split(' (')[0]}: {on}", self.theme.text_dim, fact="pref")
        if key == "confirm" and not self.prefs[key]:
            self.pending = None
        self._sound("click")

    # ------------------------------------------------------------------ match events
    def _on_events(self, match: Match, events: list) -> None:
        self.pending = None
        self.pass_armed = False
        self.move_scroll = 0
        th = self.theme
        sounds = []
        for e in events:
            kind = e.get("e")
            if kind == "place":
                sounds.append("gobble" if e.get("kind") == "capture" else "place")
            elif kind == "pass":
                sounds.append("out")
                seat = e.get("seat")
                if seat is not None and match.state.phase == "play":
                    self.say(f"{self.who(RED if e['colour'] == 'red' else WHITE)} passed: a pass now ends the game",
                             th.text_dim, 3.0, fact="passed")
            elif kind in ("setup", "neutral", "choose"):
                sounds.append("place" if kind != "choose" else "click")
            elif kind == "stale_reminder":
                self.say("Nothing has changed hands for 3 turns: passing is recommended", th.accent, 5.0,
                         fact="stale")
            elif kind == "end":
                sounds.append(self.end_sound(e.get("winner")))
                self.show_result = True
        if sounds:
            self._sound(sounds[-1])

    # ------------------------------------------------------------------ bots
    def make_agent(self, seat: int, level: str, seed: int, cancelled: Any) -> Any:
        from .ai import make_agent
        return make_agent(level, seed, cancel=cancelled)

    def _fallback(self, st: TumbleweedState, seat: int) -> dict:
        """A legal action when a bot fails: a random placement, else a pass (else the first action)."""
        acts = self.rules.legal_actions(st, seat)
        places = [a for a in acts if a["t"] != "pass"]
        rng = random.Random(f"{self.match.seed}/{self.match.cursor}")
        return rng.choice(places) if places else acts[0]

    # ------------------------------------------------------------------ input
    def handle_input(self, event: Any) -> bool:
        et = event.type
        if self.buttons_take(event):
            return True
        if et == pygame.MOUSEMOTION:
            self.hover = self.cell_at(event.pos)
            return True
        if et in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            if et == pygame.MOUSEBUTTONUP:
                return True
            if event.button == 3:
                self.pending = None
                self.setup_red = None
                return True
            if event.button != 1:
                return True
            if self.match.is_over() and self.show_result:
                return True
            cell = self.cell_at(event.pos)
            self.hover = cell
            if cell is not None:
                self.click_cell(cell)
            elif BOARD.collidepoint(event.pos):
                self.pending = None
            self._refresh_buttons()
            return True
        if et == pygame.MOUSEWHEEL:
            steps = self.wheel.feed(event)
            if steps:
                self.move_scroll = max(0, self.move_scroll + steps)
            return True
        if et == pygame.KEYDOWN:
            consumed = self._key(event)
            self._refresh_buttons()
            return consumed
        return False

    def _key(self, event: Any) -> bool:
        k = event.key
        mods = getattr(event, "mod", 0)
        if mods & (pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META):
            return False
        if k == pygame.K_ESCAPE:
            if self.pending is not None or self.setup_red is not None or self.pass_armed:
                self.pending = None
                self.setup_red = None
                self.pass_armed = False
                return True
            return False   # the app: back to the launcher (the match stays autosaved)
        if k == pygame.K_p:
            self.do_pass()
        elif k == pygame.K_i:
            self.toggle_pref("influence")
        elif k == pygame.K_c:
            self.toggle_pref("coords")
        elif k == pygame.K_v:
            self.do_toggle_result()
        elif k in (pygame.K_r, pygame.K_w) and self.choosing():
            self.do_choose("red" if k == pygame.K_r else "white")
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.confirm_pending()
        else:
            return False
        return True

    # ------------------------------------------------------------------ update
    def board_busy(self) -> bool:
        """Redraw policy: only the chosen hex of a move waiting for confirmation pulses."""
        pv = self.preview()
        return bool(pv is not None and pv["firm"] and pv["legal"])

    def settle(self) -> None:
        if self.pending is not None and not (self.state.phase == "play" and self.human_turn()):
            self.pending = None

    # ------------------------------------------------------------------ drawing helpers
    def red(self):
        return draw.red_colour(self.theme)

    def _hex(self, surface, cell, fill=None, edge=None, width=1, scale=1.0) -> None:
        key = (self.s, scale, cell)
        pts = self._polys.get(key)
        if pts is None:
            x, y = self.cell_pos(cell)
            pts = self._polys[key] = draw.hex_points(x, y, self.s * scale)
        if fill is not None:
            pygame.draw.polygon(surface, fill, pts)
        if edge is not None:
            pygame.draw.polygon(surface, edge, pts, width)

    # ------------------------------------------------------------------ board layers
    def _board_layer(self) -> pygame.Surface:
        """The empty board with its coordinates (cached per size, zoom, palette and the preference)."""
        st = self.state
        key = (st.size, self.s, self.theme.name, self.prefs["coords"])
        if self._board_cache is not None and self._board_cache[0] == key:
            return self._board_cache[1]
        surf = pygame.Surface(BOARD.size, pygame.SRCALPHA)
        geo = st.geo
        n = st.size
        s = self.s
        # the rim: a flat-top hexagon around the pointy-top cells
        ox, oy = self.origin
        rad = n * SQRT3 * s
        big = [(ox + rad * math.cos(math.radians(60 * i)), oy + rad * math.sin(math.radians(60 * i)))
               for i in range(6)]
        pygame.draw.polygon(surf, draw.BOARD_RIM, big)
        pygame.draw.polygon(surf, mix(draw.BOARD_RIM, (0, 0, 0), 0.4), big, 2)
        for cell in geo.cells:
            self._hex(surf, cell, draw.CELL, draw.CELL_EDGE, 1, 0.97)
        if self.prefs["coords"]:
            col = mix(self.theme.text, draw.BOARD_RIM, 0.15)
            size = self.label_size()
            for text, _cell, _step, (x, y) in self.edge_labels():
                self._blit_text(surf, text, size, col, True, center=(x - BOARD.x, y - BOARD.y))
        self._board_cache = (key, surf)
        return surf

    def _position_layer(self) -> pygame.Surface:
        """The board, the overlays (influence, last move, capture outlines) and the stacks of the
        current position on one opaque surface (kept per display options: after a move only the hexes
        that look different are painted again, see :meth:`_cell_looks`)."""
        st = self.state
        infl = self.influence_shown()
        caps = self.captures_shown()
        last = self.prefs["last_move"]
        key = (st.size, self.s, self.theme.name, infl, caps, last, self.prefs["coords"])
        prev = self._pos_cache
        if prev is not None and prev[0] == key and prev[1] is st:
            return prev[2]
        looks = self._cell_looks(st, infl, caps, last)
        if prev is None or prev[0] != key:
            # one opaque surface with the board under the position: a frame is then a single plain blit
            surf = pygame.Surface(BOARD.size)
            surf.fill(self.theme.bg)
            surf.blit(self._board_layer(), (0, 0))
            self._paint_position(surf, st, looks, None)
        else:
            surf = prev[2]
            for rect in self._changed_areas(st, prev[3], looks):
                surf.set_clip(rect)
                surf.fill(self.theme.bg)
                surf.blit(self._board_layer(), (0, 0))
                self._paint_position(surf, st, looks, rect)
            surf.set_clip(None)
        self._pos_cache = (key, st, surf, looks)
        return surf

    def _cell_looks(self, st, infl: bool, caps: bool, last: bool) -> list[tuple]:
        """What the position layer shows on each hex (index of ``geo.cells``): its influence mark, its
        stack, whether it is the last move, whether a capture is outlined there."""
        n = len(st.geo.cells)
        marks: list = [None] * n
        if infl:
            status = control(st)
            cont = set(contested(st))
            for i in range(n):
                if status[i] >= 5 or (status[i] == 4 and i in cont):
                    marks[i] = status[i]
        lastcell = st.last if last else None
        capped = set(nonsuicidal_captures(st)) if caps else set()
        cells = st.geo.cells
        return [(marks[i], st.code[i] if CODE_OWNER[st.code[i]] else 0, i == lastcell, cells[i] in capped)
                for i in range(n)]

    def _cell_areas(self, st) -> list[pygame.Rect]:
        """Where anything drawn for each hex (index of ``geo.cells``) in the position layer can reach
        (px, generous: a tall stack, the stripes, the outlines); remembered per zoom and origin."""
        key = (st.size, self.s, tuple(self.origin))
        if self._areas is None or self._areas[0] != key:
            r = math.ceil(self.s * 1.8) + 6
            rects = []
            for cell in st.geo.cells:
                x, y = self.cell_pos(cell)
                rects.append(pygame.Rect(x - r, y - r, 2 * r, 2 * r))
            self._areas = (key, rects)
        return self._areas[1]

    def _changed_areas(self, st, old: list[tuple], new: list[tuple]) -> list[pygame.Rect]:
        """Non-overlapping rectangles around the hexes whose look changed."""
        areas = self._cell_areas(st)
        rects = [areas[i] for i in range(len(new)) if old[i] != new[i]]
        return unite_rects(rects)

    def _paint_position(self, surf, st, looks: list[tuple], clip: pygame.Rect | None) -> None:
        """The overlays and stacks of ``st`` onto ``surf`` (over the board), in the layer's order; with
        ``clip`` (``surf``'s clip) only the hexes whose area (:meth:`_cell_areas`) reaches into it."""
        geo = st.geo
        s = self.s
        red = self.red()
        cells = geo.cells
        todo = range(len(cells)) if clip is None else clip.collidelistall(self._cell_areas(st))
        fill_red, fill_white = draw.territory_fill(RED, red), draw.territory_fill(WHITE, red)
        dot = mix(red, (0, 0, 0), 0.15)
        for i in todo:
            mark = looks[i][0]
            if mark is None:
                continue
            cell = cells[i]
            x, y = self.cell_pos(cell)
            if mark == 5:
                self._hex(surf, cell, fill_red, None, 1, 0.97)
                pygame.draw.circle(surf, dot, (x, y), max(2, s * 0.16))
            elif mark == 6:
                self._hex(surf, cell, fill_white, None, 1, 0.97)
                pygame.draw.circle(surf, draw.WHITE_EDGE, (x, y), max(3, s * 0.2), max(1, round(s * 0.07)))
            else:
                draw.stripes(surf, x, y, s, draw.CONTESTED, max(2, round(s * 0.1)))
        lastcell = next((i for i in todo if looks[i][2]), None)
        if lastcell is not None:
            self._hex(surf, cells[lastcell], mix(draw.CELL, draw.LAST_MOVE, 0.7), None, 1, 0.97)
        for i in todo:
            c = st.code[i]
            o = CODE_OWNER[c]
            if o:
                h = c // 49 % 7
                self._stacks.blit(surf, o, h, self.cell_pos(cells[i]), s, red)
        if lastcell is not None:
            self._hex(surf, cells[lastcell], None, draw.LAST_MOVE, max(2, round(s * 0.12)), 0.93)
        for i in todo:
            if looks[i][3]:
                x, y = self.cell_pos(cells[i])
                draw.dashed_hex(surf, x, y, s * 0.96, draw.CAPTURE_MARK, max(2, round(s * 0.11)))

    # ------------------------------------------------------------------ draw
    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(self._position_layer(), BOARD.topleft)
        self._draw_previews(surface)
        self._draw_panel(surface)
        if self.match.is_over():
            if self.show_result:
                self._draw_result(surface)
            else:
                self.b_show.draw(surface, self.app)
        self._draw_status(surface)      # the notices last: an end card never hides them

    def preview(self) -> dict[str, Any] | None:
        """The would-be stack shown under the pointer (or on the clicked hex, ``firm``), as the aid
        level says: ``{"cell", "owner", "height", "grey", "number", "firm", "legal"}``; None when no
        human is to place or the pointer is off the board. Beginner/Intermediate: the height, grey when
        suicidal; Expert: the mover's colour only (one token, no number). In the set-up it is the
        neutral or starting stack the click would place."""
        st = self.state
        if self.match.is_over() or not self.human_turn():
            return None
        if self.pending is not None and st.phase == "play":
            cell, firm = self.pending, True
        else:
            cell, firm = self.hover, False
        if cell is None:
            return None
        if st.phase == "neutral":
            return {"cell": cell, "owner": NEUTRAL, "height": NEUTRAL_HEIGHT, "grey": False, "number": True,
                    "firm": False, "legal": True}
        if st.phase == "setup":
            legal = st.stack(cell)[0] == EMPTY and cell != self.setup_red
            return {"cell": cell, "owner": WHITE if self.setup_red is not None else RED, "height": 1,
                    "grey": False, "number": True, "firm": False, "legal": legal}
        if st.phase != "play":
            return None
        height = preview_height(st, cell)
        legal = height > st.stack(cell)[1]          # seen, and taller than what stands there
        expert = self.aid == "expert"
        return {"cell": cell, "owner": st.to_move, "height": 1 if expert else height,
                "grey": legal and not expert and is_suicidal(st, cell), "number": not expert, "firm": firm,
                "legal": legal}

    def _draw_previews(self, surface) -> None:
        st = self.state
        s = self.s
        red = self.red()
        if st.phase == "setup" and self.setup_red is not None and self.human_turn():
            self._stacks.blit(surface, RED, 1, self.cell_pos(self.setup_red), s, red)
            self._hex(surface, self.setup_red, None, self.theme.highlight, 2, 0.95)
        pv = self.preview()
        if pv is None:
            return
        cell = pv["cell"]
        x, y = self.cell_pos(cell)
        if not pv["legal"]:
            if st.phase == "play":
                draw.dashed_hex(surface, x, y, s * 0.9, mix(self.theme.bad, draw.CELL, 0.3), 2, 4)
            return
        if st.phase == "play" and self.aid != "expert":
            self._draw_sight(surface, cell, pv["owner"])
        if pv["firm"]:
            pulse = 0.5 + 0.5 * math.sin(self.clock * 5.0)
            self._hex(surface, cell, None, mix(self.theme.accent, (255, 255, 255), pulse * 0.5),
                      max(2, round(s * 0.12)), 0.97)
        self._stacks.blit(surface, pv["owner"], pv["height"], (x, y), s, red, grey=pv["grey"],
                          number=pv["number"], alpha=235 if pv["firm"] else 150)

    def _draw_sight(self, surface, cell, mover: int) -> None:
        """Lines from the previewed hex to every stack that sees it: the mover's solid, the opponent's
        dashed (Beginner and Intermediate aids); each seeing stack is drawn again over its line, so
        the line runs under its numeral."""
        st = self.state
        i = st.index(cell)
        x0, y0 = self.cell_pos(cell)
        seers = self.sight_stacks(cell)
        for d in range(6):
            b = st.near[i * 6 + d]
            if b < 0:
                continue
            o = CODE_OWNER[st.code[b]]
            if o not in (RED, WHITE):
                continue
            x1, y1 = self.cell_pos(st.geo.cells[b])
            col = self.red() if o == RED else draw.WHITE_TOKEN
            if o == mover:
                pygame.draw.line(surface, col, (x0, y0), (x1, y1), max(2, round(self.s * 0.09)))
            else:
                segs = max(2, int(math.hypot(x1 - x0, y1 - y0) / (self.s * 0.5)))
                for k in range(0, segs, 2):
                    a, b2 = k / segs, min(1.0, (k + 1) / segs)
                    pygame.draw.line(surface, col, (x0 + (x1 - x0) * a, y0 + (y1 - y0) * a),
                                     (x0 + (x1 - x0) * b2, y0 + (y1 - y0) * b2), 2)
        red = self.red()
        for b in seers:
            c = st.code[b]
            self._stacks.blit(surface, CODE_OWNER[c], CODE_HEIGHT[c], self.cell_pos(st.geo.cells[b]), self.s, red)

    def sight_stacks(self, cell) -> list[int]:
        """Indices of the red and white stacks that see ``cell`` (one per line at most)."""
        st = self.state
        i = st.index(cell)
        out = []
        for d in range(6):
            b = st.near[i * 6 + d]
            if b >= 0 and CODE_OWNER[st.code[b]] in (RED, WHITE):
                out.append(b)
        return out

    def status_text(self) -> tuple[str, tuple]:
        """The line over the board: whose turn and what to do."""
        th = self.theme
        st = self.state
        seat = self.to_act()
        if self.match.is_over():
            return self.result_line(), th.panel
        name = self.seat_name(seat)
        bot = self.is_bot(seat)
        you = name == "You"
        if st.phase == "neutral":
            if bot:
                return f"{name} places the neutral stack…", th.panel
            return (f"{'Free set-up: ' if you else name + ': '}click a hex for the neutral 2-stack", th.panel)
        if st.phase == "setup":
            if bot:
                return f"{name} places the starting stacks…", th.panel
            who = "" if you else name + ": "
            if self.setup_red is None:
                return f"{who}set-up: click a hex for red's starting stack", th.panel
            return f"{who}now a hex for white's starting stack (red's again to move it)", th.panel
        if st.phase == "choose":
            if bot:
                return f"{name} chooses a colour…", th.panel
            return f"{'' if you else name + ': '}choose your colour (red moves first)", th.panel
        colour = COLOUR_NAMES[st.to_move]
        if bot:
            return f"{self.who(st.to_move)} is thinking…", th.panel
        if self.pending is not None:
            h = preview_height(st, self.pending)
            warn = " (suicidal)" if self.aid != "expert" and is_suicidal(st, self.pending) else ""
            what = f"a {h}-stack" if self.aid != "expert" else "your stack"
            return f"Click again (or Enter) to place {what} on {cell_name(st.size, self.pending)}{warn}", th.panel
        who = "Your move" if you else f"{name} to move"
        return f"{who} ({colour}): click a hex your stacks see  ·  P pass", th.panel

    def result_line(self) -> str:
        out = self.match.outcome()
        red, white = out["red"]["score"], out["white"]["score"]
        if red == white:
            return f"Game over: a draw, {red}–{white}"
        w = RED if red > white else WHITE
        return f"Game over: {self.who(w)} wins {max(red, white)}–{min(red, white)}"

    def notices(self) -> list[tuple[str, str]]:
        """Standing notes under the status line as ``(kind, text)``: ``("stale", ...)`` while the rules'
        stale reminder is on (seed "Game end reminder"), ``("passed", ...)`` when the opponent has just
        passed (a pass now ends the game)."""
        st = self.state
        out = []
        if self.match.is_over() or st.phase != "play":
            return out
        if st.reminder:
            left = max(0, STALE_END - st.stale)
            out.append(("stale", "Stale game: passing is recommended (it ends after "
                        f"{left} more turn{'s' if left != 1 else ''} without change)"))
        if st.passes == 1:
            passer = WHITE if st.to_move == RED else RED
            out.append(("passed", f"{self.who(passer)} passed: a pass now ends the game"))
        return out

    def status_notice(self) -> Notice:
        text, col = self.status_text()
        return Notice("status", text[:1].upper() + text[1:], self.theme.text, col, 17)

    def standing_notices(self) -> list[Notice]:
        th = self.theme
        out = []
        for kind, note in self.notices():
            if kind == "stale":
                out.append(Notice(kind, note, th.text, mix(th.accent, (0, 0, 0), 0.35)))
            else:
                out.append(Notice(kind, note, th.text_dim, mix(th.panel, th.bg, 0.3)))
        return out

    def _draw_status(self, surface) -> None:
        th = self.theme
        st = self.state
        self.draw_notices(surface)
        # the hex under the pointer, in notation (under the board)
        if self.hover is not None:
            name = cell_name(st.size, self.hover)
            info = name if self.aid == "expert" or st.phase != "play" else \
                f"{name}  ·  seen by {sight_summary(st, self.hover)}"
            self._blit_text(surface, info, 14, th.text_dim, midleft=(14, INFO_Y))

    def _panel_background(self, choosing: bool) -> pygame.Surface:
        """The panel's fixed parts (fill, title, config line, cards, key help), cached."""
        th = self.theme
        key = (th.name, choosing, self.aid)
        if self._panel_cache is not None and self._panel_cache[0] == key:
            return self._panel_cache[1]
        canvas = pygame.Surface((W_LOGICAL, H_LOGICAL))   # drawn in screen coordinates, then cut out
        canvas.fill(th.panel, PANEL)
        pygame.draw.line(canvas, th.panel_edge, PANEL.topleft, PANEL.bottomleft)
        st = self.state
        self._blit_text(canvas, "Tumbleweed", 24, th.text, True, topleft=(PX, 16))
        cfg = self.match.config
        line = (f"side {st.size}  ·  {cfg.get('setup', 'original')} set-up  ·  "
                f"{'stacks only' if cfg.get('strict') else 'territory'}  ·  {self.aid}")
        self._blit_text(canvas, line, 13, th.text_dim, topleft=(PX, 48))
        self._card(canvas, PLAYERS_CARD)
        self._card(canvas, MOVES_CARD, "MOVES")
        if not choosing:
            self._card(canvas, OPTIONS_CARD, "PREFERENCES")
            if self.aid != "beginner":   # why two toggles are disabled
                slot = self.pref_buttons["captures"].rect.move(self.pref_buttons["captures"].rect.w + 8, -4)
                slot.w = OPTIONS_CARD.right - 10 - slot.x
                slot.h += 8
                self.kit.blit_lines(canvas, BEGINNER_ONLY_REASON, slot, 12, th.text_dim)
        self._card(canvas, LEGEND_CARD, "ON THE BOARD")
        keys = ["P pass  ·  I influence  ·  C coordinates  ·  H hint", "Ctrl+Z / Y undo, redo  ·  F1 rules  ·  Esc menu"]
        for i, k in enumerate(keys):
            self._blit_text(canvas, k, 13, th.text_dim, midtop=(PANEL.centerx, 756 + i * 19))
        surf = canvas.subsurface(PANEL).copy()
        self._panel_cache = (key, surf)
        return surf

    def _draw_panel(self, surface) -> None:
        choosing = self.choosing()
        surface.blit(self._panel_background(choosing), PANEL.topleft)
        self._draw_players(surface)
        for b in self.panel_buttons:
            b.draw(surface, self.app)
        self._draw_legend(surface)
        if choosing:
            self._draw_moves(surface)
            self._draw_choice(surface)
            return
        for b in self.pref_buttons.values():
            b.draw(surface, self.app)
        self._draw_moves(surface)

    def legend(self) -> list[str]:
        """The kinds of mark on the board now, in the legend's order: "controlled", "contested"
        (influence), "capture" (dashed outline of a capture that is not suicidal), "last" (the last
        move), "suicidal" (a grey preview) and "sight" (the preview's lines to the stacks that see it),
        or, while the pointer is on a hex the mover cannot take, "illegal" (its dashed red outline)."""
        out = []
        if self.influence_shown() and self.state.phase not in ("neutral", "setup"):
            out += ["controlled", "contested"]
        if self.captures_shown():
            out.append("capture")
        if self.prefs["last_move"] and self.state.last is not None:
            out.append("last")
        pv = self.preview() if self.state.phase == "play" else None
        illegal = pv is not None and not pv["legal"]
        if self.aid != "expert" and self.state.phase == "play" and not self.match.is_over():
            out += ["suicidal", "illegal" if illegal else "sight"]
        elif illegal:
            out.append("illegal")
        return out

    LEGEND_TEXT = {"controlled": "controlled (dot, ring)", "contested": "contested", "capture": "safe capture",
                   "last": "last move", "suicidal": "suicidal (grey)", "sight": "sight (theirs dashed)",
                   "illegal": "can't place here"}

    def _draw_legend(self, surface) -> None:
        th = self.theme
        card = LEGEND_CARD
        kinds = self.legend()
        if not kinds:
            self.kit.blit(surface, "No marks on the board now", 12, th.text_dim, width=card.w - 28,
                          topleft=(card.x + 14, card.y + 34))
            return
        col_w = (card.w - 28) // 2
        red = self.red()
        s = 9
        for k, kind in enumerate(kinds):
            x = card.x + 14 + (k % 2) * col_w
            y = card.y + 40 + (k // 2) * 20
            cx, cy = x + 10, y
            if kind in ("controlled", "contested", "capture", "last", "illegal"):
                draw_cell = draw.CELL
                pts = draw.hex_points(cx, cy, s)
                if kind == "controlled":
                    pygame.draw.polygon(surface, draw.territory_fill(RED, red), pts)
                    pygame.draw.circle(surface, mix(red, (0, 0, 0), 0.15), (cx, cy), 2)
                elif kind == "contested":
                    pygame.draw.polygon(surface, draw_cell, pts)
                    draw.stripes(surface, cx, cy, s, draw.CONTESTED, 2)
                elif kind == "capture":
                    pygame.draw.polygon(surface, draw_cell, pts)
                    draw.dashed_hex(surface, cx, cy, s, draw.CAPTURE_MARK, 2, 2)
                elif kind == "illegal":
                    pygame.draw.polygon(surface, draw_cell, pts)
                    draw.dashed_hex(surface, cx, cy, s * 0.9, mix(th.bad, draw.CELL, 0.3), 2, 2)
                else:
                    pygame.draw.polygon(surface, mix(draw.CELL, draw.LAST_MOVE, 0.7), pts)
                    pygame.draw.polygon(surface, draw.LAST_MOVE, pts, 2)
            elif kind == "suicidal":
                pygame.draw.circle(surface, draw.GREY_TOKEN, (cx, cy), 7)
                pygame.draw.circle(surface, mix(draw.GREY_TOKEN, (0, 0, 0), 0.4), (cx, cy), 7, 1)
            else:   # the sight lines: yours solid, the opponent's dashed
                pygame.draw.line(surface, th.text, (cx - 9, cy - 3), (cx + 9, cy - 3), 2)
                for d in range(-9, 9, 6):
                    pygame.draw.line(surface, th.text_dim, (cx + d, cy + 3), (cx + d + 3, cy + 3), 2)
            self.kit.blit(surface, self.LEGEND_TEXT[kind], 12, th.text_dim, width=col_w - 26,
                          midleft=(x + 24, cy))

    def _draw_players(self, surface) -> None:
        th = self.theme
        st = self.state
        card = PLAYERS_CARD
        sc = self.shown_scores()
        turn = self.to_act()
        over = self.match.is_over()
        for seat in (HOST, GUEST):
            y = card.y + 8 + seat * 62
            row = pygame.Rect(card.x + 6, y, card.w - 12, 56)
            if seat == turn and not over:
                self.kit.active_row(surface, row)
            colour = st.colour_of(seat)
            icon = (row.x + 30, row.centery + 2)
            if colour is None:
                pygame.draw.circle(surface, mix(th.panel, th.panel_edge, 0.6), icon, 17)
                self._blit_text(surface, "?", 18, th.text_dim, True, center=icon)
            else:
                self._stacks.blit(surface, colour, 1, icon, 30, self.red(), number=False)
            name = self.seat_name(seat)
            role = "host" if seat == HOST else "guest"
            cname = COLOUR_NAMES[colour] if colour is not None else "colour not chosen"
            thinking = self.is_bot(seat) and seat == turn and not over
            self.kit.seat_name(surface, name, (row.x + 62, row.y + 7), spin=self.clock if thinking else None)
            sub = self.thinking_text() if thinking else f"{cname}  ·  {role}"
            self._blit_text(surface, sub, 13, th.accent if sub.startswith("thinking") else th.text_dim,
                            topleft=(row.x + 62, row.y + 32))
            if colour is not None:
                v = sc[COLOUR_NAMES[colour]]
                self._blit_text(surface, str(v["score"]), 28, th.text, True, topright=(row.right - 12, row.y + 2))
                if v["territory_shown"] and not st.strict:
                    detail = f"{v['stacks']} stacks + {v['territory']} hexes"
                elif v["territory_shown"]:
                    detail = f"{v['stacks']} stacks ({v['territory']} hexes)"
                else:
                    detail = f"{v['stacks']} stacks"
                self._blit_text(surface, detail, 12, th.text_dim, topright=(row.right - 12, row.y + 36))

    def move_lines(self) -> list[str]:
        """The move list in notation: the set-up and colour choice, then numbered pairs of play turns."""
        key = (self.match.cursor, len(self.match.log), id(self.state))
        if self._moves_cache is not None and self._moves_cache[0] == key:
            return self._moves_cache[1]
        toks = move_tokens(self.match)
        kinds = [e["a"]["t"] for e in self.match.applied()]
        # the host's free set-up steps (neutral, then the pair) make one token
        n_head = sum(1 for k in kinds if k in ("neutral", "setup", "choose")) - \
            (1 if "neutral" in kinds and "setup" in kinds else 0)
        head, play = toks[:n_head], toks[n_head:]
        lines = []
        if head:
            lines.append("set-up " + "  ".join(head))
        for k in range(0, len(play), 2):
            lines.append(f"{k // 2 + 1}.  " + "   ".join(play[k:k + 2]))
        self._moves_cache = (key, lines)
        return lines

    def _draw_moves(self, surface) -> None:
        th = self.theme
        card = MOVES_CARD
        lines = self.move_lines()
        rows = (card.h - 44) // MOVE_LINE
        self.move_scroll = min(self.move_scroll, max(0, len(lines) - rows))
        end = len(lines) - self.move_scroll
        shown = lines[max(0, end - rows):end]
        for i, line in enumerate(shown):
            last = i == len(shown) - 1 and self.move_scroll == 0
            self._blit_text(surface, line, 15, th.text if last else th.text_dim, last,
                            topleft=(card.x + 16, card.y + 34 + i * MOVE_LINE))
        if not lines:
            self._blit_text(surface, "no moves yet", 14, th.text_dim, topleft=(card.x + 16, card.y + 34))
        if self.move_scroll:
            self._blit_text(surface, f"▼ {self.move_scroll} more (wheel)", 12, th.accent,
                            bottomright=(card.right - 12, card.bottom - 8))

    def _draw_choice(self, surface) -> None:
        th = self.theme
        box = self.choice_box()
        pygame.draw.rect(surface, th.panel, box.inflate(0, 8))
        pygame.draw.rect(surface, mix(th.panel, th.accent, 0.12), box, border_radius=12)
        pygame.draw.rect(surface, th.accent, box, 2, border_radius=12)
        seat = self.to_act()
        who = "Choose your colour" if self.seat_name(seat) == "You" else f"{self.seat_name(seat)}: choose a colour"
        self._blit_text(surface, who, 19, th.text, True, topleft=(box.x + 18, box.y + 12))
        self._blit_text(surface, f"{self.seat_name(HOST)} placed both starting stacks (pie rule).", 13,
                        th.text_dim, topleft=(box.x + 18, box.y + 42))
        self._blit_text(surface, "Red moves first: take red if that is worth more.", 13, th.text_dim,
                        topleft=(box.x + 18, box.y + 60))
        self.b_red.draw(surface, self.app)
        self.b_white.draw(surface, self.app)

    def _draw_result(self, surface) -> None:
        th = self.theme
        st = self.state
        out = self.match.outcome()
        box = self.end_box()
        win = out["winner"]
        ended = ENDED.get(out.get("ended") or "", "")
        title = f"{self.who(st.colour_of(win))} wins" if win is not None and len(self.humans()) != 1 else None
        self.draw_end_frame(surface, BOARD, box, win, f"The game ended by {ended}." if ended else "", title, 120)
        cols = [box.x + 40, box.x + 290, box.x + 380, box.x + 480]
        y = box.y + 104
        for x, label in zip(cols, ("PLAYER", "STACKS", "TERRITORY", "SCORE")):
            self._blit_text(surface, label, 13, th.text_dim, True, topleft=(x, y))
        for k, colour in enumerate((RED, WHITE)):
            v = out[COLOUR_NAMES[colour]]
            yy = y + 30 + k * 44
            self._stacks.blit(surface, colour, 1, (cols[0] + 14, yy + 12), 22, self.red(), number=False)
            self._blit_text(surface, self.who(colour), 18, th.text, True, topleft=(cols[0] + 38, yy))
            terr = str(v["territory"]) + (" (not scored)" if st.strict else "")
            for x, val in zip(cols[1:], (str(v["stacks"]), terr, str(v["score"]))):
                self._blit_text(surface, val, 18, th.text, x == cols[3], topleft=(x, yy))
        for b in self.end_buttons:
            b.draw(surface, self.app)

