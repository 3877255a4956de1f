"""The rules reader renders the rules' own markup: emphasis slanted, bold bold, code tinted, and no
marker shown as a character."""
from __future__ import annotations

import re

import pytest

from sim.app.rules_view import inline_runs, parse_markdown
from sim.core import registry


@pytest.mark.parametrize("text, runs", [
    ("*Example:* you hold", [("Example:", "i"), (" you hold", "")]),
    ("a **b** c", [("a ", ""), ("b", "b"), (" c", "")]),
    ("__b__ and _e_", [("b", "b"), (" and ", ""), ("e", "i")]),
    ("**bold *both* x**", [("bold ", "b"), ("both", "bi"), (" x", "b")]),
    ("use `--setup free` now", [("use ", ""), ("--setup free", "code"), (" now", "")]),
    ("snake_case_name stays", [("snake_case_name stays", "")]),
    ("3 * 4 * 5", [("3 * 4 * 5", "")]),
    ("an *unclosed star", [("an *unclosed star", "")]),
    ("[the site](https://example.org) says", [("the site says", "")]),
])
def test_inline_runs(text, runs):
    assert inline_runs(text) == runs


def test_plain_blocks_drop_the_markers():
    assert parse_markdown("*Example:* a **b** `c`") == [("p", "Example: a b c")]


@pytest.mark.parametrize("name", registry.game_names())
def test_every_rules_text_shows_no_markup_characters(app, name):
    spec = registry.get_spec(name)
    scene = app.show_rules(spec)
    app.step([], 1 / 60)
    pieces = scene.layout()
    assert scene.error is None and pieces
    for _size, style, _colour, text, _x, _y in pieces:
        assert "**" not in text and "`" not in text and "__" not in text, (name, text)
        assert not re.search(r"(^|\s)\*\S|\S\*(\s|$|[.,:;])", text), (name, text)
    if name == "tokami":
        assert any(style == "i" and text.startswith("Example") for _s, style, _c, text, _x, _y in pieces)
    # every piece fits the reading column
    for size, style, _c, text, x, _y in pieces:
        assert x + scene.app.font(size, "b" in style).size(text)[0] <= scene.view.w + 1, (name, text)
