//! A game's secret seed and the public commitment to it (docs/archive.md, "Dice anyone
//! can check").
//!
//! ```text
//! <game>/randomness.key    private: the seed and the salt (git never keeps it)
//! <game>/randomness.toml   public: the commitment; once the game ends (or the GM runs
//!                          `judge reveal`), the seed and salt too, and the last turn
//!                          played then
//! ```
//!
//! The commitment is SHA-256 of the seed's 32 bytes followed by the salt's
//! ([`crate::luck::commitment`]). A game made with `judge new --seed N` has a predictable
//! seed, and its `randomness.toml` says so.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::atomic;
use super::error::ArchiveError;
use super::folder::Archive;
use crate::luck::{Luck, commitment, hex, unhex};
use crate::pbem::game::Seeds;

/// The public file: in git, on the site, in the welcome mail.
pub const RANDOMNESS_FILE: &str = "randomness.toml";
/// The private file: the seed and salt, for the judge alone until the game ends.
pub const KEY_FILE: &str = "randomness.key";

/// `randomness.toml`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Public {
    /// SHA-256 of the seed and the salt, in hex.
    pub commitment: String,
    /// The game was made from a number (`judge new --seed N`): anyone who knows it knows
    /// every draw.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub predictable: bool,
    /// The seed, once revealed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// The salt, once revealed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
    /// The last turn played when the seed was published: the public record of a game
    /// whose seed is out runs at least that far (`judge verify` fails a record that
    /// stops short of it). Absent in a game whose seed was published by an older judge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published_after_turn: Option<u32>,
}

/// `randomness.key`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyFile {
    seed: String,
    salt: String,
}

/// A seed with its salt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Secret {
    pub luck: Luck,
    pub salt: [u8; 32],
}

impl Secret {
    /// 32 bytes of seed and 32 of salt from the operating system (which may fail, and
    /// work later).
    pub fn from_os() -> Result<Secret, std::io::Error> {
        let mut seed = [0u8; 32];
        let mut salt = [0u8; 32];
        getrandom::fill(&mut seed)
            .and_then(|()| getrandom::fill(&mut salt))
            .map_err(|e| {
                std::io::Error::other(format!("the operating system gave no random bytes: {e}"))
            })?;
        Ok(Secret {
            luck: Luck::from_bytes(seed),
            salt,
        })
    }

    /// The seed and salt a number gives (`judge new --seed N`): predictable.
    pub fn predictable(n: u64) -> Secret {
        Secret {
            luck: Luck::predictable(n),
            salt: *Luck::predictable(n ^ 0x5A17_5A17_5A17_5A17).bytes(),
        }
    }

    pub fn commitment(&self) -> String {
        commitment(&self.luck, &self.salt)
    }

    /// The files of a new game, (name, bytes): the public one, and the private one
    /// unless the seed is `predictable` (made from game.toml's number, which makes it
    /// again).
    pub fn files(&self, predictable: bool) -> Result<Vec<(String, Vec<u8>)>, ArchiveError> {
        let public = Public {
            commitment: self.commitment(),
            predictable,
            seed: None,
            salt: None,
            published_after_turn: None,
        };
        let mut out = vec![(
            RANDOMNESS_FILE.to_string(),
            public_text(&public)?.into_bytes(),
        )];
        if predictable {
            return Ok(out);
        }
        let key = KeyFile {
            seed: self.luck.to_hex(),
            salt: hex(&self.salt),
        };
        out.push((
            KEY_FILE.to_string(),
            format!(
                "# The secret seed of this game's hidden draws and the salt of its\n\
                 # commitment (randomness.toml). Anyone who reads it knows every roll to\n\
                 # come: git never keeps it, and it is never mailed. The judge publishes\n\
                 # it when the game ends (or when the GM runs `judge reveal`).\n\n{}",
                toml::to_string(&key).map_err(|e| unwritable(KEY_FILE, &e.to_string()))?
            )
            .into_bytes(),
        ));
        Ok(out)
    }
}

/// The seed is for the judge alone: a key file other users may
/// read (as a judge before 2026-11-28 made it, 0644) is made readable by its owner
/// alone when the judge next reads it.
fn keep_private(path: &Path) -> Result<(), ArchiveError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let io = |source| ArchiveError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mode = std::fs::metadata(path).map_err(io)?.permissions().mode();
        if mode & 0o077 != 0 {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode & 0o700))
                .map_err(io)?;
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// What the judge was to write could not be serialised: a fault of its own.
fn unwritable(file: &str, message: &str) -> ArchiveError {
    ArchiveError::Unwritable {
        path: file.into(),
        message: message.to_string(),
    }
}

fn public_text(p: &Public) -> Result<String, ArchiveError> {
    let body = toml::to_string(p).map_err(|e| unwritable(RANDOMNESS_FILE, &e.to_string()))?;
    let head = if p.seed.is_some() {
        "# This game's seed, revealed, and the commitment published when it began\n\
         # (docs/gm-guide.md, \"Dice anyone can check\"): `judge verify` checks that\n\
         # SHA-256(seed || salt) is the commitment, and every draw of the game.\n"
    } else {
        "# The commitment to this game's secret seed (docs/gm-guide.md, \"Dice anyone can\n\
         # check\"): SHA-256 of the seed's 32 bytes followed by a salt's. The seed and salt\n\
         # are published here when the game ends; `judge verify` then checks every draw.\n"
    };
    let note = if p.predictable {
        "# predictable: the game was made from a number (judge new --seed), so anyone who\n\
         # knows it can tell every roll. For tests and showcase games only.\n"
    } else {
        ""
    };
    Ok(format!("{head}{note}\n{body}"))
}

