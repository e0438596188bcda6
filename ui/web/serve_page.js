// twofold's part of the served page, loaded before textual.js.
//
// textual.js keeps its xterm.js Terminal to itself. It builds an object that sets
// `terminal` and then `fitAddon`; a one-time setter for `fitAddon` catches that object,
// so the page can follow the app's title, copy over plain http, and be read by tests.
(function () {
  "use strict";

  function decode(base64) {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  }

  // a textarea copy works where the Clipboard API does not (http to another machine)
  function copyByHand(text, terminal) {
    const area = document.createElement("textarea");
    area.value = text;
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    try {
      document.execCommand("copy");
    } catch (error) {
      console.log("twofold: copy failed", error);
    }
    area.remove();
    terminal.focus();
  }

  function copy(text, terminal) {
    window.twofoldCopied = text;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).catch(() => copyByHand(text, terminal));
    } else {
      copyByHand(text, terminal);
    }
  }

  function adopt(terminal) {
    window.twofoldTerminal = terminal;
    // the app names the game with OSC 2 (a terminal's title); the tab shows it
    terminal.onTitleChange((title) => {
      if (title) document.title = title;
    });
    // once textual.js has opened the terminal and loaded its addons:
    setTimeout(() => {
      followFingers(terminal);
      // keys go to the game at once, without a first click
      terminal.focus();
      // Copy link / Copy result arrive as OSC 52 ("c;" + base64 text); registered after
      // xterm's clipboard addon, this handler runs first and works over plain http too
      terminal.parser.registerOscHandler(52, (data) => {
        const base64 = data.slice(data.indexOf(";") + 1);
        if (base64 && base64 !== "?") copy(decode(base64), terminal);
        return true;
      });
    }, 0);
  }

  // xterm's own DOM renderer draws at any device pixel ratio (a phone's 2 and 3, a HiDPI
  // desktop, browser zoom); the WebGL and canvas renderers textual.js also loads draw at the
  // wrong scale there (only the top-left quarter at 2). Each is swapped for an addon that
  // does nothing, the way fitAddon is caught below.
  const noRenderer = { activate() {}, dispose() {} };
  for (const name of ["webglAddon", "canvasAddon"]) {
    Object.defineProperty(Object.prototype, name, {
      configurable: true,
      set() {
        delete Object.prototype[name];
        this[name] = noRenderer;
      },
    });
  }

  // A narrow screen (a phone upright) gets a smaller font rather than fewer columns: the
  // app's top bar and board need about this many to be whole.
  const FEWEST_COLUMNS = 60;
  const SMALLEST_FONT = 7;

  function fitColumns(terminal, fitAddon) {
    const wanted = Number(terminal.element.parentElement.dataset.fontSize) || 16;
    for (let tries = 0; tries < 6; tries++) {
      const proposed = fitAddon.proposeDimensions();
      if (!proposed || !proposed.cols) break;
      const size = terminal.options.fontSize;
      // columns go as one over the font size: the size that gives FEWEST_COLUMNS, in
      // quarter pixels, never above what the page asked for
      let next = Math.min(wanted, Math.floor(((size * proposed.cols) / FEWEST_COLUMNS) * 4) / 4);
      if (proposed.cols < FEWEST_COLUMNS) next = Math.min(next, size - 0.25);
      next = Math.max(SMALLEST_FONT, next);
      if (next === size || (proposed.cols >= FEWEST_COLUMNS && next < size)) break;
      terminal.options.fontSize = next;
    }
    fitAddon.fit();
  }

  // A finger plays as the mouse does: its touches become the mouse events xterm.js reports
  // to the app, so a swipe, a drag and a tap meet the same thresholds as with a mouse.
  function asMouse(type, touch, target) {
    target.dispatchEvent(
      new MouseEvent(type, {
        bubbles: true,
        cancelable: true,
        view: window,
        clientX: touch.clientX,
        clientY: touch.clientY,
        screenX: touch.screenX,
        screenY: touch.screenY,
        button: 0,
        buttons: type === "mouseup" ? 0 : 1,
        detail: 1,
      })
    );
  }

  function followFingers(terminal) {
    const screen = terminal.element.querySelector(".xterm-screen");
    // no on-screen keyboard popping up over the board at every tap
    if (terminal.textarea) terminal.textarea.setAttribute("inputmode", "none");
    let finger = null;
    const options = { passive: false };
    screen.addEventListener(
      "touchstart",
      (event) => {
        event.preventDefault(); // no scrolling, zooming or emulated clicks: the game has it
        if (finger !== null || event.touches.length !== 1) return;
        const touch = event.changedTouches[0];
        finger = touch.identifier;
        // A touch's later events go to the element it started on, even once the terminal
        // has redrawn that row and taken the element out of the page: listen there.
        const started = event.target;
        const ours = (later) =>
          Array.from(later.changedTouches).find((t) => t.identifier === finger);
        const move = (later) => {
          later.preventDefault();
          const moved = ours(later);
          if (moved) asMouse("mousemove", moved, screen);
        };
        const lift = (later) => {
          later.preventDefault();
          const lifted = ours(later);
          if (!lifted) return;
          finger = null;
          started.removeEventListener("touchmove", move, options);
          started.removeEventListener("touchend", lift, options);
          started.removeEventListener("touchcancel", lift, options);
          asMouse("mouseup", lifted, screen);
        };
        started.addEventListener("touchmove", move, options);
        started.addEventListener("touchend", lift, options);
        started.addEventListener("touchcancel", lift, options);
        asMouse("mousemove", touch, screen);
        asMouse("mousedown", touch, screen);
      },
      options
    );
  }

  Object.defineProperty(Object.prototype, "fitAddon", {
    configurable: true,
    set(value) {
      delete Object.prototype.fitAddon;
      this.fitAddon = value;
      if (this.terminal && this.terminal.parser) {
        adopt(this.terminal);
        // every fit textual.js makes (before it connects, once connected, on resizing)
        // keeps the columns the app needs
        this.fit = () => fitColumns(this.terminal, this.fitAddon);
      }
    },
  });

  // the screen as text, one string a row (what tests and the benchmark read)
  window.twofoldScreen = function () {
    const terminal = window.twofoldTerminal;
    if (!terminal) return [];
    const buffer = terminal.buffer.active;
    const rows = [];
    for (let y = 0; y < terminal.rows; y++) {
      const line = buffer.getLine(buffer.viewportY + y);
      rows.push(line ? line.translateToString(true) : "");
    }
    return rows;
  };
})();
