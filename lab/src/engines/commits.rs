//! Another engine at a commit. A variant file of another engine that names
//! a `commit` is that commit of its `repository`, built by its `build`
//! command (`make EXE={out}` unless its files say otherwise, as
//! OpenBench's workers build an engine). The commit's files are exported
//! from the repository into a scratch folder, as a worker downloads them,
//! and built there; the binary is kept by engine, commit and build command
//! under `target/lab/engines/<engine>/`, so every later run takes it at
//! once. A repository given by its address is cloned once, as a mirror
//! beside the binaries, and fetched again when it lacks a commit; a local
//! clone is read where it is.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::lab::Lab;
use crate::tools::{fnv1a_hex, git, run_command};
use crate::variants::external::{is_remote, OUT};

/// One engine at one commit, and how it is built.
#[derive(Clone, Debug)]
pub struct CommitBuild<'a> {
    /// The engine's name, which names its folder and its binary.
    pub engine: &'a str,
    /// An address git clones from, or a local clone's path.
    pub repository: &'a str,
    /// As the variant file writes it: a hash (in full or not), a tag or a branch.
    pub commit: &'a str,
    /// The build command, `{out}` the path the binary must be written to.
    pub build: &'a str,
}

/// What [`binary`] wrote beside a binary it built, to say where it came from.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Provenance {
    engine: String,
    repository: String,
    commit: String,
    build: String,
    seconds: f64,
}

/// `engine` as a file or folder name: letters, digits, `-`, `_` and `.`.
fn file_name(engine: &str) -> String {
    engine.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).collect()
}

/// `target/lab/engines/<engine>/`: the engine's binaries, and its mirror.
fn engine_folder(lab: &Lab, engine: &str) -> PathBuf {
    lab.target_dir().join("lab").join("engines").join(file_name(engine))
}

/// An engine built at a commit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    pub binary: PathBuf,
    /// The commit's full hash, whatever the variant file wrote.
    pub commit: String,
}

/// The binary of `at`: the one built before with the same commit and build
/// command, else the commit exported and built now. A failed build is an
/// error with what the build printed last.
pub fn binary(lab: &Lab, at: &CommitBuild) -> Result<PathBuf> {
    built(lab, at).map(|built| built.binary)
}

/// [`binary`], and the commit's full hash.
pub fn built(lab: &Lab, at: &CommitBuild) -> Result<Built> {
    let binary = binary_in(&engine_folder(lab, at.engine), at, &|text| lab.say(text))?;
    let provenance: Provenance = serde_json::from_str(&std::fs::read_to_string(binary.with_file_name("built.json"))?)?;
    Ok(Built { binary, commit: provenance.commit })
}

/// [`binary`] with the engine's folder given, and `say` told what is done
/// the first time.
fn binary_in(folder: &Path, at: &CommitBuild, say: &dyn Fn(&str)) -> Result<PathBuf> {
    let repository = local_repository(folder, at, say)?;
    let commit = full_commit(&repository, at)?;
    let build_folder = folder.join(format!("{}-{}", &commit[..12], &fnv1a_hex(at.build.as_bytes())[..8]));
    let binary = build_folder.join(file_name(at.engine));
    if binary.is_file() {
        return Ok(binary);
    }
    std::fs::create_dir_all(&build_folder).with_context(|| format!("cannot create {}", build_folder.display()))?;
    let _lock = lock(folder)?;
    // Another lab may have built it while this one waited for the lock.
    if binary.is_file() {
        return Ok(binary);
    }
    let short = &commit[..8];
    say(&format!(
        "building {} at commit {short} with `{}` (once: kept in {})",
        at.engine,
        at.build,
        build_folder.display()
    ));
    let started = Instant::now();
    let source = build_folder.join(format!("source-{}", std::process::id()));
    export(&repository, &commit, &source)?;
    // Written beside the binary and renamed once whole, so a run never
    // takes half a binary or a failed build's for a finished one.
    let temporary = build_folder.join(format!("{}.tmp-{}", file_name(at.engine), std::process::id()));
    let outcome = build(at, short, &source, &temporary);
    std::fs::remove_dir_all(&source).ok();
    if let Err(error) = outcome {
        std::fs::remove_file(&temporary).ok();
        return Err(error);
    }
    std::fs::rename(&temporary, &binary).with_context(|| format!("cannot move the binary to {}", binary.display()))?;
    let provenance = Provenance {
        engine: at.engine.to_string(),
        repository: at.repository.to_string(),
        commit: commit.clone(),
        build: at.build.to_string(),
        seconds: started.elapsed().as_secs_f64(),
    };
    std::fs::write(build_folder.join("built.json"), serde_json::to_string_pretty(&provenance)? + "\n")?;
    Ok(binary)
}

