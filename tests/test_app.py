"""The app layer under the dummy video driver: the real loop driven by ``App.step`` with synthetic
events and a fake clock (specs/DESIGN.md "App", "Library pitfalls")."""
from __future__ import annotations

import dataclasses
import json

import pygame
import pytest

import games.gobble
from sim.app.app import App, load_settings, settings_path
from sim.app.fuzz import fuzz_scene
from sim.app.launcher import LauncherScene
from sim.app.rules_view import RulesScene, parse_markdown
from sim.app.scene import Scene
from sim.app.settings_view import SettingsScene
from sim.app.widgets import wrap_text
from sim.core import record, registry
from sim.core.match import Match
from sim.core.storage import autosave_path, data_dir, write_json_atomic
from events import click, down, key, motion, up, wheel

STEP = App.STEP

RULES_MD = """# Gobble Solitaire

Place every tile you draw so that its colours match
the tiles it touches.

## Turn

- Draw a tile from the bag.
- Place it, or put it on the **penalty** stack if it fits nowhere.
1. Numbered item

## Winning

End with an empty penalty stack.
""" + "\n".join(f"Filler paragraph number {i} with enough words to wrap around the panel width "
                "when the window is small and the font is large." for i in range(40))


# ---------------------------------------------------------------- helpers
class Recorder(Scene):
    """Records what reaches it; counts updates."""

    def __init__(self, app, consume=True, overlay=False):
        super().__init__(app)
        self.events = []
        self.updates = 0
        self.consume = consume
        self.overlay = overlay
        self.entered = 0
        self.exited = 0

    def on_enter(self):
        self.entered += 1

    def on_exit(self):
        self.exited += 1

    def handle_event(self, event):
        self.events.append(event)
        return self.consume

    def update(self, dt):
        assert dt == STEP
        self.updates += 1


class FakeGameScene(Recorder):
    def __init__(self, app, match, **opts):
        super().__init__(app, consume=False)
        self.match = match
        self.opts = opts








@pytest.fixture
def solitaire(monkeypatch, tmp_path):
    """The registry's gobble-solitaire spec with a stand-in rules.md (tmp), a fake scene and no set-up
    dialog (Play starts the match at once)."""
    md = tmp_path / "rules.md"
    md.write_text(RULES_MD, encoding="utf-8")
    spec = dataclasses.replace(games.gobble.SOLITAIRE, rules_text=md, make_scene=FakeGameScene, make_setup=None)
    monkeypatch.setattr(games.gobble, "SOLITAIRE", spec)
    assert registry.get_spec("gobble-solitaire") is spec
    return spec


def play_some(match, n):
    """Submit ``n`` legal player actions (the first legal one each time)."""
    rules = match.rules
    for _ in range(n):
        acts = rules.legal_actions(match.state, 0)
        match.submit(0, acts[0])


# ------------------------------------------------------ coordinates, events
def test_identity_mapping_at_logical_size(app):
    assert app.window_size() == App.LOGICAL_SIZE
    assert app.viewport() == pygame.Rect(0, 0, 1280, 800)
    assert app.window_to_logical((0, 0)) == (0, 0)
    assert app.window_to_logical((1279, 799)) == (1279, 799)
    assert app.window_to_logical((1280, 10)) is None


def test_letterbox_mapping_tall_window(app):
    app.set_window_size((1000, 1000))
    vp = app.viewport()
    # 1280x800 scaled by 1000/1280 = 0.78125 -> 1000x625, centred vertically
    assert vp == pygame.Rect(0, 187, 1000, 625)
    assert app.window_to_logical((0, 187)) == (0, 0)
    assert app.window_to_logical((500, 187 + 312)) == (640, 399)
    assert app.window_to_logical((999, 811)) == (1278, 798)
    assert app.window_to_logical((500, 100)) is None  # top bar
    assert app.window_to_logical((500, 900)) is None  # bottom bar
    for p in [(123, 456), (640, 400), (0, 0), (1279, 799)]:
        back = app.window_to_logical(app.logical_to_window(p))  # a window px covers 1.28 logical px
        assert abs(back[0] - p[0]) <= 1 and abs(back[1] - p[1]) <= 1

    rec = app.push(Recorder(app))
    app.step([down((500, 100)), motion((500, 950)), up((20, 20))], STEP)
    assert rec.events == []  # everything in the letterbox is dropped
    app.step([down((500, 187 + 312)), motion((510, 520), rel=(10, 10))], STEP)
    assert [e.type for e in rec.events] == [pygame.MOUSEBUTTONDOWN, pygame.MOUSEMOTION]
    assert rec.events[0].pos == (640, 399)
    assert rec.events[1].pos == (652, 426)  # ((510, 520) - (0, 187)) * 1.28
    assert rec.events[1].rel == (13, 13)  # 10 / 0.78125 = 12.8
    # the release of a press the scene saw is delivered even in the letterbox, clamped to the edge
    app.step([up((500, 990))], STEP)
    assert rec.events[-1].type == pygame.MOUSEBUTTONUP and rec.events[-1].pos == (640, 799)


