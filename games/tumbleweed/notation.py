"""Tumbleweed notation and game records (specs/tumbleweed.md "Notation and records"; research §3).

Cells are named as on AbstractPlay: a **row letter counted from the bottom** (``a`` is the bottom row,
the one nearest the viewer) and the **position in the row** from the left, starting at 1. On side 8 the
centre is ``h8``, the bottom-left corner ``a1`` and the top row is ``o`` (15 rows). In our axial
coordinates (pointy-top, r down, centre (0, 0)) row letter ``k`` (0 for ``a``) is ``r = size - 1 - k`` and
position ``j`` is ``q = max(1 - size, 1 - size - r) + j - 1``.

Moves: a placement is its cell (``e5``), with ``x`` for a capture (of an enemy or the neutral stack) and
``+`` for a reinforcement (``g9x``, ``c3+``); ``pass``. The host's setup is ``a,b`` (red's hex, then
white's), or ``n,a,b`` in the free setup (the neutral stack first); the guest's colour choice is ``red``
or ``white`` (the colour the guest takes: ``red`` is the pie "swap").

A game as text (export/import): tag lines ``[Key "value"]`` (Game, Size, Setup, Scoring, Stale, Host,
Guest, Result) and then the move tokens, with move numbers (``12.``) and ``{comments}`` ignored. A game
as JSON: ``{"format": "tumbleweed-game", "version": 1, "size", "setup", "strict", "stale", "swap",
"moves": [tokens]}``. Imports replay every move through the rules and fail with ``ValueError`` naming
the bad token.
"""
from __future__ import annotations

import re
from typing import Any, Sequence

from sim.core.match import Match, check_setup
from sim.core.rules import Action, IllegalAction

from .rules import (CODE_HEIGHT, CODE_LOS, CODE_OWNER, COLOUR_NAMES, EMPTY, OWNER_MUL, RED, WHITE,
                    TumbleweedRules, TumbleweedState, geometry)

LETTERS = "abcdefghijklmnopqrstuvwxyz"
_CELL_RE = re.compile(r"^([a-z])(\d{1,2})([x+]?)$")
JSON_FORMAT = "tumbleweed-game"
JSON_VERSION = 1


# ------------------------------------------------------------------------------------- cells
def _row_start(size: int, r: int) -> int:
    return max(1 - size, 1 - size - r)


def cell_name(size: int, cell: Sequence[int]) -> str:
    """AbstractPlay name of axial ``cell`` on a board of side ``size`` (``ValueError`` if off board)."""
    q, r = int(cell[0]), int(cell[1])
    if (q, r) not in geometry(size).index:
        raise ValueError(f"hex ({q}, {r}) is not on a side-{size} board")
    return f"{LETTERS[size - 1 - r]}{q - _row_start(size, r) + 1}"


def parse_cell(size: int, text: str) -> tuple[int, int]:
    """Axial ``(q, r)`` of a cell name like ``h8`` (no suffix); ``ValueError`` with a reason."""
    m = _CELL_RE.match(text.strip().lower()) if isinstance(text, str) else None
    if not m or m.group(3):
        raise ValueError(f"{text!r} is not a cell name (a row letter and a number, like h8)")
    k = LETTERS.index(m.group(1))
    if k > 2 * size - 2:
        raise ValueError(f"{text!r}: a side-{size} board has rows a..{LETTERS[2 * size - 2]}")
    r = size - 1 - k
    j = int(m.group(2))
    width = 2 * size - 1 - abs(r)
    if not 1 <= j <= width:
        raise ValueError(f"{text!r}: row {m.group(1)} has positions 1..{width}")
    return (_row_start(size, r) + j - 1, r)


# ------------------------------------------------------------------------------------- moves
def action_text(state: TumbleweedState, action: Action) -> str:
    """The notation of ``action`` taken in ``state`` (before it is applied). The free setup's neutral
    step is written alone as ``n`` here; :func:`move_tokens` joins it with the next step as ``n,a,b``."""
    size = state.size
    t = action.get("t")
    if t == "pass":
        return "pass"
    if t == "choose":
        return action["colour"]
    if t == "setup":
        return f"{cell_name(size, action['red'])},{cell_name(size, action['white'])}"
    if t == "neutral":
        return cell_name(size, (action["q"], action["r"]))
    if t == "place":
        cell = (action["q"], action["r"])
        name = cell_name(size, cell)
        o = CODE_OWNER[state.code[state.index(cell)]]
        if o == EMPTY:
            return name
        return name + ("+" if o == state.to_move else "x")
    raise ValueError(f"unknown action {t!r}")


