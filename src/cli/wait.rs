//! How long a command waits for another that is changing the same game, and the
//! game's lock it then holds.

use super::Failure;

use std::time::Duration;

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