/// Where a game's randomness stands, as `judge verify`, `show` and the site tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Made before the judge kept seeds secret: the seed is game.toml's.
    Legacy,
    /// Committed; the seed is still secret.
    Sealed(Public),
    /// The seed and salt are published.
    Revealed(Public, Secret),
}

impl Archive {
    fn read_public(&self) -> Result<Option<Public>, ArchiveError> {
        let path = self.root().join(RANDOMNESS_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(ArchiveError::Io { path, source }),
        };
        toml::from_str(&text)
            .map(Some)
            .map_err(|e| ArchiveError::BadFile {
                path,
                message: e.message().to_string(),
            })
    }

    fn read_key(&self) -> Result<Option<Secret>, ArchiveError> {
        let path = self.root().join(KEY_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(ArchiveError::Io { path, source }),
        };
        keep_private(&path)?;
        let k: KeyFile = toml::from_str(&text).map_err(|e| ArchiveError::BadFile {
            path: path.clone(),
            message: e.message().to_string(),
        })?;
        secret(&path, &k.seed, &k.salt).map(Some)
    }

    /// Where the game's randomness stands, from the public file alone (what a clone of
    /// the game's public git can tell).
    pub fn randomness(&self) -> Result<Status, ArchiveError> {
        let Some(public) = self.read_public()? else {
            return Ok(Status::Legacy);
        };
        match (&public.seed, &public.salt) {
            (Some(seed), Some(salt)) => {
                let s = secret(&self.root().join(RANDOMNESS_FILE), seed, salt)?;
                Ok(Status::Revealed(public, s))
            }
            _ => Ok(Status::Sealed(public)),
        }
    }

    /// The seed and salt: the judge's own key file, or the revealed ones. `None` for a
    /// game made before seeds were kept secret.
    pub fn secret(&self) -> Result<Option<Secret>, ArchiveError> {
        let status = self.randomness()?;
        if let Some(key) = self.read_key()? {
            if let Status::Sealed(p) | Status::Revealed(p, _) = &status
                && key.commitment() != p.commitment
            {
                return Err(ArchiveError::Invalid {
                    path: self.root().join(KEY_FILE),
                    message: format!(
                        "this seed and salt do not match the commitment in {RANDOMNESS_FILE}: the key file was changed or belongs to another game"
                    ),
                });
            }
            return Ok(Some(key));
        }
        match status {
            Status::Legacy => Ok(None),
            Status::Revealed(_, s) => Ok(Some(s)),
            // A game made from a number needs no key file: the number makes it again (a
            // showcase game shared by git, like games/demo).
            Status::Sealed(p) if p.predictable => {
                let s = Secret::predictable(self.game.seed);
                if s.commitment() == p.commitment {
                    Ok(Some(s))
                } else {
                    Err(ArchiveError::Invalid {
                        path: self.root().join(RANDOMNESS_FILE),
                        message: format!(
                            "the commitment is not that of game.toml's seed {}: the game's seed was changed",
                            self.game.seed
                        ),
                    })
                }
            }
            Status::Sealed(_) => Err(ArchiveError::Invalid {
                path: self.root().join(KEY_FILE),
                message: format!(
                    "the game's secret seed is not here: the judge needs {KEY_FILE} (kept out of git) to play or replay a turn; a public copy of a game can be replayed once its seed is revealed"
                ),
            }),
        }
    }

    /// The seeds the game is played with: game.toml's public seed, and the secret one
    /// (for a game made before seeds were kept secret, both are game.toml's number).
    pub fn seeds(&self) -> Result<Seeds, ArchiveError> {
        Ok(Seeds {
            public: self.game.seed,
            luck: match self.secret()? {
                Some(s) => s.luck,
                None => Luck::predictable(self.game.seed),
            },
        })
    }

    /// Publish the seed and salt in `randomness.toml` (the game is over, or the GM says
    /// so). Returns them, and whether this call published them (false: they were
    /// already); `None` for a game made before seeds were kept secret.
    pub fn reveal(&self) -> Result<Option<(Secret, bool)>, ArchiveError> {
        let Some(mut public) = self.read_public()? else {
            return Ok(None);
        };
        let key = self.secret()?;
        let Some(key) = key else {
            return Ok(None);
        };
        if public.seed.is_some() {
            return Ok(Some((key, false)));
        }
        public.seed = Some(key.luck.to_hex());
        public.salt = Some(hex(&key.salt));
        public.published_after_turn = self.turns()?.last().copied();
        atomic::write_file(
            &self.root().join(RANDOMNESS_FILE),
            public_text(&public)?.as_bytes(),
        )?;
        Ok(Some((key, true)))
    }
}

fn secret(path: &Path, seed: &str, salt: &str) -> Result<Secret, ArchiveError> {
    let invalid = |m: String| ArchiveError::Invalid {
        path: path.to_path_buf(),
        message: m,
    };
    Ok(Secret {
        luck: Luck::from_hex(seed).map_err(|e| invalid(format!("seed: {e}")))?,
        salt: unhex(salt.trim()).map_err(|e| invalid(format!("salt: {e}")))?,
    })
}