def parse_move(state: TumbleweedState, text: str) -> list[Action]:
    """The action(s) a token stands for in ``state`` (``n,a,b`` gives the neutral step and the setup).
    The ``x``/``+`` suffix must match the hex. Raises ``ValueError`` with a reason; legality of a
    well-formed move is left to the rules (``IllegalAction``)."""
    if not isinstance(text, str):
        raise ValueError("a move must be text")
    tok = text.strip().lower()
    size = state.size
    if tok == "pass":
        return [{"t": "pass"}]
    if tok in ("red", "white"):
        return [{"t": "choose", "colour": tok}]
    if "," in tok:
        parts = [parse_cell(size, p) for p in tok.split(",")]
        if len(parts) == 3 and state.phase == "neutral":
            n, a, b = parts
            return [{"t": "neutral", "q": n[0], "r": n[1]}, {"t": "setup", "red": list(a), "white": list(b)}]
        if len(parts) == 2 and state.phase == "setup":
            a, b = parts
            return [{"t": "setup", "red": list(a), "white": list(b)}]
        want = "n,a,b (neutral, red, white)" if state.phase == "neutral" else "a,b (red, white)"
        if state.phase in ("neutral", "setup"):
            raise ValueError(f"{text!r}: the setup is written {want}")
        raise ValueError(f"{text!r}: a setup move, but the setup is over")
    m = _CELL_RE.match(tok)
    if not m:
        raise ValueError(f"{text!r} is not a move (a cell like e5, e5x, e5+, pass, a setup a,b, or red/white)")
    cell = parse_cell(size, tok[:-1] if m.group(3) else tok)
    if state.phase != "play":
        raise ValueError(f"{text!r}: a placement, but the game is in its {state.phase} step")
    suffix = m.group(3)
    o = CODE_OWNER[state.code[state.index(cell)]]
    want = "" if o == EMPTY else "+" if o == state.to_move else "x"
    if suffix != want:
        what = {"": "an empty hex", "+": "a reinforcement (+)", "x": "a capture (x)"}[want]
        raise ValueError(f"{text!r}: that hex makes it {what}")
    return [{"t": "place", "q": cell[0], "r": cell[1]}]


def legal_move_names(state: TumbleweedState) -> list[str]:
    """Every legal placement of the side to move in notation (with suffixes), sorted as text."""
    rules = TumbleweedRules()
    seat = rules.active_players(state)
    if state.phase != "play" or not seat:
        return []
    return sorted(action_text(state, a) for a in rules.legal_actions(state, seat[0]) if a["t"] == "place")


def move_tokens(match: Match) -> list[str]:
    """The applied moves of ``match`` in notation (the free setup's two host steps as one token)."""
    out: list[str] = []
    states = match.states
    pending = None
    for k, entry in enumerate(match.applied()):
        text = action_text(states[k], entry["a"])
        if entry["a"]["t"] == "neutral":
            pending = text
            continue
        if pending is not None:
            text = f"{pending},{text}"
            pending = None
        out.append(text)
    if pending is not None:
        out.append(pending)
    return out


# ------------------------------------------------------------------------------------- games
def _config_of(size: Any, setup: Any, strict: Any, stale: Any, seats: Any = None) -> dict[str, Any]:
    cfg: dict[str, Any] = {"size": size, "setup": setup, "strict": strict, "stale": stale}
    if seats is not None:
        cfg["seats"] = seats
    return check_setup(TumbleweedRules(), cfg)


def replay_tokens(config: dict[str, Any], tokens: Sequence[str]) -> Match:
    """A match of ``config`` with ``tokens`` played in order; ``ValueError`` naming the first bad one."""
    rules = TumbleweedRules()
    match = Match(rules, config, 0)
    for n, tok in enumerate(tokens, 1):
        if match.is_over():
            raise ValueError(f"move {n} {tok!r}: the game is already over")
        try:
            acts = parse_move(match.state, tok)
            for a in acts:
                match.submit(match.active_players()[0], a)
        except (ValueError, IllegalAction) as e:
            msg = str(e)
            named = msg.startswith(repr(tok)) or msg.startswith(repr(tok.strip().lower()))
            raise ValueError(f"move {n}: {msg}" if named else f"move {n} {tok!r}: {msg}") from None
    return match


def _result_line(match: Match) -> str:
    out = match.outcome()
    if not out["over"] or out["colours"] is None:
        return "*"
    red, white = out["red"]["score"], out["white"]["score"]
    if red == white:
        return f"draw {red}-{white}"
    return f"{'red' if red > white else 'white'} wins {red}-{white}"


def export_text(match: Match) -> str:
    """The applied part of ``match`` as text (tags, then moves, two play turns to a numbered line)."""
    cfg = match.config
    tags = [("Game", "Tumbleweed"), ("Size", str(cfg["size"])), ("Setup", cfg["setup"]),
            ("Scoring", "strict" if cfg["strict"] else "territory"), ("Stale", "on" if cfg["stale"] else "off"),
            ("Host", match.seats[0].text()), ("Guest", match.seats[1].text()), ("Result", _result_line(match))]
    lines = [f'[{k} "{v}"]' for k, v in tags]
    lines.append("")
    toks = move_tokens(match)
    head = [t for t in toks[:2] if "," in t or t in ("red", "white")]
    play = toks[len(head):]
    if head:
        lines.append(" ".join(head))
    for k in range(0, len(play), 2):
        lines.append(f"{k // 2 + 1}. " + " ".join(play[k:k + 2]))
    return "\n".join(lines) + "\n"


