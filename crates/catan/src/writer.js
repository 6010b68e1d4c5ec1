// Catan on the order writer's page (judge site; the page's own script is
// assets/site/writer.js). It marks on the board where the seat may build as the public
// board stands (WRITER.model; the hand is private, so the page never says what the
// seat can pay) and writes the lines of docs/catan-orders.md:
//   founding: settlement 13 road 13-18
//   turn:     build settlement 13 / build city 13 / build road 12-13
(function () {
  "use strict";
  var W = window.WRITER;
  var M = W.model;
  W.headings = ["founding", "before roll", "turn", "end", "between turns"];
  var svg = document.querySelector("#map svg");
  var tools = document.getElementById("tools");
  if (!svg || !tools) {
    return;
  }

  var make = W.svg;

  function note(text) {
    tools.textContent = "";
    var h = document.createElement("h2");
    h.textContent = "Where you may build";
    tools.appendChild(h);
    var p = document.createElement("p");
    p.textContent = text;
    tools.appendChild(p);
  }

  var layer = make("g", { id: "writer-places" }, svg);
  var roadsLayer = make("g", { id: "writer-roads" }, svg);

  function road(r, then) {
    if (!r.ends[0] || !r.ends[1]) {
      return;
    }
    var g = make("g", { class: "writer-road", "data-at": r.name, tabindex: "0" }, roadsLayer);
    make("title", {}, g, "road " + r.name);
    make("line", {
      x1: r.ends[0][0],
      y1: r.ends[0][1],
      x2: r.ends[1][0],
      y2: r.ends[1][1],
      stroke: "rgba(255, 235, 59, 0.8)",
      "stroke-width": 9,
      "stroke-linecap": "round",
    }, g);
    g.addEventListener("click", function () {
      then(r);
    });
  }

  function corner(c, kind, then) {
    if (!c.xy) {
      return;
    }
    var g = make("g", { class: "writer-" + kind, "data-at": c.name, tabindex: "0" }, layer);
    make("title", {}, g, kind + " " + c.name);
    make("circle", {
      cx: c.xy[0],
      cy: c.xy[1],
      r: 10,
      fill: kind === "city" ? "rgba(244, 143, 177, 0.3)" : "rgba(255, 235, 59, 0.3)",
      stroke: "#f57f17",
      "stroke-width": 2,
    }, g);
    g.addEventListener("click", function () {
      then(c);
    });
  }

  if (M.founding) {
    note("Click a free corner for your settlement, then one of the roads lit beside it.");
    M.settlements.forEach(function (c) {
      corner(c, "settlement", function () {
        roadsLayer.textContent = "";
        W.put("founding", "settlement " + c.name, "settlement ");
        c.roads.forEach(function (r) {
          road(r, function () {
            W.put("founding", "settlement " + c.name + " road " + r.name, "settlement " + c.name);
          });
        });
      });
    });
    return;
  }
  note(
    "Lit corners and edges are where the board lets you build now (a settlement, " +
      "a city on your settlement, a road). Whether your hand pays is in your own " +
      "report mail's template; the judge checks it when it plays your turn."
  );
  M.roads.forEach(function (r) {
    road(r, function () {
      W.put("turn", "build road " + r.name);
    });
  });
  M.settlements.forEach(function (c) {
    corner(c, "settlement", function () {
      W.put("turn", "build settlement " + c.name);
    });
  });
  M.cities.forEach(function (c) {
    corner(c, "city", function () {
      W.put("turn", "build city " + c.name);
    });
  });
})();
