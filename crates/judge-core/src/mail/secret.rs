//! Player secrets: generated for each player, shown once, stored only as a salted argon2
//! hash in game.toml, checked against the `secret` line of every order mail.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use rand_core::{OsRng, RngCore, TryRngCore};

/// A new secret a person can type: three groups of four letters and digits, with the
/// easily confused characters left out.
pub fn generate() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut bytes = [0u8; 12];
    OsRng.unwrap_err().fill_bytes(&mut bytes);
    let chars: Vec<char> = bytes
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect();
    chars
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("-")
}

/// The salted hash kept in game.toml.
pub fn hash(secret: &str) -> Result<String, argon2::password_hash::Error> {
    // As argon2's own `SaltString::generate` draws it: 16 random bytes, in base64.
    let mut salt = [0u8; 16];
    OsRng.unwrap_err().fill_bytes(&mut salt);
    let salt = SaltString::encode_b64(&salt)?;
    Argon2::default()
        .hash_password(secret.trim().as_bytes(), &salt)
        .map(|h| h.to_string())
}

/// Does `secret` match the stored hash? As written, or in the form `judge secret` makes
/// when it is one written another way: in capitals, with spaces or other dashes between
/// its groups, or none (`ABCD EFGH JKMN`, `abcdefghjkmn`). A malformed hash matches
/// nothing.
pub fn verify(secret: &str, stored: &str) -> bool {
    let Ok(h) = PasswordHash::new(stored) else {
        return false;
    };
    let check = |s: &str| Argon2::default().verify_password(s.as_bytes(), &h).is_ok();
    let written = secret.trim();
    check(written) || canonical(written).is_some_and(|c| c != written && check(&c))
}

/// A secret written another way, in the form `judge secret` makes: twelve letters and
/// digits, lower-cased, in three groups joined by dashes.
fn canonical(secret: &str) -> Option<String> {
    let letters: Vec<char> = secret
        .chars()
        .filter_map(crate::text::plain)
        .filter(|c| !(c.is_whitespace() || *c == '-'))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    (letters.len() == 12 && letters.iter().all(char::is_ascii_alphanumeric)).then(|| {
        letters
            .chunks(4)
            .map(|g| g.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("-")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_matches_its_hash_and_nothing_else() {
        let s = generate();
        assert_eq!(s.len(), 14);
        let h = hash(&s).expect("hash");
        assert!(!h.contains(&s), "the hash never holds the secret");
        assert!(verify(&s, &h));
        assert!(
            verify(&format!(" {s} "), &h),
            "surrounding spaces do not matter"
        );
        assert!(!verify("wrong", &h));
        assert!(!verify(&s, "not a hash"));
        assert_ne!(hash(&s).expect("hash"), h, "salted: two hashes differ");
    }

    /// A secret written with spaces, without its dashes or in
    /// capitals is still the secret (and so it is blanked in all those forms, see
    /// redact.rs); a different one is not.
    #[test]
    fn a_secret_is_read_however_its_groups_are_joined() {
        let h = hash("abcd-efgh-jk2n").expect("hash");
        for written in [
            "abcd-efgh-jk2n",
            "ABCD-EFGH-JK2N",
            "abcd efgh jk2n",
            "abcdefghjk2n",
            "abcd\u{2013}efgh\u{2013}jk2n",
        ] {
            assert!(verify(written, &h), "{written}");
        }
        assert!(!verify("abcd-efgh-jk2m", &h));
        assert!(!verify("abcd-efgh", &h));
    }
}
