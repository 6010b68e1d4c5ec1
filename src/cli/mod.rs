//! The `judge` command line: argument structs here, one file per command.

mod cases;
mod check;
mod deadline;
mod dice;
mod end;
mod mail;
mod new;
mod replay;
mod report;
mod scenarios;
mod selfplay;
mod serve;
mod show;
mod site;
mod tools;
mod turn;

use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand};

/// The exit codes, for `--help` and the GM guide.
pub const EXIT_CODES: &str = "Exit status (for scripts and cron):
  0  done, or nothing to do yet (say, a turn that is not due)
  1  your input needs fixing: the message says what and how (also when the
     mail server refused a mail for good: judge status lists it; and a mail
     server's login refused, its certificate not trusted, TLS set wrong)
  2  the command line itself was wrong (see --help)
  3  something failed that may work later (a disk, a mail server down, silent
     or dropped): try again;
     also when the work is done but mail that could not be sent waits in the
     outbox (the next judge turn or judge mail sends it)
  4  another judge command is changing the game: try again later
  5  a file the judge wrote into the game's archive does not read (damaged, or
     edited by hand): the message names it; restore it from git
  6  a fault in the judge itself: please report it, with the game's folder";

/// What `judge --help` says after its first line (`games::about`): the turn cycle.
pub const CYCLE: &str = "A game is a folder (the archive) that the GM keeps in git. The turn cycle:

  judge new DIR --scenario NAME --player NAME:EMAIL ...   make the game (turn 0)
  judge secret DIR --mail          give each player a secret, with a welcome mail
  judge check DIR orders.txt       what a player runs before mailing orders
  judge turn DIR --commit          from cron every few minutes: file new mail and
                                   answer it at once, remind, and once the deadline
                                   has passed play the turn and mail the reports
  judge status DIR                 who has sent orders, what waits, what was refused

See README.md and docs/gm-guide.md.";

