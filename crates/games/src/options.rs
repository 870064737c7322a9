//! The options that commands over engines share, each one struct with one
//! name, one default and one help text, flattened into each command that
//! takes it (`lab match`, and the lab's counts, timings and verdicts).

use clap::{Args, Command, FromArgMatches};
use serde::{Deserialize, Serialize};

/// `--hash`: each engine's hash table.
// Written into a run's `run.json` as the one number it was (`"hash": 16`).
#[derive(Args, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HashOption {
    /// Each engine's hash table size in MB.
    #[arg(id = "hash", long = "hash", value_name = "MB", default_value_t = 16)]
    pub mb: u32,
}

impl Default for HashOption {
    fn default() -> HashOption {
        clap_default()
    }
}

/// An option's value where no command line gives it: its one default.
pub fn clap_default<T: Args + FromArgMatches>() -> T {
    let matches = T::augment_args(Command::new("default")).get_matches_from(["default"]);
    T::from_arg_matches(&matches).expect("each shared option has a default")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_16_mb_unless_given() {
        assert_eq!(HashOption::default().mb, 16);
        let matches = HashOption::augment_args(Command::new("x")).get_matches_from(["x", "--hash", "64"]);
        assert_eq!(HashOption::from_arg_matches(&matches).unwrap().mb, 64);
    }
}
