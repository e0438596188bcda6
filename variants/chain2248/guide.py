"""2248 in words for people: the Help text with its tile chart, and the tutorial's pages."""

from __future__ import annotations

from twofold.plugin import TutorialPage, _
from twofold.variants.chain2248.powerups import GRANT_ORDER, powerup_name
from twofold.variants.chain2248.rules import GRANT_FROM, RETIRE_FROM, RETIRE_GAP

#: how far the tile chart goes (2**20 is about a million)
CHART_TOP = 20


def tile_chart() -> list[tuple[int, int | None, str]]:
    """Each tile from 512 up: the number it retires (or None) and the power-up it grants."""
    rows: list[tuple[int, int | None, str]] = []
    for e in range(GRANT_FROM, CHART_TOP + 1):
        retires = 1 << (e - RETIRE_GAP) if e >= RETIRE_FROM else None
        grant = GRANT_ORDER[(e - GRANT_FROM) % len(GRANT_ORDER)]
        rows.append((1 << e, retires, grant))
    return rows


def help_text() -> str:
    """The 2248 rules, controls, power-ups and tile chart, as Markdown for Help."""
    chart = "\n".join(
        "| {tile} | {retires} | {grant} |".format(
            tile=tile,
            retires=retires if retires is not None else "—",
            grant=powerup_name(grant),
        )
        for tile, retires, grant in tile_chart()
    )
    return "\n\n".join(
        [
            _(
                "Join touching tiles (diagonals count) into a chain. The second tile equals "
                "the first; every further tile equals the previous one or doubles it. The "
                "chain's sum, rounded up to the next power of two, appears on its last cell: "
                "2+2 → 4, 2+2+2 → 8, 128+128+128 → 512. The score grows by the new tile."
            ),
            _(
                "Tiles above fall into the gaps and new tiles drop in from the top. The game "
                "ends when no two equal tiles touch; a power-up you hold may still help."
            ),
            "#### " + _("Controls"),
            "\n".join(
                [
                    "- "
                    + _(
                        "Mouse: press on a tile, drag through touching tiles, release to "
                        "merge; drag back to take the last tile off; back to the first "
                        "and release to cancel."
                    ),
                    "- "
                    + _(
                        "Tap by tap: click to start, click touching tiles to add, click "
                        "the last again to merge, the first again to cancel."
                    ),
                    "- "
                    + _(
                        "Keys: arrows move the cursor, Space or Enter adds, Backspace "
                        "takes the last off, Enter on the last merges, Esc cancels."
                    ),
                    "- "
                    + _(
                        "1 Hammer, 2 Swap, 3 Shuffle, U or Z Undo, H hint, P pause, "
                        "R reads the board, N new game."
                    ),
                ]
            ),
            "#### " + _("Power-ups"),
            _(
                "Hammer removes one tile. Swap exchanges two neighbouring tiles. Shuffle mixes "
                "the board and always leaves a chain. Undo takes back the last move. Arm one "
                "with its button or key, then pick the tile; Esc cancels. Daily gives a Hammer "
                "and a Swap and a budget of merges; Blitz has a 3-minute clock and offers a "
                "free Shuffle when the board is stuck."
            ),
            "#### " + _("Tile chart"),
            _(
                "Each new highest tile from 512 up earns a power-up (Classic); from 2048 up it "
                "retires a small number for good."
            ),
            "| {tile} | {retires} | {grant} |\n|---:|---:|---|\n".format(
                tile=_("Highest tile"), retires=_("Retires"), grant=_("Earns")
            )
            + chart,
        ]
    )


def tutorial() -> tuple[TutorialPage, ...]:
    """The steps, translated now (the language may change between two showings)."""
    return (
        TutorialPage(
            _("1 of 3: draw a chain"),
            _(
                "Press on a tile and drag through touching tiles with the same number; "
                "diagonals count. Release to merge. Or click tile by tile and click the last "
                "one again, or move with the arrow keys, add with Space and merge with Enter."
            ),
            (2, 2),
            4,
        ),
        TutorialPage(
            _("2 of 3: equal or double"),
            _(
                "After two equal tiles, each next tile equals the one before it or doubles it. "
                "The chain's sum, rounded up to a power of two, lands on its last tile: "
                "2 + 2 + 4 + 8 makes 16, and three 2s make 8. Chains of 6 or more earn praise."
            ),
            (2, 2, 4, 8),
            16,
        ),
        TutorialPage(
            _("3 of 3: power-ups and the hint"),
            _(
                "1 Hammer removes a tile, 2 Swap exchanges two neighbours, 3 Shuffle mixes "
                "the board, U takes back the last move. H shows the best chain, P pauses. "
                "New highest tiles from 512 up earn power-ups; at 2048 the 2 retires."
            ),
            (512, 512),
            1024,
        ),
    )
