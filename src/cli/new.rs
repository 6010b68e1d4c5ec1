//! `judge new`: create a game archive at turn 0.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;

use super::{Failure, Wait};
use crate::archive::randomness::Secret;
use crate::archive::{Archive, GameFile, PlayerEntry};
use crate::pbem::game::{SeatRequest as Seat, Seeds};

pub fn run(args: NewArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let game = match &args.game {
        Some(id) => crate::games::by_id(id).map_err(|e| Failure::of_option("--game", e))?,
        None => crate::games::default(),
    };
    let given = args
        .players
        .iter()
        .map(|p| parse_seat(p))
        .collect::<Result<Vec<_>, _>>()?;
    let gm = args
        .gm
        .as_deref()
        .map(parse_seat)
        .transpose()?
        .map(|s| crate::archive::GmEntry {
            name: s.name,
            email: s.email,
            secret_hash: None,
        });
    let open = args.open.unwrap_or(0);
    if args.open == Some(0) {
        return Err(Failure::user(
            "--open 0: give how many seats are free for sign-up, like --open 3".into(),
        ));
    }
    // The seats of a game open for sign-up are made with stand-in names (the game is
    // made again with the players' own when the last seat is taken).
    let mut seats = given.clone();
    seats.extend((0..open).map(|i| Seat {
        name: format!("seat {}", given.len() + i + 1),
        email: String::new(),
    }));
    for (i, s) in given.iter().enumerate() {
        if let Some(first) = given[..i]
            .iter()
            .find(|o| o.email.eq_ignore_ascii_case(&s.email))
        {
            return Err(Failure::user(format!(
                "--player `{}` and --player `{}` have the same address `{}`: every player needs their own (it is how the judge knows whose mail it is)",
                first.name, s.name, s.email
            )));
        }
    }
    let scenario = match (&args.scenario, &args.map, game.default_scenario()) {
        (Some(s), _, _) => Some(s.clone()),
        (None, Some(_), _) => None,
        (None, None, Some(d)) => Some(d.to_string()),
        (None, None, None) => {
            return Err(Failure::user(format!(
                "{} needs a scenario: --scenario NAME (see judge scenarios) or a file, or --map random",
                game.title()
            )));
        }
    };
    // The public seed (the map or board) and the secret one (hidden draws): both from the
    // operating system, or both from the number the GM gives (predictable: the game's
    // randomness.toml and welcome mails say so).
    let (seed, secret) = match args.seed {
        Some(n) => (n, Secret::predictable(n)),
        None => {
            let secret = Secret::from_os().context("making the game's secret seed")?;
            let mut public = [0u8; 8];
            getrandom::fill(&mut public).map_err(|e| {
                Failure::user(format!("the operating system gave no random bytes: {e}"))
            })?;
            (u64::from_le_bytes(public), secret)
        }
    };
    let seeds = Seeds {
        public: seed,
        luck: secret.luck.clone(),
    };
    let name = crate::archive::folder_name(&args.dir);
    // Nothing is written until the whole game can be: the parent folder is locked so that
    // two `judge new` of one folder cannot both make it.
    let parent = match args.dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent)
        .map_err(|e| Failure::user(format!("{}: {e}", parent.display())))?;
    let _lock =
        crate::archive::lock::GameLock::acquire_dir(&parent, "judge new", args.wait.duration())?;
    let (file, text) = match &scenario {
        Some(name) => game.scenario_text(name).map_err(Failure::from)?,
        None => random_map(game, &args, seats.len(), seed)?,
    };
    let created = game
        .start(&file, &text, &name, &seats, &seeds)
        .map_err(Failure::from)?;
    let file = GameFile {
        game: game.id().to_string(),
        name: Some(name),
        scenario: created.scenario.clone(),
        seed,
        players: created
            .seats
            .iter()
            .zip(&seats)
            .enumerate()
            .map(|(i, (seat, s))| PlayerEntry {
                id: seat.id.clone(),
                // A free seat has neither name nor address until it is taken.
                name: if i < given.len() {
                    s.name.clone()
                } else {
                    String::new()
                },
                email: s.email.clone(),
                secret_hash: None,
            })
            .collect(),
        mail: None,
        schedule: None,
        press: match args.press.as_deref() {
            Some("off") => Some(crate::archive::Press::Off),
            Some("anonymous") => Some(crate::archive::Press::Anonymous),
            Some(_) => Some(crate::archive::Press::Open),
            None => None,
        },
        paused: None,
        rated: None,
        gm,
        absent: None,
        notify: None,
    };
    // A game open for sign-up begins when its last seat is taken: no turn 0 yet.
    let (files, first) = if open > 0 {
        (Vec::new(), None)
    } else {
        let b = crate::pbem::signup::beginning(game, &created.start, super::outbox::now()?)?;
        (b.files, b.round)
    };
    let mut files = files;
    files.extend(secret.files(args.seed.is_some())?);
    let refs: Vec<(&str, Vec<u8>)> = files.iter().map(|(n, b)| (n.as_str(), b.clone())).collect();
    Archive::create(
        &args.dir,
        file,
        &created.scenario_text,
        &refs,
        game.private_files(),
    )?;
    let order: Vec<String> = created
        .seats
        .iter()
        .map(|s| {
            if s.email.is_empty() {
                format!("{} (free)", s.id)
            } else {
                format!("{} ({})", s.id, s.name)
            }
        })
        .collect();
    writeln!(
        out,
        "Created {} from scenario `{}`.\nPlayers: {}.\n{}\nNext: {}",
        args.dir.display(),
        created.scenario,
        order.join(", "),
        match args.seed {
            Some(n) => format!(
                "Seed {n}: its hidden draws are PREDICTABLE by anyone who knows the number (for tests and showcase games; leave out --seed for a real game)."
            ),
            None => format!(
                "Its hidden draws come from a secret seed in randomness.key (never in git, never mailed); players get its commitment {}.",
                secret.commitment()
            ),
        },
        if open > 0 {
            format!(
                "judge secret {} --mail for the players named; post the announcement below (docs/mail-commands.md, join).",
                args.dir.display()
            )
        } else {
            format!(
                "judge show {}; to play by mail, judge secret (docs/gm-guide.md)",
                args.dir.display()
            )
        }
    )
    .context("writing output")?;
    if open > 0 {
        let archive = archive_after(&args.dir)?;
        let text = crate::pbem::signup::announcement(&archive, game);
        crate::archive::atomic::write_file(&args.dir.join("announce.txt"), text.as_bytes())?;
        writeln!(
            out,
            "Open for sign-up: {} free. The announcement to post (kept in announce.txt):\n\n{text}",
            crate::text::count(open, "seat")
        )
        .context("writing output")?;
        // The folder's webhook (judge.toml's [notify]) hears of it at once.
        let mut lines = Vec::new();
        if let Err(e) = judge_core::notify::events::signup_open(&archive, game, &mut lines) {
            lines.push(format!("the sign-up notice was not queued: {e}"));
        }
        for l in lines {
            writeln!(out, "{l}").context("writing output")?;
        }
        super::outbox::post_notices(&archive, out)?;
    }
    if let Some((first, guide)) = first {
        writeln!(
            out,
            "The game begins with a set-up round by mail before turn 1: {}; {first} is first (docs/gm-guide.md).",
            guide.what
        )
        .context("writing output")?;
    }
    Ok(())
}

