//! `judge site` in a real browser: headless Chromium (Debian's package,
//! installed by tests/browser/setup.sh, which `.ci/run` runs) loads every page of the
//! sites of both archived Roads & Boats games and of the Catan game. Every page renders
//! without a console error or a failed load, every link resolves to a page or file of
//! the site, every page is reached from the overview, the map is drawn (a screenshot of
//! it is not blank, and differs between two turns), the score chart has a point per
//! turn, and the arrow keys go to the next and previous turn.
//!
//! The test talks to the browser over the DevTools protocol on a pipe
//! (`--remote-debugging-pipe`: messages of JSON ended by a NUL, in on fd 3, out on
//! fd 4): no network, no driver. It is of the slow tier (`cargo test --test slow`), and
//! installs nothing itself: without Chromium it fails, saying how to install it.

use crate::support;

use std::collections::{BTreeSet, VecDeque};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(60);

/// The browser's path. The test installs nothing: `bash tests/browser/setup.sh install`
/// does (`.ci/run` runs it before the slow tier), and without it the test fails saying so.
fn chromium() -> PathBuf {
    let found = Command::new("bash")
        .args(["tests/browser/setup.sh", "path"])
        .output()
        .expect("bash");
    assert!(
        found.status.success(),
        "no headless Chromium: run `bash tests/browser/setup.sh install` (as root) first, or `bash .ci/run`\n{}",
        String::from_utf8_lossy(&found.stderr)
    );
    PathBuf::from(String::from_utf8_lossy(&found.stdout).trim().to_string())
}

/// A headless Chromium, driven over its DevTools pipe.
struct Browser {
    child: Child,
    to: std::process::ChildStdin,
    from: Receiver<Value>,
    /// Events not yet looked at.
    events: VecDeque<Value>,
    next_id: u64,
    session: String,
    log: PathBuf,
    _profile: tempfile::TempDir,
}