def test_letterbox_mapping_wide_window(app):
    app.set_window_size((2000, 800))
    assert app.viewport() == pygame.Rect(360, 0, 1280, 800)
    rec = app.push(Recorder(app))
    app.step([down((100, 400)), down((360, 400), button=3), up((1640, 5), button=3)], STEP)
    assert [(e.type, e.pos) for e in rec.events] == [(pygame.MOUSEBUTTONDOWN, (0, 400)),
                                                     (pygame.MOUSEBUTTONUP, (1279, 5))]
    # a frame drawn in a letterboxed window has black bars and the scene's picture in the middle
    win = pygame.display.get_surface()
    assert win.get_at((10, 400))[:3] == (0, 0, 0)
    assert win.get_at((1000, 400))[:3] == app.theme.bg


def test_wheel_buttons_never_reach_scenes(app):
    rec = app.push(Recorder(app))
    app.step([down((10, 10), 4), up((10, 10), 4), down((10, 10), 5), up((10, 10), 5),
              down((10, 10), 6), wheel(1)], STEP)
    assert [e.type for e in rec.events] == [pygame.MOUSEWHEEL]
    app.step([down((10, 10), b) for b in (1, 2, 3)], STEP)
    assert [e.button for e in rec.events[1:]] == [1, 2, 3]


def test_accumulator_is_clamped_and_steps_are_fixed(app):
    rec = app.push(Recorder(app))
    app.step([], 10.0)  # a 10 s hitch: at most MAX_FRAME = 0.25 s of updates
    assert rec.updates == round(App.MAX_FRAME / STEP) == 15
    rec.updates = 0
    app.step([], STEP)
    assert rec.updates == 1
    rec.updates = 0
    app.step([], STEP / 2)
    assert rec.updates == 0
    app.step([], STEP / 2)
    assert rec.updates == 1
    rec.updates = 0
    for _ in range(60):
        app.step([], 1 / 120)
    assert rec.updates == 30
    assert app.time == pytest.approx(10.0 + 2 * STEP + 0.5)


def test_scene_stack_and_overlays(app):
    base = app.push(Recorder(app))
    dialog = app.push(Recorder(app, overlay=True))
    assert base.entered == 1 and dialog.entered == 1
    app.step([key(pygame.K_a)], 3 * STEP)
    assert len(dialog.events) == 1 and base.events == []  # only the top scene gets events
    assert base.updates == 3 and dialog.updates == 3  # visible scenes update
    assert app.visible_scenes() == [base, dialog]
    other = app.replace(Recorder(app))
    assert dialog.exited == 1 and app.top is other
    assert app.visible_scenes() == [other]
    assert app.pop() is other and other.exited == 1
    assert base.entered == 2 and app.top is base


def test_escape_pops_unless_consumed(app):
    base = app.push(Recorder(app, consume=False))
    top = app.push(Recorder(app, consume=False))
    app.step([key(pygame.K_ESCAPE)], STEP)
    assert app.stack == [base] and top.exited == 1
    app.step([key(pygame.K_ESCAPE)], STEP)
    assert app.stack == [base]  # never pops the launcher
    keep = app.push(Recorder(app, consume=True))
    app.step([key(pygame.K_ESCAPE)], STEP)
    assert app.top is keep


def test_quit_event_stops_the_loop(app):
    app.push(Recorder(app))
    assert app.step([pygame.event.Event(pygame.QUIT)], STEP) is False
    assert app.running is False


def test_f12_saves_screenshot_of_logical_surface(app):
    app.set_window_size((640, 400))
    app.push(LauncherScene(app))
    app.step([key(pygame.K_F12)], STEP)
    shots = list((data_dir() / "screenshots").glob("*.png"))
    assert len(shots) == 1 and shots[0] == app.last_screenshot
    img = pygame.image.load(str(shots[0]))
    assert img.get_size() == App.LOGICAL_SIZE


def test_f11_toggles_fullscreen_and_persists(app):
    app.push(Recorder(app, consume=False))
    app.step([key(pygame.K_F11)], STEP)
    assert app.fullscreen and app.settings["fullscreen"] is True
    assert json.loads((data_dir() / "settings.json").read_text())["fullscreen"] is True
    app.step([key(pygame.K_F11)], STEP)
    assert not app.fullscreen and app.window_size() == App.LOGICAL_SIZE
    assert load_settings()["fullscreen"] is False


def test_m_toggles_sound_and_audio_respects_it(app):
    app.push(Recorder(app, consume=False))
    assert app.settings["sound"] is True
    app.step([key(pygame.K_m)], STEP)
    assert app.settings["sound"] is False and load_settings()["sound"] is False
    assert not app.audio.enabled
    app.audio.last_played = None
    app.audio.play("win")
    assert app.audio.last_played is None
    app.step([key(pygame.K_m)], STEP)
    assert app.settings["sound"] is True
    if app.audio.available:
        app.audio.play("win")
        assert app.audio.last_played == "win"
    app.audio.play("no-such-sound")  # unknown names are silent