/// Runs the build command in `source`, `{out}` replaced by `out`; the
/// command must leave an executable file there.
fn build(at: &CommitBuild, short: &str, source: &Path, out: &Path) -> Result<()> {
    let command = at.build.replace(OUT, &shell_quoted(&out.display().to_string()));
    let mut shell = Command::new("sh");
    shell.arg("-c").arg(&command).current_dir(source).stdin(Stdio::null());
    // A build as a fresh shell runs it, not as a sub-make of the lab's caller.
    for variable in ["MAKEFLAGS", "MFLAGS", "MAKELEVEL"] {
        shell.env_remove(variable);
    }
    run_command(&mut shell, &format!("building `{}` at commit {short} (`{}`)", at.engine, at.build))?;
    use std::os::unix::fs::PermissionsExt;
    match std::fs::metadata(out) {
        Ok(meta) if meta.is_file() && meta.permissions().mode() & 0o111 != 0 => Ok(()),
        Ok(_) => bail!(
            "building `{}` at commit {short}: `{}` made {}, which is not an executable file",
            at.engine,
            at.build,
            out.display()
        ),
        Err(_) => bail!(
            "building `{}` at commit {short}: `{}` succeeded but wrote no binary at {OUT} ({}); the build command \
             must write the engine there",
            at.engine,
            at.build,
            out.display()
        ),
    }
}

/// `text` in single quotes for `sh`.
fn shell_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The git folder commits are read from: a local clone where it is, or the
/// mirror of an address, cloned the first time.
fn local_repository(folder: &Path, at: &CommitBuild, say: &dyn Fn(&str)) -> Result<PathBuf> {
    if !is_remote(at.repository) {
        let path = PathBuf::from(at.repository);
        if !path.is_dir() {
            bail!(
                "engine `{}`: its repository {} is not a folder (give a git clone's path, or an address such as \
                 https://github.com/OWNER/NAME)",
                at.engine,
                path.display()
            );
        }
        return Ok(path);
    }
    let mirror = folder.join("repository.git");
    if !mirror.join("HEAD").is_file() {
        std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
        let _lock = lock(folder)?;
        if !mirror.join("HEAD").is_file() {
            say(&format!("cloning {} (once: kept in {})", at.repository, mirror.display()));
            let temporary = folder.join(format!("repository.git.tmp-{}", std::process::id()));
            std::fs::remove_dir_all(&temporary).ok();
            let mut clone = Command::new("git");
            clone.args(["clone", "--mirror", "--quiet", at.repository]).arg(&temporary).stdin(Stdio::null());
            run_command(&mut clone, &format!("git clone {}", at.repository))
                .with_context(|| format!("engine `{}`: its repository cannot be cloned", at.engine))?;
            std::fs::rename(&temporary, &mirror)?;
        }
    }
    Ok(mirror)
}

/// The full hash of `at.commit` in `repository`; a mirror is fetched once
/// when it lacks it.
fn full_commit(repository: &Path, at: &CommitBuild) -> Result<String> {
    let find = || {
        git(repository, &["rev-parse", "--verify", "--quiet", &format!("{}^{{commit}}", at.commit)])
            .ok()
            .map(|hash| hash.trim().to_string())
            .filter(|hash| hash.len() >= 12)
    };
    if let Some(hash) = find() {
        return Ok(hash);
    }
    if is_remote(at.repository) {
        git(repository, &["fetch", "--quiet", "--prune", "origin"])
            .with_context(|| format!("engine `{}`: cannot fetch {}", at.engine, at.repository))?;
        if let Some(hash) = find() {
            return Ok(hash);
        }
    }
    bail!("engine `{}`: commit `{}` is not in its repository {}", at.engine, at.commit, at.repository)
}

