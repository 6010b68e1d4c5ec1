//! The board in ASCII.
