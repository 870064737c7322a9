//! Where runs keep their results: `lab-results/<timestamp>-<command>/`.
//!
//! - `run.json`: the command, its arguments, the lab version, the start time;
//! - `records.jsonl`: one JSON line per finished item (a position, a game
//!   pair), appended and flushed the moment it is done, so Ctrl-C or a crash
//!   loses only the items still running, and `--resume` skips the rest;
//! - `summary.md` and `summary.json`: rewritten (atomically) as the run goes
//!   and at its end.

use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::session::Session;

pub const RUN_FILE: &str = "run.json";
const RECORDS_FILE: &str = "records.jsonl";

/// One run's folder.
pub struct RunDir {
    path: PathBuf,
    records: File,
}

/// The UTC time as `20261122T061011Z`: sortable, and safe in file names.
pub fn timestamp() -> String {
    let format = time::macros::format_description!("[year][month][day]T[hour][minute][second]Z");
    time::OffsetDateTime::now_utc().format(&format).unwrap_or_else(|_| "unknown-time".to_string())
}

impl RunDir {
    /// Creates a fresh run folder under `root` and records what was asked.
    pub fn create(root: &Path, command: &str, args: &impl Serialize) -> Result<RunDir> {
        fs::create_dir_all(root).with_context(|| format!("cannot create {}", root.display()))?;
        let stem = format!("{}-{command}", timestamp());
        let mut path = root.join(&stem);
        let mut attempt = 2;
        while path.exists() {
            path = root.join(format!("{stem}-{attempt}"));
            attempt += 1;
        }
        fs::create_dir(&path).with_context(|| format!("cannot create {}", path.display()))?;
        let run = serde_json::json!({
            "command": command,
            "args": args,
            "lab_version": env!("CARGO_PKG_VERSION"),
            "started": timestamp(),
        });
        write_atomically(&path.join(RUN_FILE), &serde_json::to_string_pretty(&run)?)?;
        let records = OpenOptions::new().create(true).append(true).open(path.join(RECORDS_FILE))?;
        crate::interrupt::note_run(&path);
        Ok(RunDir { path, records })
    }

