//! `lab tune`.

pub mod spsa;
