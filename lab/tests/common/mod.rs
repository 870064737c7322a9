//! What the lab's end-to-end tests share: the `lab` binary run in the
//! repository, its output, and the run folders it writes.

// Each test file uses a part of what is here.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The target folder holding this test's binaries; the lab's variant builds
/// go under it, so cargo reuses the dependencies and the tests share builds.
pub fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_lab")).parent().unwrap().parent().unwrap().to_path_buf()
}

/// A fresh scratch folder for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("prunelab-lab-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` to `path` as an executable script (a stand-in engine).
pub fn executable(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Runs `lab` in the repository, its results under `results`.
pub fn lab(args: &[&str], results: &Path) -> Output {
    lab_command(args, results).output().expect("lab runs")
}

/// The command [`lab`] runs, for a test that adds to it.
pub fn lab_command(args: &[&str], results: &Path) -> Command {
    let mut command = lab_command_saying(args, results);
    command.arg("--quiet");
    command
}

/// [`lab_command`] without `--quiet`, for a test that checks what the lab says.
pub fn lab_command_saying(args: &[&str], results: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_lab"));
    command
        .args(args)
        .arg("--results")
        .arg(results)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CARGO_TARGET_DIR", target_dir())
        // The repository's data/, whatever the environment names.
        .env_remove("PRUNELAB_DATA")
        // Quicker builds of the same searches (see Cargo.toml's `labtest`),
        // for what the lab still builds: ablations, traced and tuning builds.
        .env("PRUNELAB_BUILD_PROFILE", "labtest")
        // One build folder: each compiles the dependencies (in CI, 30 units
        // again in `target/lab/cargo-1`), and the tests' threads keep the
        // cores busy.
        .env("PRUNELAB_BUILD_SLOTS", "1")
        // Every variant searched by the one variants build the variant
        // matrix searches with (`--variants-build`), not a build of each:
        // the same nodes, without 13 engine builds (docs/ci.md). A test of
        // the lab's own builds removes it (`building_each_variant`).
        .env(VARIANTS_BUILD_VARIABLE, variants_build());
    command
}

/// The lab's `--variants-build` from the environment.
pub const VARIANTS_BUILD_VARIABLE: &str = "PRUNELAB_LAB_VARIANTS_BUILD";

/// `command` building each variant it runs with exactly its features, as
/// the lab does without `--variants-build`.
pub fn building_each_variant(command: &mut Command) -> &mut Command {
    command.env_remove(VARIANTS_BUILD_VARIABLE)
}

/// What a successful run printed.
pub fn stdout(output: &Output) -> String {
    assert!(output.status.success(), "lab failed: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A run folder's `records.jsonl`.
pub fn records(run: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(run.join("records.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The only run folder of `command` under `results`.
pub fn run_folder(results: &Path, command: &str) -> PathBuf {
    let runs: Vec<PathBuf> = std::fs::read_dir(results)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.file_name().unwrap().to_str().unwrap().ends_with(&format!("-{command}")))
        .collect();
    assert_eq!(runs.len(), 1, "{runs:?}");
    runs[0].clone()
}

/// The variants build (what `make` builds: every variant's search in one
/// binary, the UCI option `Variant` choosing it), the one the variant
/// matrix searches with: `$PRUNELAB_VARIANTS_BUILD`, else built once into
/// `target/variants-build/`.
pub fn variants_build() -> PathBuf {
    test_support::variants_build_in(&target_dir())
}

/// A participant that is `variant` searched by the variants build driven
/// as a UCI engine: `uci:PATH@Variant=NAME`. One build serves every
/// variant, where a variant's own participant is a cargo build of its own.
pub fn variant_by_option(variant: &str) -> String {
    format!("uci:{}@Variant={variant}", variants_build().display())
}
