//! `judge site DIR -o OUT`: the same archive makes the same bytes; a page per
//! turn and an overview; the orders shown once played, never pending ones, never a
//! secret, an address or a mail; a game with hidden cards (Catan) shows no orders.

use crate::support;

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::judge_text;

/// Every file of a folder, by its name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    support::all_files(dir)
        .into_iter()
        .map(|p| {
            let name = p
                .strip_prefix(dir)
                .expect("inside")
                .to_string_lossy()
                .into_owned();
            (name, std::fs::read(&p).expect("read"))
        })
        .collect()
}

fn site(game: &Path, out: &Path) -> String {
    let (code, said, err) = judge_text(
        &[
            "site",
            game.to_str().expect("utf-8"),
            "-o",
            out.to_str().expect("utf-8"),
        ],
        &[],
    );
    assert_eq!(code, 0, "judge site: {err}");
    said
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            copy(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy");
        }
    }
}

/// "`judge site` of `games/two-rivers-2p` is deterministic (same archive, same
/// bytes)": two sites made apart are the same files, and a third run over the first
/// rewrites nothing.
#[test]
fn the_same_archive_makes_the_same_bytes() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let game = Path::new("games/two-rivers-2p");
    site(game, &a);
    site(game, &b);
    let (fa, fb) = (files(&a), files(&b));
    assert_eq!(fa, fb);
    // A page per turn (0 to 32), the overview, the order guide, the style sheet, the
    // keyboard script, and the list of what the judge wrote.
    assert_eq!(fa.len(), 33 + 5, "{:?}", fa.keys().collect::<Vec<_>>());
    for name in [
        "index.html",
        "turn-000.html",
        "turn-032.html",
        "style.css",
        "keys.js",
        "guide.html",
    ] {
        assert!(fa.contains_key(name), "{name}");
    }
    // Readable by a web server, whatever the umask.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(a.join("index.html"))
            .expect("index")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o644);
    }
    let again = site(game, &a);
    assert!(again.contains("(0 written, 37 unchanged)"), "{again}");
    // Each turn's page shows the picture of what that turn did (red's D2
    // fetched goods from B4 in turn 32); the start's shows none.
    let page = |name: &str| String::from_utf8(fa[name].clone()).expect("utf-8");
    assert!(
        page("turn-032.html").contains("<title>red's D2 moved: C4 &gt; B4 &gt; C4</title>"),
        "turn 32's page marks its routes"
    );
    assert!(!page("turn-000.html").contains(" moved: "));
    // The overview names the players (not their addresses) and charts every turn.
    let index = String::from_utf8(fa["index.html"].clone()).expect("utf-8");
    assert!(index.contains("<td>Ann</td>") && index.contains("<td>Bob</td>"));
    // The overview links the order guide.
    assert!(
        index.contains("<a href=\"guide.html\">the order guide</a>"),
        "{index}"
    );
    // Three charts of a line per player, and the wonder's: a point per turn on each.
    assert_eq!(
        index.matches("class=\"point\" data-turn=").count(),
        3 * 2 * 33 + 33
    );
}

