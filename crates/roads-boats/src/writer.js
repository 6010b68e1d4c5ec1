// Roads & Boats on the order writer's page (judge site; the page's own script is
// assets/site/writer.js). It draws on the map what the judge worked out for the seat
// (WRITER.model: the seat's transporters, where each reaches, where each can build, the
// goods at home) and writes order lines in the language of docs/orders.md:
//   move D1: load 2 boards; C4; C5; unload 2 boards
//   build sawmill at C4 with D1
//   bricks 1 paying 1 board
(function () {
  "use strict";
  var W = window.WRITER;
  var M = W.model;
  W.headings = ["production", "movement", "building", "wonder"];
  var svg = document.querySelector("#map svg");
  var tools = document.getElementById("tools");
  if (!svg || !tools) {
    return;
  }

  var make = W.svg;
  var html = W.html;

  // "2 boards", but "1 board": one of a good by its singular name, as the order
  // language writes it (M.one, from the judge).
  function count(n, good) {
    return n + " " + (Number(n) === 1 && M.one && M.one[good] ? M.one[good] : good);
  }

  function goodsText(list) {
    return list
      .map(function (g) {
        return count(g[1], g[0]);
      })
      .join(", ");
  }

  var sites = make("g", { id: "writer-sites" }, svg);
  var reach = make("g", { id: "writer-reach" }, svg);
  var pieces = make("g", { id: "writer-transporters" }, svg);
  // Each transporter's move as it is being written: goods loaded where it stands, the
  // steps, goods unloaded at the end.
  var moves = {};

  // Transporters on the same spot stand side by side.
  var seen = {};
  M.transporters.forEach(function (t) {
    if (!t.xy) {
      return;
    }
    var key = t.xy.join(",");
    var k = (seen[key] = (seen[key] || 0) + 1) - 1;
    var x = t.xy[0] + k * 24 - 12;
    var y = t.xy[1] + 18;
    var g = make("g", { class: "writer-transporter", "data-id": t.id, tabindex: "0" }, pieces);
    make("title", {}, g, t.id + ": " + t.kind + " at " + t.at);
    make("circle", { cx: x, cy: y, r: 11, fill: "#ffffff", stroke: "#111", "stroke-width": 2 }, g);
    make("text", { x: x, y: y + 4, "text-anchor": "middle", "font-size": 10, "font-weight": "bold" }, g, t.id);
    g.addEventListener("click", function () {
      choose(t);
    });
  });

  M.sites.forEach(function (s) {
    if (!s.xy) {
      return;
    }
    var g = make("g", { class: "writer-site", "data-at": s.at, tabindex: "0" }, sites);
    make("title", {}, g, "build at " + s.at);
    // The `+` is centred on s.xy, which the judge put clear of the tiles' names.
    make("rect", {
      x: s.xy[0] - 9,
      y: s.xy[1] - 9,
      width: 18,
      height: 18,
      fill: "#c8e6c9",
      stroke: "#1b5e20",
      "stroke-width": 2,
    }, g);
    make("text", { x: s.xy[0], y: s.xy[1] + 4.5, "text-anchor": "middle", "font-size": 13, "font-weight": "bold" }, g, "+");
    g.addEventListener("click", function () {
      site(s);
    });
  });

  function write(t) {
    var m = moves[t.id];
    var parts = m.load
      .map(function (l) {
        return "load " + l;
      })
      .concat(m.path)
      .concat(
        m.unload.map(function (u) {
          return "unload " + u;
        })
      );
    W.put("movement", "move " + t.id + ": " + parts.join("; "), "move " + t.id + ":");
  }

  function panel(title) {
    tools.textContent = "";
    html("h2", {}, tools, title);
    return tools;
  }

  // Goods as [name, count] pairs, those of `more` added to `list`.
  function plus(list, more) {
    var out = list.map(function (g) {
      return [g[0], g[1]];
    });
    more.forEach(function (g) {
      var found = out.filter(function (x) {
        return x[0] === g[0];
      })[0];
      if (found) {
        found[1] += g[1];
      } else {
        out.push([g[0], g[1]]);
      }
    });
    return out;
  }

  // A choice of goods and how many: `list` as [name, most]; `then(text, good)` gets
  // "2 boards" and ["boards", 2].
  function goodsPicker(parent, label, list, cls, then) {
    if (!list.length) {
      return;
    }
    var p = html("p", { class: cls }, parent);
    html("span", {}, p, label + " ");
    var n = html("input", { type: "number", min: "1", value: "1", class: "count" }, p);
    var pick = html("select", {}, p);
    list.forEach(function (g) {
      html("option", { value: g[0] }, pick, g[0] + " (" + g[1] + ")");
    });
    var go = html("button", { type: "button" }, p, label);
    go.addEventListener("click", function () {
      var k = Math.max(1, parseInt(n.value, 10) || 1);
      then(count(k, pick.value), [pick.value, k]);
    });
  }

  function choose(t) {
    moves[t.id] = moves[t.id] || { load: [], loaded: [], path: [], unload: [] };
    reach.textContent = "";
    t.reach.forEach(function (r) {
      if (!r.xy) {
        return;
      }
      var g = make("g", { class: "writer-reach", "data-at": r.at, tabindex: "0" }, reach);
      var note = r.at + (r.left ? " (" + r.left + " left)" : "");
      if (r.goods.length) {
        note += ": " + goodsText(r.goods);
      }
      make("title", {}, g, note);
      // A ring, the board showing through it, where the judge put it clear of the
      // tiles' names.
      make("circle", {
        cx: r.xy[0],
        cy: r.xy[1],
        r: 12,
        fill: "rgba(255, 235, 59, 0.2)",
        stroke: "#f57f17",
        "stroke-width": 3,
      }, g);
      g.addEventListener("click", function () {
        moves[t.id].path = r.path.slice();
        write(t);
        show(t);
      });
    });
    show(t);
  }

  function show(t) {
    var m = moves[t.id];
    var p = panel(t.id + ", " + t.kind + " at " + t.at);
    var what = "carrying " + (t.cargo.length ? goodsText(t.cargo) : "nothing");
    if (t.here.length) {
      what += "; here: " + goodsText(t.here);
    }
    html("p", {}, p, what);
    html("p", {}, p, t.reach.length
      ? "Click a lit place on the map to go there" + (m.path.length ? " (now: " + m.path.join(", ") + ")" : "") + "."
      : t.plane
        ? "A plane flies with a fly order: write it below (the order guide says how)."
        : "It goes nowhere this turn.");
    goodsPicker(p, "load", t.here, "load", function (g, pair) {
      m.load.push(g);
      m.loaded.push(pair);
      write(t);
      show(t);
    });
    // What it carries, and what it has been told to load.
    var aboard = plus(t.cargo, m.loaded);
    goodsPicker(p, "unload", aboard, "unload", function (g) {
      m.unload.push(g);
      write(t);
      show(t);
    });
    wonder(p);
  }

  function site(s) {
    // With a transporter there that is not moving away.
    var with_ = s.with.filter(function (id) {
      return !(moves[id] && moves[id].path.length);
    })[0] || s.with[0];
    var p = panel("Build at " + s.at + " with " + with_);
    var list = html("p", { class: "builds" }, p);
    s.can.forEach(function (kind) {
      var b = html("button", { type: "button", "data-kind": kind }, list, kind);
      b.addEventListener("click", function () {
        W.put("building", "build " + kind + " at " + s.at + " with " + with_, "build " + kind + " at " + s.at);
      });
      list.appendChild(document.createTextNode(" "));
    });
    wonder(p);
  }

  // Bricks for the wonder, paid with goods from home.
  function wonder(parent) {
    var box = html("div", { class: "wonder" }, parent);
    html("h2", {}, box, "Wonder");
    if (!M.home.length) {
      html("p", {}, box, "No goods at home to pay for bricks.");
      return;
    }
    var p = html("p", {}, box);
    html("span", {}, p, "bricks ");
    var n = html("input", { type: "number", min: "1", value: "1", class: "bricks" }, p);
    var paying = [];
    var shown = html("span", { class: "paying" }, p, "");
    var goods = html("p", {}, box);
    M.home.forEach(function (g) {
      var b = html("button", { type: "button", "data-good": g[0] }, goods, "+" + count(1, g[0]));
      b.addEventListener("click", function () {
        var found = paying.filter(function (x) {
          return x[0] === g[0];
        })[0];
        if (found) {
          found[1] += 1;
        } else {
          paying.push([g[0], 1]);
        }
        shown.textContent = " paying " + goodsText(paying);
      });
      goods.appendChild(document.createTextNode(" "));
    });
    var add = html("button", { type: "button", class: "add-bricks" }, box, "write the bricks order");
    add.addEventListener("click", function () {
      if (!paying.length) {
        return;
      }
      W.put("wonder", "bricks " + n.value + " paying " + goodsText(paying), "bricks ");
    });
  }

  panel("Your transporters");
  html("p", {}, tools, "Click one of your transporters on the map (a white disc with its name).");
  wonder(tools);
})();