def test_audio_without_mixer_is_silent(monkeypatch):
    from sim.app import audio

    def broken(*a, **k):
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", broken)
    a = audio.Audio(None)
    assert a.available is False and a.enabled is False
    for name in audio.SOUND_NAMES:
        a.play(name)
    a.close()


def test_synthesised_sounds():
    from sim.app.audio import SOUND_NAMES, synth
    for name in ("click", "place", "rotate", "gobble", "double", "penalty", "reject", "win", "lose",
                 "out"):
        assert name in SOUND_NAMES
        s = synth(name, 22050)
        assert 0.02 < len(s) / 22050 < 1.0
        assert float(abs(s).max()) <= 1.0 and float(abs(s).max()) > 0.1


def test_font_is_bundled_and_cached(app):
    f = app.font(20)
    assert app.font(20) is f and app.font(20, bold=True) is not f
    assert f.size("Playtable")[0] > 0


# -------------------------------------------------------------- launcher
def test_launcher_lists_registry_games_and_opens_rules(app, solitaire, tmp_path):
    launcher = app.push(LauncherScene(app))
    assert [e.spec.name for e in launcher.entries] == list(registry.GAMES)
    entry = launcher.entries[0]
    assert entry.spec is solitaire and entry.spec.title == "Gobble Solitaire"
    app.step([], STEP)
    # the card shows the title and summary: the card area is not flat background
    shot = tmp_path / "launcher.png"
    app.screenshot(shot)
    assert shot.stat().st_size > 5000
    # click "Rules" with the mouse
    click(app, entry.rules.rect.center)
    rules = app.top
    assert isinstance(rules, RulesScene) and rules.spec is solitaire and rules.error is None
    texts = [line[3] for line in rules.layout()]
    assert "Gobble Solitaire" in texts and "Turn" in texts and "Winning" in texts
    assert any("penalty stack" in t and "**" not in t for t in texts)
    assert app.visible_scenes() == [launcher, rules]
    # scrolling: wheel, keys, clamped
    assert rules.max_scroll > 0
    app.step([wheel(-1)], STEP)
    assert rules.scroll > 0
    app.step([key(pygame.K_END)], STEP)
    assert rules.scroll == rules.max_scroll
    app.step([key(pygame.K_PAGEDOWN)], STEP)
    assert rules.scroll == rules.max_scroll
    app.step([key(pygame.K_HOME), key(pygame.K_PAGEDOWN)], STEP)
    assert 0 < rules.scroll <= rules.view.h
    app.step([key(pygame.K_PAGEUP), key(pygame.K_UP)], STEP)
    assert rules.scroll == 0
    app.step([key(pygame.K_ESCAPE)], STEP)
    assert app.top is launcher


def test_launcher_keyboard_navigation(app, solitaire):
    launcher = app.push(LauncherScene(app))
    app.step([key(pygame.K_DOWN)], STEP)  # first key focuses the first Play button
    assert launcher.focus.current() is launcher.entries[0].play
    app.step([key(pygame.K_RIGHT)], STEP)
    assert launcher.focus.current() is launcher.entries[0].rules
    app.step([key(pygame.K_RETURN)], STEP)
    assert isinstance(app.top, RulesScene)
    app.step([key(pygame.K_F1)], STEP)  # F1 closes the rules again
    assert app.top is launcher
    for entry in launcher.entries[1:]:  # down through the other games' rows
        app.step([key(pygame.K_DOWN)], STEP)
        assert launcher.focus.current() in (entry.play, entry.rules)
    app.step([key(pygame.K_DOWN)], STEP)
    assert launcher.focus.current() in (launcher.host_button, launcher.join_button)
    app.step([key(pygame.K_DOWN)], STEP)
    assert launcher.focus.current() in (launcher.settings_button, launcher.quit_button)
    if launcher.focus.current() is launcher.quit_button:
        app.step([key(pygame.K_LEFT)], STEP)
    assert launcher.focus.current() is launcher.settings_button
    app.step([key(pygame.K_RETURN)], STEP)
    assert isinstance(app.top, SettingsScene)


def test_launcher_play_starts_a_match_and_autosaves(app, solitaire):
    launcher = app.push(LauncherScene(app))
    click(app, launcher.entries[0].play.rect.center)
    scene = app.top
    assert isinstance(scene, FakeGameScene) and app.match is scene.match
    assert app.current_spec is solitaire
    # saved at start, then after each action
    assert record.load(autosave_path()).log == scene.match.log
    play_some(scene.match, 3)
    assert record.load(autosave_path()).log == scene.match.log
    # F1 in the game opens its rules
    app.step([key(pygame.K_F1)], STEP)
    assert isinstance(app.top, RulesScene) and app.top.spec is solitaire
    app.step([key(pygame.K_ESCAPE)], STEP)
    assert app.top is scene
    # Esc leaves the game: back to the launcher, which now offers Resume
    app.step([key(pygame.K_ESCAPE)], STEP)
    assert app.top is launcher and app.match is None
    assert launcher.resume_match is not None and launcher.resume_button in launcher.buttons()
    assert launcher.resume_match.log == scene.match.log