/// The commit's files in `folder`, as `git archive` gives them (and an
/// OpenBench worker downloads them).
pub fn export(repository: &Path, commit: &str, folder: &Path) -> Result<()> {
    std::fs::remove_dir_all(folder).ok();
    std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let mut archive = Command::new("git")
        .current_dir(repository)
        .args(["archive", "--format=tar", commit])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .context("cannot run git archive")?;
    let unpacked = Command::new("tar")
        .arg("-x")
        .arg("-C")
        .arg(folder)
        .stdin(archive.stdout.take().expect("piped"))
        .status()
        .context("cannot run tar")?;
    let archived = archive.wait_with_output()?;
    if !archived.status.success() || !unpacked.success() {
        bail!(
            "cannot export commit {commit} of {} into {}: {}",
            repository.display(),
            folder.display(),
            String::from_utf8_lossy(&archived.stderr).trim()
        );
    }
    Ok(())
}

/// The engine folder's lock, held until the file is dropped: one lab at a
/// time clones or builds an engine.
fn lock(folder: &Path) -> Result<std::fs::File> {
    crate::engines::builder::take_lock(folder, "build.lock")
}

#[cfg(test)]
mod tests {
    use test_support::git;

    use super::*;

    /// Commits a Makefile with `recipe` (its lines each a tab's) and returns the commit.
    fn commit_makefile(repository: &Path, recipe: &[&str], message: &str) -> String {
        let lines: Vec<String> = recipe.iter().map(|line| format!("\t{line}")).collect();
        std::fs::write(repository.join("Makefile"), format!("all:\n{}\n", lines.join("\n"))).unwrap();
        git(repository, &["add", "Makefile"]);
        git(repository, &["commit", "--quiet", "-m", message]);
        git(repository, &["rev-parse", "HEAD"])
    }

