"""Fuzz: 20,000 random events on the Gobble Solitaire scene through the real loop.

After every frame the rules' invariants must hold (bag + board + penalty stack + held tile = the 56
tiles, each exactly once; no mismatched edges). Random input is steered towards the tile in hand and
the legal cells, and every 25 frames the greedy bot makes the move if the random input has not, so the
scene is fuzzed in every phase of the game (placing, fits-nowhere, rescue, the end screen, new games).
"""
from __future__ import annotations

import pygame

from games.gobble import SOLITAIRE
from games.gobble import view as gview
from games.gobble.ai import make_solitaire_agent
from sim.app.app import App
from sim.app.fuzz import DEFAULT_KEYS, fuzz_scene
from sim.app.launcher import LauncherScene
from sim.core.match import Match

EXTRA_KEYS = ((pygame.K_k, 0), (pygame.K_f, 0), (pygame.K_PLUS, 0), (pygame.K_MINUS, 0))


def test_fuzz_20000_events_on_solitaire_scene():
    app = App(headless=True)
    try:
        app.push(LauncherScene(app))
        scene = app.start_match(SOLITAIRE, Match(SOLITAIRE.make_rules(), None, 77))
        seen_logs = set()
        seen_phases = set()
        bot = make_solitaire_agent("greedy", 5)
        frames = [0]
        live = [0]
        cur = [scene]

        def current():
            if isinstance(app.top, gview.SolitaireScene):
                cur[0] = app.top
            return cur[0]

        def hotspots():
            s = current()
            spots = [gview.HAND_C, gview.PEN_C]
            tile = s.movable()
            if tile is not None:
                spots += [s.cell_pos(c) for c in list(s.placements(tile))[:12]]
            return spots

        def check():
            s = current()
            m = s.match
            assert m.rules.invariants(m.state) == []
            if s in app.stack:
                assert s._table_events in m.listeners  # the scene hears its match while it is shown
            seen_logs.add((id(m), len(m.log)))
            seen_phases.add(m.state.phase)
            frames[0] += 1
            live[0] += not m.is_over()
            if frames[0] % 25 == 0 and m.active_players() == [0] and m.cursor == len(m.log):
                m.submit(0, bot.select_action(m.rules, m.state, 0))

        stats = fuzz_scene(app, 20000, seed=2024, check=check, hotspots=hotspots,
                           keys=tuple(DEFAULT_KEYS) + EXTRA_KEYS, follow=True)
        assert stats["events"] == 20000
        # the run went on into new games ("New game" was followed), bound to the autosave each time
        assert stats["followed"] >= 1 and app.match is app.top.match
        print("fuzz:", stats, "live frames", live[0])
        assert live[0] > 0.6 * stats["frames"]  # most frames fuzz a game still in play
        # the fuzz really played: many distinct positions were reached
        assert len(seen_logs) > 100
        assert {"place", "over"} <= seen_phases
    finally:
        app.close()
