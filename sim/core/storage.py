"""Where Playtable keeps its files, and atomic JSON writes.

The data folder is ``$PLAYTABLE_HOME`` if set, else ``$XDG_DATA_HOME/playtable``, else
``~/.local/share/playtable``. It holds ``autosave.json`` (the match in progress), ``settings.json``,
``stats.json`` and ``screenshots/``.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def data_dir() -> Path:
    """The data folder (created on first use)."""
    env = os.environ.get("PLAYTABLE_HOME")
    if env:
        p = Path(env)
    else:
        xdg = os.environ.get("XDG_DATA_HOME")
        p = (Path(xdg) if xdg else Path.home() / ".local" / "share") / "playtable"
    p.mkdir(parents=True, exist_ok=True)
    return p


def autosave_path() -> Path:
    """File holding the record of the match in progress."""
    return data_dir() / "autosave.json"


def write_json_atomic(path: Path | str, obj: Any) -> None:
    """Write ``obj`` as JSON to ``path`` so that a crash leaves either the old or the new file.

    The data goes to a temporary file in the same folder, is flushed and fsynced, then renamed over
    ``path`` (``os.replace`` is atomic on POSIX and Windows).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(obj, f, separators=(",", ":"))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_json(path: Path | str) -> Any:
    """Parse a JSON file; raise ``ValueError`` with a one-line reason if it is missing or malformed."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: cannot read ({e.__class__.__name__})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except RecursionError:
        raise ValueError(f"{path}: JSON nested too deeply") from None


def load_json_or(path: Path | str, default: Any) -> Any:
    """Parse a JSON file, or return ``default`` if it is missing or unreadable (settings, stats)."""
    try:
        return read_json(path)
    except ValueError:
        return default
