//! Issue 40: Roads & Boats' shape (a module is one door; the phases, the report and the
//! scenario reader never name a module).

#[allow(unused_imports)]
use super::{circles, imports, module_paths};