/// "… and contains no secret or pending order (tested)". A copy of the game
/// with secrets given, orders pending for the next turn, a mail in the inbox, and a
/// secret written into a played order file: the site shows the played orders with the
/// secret blanked, and nothing else of these.
#[test]
fn no_secret_no_pending_order_no_address_no_mail() {
    let tmp = tempfile::tempdir().expect("tmp");
    let game = tmp.path().join("game");
    copy(Path::new("games/two-rivers-2p"), &game);
    let (red, yellow) = support::new_secrets(&game, &[]);
    let toml = std::fs::read_to_string(game.join("game.toml")).expect("game.toml");
    let hashes: Vec<&str> = toml
        .lines()
        .filter(|l| l.starts_with("secret_hash"))
        .filter_map(|l| l.split('"').nth(1))
        .collect();
    assert_eq!(hashes.len(), 2, "{toml}");
    std::fs::create_dir_all(game.join("pending")).expect("pending");
    std::fs::write(
        game.join("pending/red.txt"),
        format!("player red\nturn 33\nsecret {red}\n\n# PENDING-ORDERS-MARKER\nmovement\n"),
    )
    .expect("pending");
    std::fs::create_dir_all(game.join("mail/inbox")).expect("inbox");
    std::fs::write(
        game.join("mail/inbox/000001.eml"),
        format!("From: bob@example.org\nSubject: orders\n\nsecret {yellow}\nMAIL-MARKER\n"),
    )
    .expect("mail");
    let played = game.join("turns/005/orders/red.txt");
    let kept = std::fs::read_to_string(&played).expect("orders");
    std::fs::write(
        &played,
        kept.replacen("player red\n", &format!("player red\nsecret {red}\n"), 1),
    )
    .expect("orders");

    let out = tmp.path().join("site");
    site(&game, &out);
    // The order guide is the docs' text and nothing of the archive (its examples may
    // name an address of their own): every other file is searched.
    let guide = std::fs::read_to_string(out.join("guide.html")).expect("the guide");
    let docs = std::fs::read_to_string("docs/orders.md").expect("docs");
    assert!(
        guide.contains(&pbem_judge::picture::escape(&docs)),
        "guide.html holds docs/orders.md"
    );
    let all: String = files(&out)
        .iter()
        .filter(|(name, _)| name.as_str() != "guide.html")
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .collect();
    for (what, bad) in [
        ("red's secret", red.as_str()),
        ("yellow's secret", yellow.as_str()),
        ("a secret's hash", hashes[0]),
        ("a secret's hash", hashes[1]),
        ("the hashes' field", "secret_hash"),
        ("the pending orders", "PENDING-ORDERS-MARKER"),
        ("a mail", "MAIL-MARKER"),
        ("an address", "@example.org"),
    ] {
        assert!(!all.contains(bad), "the site shows {what}: {bad}");
    }
    assert!(
        !out.join("turn-033.html").exists(),
        "no page of a turn not played"
    );
    // The orders played are shown, the secret line blanked.
    let page = std::fs::read_to_string(out.join("turn-005.html")).expect("turn 5");
    assert!(page.contains("make 4 boards at C4 from D3"), "{page}");
    assert!(page.contains("secret [secret]"), "{page}");
}

/// A game with hidden cards keeps its orders private (`Game::private_files`): its site
/// shows the public report and map of every step, and no orders.
#[test]
fn a_catan_site_shows_no_orders() {
    let tmp = tempfile::tempdir().expect("tmp");
    let out = tmp.path().join("site");
    let said = site(Path::new("games/catan-4p"), &out);
    assert!(said.contains("pages"), "{said}");
    let all = files(&out);
    let page = String::from_utf8(all["turn-001.html"].clone()).expect("utf-8");
    assert!(
        page.contains("keeps each player's orders to themselves"),
        "{page}"
    );
    assert!(page.contains("<svg"), "the board is drawn");
    for (name, bytes) in &all {
        let text = String::from_utf8_lossy(bytes);
        assert!(!text.contains("<details"), "{name} shows orders");
        assert!(!text.contains("@example.org"), "{name} shows an address");
    }
    let index = String::from_utf8(all["index.html"].clone()).expect("utf-8");
    assert!(index.contains("points by turn"), "{index}");
}

/// The site goes into a folder of its own, never over other files.
#[test]
fn the_site_refuses_a_folder_of_other_files() {
    let tmp = tempfile::tempdir().expect("tmp");
    std::fs::write(tmp.path().join("notes.txt"), "mine").expect("write");
    let (code, _, err) = judge_text(
        &[
            "site",
            "games/two-rivers-2p",
            "-o",
            tmp.path().to_str().expect("utf-8"),
        ],
        &[],
    );
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("holds other files and no site"), "{err}");
    let (code, _, err) = judge_text(
        &["site", "games/two-rivers-2p", "-o", "games/two-rivers-2p"],
        &[],
    );
    assert_ne!(code, 0);
    assert!(err.contains("the game's own folder"), "{err}");
}