#[derive(Debug, Parser)]
#[command(
    name = "judge",
    version,
    propagate_version = true,
    about = crate::games::about(),
    long_about = format!("{}\n\n{CYCLE}", crate::games::about()),
    after_help = EXIT_CODES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a new game archive from a scenario (turn 0).
    ///
    /// Players take seats in the order given, the first in the game's first colour
    /// (`judge show` names them once the game is made). The move
    /// order and every hidden draw come from a secret seed the judge draws from the
    /// operating system; the players are sent only a commitment to it, and the seed is
    /// published when the game ends (judge verify). Nothing is written unless the whole
    /// game can be.
    ///
    /// Examples:
    ///   judge new games/spring --scenario two-rivers \
    ///     --player 'Ann Smith:ann@example.org' --player Bob:bob@example.org
    ///   judge new games/island --game catan --player Ann:ann@example.org \
    ///     --player Bob:bob@example.org --player Cy:cy@example.org
    #[command(verbatim_doc_comment)]
    New(NewArgs),
    /// Print the state of a game: the latest turn, or the one asked for.
    ///
    /// Examples:
    ///   judge show games/demo
    ///   judge show games/demo --turn 0 --json
    #[command(verbatim_doc_comment)]
    Show(ShowArgs),
    /// List the bundled scenarios, one per line, name first; or check scenario files.
    ///
    /// With files, each is checked and every problem is reported with its line and
    /// column (docs/scenarios.md).
    ///
    /// Examples:
    ///   judge scenarios
    ///   judge scenarios my-map.toml
    #[command(verbatim_doc_comment)]
    Scenarios(ScenariosArgs),
    /// Run adjudication test cases: pass or fail per case (docs/cases.md).
    ///
    /// Each case is a prestate, everyone's orders and the facts expected after the
    /// turn. Exits 1 if any case fails or cannot be read.
    ///
    /// Examples:
    ///   judge cases tests/cases
    ///   judge cases tests/cases/production/leftover-trunks-processed-by-sawmill.toml
    #[command(verbatim_doc_comment)]
    Cases(CasesArgs),
    /// Check an order file against the game before sending it: every problem, with line
    /// and column, and what each order will do if nothing changes before your turn.
    ///
    /// Exit status: 0 no errors (warnings are fine), 1 errors, 2 usage.
    /// Read the orders from standard input with `-`.
    ///
    /// Examples:
    ///   judge check games/demo my-orders.txt
    ///   judge check games/demo - --format json < my-orders.txt
    #[command(verbatim_doc_comment)]
    Check(CheckArgs),
    /// The step cron runs every few minutes: file new mail and answer it at once,
    /// remind players without orders, and once the turn is due play it and mail the
    /// reports.
    ///
    /// A turn is due when its deadline has passed ([schedule] in game.toml), or, with
    /// `early = true`, as soon as every player's orders are in; without a schedule,
    /// whenever orders are waiting. Before that the run answers mail and exits 0,
    /// saying when the turn is due.
    ///
    /// Orders wait in DIR/pending/, one file per player named after their colour
    /// (pending/red.txt), put there by mail or by hand. Lines that do not read are
    /// reported and left out; the rest are carried out. A player with no file plays
    /// their standing orders, if they have some, or none. The turn is written whole
    /// into DIR/turns/; a run killed at any point is finished by the next one.
    ///
    /// The clock is the system's. With JUDGE_NOW set to a time (RFC 3339) the judge
    /// runs as if it were then: to try a deadline out with --dry-run, and in tests.
    /// Never set it in cron.
    ///
    /// With --all, DIR is a folder of games under one address: its judge.toml holds
    /// the [mail] they share, one mailbox for all of them. Each mail goes to the game
    /// its `game` line names, else to the sender's only game; mail for no game of the
    /// sender is answered with their games. Then every game takes its step. A game
    /// that cannot be read or is busy is reported and skipped; the others go on.
    ///
    /// Examples:
    ///   judge turn games/demo
    ///   judge turn games/spring --commit        # from cron
    ///   judge turn --all games --commit         # every game of games/, from cron
    ///   judge turn games/spring --dry-run       # what would happen now
    ///   JUDGE_NOW=2026-12-01T18:05:00Z judge turn games/spring --dry-run
    #[command(verbatim_doc_comment, after_help = EXIT_CODES)]
    Turn(TurnArgs),
    /// Run the judge for a folder of games under one address, answering mail within
    /// seconds of its delivery.
    ///
    /// DIR holds judge.toml (the [mail] the games share, with the one mailbox) and
    /// the game folders. The server does what `judge turn --all DIR` does, whenever
    /// mail comes (a Maildir is watched by the kernel; an IMAP INBOX with IDLE), when
    /// a game's reminder or deadline falls due, and at least every --poll seconds. It
    /// reconnects when the mail server comes back. SIGTERM (systemctl stop) lets the
    /// pass in hand finish, then it exits: no mail is lost or handled twice.
    ///
    /// deploy/systemd/judge-serve.service runs it as a service; cron with
    /// `judge turn --all` keeps working beside it or instead of it.
    ///
    /// Examples:
    ///   judge serve games
    ///   judge serve games --commit --poll 600
    #[command(verbatim_doc_comment, after_help = EXIT_CODES)]
    Serve(ServeArgs),
    /// Print a turn's report: text in the Quick Guide's style, the map as SVG or PNG, or
    /// the report model as JSON.
    ///
    /// A GM may restyle the text by copying templates/report.txt into DIR/templates/.
    ///
    /// Examples:
    ///   judge report games/demo
    ///   judge report games/demo --turn 1 --format png --output map.png
    #[command(verbatim_doc_comment)]
    Report(ReportArgs),
    /// Make new secrets for players (all who have none, or those named) and show them
    /// once; only salted hashes are kept in game.toml.
    ///
    /// Example:
    ///   judge secret games/spring
    ///   judge secret games/spring red --reset
    #[command(verbatim_doc_comment)]
    Secret(SecretArgs),
    /// File order mails: from a Maildir, an mbox, IMAP, or .eml files. Each is checked
    /// (sender, secret, game, turn, deadline by the time it arrived), kept with its
    /// secret blanked, logged and answered at once; accepted orders go to
    /// DIR/pending/. Needs [mail] in game.toml.
    ///
    /// Examples:
    ///   judge ingest games/spring --maildir ~/Maildir
    ///   judge ingest games/spring mail1.eml mail2.eml
    ///   judge ingest games/spring --again 7
    #[command(verbatim_doc_comment, after_help = EXIT_CODES)]
    Ingest(IngestArgs),
    /// Send the mails waiting in the outbox (reports, answers); those that fail stay.
    ///
    /// Exit status 3 if any mail it tried is still waiting afterwards (the server may be down:
    /// run it again later), 1 if the server refused one for good (it is given up, and
    /// `judge status` lists it), as for every command that sends. With --resend, a
    /// player gets a turn's report again; with --retry, the mails given up are tried
    /// again.
    ///
    /// Examples:
    ///   judge mail games/spring
    ///   judge mail games/spring --resend yellow --turn 3
    ///   judge mail games/spring --retry
    #[command(verbatim_doc_comment, after_help = EXIT_CODES)]
    Mail(MailArgs),
    /// The game at a glance: turn, deadline, each player's orders (when they arrived,
    /// how many errors, whether reminded), refused mails, the outbox.
    Status(StatusArgs),
    /// Move the next deadline: later by a duration, or to a time. Later deadlines
    /// follow on from it. The players are told by mail.
    ///
    /// A deadline that has already passed is refused (exit 1): the next `judge turn`
    /// would play the turn at once. Give --past to mean it.
    ///
    /// Examples:
    ///   judge deadline games/spring --extend 24h
    ///   judge deadline games/spring --at 2026-12-05T18:00:00Z
    ///   judge deadline games/spring --at 2026-12-01T00:00:00Z --past   # play it now
    #[command(verbatim_doc_comment, after_help = EXIT_CODES)]
    Deadline(DeadlineArgs),
    /// Stop the game's clock: no deadline runs, no reminder is sent and no turn is
    /// played until `judge resume`; orders are filed as always. The players are told.
    /// (The GM may send `pause` by mail too: docs/mail-commands.md.)
    ///
    /// Example:
    ///   judge pause games/spring
    #[command(verbatim_doc_comment, after_help = EXIT_CODES)]
    Pause(ClockArgs),
    /// Give a seat to a new player: the seat keeps its colour, pieces and history; the
    /// newcomer is mailed a new secret at once, with the game as it stands (nothing
    /// changes if that mail cannot be sent); the old secret stops working now; the next
    /// report says who took over.
    ///
    /// Example:
    ///   judge replace games/spring yellow --by 'Zoe:zoe@example.org'
    #[command(verbatim_doc_comment, after_help = EXIT_CODES)]
    Replace(ReplaceArgs),
    /// Print the order file the game's bot would send for a seat now: a hint for a
    /// player, and what the caretaker plays for an absent one. It is written from what
    /// that seat may know, and checked by the judge's checker. (Catan and Catan Express
    /// have strong players; Roads & Boats a first one, with a simple economy.)
    ///
    /// Example:
    ///   judge bot games/island red
    #[command(verbatim_doc_comment, after_help = EXIT_CODES)]
    Bot(BotArgs),
    /// Start the game's clock again: the next deadline moves on by as long as the pause
    /// lasted, and the players are told the new one.
    ///
    /// Example:
    ///   judge resume games/spring
    #[command(verbatim_doc_comment, after_help = EXIT_CODES)]
    Resume(ClockArgs),
    /// Print a shell completion script for judge.
    ///
    /// Example (bash):
    ///   judge completions bash > ~/.local/share/bash-completion/completions/judge
    #[command(verbatim_doc_comment)]
    Completions(CompletionsArgs),
    /// Print judge's manual page (roff).
    ///
    /// Example:
    ///   judge man > ~/.local/share/man/man1/judge.1
    #[command(verbatim_doc_comment)]
    Man,
    /// Re-resolve every turn from its archived orders and compare, byte for byte.
    ///
    /// Exits 1 if any turn's state or events differ from what the archive holds.
    ///
    /// Example:
    ///   judge replay games/demo
    #[command(verbatim_doc_comment)]
    Replay(ReplayArgs),
    /// Make the game's web site from its archive: a page per turn and an overview.
    ///
    /// Each turn's page shows the map (inline SVG, so it scales), the public report and
    /// each player's orders once the turn is played; the overview shows the players,
    /// their scores over the turns as a chart, the game's progress and who sent orders
    /// each turn. Pending orders, mail, secrets and players' addresses are never read; a
    /// game with hidden cards shows only its public report and map. Plain HTML and
    /// CSS with relative links: open OUT/index.html from disk, or copy OUT to any static
    /// host. The arrow keys go to the previous and next turn.
    ///
    /// While the game runs, each player has an order writer page (write-SEAT.html): in
    /// Roads & Boats click a transporter and the places it reaches light up, click one
    /// to move there, a site to build; in Catan click a lit corner or edge. The order
    /// file is written as you go, checked in the page by the judge's own checker (with
    /// --checker), and "Mail it" opens a mail to the judge ([mail] from) with it.
    ///
    /// The same archive always makes the same files; files already right are left
    /// alone, so it may be run after every turn (docs/gm-guide.md).
    ///
    /// Examples:
    ///   judge site games/spring -o public
    ///   judge site games/spring -o public && rsync -a public/ www.example.org:spring/
    ///   judge site games/spring -o public --checker "$(scripts/build-checker)"
    #[command(verbatim_doc_comment)]
    Site(SiteArgs),
    /// End a game now: its next turn holds only the end, scored by the game's own rules
    /// (its rules doc says how), with your reason in every report.
    ///
    /// For a game that has stalled, or whose players have agreed to stop. Orders waiting
    /// are not played; the reports are mailed, and the game's seed is published.
    ///
    /// Example:
    ///   judge end games/spring --why "the players agreed to stop at turn 20"
    #[command(verbatim_doc_comment, after_help = EXIT_CODES)]
    End(EndArgs),
    /// Publish the secret seed of a finished game's hidden draws (dice, cards, the move
    /// order), or show it again.
    ///
    /// A game publishes its seed by itself when it ends. A running game's seed is never
    /// published (whoever has it can tell every roll to come): to close a game early,
    /// end it with `judge end`, which tells every player and publishes the seed. Once
    /// published, anyone can check every draw with `judge verify`.
    ///
    /// Example:
    ///   judge reveal games/spring
    #[command(verbatim_doc_comment)]
    Reveal(RevealArgs),
    /// Check a game's dice: that its published seed fits the commitment the players were
    /// sent when it began, and that every draw came from that seed.
    ///
    /// On the GM's whole archive every turn is played again from the seed and compared
    /// byte for byte (dice, cards, steals, the move order); on a clone of a game's public
    /// git (a game with hidden cards keeps only its public reports there) every roll is
    /// checked.
    /// Exit status 0 when all agree, 1 when the commitment or a turn does not (the first
    /// turn that differs is named).
    ///
    /// Examples:
    ///   judge verify games/spring
    ///   git clone https://example.org/spring.git && judge verify spring
    #[command(verbatim_doc_comment)]
    Verify(VerifyArgs),
    /// Play random legal-move games, or games of the judge's bots (--bots), and report
    /// wins, turns, actions and speed.
    ///
    /// Examples:
    ///   judge selfplay catan --players 4 --games 10000 --seed 1
    ///   judge selfplay catan --bots greedy,random,random,random --games 1000
    ///   judge selfplay roads-boats --bots caretaker,idle --games 100
    #[command(verbatim_doc_comment)]
    Selfplay(SelfplayArgs),
}

