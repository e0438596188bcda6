"""The leaderboard's pages: today's board of every daily mode, and a game's replay.

Plain HTML with a little script, usable on a phone; every name is escaped where it is
written (into HTML here, into the page as text by the replay script).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from datetime import date

from twofold.core._i18n import _
from twofold.core._rules import Mode
from twofold.ui.leaderboard.boards import Entry

STYLE = """
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 40rem; padding: 0.8rem;
       background: #faf8ef; color: #333; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 1.5rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 0.35rem 0.4rem; border-bottom: 1px solid #ddd; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
td, h1, h2, p { overflow-wrap: anywhere; }
a { color: #8f5b00; }
#board { display: grid; gap: 4px; margin: 1rem auto; max-width: 24rem; }
#board div { aspect-ratio: 1; display: flex; align-items: center; justify-content: center;
             background: #cdc1b4; border-radius: 4px; font-weight: bold;
             font-size: clamp(0.7rem, 4vw, 1.3rem); }
#board div.t { background: #eee4da; }
.controls { display: flex; gap: 0.5rem; justify-content: center; flex-wrap: wrap; }
.controls button { font-size: 1.1rem; padding: 0.5rem 0.9rem; min-width: 3rem; }
input[type=range] { width: 100%; }
"""

REPLAY_SCRIPT = """
const board = document.getElementById("board"), step = document.getElementById("step");
const said = document.getElementById("said"), slider = document.getElementById("slider");
let game = null, at = 0, timer = null;
function draw() {
  const rows = game.boards[at];
  board.style.gridTemplateColumns = `repeat(${rows[0].length}, 1fr)`;
  board.replaceChildren(...rows.flat().map(v => {
    const cell = document.createElement("div");
    cell.textContent = v ? String(v) : "";
    if (v) cell.className = "t";
    return cell;
  }));
  slider.value = at;
  step.textContent = `${at} / ${game.boards.length - 1} · ${game.scores[at]}`;
  said.textContent = at ? game.actions[at - 1] : "";
}
function go(to) { at = Math.max(0, Math.min(game.boards.length - 1, to)); draw(); }
function play() {
  if (timer) { clearInterval(timer); timer = null; return; }
  timer = setInterval(() => { if (at >= game.boards.length - 1) play(); else go(at + 1); }, 250);
}
document.getElementById("first").onclick = () => go(0);
document.getElementById("back").onclick = () => go(at - 1);
document.getElementById("play").onclick = play;
document.getElementById("next").onclick = () => go(at + 1);
document.getElementById("last").onclick = () => go(game.boards.length - 1);
slider.oninput = () => go(Number(slider.value));
fetch(location.pathname.replace("/replay/", "/api/entries/") + "/replay")
  .then(r => r.json()).then(data => {
    if (data.error) { said.textContent = data.error; return; }
    game = data; slider.max = game.boards.length - 1; go(0);
  });
"""


def _document(title: str, body: str, script: str = "") -> str:
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
        f"<body>{body}{f'<script>{script}</script>' if script else ''}</body></html>"
    )


def _rows(entries: Sequence[Entry]) -> str:
    if not entries:
        return "<p>" + html.escape(_("No results yet today.")) + "</p>"
    head = "".join(
        f"<th>{html.escape(label)}</th>"
        for label in ("#", _("Name"), _("Score"), _("Largest tile"), _("Moves"))
    )
    rows = "".join(
        "<tr>"
        f"<td class='n'>{entry.rank}</td>"
        f"<td><a href='/replay/{entry.id}'>{html.escape(entry.name)}</a></td>"
        f"<td class='n'>{entry.score}</td><td class='n'>{entry.largest}</td>"
        f"<td class='n'>{entry.moves}</td>"
        "</tr>"
        for entry in entries
    )
    return f"<table><tr>{head}</tr>{rows}</table>"


def front(today: date, boards: Sequence[tuple[Mode, Sequence[Entry]]]) -> str:
    """Today's board of every daily mode, best first, each name linking to its replay."""
    parts = [
        "<h1>" + html.escape(_("twofold: today's boards ({day})").format(day=today)) + "</h1>",
        "<p>"
        + html.escape(
            _(
                "Every result here was replayed from its proof on the day's deal. Unassisted "
                "games only; a name opens its game move by move."
            )
        )
        + "</p>",
    ]
    for mode, entries in boards:
        parts.append(f"<h2>{html.escape(mode.title)}</h2>{_rows(entries)}")
    return _document(_("twofold leaderboard"), "".join(parts))


def replay(entry: Entry) -> str:
    """One game, move by move, drawn from its proof by the page's script."""
    heading = _("{name}: {score} in {mode} {code}").format(
        name=entry.name, score=entry.score, mode=entry.mode, code=entry.code
    )
    body = (
        f"<p><a href='/'>{html.escape(_('Boards'))}</a></p>"
        f"<h1>{html.escape(heading)}</h1>"
        "<div id='board'></div>"
        "<p id='step' style='text-align:center'></p>"
        "<p id='said' style='text-align:center'></p>"
        "<input id='slider' type='range' min='0' max='0' value='0'>"
        "<div class='controls'>"
        "<button id='first'>⏮</button><button id='back'>◀</button>"
        "<button id='play'>▶︎ ⏸</button><button id='next'>▶</button>"
        "<button id='last'>⏭</button></div>"
    )
    return _document(heading, body, REPLAY_SCRIPT)