impl Browser {
    fn start(path: &Path) -> Browser {
        let profile = tempfile::tempdir().expect("tmp");
        let log = profile.path().join("chromium.log");
        // The shell gives the browser our pipes as fds 3 and 4, and nothing on 0 and 1.
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("exec \"$0\" \"$@\" 3<&0 4>&1 </dev/null >/dev/null")
            .arg(path)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                "--window-size=1280,1000",
                "--remote-debugging-pipe",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).expect("log"))
            .spawn()
            .expect("start chromium");
        let to = child.stdin.take().expect("stdin");
        let mut out = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let mut chunk = [0u8; 65536];
            loop {
                let n = match out.read(&mut chunk) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => n,
                };
                buf.extend_from_slice(&chunk[..n]);
                while let Some(end) = buf.iter().position(|b| *b == 0) {
                    let msg: Vec<u8> = buf.drain(..=end).collect();
                    let Ok(v) = serde_json::from_slice::<Value>(&msg[..msg.len() - 1]) else {
                        continue;
                    };
                    if tx.send(v).is_err() {
                        return;
                    }
                }
            }
        });
        let mut b = Browser {
            child,
            to,
            from: rx,
            events: VecDeque::new(),
            next_id: 0,
            session: String::new(),
            log,
            _profile: profile,
        };
        let target = b.call("Target.createTarget", json!({"url": "about:blank"}));
        let id = target["targetId"].as_str().expect("target").to_string();
        let attached = b.call(
            "Target.attachToTarget",
            json!({"targetId": id, "flatten": true}),
        );
        b.session = attached["sessionId"].as_str().expect("session").to_string();
        for domain in ["Page.enable", "Runtime.enable", "Log.enable"] {
            b.call(domain, json!({}));
        }
        b
    }

    fn recv(&mut self, deadline: Instant) -> Value {
        match self
            .from
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(v) => v,
            Err(RecvTimeoutError::Timeout) => panic!(
                "the browser did not answer in {WAIT:?}; its log:\n{}",
                std::fs::read_to_string(&self.log).unwrap_or_default()
            ),
            Err(RecvTimeoutError::Disconnected) => panic!(
                "the browser closed its pipe; its log:\n{}",
                std::fs::read_to_string(&self.log).unwrap_or_default()
            ),
        }
    }

    /// A command (to the page once attached); its result.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            msg["sessionId"] = json!(self.session);
        }
        let mut bytes = serde_json::to_vec(&msg).expect("json");
        bytes.push(0);
        self.to.write_all(&bytes).expect("write to the browser");
        let deadline = Instant::now() + WAIT;
        loop {
            let v = self.recv(deadline);
            if v["id"].as_u64() == Some(id) {
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
            self.events.push_back(v);
        }
    }

    /// Wait for an event of the page.
    fn wait_for(&mut self, method: &str) {
        if let Some(i) = self.events.iter().position(|e| e["method"] == method) {
            self.events.drain(..=i);
            return;
        }
        let deadline = Instant::now() + WAIT;
        loop {
            let v = self.recv(deadline);
            if v["method"] == method {
                return;
            }
            self.events.push_back(v);
        }
    }

    /// The errors the page reported since the last look: console errors, uncaught
    /// exceptions, failed loads.
    fn errors(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        for e in self.events.drain(..) {
            let p = &e["params"];
            match e["method"].as_str() {
                Some("Runtime.exceptionThrown") => out.push(format!("exception: {p}")),
                Some("Runtime.consoleAPICalled")
                    if matches!(p["type"].as_str(), Some("error" | "assert")) =>
                {
                    out.push(format!("console.{}: {}", p["type"], p["args"]))
                }
                Some("Log.entryAdded") if p["entry"]["level"] == "error" => out.push(format!(
                    "{}: {} ({})",
                    p["entry"]["source"], p["entry"]["text"], p["entry"]["url"]
                )),
                _ => {}
            }
        }
        out
    }

    fn open(&mut self, url: &str) {
        self.events.clear();
        let r = self.call("Page.navigate", json!({"url": url}));
        assert!(r.get("errorText").is_none(), "{url}: {r}");
        self.wait_for("Page.loadEventFired");
    }

    fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        );
        assert!(r.get("exceptionDetails").is_none(), "{expression}: {r}");
        r["result"]["value"].clone()
    }

    /// A screenshot of the element `selector`, decoded: (width, height, RGBA pixels).
    fn shot(&mut self, selector: &str) -> (u32, u32, Vec<u8>) {
        let rect = self.eval(&format!(
            "(() => {{ const r = document.querySelector({selector:?}).getBoundingClientRect(); \
             return [r.x + window.scrollX, r.y + window.scrollY, r.width, r.height]; }})()"
        ));
        let r: Vec<f64> = serde_json::from_value(rect).expect("a rectangle");
        let shot = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": true,
                   "clip": {"x": r[0], "y": r[1], "width": r[2], "height": r[3], "scale": 1}}),
        );
        let png = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().expect("data"))
            .expect("base64");
        support::decode_png(&png)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn url(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// The site of `game`, made by `judge site`.
fn site(game: &str, out: &Path) -> Vec<u32> {
    let (code, _, err) =
        support::run_judge(&["site", game, "-o", out.to_str().expect("utf-8")], &[]);
    assert_eq!(code, 0, "judge site {game}: {err}");
    let mut turns: Vec<u32> = std::fs::read_dir(Path::new(game).join("turns"))
        .expect("turns")
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect();
    turns.sort_unstable();
    turns
}

/// A page's links, stylesheets and scripts, as the browser resolved them.
const LINKS: &str = "Array.from(document.querySelectorAll('a[href], link[href], script[src]'), \
     e => e.href || e.src)";

/// Every page from the overview, following links: no errors, every link to a file of
/// the site; returns the pages reached.
fn crawl(b: &mut Browser, root: &Path) -> BTreeSet<PathBuf> {
    let root = root.canonicalize().expect("root");
    let mut seen = BTreeSet::new();
    let mut queue = VecDeque::from([root.join("index.html")]);
    while let Some(page) = queue.pop_front() {
        if !seen.insert(page.clone()) {
            continue;
        }
        b.open(&url(&page));
        let errors = b.errors();
        assert!(errors.is_empty(), "{}: {errors:#?}", page.display());
        // The page has its content: a heading, and (a turn) its map with its title.
        let h1 = b.eval("document.querySelector('h1') && document.querySelector('h1').textContent");
        assert!(
            h1.as_str().is_some_and(|h| !h.is_empty()),
            "{}",
            page.display()
        );
        let links: Vec<String> = serde_json::from_value(b.eval(LINKS)).expect("links");
        for link in links {
            if link.starts_with("data:") {
                continue;
            }
            let (file, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let path = PathBuf::from(
                file.strip_prefix("file://")
                    .unwrap_or_else(|| panic!("{}: a link off the site: {link}", page.display())),
            );
            assert!(
                path.starts_with(&root) && path.is_file(),
                "{}: a link to nothing: {link}",
                page.display()
            );
            if !fragment.is_empty() && path == page {
                let there = b.eval(&format!("!!document.getElementById({fragment:?})"));
                assert_eq!(there, json!(true), "{}: #{fragment}", page.display());
            }
            if path.extension().is_some_and(|e| e == "html") {
                queue.push_back(path);
            }
        }
    }
    seen
}

fn not_blank(what: &str, (w, h, px): &(u32, u32, Vec<u8>)) {
    assert!(*w > 300 && *h > 300, "{what}: {w}x{h}");
    let colours: BTreeSet<&[u8]> = px.chunks_exact(4).map(|p| &p[..3]).collect();
    let inked = px
        .chunks_exact(4)
        .filter(|p| p[..3] != [255, 255, 255])
        .count();
    assert!(colours.len() > 20, "{what}: {} colours", colours.len());
    assert!(
        inked * 5 > px.len() / 4,
        "{what}: only {inked} pixels drawn of {}",
        px.len() / 4
    );
}

fn check_game(b: &mut Browser, game: &str, charts: &[&str]) {
    let tmp = tempfile::tempdir().expect("tmp");
    let out = tmp.path().join("site");
    let turns = site(game, &out);
    let out = out.canonicalize().expect("site");
    // Every page is reached from the overview, and every link resolves.
    let reached = crawl(b, &out);
    let pages: BTreeSet<PathBuf> = std::fs::read_dir(&out)
        .expect("site")
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "html").then_some(p)
        })
        .collect();
    assert_eq!(reached, pages, "{game}: every page is linked");
    // A page per turn, the overview, the order guide and, while a Roads & Boats game
    // runs, each seat's order writer.
    let writers = pages
        .iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("write-"))
        })
        .count();
    // (Of the archived games only polder-cities-3p is still running: two-rivers-2p is
    // over, and Catan has no writer.)
    let running = game.contains("polder");
    assert_eq!(writers > 0, running, "{game}: {writers} order writer pages");
    assert_eq!(
        pages.len(),
        turns.len() + 2 + writers,
        "{game}: a page per turn"
    );
    assert!(out.join("guide.html").is_file(), "{game}: the order guide");
    // The charts: one line per player, a point per turn on each.
    b.open(&url(&out.join("index.html")));
    let captions: Vec<String> = serde_json::from_value(
        b.eval("Array.from(document.querySelectorAll('.charts figcaption'), c => c.textContent)"),
    )
    .expect("captions");
    for c in charts {
        assert!(
            captions.iter().any(|k| k.starts_with(c)),
            "{game}: no chart of {c}: {captions:?}"
        );
    }
    let points: Vec<Vec<u32>> = serde_json::from_value(b.eval(
        "Array.from(document.querySelectorAll('#chart-0 g.series'), g => \
         Array.from(g.querySelectorAll('circle.point'), c => +c.getAttribute('data-turn')))",
    ))
    .expect("points");
    assert!(points.len() >= 2, "{game}: a line per player: {points:?}");
    for line in &points {
        assert_eq!(line, &turns, "{game}: a point per turn");
    }
    let drawn = b.eval(
        "Array.from(document.querySelectorAll('#chart-0 circle.point')).every(c => \
         c.getBoundingClientRect().width > 0)",
    );
    assert_eq!(drawn, json!(true), "{game}: the points are drawn");
    // The map is drawn, and changes from turn to turn.
    let first = turns[1];
    let last = *turns.last().expect("turns");
    b.open(&url(&out.join(format!("turn-{first:03}.html"))));
    let early = b.shot("figure.map svg");
    not_blank(&format!("{game} turn {first}"), &early);
    b.open(&url(&out.join(format!("turn-{last:03}.html"))));
    let late = b.shot("figure.map svg");
    not_blank(&format!("{game} turn {last}"), &late);
    assert_ne!(early, late, "{game}: the map of turn {first} and {last}");
    // The arrow keys: right to the next turn, left back.
    b.open(&url(&out.join(format!("turn-{first:03}.html"))));
    for (key, code, to) in [("ArrowRight", 39, turns[2]), ("ArrowLeft", 37, turns[1])] {
        for kind in ["keyDown", "keyUp"] {
            b.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code}),
            );
            if kind == "keyDown" {
                b.wait_for("Page.loadEventFired");
            }
        }
        let href = b.eval("location.href");
        assert!(
            href.as_str()
                .is_some_and(|h| h.ends_with(&format!("turn-{to:03}.html"))),
            "{game}: {key} went to {href}"
        );
    }
    let errors = b.errors();
    assert!(errors.is_empty(), "{game}: {errors:#?}");
}