fn archive_after(dir: &std::path::Path) -> Result<Archive, Failure> {
    Ok(Archive::open(dir)?)
}

/// `--map random`: the Roads & Boats map generator's scenario, as (file name, text).
/// The scenario the game's map generator makes (`--map random`).
fn random_map(
    game: &dyn crate::pbem::game::Game,
    args: &NewArgs,
    seats: usize,
    seed: u64,
) -> Result<(String, String), Failure> {
    let players = args.player_count.unwrap_or(seats);
    if players != seats {
        return Err(Failure::user(format!(
            "--players {players} but {seats} --player seat{} given: give one --player per seat",
            if seats == 1 { "" } else { "s" }
        )));
    }
    let text = game
        .generate(players, &args.modules, seed)
        .map_err(Failure::from)?;
    Ok((format!("random map (seed {seed})"), text))
}

/// `NAME:EMAIL` → a seat. Names and addresses go into mail headers later, so control
/// characters are refused here.
pub(super) fn parse_seat(text: &str) -> Result<Seat, Failure> {
    let bad = |why: &str| {
        Failure::user(format!("--player `{text}`: {why}"))
            .with_hint("write NAME:EMAIL, like --player 'Ann Smith:ann@example.org'")
    };
    let (name, email) = text
        .rsplit_once(':')
        .ok_or_else(|| bad("no `:` between name and address"))?;
    let (name, email) = (name.trim(), email.trim());
    if name.is_empty() {
        return Err(bad("the name is empty"));
    }
    if name.chars().any(char::is_control) || email.chars().any(char::is_control) {
        return Err(bad("control characters are not allowed"));
    }
    // The mail library's own reading, so that an address it would refuse later is
    // refused now, before anything is written.
    let readable = crate::archive::check_address(email).is_ok();
    let plausible = email
        .split_once('@')
        .is_some_and(|(_, domain)| domain.contains('.') && !domain.starts_with('.'));
    if !readable || !plausible {
        return Err(bad(&format!("`{email}` is not a mail address")));
    }
    Ok(Seat {
        name: name.to_string(),
        email: email.to_string(),
    })
}