def test_autosave_deleted_when_match_over(app, solitaire):
    app.push(LauncherScene(app))
    match = Match(solitaire.make_rules(), None, 7)
    app.start_match(solitaire, match)
    assert autosave_path().exists()
    guard = 0
    while not match.is_over():
        play_some(match, 1)
        guard += 1
        assert guard < 500
        if not match.is_over():
            assert autosave_path().exists()
    assert not autosave_path().exists()


def test_resume_offered_for_valid_autosave(app, solitaire):
    match = Match(solitaire.make_rules(), None, 11)
    play_some(match, 2)
    record.save(match, autosave_path())
    launcher = app.push(LauncherScene(app))
    assert launcher.resume_match is not None and launcher.resume_error is None
    assert launcher.resume_match.log == match.log
    app.step([], STEP)
    click(app, launcher.resume_button.rect.center)
    scene = app.top
    assert isinstance(scene, FakeGameScene)
    assert scene.match.log == match.log and scene.match.cursor == match.cursor
    play_some(scene.match, 1)
    assert len(record.load(autosave_path()).log) > len(match.log)


@pytest.mark.parametrize("content", [b"{not json", b'{"format": "playtable-match"}', b"\xff\xfe\x00",
                                     b'{"format":"playtable-match","format_version":1,"game":"nope",'
                                     b'"rules_version":1,"config":{},"seed":1,"actions":[],"cursor":0}'])
def test_corrupt_autosave_refused_and_left_untouched(app, solitaire, content):
    path = autosave_path()
    path.write_bytes(content)
    before = path.stat().st_mtime_ns
    launcher = app.push(LauncherScene(app))
    assert launcher.resume_match is None
    assert launcher.resume_error and "\n" not in launcher.resume_error
    assert launcher.resume_button not in launcher.buttons()
    for _ in range(3):
        app.step([key(pygame.K_DOWN), key(pygame.K_TAB), motion((1000, 300)), wheel(1)], STEP)
    launcher.on_enter()  # coming back to the launcher looks again, still read-only
    assert path.read_bytes() == content and path.stat().st_mtime_ns == before
    # starting a new match keeps the unreadable file, renamed, instead of overwriting it
    app.start_match(solitaire, Match(solitaire.make_rules(), None, 1))
    kept = list(data_dir().glob("autosave-unreadable-*.json"))
    assert len(kept) == 1 and kept[0].read_bytes() == content
    assert record.load(path).seed == 1


# -------------------------------------------------------------- settings
def test_settings_persist(app):
    launcher = app.push(LauncherScene(app))
    click(app, launcher.settings_button.rect.center)
    settings = app.top
    assert isinstance(settings, SettingsScene)
    app.step([], STEP)
    buttons = dict(settings.palette_buttons)
    assert set(buttons) == {"classic", "okabe-ito", "contrast"}
    click(app, buttons["classic"].rect.center)
    assert app.theme.name == "classic" and app.theme.symbols is False
    toggles = {k: b for k, _l, _n, b in settings.toggles}
    click(app, toggles["symbols"].rect.center)
    click(app, toggles["sound"].rect.center)
    assert app.theme.symbols is True  # forced on by the setting
    stored = json.loads((data_dir() / "settings.json").read_text())
    assert stored == {"palette": "classic", "sound": False, "fullscreen": False, "symbols": True,
                      "lan_name": ""}
    app.step([key(pygame.K_ESCAPE)], STEP)
    assert app.top is launcher
    # a new app reads them back
    app2_settings = load_settings()
    assert app2_settings == stored


def test_bad_settings_file_falls_back_to_defaults():
    (data_dir() / "settings.json").write_text('{"palette": "nope", "sound": "yes", "symbols": true}')
    s = load_settings()
    assert s["palette"] == "okabe-ito" and s["sound"] is True and s["symbols"] is True
    (data_dir() / "settings.json").write_text("[garbage")
    assert load_settings()["palette"] == "okabe-ito"


# ----------------------------------------------------------------- rules
def test_parse_markdown_blocks():
    blocks = parse_markdown("# Title\n\nline one\nline two\n\n- a **b**\n  more\n- c\n2. d\n## Sub #\ntext")
    assert blocks == [("h1", "Title"), ("p", "line one line two"), ("bullet", "a b more"),
                      ("bullet", "c"), ("num:2", "d"), ("h2", "Sub"), ("p", "text")]