#[derive(Debug, clap::Args)]
pub struct EndArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// Why the game ends: said in every player's last report.
    #[arg(long, value_name = "TEXT")]
    pub why: String,
    /// Queue the report mails but do not send them.
    #[arg(long)]
    pub no_send: bool,
    /// Commit the game folder to git afterwards.
    #[arg(long)]
    pub commit: bool,
    #[command(flatten)]
    pub wait: Wait,
}

#[derive(Debug, clap::Args)]
pub struct RevealArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// Once published the seed of a running game; now refused, as without it: a
    /// running game is closed with `judge end`, which publishes the seed (kept so that
    /// old scripts are told so).
    #[arg(long, hide = true)]
    pub now: bool,
    #[command(flatten)]
    pub wait: Wait,
}

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The game's folder, or a clone of its public git.
    pub dir: PathBuf,
}

#[derive(Debug, clap::Args)]
pub struct SiteArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// The folder to write the site to: new, empty, or holding this site already.
    #[arg(long, short, value_name = "OUT")]
    pub output: PathBuf,
    /// The order checker compiled to WebAssembly (the path `scripts/build-checker`
    /// prints), which the order writer's pages run to check orders in the player's
    /// browser. Without it they write orders and leave the checking to the judge.
    #[arg(long, value_name = "FILE")]
    pub checker: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct SelfplayArgs {
    /// What to play; `judge selfplay --help` lists the self-play each game offers.
    #[arg(help = crate::games::selfplay_help())]
    pub game: String,
    /// Players per game (3 to 6; 5 and 6 play the extension).
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// How many games.
    #[arg(long, default_value_t = 1000)]
    pub games: u32,
    /// Seed of the first game; game k uses seed + k.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Bots on the seats instead of random legal moves, one per seat, comma-separated
    /// (`search,greedy,greedy,greedy`: Catan's bots are `search`, the judge's player,
    /// `greedy`, a simpler one, and `random`). The seats rotate each game, so that each
    /// bot plays every seat; wins are counted per bot, with a 95 % interval.
    #[arg(long, value_delimiter = ',', conflicts_with = "players")]
    pub bots: Vec<String>,
    /// With --bots: the bundled scenario to play. Roads & Boats: `two-rivers` when left
    /// out (`judge scenarios` lists them). Catan: the set-up, the beginners' board
    /// (`beginner`) when left out, or `random` for a board drawn from each game's seed.
    #[arg(long, requires = "bots")]
    pub scenario: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// The order file, or `-` for standard input.
    pub orders: String,
    /// Whose orders these are, if the file has no `player` line.
    #[arg(long)]
    pub player: Option<String>,
    /// `text` for people, `json` for tools.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct TurnArgs {
    /// The game's folder (with --all: the folder of games).
    pub dir: PathBuf,
    /// Every game of the folder DIR, which shares one mailbox (DIR/judge.toml).
    #[arg(long, conflicts_with = "dry_run")]
    pub all: bool,
    /// Play the turn before its deadline, or with no orders waiting.
    #[arg(long)]
    pub force: bool,
    /// Queue the report mails but do not send them.
    #[arg(long)]
    pub no_send: bool,
    /// Commit the game folder to git after the turn.
    #[arg(long)]
    pub commit: bool,
    /// Do everything in a scratch copy and print the report; change and send nothing
    /// (the mailbox is opened read-only).
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub wait: Wait,
}

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The folder of games (it holds judge.toml).
    pub dir: PathBuf,
    /// Commit each game that changed to git, as `judge turn --commit` does.
    #[arg(long)]
    pub commit: bool,
    /// Run a pass at least this often (seconds), mail or not.
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    pub poll: u64,
    #[command(flatten)]
    pub wait: Wait,
}

