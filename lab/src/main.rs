//! `lab`: the command line's entry; the lab is the library (`src/lib.rs`).

use std::process::ExitCode;

fn main() -> ExitCode {
    lab::cli::main()
}
