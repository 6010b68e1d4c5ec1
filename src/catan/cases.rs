//! Adjudication cases.
