//! Player secrets: generated for each player, shown once, stored only as a salted argon2
//! hash in game.toml, checked against the `secret` line of every order mail.

use argon2::Argon2;
use argon2::password_hash::rand_core::{OsRng, RngCore};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

/// A new secret a person can type: three groups of four letters and digits, with the
/// easily confused characters left out.
pub fn generate() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut bytes = [0u8; 12];
    OsRng.fill_bytes(&mut bytes);
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
pub fn hash(secret: &str) -> Result<String, String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(secret.trim().as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

/// Does `secret` match the stored hash? A malformed hash matches nothing.
pub fn verify(secret: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|h| {
        Argon2::default()
            .verify_password(secret.trim().as_bytes(), &h)
            .is_ok()
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
}