_TAG_RE = re.compile(r'^\[(\w+)\s+"([^"]*)"\]$')


def import_text(text: str) -> Match:
    """A match rebuilt from :func:`export_text`'s format (tags optional: Size 8, original setup,
    territory scoring, stale rule on, two human seats). Raises ``ValueError`` with a reason."""
    if not isinstance(text, str):
        raise ValueError("a game must be text")
    tags: dict[str, str] = {}
    body: list[str] = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("["):
            m = _TAG_RE.match(s)
            if not m:
                raise ValueError(f"bad tag line {s!r} (use [Key \"value\"])")
            tags[m.group(1).lower()] = m.group(2)
        else:
            body.append(s)
    moves = re.sub(r"\{[^}]*\}", " ", " ".join(body))
    if "{" in moves or "}" in moves:
        raise ValueError("an unclosed {comment}")
    tokens = [t for t in moves.split() if not re.fullmatch(r"\d+\.", t)]
    if "game" in tags and tags["game"].lower() != "tumbleweed":
        raise ValueError(f"not a Tumbleweed game ({tags['game']!r})")
    try:
        size = int(tags.get("size", "8"))
    except ValueError:
        raise ValueError(f"bad Size tag {tags['size']!r}") from None
    scoring = tags.get("scoring", "territory").lower()
    if scoring not in ("territory", "strict"):
        raise ValueError(f"bad Scoring tag {scoring!r} (territory or strict)")
    stale = tags.get("stale", "on").lower()
    if stale not in ("on", "off"):
        raise ValueError(f"bad Stale tag {stale!r} (on or off)")
    seats = [tags.get("host", "human"), tags.get("guest", "human")]
    cfg = _config_of(size, tags.get("setup", "original").lower(), scoring == "strict", stale == "on", seats)
    return replay_tokens(cfg, tokens)


def to_json(match: Match) -> dict[str, Any]:
    """The game record as JSON (spec: size, setup, swap, moves in notation); ``swap`` is True when the
    guest took red, None before the choice."""
    cfg = match.config
    s = match.state
    return {"format": JSON_FORMAT, "version": JSON_VERSION, "size": cfg["size"], "setup": cfg["setup"],
            "strict": cfg["strict"], "stale": cfg["stale"],
            "swap": None if s.red_seat is None else s.red_seat == 1, "moves": move_tokens(match)}


def from_json(rec: Any) -> Match:
    """A match rebuilt from :func:`to_json`'s record; ``ValueError`` with a reason."""
    if not isinstance(rec, dict) or rec.get("format") != JSON_FORMAT:
        raise ValueError("not a Tumbleweed game record (format is not 'tumbleweed-game')")
    if rec.get("version") != JSON_VERSION:
        raise ValueError(f"record version {rec.get('version')!r} is not supported")
    known = {"format", "version", "size", "setup", "strict", "stale", "swap", "moves"}
    extra = set(rec) - known
    if extra:
        raise ValueError(f"record has unknown fields {', '.join(sorted(extra))}")
    moves = rec.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise ValueError("record 'moves' must be a list of move texts")
    cfg = _config_of(rec.get("size"), rec.get("setup"), rec.get("strict", False), rec.get("stale", True))
    match = replay_tokens(cfg, moves)
    swap = match.state.red_seat == 1 if match.state.red_seat is not None else None
    if "swap" in rec and rec["swap"] != swap:
        raise ValueError(f"record says swap={rec['swap']!r} but its moves give {swap!r}")
    return match


def stack_label(state: TumbleweedState, i: int) -> str:
    """Short text of hex index ``i`` for listings: ``R3``, ``W1``, ``N2`` or ``.``."""
    c = state.code[i]
    if c < OWNER_MUL:
        return "."
    return COLOUR_NAMES[CODE_OWNER[c]][0].upper() + str(CODE_HEIGHT[c])


def board_text(state: TumbleweedState) -> str:
    """The board as rows of :func:`stack_label`, top row first, each row labelled with its letter."""
    size = state.size
    geo = state.geo
    lines = []
    for r in range(1 - size, size):
        row = [i for i, (q, rr) in enumerate(geo.cells) if rr == r]
        lines.append(f"{LETTERS[size - 1 - r]:>2} " + " " * abs(r) + " ".join(f"{stack_label(state, i):>2}"
                                                                          for i in row))
    return "\n".join(lines)


def sight_summary(state: TumbleweedState, cell: Sequence[int]) -> str:
    """``"red 2, white 1"``: how many stacks of each colour see ``cell``."""
    c = state.code[state.index(tuple(cell))]
    return f"red {CODE_LOS[RED][c]}, white {CODE_LOS[WHITE][c]}"
