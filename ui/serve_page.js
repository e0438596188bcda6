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

  Object.defineProperty(Object.prototype, "fitAddon", {
    configurable: true,
    set(value) {
      delete Object.prototype.fitAddon;
      this.fitAddon = value;
      if (this.terminal && this.terminal.parser) adopt(this.terminal);
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