def test_rules_missing_file_shows_message(app, solitaire, tmp_path):
    spec = dataclasses.replace(solitaire, rules_text=tmp_path / "missing.md")
    scene = app.show_rules(spec)
    app.step([], STEP)
    assert scene.error and "missing.md" in scene.error


def test_wrap_text_fits_width(app):
    font = app.font(18)
    text = "word " * 60 + "a" * 200
    lines = wrap_text(text, font, 300)
    assert len(lines) > 5
    assert all(font.size(line)[0] <= 300 for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


class CountingFont:
    """A font that counts ``size`` calls and the characters they measure."""

    def __init__(self, font):
        self.font, self.calls, self.chars = font, 0, 0

    def size(self, text):
        self.calls += 1
        self.chars += len(text)
        return self.font.size(text)


def test_wrap_text_breaks_a_long_word_in_near_linear_time(app):
    font = CountingFont(app.font(15))
    word = "".join(chr(ord("a") + (i * 7) % 26) for i in range(2000))   # an action quoted in an error
    lines = wrap_text("Bad action: " + word + " end", font, 400)
    assert "".join(lines).replace(" ", "") == ("Bad action: " + word + " end").replace(" ", "")
    assert all(app.font(15).size(line)[0] <= 400 for line in lines)
    # every broken piece is as long as fits: one more character would not
    pieces = lines[1:-1]
    assert all(app.font(15).size(line + word[0])[0] > 400 for line in pieces)
    # about log2(line length) calls per line made, never a call per character per line
    assert font.calls <= 12 * len(lines), (font.calls, len(lines))
    assert font.chars <= 4 * len(word) * 8
    font.calls = 0
    assert len(wrap_text(word * 50, font, 400, max_lines=6)) == 6
    assert font.calls <= 80


# ------------------------------------------------------------ entry, fuzz
def test_run_app_headless_screenshot(tmp_path):
    from sim.app.main import run_app
    out = tmp_path / "shot.png"
    assert run_app(headless=True, frames=3, screenshot=str(out)) == 0
    img = pygame.image.load(str(out))
    assert img.get_size() == (1280, 800)
    colours = {img.get_at((x, y))[:3] for x in range(0, 1280, 40) for y in range(0, 800, 40)}
    assert len(colours) > 3


def test_run_app_rejects_unknown_game_and_bad_record(tmp_path, capsys):
    from sim.app.main import run_app
    assert run_app(headless=True, frames=1, game="no-such-game") == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert run_app(headless=True, frames=1, record_path=str(bad)) == 2
    err = capsys.readouterr().err
    assert "no-such-game" in err and "not a Playtable match record" in err


def test_fuzz_launcher_settings_rules(app, solitaire):
    launcher = app.push(LauncherScene(app))

    def check():
        assert app.stack and app.stack[0] is launcher
        assert all(isinstance(s, Scene) for s in app.stack)
        for s in app.stack:
            if isinstance(s, RulesScene):
                assert 0 <= s.scroll <= s.max_scroll

    hot = lambda: [b.rect.center for b in app.top.buttons()] if hasattr(app.top, "buttons") else []  # noqa
    stats = fuzz_scene(app, 600, seed=3, check=check, hotspots=hot)
    assert stats["events"] == 600 and stats["frames"] > 100
    for scene_cls in (SettingsScene,):
        s = app.push(scene_cls(app))
        fuzz_scene(app, 300, seed=4, check=check, scene=s)
    r = app.show_rules(solitaire)
    fuzz_scene(app, 300, seed=5, check=check, scene=r)


def test_fuzz_is_deterministic(solitaire):
    def run(seed):
        a = App(headless=True)
        try:
            a.push(LauncherScene(a))
            seen = []
            rec = a.push(Recorder(a))
            fuzz_scene(a, 200, seed, check=lambda: seen.append(len(rec.events)), scene=rec)
            return [(e.type, getattr(e, "pos", None), getattr(e, "key", None)) for e in rec.events], seen
        finally:
            a.close()
    assert run(9) == run(9)
    assert run(9) != run(10)


def test_fuzz_real_gobble_scene_keeps_invariants_and_autosave():
    """The real Gobble Solitaire scene under random input, through the real loop."""
    spec = registry.get_spec("gobble-solitaire")
    a = App(headless=True)
    try:
        launcher = a.push(LauncherScene(a))
        scene = a.start_match(spec, Match(spec.make_rules(), None, 21))

        def check():
            m = scene.match
            assert m.rules.invariants(m.state) == []
            assert a.stack[0] is launcher
            if a.match is m and not m.is_over():
                assert record.load(autosave_path()).log == m.log

        stats = fuzz_scene(a, 1500, seed=21, check=check)
        assert stats["events"] == 1500
        assert a.stack[:1] == [launcher] and scene in a.stack
    finally:
        a.close()


def test_lan_name_setting_is_kept_and_checked(app):
    app.set_setting("lan_name", "Ann")
    assert load_settings()["lan_name"] == "Ann"
    write_json_atomic(settings_path(), {"lan_name": 7})
    assert load_settings()["lan_name"] == ""
    write_json_atomic(settings_path(), {"lan_name": "x" * 200})
    assert load_settings()["lan_name"] == ""


def test_wheel_deltas_reach_scenes_as_few_whole_steps(app):
    rec = app.push(Recorder(app))
    cap = App.MAX_WHEEL_STEPS
    # a bogus or flicked trackpad delta of thousands is cut to MAX_WHEEL_STEPS, both ways
    app.step([wheel(0, 3000.0), wheel(0, -1e308), wheel(0, 2.5)], STEP)
    assert [(e.y, e.precise_y) for e in rec.events] == [(cap, cap), (-cap, -cap), (2, 2.0)]
    rec.events.clear()
    # non-finite deltas are nothing; fractions accumulate into whole steps (the 0.5 left above too)
    app.step([wheel(0, float("nan")), wheel(0, float("inf")), wheel(0, 0.25), wheel(0, 0.25)], STEP)
    assert [e.y for e in rec.events] == [1]
    rec.events.clear()
    # flipped (natural scrolling) is applied once, here; scenes see flipped=False
    flipped = pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, precise_x=0.0, precise_y=1.0,
                                 flipped=True, touch=False, which=0)
    app.step([flipped], STEP)
    assert [(e.y, e.flipped) for e in rec.events] == [(-1, False)]


