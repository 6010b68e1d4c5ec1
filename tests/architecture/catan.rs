//! Issue 40: Catan's shape (the base reaches Express only through the scenario's hooks).

#[allow(unused_imports)]
use super::{circles, imports, module_paths};
