//! What the Catan and Catan Express CLI tests both do with a game's folder: run `judge`,
//! read a step's state and events, leave orders pending, and see what git would keep.

use std::path::Path;

use pbem_judge::catan::State;

/// Run `judge` with a clean environment: (exit code, stdout, stderr).
#[must_use]
pub fn judge(args: &[&str]) -> (i32, String, String) {
    super::judge_text(args, &[])
}

/// `judge`, which must succeed: its standard output.
pub fn ok(args: &[&str]) -> String {
    let (code, out, err) = judge(args);
    assert_eq!(code, 0, "judge {args:?}: {out}{err}");
    out
}

/// The state a step left.
pub fn state(dir: &Path, turn: u32) -> State {
    let text = std::fs::read_to_string(dir.join(format!("turns/{turn:03}/state.json")))
        .expect("state.json");
    State::from_json(&text).expect("a Catan state")
}

/// The events of a step, as JSON: kept, or made again as `judge report` makes them (a
/// showcase game keeps none, docs/archive.md).
pub fn events(dir: &Path, turn: u32) -> Vec<serde_json::Value> {
    serde_json::from_str(&events_text(dir, turn)).expect("events")
}

/// The events of a step, as the judge has them: kept, or made again.
pub fn events_text(dir: &Path, turn: u32) -> String {
    let archive = pbem_judge::archive::Archive::open(dir).expect("archive");
    let game = pbem_judge::games::by_id(&archive.game.game).expect("game");
    pbem_judge::pbem::report::events(&archive, game, turn).expect("events")
}

/// `colour`'s orders, waiting in `pending/`.
pub fn pending(dir: &Path, colour: &str, text: &str) {
    let p = dir.join("pending");
    std::fs::create_dir_all(&p).expect("pending/");
    std::fs::write(p.join(format!("{colour}.txt")), text).expect("write orders");
}

/// The files a new repository in `dir` would hold after `git add -A`, one a line (the
/// repository is made; nothing is staged).
pub fn git_kept(dir: &Path) -> String {
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["-c", "user.name=GM", "-c", "user.email=gm@example.org"])
            .args(args)
            .output()
            .expect("git");
        assert!(out.status.success(), "git {args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // What `git add -A` would stage in a new repository: every file git does not
    // ignore (listed without staging, so without writing each file into git).
    git(&["init", "-q"]);
    git(&["ls-files", "--cached", "--others", "--exclude-standard"])
}

/// The three kinds of Catan game the property tests walk: base (3–4 players), the 5–6
/// player extension, and Catan Express (3–6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Base,
    Extension,
    Express,
}

impl Variant {
    /// The game the judge plays it as.
    pub fn game(self) -> &'static dyn pbem_judge::pbem::game::Game {
        pbem_judge::games::by_id(match self {
            Variant::Express => "catan-express",
            _ => "catan",
        })
        .expect("registered")
    }

    /// A new game of this variant on a random board, named `name`, its draws from
    /// `luck`; with the generator that chose it, to walk on with.
    pub fn new_game(
        self,
        name: &str,
        seed: u64,
        luck: pbem_judge::luck::Luck,
    ) -> (State, pbem_judge::luck::Rng) {
        use pbem_judge::catan::board::layout::Layout;
        use pbem_judge::catan::express::Map;
        let mut r = pbem_judge::luck::Rng::new(seed);
        let players = match self {
            Variant::Base => 3 + r.below(2) as usize,
            Variant::Extension => 5 + r.below(2) as usize,
            Variant::Express => 3 + r.below(4) as usize,
        };
        let names: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
        let options = match self {
            Variant::Express => pbem_judge::catan::express::options(
                players,
                if r.below(3) == 0 {
                    Map::Beyond
                } else {
                    Map::Island
                },
                Layout::Random,
            ),
            _ => pbem_judge::catan::Options {
                layout: Layout::Random,
                extension: players > 4,
                ..pbem_judge::catan::Options::default()
            },
        };
        let s = State::with_luck(name, &names, seed, luck, &options).expect("a game");
        (s, r)
    }
}