def test_huge_wheel_deltas_over_gobble_boards_zoom_within_bounds(app):
    from games.gobble import RACE, SOLITAIRE
    from games.gobble.view import BOARD
    for spec in (SOLITAIRE, RACE):
        scene = app.start_match(spec, Match(spec.make_rules(), None, 3), autosave=False)
        app.step([], STEP)
        scene.hold = None
        board = getattr(scene, "BOARD", BOARD)
        p = app.logical_to_window(board.center)
        for y in (4000.0, -4000.0, 1e300, -0.0001):
            app.step([motion(p), wheel(0, y)], STEP)
            assert scene.MIN_S <= scene.s <= scene.MAX_S


HOSTILE_TEXT = "a\x00b\ud800c\x1b\n"   # NUL, a lone surrogate, an escape, a newline


def test_text_the_renderer_refuses_is_cleaned_where_it_enters():
    from sim.app.widgets import clean_text
    assert clean_text(HOSTILE_TEXT) == "abc"
    kept = "😀 שלום مرحبا\u200d\u202e"   # emoji, right-to-left, joiners and marks are kept
    assert clean_text(kept) == kept
    assert clean_text("x" * 50, 32) == "x" * 32 and clean_text(7) == "7"


def test_host_and_join_dialogs_survive_nul_and_surrogates(app):
    from sim.app.lan_setup import HostSetupScene, JoinScene
    from sim.app.ui import Kit
    # a settings file whose name holds NUL and a lone surrogate (JSON escapes can carry both)
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text('{"lan_name": "Al\\u0000i\\ud800ce"}', encoding="utf-8")
    app.settings = load_settings()
    assert app.settings["lan_name"] == "Alice"
    for cls in (HostSetupScene, JoinScene):
        scene = app.push(cls(app))
        app.step([], STEP)
        scene.f_name.focused = True
        for f in scene.fields:
            if f is not scene.f_name:
                f.focused = False
        typed = pygame.event.Event(pygame.TEXTINPUT, text="\x00\ud800😀ש")
        app.step([typed], STEP)
        assert scene.f_name.text == "Alice😀ש"
        scene.error = "host said: " + HOSTILE_TEXT   # an error line quoting a peer
        app.step([], STEP)
        app.pop()
    assert Kit(app).text(HOSTILE_TEXT, 14, (255, 255, 255)).get_width() > 0


def test_hostile_fuzz_of_boards_dialogs_and_text_fields():
    """Hostile input (extreme wheel, NUL / surrogate / emoji / right-to-left text, key-repeat floods,
    focus changes, the letterbox, windows from 1x1 to 8K) on a game board, the launcher and the Host
    and Join dialogs with a text field focused: nothing raises, the window gets its size back."""
    from sim.app.lan_setup import HostSetupScene, JoinScene
    a = App(headless=True)
    try:
        launcher = a.push(LauncherScene(a))
        size = a.window_size()
        for spec_name in ("gobble-solitaire", "gobble"):
            spec = registry.get_spec(spec_name)
            scene = a.start_match(spec, Match(spec.make_rules(), None, 8), autosave=False)

            def check(scene=scene):
                assert a.stack[0] is launcher and scene.MIN_S <= scene.s <= scene.MAX_S

            stats = fuzz_scene(a, 1200, seed=31, check=check, hostile=True)
            assert stats["resizes"] > 0 and a.window_size() == size
        for cls in (HostSetupScene, JoinScene):
            dlg = a.push(cls(a))
            dlg.f_name.focused = True

            def check_text(dlg=dlg):
                for f in dlg.fields:
                    assert "\x00" not in f.text and all(not 0xD800 <= ord(ch) <= 0xDFFF for ch in f.text)
                    assert len(f.text) <= f.limit

            fuzz_scene(a, 800, seed=32, check=check_text, scene=dlg, hostile=True,
                       keys=((pygame.K_BACKSPACE, 0), (pygame.K_TAB, 0), (pygame.K_a, 0), (pygame.K_RIGHT, 0)))
            assert a.window_size() == size
            a.pop()
    finally:
        a.close()


