"""Match records: the JSON form of a match (game, rules version, config, seats, seed, actions).

A record is ``{"format": "playtable-match", "format_version": 2, "game": NAME, "rules_version": N,
"config": {...}, "seats": [{"kind": "human"|"bot"|"lan", "level"?: str, "name"?: str}, ...],
"seed": INT, "actions": [[player, action], ...] (or [player, action, t] in real-time games),
"cursor": INT}`` and optionally ``"meta": {...}``: facts about the session that are not part of the
game (e.g. ``"elapsed"``, the seconds a player has spent on a solitaire game). Loading validates the
schema strictly and replays every action through the rules, so a truncated, tampered or foreign file
fails with :class:`RecordError` (one line, no traceback) and nothing is half-loaded. Sizes are bounded
before any work: a record file of at most ``storage.MAX_JSON_BYTES``, at most :data:`MAX_ACTIONS`
actions, times finite and in ``0..``:data:`MAX_TIME` s.

Version 1 (before seats moved to the match) kept the seats as texts in ``config["seats"]`` and the
names typed for human seats in ``meta["names"]``; :func:`migrate` turns it into version 2.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from .match import Match
from .rules import IllegalAction
from .seats import check, names, parse, split
from .storage import read_json, write_json_atomic

FORMAT = "playtable-match"
FORMAT_VERSION = 2
_KEYS = {"format", "format_version", "game", "rules_version", "config", "seats", "seed", "actions", "cursor"}
_OPTIONAL = {"meta"}
#: Most actions a record may hold (a long game has a few thousand; more is refused before replaying).
MAX_ACTIONS = 200_000
#: Latest time (s) an action of a real-time game may carry (a race lasts minutes).
MAX_TIME = 1e7


class RecordError(ValueError):
    """A record that cannot be loaded; ``str(err)`` is a one-line reason for the user."""


def to_record(match: Match) -> dict[str, Any]:
    """The JSON-compatible record of ``match`` (the whole log, and the undo cursor)."""
    actions = []
    for e in match.log:
        row = [e["p"], e["a"]]
        if "t" in e:
            row.append(e["t"])
        actions.append(row)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": match.rules.info.name,
        "rules_version": match.rules.info.rules_version,
        "config": match.config,
        "seats": [s.to_json() for s in match.seats],
        "seed": match.seed,
        "actions": actions,
        "cursor": match.cursor,
        **({"meta": match.meta} if match.meta else {}),
    }


def migrate(rec: dict[str, Any]) -> dict[str, Any]:
    """A version-1 record as version 2 (``rec`` itself when it is not version 1): the config's
    ``"seats"`` and the meta's ``"names"`` become the record's ``"seats"``. Never raises; what is
    malformed is left for :func:`from_record` to refuse."""
    if rec.get("format_version") != 1 or "seats" in rec or not isinstance(rec.get("config"), dict):
        return rec
    config, seats = split(rec["config"])
    meta = rec.get("meta")
    given = None
    if isinstance(meta, dict) and "names" in meta:
        meta = dict(meta)
        given = meta.pop("names")
    out = {**rec, "format_version": 2, "config": config}
    if seats is not None:
        out["seats"] = seats
        if isinstance(given, list) and isinstance(seats, list):
            try:
                out["seats"] = [s.to_json() for s in names([parse(x) for x in seats], given)]
            except ValueError:
                pass
    if isinstance(meta, dict):
        out["meta"] = meta
        if not meta:
            del out["meta"]
    return out


def from_record(rec: Any, expect_game: str | None = None) -> Match:
    """Rebuild a match from a record (version 2, or 1 through :func:`migrate`), checking everything;
    raises :class:`RecordError`."""
    from .registry import get_spec, UnknownGame

    if not isinstance(rec, dict):
        raise RecordError("not a Playtable match record (top level is not an object)")
    if rec.get("format") != FORMAT:
        raise RecordError("not a Playtable match record (missing or wrong 'format')")
    v1 = rec.get("format_version") == 1
    rec = migrate(rec)
    if v1 and "seats" not in rec:
        rec = {**rec, "seats": None}         # a version-1 record that named no seats: all humans
    missing = _KEYS - set(rec)
    extra = set(rec) - _KEYS - _OPTIONAL
    if missing:
        raise RecordError(f"record is missing {', '.join(sorted(missing))}")
    if extra:
        raise RecordError(f"record has unknown fields {', '.join(sorted(extra))}")
    if rec["format_version"] != FORMAT_VERSION:
        raise RecordError(f"record format version {rec['format_version']!r} is not supported")
    game = rec["game"]
    if not isinstance(game, str):
        raise RecordError("record 'game' is not a name")
    if expect_game is not None and game != expect_game:
        raise RecordError(f"record is a {game!r} game, not {expect_game!r}")
    try:
        spec = get_spec(game)
    except UnknownGame as e:
        raise RecordError(str(e)) from None
    rules = spec.make_rules()
    if rec["rules_version"] != rules.info.rules_version:
        raise RecordError(f"record was made with rules version {rec['rules_version']!r}, "
                          f"this Playtable has {rules.info.rules_version}")
    seed = rec["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError("record 'seed' is not an integer")
    if not isinstance(rec["config"], dict):
        raise RecordError("record 'config' is not an object")
    if "seats" in rec["config"]:
        raise RecordError("record config names seats (they belong in 'seats')")
    try:
        match = Match(rules, rec["config"], seed, resolve_chance=False)
    except ValueError as e:
        raise RecordError(f"record config is invalid: {e}") from None
    if rec["seats"] is not None:
        try:
            match.seats = check(rec["seats"], len(match.seats), spec.seat_levels)
        except ValueError as e:
            raise RecordError(f"record seats are invalid: {e}") from None
    actions = rec["actions"]
    if not isinstance(actions, list):
        raise RecordError("record 'actions' is not a list")
    if len(actions) > MAX_ACTIONS:
        raise RecordError(f"record has {len(actions)} actions; the limit is {MAX_ACTIONS}")
    for i, row in enumerate(actions):
        if not isinstance(row, list) or len(row) not in (2, 3):
            raise RecordError(f"action {i}: not a [player, action] pair")
        p, a = row[0], row[1]
        t = row[2] if len(row) == 3 else None
        if not isinstance(p, int) or isinstance(p, bool) or not isinstance(a, dict):
            raise RecordError(f"action {i}: malformed")
        if t is not None:
            if not isinstance(t, (int, float)) or isinstance(t, bool) or not _time_ok(t):
                raise RecordError(f"action {i}: malformed time (a number of seconds from 0 to {MAX_TIME:g})")
            t = float(t)
        try:
            match.replay_entry(p, a, t)
        except IllegalAction as e:
            raise RecordError(f"action {i} is illegal: {e}") from None
        except (KeyError, TypeError, ValueError) as e:
            raise RecordError(f"action {i} is malformed: {e.__class__.__name__} {e}") from None
    cursor = rec["cursor"]
    if not isinstance(cursor, int) or isinstance(cursor, bool) or not 0 <= cursor <= len(actions):
        raise RecordError("record 'cursor' is out of range")
    # the redo tail must be what undo could have left: walk back from the end under the undo policy
    while match.cursor > cursor:
        if not match.can_undo():
            raise RecordError("record 'cursor' is not a position that undo can reach")
        match.cursor -= 1
    meta = rec.get("meta", {})
    if not isinstance(meta, dict) or not all(isinstance(k, str) for k in meta):
        raise RecordError("record 'meta' is not an object")
    match.meta = dict(meta)
    match.auto_chance = True
    if match.cursor == len(match.log):
        match.resolve_chance()
    return match


def _time_ok(t: int | float) -> bool:
    if isinstance(t, int):
        return 0 <= t <= MAX_TIME        # compared as an int: 10**400 never becomes a float
    return math.isfinite(t) and 0.0 <= t <= MAX_TIME


def save(match: Match, path: Path | str) -> None:
    """Write the record of ``match`` atomically to ``path``."""
    write_json_atomic(path, to_record(match))


def load(path: Path | str, expect_game: str | None = None) -> Match:
    """Read and validate a record file; raises :class:`RecordError` with a one-line reason."""
    try:
        rec = read_json(path)
    except ValueError as e:
        raise RecordError(str(e)) from None
    return from_record(rec, expect_game)