/// The overview's "Orders, turn by turn" of a game played one player at a time
/// says whose orders each step played — the player whose step it was (unless the judge
/// stood in for them) and anyone whose standing order ran — not who mailed during it.
#[test]
fn a_catan_sites_orders_table_names_whose_orders_each_step_played() {
    let tmp = tempfile::tempdir().expect("tmp");
    let out = tmp.path().join("site");
    site(Path::new("games/catan-4p"), &out);
    let index = String::from_utf8(files(&out)["index.html"].clone()).expect("utf-8");
    let table = index
        .split("<h2 id=\"orders\">")
        .nth(1)
        .expect("the orders table");
    let archive = pbem_judge::archive::Archive::open(Path::new("games/catan-4p")).expect("archive");
    let seats = ["red", "blue", "white", "orange"];
    let mut checked = 0;
    for t in archive.turns().expect("turns").into_iter().skip(1) {
        let record: serde_json::Value =
            serde_json::from_str(&archive.read(t, "turn.json").expect("turn.json")).expect("json");
        let acted: Vec<&str> = record["acted"]
            .as_array()
            .expect("a step records whose orders it played")
            .iter()
            .filter_map(|v| v.as_str())
            .collect();
        // The step's own player: whose step the state before it awaited.
        let before =
            pbem_judge::catan::State::from_json(&archive.read(t - 1, "state.json").expect("state"))
                .expect("reads");
        let owner = before.colour(match before.phase {
            pbem_judge::catan::state::Phase::Founding { .. } => before.actor(),
            _ => before.active,
        });
        let events = support::catan::events_text(archive.root(), t);
        let judge_played = events.contains(&format!("\"player\": \"{owner}\""))
            && events.contains("\"event\": \"default\"")
            && !acted.contains(&owner.name());
        assert!(
            acted.contains(&owner.name()) || judge_played,
            "step {t}: {owner}'s step, but acted is {acted:?}"
        );
        let row = table
            .split("<tr>")
            .find(|r| r.contains(&format!("turn-{t:03}.html\">{t}<")))
            .unwrap_or_else(|| panic!("step {t} is in the table"));
        let cells: Vec<&str> = row
            .split("<td class=\"")
            .skip(1)
            .map(|c| c.split('"').next().unwrap_or(""))
            .collect();
        for (seat, cell) in seats.iter().zip(&cells) {
            let want = if acted.contains(seat) {
                "played"
            } else {
                "none"
            };
            assert_eq!(*cell, want, "step {t}, {seat}: {row}");
        }
        checked += 1;
    }
    assert!(checked > 60, "{checked}");
}

/// What the site leaves out follows each game's own list of private files
/// (`Game::private_files`): a Catan game's orders and states, no Roads & Boats file.
#[test]
fn private_paths_follow_the_games_patterns() {
    use pbem_judge::site::is_private;
    let catan = pbem_judge::games::by_id("catan").expect("catan");
    let rb = pbem_judge::games::by_id("roads-and-boats").expect("r&b");
    assert!(is_private(catan, "turns/001/orders/red.txt"));
    assert!(is_private(catan, "turns/001/state.json"));
    assert!(!is_private(catan, "turns/001/report.txt"));
    assert!(!is_private(catan, "turns/001/public.json"));
    assert!(!is_private(rb, "turns/001/orders/red.txt"));
}

/// The addresses of the point 17 test: each player's (Ann's is replaced by Zed's
/// before the site is made, so her address is kept only by the game's first state),
/// the GM's and the mail servers' user names. None may reach the site.
const HIDDEN_ADDRESSES: [&str; 7] = [
    "ann.qx7vw@annhost-k3z.example",
    "bob.zz9rt@bobhost-w4q.example",
    "cyd.mm4kp@cydhost-h8v.example",
    "zed.yy2fd@zedhost-c5n.example",
    "gail.gm5xj@gmhost-p2r.example",
    "smtpuser.u1b@smtphost-t6y.example",
    "imapuser.u2c@imaphost-g9s.example",
];

/// The judge's own address, `[mail] from`: the order writer's "Mail it" goes to it, so
/// the site shows it on purpose (docs/gm-guide.md, section 8).
const JUDGE_ADDRESS: &str = "judge.j8kd@judgehost-m3x.example";