    /// Reopens a run to continue it. `args` must be what the run was started
    /// with, so resumed results stay comparable; the finished records are
    /// returned (a line torn by a crash is dropped, and rewritten later).
    pub fn resume<R: DeserializeOwned>(path: &Path, command: &str, args: &impl Serialize) -> Result<(RunDir, Vec<R>)> {
        let run_text = fs::read_to_string(path.join(RUN_FILE))
            .with_context(|| format!("{} is not a lab run folder (no {RUN_FILE})", path.display()))?;
        let run: Value =
            serde_json::from_str(&run_text).with_context(|| format!("{}: broken {RUN_FILE}", path.display()))?;
        if run["command"] != command {
            bail!("{} is a `{}` run, not `{command}`", path.display(), run["command"].as_str().unwrap_or("?"));
        }
        let asked = serde_json::to_value(args)?;
        if run["args"] != asked {
            bail!(
                "{} was started with other arguments; resume it with the same ones:\n  started: {}\n  now:     {}",
                path.display(),
                run["args"],
                asked
            );
        }
        let records_path = path.join(RECORDS_FILE);
        let mut records = Vec::new();
        let mut good_bytes = 0;
        if let Ok(file) = File::open(&records_path) {
            for line in BufReader::new(file).lines() {
                let line = line?;
                match serde_json::from_str::<R>(&line) {
                    Ok(record) => {
                        records.push(record);
                        good_bytes += line.len() as u64 + 1;
                    }
                    Err(_) => break,
                }
            }
        }
        // Cut a torn tail so the next append starts on a fresh line.
        let file = OpenOptions::new().create(true).write(true).truncate(false).open(&records_path)?;
        file.set_len(good_bytes)?;
        drop(file);
        let records_file = OpenOptions::new().append(true).open(&records_path)?;
        crate::interrupt::note_run(path);
        Ok((RunDir { path: path.to_path_buf(), records: records_file }, records))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `record` to `records.jsonl` and keeps it in `records`.
    pub fn keep<R: Serialize>(&mut self, records: &mut Vec<R>, record: R) -> Result<()> {
        self.append(&record)?;
        records.push(record);
        Ok(())
    }

    /// Appends one finished item and flushes it to disk; a stopping
    /// signal waits for the line to be whole.
    pub fn append(&mut self, record: &impl Serialize) -> Result<()> {
        let _writing = crate::interrupt::writing();
        let mut line = serde_json::to_string(record)?;
        line.push('\n');
        self.records.write_all(line.as_bytes())?;
        self.records.sync_data()?;
        Ok(())
    }

    /// Writes `summary.md` and `summary.json`.
    pub fn write_summary(&self, markdown: &str, json: &impl Serialize) -> Result<()> {
        write_atomically(&self.path.join("summary.md"), markdown)?;
        write_atomically(&self.path.join("summary.json"), &serde_json::to_string_pretty(json)?)
    }

    /// Writes another file of the run (a PGN, a chart).
    pub fn file(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
}

/// Prints a finished run as a command does: its `summary.json` with
/// `--json`, else its `summary.md` and where the results are.
pub fn print_summary(session: &Session, run_dir: &Path) -> Result<()> {
    let name = if session.json { "summary.json" } else { "summary.md" };
    println!("{}", fs::read_to_string(run_dir.join(name))?);
    if !session.json {
        session.say(&format!("results: {}", run_dir.display()));
    }
    Ok(())
}

/// Write to a temporary file, then rename: a reader never sees half a file.
pub fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let _writing = crate::interrupt::writing();
    let temporary = path.with_extension("tmp");
    fs::write(&temporary, text).with_context(|| format!("cannot write {}", temporary.display()))?;
    fs::rename(&temporary, path).with_context(|| format!("cannot write {}", path.display()))
}

/// The run folders of `command` under `root`, oldest first.
pub fn runs_of(root: &Path, command: &str) -> Vec<PathBuf> {
    let suffix = format!("-{command}");
    let mut runs: Vec<PathBuf> = fs::read_dir(root)
        .map(|dir| dir.filter_map(|entry| entry.ok().map(|entry| entry.path())).collect())
        .unwrap_or_default();
    runs.retain(|path| {
        let name = path.file_name().and_then(|name| name.to_str()).unwrap_or("");
        path.join(RUN_FILE).exists() && (name.ends_with(&suffix) || name.contains(&format!("{suffix}-")))
    });
    runs.sort();
    runs
}

/// The run folders of `command` under `root` and inside other runs'
/// folders (the steps of `lab ab` and `lab chain`), oldest first by their
/// own timestamped names.
pub fn runs_of_nested(root: &Path, command: &str) -> Vec<PathBuf> {
    /// Deep enough for `<chain>/<phase>/<run>`.
    const MAX_NESTING: usize = 3;
    let mut found = Vec::new();
    let mut folders = vec![(root.to_path_buf(), 0)];
    while let Some((folder, depth)) = folders.pop() {
        found.extend(runs_of(&folder, command));
        if depth == MAX_NESTING {
            continue;
        }
        let Ok(entries) = fs::read_dir(&folder) else { continue };
        folders.extend(
            entries
                .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                .filter(|path| path.is_dir())
                .map(|path| (path, depth + 1)),
        );
    }
    found.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    found.dedup();
    found
}

/// Reads a run's finished records (for reports).
pub fn read_records<R: DeserializeOwned>(run: &Path) -> Vec<R> {
    let Ok(file) = File::open(run.join(RECORDS_FILE)) else { return Vec::new() };
    BufReader::new(file)
        .lines()
        .map_while(|line| line.ok())
        .filter_map(|line| serde_json::from_str(&line).ok())
        .collect()
}

/// Reads a run's `run.json`.
pub fn read_run(run: &Path) -> Option<Value> {
    serde_json::from_str(&fs::read_to_string(run.join(RUN_FILE)).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Item {
        id: String,
        nodes: u64,
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("prunelab-results-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn records_survive_a_torn_line_and_resume_with_the_same_arguments_only() {
        let root = scratch("resume");
        let args = serde_json::json!({"depth": 5});
        let mut run = RunDir::create(&root, "nodes", &args).unwrap();
        run.append(&Item { id: "a".into(), nodes: 1 }).unwrap();
        run.append(&Item { id: "b".into(), nodes: 2 }).unwrap();
        let path = run.path().to_path_buf();
        drop(run);
        // A crash in the middle of a write.
        let mut file = OpenOptions::new().append(true).open(path.join(RECORDS_FILE)).unwrap();
        file.write_all(b"{\"id\":\"c\",\"no").unwrap();
        drop(file);

        assert!(RunDir::resume::<Item>(&path, "nodes", &serde_json::json!({"depth": 6})).is_err());
        assert!(RunDir::resume::<Item>(&path, "tactics", &args).is_err());
        let (mut run, done) = RunDir::resume::<Item>(&path, "nodes", &args).unwrap();
        assert_eq!(done, [Item { id: "a".into(), nodes: 1 }, Item { id: "b".into(), nodes: 2 }]);
        run.append(&Item { id: "c".into(), nodes: 3 }).unwrap();
        assert_eq!(read_records::<Item>(&path).len(), 3);
        assert_eq!(runs_of(&root, "nodes"), std::slice::from_ref(&path));
        assert!(runs_of(&root, "match").is_empty());
        // A step of a later run, inside that run's folder, comes after it.
        let chain = RunDir::create(&root, "chain", &args).unwrap();
        let step = RunDir::create(&chain.path().join("nodes"), "nodes", &args).unwrap();
        assert_eq!(runs_of(&root, "nodes"), std::slice::from_ref(&path));
        assert_eq!(runs_of_nested(&root, "nodes"), [path.clone(), step.path().to_path_buf()]);
        fs::remove_dir_all(&root).unwrap();
    }
}
