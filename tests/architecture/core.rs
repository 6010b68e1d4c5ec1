//! Issue 40: judge-core's own shape (the pipeline's read side under its actions).

#[allow(unused_imports)]
use super::{circles, imports, module_paths};