/// A game made with the addresses of [`HIDDEN_ADDRESSES`], played one turn (its
/// mails written to a pickup folder beside it).
fn game_with_addresses(dir: &Path, game: &str) -> std::path::PathBuf {
    let g = dir.join(game);
    let d = g.to_str().expect("utf-8");
    let a = &HIDDEN_ADDRESSES;
    let (ann, bob, cyd) = (
        format!("Ann:{}", a[0]),
        format!("Bob:{}", a[1]),
        format!("Cyd:{}", a[2]),
    );
    let gm = format!("Gail:{}", a[4]);
    let mut args = vec!["new", d, "--gm", &gm, "--player", &ann, "--player", &bob];
    if game == "catan" {
        args.extend(["--game", "catan", "--player", &cyd, "--seed", "5"]);
    } else {
        args.extend(["--scenario", "two-rivers", "--seed", "7"]);
    }
    let (code, out, err) = judge_text(&args, &[]);
    assert_eq!(code, 0, "judge new: {out}{err}");
    let toml = std::fs::read_to_string(g.join("game.toml")).expect("game.toml");
    std::fs::write(
        g.join("game.toml"),
        format!(
            "{toml}\n[mail]\nfrom = \"The Judge <{JUDGE_ADDRESS}>\"\npickup = \"../pickup-{game}\"\nsmtp_user = \"{}\"\nimap_user = \"{}\"\n",
            a[5], a[6]
        ),
    )
    .expect("game.toml");
    let (code, out, err) = judge_text(&["secret", d], &[]);
    assert_eq!(code, 0, "judge secret: {out}{err}");
    let (code, out, err) = judge_text(&["turn", d, "--force"], &[]);
    assert_eq!(code, 0, "judge turn: {out}{err}");
    let zed = format!("Zed:{}", a[3]);
    let (code, out, err) = judge_text(&["replace", d, "red", "--by", &zed], &[]);
    assert_eq!(code, 0, "judge replace: {out}{err}");
    g
}

/// The Roads & Boats site's `position.js` (what the order writer's
/// checker reads) published every player's address, though the GM guide says the site
/// shows none. For a Roads & Boats and a Catan game, each still running (so with its
/// writer pages), played a turn and with a player replaced: no byte sequence that
/// names a player's (or a former player's), the GM's or a mail server user's address
/// — the whole address, its local part or its domain, in any case — is in any file
/// the site writes. The judge's own address is, on the writer pages alone ("Mail it").
#[test]
fn no_address_reaches_any_site_file() {
    let tmp = tempfile::tempdir().expect("tmp");
    for game in ["roads-and-boats", "catan"] {
        let g = game_with_addresses(tmp.path(), game);
        // The addresses are in the archive: the site must leave them out.
        let kept: String = support::all_files(&g)
            .iter()
            .map(|p| String::from_utf8_lossy(&std::fs::read(p).expect("read")).into_owned())
            .collect();
        let a = &HIDDEN_ADDRESSES;
        for a in [a[1], a[3], a[4], a[5], a[6]] {
            assert!(kept.contains(a), "{game}: the archive keeps {a}");
        }
        if game == "roads-and-boats" {
            // The replaced player's address, in the states of the turns she played.
            let state = std::fs::read_to_string(g.join("turns/001/state.json")).expect("state");
            assert!(
                state.contains(a[0]),
                "{game}: the state keeps Ann's address"
            );
        }
        let out = tmp.path().join(format!("site-{game}"));
        site(&g, &out);
        let all = files(&out);
        assert!(
            all.keys().any(|n| n.starts_with("write-")) && all.contains_key("turn-001.html"),
            "{game}: writer pages and a played turn: {:?}",
            all.keys().collect::<Vec<_>>()
        );
        let mut walked = 0;
        for (name, bytes) in &all {
            let text = String::from_utf8_lossy(bytes).to_lowercase();
            for a in HIDDEN_ADDRESSES {
                let (local, domain) = a.split_once('@').expect("an address");
                for part in [a, local, domain] {
                    assert!(!text.contains(part), "{game}: {name} shows {part} (of {a})");
                }
            }
            let (local, domain) = JUDGE_ADDRESS.split_once('@').expect("an address");
            if !name.starts_with("write-") {
                assert!(
                    !text.contains(local) && !text.contains(domain),
                    "{game}: {name} shows the judge's address"
                );
            }
            walked += 1;
        }
        assert!(walked >= 8, "{game}: {walked} files");
        if game == "roads-and-boats" {
            assert!(all.contains_key("position.js"), "the checker's position");
        }
        for (name, bytes) in all.iter().filter(|(n, _)| n.starts_with("write-")) {
            assert!(
                String::from_utf8_lossy(bytes).contains(JUDGE_ADDRESS),
                "{game}: {name}'s \"Mail it\" goes to the judge"
            );
        }
    }
}

