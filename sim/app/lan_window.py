"""``playtable join`` with a display: a window on a joined LAN game (the game's own LAN screen,
``GameSpec.make_lan_scene``), over the launcher, so leaving the game lands in the launcher."""
from __future__ import annotations

import os
import sys
from typing import Any


def run_join_window(spec: Any, client: Any, address: str, host: Any = None) -> int:
    """Open a window on ``client``'s game of ``spec``; returns the exit code (2 without a display, or
    for a game that has no LAN screen yet)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if spec.make_lan_scene is None:
        print(f"playtable: error: {spec.name} has no LAN window yet (use --headless or --auto)",
              file=sys.stderr)
        return 2
    import pygame

    from .app import App
    from .launcher import LauncherScene

    app = App(headless=False)
    if pygame.display.get_driver() in ("offscreen", "dummy"):
        app.close()
        print("playtable: no display found (use --headless for JSON lines)", file=sys.stderr)
        return 2
    try:
        pygame.display.set_caption(f"Playtable · {client.name} @ {address}")
        app.push(LauncherScene(app))
        app.push(spec.make_lan_scene(app, client, host, address))
        return app.run()
    finally:
        app.close()
