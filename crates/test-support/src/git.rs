//! Stand-in git repositories: another engine's history, for the lab's
//! tests of engines built at a commit.

use std::path::Path;
use std::process::Command;

/// Runs git in `dir` as a fixed author (the machine may have none
/// configured) and returns what it printed, trimmed; a failure panics with
/// git's error.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "lab")
        .env("GIT_AUTHOR_EMAIL", "lab@example.com")
        .env("GIT_COMMITTER_NAME", "lab")
        .env("GIT_COMMITTER_EMAIL", "lab@example.com")
        .output()
        .expect("git runs");
    assert!(output.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}
