"""``playtable join`` with a display: a window on a joined LAN game (the game's own LAN lobby,
``GameSpec.make_lan_scene``, or the shared lobby and then the game's own screen on a ``RemoteMatch``),
over the launcher, so leaving the game lands in the launcher."""
from __future__ import annotations

import os
import sys
from typing import Any


def run_join_window(spec: Any, client: Any, address: str, host: Any = None) -> int:
    """Open a window on ``client``'s game of ``spec``; returns the exit code (2 without a display)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from .app import App
    from .lan_lobby import lobby_scene
    from .launcher import LauncherScene

    app = App(headless=False)
    if pygame.display.get_driver() in ("offscreen", "dummy"):
        app.close()
        print("playtable: no display found (use --headless for JSON lines)", file=sys.stderr)
        return 2
    try:
        pygame.display.set_caption(f"Playtable · {client.name} @ {address}")
        app.push(LauncherScene(app))
        app.push(lobby_scene(app, spec, client, host, address))
        return app.run()
    finally:
        app.close()
