// The order writer's page (judge site): the order file being written, the judge's own
// checker run on it in the browser (checker.js: crates/order-checker compiled to
// WebAssembly), and "mail it". The game's script (game-writer.js) draws on the map and
// puts order lines into the file through WRITER.put. Nothing here is sent anywhere: the
// page works from plain files, offline, and never sees the player's secret.
(function () {
  "use strict";
  var W = window.WRITER;
  // The position, the same for every seat's page (position.js).
  W.state = window.WRITER_POSITION;
  var file = document.getElementById("orders");
  var checked = document.getElementById("checked");
  var verdict = document.getElementById("verdict");
  var mail = document.getElementById("mail");

  // An element made for the game's script: `W.svg` on the map, `W.html` in the page;
  // `attrs` its attributes, `text` its text, appended to `parent`.
  function element(make) {
    return function (name, attrs, parent, text) {
      var e = make(name);
      Object.keys(attrs).forEach(function (k) {
        e.setAttribute(k, attrs[k]);
      });
      if (text !== undefined) {
        e.textContent = text;
      }
      parent.appendChild(e);
      return e;
    };
  }
  W.svg = element(function (name) {
    return document.createElementNS("http://www.w3.org/2000/svg", name);
  });
  W.html = element(function (name) {
    return document.createElement(name);
  });

  // The phase headings of the file, in their order, as the game's script names them.
  W.headings = W.headings || [];

  function isHeading(line) {
    return W.headings.indexOf(line.trim()) >= 0;
  }

  // Put `line` under `heading`: in place of the line that starts with `replacing` (or
  // of that line commented out, as the template has it), else after the heading's
  // last order. A heading the file lacks is added at its end.
  W.put = function (heading, line, replacing) {
    var lines = file.value.replace(/\n+$/, "").split("\n");
    var at = -1;
    for (var i = 0; i < lines.length; i++) {
      if (lines[i].trim() === heading) {
        at = i;
        break;
      }
    }
    if (at < 0) {
      lines.push("", heading);
      at = lines.length - 1;
    }
    var end = lines.length;
    for (var j = at + 1; j < lines.length; j++) {
      if (isHeading(lines[j])) {
        end = j;
        break;
      }
    }
    if (replacing) {
      for (var k = at + 1; k < end; k++) {
        var bare = lines[k].replace(/^\s*#\s*/, "").trim();
        if (bare === replacing.trim() || bare.indexOf(replacing) === 0) {
          lines[k] = line;
          return written(lines);
        }
      }
    }
    var last = end;
    while (last - 1 > at && lines[last - 1].trim() === "") {
      last--;
    }
    lines.splice(last, 0, line);
    written(lines);
  };

  function written(lines) {
    file.value = lines.join("\n") + "\n";
    changed();
  }

  function request() {
    return JSON.stringify({
      game: W.game,
      name: W.name,
      player: W.seat,
      state: W.state,
      public: W.public,
      orders: file.value,
      file: "your orders",
    });
  }

  // What the checker says of the file, as `judge check` prints it.
  W.check = function () {
    if (!W.checkOrders) {
      checked.textContent =
        "This site has no order checker: the judge checks your file when you mail it.";
      verdict.textContent = "";
      return null;
    }
    var answer = JSON.parse(W.checkOrders(request()));
    if (answer.failure) {
      checked.textContent = answer.failure;
      verdict.textContent = "";
      return answer;
    }
    checked.textContent = answer.text;
    verdict.textContent =
      answer.errors === 0
        ? "no errors" + (answer.warnings ? ", " + answer.warnings + " warning(s)" : "")
        : answer.errors + " error(s)";
    verdict.className = answer.errors === 0 ? "good" : "bad";
    return answer;
  };

  function mailLink() {
    if (!W.to) {
      mail.removeAttribute("href");
      mail.title = "The GM has not given the judge's address to this site: copy the file into a mail.";
      return;
    }
    mail.href =
      "mailto:" +
      encodeURI(W.to.replace(/^.*<([^>]+)>.*$/, "$1")) +
      "?subject=" +
      encodeURIComponent(W.subject) +
      "&body=" +
      encodeURIComponent(file.value);
  }

  // The map's size. At first never smaller than the picture's own
  // size (there its names are 11 units, its goods 9), so that names and goods can be read,
  // and as wide as its column when that is wider; the map scrolls in its box when it is
  // wider than the box, the page never. "-" and "+" zoom, "whole map" fits it to the
  // box's width, "readable" goes back to the first size.
  var map = document.getElementById("map");
  var zoom = document.getElementById("zoom");
  var picture = map && map.querySelector("svg");
  var natural = picture && picture.viewBox && picture.viewBox.baseVal && picture.viewBox.baseVal.width;
  if (natural && zoom) {
    var scale = null;
    var fit = function () {
      return map.clientWidth / natural;
    };
    var size = function () {
      var s = scale === null ? Math.max(1, fit()) : scale;
      picture.style.width = Math.floor(natural * s) + "px";
    };
    zoom.addEventListener("click", function (e) {
      var how = e.target && e.target.getAttribute("data-zoom");
      var now = scale === null ? Math.max(1, fit()) : scale;
      if (how === "in") {
        scale = Math.min(4, now * 1.25);
      } else if (how === "out") {
        scale = Math.max(Math.min(fit(), 1), now / 1.25);
      } else if (how === "fit") {
        scale = fit();
      } else if (how === "read") {
        scale = null;
      } else {
        return;
      }
      size();
    });
    window.addEventListener("resize", size);
    zoom.hidden = false;
    size();
  }

  var timer = null;
  function changed() {
    mailLink();
    if (timer) {
      clearTimeout(timer);
    }
    timer = setTimeout(W.check, 250);
  }
  file.addEventListener("input", changed);

  // The checker: the module inside checker.js, started once.
  W.ready = Promise.resolve(false);
  if (window.CHECKER_WASM) {
    var bytes = Uint8Array.from(atob(window.CHECKER_WASM), function (c) {
      return c.charCodeAt(0);
    });
    W.ready = WebAssembly.instantiate(bytes, {}).then(function (r) {
      var x = r.instance.exports;
      W.checkOrders = function (text) {
        var req = new TextEncoder().encode(text);
        var p = x.checker_alloc(req.length);
        new Uint8Array(x.memory.buffer, p, req.length).set(req);
        var out = x.checker_run(p, req.length);
        var len = new DataView(x.memory.buffer).getUint32(out, true);
        var answer = new TextDecoder().decode(new Uint8Array(x.memory.buffer, out + 4, len));
        x.checker_free(out);
        return answer;
      };
      W.check();
      return true;
    });
  } else {
    W.check();
  }
  mailLink();
})();