/// Names a GM may give a game (`name` in game.toml) that are markup or script in a
/// page if written raw.
const HOSTILE_NAMES: [&str; 4] = [
    "<!--<script></script><script>alert(1)</script>",
    "</script><script>alert(2)</script><!--",
    "\"><img src=x onerror=alert(3)><![CDATA[ ]]> &lt;b&gt; \u{2028}\u{2029}",
    "</SCRIPT ><!-- <Script>",
];

/// `<!--<script>` in the game's name or `[mail] from` stopped every
/// script of the Roads & Boats order writer's pages. For a Roads & Boats and a Catan
/// game named each of [`HOSTILE_NAMES`], with a player so named and `[mail] from`'s
/// name so written: every page of the site holds no HTML comment, every `<script` in
/// it is one of the judge's own elements, whose text holds no `<` at all (so no
/// `<!--`, `<script` or `</script` from a GM), and what the writer's script is given
/// reads back as the very text the GM set (data, not markup).
#[test]
fn text_a_gm_sets_never_breaks_a_pages_scripts() {
    let tmp = tempfile::tempdir().expect("tmp");
    for (k, hostile) in HOSTILE_NAMES.iter().enumerate() {
        for game in ["roads-and-boats", "catan"] {
            let g = tmp.path().join(format!("{game}-{k}"));
            let d = g.to_str().expect("utf-8");
            let mut args = vec![
                "new",
                d,
                "--player",
                "Ann:ann@example.org",
                "--player",
                "Bob:bob@example.org",
            ];
            if game == "catan" {
                args.extend(["--game", "catan", "--player", "Cyd:cyd@example.org"]);
            } else {
                args.extend(["--scenario", "two-rivers"]);
            }
            let (code, out, err) = judge_text(&args, &[]);
            assert_eq!(code, 0, "judge new: {out}{err}");
            let toml = std::fs::read_to_string(g.join("game.toml")).expect("game.toml");
            let literal = |s: &str| format!("'{s}'");
            let toml = toml
                .replacen(
                    &format!("name = \"{game}-{k}\""),
                    &format!("name = {}", toml_string(hostile)),
                    1,
                )
                .replacen(
                    "name = \"Bob\"",
                    &format!("name = {}", toml_string(hostile)),
                    1,
                );
            std::fs::write(
                g.join("game.toml"),
                format!(
                    "{toml}\n[mail]\nfrom = {}\npickup = \"../pickup-{game}-{k}\"\n",
                    literal("\"<!--<script></script>\" <judge@example.org>")
                ),
            )
            .expect("game.toml");
            let out = tmp.path().join(format!("site-{game}-{k}"));
            site(&g, &out);
            let all = files(&out);
            let mut writers = 0;
            for (name, bytes) in all.iter().filter(|(n, _)| n.ends_with(".html")) {
                let page = String::from_utf8(bytes.clone()).expect("utf-8");
                assert!(
                    !page.contains("<!--"),
                    "{game}, {hostile:?}: {name} holds <!--"
                );
                let scripts = page_scripts(&page, &format!("{game}, {hostile:?}: {name}"));
                if let Some(inline) = scripts.iter().find(|s| s.contains("window.WRITER =")) {
                    let json = inline
                        .split("window.WRITER = ")
                        .nth(1)
                        .and_then(|r| r.split(";\n").next())
                        .expect("the writer's facts");
                    let facts: serde_json::Value = serde_json::from_str(json)
                        .unwrap_or_else(|e| panic!("{name}: {e}: {json}"));
                    assert_eq!(facts["name"], serde_json::json!(hostile), "{name}");
                    assert_eq!(
                        facts["to"],
                        serde_json::json!("\"<!--<script></script>\" <judge@example.org>"),
                        "{name}"
                    );
                    writers += 1;
                }
            }
            assert!(writers >= 2, "{game}, {hostile:?}: {writers} writer pages");
        }
    }
}

/// `s` as a TOML basic string.
fn toml_string(s: &str) -> String {
    serde_json::to_string(s).expect("json")
}

