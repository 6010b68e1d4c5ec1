//! `judge cases`: run adjudication test cases.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

use super::Failure;

/// The case files the paths name, sorted, so runs are repeatable: a file named is run
/// whatever it is called; a folder gives every `*.toml` under it (a README beside the
/// cases is not one).
pub fn case_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            collect(p, &mut files).map_err(|e| Failure::user(format!("{}: {e}", p.display())))?;
        } else if p.is_file() {
            files.push(p.clone());
        } else {
            return Err(Failure::user(format!(
                "{}: no such file or folder",
                p.display()
            )));
        }
    }
    files.sort();
    Ok(files)
}

/// Every `*.toml` file under the folder `dir`.
fn collect(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for e in std::fs::read_dir(dir)? {
        let p = e?.path();
        if p.is_dir() {
            collect(&p, files)?;
        } else if p.extension().is_some_and(|x| x == "toml") && p.is_file() {
            files.push(p);
        }
    }
    Ok(())
}

fn game_of(path: &Path) -> Result<&'static dyn crate::pbem::game::Game, Failure> {
    crate::games::of_case(path).map_err(Failure::from)
}

pub fn run(args: CasesArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let files = case_files(&args.paths)?;
    if args.table {
        let mut rows = Vec::new();
        for f in &files {
            let rule = game_of(f)?.case_rule(f).map_err(Failure::from)?;
            rows.push((rule, f.display().to_string()));
        }
        rows.sort();
        writeln!(out, "| rule | case |\n|---|---|").context("writing output")?;
        for (rule, file) in rows {
            writeln!(out, "| {} | `{file}` |", rule.replace('|', "/")).context("writing output")?;
        }
        return Ok(());
    }
    let (mut passed, mut failed) = (0, 0);
    for f in &files {
        match game_of(f).and_then(|g| g.run_case(f).map_err(Failure::from)) {
            Ok(r) if r.problems.is_empty() => {
                passed += 1;
                if !args.quiet {
                    writeln!(out, "pass  {}  [{}]", f.display(), r.rule)
                        .context("writing output")?;
                }
            }
            Ok(r) => {
                failed += 1;
                writeln!(out, "FAIL  {}  [{}]", f.display(), r.rule).context("writing output")?;
                for p in &r.problems {
                    writeln!(out, "      {p}").context("writing output")?;
                }
            }
            Err(d) => {
                failed += 1;
                writeln!(out, "FAIL  {}  (the case does not read)\n{d}", f.display(),)
                    .context("writing output")?;
            }
        }
    }
    writeln!(out, "{passed} passed, {failed} failed").context("writing output")?;
    if failed > 0 {
        Err(Failure::user(format!(
            "{failed} case{} failed",
            if failed == 1 { "" } else { "s" }
        )))
    } else {
        Ok(())
    }
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