/// How long to wait for another judge command that is changing the same game.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct Wait {
    /// Seconds to wait for another judge command changing this game before giving up
    /// (exit 4).
    #[arg(long = "wait", value_name = "SECONDS", default_value_t = 60)]
    pub seconds: u64,
}

impl Wait {
    pub fn duration(self) -> Duration {
        Duration::from_secs(self.seconds)
    }
}

#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// Which turn (default: the latest).
    #[arg(long, short)]
    pub turn: Option<u32>,
    /// `text`, `svg`, `png` or `json` (the report model).
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Write to this file instead of standard output (needed for png on a terminal).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// The copy one player received: with what became of their orders.
    #[arg(long, value_name = "PLAYER")]
    pub player: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    Text,
    Svg,
    Png,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct SecretArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// Players (colours) to give new secrets; default: every player without one.
    pub players: Vec<String>,
    /// Replace secrets that are already set.
    #[arg(long)]
    pub reset: bool,
    /// Give the GM (`[gm]` in game.toml, `judge new --gm`) a new secret, for the GM's
    /// commands by mail; shown once.
    #[arg(long, conflicts_with_all = ["players", "mail"])]
    pub gm: bool,
    /// Mail each player a welcome: their secret, an order template and the turn-0
    /// report. The secret goes only into that mail (sent at once, never queued); the
    /// judge's copy of it has the secret blanked.
    #[arg(long)]
    pub mail: bool,
    #[command(flatten)]
    pub wait: Wait,
}

