"""Palettes, fonts and shapes shared by every scene (specs/DESIGN.md "App").

Every palette gives the same keys. Game colours carry a *symbol* as well (``SYMBOLS``), so no
information is carried by colour alone: views draw the symbol wherever a colour matters
(``Theme.symbols`` is True in the colour-blind-safe palette and can be forced on in settings).

Tantrix link colours are keyed by the tile letters R, Y, B, G (specs/gobble.md "Tiles").
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

RGB = tuple[int, int, int]

def _assets() -> Path:
    """The assets folder: beside the packages in a source tree or editable install, else the copy a
    regular install puts in ``<prefix>/share/playtable/assets``."""
    import sys

    here = Path(__file__).resolve().parents[2] / "assets"
    if (here / "fonts").is_dir():
        return here
    for prefix in (sys.prefix, sys.base_prefix):
        p = Path(prefix) / "share" / "playtable" / "assets"
        if (p / "fonts").is_dir():
            return p
    return here


ASSETS = _assets()
FONT_REGULAR = ASSETS / "fonts" / "DejaVuSans.ttf"
FONT_BOLD = ASSETS / "fonts" / "DejaVuSans-Bold.ttf"

#: Shape drawn with each link colour: circle, triangle, square, diamond.
SYMBOLS = {"R": "circle", "Y": "triangle", "B": "square", "G": "diamond"}


@dataclass(frozen=True)
class Palette:
    name: str
    label: str
    bg: RGB
    panel: RGB
    panel_edge: RGB
    text: RGB
    text_dim: RGB
    accent: RGB
    good: RGB
    bad: RGB
    highlight: RGB
    tile: RGB
    tile_edge: RGB
    links: dict[str, RGB] = field(default_factory=dict)
    symbols: bool = False


PALETTES: dict[str, Palette] = {
    "classic": Palette(
        name="classic", label="Classic",
        bg=(28, 36, 44), panel=(40, 50, 62), panel_edge=(80, 96, 112), text=(236, 236, 236),
        text_dim=(160, 170, 180), accent=(240, 180, 60), good=(90, 200, 120), bad=(230, 80, 70),
        highlight=(255, 255, 255), tile=(16, 16, 18), tile_edge=(70, 70, 76),
        links={"R": (220, 40, 40), "Y": (250, 215, 40), "B": (40, 110, 230), "G": (40, 170, 70)},
    ),
    "okabe-ito": Palette(
        # Okabe & Ito (2008) colour-universal-design set: vermillion, yellow, blue, bluish green.
        name="okabe-ito", label="Colour-blind safe (Okabe-Ito + symbols)",
        bg=(30, 30, 36), panel=(46, 46, 56), panel_edge=(100, 100, 116), text=(240, 240, 240),
        text_dim=(170, 170, 180), accent=(230, 159, 0), good=(0, 158, 115), bad=(213, 94, 0),
        highlight=(255, 255, 255), tile=(12, 12, 14), tile_edge=(80, 80, 88),
        links={"R": (213, 94, 0), "Y": (240, 228, 66), "B": (0, 114, 178), "G": (0, 158, 115)},
        symbols=True,
    ),
    "contrast": Palette(
        name="contrast", label="High contrast + symbols",
        bg=(0, 0, 0), panel=(24, 24, 24), panel_edge=(255, 255, 255), text=(255, 255, 255),
        text_dim=(200, 200, 200), accent=(255, 200, 0), good=(0, 230, 120), bad=(255, 60, 60),
        highlight=(255, 255, 255), tile=(0, 0, 0), tile_edge=(200, 200, 200),
        links={"R": (255, 60, 60), "Y": (255, 240, 0), "B": (60, 140, 255), "G": (0, 220, 100)},
        symbols=True,
    ),
}

DEFAULT_PALETTE = "okabe-ito"


def palette(name: str) -> Palette:
    """The palette called ``name``, or the default one if unknown."""
    return PALETTES.get(name, PALETTES[DEFAULT_PALETTE])