#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// Folder to create the game in; it must not exist yet (or be empty).
    pub dir: PathBuf,
    /// A bundled scenario's name (`judge scenarios --game GAME` lists them; each game
    /// has a default) or the path of a scenario file.
    #[arg(long, short)]
    pub scenario: Option<String>,
    /// The game.
    #[arg(long, help = crate::games::game_help())]
    pub game: Option<String>,
    /// Make the map instead: `random` runs the game's map generator, from
    /// --seed, for --players players with --modules; the archive keeps the scenario.
    #[arg(long, value_parser = ["random"], conflicts_with = "scenario")]
    pub map: Option<String>,
    /// With --map random: how many players (default: one per --player).
    #[arg(long = "players", value_name = "N", requires = "map")]
    pub player_count: Option<usize>,
    /// With --map random: the optional modules in play, comma-separated
    /// (e.g. `electricity,polder,city`).
    #[arg(long, value_delimiter = ',', requires = "map")]
    pub modules: Vec<String>,
    /// A player, as NAME:EMAIL; give one per seat, in seat order.
    #[arg(
        long = "player",
        short,
        value_name = "NAME:EMAIL",
        required_unless_present = "open"
    )]
    pub players: Vec<String>,
    /// Open the game for sign-up with N free seats more (after the --player ones):
    /// players take them by mailing `join GAME as NAME`, and the game begins when the
    /// last is taken. Prints an announcement to post (kept in announce.txt).
    #[arg(long, value_name = "N")]
    pub open: Option<usize>,
    /// The GM, as NAME:EMAIL, for the GM's commands by mail (`extend`, `pause`,
    /// `resume`); `judge secret DIR --gm` gives them their secret.
    #[arg(long, value_name = "NAME:EMAIL")]
    pub gm: Option<String>,
    /// Press between players by mail: off, open (under the sender's name) or
    /// anonymous (a sender may leave their name out).
    #[arg(long, value_parser = ["off", "open", "anonymous"])]
    pub press: Option<String>,
    /// Make every random thing of the game from this number: the map or board, and the
    /// hidden draws (dice, cards, the move order), which are then PREDICTABLE by anyone
    /// who knows it; for tests and showcase games. Without it the map comes from a random
    /// public seed and the hidden draws from a secret one, drawn from the operating
    /// system and committed to (judge verify).
    #[arg(long)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub wait: Wait,
}
