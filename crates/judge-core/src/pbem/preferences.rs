//! What each player asked of the judge's mail, by a line in any order mail
//! ([`super::directives`]): every report or only their own turns with a digest of the
//! others, and whether the map picture comes with it. Kept in `mail/preferences.toml`,
//! out of git with the rest of the mail.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::directives::{Directives, Reports};
use crate::archive::{Archive, ArchiveError, atomic};

pub const FILE: &str = "mail/preferences.toml";

/// One player's choices; `None`: the default.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    /// `every-step` or `my-turns`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reports: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture: Option<bool>,
    /// The player's own webhook (`notify URL` by mail): their notices are posted there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook: Option<String>,
    /// Its format, read from its address when it was set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook_format: Option<crate::archive::schema::NotifyFormat>,
}

/// Every player's choices, by seat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Preferences {
    pub seats: BTreeMap<String, Choice>,
}

impl Preferences {
    pub fn load(archive: &Archive) -> Result<Preferences, ArchiveError> {
        let path = archive.root().join(FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => toml::from_str(&text).map_err(|e| ArchiveError::BadFile {
                path,
                message: e.message().to_string(),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Preferences::default()),
            Err(source) => Err(ArchiveError::Io { path, source }),
        }
    }

    /// Which reports `seat` wants: by default only their own turns, with a digest.
    pub fn reports(&self, seat: &str) -> Reports {
        match self.seats.get(seat).and_then(|c| c.reports.as_deref()) {
            Some("every-step") => Reports::Every,
            _ => Reports::MyTurns,
        }
    }

    /// Whether `seat` wants the map picture with their reports (by default, yes).
    pub fn picture(&self, seat: &str) -> bool {
        self.seats.get(seat).and_then(|c| c.picture).unwrap_or(true)
    }

    /// `seat`'s own webhook and its format, if they set one.
    pub fn webhook(&self, seat: &str) -> Option<(String, crate::archive::schema::NotifyFormat)> {
        let c = self.seats.get(seat)?;
        Some((c.webhook.clone()?, c.webhook_format.unwrap_or_default()))
    }

    /// The seats with a webhook of their own, in seat order.
    pub fn with_webhooks(&self) -> Vec<String> {
        self.seats
            .iter()
            .filter(|(_, c)| c.webhook.is_some())
            .map(|(s, _)| s.clone())
            .collect()
    }

    /// Set (or with `None`, take away) `seat`'s own webhook; saved at once.
    pub fn set_webhook(
        &mut self,
        archive: &Archive,
        seat: &str,
        hook: Option<(String, crate::archive::schema::NotifyFormat)>,
    ) -> Result<(), ArchiveError> {
        let c = self.seats.entry(seat.to_string()).or_default();
        match hook {
            Some((url, format)) => {
                c.webhook = Some(url);
                c.webhook_format = Some(format);
            }
            None => {
                c.webhook = None;
                c.webhook_format = None;
            }
        }
        self.save(archive)
    }

    fn save(&self, archive: &Archive) -> Result<(), ArchiveError> {
        let text = toml::to_string(self).map_err(|e| ArchiveError::Unwritable {
            path: archive.root().join(FILE),
            message: e.to_string(),
        })?;
        atomic::write_file(
            &archive.root().join(FILE),
            format!("# What each player asked of the judge's mail (docs/gm-guide.md).\n{text}")
                .as_bytes(),
        )
    }

    /// Take a file's directives for `seat`; the sentence that tells them what changed,
    /// if anything did. Saved at once.
    pub fn take(
        &mut self,
        archive: &Archive,
        seat: &str,
        d: &Directives,
    ) -> Result<Option<String>, ArchiveError> {
        if d.reports.is_none() && d.picture.is_none() {
            return Ok(None);
        }
        let c = self.seats.entry(seat.to_string()).or_default();
        let before = c.clone();
        if let Some(r) = d.reports {
            c.reports = Some(
                match r {
                    Reports::Every => "every-step",
                    Reports::MyTurns => "my-turns",
                }
                .to_string(),
            );
        }
        if let Some(p) = d.picture {
            c.picture = Some(p);
        }
        if *c == before {
            return Ok(None);
        }
        self.save(archive)?;
        Ok(Some(format!(
            "From now on the judge mails you {}, {} the map picture.",
            match self.reports(seat) {
                Reports::Every => "every report",
                Reports::MyTurns =>
                    "a report when your orders are wanted, with what happened since your last one",
            },
            if self.picture(seat) {
                "with"
            } else {
                "without"
            }
        )))
    }
}
