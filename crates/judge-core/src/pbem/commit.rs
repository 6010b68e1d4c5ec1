//! Committing the game to git (`--commit`), never with a secret in it. Git keeps what the
//! players may read, so before every commit the judge makes, each file about to be
//! committed is searched for every player's secret (the words shaped like a secret,
//! checked against the salted hashes in game.toml), and, while the game runs, for its
//! secret seed. This is done before anything is staged, so that not even an object of
//! the repository holds the secret: a file that holds one is named, taken out of git's
//! index if the GM had staged it, and nothing is committed (docs/archive.md, "What
//! can go wrong").

use std::collections::BTreeSet;
use std::path::PathBuf;

use super::error::Error;
use crate::archive::Archive;
use crate::archive::git;
use crate::archive::randomness::Status;

/// Commit the game folder with `message`, if anything changed that git keeps. Returns
/// whether it committed.
pub fn commit(archive: &Archive, message: &str) -> Result<bool, Error> {
    let dir = archive.root();
    let files = git::to_commit(dir).map_err(Error::from)?;
    let secrets = Secrets::of(archive);
    let mut found = Vec::new();
    for rel in &files {
        let Ok(bytes) = std::fs::read(dir.join(rel)) else {
            continue;
        };
        if let Some(whose) = secrets.in_file(&bytes) {
            found.push((rel.clone(), whose));
        }
    }
    if !found.is_empty() {
        let files: Vec<PathBuf> = found.iter().map(|(f, _)| f.clone()).collect();
        git::unstage(dir, &files).map_err(Error::from)?;
        let said: Vec<String> = found
            .iter()
            .map(|(f, whose)| format!("{} holds {whose}", f.display()))
            .collect();
        return Err(Error::input(format!(
            "not committed: {}. Whatever git keeps, the players may read: move the file out of the game's folder, or keep it out of git with a line in {} (a mail folder: set [mail] pickup or maildir in game.toml to a folder outside the game). Nothing was staged or committed",
            said.join("; "),
            dir.join(".gitignore").display()
        )));
    }
    git::stage(dir).map_err(Error::from)?;
    git::commit_staged(dir, message).map_err(Error::from)
}

/// The message of a commit after a pass over the game: the turn the pass played; else a
/// turn written since the last commit that git does not hold yet — one `judge end` (or
/// `judge turn`) wrote without `--commit` — named as that command would have named it
/// (the GM's end was committed as "mail"); else `mail`.
pub fn message(archive: &Archive, played: Option<u32>) -> String {
    let name = archive.name();
    if let Some(t) = played {
        return format!("{name}: turn {t}");
    }
    let dir = archive.root();
    let newest = git::to_commit(dir)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|rel| {
            let mut parts = rel.iter();
            let (Some(turns), Some(n), Some(file), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return None;
            };
            let n: u32 = n.to_str()?.parse().ok()?;
            (turns == "turns" && file == crate::archive::TURN_FILE).then_some((n, rel))
        })
        .filter(|(_, rel)| !git::tracked(dir, rel).unwrap_or(true))
        .map(|(n, _)| n)
        .max();
    match newest {
        Some(t) => match super::record::record(archive, t)
            .ok()
            .flatten()
            .and_then(|r| r.ended)
        {
            Some(_) => format!("{name}: turn {t}, the GM ended the game"),
            None => format!("{name}: turn {t}"),
        },
        None => format!("{name}: mail"),
    }
}

/// What must never be committed.
struct Secrets {
    /// Each player's seat and the salted hash of their secret.
    hashes: Vec<(String, String)>,
    /// The game's secret seed, in hex, while it is secret.
    seed: Option<String>,
}

impl Secrets {
    fn of(archive: &Archive) -> Secrets {
        let hashes = archive
            .game
            .players
            .iter()
            .filter_map(|p| p.secret_hash.clone().map(|h| (p.id.clone(), h)))
            .collect();
        // A seed the judge cannot read here is one it cannot look for (a turn could not
        // be played without it; a commit of mail alone still can be).
        let seed = match archive.randomness() {
            Ok(Status::Sealed(p)) if !p.predictable => archive
                .secret()
                .ok()
                .flatten()
                .map(|s| s.luck.to_hex().to_ascii_lowercase()),
            _ => None,
        };
        Secrets { hashes, seed }
    }

    /// Whose secret the file holds, if any: in its bytes as they are, or, for a mail,
    /// in its decoded parts (a body in base64 or quoted-printable).
    fn in_file(&self, bytes: &[u8]) -> Option<String> {
        let mut texts = vec![String::from_utf8_lossy(bytes).into_owned()];
        if looks_like_mail(bytes)
            && let Some(m) = mail_parser::MessageParser::default().parse(bytes)
        {
            for i in 0..m.text_body_count() {
                texts.extend(m.body_text(i).map(|t| t.into_owned()));
            }
            for i in 0..m.html_body_count() {
                texts.extend(m.body_html(i).map(|t| t.into_owned()));
            }
            for a in m.attachments() {
                texts.push(String::from_utf8_lossy(a.contents()).into_owned());
            }
        }
        if let Some(seed) = &self.seed
            && texts.iter().any(|t| t.to_ascii_lowercase().contains(seed))
        {
            return Some("the game's secret seed (randomness.key)".into());
        }
        if self.hashes.is_empty() {
            return None;
        }
        let words: BTreeSet<String> = texts.iter().flat_map(|t| shaped_words(t)).collect();
        for w in &words {
            for (seat, hash) in &self.hashes {
                if crate::mail::secret::verify(w, hash) {
                    return Some(format!("{seat}'s secret"));
                }
            }
        }
        None
    }
}

/// Does the file begin as a mail does (a header line)?
fn looks_like_mail(bytes: &[u8]) -> bool {
    let first = bytes.split(|b| *b == b'\n').next().unwrap_or_default();
    let name_len = first
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-')
        .count();
    name_len > 0 && first.get(name_len) == Some(&b':')
}

/// The words shaped like the secrets `judge secret` makes (three groups of four letters
/// and digits, joined by dashes), lower-cased as it makes them.
fn shaped_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        // `x-abcd-efgh-jkmn-y` holds one too.
        let parts: Vec<&str> = word.split('-').collect();
        for group in parts.windows(3) {
            if group.iter().all(|p| p.len() == 4) {
                out.push(group.join("-").to_ascii_lowercase());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_shaped_like_a_secret_are_found_wherever_they_stand() {
        assert_eq!(
            shaped_words("secret: ABCD-efgh-2345, then x-abcd-efgh-jkmn-y and ab-cd"),
            vec!["abcd-efgh-2345", "abcd-efgh-jkmn"]
        );
        assert!(shaped_words("{\"turn\": 1, \"phase\": \"second\"}").is_empty());
    }

    #[test]
    fn a_mail_is_told_by_its_first_line() {
        assert!(looks_like_mail(b"From: judge@example.org\r\nTo: x\r\n"));
        assert!(looks_like_mail(b"Content-Type: text/plain\n"));
        assert!(!looks_like_mail(b"{\n  \"turn\": 1\n}"));
        assert!(!looks_like_mail(b"game demo\nplayer red\n"));
        assert!(!looks_like_mail(b""));
    }
}
