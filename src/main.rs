use std::io::Write;

use clap::Parser;

use pbem_judge::cli::{self, Cli};

fn main() {
    let cli = Cli::parse();
    let mut stdout = std::io::stdout().lock();
    let result = cli::run(cli, &mut stdout);
    // What is still buffered goes now, so that a closed pipe shows up here as an error
    // rather than as a panic when standard output is dropped.
    let result = result.and_then(|()| {
        stdout
            .flush()
            .map_err(|e| cli::Failure::later(anyhow::Error::new(e).context("writing output")))
    });
    if let Err(e) = result {
        // A reader that stopped reading (`judge status | head -1`) ends the run quietly.
        if e.is_closed_pipe() {
            std::process::exit(0);
        }
        let text = e.to_string();
        if !text.is_empty() {
            // Not eprintln!, which panics when standard error is a closed pipe too.
            let mut stderr = std::io::stderr().lock();
            let _ = if text.starts_with("error") {
                writeln!(stderr, "{text}")
            } else {
                writeln!(stderr, "error: {text}")
            };
        }
        std::process::exit(e.exit_code());
    }
}
