//! `judge report --format markdown` and `bbcode`: the public report laid out for a
//! forum post (play by forum), for each game, and nothing of a player's own copy in it.

use std::path::Path;

use pbem_judge::archive::Archive;
use pbem_judge::judge_core_forum as forum;

use crate::support::judge_text;

fn root(game: &str) -> String {
    format!("{}/games/{game}", env!("CARGO_MANIFEST_DIR"))
}

fn post(game: &str, format: &str) -> String {
    let dir = root(game);
    let (code, out, err) = judge_text(&["report", &dir, "--format", format], &[]);
    assert_eq!(code, 0, "{out}{err}");
    out
}

/// The forum layouts of each bundled game's latest turn, read and kept as snapshots:
/// the headings, the tables as tables, the laid-out lines as code, the map section
/// with the line saying how to link the map (the bundled games have no site).
#[test]
fn the_forum_layouts_of_each_game() {
    for game in ["polder-cities-3p", "catan-4p", "catan-express-4p"] {
        for format in ["markdown", "bbcode"] {
            let out = post(game, format);
            assert!(out.contains("the game has no site address"), "{out}");
            insta::assert_snapshot!(format!("{game}-{format}"), out);
        }
    }
}

/// With a site address ([mail] site), the map's section links the turn's page.
#[test]
fn the_map_links_the_turns_page_on_the_games_site() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("g");
    crate::support::copy_dir(Path::new(&root("catan-4p")), &dir, &|_| true);
    let toml = dir.join("game.toml");
    let mut text = std::fs::read_to_string(&toml).expect("game.toml");
    text.push_str(&format!(
        "\n[mail]\nfrom = \"Judge <judge@example.org>\"\npickup = {:?}\nsite = \"https://club.example/catan/\"\n",
        tmp.path().join("pickup")
    ));
    std::fs::write(&toml, text).expect("game.toml");
    let d = dir.to_str().expect("utf-8");
    let (code, md, err) = judge_text(&["report", d, "--format", "markdown", "-t", "12"], &[]);
    assert_eq!(code, 0, "{md}{err}");
    assert!(
        md.contains("[The map of turn 12](<https://club.example/catan/turn-012.html>)"),
        "{md}"
    );
    assert!(!md.contains("no site address"), "{md}");
    let (_, bb, _) = judge_text(&["report", d, "--format", "bbcode", "-t", "12"], &[]);
    assert!(
        bb.contains("[url=https://club.example/catan/turn-012.html]The map of turn 12[/url]"),
        "{bb}"
    );
}

/// A player's own copy is for their mail: `--player` with a forum format is refused
/// as a usage error, and prints nothing.
#[test]
fn a_players_copy_is_never_laid_out_for_a_forum() {
    for format in ["markdown", "bbcode"] {
        let (code, out, err) = judge_text(
            &[
                "report",
                &root("catan-4p"),
                "--format",
                format,
                "--player",
                "red",
            ],
            &[],
        );
        assert_eq!(code, 2, "{out}{err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains("leave out --player"), "{err}");
    }
}

/// Every piece of text a forum layout holds.
fn texts(doc: &forum::Doc) -> String {
    let mut all = String::new();
    for b in &doc.blocks {
        match b {
            forum::Block::Title(t) | forum::Block::Heading(t) | forum::Block::NoSite(t) => {
                all.push_str(t);
            }
            forum::Block::Paragraph(ls) | forum::Block::Pre(ls) => all.push_str(&ls.join("\n")),
            forum::Block::Table { header, rows } => {
                all.push_str(&header.join(" "));
                for r in rows {
                    all.push_str(&r.join(" "));
                }
            }
            forum::Block::MapLink { text, url } => {
                all.push_str(text);
                all.push_str(url);
            }
        }
        all.push('\n');
    }
    all
}

/// Nothing only a player's copy holds reaches the forum: over every turn of the
/// bundled Catan games, each line of each player's copy that the public report lacks
/// (their hand, their orders' fate, their header) is in neither the layout's text
/// nor the rendered Markdown or BBCode.
#[test]
fn no_line_only_a_players_copy_holds_is_posted() {
    for game in ["catan-4p", "catan-express-4p"] {
        let archive = Archive::open(Path::new(&root(game))).expect("archive");
        let g = pbem_judge::games::by_id(&archive.game.game).expect("game");
        let mut private_lines = 0;
        for turn in archive.turns().expect("turns") {
            let report = pbem_judge::pbem::report::of_turn(&archive, g, turn).expect("report");
            let public = report.text(None, None).expect("public");
            let at = forum::MapAt::Nowhere("no site".into());
            let doc = forum::read(&public, report.map_section(), &at);
            let (all, md, bb) = (texts(&doc), forum::markdown(&doc), forum::bbcode(&doc));
            for p in &archive.game.players {
                let own = report.text(None, Some(&p.id)).expect("player copy");
                for line in own.lines().map(str::trim) {
                    if line.len() < 4 || public.contains(line) {
                        continue;
                    }
                    private_lines += 1;
                    for out in [&all, &md, &bb] {
                        assert!(
                            !out.contains(line),
                            "{game} turn {turn}: {}'s line {line:?} posted",
                            p.id
                        );
                    }
                }
            }
        }
        // The property is not vacuous: the copies do hold lines of their own.
        assert!(private_lines > 100, "{game}: {private_lines}");
    }
}