/// The text of every `<script>` element of an HTML page, as a browser's tokenizer ends
/// them (at the first `</script`, whatever its case), each checked to be one of the
/// judge's own (`src` a file of the site, or the writer's inline facts) and to hold no
/// `<` that could open a comment or a tag.
fn page_scripts(page: &str, what: &str) -> Vec<String> {
    let lower = page.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = lower[at..].find("<script").map(|i| at + i) {
        let tag_end = i + lower[i..].find('>').expect("the tag ends");
        let tag = &page[i..=tag_end];
        let end = tag_end
            + lower[tag_end..]
                .find("</script")
                .unwrap_or_else(|| panic!("{what}: a script never ends"));
        let text = &page[tag_end + 1..end];
        let own_file = [
            "keys.js",
            "position.js",
            "checker.js",
            "writer.js",
            "game-writer.js",
        ]
        .iter()
        .any(|f| {
            tag == format!("<script src=\"{f}\">") || tag == format!("<script src=\"{f}\" defer>")
        });
        assert!(
            (own_file && text.is_empty())
                || (tag == "<script>" && text.starts_with("\nwindow.WRITER = ")),
            "{what}: a script element not the judge's: {tag}{text}"
        );
        assert!(!text.contains('<'), "{what}: `<` in a script: {text}");
        assert_eq!(&lower[end..end + 10], "</script>\n", "{what}");
        out.push(text.to_string());
        at = end + 9;
    }
    let opened = lower.matches("<script").count();
    assert_eq!(opened, out.len(), "{what}");
    out
}

/// The boxes of the tiles' names on a Roads & Boats map, read from its SVG: each
/// `<text … font-size="11" … font-weight="bold" …>C4</text>`, set about its baseline with
/// the font's ascent and descent (0.93 and 0.24 of its size), a bold letter at most 0.75
/// of it wide, and the 1.5-unit white halo round it.
fn tile_name_boxes(svg: &str) -> Vec<(String, [f64; 4])> {
    let number = |tag: &str, key: &str| -> f64 {
        let tag = format!(" {tag}");
        let at = tag.find(&format!(" {key}=\"")).expect(key) + key.len() + 3;
        tag[at..].split('"').next().expect(key).parse().expect(key)
    };
    let mut out = Vec::new();
    for piece in svg.split("<text ").skip(1) {
        let Some((tag, rest)) = piece.split_once('>') else {
            continue;
        };
        let text = rest.split('<').next().unwrap_or("");
        let is_name = tag.contains("font-size=\"11\"")
            && tag.contains("font-weight=\"bold\"")
            && text.len() >= 2
            && text.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && text[1..].chars().all(|c| c.is_ascii_digit());
        if !is_name {
            continue;
        }
        let (x, y) = (number(tag, "x"), number(tag, "y"));
        let half = text.len() as f64 * 0.75 * 11.0 / 2.0 + 1.5;
        out.push((
            text.to_string(),
            [
                x - half,
                y - 0.93 * 11.0 - 1.5,
                x + half,
                y + 0.24 * 11.0 + 1.5,
            ],
        ));
    }
    out
}

