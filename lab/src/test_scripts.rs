//! Stand-ins for engine binaries in the lab's unit tests: small shell
//! scripts that crash, hang, print garbage or answer as told.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// An executable shell script `dir/name` running `body`.
pub fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}
