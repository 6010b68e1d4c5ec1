//! The check every name table of the crate's enums passes (goods, buildings, research,
//! transporter kinds, modules): the enum's `ALL` (derived by strum) lists each variant
//! once, in the table's order, and each variant's name is the one orders, reports, events
//! and saved games have always spelled it, whether printed, written by serde or read back.
//! Each table's own test adds what only its enum reads (plurals, short forms, letters).

use std::fmt::{Debug, Display};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// `all` is `table`'s variants in order, and each variant's `name`, `Display` and serde
/// name is its table entry, which serde reads back as the variant.
pub(crate) fn check<T>(all: &[T], table: &[(T, &str)], name: fn(T) -> &'static str)
where
    T: Copy + PartialEq + Debug + Display + Serialize + DeserializeOwned,
{
    let listed: Vec<T> = table.iter().map(|&(t, _)| t).collect();
    assert_eq!(
        all,
        listed.as_slice(),
        "every variant, in the table's order"
    );
    for &(t, word) in table {
        assert_eq!(name(t), word);
        assert_eq!(t.to_string(), word);
        assert_eq!(serde_json::to_value(t).unwrap(), serde_json::json!(word));
        assert_eq!(serde_json::from_value::<T>(word.into()).unwrap(), t);
    }
}