    /// A stand-in engine's repository: a commit's `make` writes a script
    /// naming the commit to `$(EXE)` and logs each build in `log`.
    fn stand_in_repository(dir: &Path, log: &Path, names: &[&str]) -> (PathBuf, Vec<String>) {
        let repository = dir.join("engine");
        std::fs::create_dir_all(&repository).unwrap();
        git(&repository, &["init", "--quiet"]);
        let commits = names
            .iter()
            .map(|name| {
                let recipe = [
                    format!("echo built {name} >> {}", log.display()),
                    format!("printf '#!/bin/sh\\necho {name}\\n' > $(EXE)"),
                    "chmod 755 $(EXE)".to_string(),
                ];
                commit_makefile(&repository, &recipe.iter().map(String::as_str).collect::<Vec<_>>(), name)
            })
            .collect();
        (repository, commits)
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("prunelab-commits-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn at<'a>(repository: &'a str, commit: &'a str, build: &'a str) -> CommitBuild<'a> {
        CommitBuild { engine: "stand-in", repository, commit, build }
    }

    /// What a built stand-in prints: the commit it was built from.
    fn prints(binary: &Path) -> String {
        String::from_utf8(Command::new(binary).output().unwrap().stdout).unwrap().trim().to_string()
    }

    fn builds(log: &Path) -> Vec<String> {
        std::fs::read_to_string(log).unwrap_or_default().lines().map(str::to_string).collect()
    }

    #[test]
    fn each_commit_is_built_once_and_kept_by_commit_and_build_command() {
        let dir = scratch("kept");
        let log = dir.join("builds.log");
        let (repository, commits) = stand_in_repository(&dir, &log, &["one", "two"]);
        let repository = repository.display().to_string();
        let folder = dir.join("engines");
        let said = std::sync::Mutex::new(Vec::new());
        let say = |text: &str| said.lock().unwrap().push(text.to_string());
        let one = binary_in(&folder, &at(&repository, &commits[0], "make EXE={out}"), &say).unwrap();
        let two = binary_in(&folder, &at(&repository, &commits[1], "make EXE={out}"), &say).unwrap();
        assert_eq!((prints(&one), prints(&two)), ("one".to_string(), "two".to_string()));
        assert_eq!(builds(&log), ["built one", "built two"]);
        let kept_in = one.parent().unwrap();
        assert_eq!(kept_in.parent().unwrap(), folder);
        assert!(kept_in.file_name().unwrap().to_string_lossy().starts_with(&commits[0][..12]), "{}", one.display());
        let built: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(one.with_file_name("built.json")).unwrap()).unwrap();
        assert_eq!((built["commit"].as_str(), built["build"].as_str()), (Some(&*commits[0]), Some("make EXE={out}")));
        // Asked again, by its short hash or a branch's name: the binary kept, no build.
        git(Path::new(&repository), &["branch", "first", &commits[0]]);
        for name in [&commits[0][..7], "first"] {
            assert_eq!(binary_in(&folder, &at(&repository, name, "make EXE={out}"), &say).unwrap(), one);
        }
        assert_eq!(builds(&log).len(), 2);
        // Another build command is another binary.
        let other = binary_in(&folder, &at(&repository, &commits[0], "make EXE={out} FLAVOUR=x"), &say).unwrap();
        assert_ne!(other, one);
        assert_eq!(builds(&log), ["built one", "built two", "built one"]);
        let said = said.into_inner().unwrap();
        assert_eq!(said.len(), 3, "{said:?}");
        assert!(
            said[0].starts_with(&format!("building stand-in at commit {} with `make EXE={{out}}`", &commits[0][..8]))
        );
        // No source folder or half binary is left behind.
        let left: Vec<String> = std::fs::read_dir(one.parent().unwrap())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left.len(), 2, "{left:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_build_shows_the_engines_own_error_and_keeps_nothing() {
        let dir = scratch("failed");
        let (repository, _) = stand_in_repository(&dir, &dir.join("builds.log"), &["one"]);
        let broken = commit_makefile(
            &repository,
            &["@echo \"engine.c:3:5: error: expected ';' before 'return'\" >&2; exit 1"],
            "broken",
        );
        let silent = commit_makefile(&repository, &["@echo nothing to do"], "silent");
        let repository = repository.display().to_string();
        let folder = dir.join("engines");
        let error = |commit: &str, build: &str| {
            format!("{:#}", binary_in(&folder, &at(&repository, commit, build), &|_| ()).unwrap_err())
        };
        let failed = error(&broken, "make EXE={out}");
        assert!(
            failed
                .starts_with(&format!("building `stand-in` at commit {} (`make EXE={{out}}`) failed:\n", &broken[..8])),
            "{failed}"
        );
        assert!(failed.contains("engine.c:3:5: error: expected ';' before 'return'"), "{failed}");
        let quiet = error(&silent, "make EXE={out}");
        assert!(quiet.contains("`make EXE={out}` succeeded but wrote no binary at {out}"), "{quiet}");
        let unknown = error("0123456789abcdef", "make EXE={out}");
        assert_eq!(
            unknown,
            format!("engine `stand-in`: commit `0123456789abcdef` is not in its repository {repository}")
        );
        // Nothing is kept of a failed build: asked again, it is built again.
        let kept: Vec<PathBuf> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.is_dir())
            .flat_map(|path| std::fs::read_dir(path).unwrap().map(|entry| entry.unwrap().path()))
            .collect();
        assert!(kept.is_empty(), "{kept:?}");
        let missing =
            format!("{:#}", binary_in(&folder, &at("/no/such/clone", "HEAD", "make EXE={out}"), &|_| ()).unwrap_err());
        assert!(missing.starts_with("engine `stand-in`: its repository /no/such/clone is not a folder"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_address_is_cloned_once_and_fetched_for_a_commit_it_lacks() {
        let dir = scratch("address");
        let log = dir.join("builds.log");
        let (repository, commits) = stand_in_repository(&dir, &log, &["one"]);
        let address = format!("file://{}", repository.display());
        let folder = dir.join("engines");
        let said = std::sync::Mutex::new(Vec::new());
        let say = |text: &str| said.lock().unwrap().push(text.to_string());
        let one = binary_in(&folder, &at(&address, &commits[0], "make EXE={out}"), &say).unwrap();
        assert_eq!(prints(&one), "one");
        assert!(folder.join("repository.git/HEAD").is_file());
        // A commit made after the clone is fetched.
        let recipe = ["printf '#!/bin/sh\\necho three\\n' > $(EXE)", "chmod 755 $(EXE)"];
        let three = commit_makefile(&repository, &recipe, "three");
        let built = binary_in(&folder, &at(&address, &three, "make EXE={out}"), &say).unwrap();
        assert_eq!(prints(&built), "three");
        let said = said.into_inner().unwrap();
        assert_eq!(said.iter().filter(|line| line.starts_with("cloning ")).count(), 1, "{said:?}");
        assert!(is_remote(&address) && is_remote("git@github.com:owner/name") && !is_remote("../engine"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
