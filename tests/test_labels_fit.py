"""No label is cut off: every game's screen is drawn in every state of the conformance suite's first
playout of it (tests/test_conformance.py, the same configs, seeds and moves), with its set-up dialog
in every option, and the UI kit's record of cut text (:data:`sim.app.widgets.CLIPPED`: fitting that
ran out of room, a button label that had to be cut, a notice left out) must stay empty."""
from __future__ import annotations

import pytest

from sim.app import widgets
from sim.app.launcher import LauncherScene
from sim.core import registry

import test_conformance as conf

GAMES = registry.game_names()


@pytest.fixture(autouse=True)
def clean_record(monkeypatch):
    monkeypatch.setattr(widgets, "CHECK_FIT", True)
    widgets.CLIPPED.clear()
    yield
    widgets.CLIPPED.clear()


def cut_labels(scene) -> list:
    """What the last draw cut or ran over a card's edge (and clear the records)."""
    out = sorted({t for t, _w in widgets.CLIPPED})
    widgets.CLIPPED.clear()
    kit = getattr(scene, "kit", None)
    if kit is not None:
        out += sorted({f"over an edge: {t!r} at {tuple(r)}" for t, r in kit.overflow()})
    return out


@pytest.mark.parametrize("name", GAMES)
def test_every_state_of_a_playout_is_drawn_without_a_cut_label(name, app):
    spec = registry.get_spec(name)
    app.push(LauncherScene(app))
    seats = ["human"] * 6
    holder = {}

    def each(match, move, before):
        if "scene" not in holder:
            holder["scene"] = app.start_match(spec, match, autosave=False)
        app.draw()
        cut = cut_labels(holder["scene"])
        assert not cut, (name, match.cursor, cut)

    # the first playout of the conformance suite, its screen drawn after every step (no bot acts on
    # the screen: only drawing runs)
    orig = conf.CASES[name]
    cfg = dict(orig.config or {})
    n = cfg.get("players") if isinstance(cfg.get("players"), int) else None
    if spec.seated:
        cfg["seats"] = seats[:n or len(spec.default_players)]
    conf.CASES[name] = conf.replace(orig, config=cfg)
    try:
        m = conf.playout(name, orig.seeds[0], each)
    finally:
        conf.CASES[name] = orig
    assert m.is_over()
    scene = holder["scene"]
    scene.show_result = True
    app.draw()
    cut = cut_labels(scene)
    assert not cut, (name, "end", cut)


@pytest.mark.parametrize("name", [n for n in GAMES if registry.get_spec(n).make_setup is not None])
def test_every_option_of_the_set_up_dialog_is_drawn_without_a_cut_label(name, app):
    spec = registry.get_spec(name)
    app.push(LauncherScene(app))
    dialog = app.push(spec.make_setup(app, spec))
    app.draw()
    for n in range(dialog.min_players, dialog.max_players + 1):
        dialog.set_players(n)
        for i in range(len(dialog.seats)):
            for k in dialog.kinds:
                dialog.set_kind(i, k)
                app.draw()
        for o in dialog.options:
            for v in o.values:
                dialog.set_option(o.key, v)
                app.draw()
                cut = cut_labels(dialog)
                assert not cut, (name, o.key, v, cut)
        # no button lies over another (a name button once covered the last kind of player)
        buttons = dialog.buttons()
        for i, a in enumerate(buttons):
            for b in buttons[i + 1:]:
                assert not a.rect.colliderect(b.rect), (name, n, a.label, b.label)
