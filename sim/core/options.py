"""A game's options, declared once: each :class:`Option` gives its command-line flag (``playtable play``
and ``selfplay``), its row of the set-up dialog and the check of its config value.

A game lists its options in ``GameSpec.options`` (and its rules check the config with :func:`check`), so
a new option appears everywhere from one declaration.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence


@dataclass(frozen=True)
class Option:
    """One option: config key ``key``, shown as ``label`` in the dialog, ``default`` until chosen.

    The value is one of ``choices`` (shown as ``labels``), or with ``lo``/``hi`` a whole number in that
    range (the dialog offers ``offered``), or a bool when ``default`` is one and neither is given.
    ``validate`` replaces the check for a value of another form. ``flag`` is the command-line flag (default ``--key``, underscores as dashes); a bool's flag sets it
    to ``not default``. ``to_config`` turns a flag's value into the config's (e.g. ``N -> [N, 0]``),
    ``dialog_only`` / ``cli_only`` leave it out of the other place, and ``players`` is the range of
    player counts that allow a value other than the default.
    """

    key: str
    label: str
    default: Any
    help: str = ""
    choices: tuple = ()
    labels: tuple = ()
    lo: int | None = None
    hi: int | None = None
    offered: tuple = ()
    flag: str = ""
    metavar: str = ""
    to_config: Callable[[Any], Any] | None = None
    dialog_only: bool = False
    cli_only: bool = False
    players: tuple[int, int] | None = None
    #: the check of a value whose form choices or a range cannot say (returns it normalised, or raises
    #: ``ValueError`` with a reason)
    validate: Callable[[Any], Any] | None = None
    #: what the flag's text is read as before ``to_config`` (default: a whole number)
    flag_type: Callable[[str], Any] = int
    #: a config without the key stays without it (an option added after records were made)
    optional: bool = False
    #: the flag's text that gives a config value (the inverse of ``to_config``; default ``str``)
    flag_text: Callable[[Any], str] | None = None

    @property
    def kind(self) -> str:
        if self.choices:
            return "choice"
        if self.lo is not None:
            return "int"
        if isinstance(self.default, bool):
            return "bool"
        raise ValueError(f"option {self.key!r}: give choices, a range or a bool default")

    @property
    def cli_flag(self) -> str:
        return self.flag or "--" + self.key.replace("_", "-")

    def dialog_values(self) -> tuple:
        """The values the set-up dialog offers, in order."""
        if self.kind == "choice":
            return self.choices
        if self.kind == "int":
            return self.offered or tuple(range(self.lo, self.hi + 1))
        return (False, True)

    def dialog_labels(self) -> tuple:
        vals = self.dialog_values()
        if self.labels and len(self.labels) == len(vals):
            return self.labels
        if self.kind == "bool":
            return ("Off", "On")
        return tuple(str(v) for v in vals)

    def text_for(self, value: Any) -> str | None:
        """The command-line text of ``value`` after :attr:`cli_flag` (None: a bool flag, given alone)."""
        if self.flag_text is not None:
            return self.flag_text(value)
        if self.kind == "bool" and self.to_config is None:
            return None
        return str(value)

    def check(self, value: Any) -> Any:
        """``value`` if it is allowed (normalised); ``ValueError`` with a reason otherwise."""
        if self.validate is not None:
            return self.validate(value)
        kind = self.kind
        if kind == "choice":
            for c in self.choices:   # type-exact: True is not 1
                if type(c) is type(value) and c == value:
                    return c
            shown = ", ".join(str(c) for c in self.choices)
            raise ValueError(f"{self.key} must be one of {shown}, not {value!r}")
        if kind == "int":
            if not isinstance(value, int) or isinstance(value, bool) or not self.lo <= value <= self.hi:
                raise ValueError(f"{self.key} must be a whole number {self.lo}..{self.hi}, not {value!r}")
            return value
        if not isinstance(value, bool):
            raise ValueError(f"{self.key} must be true or false, not {value!r}")
        return value


def over_defaults(defaults: dict[str, Any], config: dict[str, Any]) -> dict[str, Any]:
    """``defaults`` with the entries of ``config`` over them; ``ValueError`` for a key that is not a
    default's (an unknown option)."""
    out = dict(defaults)
    for k, v in config.items():
        if k not in out:
            raise ValueError(f"unknown option {k!r}")
        out[k] = v
    return out


def check(options: Iterable[Option], config: dict[str, Any], players: int | None = None) -> dict[str, Any]:
    """``config`` with every declared option's value checked (and filled in from the default when
    missing); keys that are not options pass through. Raises ``ValueError`` with a reason."""
    out = dict(config)
    for o in options:
        if o.cli_only or (o.optional and o.key not in out):
            continue
        v = o.check(out[o.key]) if o.key in out else o.default
        if players is not None and o.players is not None and v != o.default \
                and not o.players[0] <= players <= o.players[1]:
            raise ValueError(f"{o.key} needs {o.players[0]} to {o.players[1]} players, not {players}")
        out[o.key] = v
    return out


def add_flags(parser: Any, options: Iterable[Option]) -> None:
    """The options' flags on an ``argparse`` parser; a flag not given leaves its ``dest`` None."""
    for o in options:
        if o.dialog_only:
            continue
        dest = o.key
        if o.kind == "bool" and o.to_config is None:
            parser.add_argument(o.cli_flag, dest=dest, action="store_const", const=not o.default, default=None,
                                help=o.help)
        elif o.kind == "choice" and o.to_config is None:
            parser.add_argument(o.cli_flag, dest=dest, choices=[str(c) for c in o.choices], default=None,
                                metavar=o.metavar or None, help=o.help)
        else:
            parser.add_argument(o.cli_flag, dest=dest, type=o.flag_type, default=None,
                                metavar=o.metavar or "N", help=o.help)


def from_flags(options: Iterable[Option], namespace: Any) -> dict[str, Any]:
    """The config entries of the flags given on the command line (``namespace``: argparse's)."""
    out: dict[str, Any] = {}
    for o in options:
        if o.dialog_only:
            continue
        v = getattr(namespace, o.key, None)
        if v is None:
            continue
        if o.kind == "choice" and o.to_config is None:
            v = next(c for c in o.choices if str(c) == v)
        out[o.key] = o.to_config(v) if o.to_config is not None else v
    return out


def dialog_options(options: Sequence[Option]) -> list[Option]:
    """The options the set-up dialog shows."""
    return [o for o in options if not o.cli_only]