/// "The writer's map is too small to read (about 480 px wide: goods
/// badges unreadable, the lit discs cover the tile names)." For every seat's writer page
/// of the demo game and of the running archived game: the map is an SVG with a viewBox
/// (so it scales), the site's stylesheet sizes it to its column (`width: 100%`, no fixed
/// width), the page has its zoom buttons, and no mark the page draws for a place a
/// transporter reaches (a ring of radius 12, its stroke 3) or a place to build (an
/// 18-unit `+`, its stroke 2) covers any tile's name on the map. (The browser measures
/// the same at a phone's and a desktop's width: tests/judge_core/site_browser.rs.)
#[test]
fn the_writers_map_scales_and_its_marks_leave_the_names_clear() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mut marks = 0;
    for game in ["games/demo", "games/polder-cities-3p"] {
        let out = tmp.path().join(game.replace('/', "-"));
        site(Path::new(game), &out);
        let css = std::fs::read_to_string(out.join("style.css")).expect("style.css");
        let rule = css
            .split('}')
            .find(|r| r.trim_start().starts_with(".desk .map svg"))
            .expect("a rule for the writer's map");
        let width = rule
            .split(['{', ';'])
            .filter_map(|d| d.split_once(':'))
            .find(|(k, _)| k.trim() == "width")
            .map(|(_, v)| v.trim());
        assert_eq!(width, Some("100%"), "{rule}");
        assert!(!css.contains("480px"), "a fixed width in style.css");
        let pages: Vec<_> = std::fs::read_dir(&out)
            .expect("site")
            .filter_map(|e| {
                let p = e.ok()?.path();
                let n = p.file_name()?.to_str()?.to_string();
                (n.starts_with("write-") && n.ends_with(".html")).then_some(p)
            })
            .collect();
        assert!(pages.len() >= 2, "{game}: {pages:?}");
        for page in pages {
            let html = std::fs::read_to_string(&page).expect("page");
            let svg = html
                .split("<div class=\"map\" id=\"map\">")
                .nth(1)
                .and_then(|r| r.split("</svg>").next())
                .expect("the map");
            let open = svg.split('>').next().expect("<svg");
            assert!(open.contains(" viewBox=\"0 0 "), "{open}");
            for zoom in ["data-zoom=\"in\"", "data-zoom=\"out\"", "data-zoom=\"fit\""] {
                assert!(html.contains(zoom), "{}: {zoom}", page.display());
            }
            let names = tile_name_boxes(svg);
            assert!(
                names.len() > 30,
                "{}: {} names",
                page.display(),
                names.len()
            );
            let model: serde_json::Value = serde_json::from_str(
                html.split("window.WRITER.model = ")
                    .nth(1)
                    .and_then(|r| r.split(";\n").next())
                    .expect("the model"),
            )
            .expect("json");
            let mut drawn = Vec::new();
            for t in model["transporters"].as_array().expect("transporters") {
                for r in t["reach"].as_array().expect("reach") {
                    drawn.push((format!("{} reaches {}", t["id"], r["at"]), &r["xy"], 13.5));
                }
            }
            for s in model["sites"].as_array().expect("sites") {
                drawn.push((format!("build at {}", s["at"]), &s["xy"], 10.0));
            }
            for (what, xy, r) in drawn {
                let [x, y] = serde_json::from_value::<[f64; 2]>(xy.clone()).expect("xy");
                let mark = [x - r, y - r, x + r, y + r];
                for (name, b) in &names {
                    assert!(
                        mark[0] >= b[2] || b[0] >= mark[2] || mark[1] >= b[3] || b[1] >= mark[3],
                        "{}: the mark of {what} at {mark:?} covers {name} at {b:?}",
                        page.display()
                    );
                }
                marks += 1;
            }
        }
    }
    assert!(marks > 20, "{marks} marks looked at");
}

/// Over every place of every bundled map: wherever a transporter
/// could be lit as reaching (every area of every tile, every coast's dock, every sea
/// and river) and wherever it could build (every area), the writer's mark (the ring of
/// radius 12 and stroke 3, the 18-unit `+` with stroke 2) covers no tile's name as the
/// map's SVG sets it. (Today's archived games light only few kinds of place: the rivers'
/// split tiles and the docks, where a mark on the place's own point met the name, are
/// all here.)
#[test]
fn no_writer_mark_covers_a_name_on_any_bundled_map() {
    use pbem_judge::roads_boats::report::picture::{svg, writer_mark};
    use pbem_judge::roads_boats::scenario::{Scenario, bundled};
    use pbem_judge::roads_boats::transporter::Location;
    let mut looked = 0;
    for (name, text) in bundled() {
        let scenario = Scenario::parse(name, text).expect("a bundled scenario");
        let state = scenario.setup();
        let names = tile_name_boxes(&svg(state, name));
        assert_eq!(names.len(), state.map.tiles.len(), "{name}");
        let mut places = Vec::new();
        for (&hex, tile) in &state.map.tiles {
            if tile.terrain.is_sea() {
                places.push((Location::Sea(hex), false));
            } else {
                places.push((Location::River(hex), false));
                for a in state.map.areas(hex) {
                    places.push((Location::Land(a), true));
                }
            }
        }
        for c in state.map.coasts() {
            places.push((Location::Dock(c), false));
        }
        for (at, land) in places {
            let mut marks = vec![("reached", writer_mark(state, at, 0.0, 13.5), 13.5)];
            if land {
                marks.push(("build", writer_mark(state, at, 21.0, 10.0), 10.0));
            }
            for (what, xy, r) in marks {
                let (x, y) = xy.expect("a place on the map");
                let (x, y, r) = (f64::from(x), f64::from(y), r);
                for (tile, b) in &names {
                    assert!(
                        x + r <= b[0] || b[2] <= x - r || y + r <= b[1] || b[3] <= y - r,
                        "{name}: the {what} mark of {at} at ({x}, {y}) covers {tile} at {b:?}"
                    );
                }
                looked += 1;
            }
        }
    }
    assert!(looked > 1000, "{looked} marks");
}
