//! Stand-ins for engine binaries in the games crate's and the lab's unit tests: small shell
//! scripts that crash, hang, print garbage or answer as told.

use std::path::{Path, PathBuf};
use std::process::Command;

/// An executable shell script `dir/name` running `body`.
///
/// A child `sh` writes it, not this process: a file this process holds open
/// for writing is inherited by whatever another test thread forks at that
/// moment, and running the script then fails with "text file busy" until
/// that child has exec'd.
pub fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    let status = Command::new("sh")
        .args(["-c", "printf '%s\\n' \"$1\" > \"$2\" && chmod 755 \"$2\"", "sh"])
        .arg(format!("#!/bin/sh\n{body}"))
        .arg(&path)
        .status()
        .unwrap();
    assert!(status.success(), "cannot write {}", path.display());
    path
}
