//! The programs the lab runs besides engines (git, make): how one is run,
//! and how its failure reads.

use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};

/// FNV-1a, 64 bits, in hex: an identity that needs no dependency and is
/// the same on every machine and Rust version, as names kept on disk must
/// be.
pub fn fnv1a_hex(bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// Runs a command, or says what it printed when it fails.
pub fn run_command(command: &mut Command, what: &str) -> Result<String> {
    let output = command.output().with_context(|| format!("cannot run {what}"))?;
    if !output.status.success() {
        let printed = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        let lines: Vec<&str> = printed.lines().collect();
        bail!("{what} failed:\n{}", lines[lines.len().saturating_sub(30)..].join("\n"));
    }
    Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// Runs git in `root` and returns what it printed; its error when it fails.
pub fn git(root: &Path, args: &[&str]) -> Result<String> {
    let output = Command::new("git").args(args).current_dir(root).output().context("cannot run git")?;
    if !output.status.success() {
        bail!("git {}: {}", args.join(" "), String::from_utf8_lossy(&output.stderr).trim());
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The commit the engines are built from, `+dirty` when a tracked file the
/// engines are built from differs from it; `unknown` outside git.
pub fn commit(root: &Path) -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .current_dir(root)
            .args(args)
            .output()
            .ok()
            .filter(|output| output.status.success())
            .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_string())
    };
    let Some(head) = git(&["rev-parse", "--short=12", "HEAD"]) else { return "unknown".to_string() };
    // The atlas file changes as the run goes, and the lab and the README are
    // not in the engines: none of them makes the engines dirty.
    let outside_engines = [":(exclude)atlas", ":(exclude)lab", ":(exclude)README.md"];
    let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--", "."];
    status.extend(outside_engines);
    let changes = git(&status);
    if changes.is_some_and(|changes| !changes.is_empty()) {
        format!("{head}+dirty")
    } else {
        head
    }
}
