//! The programs the lab runs besides engines (git, make): how one is run,
//! and how its failure reads.

use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};

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