#[derive(Debug, clap::Args)]
pub struct IngestArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// A Maildir to read (its new/ and cur/ messages; it is not changed).
    #[arg(long)]
    pub maildir: Option<PathBuf>,
    /// An mbox file to read.
    #[arg(long)]
    pub mbox: Option<PathBuf>,
    /// An IMAP server to read unseen mail from, as HOST or HOST:PORT (an IPv6 address
    /// as `::1` or `[::1]:993`; without a port, [mail] imap_port, else 993 for tls and
    /// 143 otherwise). The password is read from $JUDGE_IMAP_PASSWORD, or the variable
    /// [mail] imap_password_env names. With no source at all, the mailboxes [mail] names
    /// are read.
    #[arg(long, value_name = "HOST[:PORT]")]
    pub imap: Option<String>,
    /// The IMAP user.
    #[arg(long, requires = "imap")]
    pub user: Option<String>,
    /// `none`, `starttls` or `tls` (default: starttls; tls on port 993).
    #[arg(long, requires = "imap")]
    pub imap_security: Option<String>,
    /// Single mails (.eml files).
    pub files: Vec<PathBuf>,
    /// Queue the answers but do not send them.
    #[arg(long)]
    pub no_send: bool,
    /// File again a refused or held mail (its number in `judge status` and
    /// mail/log.jsonl), once you have fixed what was wrong.
    #[arg(long, value_name = "N", conflicts_with_all = ["maildir", "mbox", "imap", "files"])]
    pub again: Option<usize>,
    #[command(flatten)]
    pub wait: Wait,
}