# ---------------------------------------------------------------- redraw policy
def _pixels(app):
    return pygame.image.tobytes(app.surface, "RGB")


def _settle(app, frames=40):
    """Steps until no scene wants a frame (a still screen); fails if it never gets there."""
    for _ in range(frames):
        app.step([], STEP)
        if not app.needs_draw():
            return
    raise AssertionError("the screen never became still")


def test_a_still_launcher_is_not_redrawn_and_a_posted_event_shows_within_one_frame(app):
    scene = app.push(LauncherScene(app))
    app.idle_wait = True             # the real loop's path: wait for events while nothing changes
    app.run(frames=3)
    assert not app.needs_draw()
    drawn, before = app.frames_drawn, _pixels(app)
    app.run(frames=2)
    assert app.frames_drawn == drawn and _pixels(app) == before
    play = scene.entries[0].play
    pygame.event.post(motion(play.rect.center))
    app.run(frames=1)
    assert play.hover
    assert app.frames_drawn == drawn + 1 and _pixels(app) != before


def test_a_waiting_game_screen_redraws_on_input_and_on_a_move_only(app):
    from games.tumbleweed.view import demo_match

    m = demo_match(8, 6, seed=3)
    spec = registry.get_spec("tumbleweed")
    scene = app.start_match(spec, m, autosave=False)
    app.audio.play = lambda name: None
    _settle(app)
    drawn, before = app.frames_drawn, _pixels(app)
    for _ in range(5):
        app.step([], STEP)
    assert app.frames_drawn == drawn
    # the pointer over an empty hex: the preview is drawn in the very next frame
    seat = m.active_players()[0]
    cell = next((a["q"], a["r"]) for a in m.rules.legal_actions(m.state, seat) if a.get("t") == "place")
    app.step([motion(scene.cell_pos(cell))], STEP)
    assert app.frames_drawn == drawn + 1 and _pixels(app) != before
    _settle(app)
    # a move that reaches the match outside the screen's input (a bot's, the network's) is shown at once
    drawn, before = app.frames_drawn, _pixels(app)
    m.submit(seat, next(a for a in m.rules.legal_actions(m.state, seat) if a.get("t") == "place"))
    app.step([], STEP)
    assert app.frames_drawn == drawn + 1 and _pixels(app) != before


def test_a_scene_that_says_nothing_is_drawn_every_frame(app):
    class Ticker(Scene):
        def __init__(self, app):
            super().__init__(app)
            self.n = 0

        def draw(self, surface):
            self.n += 1

    t = app.push(Ticker(app))
    for _ in range(4):
        app.step([], STEP)
    assert t.n == 4 and app.needs_draw()


def test_a_toast_is_drawn_and_wiped_then_the_screen_is_still(app):
    app.push(LauncherScene(app))
    _settle(app)
    plain = _pixels(app)
    app.toast("Hello", 0.1)
    app.step([], STEP)
    assert _pixels(app) != plain
    for _ in range(12):
        app.step([], STEP)
    assert _pixels(app) == plain and not app.needs_draw()


def test_the_window_is_drawn_into_directly_only_at_the_logical_size(app, tmp_path):
    app.push(LauncherScene(app))
    app.step([], STEP)
    assert app.surface is pygame.display.get_surface()
    direct = _pixels(app)
    app.set_window_size((800, 500))
    app.step([], STEP)
    assert app.surface is not pygame.display.get_surface() and app.surface.get_size() == App.LOGICAL_SIZE
    assert _pixels(app) == direct            # the same logical picture, scaled into the window
    app.set_window_size(App.LOGICAL_SIZE)
    app.step([], STEP)
    assert app.surface is pygame.display.get_surface() and _pixels(app) == direct
    assert pygame.image.load(str(app.screenshot(tmp_path / "shot.png"))).get_size() == App.LOGICAL_SIZE


def test_idle_figure_of_the_bench_draws_nothing_on_a_still_screen():
    from sim.app.bench import _launcher, waiting_for_human
    from sim.app.framebench import idle_cpu

    cpu, drawn, _settled = idle_cpu(_launcher, seconds=0.3)
    assert drawn == 0 and cpu >= 0.0
    cpu, drawn, _settled = idle_cpu(waiting_for_human("streetcar"), seconds=0.3)
    assert drawn == 0


