//! The `judge` command line: the commands here, each in a file of its own with its
//! arguments (`new.rs`: `NewArgs` and `run`); what they share: `failure.rs` (the exit
//! codes' kinds), `wait.rs` (the game's lock), `outbox.rs` (the clock, sending).
// The commands' doc comments are their `--help` text, as a GM reads it: `[mail]` there is
// game.toml's section and a URL is an example to type, not links for rustdoc.
#![allow(
    rustdoc::broken_intra_doc_links,
    rustdoc::private_intra_doc_links,
    rustdoc::bare_urls
)]

mod bot;
mod cases;
mod check;
mod completions;
mod deadline;
mod end;
mod failure;
mod ingest;
mod mail;
mod man;
mod new;
mod outbox;
mod pause;
mod ratings;
mod replace;
mod replay;
mod report;
mod resume;
mod reveal;
mod scenarios;
mod secret;
mod selfplay;
mod serve;
mod show;
mod site;
mod status;
mod turn;
mod verify;
mod wait;

use clap::{Parser, Subcommand};

pub use bot::BotArgs;
pub use cases::CasesArgs;
pub use check::{CheckArgs, Format};
pub use completions::CompletionsArgs;
pub use deadline::DeadlineArgs;
pub use end::EndArgs;
pub use failure::{EXIT_TABLE, Exit, ExitCode, Failure, exit_codes};
pub use ingest::IngestArgs;
pub use mail::MailArgs;
pub use new::NewArgs;
pub use pause::ClockArgs;
pub use ratings::RatingsArgs;
pub use replace::ReplaceArgs;
pub use replay::ReplayArgs;
pub use report::{ReportArgs, ReportFormat};
pub use reveal::RevealArgs;
pub use scenarios::ScenariosArgs;
pub use secret::SecretArgs;
pub use selfplay::SelfplayArgs;
pub use serve::ServeArgs;
pub use show::ShowArgs;
pub use site::SiteArgs;
pub use status::StatusArgs;
pub use turn::TurnArgs;
pub use verify::VerifyArgs;
pub use wait::{Wait, lock};

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
    after_help = exit_codes()
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
    #[command(verbatim_doc_comment, after_help = exit_codes())]
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
    #[command(verbatim_doc_comment, after_help = exit_codes())]
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
    #[command(verbatim_doc_comment, after_help = exit_codes())]
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
    #[command(verbatim_doc_comment, after_help = exit_codes())]
    Mail(MailArgs),
    /// The game at a glance: turn, deadline, each player's orders (when they arrived,
    /// how many errors, whether reminded), refused mails, the outbox. With --all, a
    /// folder of games in one table, a line a game.
    ///
    /// With --all, a game that cannot be read has its line and the rest are shown; the
    /// command then exits with the first such game's code (below).
    ///
    /// Examples:
    ///   judge status games/spring
    ///   judge status --all games
    ///   judge status --all games --format json
    #[command(verbatim_doc_comment, after_help = exit_codes())]
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
    #[command(verbatim_doc_comment, after_help = exit_codes())]
    Deadline(DeadlineArgs),
    /// Stop the game's clock: no deadline runs, no reminder is sent and no turn is
    /// played until `judge resume`; orders are filed as always. The players are told.
    /// (The GM may send `pause` by mail too: docs/mail-commands.md.)
    ///
    /// Example:
    ///   judge pause games/spring
    #[command(verbatim_doc_comment, after_help = exit_codes())]
    Pause(ClockArgs),
    /// Give a seat to a new player: the seat keeps its colour, pieces and history; the
    /// newcomer is mailed a new secret at once, with the game as it stands (nothing
    /// changes if that mail cannot be sent); the old secret stops working now; the next
    /// report says who took over.
    ///
    /// Example:
    ///   judge replace games/spring yellow --by 'Zoe:zoe@example.org'
    #[command(verbatim_doc_comment, after_help = exit_codes())]
    Replace(ReplaceArgs),
    /// Print the order file the game's bot would send for a seat now: a hint for a
    /// player, and what the caretaker plays for an absent one. It is written from what
    /// that seat may know, and checked by the judge's checker. (Catan and Catan Express
    /// have strong players; Roads & Boats the planner, which tries its styles a few turns
    /// ahead with the judge's own resolver: producers, roads, geese, a sawmill, bricks.
    /// As a caretaker it never pays gold, coins, stock or geese into bricks.)
    ///
    /// Example:
    ///   judge bot games/island red
    #[command(verbatim_doc_comment, after_help = exit_codes())]
    Bot(BotArgs),
    /// Start the game's clock again: the next deadline moves on by as long as the pause
    /// lasted, and the players are told the new one.
    ///
    /// Example:
    ///   judge resume games/spring
    #[command(verbatim_doc_comment, after_help = exit_codes())]
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
    /// Rate the players of a folder of games by its finished games, a table per game.
    ///
    /// Each finished game counts as its rules rank the players (one ended by the GM
    /// too: as `judge end` scored it); a game whose game.toml says `rated = false` is
    /// left out. Players are told apart by address and shown by name. The rating is
    /// Weng-Lin's (OpenSkill's) skill less three times its uncertainty: it grows with
    /// games won, and with games played. A game that cannot be read is named, and the
    /// command exits with its code (below).
    ///
    /// Example:
    ///   judge ratings games
    #[command(verbatim_doc_comment, after_help = exit_codes())]
    Ratings(RatingsArgs),
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
    #[command(verbatim_doc_comment, after_help = exit_codes())]
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
        Command::Ratings(args) => ratings::run(args, out),
        Command::Replay(args) => replay::run(args, out),
        Command::Report(args) => report::run(args, out),
        Command::Secret(args) => secret::run(args, out),
        Command::Ingest(args) => ingest::run(args, out),
        Command::Mail(args) => mail::run(args, out),
        Command::Status(args) => status::run(args, out),
        Command::Deadline(args) => deadline::run(args, out),
        Command::Pause(args) => pause::run(args, out),
        Command::Replace(args) => replace::run(args, out),
        Command::Bot(args) => bot::run(args, out),
        Command::Resume(args) => resume::run(args, out),
        Command::Completions(args) => completions::run(args, out),
        Command::Man => man::run(out),
        Command::Selfplay(args) => selfplay::run(args, out),
        Command::Site(args) => site::run(args, out),
        Command::Reveal(args) => reveal::run(args, out),
        Command::End(args) => end::run(args, out),
        Command::Verify(args) => verify::run(args, out),
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
