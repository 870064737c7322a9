//! Where a command runs and how it talks: the repository paths on the
//! command line are read from, the results folder, and whether progress
//! and messages are shown.

use std::path::{Path, PathBuf};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// What a command needs of its surroundings, besides its own options.
#[derive(Clone, Debug)]
pub struct Session {
    /// The repository: relative paths given on the command line are taken
    /// from here when they do not name a file from the current folder.
    pub root: PathBuf,
    /// The folder run folders are made in.
    pub results_root: PathBuf,
    /// No progress bars or running lines.
    pub quiet: bool,
    /// The result is printed as JSON on stdout, for scripts.
    pub json: bool,
}

impl Session {
    /// A path given on the command line, for messages and opening.
    pub fn resolve(&self, path: &Path) -> PathBuf {
        if path.is_absolute() || path.exists() {
            path.to_path_buf()
        } else {
            self.root.join(path)
        }
    }

    /// A progress bar with ETA, hidden in quiet or JSON mode.
    pub fn progress(&self, length: u64, message: &str) -> ProgressBar {
        let bar = ProgressBar::new(length);
        if self.quiet || self.json {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        } else {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        bar.set_style(
            ProgressStyle::with_template("{msg:24} [{bar:30}] {pos}/{len} {elapsed_precise} ETA {eta}")
                .expect("a valid template")
                .progress_chars("=> "),
        );
        bar.set_message(message.to_string());
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    }

    /// A line for the user (stderr, so `--json` output stays clean).
    pub fn say(&self, text: &str) {
        if !self.quiet {
            eprintln!("{text}");
        }
    }

    /// A line for the user, above the progress bar while it shows.
    pub fn say_above(&self, bar: &ProgressBar, text: &str) {
        if bar.is_hidden() {
            self.say(text);
        } else {
            bar.println(text);
        }
    }
}