#[derive(Debug, clap::Args)]
pub struct MailArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// Send a turn's report to this player again (their colour).
    #[arg(long, value_name = "PLAYER")]
    pub resend: Option<String>,
    /// With --resend: which turn's report (default: the latest).
    #[arg(long, short, requires = "resend")]
    pub turn: Option<u32>,
    /// Try again the mails the server refused for good (`judge status` lists them), once
    /// the cause is fixed at the server. Each goes as it was made, to the same address:
    /// for an address put right in game.toml, --resend makes a report anew.
    #[arg(long)]
    pub retry: bool,
    #[command(flatten)]
    pub wait: Wait,
}

#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("when").required(true).args(["extend", "at"])))]
pub struct DeadlineArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// Move the next deadline later (or earlier, with a minus: `-2h`) by this much:
    /// `24h`, `2days`.
    #[arg(long, value_name = "DURATION", allow_hyphen_values = true)]
    pub extend: Option<String>,
    /// Set the next deadline to this time, RFC 3339: `2026-12-05T18:00:00Z`.
    #[arg(long, value_name = "TIME")]
    pub at: Option<String>,
    /// Change it without mailing the players.
    #[arg(long)]
    pub quiet: bool,
    /// Allow a deadline that has already passed: the next `judge turn` plays the turn
    /// with the orders that are in (the players are told so).
    #[arg(long)]
    pub past: bool,
    #[command(flatten)]
    pub wait: Wait,
}

