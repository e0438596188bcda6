"""Draw the learning curve of ``curve.json`` as ``curve.png`` (needs matplotlib).

python examples/learning/plot.py [curve.json] [curve.png]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # a file, no window
import matplotlib.pyplot as plt

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    source = Path(argv[0]) if argv else HERE / "curve.json"
    target = Path(argv[1]) if len(argv) > 1 else HERE / "curve.png"
    data = json.loads(source.read_text(encoding="utf-8"))
    curve = data["curve"]
    games = [p["games"] for p in curve]
    figure, score = plt.subplots(figsize=(8, 4.5), dpi=100)
    score.plot(games, [p["mean_score"] for p in curve], color="tab:blue")
    score.set_xlabel("games played")
    score.set_ylabel("mean score", color="tab:blue")
    share = score.twinx()
    share.plot(games, [100 * p["reached_2048"] for p in curve], color="tab:orange")
    share.set_ylabel("games reaching 2048 (%)", color="tab:orange")
    share.set_ylim(0, 100)
    held = data["held_out"]
    minutes = curve[-1]["cpu_minutes"]
    score.set_title(
        f"n-tuple TD(0) afterstates on twofold/2048-v0: {games[-1]} games, "
        f"{minutes:.1f} CPU minutes\nheld-out mean score {held['agent']:.0f} "
        f"(random play {held['random']:.0f}, {held['codes']} codes)",
        fontsize=10,
    )
    figure.tight_layout()
    figure.savefig(target)
    print(target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