def test_the_idle_figure_of_a_race_seats_only_humans_when_asked(app):
    """A race's bots play on, so the bench's still figure of a real-time game seats every seat human."""
    from sim.app.bench import waiting_for_human

    spec = registry.get_spec("gobble")
    assert spec.realtime
    scene = waiting_for_human("gobble", humans_only=True)(app)
    seats = [s.text() for s in scene.match.seats]
    assert len(seats) == len(spec.default_players) and set(seats) == {"human"}
    scene = waiting_for_human("gobble")(app)
    assert [s.text() for s in scene.match.seats] == list(spec.default_players)


def test_gobble_solitaire_is_still_again_after_a_placement(app):
    """A screen with its own update (Gobble Solitaire) still stops redrawing once the placement's
    animations are over: the age of the last action comes from the app's clock."""
    spec = registry.get_spec("gobble-solitaire")
    m = Match(spec.make_rules(), None, 3)
    scene = app.start_match(spec, m, autosave=False)
    app.audio.play = lambda name: None
    placed = 0
    for _ in range(3):
        st = m.state
        acts = [a for a in m.rules.legal_actions(st, 0) if a.get("t") == "place"]
        if not acts:
            break
        m.submit(0, acts[0])
        placed += 1
        app.step([], STEP)
        assert app.needs_draw()
        _settle(app, 240)
    assert placed and scene.state.board


def test_a_button_label_drawn_again_shows_a_new_label_and_still_notes_a_cut(app):
    """A button keeps its label's images between frames: a new label (or colour) shows on the next
    draw, and a label cut to fit is noted in CLIPPED every time it is drawn."""
    from sim.app.widgets import CLIPPED, Button

    surf = pygame.Surface((300, 60))
    b = Button((10, 10, 200, 40), "Draw", font_size=17)

    def shot():
        surf.fill((0, 0, 0))
        b.draw(surf, app)
        return pygame.image.tobytes(surf, "RGB")
    first = shot()
    assert shot() == first
    b.label = "Place"
    assert shot() != first
    b.label = "Draw"
    assert shot() == first
    b.enabled = False
    assert shot() != first
    b.enabled = True
    b.label = "A label far too long to fit into this little button whatever its size"
    b.rect = pygame.Rect(10, 10, 60, 20)
    CLIPPED.clear()
    shot()
    assert len(CLIPPED) == 1
    shot()
    assert len(CLIPPED) == 2
    CLIPPED.clear()


def test_a_button_label_wraps_rather_than_shrink_far_below_its_row(app):
    """A label that fits one line only well below the button's size goes on two lines at a larger
    size when the button is tall enough (the selected "✓ None" beside two-line "Tom +1"); one that
    shrinks by 2 px or less, or a button too low for two lines, keeps one line."""
    from sim.app.widgets import LABEL_PAD, Button

    def layout(label, w, h, size=17):
        b = Button((0, 0, w, h), label, font_size=size)
        images = b.label_images(app, (255, 255, 255), b.rect)
        return len(images), max(img.get_height() for img, _ in images), images

    bold = app.font(16, bold=True)
    w = max(bold.size(word)[0] for word in ("✓", "None")) + 2 * LABEL_PAD + 1    # each word fits at 16
    lines, _h, images = layout("✓ None", w, 40)
    assert lines == 2 and all(x >= 0 and x + img.get_width() <= w for img, (x, _y) in images)
    assert layout("✓ None", w, 28)[0] == 1                                # too low for two lines
    one = app.font(16, bold=True).size("Easy win")[0] + 2 * LABEL_PAD     # fits one line at 16 of 17
    assert layout("Easy win", one, 40)[0] == 1
    assert layout("Hard", 200, 40)[0] == 1


def test_a_card_drawn_from_its_kept_picture_is_the_card_drawn_anew(app):
    """Kit.card keeps each card's picture: on any background it gives the very pixels of drawing the
    rounded card anew, and a card that turns active (or takes an edge colour) shows so at once."""
    from sim.app.ui import Kit
    from sim.app.widgets import mix

    kit, th = Kit(app), app.theme
    for rect, active, edge in (((10, 12, 200, 90), False, None), ((10, 12, 200, 90), True, None),
                               ((33, 7, 150, 130), False, (200, 60, 60)), ((10, 12, 200, 90), False, None)):
        kept, anew = pygame.Surface((260, 160)), pygame.Surface((260, 160))
        for s in (kept, anew):
            s.fill((40, 90, 30))
            pygame.draw.line(s, (250, 250, 0), (0, 0), (259, 159), 9)
        kit.card(kept, rect, active=active, edge=edge)
        fill = mix(th.panel, th.accent, 0.16) if active else mix(th.panel, th.bg, 0.35)
        line = th.accent if active else (edge or mix(th.panel, th.panel_edge, 0.6))
        pygame.draw.rect(anew, fill, rect, border_radius=12)
        pygame.draw.rect(anew, line, rect, 2 if active or edge else 1, border_radius=12)
        assert pygame.image.tobytes(kept, "RGB") == pygame.image.tobytes(anew, "RGB"), (rect, active, edge)
