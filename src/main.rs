use clap::Parser;

use pbem_judge::cli::{self, Cli};

fn main() {
    let cli = Cli::parse();
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = cli::run(cli, &mut stdout) {
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
