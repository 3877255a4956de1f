"""Shared test set-up: headless SDL and a private data folder per test.

The SDL drivers are chosen here, at import time, before any test module imports pygame
(specs/DESIGN.md "Tests"). ``PLAYTABLE_HOME`` points at a fresh temporary folder for every test, so
settings, autosaves and screenshots never touch the user's real data folder.
"""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def playtable_home(tmp_path_factory, monkeypatch):
    """A fresh, empty data folder for each test (``sim.core.storage.data_dir()``)."""
    home = tmp_path_factory.mktemp("playtable-home")
    monkeypatch.setenv("PLAYTABLE_HOME", str(home))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    return home


@pytest.fixture
def app():
    """A headless ``App`` (1280x800 px window, dummy drivers), closed after the test."""
    from sim.app.app import App

    a = App(headless=True)
    try:
        yield a
    finally:
        a.close()
