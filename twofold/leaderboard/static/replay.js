"use strict";
/* A game played back from its replay (GET /api/entries/ID/replay). The tiles move as the
   app moves them: plan() and frame() are ui/app/board/motion.py's, read in the same order
   (travel, then change, then arrive, at the same speeds). A chain is drawn before it
   merges; with reduced motion asked for, every step shows at once, its chain drawn on it. */
(() => {
  const root = document.getElementById("replay");
  const said = JSON.parse(document.getElementById("said-words").textContent);
  // a board that is no rectangle (a hexagon): each cell's position, -2 where there is none
  const shape = JSON.parse(document.getElementById("layout").textContent);
  const NO_CELL = -2;
  const board = document.getElementById("board");
  const cellsLayer = board.querySelector(".cells");
  const tilesLayer = board.querySelector(".tiles");
  const chainLayer = board.querySelector("svg.chain");
  const stepLine = document.getElementById("step");
  const wordsLine = document.getElementById("said");
  const slider = document.getElementById("slider");
  const playButton = document.getElementById("play");
  const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
  // motion.py's speeds: a tenth of a second a phase, falls a little longer
  const SECONDS = { travel: 0.1, change: 0.1, arrive: 0.1 };
  const FALL_SECONDS = 0.18;
  // how long a chain shows before it merges, and the pause between moves while playing
  const CHAIN_HOLD = 0.35;
  const PAUSE = 0.25;
  const PAUSE_REDUCED = 0.6;
  // the board drawn in units of one cell: a cell is 100 wide, the gap between cells 12
  const UNIT = 100;
  const GAP = 12;
  const SVG = "http://www.w3.org/2000/svg";

  let game = null;
  let at = 0;
  let last = 0;
  let playing = false;
  let running = null;
  let waiting = null;

  const key = (r, c) => `${r},${c}`;
  const cellOf = (text) => text.split(",").map(Number);
  const clamp01 = (t) => Math.min(1, Math.max(0, t));
  const slide = (t) => 1 - (1 - clamp01(t)) ** 3;
  const fall = (t) => clamp01(t) ** 2;
  const format = (text, values) =>
    text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));

  // -- where a cell is drawn ----------------------------------------------------------------

  const positions = new Map(
    shape ? shape.cells.map(([r, c], i) => [`${r},${c}`, shape.positions[i]]) : []);

  function place(r, c) {
    const at = positions.get(key(r, c));
    return at ? { x: at[0], y: at[1] } : { x: c, y: r };
  }

  function sprite(r, c, value, scale = 1) {
    return { ...place(r, c), value, scale };
  }

  function between(r0, c0, r1, c1, u, value) {
    const a = place(r0 < 0 ? 0 : r0, c0);
    const b = place(r1, c1);
    const ay = r0 < 0 ? b.y + (r0 - r1) : a.y; // a tile dropping in starts above the board
    return { x: a.x + (b.x - a.x) * u, y: ay + (b.y - ay) * u, value, scale: 1 };
  }

  function* tiles(grid) {
    for (let r = 0; r < grid.length; r += 1) {
      for (let c = 0; c < grid[r].length; c += 1) {
        if (grid[r][c] > 0) yield [r, c, grid[r][c]];
      }
    }
  }

  const still = (grid) => Array.from(tiles(grid), ([r, c, v]) => sprite(r, c, v));

  // -- motion.py's plan: the phases an action's events tell -----------------------------------

  function plan(before, after, events) {
    const rows = before.length;
    const cols = rows ? before[0].length : 0;
    const grid = before.map((row) => row.slice());
    const phases = [];
    let kind = null;
    let glides = [];
    let drops = [];
    let vanish = new Set();
    let made = new Map();
    let grow = new Map();
    let falls = false;
    const cell = (v) =>
      Array.isArray(v) && v.length === 2 && v.every(Number.isInteger) &&
      v[0] >= 0 && v[0] < rows && v[1] >= 0 && v[1] < cols ? [v[0], v[1]] : null;
    const copy = () => grid.map((row) => row.slice());
    function close() {
      if (kind === null) return;
      const start = copy();
      if (kind === "travel") {
        for (const [, [r, c]] of glides) grid[r][c] = 0;
        for (const [v, , [r, c]] of glides) grid[r][c] = v;
        for (const [[r, c], v] of drops) grid[r][c] = v;
      } else if (kind === "change") {
        for (const k of vanish) { const [r, c] = cellOf(k); grid[r][c] = 0; }
        for (const [k, v] of made) { const [r, c] = cellOf(k); grid[r][c] = v; }
      } else {
        for (const [k, v] of grow) { const [r, c] = cellOf(k); grid[r][c] = v; }
      }
      const stacked = new Map();
      for (const [[, c]] of drops) stacked.set(c, (stacked.get(c) || 0) + 1);
      const dropping = drops.map(([[r, c], v]) => [v, [r - stacked.get(c), c], [r, c]]);
      phases.push({ kind, before: start, after: copy(), glides: glides.concat(dropping),
                    vanish, made, grow, falls });
      kind = null;
      glides = []; drops = []; falls = false;
      vanish = new Set(); made = new Map(); grow = new Map();
    }
    function enter(next) {
      if (kind !== next) { close(); kind = next; }
    }
    for (const event of events) {
      if (event.type === "moved" || event.type === "fell") {
        const source = cell(event.source);
        const target = cell(event.target);
        if (!source || !target || key(...source) === key(...target) || !event.value) continue;
        enter("travel");
        falls = falls || event.type === "fell";
        glides.push([event.value, source, target]);
      } else if (event.type === "merged") {
        const target = cell(event.cell);
        if (!target || !event.value) continue;
        enter("change");
        for (const joined of (event.cells || []).map(cell)) if (joined) vanish.add(key(...joined));
        made.set(key(...target), event.value);
      } else if (event.type === "removed") {
        const gone = (event.cells || []).map(cell).filter(Boolean);
        if (!gone.length) continue;
        enter("change");
        for (const c of gone) { vanish.add(key(...c)); made.delete(key(...c)); }
      } else if (event.type === "appeared") {
        const target = cell(event.cell);
        if (!target || !event.value) continue;
        if (kind === "travel" && falls) drops.push([target, event.value]);
        else { enter("arrive"); grow.set(key(...target), event.value); }
      }
    }
    close();
    if (!phases.length) return null;
    phases[phases.length - 1].after = after; // ends exactly on the board the rules made
    return phases;
  }

  function seconds(phase) {
    if (phase.kind === "travel" && phase.falls) return FALL_SECONDS;
    if (phase.kind === "change") {
      const shrinking = [...phase.vanish].some((k) => {
        const [r, c] = cellOf(k);
        return !phase.made.has(k) && phase.before[r][c];
      });
      if (!shrinking) return 0; // a 2048 merge: its tiles already met
    }
    return SECONDS[phase.kind];
  }

  function frame(phase, t) {
    if (phase.kind === "travel") {
      const u = phase.falls ? fall(t) : slide(t);
      const moving = new Set(phase.glides.map(([, s]) => key(...s)));
      const out = [];
      for (const [r, c, v] of tiles(phase.before)) if (!moving.has(key(r, c))) out.push(sprite(r, c, v));
      for (const [v, [r0, c0], [r1, c1]] of phase.glides) out.push(between(r0, c0, r1, c1, u, v));
      return out;
    }
    if (phase.kind === "change") {
      const out = [];
      for (const [r, c, v] of tiles(phase.before)) {
        const k = key(r, c);
        if (phase.vanish.has(k) && !phase.made.has(k)) {
          if (t < 1) out.push(sprite(r, c, v, 1 - t));
        } else if (!phase.made.has(k)) out.push(sprite(r, c, v));
      }
      for (const [k, v] of phase.made) { const [r, c] = cellOf(k); out.push(sprite(r, c, v)); }
      return out;
    }
    return Array.from(tiles(phase.after), ([r, c, v]) =>
      sprite(r, c, v, phase.grow.has(key(r, c)) ? t : 1));
  }

  // -- drawing ----------------------------------------------------------------------------------

  function label(value) {
    // the app's tile_label: the whole number while it fits, else 128K, 2M
    const text = String(value);
    if (text.length <= 5) return text;
    for (const [unit, size] of [["M", 2 ** 20], ["K", 2 ** 10]]) {
      if (value >= size && value % size === 0 && String(value / size).length <= 4) {
        return `${value / size}${unit}`;
      }
    }
    return text;
  }

  const FONT = [0.5, 0.5, 0.45, 0.38, 0.3, 0.25];

  function drawSprites(sprites, grid) {
    const drawn = [];
    for (let r = 0; r < grid.length; r += 1) {
      for (let c = 0; c < grid[r].length; c += 1) {
        const value = grid[r][c];
        if (value < 0 && value !== NO_CELL) drawn.push(tileElement({ ...place(r, c), value, scale: 1 }));
      }
    }
    for (const s of sprites) drawn.push(tileElement(s));
    tilesLayer.replaceChildren(...drawn);
  }

  function tileElement(s) {
    const element = document.createElement("div");
    if (s.value < 0) {
      element.className = "stone";
    } else {
      const text = label(s.value);
      element.className = `t${s.value}`;
      element.textContent = text;
      element.style.setProperty("--f", FONT[Math.min(text.length, FONT.length - 1)]);
    }
    element.style.setProperty("--x", s.x);
    element.style.setProperty("--y", s.y);
    if (s.scale !== 1) element.style.setProperty("--s", Math.max(0, s.scale));
    return element;
  }

  function drawCells(grid) {
    const cells = [];
    let width = 0;
    let height = 0;
    for (let r = 0; r < grid.length; r += 1) {
      for (let c = 0; c < grid[r].length; c += 1) {
        if (grid[r][c] === NO_CELL) continue; // no part of the board: not drawn
        const p = place(r, c);
        const cell = document.createElement("div");
        cell.style.setProperty("--x", p.x);
        cell.style.setProperty("--y", p.y);
        cells.push(cell);
        width = Math.max(width, p.x + 1);
        height = Math.max(height, p.y + 1);
      }
    }
    cellsLayer.replaceChildren(...cells);
    board.style.setProperty("--w", width);
    board.style.setProperty("--h", height);
    chainLayer.setAttribute("viewBox",
      `0 0 ${width * (UNIT + GAP) + GAP} ${height * (UNIT + GAP) + GAP}`);
  }

  function colourOf(value) {
    const probe = document.createElement("div");
    probe.className = `t${value}`;
    tilesLayer.append(probe);
    const colour = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return colour;
  }

  function drawChain(chain) {
    if (!chain) { chainLayer.replaceChildren(); return; }
    const centre = ([r, c]) => {
      const p = place(r, c);
      return `${GAP + p.x * (UNIT + GAP) + UNIT / 2},${GAP + p.y * (UNIT + GAP) + UNIT / 2}`;
    };
    const points = chain.cells.map(centre).join(" ");
    const line = (colour, width) => {
      const element = document.createElementNS(SVG, "polyline");
      element.setAttribute("points", points);
      element.setAttribute("stroke", colour);
      element.setAttribute("stroke-width", width);
      return element;
    };
    const [x, y] = centre(chain.cells[0]).split(",");
    const start = document.createElementNS(SVG, "circle");
    start.setAttribute("cx", x);
    start.setAttribute("cy", y);
    start.setAttribute("r", 18);
    start.setAttribute("fill", "#ffffff");
    start.setAttribute("stroke", "rgba(0,0,0,0.6)");
    start.setAttribute("stroke-width", 6);
    chainLayer.replaceChildren(line("rgba(0,0,0,0.55)", 34), line(colourOf(chain.value), 22), start);
  }

  function chainOf(index) {
    if (!game.events || game.controls !== "chain" || index < 0) return null;
    const merged = (game.events[index] || []).find(
      (e) => e.type === "merged" && Array.isArray(e.cells) && e.cells.length >= 2);
    if (!merged) return null;
    const [r, c] = merged.cells[0];
    const before = game.boards[index];
    return { cells: merged.cells, value: (before[r] && before[r][c]) || merged.value };
  }

  // -- stepping -------------------------------------------------------------------------------

  // a replay kept before words were: its action, cells counted from 1 (as ui/cells.py does)
  const forPeople = (action) =>
    action.replace(/(?<![\d-])(\d+)\s*,\s*(\d+)/g, (_all, r, c) => `${+r + 1},${+c + 1}`);

  function tell() {
    root.dataset.at = String(at);
    slider.value = String(at);
    stepLine.textContent = format(said.step, { at, total: last, score: game.scores[at] });
    if (!at) wordsLine.textContent = "";
    else wordsLine.textContent = game.words ? game.words[at - 1] : forPeople(game.actions[at - 1]);
  }

  function finish() {
    if (running === null) return;
    cancelAnimationFrame(running.frame);
    const done = running.done;
    running = null;
    delete root.dataset.moving;
    done();
  }

  function show(index, chain) {
    drawSprites(still(game.boards[index]), game.boards[index]);
    drawChain(chain);
  }

  function animate(phases, chain, then) {
    const total = phases.reduce((sum, p) => sum + seconds(p), 0);
    const hold = chain ? CHAIN_HOLD : 0;
    const target = at;
    const begun = performance.now();
    root.dataset.motions = String(Number(root.dataset.motions) + 1);
    // what was planned, kind and seconds a phase: a test holds it to motion.py's plan
    root.dataset.planned = phases.map((p) => `${p.kind}:${seconds(p)}`).join(" ");
    root.dataset.moving = "true";
    running = { frame: 0, done: () => { show(target, null); then(); } };
    const tick = () => {
      let elapsed = (performance.now() - begun) / 1000;
      if (elapsed < hold) {
        drawSprites(still(phases[0].before), phases[0].before);
        drawChain(chain);
      } else {
        drawChain(null);
        elapsed -= hold;
        if (elapsed >= total) { finish(); return; }
        for (const phase of phases) {
          const length = seconds(phase);
          if (elapsed < length) {
            drawSprites(frame(phase, elapsed / length), phase.before);
            break;
          }
          elapsed -= length;
        }
      }
      running.frame = requestAnimationFrame(tick);
    };
    running.frame = requestAnimationFrame(tick);
  }

  function go(to, moving = false, then = () => {}) {
    finish();
    const from = at;
    at = Math.max(0, Math.min(last, to));
    tell();
    const forward = at === from + 1;
    const chain = forward ? chainOf(at - 1) : null;
    if (forward && moving && !reduced.matches && game.events) {
      const phases = plan(game.boards[from], game.boards[at], game.events[at - 1]);
      if (phases) { animate(phases, chain, then); return; }
    }
    // at once: with reduced motion a forward step still shows where its chain was
    show(at, reduced.matches ? chain : null);
    then();
  }

  function setPlaying(on) {
    playing = on;
    playButton.setAttribute("aria-pressed", String(on));
    const name = on ? said.pause : said.play;
    playButton.setAttribute("aria-label", name);
    playButton.title = name;
    // while it plays, a screen reader is not read every move: it hears where it stopped
    for (const line of [stepLine, wordsLine]) line.setAttribute("aria-live", on ? "off" : "polite");
    if (!on && waiting !== null) { clearTimeout(waiting); waiting = null; }
  }

  function advance() {
    waiting = null;
    if (!playing) return;
    if (at >= last) { setPlaying(false); return; }
    go(at + 1, true, () => {
      if (playing) waiting = setTimeout(advance, (reduced.matches ? PAUSE_REDUCED : PAUSE) * 1000);
    });
  }

  const by = (action) => () => { setPlaying(false); action(); };
  document.getElementById("first").addEventListener("click", by(() => go(0)));
  document.getElementById("back").addEventListener("click", by(() => go(at - 1)));
  document.getElementById("next").addEventListener("click", by(() => go(at + 1, true)));
  document.getElementById("last").addEventListener("click", by(() => go(last)));
  playButton.addEventListener("click", () => {
    if (playing) { setPlaying(false); return; }
    if (at >= last) go(0);
    setPlaying(true);
    advance();
  });
  slider.addEventListener("input", by(() => go(Number(slider.value))));
  // the keys of a player: arrows step, Home and End go to either end (the slider, when it
  // has the focus, takes them itself)
  const keys = {
    ArrowRight: () => go(at + 1, true), ArrowLeft: () => go(at - 1),
    Home: () => go(0), End: () => go(last),
  };
  document.addEventListener("keydown", (event) => {
    const action = keys[event.key];
    if (!game || !action || event.target === slider || event.altKey || event.ctrlKey ||
        event.metaKey) return;
    event.preventDefault();
    by(action)();
  });

  function failed(error) {
    wordsLine.textContent = format(said.failed, { error });
  }

  fetch(root.dataset.source)
    .then((answer) => answer.json())
    .then((data) => {
      if (data.error) { failed(data.error); return; }
      game = data;
      last = game.boards.length - 1;
      slider.max = String(last);
      drawCells(game.boards[0]);
      if (game.cut) {
        const note = document.createElement("p");
        note.className = "said";
        note.textContent = format(said.cut, { shown: last, total: root.dataset.actions });
        wordsLine.after(note);
      }
      at = 0;
      tell();
      show(0, null);
      root.dataset.ready = "true";
    })
    .catch((error) => failed(String(error)));
})();