#[derive(Debug, clap::Args)]
pub struct ReplaceArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// The seat (its colour) to give to the new player.
    pub seat: String,
    /// The new player, as NAME:EMAIL.
    #[arg(long, value_name = "NAME:EMAIL")]
    pub by: String,
    #[command(flatten)]
    pub wait: Wait,
}

#[derive(Debug, clap::Args)]
pub struct BotArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// The seat (its colour).
    pub seat: String,
}

#[derive(Debug, clap::Args)]
pub struct ClockArgs {
    /// The game's folder.
    pub dir: PathBuf,
    #[command(flatten)]
    pub wait: Wait,
}

#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    pub shell: clap_complete::Shell,
}

#[derive(Debug, clap::Args)]
pub struct StatusArgs {
    /// The game's folder.
    pub dir: PathBuf,
}

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The game's folder.
    pub dir: PathBuf,
}

#[derive(Debug, clap::Args)]
pub struct CasesArgs {
    /// Case files, or folders searched for `*.toml` case files.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Print only failures and the summary.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print a Markdown table of each case and the rule it checks, sorted by rule (the
    /// coverage table in docs/rules.md), instead of running them.
    #[arg(long)]
    pub table: bool,
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

#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The game's folder.
    pub dir: PathBuf,
    /// Which turn to show (default: the latest).
    #[arg(long, short)]
    pub turn: Option<u32>,
    /// Print the state as JSON for tools (the schema is in docs/archive.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct ScenariosArgs {
    /// Scenario files to check instead of listing the bundled ones.
    pub files: Vec<PathBuf>,
    /// The game whose scenarios to list or check.
    #[arg(long, help = crate::games::game_help())]
    pub game: Option<String>,
}

/// What went wrong, by kind: the kind decides the exit code.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// The user's input was wrong; the message says how.
    #[error("{0}")]
    User(String),
    /// A game's or the pipeline's problem, of a kind (the input, a damaged archive, a
    /// fault in the judge).
    #[error("{}{}", .0.kind.label(), .0)]
    Game(crate::error::GameError),
    /// The command has printed its own report; exit with this code.
    #[error("")]
    Reported(i32),
    /// Another judge command holds the game.
    #[error("{0}")]
    Busy(String),
    /// Anything else.
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

impl Failure {
    pub fn exit_code(&self) -> i32 {
        match self {
            Failure::User(_) => 1,
            Failure::Game(e) => match e.kind {
                crate::error::Kind::Input => 1,
                crate::error::Kind::Corrupt => 5,
                crate::error::Kind::Internal => 6,
            },
            Failure::Reported(code) => *code,
            Failure::Other(_) => 3,
            Failure::Busy(_) => 4,
        }
    }

    /// Output cut off by a reader that stopped reading (`judge status | head -1`): not
    /// a failure of the judge.
    pub fn is_closed_pipe(&self) -> bool {
        match self {
            Failure::Other(e) => e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }),
            _ => false,
        }
    }
}

