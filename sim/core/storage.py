"""Where Playtable keeps its files, atomic JSON writes and bounded JSON reads.

The data folder is ``$PLAYTABLE_HOME`` if set, else ``$XDG_DATA_HOME/playtable``, else
``~/.local/share/playtable``. It holds ``autosave.json`` (the match in progress), ``settings.json``,
``stats.json`` and ``screenshots/``.

Reads trust neither the size nor the kind of what they open: :func:`read_json` takes regular files only
(a FIFO, a device such as ``/dev/zero`` or a folder is refused without blocking) of at most
``max_bytes`` (:data:`MAX_JSON_BYTES` by default).
"""
from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

#: Largest JSON file :func:`read_json` reads (bytes); a long match's record is well under 1 MiB.
MAX_JSON_BYTES = 16 * 1024 * 1024
#: A temporary file of :func:`write_json_atomic` older than this (s) was left by an interrupted write.
STALE_TEMP_AGE = 60.0
_TEMP_GLOB = ".*.tmp"      # the names write_json_atomic gives its temporary files

_tidied: set[Path] = set()  # data folders already cleaned of stale temporary files by this process


class DataDirError(OSError):
    """The data folder cannot be used (it is a file, or cannot be created); ``str(err)`` is one line."""


def data_dir() -> Path:
    """The data folder (created on first use; the first use in a process also removes temporary files
    that interrupted writes left there, :func:`remove_stale_temps`). Raises :class:`DataDirError` if
    it is not a folder or cannot be created."""
    env = os.environ.get("PLAYTABLE_HOME")
    if env:
        p = Path(env)
    else:
        xdg = os.environ.get("XDG_DATA_HOME")
        p = (Path(xdg) if xdg else Path.home() / ".local" / "share") / "playtable"
    try:
        p.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise DataDirError(f"the data folder {p} is a file, not a folder (set PLAYTABLE_HOME to use "
                           f"another)") from None
    except OSError as e:
        raise DataDirError(f"cannot create the data folder {p}: {e.strerror or e} (set PLAYTABLE_HOME "
                           f"to use another)") from None
    if p not in _tidied:
        _tidied.add(p)
        remove_stale_temps(p)
    return p


def remove_stale_temps(folder: Path | str, age: float = STALE_TEMP_AGE) -> list[Path]:
    """Delete the temporary files of :func:`write_json_atomic` (``.NAME.XXXX.tmp``) older than ``age``
    s in ``folder`` and its subfolders one level down (a crash between writing and renaming leaves
    them); a younger one may belong to a write in progress and stays. Returns the files removed;
    errors are ignored. "Now" is the folder's own clock: the time stamp of a file written there (no
    wall clock is read here, and a network folder's clock is the one its files carry)."""
    folder = Path(folder)
    removed: list[Path] = []
    try:
        fd, probe = tempfile.mkstemp(prefix=".now.", suffix=".tmp", dir=folder)
        try:
            now = os.fstat(fd).st_mtime
        finally:
            os.close(fd)
            os.unlink(probe)
    except OSError:
        return removed
    try:
        candidates = list(folder.glob(_TEMP_GLOB)) + list(folder.glob("*/" + _TEMP_GLOB))
    except OSError:
        return removed
    for f in candidates:
        try:
            st = f.lstat()
            if stat.S_ISREG(st.st_mode) and now - st.st_mtime > age:
                f.unlink()
                removed.append(f)
        except OSError:
            continue
    return removed


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


def read_text_bounded(path: Path | str, max_bytes: int = MAX_JSON_BYTES) -> str:
    """The UTF-8 text of the regular file ``path``, at most ``max_bytes`` bytes. Raises ``ValueError``
    with a one-line reason for a missing file, anything but a regular file (FIFO, device, folder: the
    file is opened without blocking and checked before it is read), a larger file or bad UTF-8."""
    path = Path(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except OSError as e:
        raise ValueError(f"{path}: cannot read ({e.__class__.__name__})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a folder" if stat.S_ISDIR(st.st_mode) else "a pipe" if stat.S_ISFIFO(st.st_mode) \
                else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else "a special file"
            raise ValueError(f"{path}: not a regular file ({kind})")
        if st.st_size > max_bytes:
            raise ValueError(f"{path}: too big ({st.st_size} bytes; the limit is {max_bytes})")
        with os.fdopen(fd, "rb") as f:
            fd = -1
            data = f.read(max_bytes + 1)
    except OSError as e:
        raise ValueError(f"{path}: cannot read ({e.__class__.__name__})") from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > max_bytes:   # it grew while being read
        raise ValueError(f"{path}: too big (over the limit of {max_bytes} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{path}: cannot read (not UTF-8 text)") from None


def read_json(path: Path | str, max_bytes: int = MAX_JSON_BYTES) -> Any:
    """Parse a JSON file (a regular file of at most ``max_bytes``, :func:`read_text_bounded`); raise
    ``ValueError`` with a one-line reason if it is missing, of the wrong kind or size, or malformed."""
    text = read_text_bounded(path, max_bytes)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except RecursionError:
        raise ValueError(f"{path}: JSON nested too deeply") from None
    except ValueError as e:   # e.g. an integer of thousands of digits
        raise ValueError(f"{path}: not valid JSON ({str(e).splitlines()[0][:80]})") from None


def load_json_or(path: Path | str, default: Any) -> Any:
    """Parse a JSON file, or return ``default`` if it is missing or unreadable (settings, stats)."""
    try:
        return read_json(path)
    except ValueError:
        return default
