//! `lab spsa`: a variant's tunables as OpenBench SPSA input.

use anyhow::{bail, Result};
use clap::Args;

use crate::engines::builder;
use crate::lab::Lab;

#[derive(Args, Debug)]
pub struct SpsaArgs {
    /// The variant whose tunables to tune.
    pub variant: String,
}

/// The variant's own binary prints the lines, so the list is exactly the
/// tunables compiled into it.
pub fn command(lab: &Lab, args: &SpsaArgs) -> Result<()> {
    let binary = builder::ensure_built(lab, &args.variant)?;
    let output = std::process::Command::new(&binary).arg("spsa").output()?;
    if !output.status.success() {
        bail!("{} spsa failed: {}", binary.display(), String::from_utf8_lossy(&output.stderr).trim());
    }
    let lines = String::from_utf8_lossy(&output.stdout);
    if lab.global.json {
        let rows: Vec<Vec<&str>> = lines.lines().map(|line| line.split(',').map(str::trim).collect()).collect();
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        print!("{lines}");
        let features = lab.variant(&args.variant)?.features.join(" ");
        lab.say(&format!(
            "OpenBench SPSA input for `{}`; the engine under tune must expose these options:\n  make FEATURES=\"{features} tune\"",
            args.variant
        ));
    }
    Ok(())
}