/// "Headless Chromium … loads the pages of both archived games in the tests:
/// every page renders without console errors, every link resolves, the map is drawn (a
/// screenshot is not blank, and it changes between two turns), and the score chart has
/// a point per turn." One browser for all three games (starting one takes a second).
#[test]
fn the_sites_of_the_archived_games_in_a_real_browser() {
    let path = chromium();
    let mut b = Browser::start(&path);
    let roads_boats = ["score", "wonder bricks", "transporters"];
    check_game(&mut b, "games/two-rivers-2p", &roads_boats);
    check_game(&mut b, "games/polder-cities-3p", &roads_boats);
    check_game(&mut b, "games/catan-4p", &["points"]);
}

/// The folder's site (`judge site --all`) in the browser: its page opens without
/// errors, every page of every game's site is reached from it by links (each link to a
/// file of the site), each game's latest map is drawn, and each game's link leads to
/// that game's own site (its overview, titled with the game's name).
#[test]
fn the_folder_site_opens_and_its_links_lead_to_each_games_site() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("games");
    let games = ["two-rivers-2p", "catan-4p"];
    for g in games {
        support::copy_dir(&Path::new("games").join(g), &root.join(g), &|_| true);
    }
    std::fs::write(
        root.join("judge.toml"),
        "[mail]\nfrom = \"Judge <judge@example.org>\"\n",
    )
    .expect("judge.toml");
    let out = tmp.path().join("site");
    let (code, _, err) = support::run_judge(
        &[
            "site",
            "--all",
            root.to_str().expect("utf-8"),
            "-o",
            out.to_str().expect("utf-8"),
        ],
        &[],
    );
    assert_eq!(code, 0, "judge site --all: {err}");
    let out = out.canonicalize().expect("site");
    let mut b = Browser::start(&chromium());
    let reached = crawl(&mut b, &out);
    assert!(reached.contains(&out.join("ratings.html")));
    for g in games {
        assert!(reached.contains(&out.join(g).join("index.html")), "{g}");
        assert!(
            reached
                .iter()
                .any(|p| p.starts_with(out.join(g)) && p.ends_with("turn-001.html")),
            "{g}: its turns"
        );
    }
    b.open(&url(&out.join("index.html")));
    let maps = b.eval(
        "Array.from(document.querySelectorAll('img.thumb'), i => i.complete && i.naturalWidth > 0)",
    );
    assert_eq!(maps, json!([true, true]), "each game's latest map is drawn");
    let links: Vec<(String, String)> = serde_json::from_value(b.eval(
        "Array.from(document.querySelectorAll('table.games tr > td:first-child > a'), \
         a => [a.textContent, a.href])",
    ))
    .expect("links");
    assert_eq!(links.len(), 2, "{links:?}");
    for (name, href) in links {
        b.open(&href);
        let h1 = b.eval("document.querySelector('h1').textContent");
        assert_eq!(h1, json!(name), "{href}");
        assert!(
            b.eval("location.href")
                .as_str()
                .is_some_and(|h| h.ends_with(&format!("/site/{name}/index.html"))),
            "{href}"
        );
    }
    let errors = b.errors();
    assert!(errors.is_empty(), "{errors:#?}");
}