impl From<crate::archive::lock::LockError> for Failure {
    fn from(e: crate::archive::lock::LockError) -> Self {
        use crate::archive::lock::LockError as E;
        match e {
            E::Busy { .. } => Failure::Busy(e.to_string()),
            E::Link { .. } => Failure::User(e.to_string()),
            E::Io { .. } => Failure::Other(e.into()),
        }
    }
}

/// Hold the game's lock for a command that changes it. A folder that is not a game's is
/// refused first (exit 1), and no lock file is left in it.
pub fn lock(
    dir: &std::path::Path,
    what: &str,
    wait: Wait,
) -> Result<crate::archive::lock::GameLock, Failure> {
    crate::archive::check_folder(dir)?;
    Ok(crate::archive::lock::GameLock::acquire(
        dir,
        what,
        wait.duration(),
    )?)
}

impl From<crate::archive::ArchiveError> for Failure {
    fn from(e: crate::archive::ArchiveError) -> Self {
        use crate::archive::ArchiveError as E;
        match e {
            E::Io { .. } => Failure::Other(e.into()),
            _ => Failure::User(e.to_string()),
        }
    }
}

impl From<crate::error::GameError> for Failure {
    fn from(e: crate::error::GameError) -> Self {
        Failure::Game(e)
    }
}

impl From<crate::pbem::Error> for Failure {
    fn from(e: crate::pbem::Error) -> Self {
        use crate::pbem::Error as E;
        match e {
            E::Game(g) => Failure::Game(g),
            // git that cannot be run may run later; git that refuses is the GM's to fix.
            E::Git(e @ crate::archive::git::GitError::Run(_)) => Failure::Other(e.into()),
            E::Git(e) => Failure::User(e.to_string()),
            E::Archive(a) => a.into(),
            // The mailbox down, silent or dropped: it may work later (issue 39, point 13).
            E::MailboxDown(m) => Failure::Other(anyhow::anyhow!(m)),
            E::Mail(crate::mail::outbox::MailError::Archive(a)) => a.into(),
            E::Mail(crate::mail::outbox::MailError::Send(m)) => Failure::Other(anyhow::anyhow!(m)),
            E::Mail(m) => Failure::User(m.to_string()),
        }
    }
}

/// Run one command, writing its output to `out`.
pub fn run(cli: Cli, out: &mut dyn std::io::Write) -> Result<(), Failure> {
    match cli.command {
        Command::New(args) => new::run(args, out),
        Command::Show(args) => show::run(args, out),
        Command::Scenarios(args) => scenarios::run(args, out),
        Command::Cases(args) => cases::run(args, out),
        Command::Check(args) => check::run(args, out),
        Command::Turn(args) => turn::run(args, out),
        Command::Serve(args) => serve::run(args, out),
        Command::Replay(args) => replay::run(args, out),
        Command::Report(args) => report::run(args, out),
        Command::Secret(args) => mail::secret_cmd(args, out),
        Command::Ingest(args) => mail::ingest(args, out),
        Command::Mail(args) => mail::mail(args, out),
        Command::Status(args) => mail::status(args, out),
        Command::Deadline(args) => deadline::run(args, out),
        Command::Pause(args) => deadline::pause(args, out),
        Command::Replace(args) => new::replace(args, out),
        Command::Bot(args) => show::bot(args, out),
        Command::Resume(args) => deadline::resume(args, out),
        Command::Completions(args) => tools::completions(args, out),
        Command::Man => tools::man(out),
        Command::Selfplay(args) => selfplay::run(args, out),
        Command::Site(args) => site::run(args, out),
        Command::Reveal(args) => dice::reveal(args, out),
        Command::End(args) => end::run(args, out),
        Command::Verify(args) => dice::verify(args, out),
    }
}

/// A progress bar for long work, drawn only on a terminal (cron, pipes and tests see
/// nothing).
pub fn progress(len: u64, what: &'static str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{msg} {bar:40} {pos}/{len}") {
        bar.set_style(style);
    }
    bar.set_message(what);
    bar
}
