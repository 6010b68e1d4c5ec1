use clap::Parser;

use pbem_judge::cli::{self, Cli};

fn main() {
    let cli = Cli::parse();
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = cli::run(cli, &mut stdout) {
        // A reader that stopped reading (`judge status | head -1`) ends the run quietly.
        if e.is_closed_pipe() {
            std::process::exit(0);
        }
        let text = e.to_string();
        if text.is_empty() {
            std::process::exit(e.exit_code());
        }
        if text.starts_with("error") {
            eprintln!("{text}");
        } else {
            eprintln!("error: {text}");
        }
        std::process::exit(e.exit_code());
    }
}