/// The order checker compiled to WebAssembly (scripts/build-checker). `.ci/run` builds
/// it beside the tests: while `target/checker/building` is there, the test waits for
/// `target/checker/ready` (up to ten minutes); without either it fails, saying how to
/// build it.
fn checker_module() -> Vec<u8> {
    let dir = Path::new("target/checker");
    let start = Instant::now();
    while !dir.join("ready").is_file()
        && dir.join("building").is_file()
        && start.elapsed() < Duration::from_secs(600)
    {
        std::thread::sleep(Duration::from_millis(200));
    }
    // The module's path, as the build wrote it (optimised, or `--quick`).
    let path = std::fs::read_to_string(dir.join("ready")).unwrap_or_else(|_| {
        panic!("the order checker is not built: `scripts/build-checker` (or `bash .ci/run`) first")
    });
    let path = path.trim();
    std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A new three-player Catan game at its founding, `island` in `dir` (the archived one is
/// over).
fn new_island(dir: &Path) -> PathBuf {
    let island = dir.join("island");
    let new = [
        "new",
        island.to_str().expect("utf-8"),
        "--game",
        "catan",
        "--seed",
        "5",
    ];
    let (code, out, err) = support::judge_text(&[&new[..], &support::ANN_BOB_CAT].concat(), &[]);
    assert_eq!(code, 0, "{out}{err}");
    island
}

/// The site of `game` with the order checker (`judge site --checker`), in `dir/site`.
fn site_with_checker(game: &Path, dir: &Path) -> PathBuf {
    let wasm = dir.join("checker.wasm");
    std::fs::write(&wasm, checker_module()).expect("module");
    let out = dir.join("site");
    let (code, _, err) = support::run_judge(
        &[
            "site",
            game.to_str().expect("utf-8"),
            "-o",
            out.to_str().expect("utf-8"),
            "--checker",
            wasm.to_str().expect("utf-8"),
        ],
        &[],
    );
    assert_eq!(code, 0, "judge site: {err}");
    out
}

/// A writer page opened, its checker started.
fn open_writer(b: &mut Browser, page: &Path) {
    b.open(&url(page));
    let r = b.call(
        "Runtime.evaluate",
        json!({"expression": "window.WRITER.ready", "awaitPromise": true, "returnByValue": true}),
    );
    assert_eq!(r["result"]["value"], json!(true), "the checker starts: {r}");
}

/// "checked in the browser by the judge's own checker compiled to WebAssembly
/// (the same code as `judge check`, not a copy): the same diagnostics with line and
/// column, and the same echo". A page opened from a file (offline: the module is in
/// the page) runs the module with no other script; for a good file, a file with errors
/// and a file with a warning, of a Roads & Boats and a Catan game, its answer is the
/// text `judge check` prints, byte for byte, with the same counts.
#[test]
fn the_order_checker_in_webassembly_answers_as_judge_check_does() {
    let module = base64::engine::general_purpose::STANDARD.encode(checker_module());
    let dir = tempfile::tempdir().expect("tmp");
    let page = dir.path().join("checker.html");
    std::fs::write(
        &page,
        format!(
            "<!doctype html><meta charset=utf-8><title>checker</title><script>\n\
             const bytes = Uint8Array.from(atob('{module}'), c => c.charCodeAt(0));\n\
             window.ready = WebAssembly.instantiate(bytes, {{}}).then(r => {{\n\
               const x = r.instance.exports;\n\
               window.checkOrders = (request) => {{\n\
                 const req = new TextEncoder().encode(request);\n\
                 const p = x.checker_alloc(req.length);\n\
                 new Uint8Array(x.memory.buffer, p, req.length).set(req);\n\
                 const out = x.checker_run(p, req.length);\n\
                 const view = new DataView(x.memory.buffer);\n\
                 const len = view.getUint32(out, true);\n\
                 const text = new TextDecoder().decode(new Uint8Array(x.memory.buffer, out + 4, len));\n\
                 x.checker_free(out);\n\
                 return text;\n\
               }};\n\
               return true;\n\
             }});\n\
             </script>"
        ),
    )
    .expect("page");
    let mut b = Browser::start(&chromium());
    b.open(&url(&page));
    let r = b.call(
        "Runtime.evaluate",
        json!({"expression": "window.ready", "awaitPromise": true, "returnByValue": true}),
    );
    assert_eq!(r["result"]["value"], json!(true), "{r}");
    let mut compared = 0;
    let island = new_island(dir.path());
    let island = island.to_str().expect("utf-8");
    for (game, id, seat, name) in [
        (
            "games/two-rivers-2p",
            "roads-and-boats",
            "red",
            "two-rivers-2p",
        ),
        (island, "catan", "red", "island"),
    ] {
        let turns = std::fs::read_dir(Path::new(game).join("turns"))
            .expect("turns")
            .count();
        let state: Value = serde_json::from_str(
            &std::fs::read_to_string(
                Path::new(game).join(format!("turns/{:03}/state.json", turns - 1)),
            )
            .expect("state"),
        )
        .expect("json");
        let (code, hint, err) = support::judge_text(&["bot", game, seat], &[]);
        assert_eq!(code, 0, "{err}");
        let broken = format!("{hint}move D9: Z99\nbuild castle at Q1 with D1\nfly\n");
        // An old order that still reads, with a warning (docs/orders.md: `breed C3`).
        let warned = hint.replacen("\nmovement\n", "\nproduction\nbreed C3\nmovement\n", 1);
        for (what, orders) in [
            ("good", hint.clone()),
            ("broken", broken),
            ("warned", warned),
        ] {
            let file = dir.path().join(format!("{id}-{what}.txt"));
            std::fs::write(&file, &orders).expect("orders");
            let file = file.to_str().expect("utf-8");
            let (_, want, err) = support::judge_text(&["check", game, file], &[]);
            let request = json!({"game": id, "name": name, "player": seat, "state": state,
                                  "orders": orders, "file": file});
            let answer = b.eval(&format!("window.checkOrders({:?})", request.to_string()));
            let answer: Value =
                serde_json::from_str(answer.as_str().expect("a string")).expect("json");
            assert_eq!(
                answer["text"].as_str(),
                Some(want.as_str()),
                "{game}, {what}: the browser's answer differs from judge check's ({err})"
            );
            let errors = answer["errors"].as_u64().expect("errors");
            assert_eq!(errors > 0, what == "broken", "{game}, {what}: {answer}");
            if what == "warned" && id == "roads-and-boats" {
                assert!(answer["warnings"].as_u64() > Some(0), "{answer}");
            }
            if what == "broken" {
                // Each diagnostic with its line and column.
                let first = &answer["diagnostics"][0];
                assert!(first["line"].as_u64().is_some_and(|l| l > 3), "{answer}");
                assert!(first["column"].as_u64().is_some(), "{answer}");
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 6);
    let errors = b.errors();
    assert!(errors.is_empty(), "{errors:#?}");
}

impl Browser {
    /// A real click, as a mouse gives it, in the middle of the element `selector`.
    fn click(&mut self, selector: &str) {
        let rect = self.eval(&format!(
            "(() => {{ const e = document.querySelector({selector:?}); if (!e) return null; \
             e.scrollIntoView({{block: 'center', inline: 'center'}}); \
             const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        let at: Vec<f64> =
            serde_json::from_value(rect).unwrap_or_else(|_| panic!("no element {selector}"));
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": at[0], "y": at[1], "button": "left", "clickCount": 1}),
            );
        }
    }

    /// The text of the order file on the writer's page.
    fn file(&mut self) -> String {
        self.eval("document.getElementById('orders').value")
            .as_str()
            .expect("the file")
            .to_string()
    }

    /// What the page's checker says of its file now.
    fn checked(&mut self) -> Value {
        self.eval("JSON.stringify(window.WRITER.check())")
            .as_str()
            .map(|t| serde_json::from_str(t).expect("json"))
            .expect("an answer")
    }
}

/// The order writer: "A headless-Chromium test drives the order writer: a
/// move with a load, a build and a wonder order are composed by clicks, the text it
/// produces is the same that `judge check` accepts, with the same echo; a broken line
/// typed by hand shows the checker's diagnostic; no console errors." The demo game
/// (two-rivers, turn 0) with the judge's address in `[mail]`: red's page, from plain
/// files, with the checker built by scripts/build-checker.
#[test]
fn the_order_writer_composes_orders_by_clicks_and_checks_them() {
    let tmp = tempfile::tempdir().expect("tmp");
    let game = tmp.path().join("demo");
    support::copy_dir(Path::new("games/demo"), &game, &|p| {
        !p.components().any(|c| c.as_os_str() == "pending")
    });
    let toml = std::fs::read_to_string(game.join("game.toml")).expect("game.toml");
    std::fs::write(
        game.join("game.toml"),
        format!("{toml}\n[mail]\nfrom = \"Judge <judge@example.org>\"\npickup = \"outbox\"\n"),
    )
    .expect("game.toml");
    let out = site_with_checker(&game, tmp.path());
    let mut b = Browser::start(&chromium());
    open_writer(&mut b, &out.join("write-red.html"));

    // A move with a load: D1, 1 of the first goods lying where it stands, to the first
    // place it reaches.
    b.click(".writer-transporter[data-id='D1']");
    let lit = b.eval("document.querySelectorAll('.writer-reach').length");
    assert!(lit.as_u64() > Some(0), "D1's reach lights up: {lit}");
    b.click(".tools p.load button");
    b.click(".writer-reach");
    // Unload what it loaded, where the move ends.
    b.click(".tools p.unload button");
    // A build where D1 stands, and a brick for the wonder.
    b.click(".writer-site");
    b.click(".tools .builds button");
    b.click(".tools .wonder button[data-good]");
    b.click(".tools .wonder button.add-bricks");
    let file = b.file();
    // Each order on a line of its own (not a comment): the move, a build with a donkey
    // that stays (D1 moves away), the bricks.
    let orders: Vec<&str> = file.lines().filter(|l| !l.starts_with('#')).collect();
    for (start, end) in [
        ("move D1: load 1 ", "; unload 1 board"),
        ("build ", " at C4 with D2"),
        ("bricks 1 paying 1 ", ""),
    ] {
        assert!(
            orders
                .iter()
                .any(|l| l.starts_with(start) && l.ends_with(end)),
            "{start}…{end} in the file:\n{file}"
        );
    }
    assert!(file.contains("secret YOUR-SECRET"), "{file}");
    let answer = b.checked();
    let written = tmp.path().join("red.txt");
    std::fs::write(&written, &file).expect("file");
    let (_, want, err) = support::judge_text(
        &[
            "check",
            game.to_str().expect("utf-8"),
            written.to_str().expect("utf-8"),
        ],
        &[],
    );
    assert_eq!(answer["errors"], json!(0), "{answer}\n{file}");
    let text = answer["text"].as_str().expect("text");
    // The same answer as `judge check`'s, but for the file's name.
    assert_eq!(
        text.replace("your orders", "FILE"),
        want.replace(written.to_str().expect("utf-8"), "FILE"),
        "{err}"
    );
    assert!(
        text.contains("-> "),
        "the echo of what each order will do:\n{text}"
    );

    b.click(".writer-transporter[data-id='D1']");
    // The picture for docs/order-writer.md, made here with D1 chosen again (its reach
    // lit): written when asked
    // (`ORDER_WRITER_SHOT=write`), else the one in docs/ must be a picture of the page.
    let shot = b.call(
        "Page.captureScreenshot",
        json!({"format": "png", "clip": {"x": 0, "y": 0, "width": 1280, "height": 1000, "scale": 1}}),
    );
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot["data"].as_str().expect("data"))
        .expect("base64");
    let kept = Path::new("docs/images/order-writer.png");
    if std::env::var("ORDER_WRITER_SHOT").as_deref() == Ok("write") {
        std::fs::create_dir_all("docs/images").expect("docs/images");
        std::fs::write(kept, &png).expect("screenshot");
    }
    let (w, h, _) = support::decode_png(
        &std::fs::read(kept)
            .expect("docs/images/order-writer.png (ORDER_WRITER_SHOT=write makes it)"),
    );
    assert_eq!((w, h), (1280, 1000));

    // A broken line typed by hand: the checker's diagnostic, with its line and column.
    b.eval(
        "(() => { const f = document.getElementById('orders'); \
         f.value = f.value.replace('\\nbuilding\\n', '\\nmove D9: Z99\\nbuilding\\n'); \
         f.dispatchEvent(new Event('input')); return true; })()",
    );
    let answer = b.checked();
    assert!(answer["errors"].as_u64() > Some(0), "{answer}");
    let first = &answer["diagnostics"][0];
    assert!(first["line"].as_u64().is_some_and(|l| l > 4), "{answer}");
    let shown = b.eval("document.getElementById('checked').textContent");
    assert!(shown.as_str().is_some_and(|t| t.contains("D9")), "{shown}");
    // "Mail it": the judge's address, the subject and the file; no secret.
    let href = b.eval("document.getElementById('mail').href");
    let href = href.as_str().expect("a link");
    assert!(
        href.starts_with("mailto:judge@example.org?subject=orders%20demo%20red%20turn%201&body="),
        "{href}"
    );
    assert!(href.contains("YOUR-SECRET"), "{href}");
    let errors = b.errors();
    assert!(errors.is_empty(), "{errors:#?}");
}

/// The order writer writes one of a good in the singular, as
/// docs/orders.md does (`load 1 board`, `bricks 1 paying 1 board`, never `1 boards`), and
/// its help calls the discs of the seat's transporters by the colour they are drawn in
/// (white), not yellow. The demo game's red page, without the checker (the writer writes
/// without it).
#[test]
fn the_writer_writes_one_board_and_calls_its_discs_white() {
    let tmp = tempfile::tempdir().expect("tmp");
    let game = tmp.path().join("demo");
    support::copy_dir(Path::new("games/demo"), &game, &|p| {
        !p.components().any(|c| c.as_os_str() == "pending")
    });
    let out = tmp.path().join("site");
    let (code, _, err) = support::run_judge(
        &[
            "site",
            game.to_str().expect("utf-8"),
            "-o",
            out.to_str().expect("utf-8"),
        ],
        &[],
    );
    assert_eq!(code, 0, "judge site: {err}");
    let mut b = Browser::start(&chromium());
    b.open(&url(&out.join("write-red.html")));
    let help = b.eval("document.getElementById('tools').textContent");
    let help = help.as_str().expect("the tools' text");
    assert!(help.contains("a white disc with its name"), "{help}");
    assert!(!help.contains("yellow"), "{help}");
    let fill = b.eval("document.querySelector('.writer-transporter circle').getAttribute('fill')");
    assert_eq!(fill, json!("#ffffff"), "the disc is drawn white");
    b.click(".writer-transporter[data-id='D1']");
    b.click(".tools p.load button");
    b.click(".writer-reach");
    b.click(".tools p.unload button");
    b.click(".tools .wonder button[data-good]");
    b.click(".tools .wonder button.add-bricks");
    let file = b.file();
    let orders: Vec<&str> = file.lines().filter(|l| !l.starts_with('#')).collect();
    let moved = orders
        .iter()
        .find(|l| l.starts_with("move D1: "))
        .unwrap_or_else(|| panic!("D1's move in the file:\n{file}"));
    assert!(moved.starts_with("move D1: load 1 board;"), "{file}");
    assert!(moved.ends_with("; unload 1 board"), "{file}");
    assert!(orders.contains(&"bricks 1 paying 1 board"), "{file}");
    // No count of one with a plural anywhere in what it wrote.
    for plural in [
        "boards", "trunks", "coins", "geese", "bombs", "managers", "pearls", "carvings", "rings",
        "sketches",
    ] {
        assert!(
            !file.contains(&format!(" 1 {plural}")),
            "1 {plural} in:\n{file}"
        );
    }
    let errors = b.errors();
    assert!(errors.is_empty(), "{errors:#?}");
}

/// The order writer "for Catan, the board's legal places and the order
/// syntax, since the hand is private": a new Catan game at its founding; red's page
/// lights the free corners, a click on one and on a road beside it writes the founding
/// line, which the checker in the page accepts as `judge check` does; the page holds no
/// hand (its position is the public record).
#[test]
fn the_catan_order_writer_founds_by_clicks() {
    let tmp = tempfile::tempdir().expect("tmp");
    let game = new_island(tmp.path());
    let game_s = game.to_str().expect("utf-8");
    let site = site_with_checker(&game, tmp.path());
    let page = std::fs::read_to_string(site.join("write-red.html")).expect("red's page");
    assert!(
        !page.contains("\"hand\":{\"") && !page.contains("You hold"),
        "no hand on the page"
    );
    let mut b = Browser::start(&chromium());
    open_writer(&mut b, &site.join("write-red.html"));
    let lit = b.eval("document.querySelectorAll('.writer-settlement').length");
    assert!(lit.as_u64() > Some(10), "the free corners light up: {lit}");
    b.click(".writer-settlement");
    b.click(".writer-road");
    let file = b.file();
    assert!(
        file.lines()
            .any(|l| l.starts_with("settlement ") && l.contains(" road ")),
        "{file}"
    );
    let answer = b.checked();
    assert_eq!(answer["errors"], json!(0), "{answer}\n{file}");
    let written = tmp.path().join("red.txt");
    std::fs::write(&written, &file).expect("file");
    let (_, want, _) =
        support::judge_text(&["check", game_s, written.to_str().expect("utf-8")], &[]);
    assert_eq!(
        answer["text"]
            .as_str()
            .expect("text")
            .replace("your orders", "FILE"),
        want.replace(written.to_str().expect("utf-8"), "FILE")
    );
    let errors = b.errors();
    assert!(errors.is_empty(), "{errors:#?}");
}

/// `<!--<script>` in the game's name or in `[mail] from` stopped
/// every script of the Roads & Boats order writer's pages. A Roads & Boats game (the
/// demo) and a Catan game, each named `<!--<script></script><script>alert(1)</script>`,
/// with a player so named and `[mail] from` so written, in a real browser: every script
/// of the writer's page runs (the position is read, the game's script lights D1's
/// reach or the free corners), the page shows the names as text, "Mail it" carries the
/// name in its subject, no alert opens and nothing fails.
#[test]
fn the_order_writer_runs_under_a_hostile_name() {
    const HOSTILE: &str = "<!--<script></script><script>alert(1)</script>";
    let tmp = tempfile::tempdir().expect("tmp");
    let demo = tmp.path().join("demo");
    support::copy_dir(Path::new("games/demo"), &demo, &|p| {
        !p.components().any(|c| c.as_os_str() == "pending")
    });
    let island = new_island(tmp.path());
    let mut b = Browser::start(&chromium());
    for (game, lit) in [(&demo, ".writer-reach"), (&island, ".writer-settlement")] {
        let toml = std::fs::read_to_string(game.join("game.toml")).expect("game.toml");
        let named = toml
            .lines()
            .map(|l| {
                if l.starts_with("name = ") && !l.contains("\"Ann\"") {
                    // The game's name (the first `name`), or a player's.
                    if toml.find(l) == toml.find("name = ") {
                        return format!("name = '{HOSTILE}'");
                    }
                    return format!("name = 'Bob {HOSTILE}'");
                }
                l.to_string()
            })
            .collect::<Vec<_>>()
            .join("\n");
        let named = if named.contains(&format!("name = '{HOSTILE}'")) {
            named
        } else {
            named.replacen(
                "\nscenario = ",
                &format!("\nname = '{HOSTILE}'\nscenario = "),
                1,
            )
        };
        std::fs::write(
            game.join("game.toml"),
            format!(
                "{named}\n\n[mail]\nfrom = '\"<!--<script></script>\" <judge@example.org>'\npickup = \"../pickup\"\n"
            ),
        )
        .expect("game.toml");
        let out = tmp.path().join(format!(
            "site-{}",
            game.file_name().and_then(|n| n.to_str()).expect("a name")
        ));
        let (code, _, err) = support::run_judge(
            &[
                "site",
                game.to_str().expect("utf-8"),
                "-o",
                out.to_str().expect("utf-8"),
            ],
            &[],
        );
        assert_eq!(code, 0, "judge site: {err}");
        b.open(&url(&out.join("write-red.html")));
        b.eval("window.alert = () => { window.alerted = true; }; true");
        let ran = b.eval(
            "[typeof window.WRITER.put, typeof window.WRITER_POSITION, window.WRITER.name, \
             document.title.startsWith(window.WRITER.name)]",
        );
        assert_eq!(
            ran,
            json!(["function", "object", HOSTILE, true]),
            "{}: every script ran",
            game.display()
        );
        if lit == ".writer-reach" {
            b.click(".writer-transporter[data-id='D1']");
        }
        let n = b.eval(&format!("document.querySelectorAll('{lit}').length"));
        assert!(
            n.as_u64() > Some(0),
            "{}: the game's script draws: {n}",
            game.display()
        );
        let href = b.eval("document.getElementById('mail').href");
        let want = format!(
            "mailto:judge@example.org?subject={}",
            b.eval(&format!(
                "encodeURIComponent({:?})",
                format!("orders {HOSTILE} red turn 1")
            ))
            .as_str()
            .expect("encoded")
        );
        assert!(
            href.as_str().is_some_and(|h| h.starts_with(&want)),
            "{href} does not start {want}"
        );
        assert_eq!(b.eval("window.alerted === true"), json!(false));
        let errors = b.errors();
        assert!(errors.is_empty(), "{}: {errors:#?}", game.display());
    }
}

/// What the writer's page shows of its map now: the map's and its box's rendered widths,
/// the window's width and the page's, the smallest rendered size of a tile's name (its
/// font size times the map's scale), and the boxes (left, top, right, bottom, in CSS
/// px) of the tiles' names and of the marks the page draws (the rings of places reached,
/// the `+` of places to build, their strokes counted).
const MEASURE: &str = "(() => {
  const svg = document.querySelector('#map svg');
  const scale = svg.getScreenCTM().a;
  const names = Array.from(svg.querySelectorAll('text')).filter(t =>
    !t.closest('[id^=writer-]') && t.getAttribute('font-size') === '11' &&
    t.getAttribute('font-weight') === 'bold' && /^[A-Z][0-9]+$/.test(t.textContent));
  const box = (e, pad) => { const r = e.getBoundingClientRect();
    return [r.left - pad, r.top - pad, r.right + pad, r.bottom + pad]; };
  const marks = Array.from(document.querySelectorAll('.writer-reach circle, .writer-site rect'),
    e => [e.parentNode.getAttribute('data-at'), box(e, scale * (+e.getAttribute('stroke-width')) / 2)]);
  return {
    map: svg.getBoundingClientRect().width,
    box: document.getElementById('map').getBoundingClientRect().width,
    window: window.innerWidth,
    page: document.documentElement.scrollWidth,
    font: Math.min(...names.map(t => scale * parseFloat(getComputedStyle(t).fontSize))),
    names: names.map(t => [t.textContent, box(t, 0)]),
    marks: marks,
  };
})()";

/// "The writer's map is too small to read (about 480 px wide: goods
/// badges unreadable, the lit discs cover the tile names): a larger map or zoom, tested at
/// a phone's width and a desktop's." Each writer page of the demo game and of the running
/// archived game, in a window 1280 px wide and in a phone's 390 px: at 1280 the map is
/// drawn at least 800 px wide; at 390 its box fills the screen's width (less the page's
/// margins) and the page is no wider than the screen (the map scrolls in its box); at
/// both, a tile's name is drawn at least 11 px high; and with each of the seat's
/// transporters chosen in turn (its reach lit), no ring of a place reached and no `+` of
/// a place to build covers a tile's name. "+" zooms in, "whole map" fits the map to its
/// box. `WRITER_MAP_SHOTS=DIR` keeps a screenshot of each width in DIR to look at.
#[test]
fn the_writers_map_reads_at_a_phone_and_a_desktop_width() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut b = Browser::start(&chromium());
    let mut looked = 0;
    for game in ["games/demo", "games/polder-cities-3p"] {
        let out = tmp.path().join(game.replace('/', "-"));
        site(game, &out);
        let out = out.canonicalize().expect("site");
        let mut pages: Vec<PathBuf> = std::fs::read_dir(&out)
            .expect("site")
            .filter_map(|e| {
                let p = e.ok()?.path();
                let n = p.file_name()?.to_str()?.to_string();
                (n.starts_with("write-") && n.ends_with(".html")).then_some(p)
            })
            .collect();
        pages.sort();
        for (width, height, mobile) in [(1280, 900, false), (390, 844, true)] {
            b.call(
                "Emulation.setDeviceMetricsOverride",
                json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
            );
            for page in &pages {
                let at = format!("{}, {width} px", page.display());
                b.open(&url(page));
                let ids: Vec<String> = serde_json::from_value(
                    b.eval("window.WRITER.model.transporters.filter(t => t.xy).map(t => t.id)"),
                )
                .expect("ids");
                // The page as it opens, then with each transporter chosen.
                let mut seen = vec![None];
                seen.extend(ids.iter().map(Some));
                for chosen in seen {
                    if let Some(id) = chosen {
                        b.click(&format!(".writer-transporter[data-id='{id}']"));
                    }
                    let m = b.eval(MEASURE);
                    let num = |k: &str| m[k].as_f64().unwrap_or_else(|| panic!("{at}: {k}: {m}"));
                    if width == 1280 {
                        assert!(
                            num("map") >= 800.0,
                            "{at}: the map is {} px wide",
                            num("map")
                        );
                    } else {
                        assert!(
                            num("box") >= f64::from(width) - 2.0 * 16.0 - 1.0,
                            "{at}: the map's box is {} px wide",
                            num("box")
                        );
                    }
                    assert!(
                        num("page") <= num("window"),
                        "{at}: the page is {} px wide in a window of {}",
                        num("page"),
                        num("window")
                    );
                    assert!(
                        num("font") >= 11.0,
                        "{at}: the names are {} px",
                        num("font")
                    );
                    let names: Vec<(String, [f64; 4])> =
                        serde_json::from_value(m["names"].clone()).expect("names");
                    let marks: Vec<(String, [f64; 4])> =
                        serde_json::from_value(m["marks"].clone()).expect("marks");
                    assert!(names.len() > 30, "{at}: {} names", names.len());
                    for (place, k) in &marks {
                        for (name, n) in &names {
                            let apart = k[2] <= n[0] + 0.5
                                || n[2] <= k[0] + 0.5
                                || k[3] <= n[1] + 0.5
                                || n[3] <= k[1] + 0.5;
                            assert!(
                                apart,
                                "{at}, {chosen:?} chosen: the mark of {place} {k:?} covers {name} {n:?}"
                            );
                        }
                        looked += 1;
                    }
                }
                if let Ok(dir) = std::env::var("WRITER_MAP_SHOTS") {
                    let shot = b.call(
                        "Page.captureScreenshot",
                        json!({"format": "png", "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}}),
                    );
                    let png = base64::engine::general_purpose::STANDARD
                        .decode(shot["data"].as_str().expect("data"))
                        .expect("base64");
                    let name = format!(
                        "{}-{}-{width}.png",
                        game.replace('/', "-"),
                        page.file_stem().and_then(|s| s.to_str()).expect("a name")
                    );
                    std::fs::write(Path::new(&dir).join(name), png).expect("screenshot");
                }
                // Zoom: "+" draws the map larger, "whole map" fits it to its box.
                let before = b.eval(MEASURE)["map"].as_f64().expect("width");
                b.click("#zoom button[data-zoom='in']");
                let larger = b.eval(MEASURE)["map"].as_f64().expect("width");
                assert!(larger > before * 1.2, "{at}: + made {before} px {larger}");
                b.click("#zoom button[data-zoom='fit']");
                let m = b.eval(MEASURE);
                let (map, box_) = (m["map"].as_f64(), m["box"].as_f64());
                assert!(
                    map.zip(box_).is_some_and(|(a, b)| a <= b + 0.5),
                    "{at}: the whole map, {map:?} px in a box of {box_:?}"
                );
                let errors = b.errors();
                assert!(errors.is_empty(), "{at}: {errors:#?}");
            }
        }
    }
    assert!(looked > 40, "{looked} marks measured");
}
