"""Synthetic pygame input for the view tests (positions in logical px, as scenes receive them)."""
from __future__ import annotations

import pygame

STEP = 1 / 60


def motion(pos, rel=(0, 0), buttons=(0, 0, 0)):
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=rel, buttons=buttons, touch=False)


def down(pos, button=1):
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button, touch=False)


def up(pos, button=1):
    return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button, touch=False)


def key(k, mod=0):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def wheel(y, precise=None):
    """One MOUSEWHEEL event: ``y`` whole notches, ``precise`` the trackpad's fractional value."""
    return pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=int(y), precise_x=0.0,
                              precise_y=float(y if precise is None else precise),
                              flipped=False, touch=False, which=0)


def click(app, pos, step=STEP):
    """Move to ``pos`` and press and release the left button there, in one frame of ``app``."""
    app.step([motion(pos), down(pos), up(pos)], step)


def frames(app, n=3):
    """Run ``n`` empty frames of ``app``."""
    for _ in range(n):
        app.step([], app.STEP)
