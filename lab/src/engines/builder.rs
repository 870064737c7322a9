//! `lab build`: each variant's engine, built with exactly its features.
//!
//! Every variant is one `cargo build --release --bin prunelab --features ..`
//! in a target folder under `target/lab` (`target/lab/cargo`, shared with
//! `ci/honesty.sh`, and one more per core: the build slots of `slots`, so a
//! command's engines are built at the same time); cargo keeps each feature
//! set's artefacts, so building a variant again is instant. A variant with
//! `[tunables]` is built with them in `$PRUNELAB_TUNABLES`, so its constants
//! are its own; it shares its feature set's artefacts, so building it after
//! its parent (or back) in one slot recompiles the engine crate. It is not
//! `target/` itself, because every build there would
//! replace `target/release/prunelab`, the binary `cargo build` users and the
//! tests expect to be the default build. The binary is copied to
//! `target/lab/<variant>/prunelab` and asked what it is (`prunelab features
//! --json`); a binary whose self-report is not the variant is refused, so no
//! result is ever attributed to the wrong build.
//!
//! An OpenBench test's engine is built apart, as a worker builds it: the
//! commit's files and `make` (`make_at_commit`).

mod slots;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use prunelab::tune::TUNABLES_VARIABLE;
use serde::{Deserialize, Serialize};

use crate::lab::Lab;
use crate::tools::run_command;

#[derive(Args, Debug, Serialize)]
pub struct BuildArgs {
    /// Variant names (see `lab list`).
    #[arg(required = true)]
    pub variants: Vec<String>,
}

/// What a binary says it is (`prunelab features --json`).
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct SelfReport {
    pub version: String,
    pub variants: Vec<String>,
    pub features: Vec<String>,
    /// The variants build's variants (the UCI option `Variant`); none in a
    /// build of one feature set.
    #[serde(default)]
    pub selectable: Vec<String>,
    /// The tunable values it was built with (`$PRUNELAB_TUNABLES`), by UCI
    /// name; in the variants build, its default variant's.
    #[serde(default)]
    pub tunables: std::collections::BTreeMap<String, i32>,
    /// The digest of the `variants/` folder it was built from (absent from
    /// binaries older than the field).
    #[serde(default)]
    pub variants_digest: Option<u64>,
}

/// Asks a binary what it is.
pub fn self_report(binary: &Path) -> Result<SelfReport> {
    let output = Command::new(binary)
        .args(["features", "--json"])
        .output()
        .with_context(|| format!("cannot run {}", binary.display()))?;
    if !output.status.success() {
        bail!("{} features --json failed: {}", binary.display(), String::from_utf8_lossy(&output.stderr).trim());
    }
    serde_json::from_slice(&output.stdout)
        .with_context(|| format!("{}: `features --json` did not print the expected JSON", binary.display()))
}

/// Refuses a binary that is not `variant`: its variant names must include
/// it and its features must be exactly the variant's. An ablation
/// (`full-without-razoring`) has no file the binary could name, so it is
/// known by its features alone.
pub fn check_self_report(lab: &Lab, variant: &str, binary: &Path) -> Result<SelfReport> {
    let expected = lab.own_variant(variant)?;
    let report = self_report(binary)?;
    let mut have: Vec<&str> = report.features.iter().map(String::as_str).collect();
    let mut want: Vec<&str> = expected.features.clone();
    have.sort_unstable();
    want.sort_unstable();
    let named = lab.ablation(variant).is_some() || report.variants.iter().any(|name| name == variant);
    if have != want || !named {
        bail!(
            "{} claims to be `{variant}` but reports variants [{}] with features [{}]; `{variant}` has [{}]",
            binary.display(),
            report.variants.join(", "),
            report.features.join(", "),
            expected.features.join(", ")
        );
    }
    let want_tunables: std::collections::BTreeMap<String, i32> =
        expected.tunables.iter().map(|(name, value)| (name.to_string(), *value)).collect();
    if report.tunables != want_tunables {
        bail!(
            "{} claims to be `{variant}` but was built with tunables {:?}; `{variant}` has {:?}",
            binary.display(),
            report.tunables,
            want_tunables
        );
    }
    Ok(report)
}

/// How often a copy that turned out to be another build's binary is built
/// and copied again before giving up.
const BUILD_ATTEMPTS: usize = 5;

/// Builds `variant` (instant when cargo has it already), copies the binary
/// to `target/lab/<variant>/prunelab` once its self-report says it is the
/// variant, and returns its path.
pub fn ensure_built(lab: &Lab, variant: &str) -> Result<PathBuf> {
    ensure_built_with(lab, variant, &[])
}

/// Builds `variant` with lab-only features added (`trace`, `tune`: features
/// outside the pruning catalogue, so the binary still reports exactly the
/// variant) into its own folder, `target/lab/<variant>+trace/prunelab`, so
/// it never replaces the variant's own binary.
pub fn ensure_built_with(lab: &Lab, variant: &str, extras: &[&str]) -> Result<PathBuf> {
    let job = variant_job(lab, variant, extras)?;
    let destination = job.destination.clone();
    Workshop::of(lab).build(lab, vec![job], &|_| ())?;
    Ok(destination)
}

/// The build of `variant` with `extras` added, into its own folder.
fn variant_job<'a>(lab: &'a Lab, variant: &'a str, extras: &[&'a str]) -> Result<Job<'a>> {
    let own = lab.own_variant(variant)?;
    let mut features: Vec<&str> = own.features.clone();
    features.extend_from_slice(extras);
    let folder = std::iter::once(variant).chain(extras.iter().copied()).collect::<Vec<_>>().join("+");
    Ok(Job {
        build: Build { what: variant, features, tunables: own.tunables_variable() },
        destination: lab_dir(lab).join(folder).join("prunelab"),
        check: Box::new(move |binary| check_self_report(lab, variant, binary).map(drop)),
    })
}

/// Builds a feature set that need not be a variant's (`lab interactions`
/// adds features to one) into `target/lab/sets/<label>/prunelab`, and
/// refuses the binary unless it reports exactly `features`.
pub fn ensure_built_features(lab: &Lab, label: &str, features: &[&str]) -> Result<PathBuf> {
    let destination = lab_dir(lab).join("sets").join(label).join("prunelab");
    let check = move |binary: &Path| {
        let report = self_report(binary)?;
        let mut have: Vec<&str> = report.features.iter().map(String::as_str).collect();
        let mut want: Vec<&str> = features.to_vec();
        have.sort_unstable();
        want.sort_unstable();
        if have != want {
            bail!(
                "{} was built for `{label}` with features [{}] but reports [{}]",
                binary.display(),
                want.join(", "),
                have.join(", ")
            );
        }
        Ok(())
    };
    let build = Build { what: label, features: features.to_vec(), tunables: String::new() };
    let job = Job { build, destination: destination.clone(), check: Box::new(check) };
    Workshop::of(lab).build(lab, vec![job], &|_| ())?;
    Ok(destination)
}

/// `target/lab`: the binaries' folders and the build slots'.
fn lab_dir(lab: &Lab) -> PathBuf {
    lab.target_dir().join("lab")
}

const RELEASE: &str = "release";

/// The cargo profile variants are built with: `release`, unless
/// `PRUNELAB_BUILD_PROFILE` names another.
pub fn build_profile() -> String {
    std::env::var("PRUNELAB_BUILD_PROFILE").ok().filter(|profile| !profile.is_empty()).unwrap_or_else(|| RELEASE.into())
}

/// What a build with another profile than `release` is worth for speed: the
/// lab says it when it builds one, and `lab speed` in its summary.
pub fn profile_note(profile: &str) -> Option<String> {
    (profile != RELEASE)
        .then(|| format!("built with cargo profile `{profile}` (PRUNELAB_BUILD_PROFILE): its times measure nothing"))
}

/// One build of the engine: a feature set and its tunable values.
struct Build<'a> {
    /// Names the build in errors.
    what: &'a str,
    features: Vec<&'a str>,
    /// `$PRUNELAB_TUNABLES`, `NAME=value,...`; empty for none.
    tunables: String,
}

impl Build<'_> {
    /// What makes the build's artefacts, as a slot records it: the profile,
    /// the features and the tunables, tab-separated.
    fn key(&self, profile: &str) -> String {
        let mut features = self.features.clone();
        features.sort_unstable();
        format!("{profile}\t{}\t{}", features.join(","), self.tunables)
    }
}

/// A build, where its binary goes and what it must say it is.
struct Job<'a> {
    build: Build<'a>,
    destination: PathBuf,
    check: Check<'a>,
}

/// Refuses a binary that is not the build's.
type Check<'a> = Box<dyn Fn(&Path) -> Result<()> + Sync + 'a>;

/// What the lab builds with: cargo, the profile and the build slots.
struct Workshop {
    cargo: std::ffi::OsString,
    profile: String,
    /// Each slot's cargo target folder.
    slots: Vec<PathBuf>,
}

impl Workshop {
    fn of(lab: &Lab) -> Workshop {
        Workshop {
            cargo: std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()),
            profile: build_profile(),
            slots: (0..slots::count()).map(|slot| slots::folder(&lab_dir(lab), slot)).collect(),
        }
    }

    /// Makes every job, each slot's in a thread of its own and in order, so
    /// one command's builds compile at the same time. Once a build fails
    /// no more are started; each failure is reported by its build's name.
    /// `built` is told each build's name as it is done.
    fn build(&self, lab: &Lab, jobs: Vec<Job>, built: &(dyn Fn(&str) + Sync)) -> Result<()> {
        let keys: Vec<String> = jobs.iter().map(|job| job.build.key(&self.profile)).collect();
        let plan = slots::plan(&keys, &slots::recorded(&self.slots), self.slots.len());
        let failed = AtomicBool::new(false);
        let mut errors: Vec<(usize, anyhow::Error)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..self.slots.len())
                .filter(|slot| plan.contains(slot))
                .map(|slot| {
                    let (jobs, keys, failed) = (&jobs, &keys, &failed);
                    let mine: Vec<usize> = (0..jobs.len()).filter(|&index| plan[index] == slot).collect();
                    scope.spawn(move || {
                        let mut errors = Vec::new();
                        for index in mine {
                            if failed.load(Ordering::Relaxed) {
                                break;
                            }
                            match self.build_into(lab, slot, &jobs[index], &keys[index]) {
                                Ok(()) => built(jobs[index].build.what),
                                Err(error) => {
                                    failed.store(true, Ordering::Relaxed);
                                    errors.push((index, error));
                                }
                            }
                        }
                        errors
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|worker| worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                .collect()
        });
        errors.sort_by_key(|(index, _)| *index);
        let mut errors: Vec<anyhow::Error> = errors.into_iter().map(|(_, error)| error).collect();
        match errors.len() {
            0 => Ok(()),
            1 => Err(errors.remove(0)),
            count => {
                let each: Vec<String> = errors.iter().map(|error| format!("{error:#}")).collect();
                bail!("{count} builds failed:\n{}", each.join("\n"))
            }
        }
    }

    /// `cargo build --profile <profile>` of `build` in slot `slot`'s target
    /// folder; returns where cargo put the binary.
    fn cargo_build(&self, lab: &Lab, slot: usize, build: &Build) -> Result<PathBuf> {
        let what = build.what;
        let features = build.features.join(",");
        if let Some(note) = profile_note(&self.profile) {
            eprintln!("lab: `{what}` is {note}");
        }
        let mut command = Command::new(&self.cargo);
        command
            .args(["build", "--profile", &self.profile, "-p", "prunelab", "--bin", "prunelab"])
            .arg("--message-format=json-render-diagnostics")
            .arg("--features")
            .arg(&features)
            .current_dir(&lab.root)
            .env("CARGO_TARGET_DIR", &self.slots[slot]);
        // Unset rather than empty for a variant without values, so a build
        // outside the lab (`ci/honesty.sh`) of the same features is the same.
        match build.tunables.as_str() {
            "" => command.env_remove(TUNABLES_VARIABLE),
            values => command.env(TUNABLES_VARIABLE, values),
        };
        let output =
            command.output().with_context(|| format!("cannot run cargo ({})", Path::new(&self.cargo).display()))?;
        if !output.status.success() {
            let tunables = match build.tunables.as_str() {
                "" => String::new(),
                values => format!(", {TUNABLES_VARIABLE}={values}"),
            };
            bail!(
                "building `{what}` (features: {}{tunables}) failed; cargo said:\n{}",
                if features.is_empty() { "none" } else { &features },
                String::from_utf8_lossy(&output.stderr).trim_end()
            );
        }
        executable_from_messages(&output.stdout)
            .ok_or_else(|| anyhow!("cargo built `{what}` but named no prunelab executable"))
    }

    /// Builds `job` in slot `slot` and copies the binary to its destination
    /// once its check accepts it; the slot then lists `key`.
    ///
    /// Every build in a slot ends in the same file, cargo's
    /// `<profile>/prunelab`, which cargo deletes and links anew on each build
    /// of another feature set. Cargo locks its folder only while it builds,
    /// so labs (or tests) building at the same time take the slot's own lock
    /// around build and copy together. A cargo run outside the lab
    /// (`ci/honesty.sh` shares slot 0's folder) can still replace or remove
    /// the file before the copy: the copy or the check then fails, and the
    /// build is repeated (instantly) and copied again. The copy is checked
    /// before it takes its place, so the destination never holds another
    /// build's binary, nor half of one.
    fn build_into(&self, lab: &Lab, slot: usize, job: &Job, key: &str) -> Result<()> {
        let what = job.build.what;
        let destination = &job.destination;
        let folder = destination.parent().expect("a file in a folder");
        std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
        // Copy then rename, so a running match never sees half a binary; the
        // temporary name is the process's own, so two labs building the same
        // variant at once do not rename each other's copy away.
        let temporary = destination.with_extension(format!("tmp-{}", std::process::id()));
        let _build_lock = take_build_lock(&self.slots[slot]).with_context(|| format!("building `{what}`"))?;
        let mut attempt = 1;
        loop {
            let built = self.cargo_build(lab, slot, &job.build)?;
            let outcome = std::fs::copy(&built, &temporary)
                .with_context(|| format!("cannot copy {}", built.display()))
                .and_then(|_| (job.check)(&temporary));
            match outcome {
                Ok(()) => break,
                Err(error) if attempt == BUILD_ATTEMPTS => {
                    let _ = std::fs::remove_file(&temporary);
                    return Err(error.context(format!("after {BUILD_ATTEMPTS} builds of `{what}`")));
                }
                Err(_) => attempt += 1,
            }
        }
        std::fs::rename(&temporary, destination)?;
        slots::record(&self.slots[slot], key)
    }
}

/// Takes a slot's build lock, held until the returned file is dropped: one
/// lab process at a time builds and copies in the slot's target folder.
fn take_build_lock(folder: &Path) -> Result<std::fs::File> {
    take_lock(folder, "lab-build.lock")
}

/// Takes the lock file `name` in `folder`, held until the returned file is
/// dropped: one lab process at a time builds there.
pub(crate) fn take_lock(folder: &Path, name: &str) -> Result<std::fs::File> {
    std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let path = folder.join(name);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    file.lock().with_context(|| format!("cannot lock {}", path.display()))?;
    Ok(file)
}

/// The `executable` of the prunelab binary in cargo's JSON messages.
fn executable_from_messages(stdout: &[u8]) -> Option<PathBuf> {
    String::from_utf8_lossy(stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find_map(|message| {
            let is_prunelab = message["reason"] == "compiler-artifact" && message["target"]["name"] == "prunelab";
            is_prunelab.then(|| message["executable"].as_str().map(PathBuf::from)).flatten()
        })
}

/// Builds `commit` into `binary` as an OpenBench worker does, unless it is
/// there already: the commit's files exported as a worker downloads them,
/// then `make`, with `folder` holding the sources and cargo's target.
pub fn make_at_commit(lab: &Lab, commit: &str, folder: &Path, binary: &Path) -> Result<()> {
    if binary.is_file() {
        return Ok(());
    }
    let source = folder.join(format!("source-{}", &commit[..12]));
    export(lab, commit, &source)?;
    lab.say(&format!("building commit {} as an OpenBench worker does: make (minutes the first time)", &commit[..8]));
    let mut make = Command::new("make");
    make.current_dir(&source)
        .arg(format!("EXE={}", binary.display()))
        .env("CARGO_TARGET_DIR", folder.join("cargo"))
        .env("CARGO_TERM_QUIET", "true");
    for variable in ["VARIANT", "FEATURES", "PROFILE", "EXE", "PRUNELAB_VARIANT", TUNABLES_VARIABLE] {
        make.env_remove(variable);
    }
    run_command(&mut make, "make")?;
    std::fs::remove_dir_all(&source).ok();
    Ok(())
}

/// The commit's files in `folder`, as a worker downloads them.
fn export(lab: &Lab, commit: &str, folder: &Path) -> Result<()> {
    crate::engines::commits::export(&lab.root, commit, folder)
}

/// Builds several variants at the same time (a slot each, as far as the
/// slots go), with a progress bar; returns their binaries in order.
pub fn build_all(lab: &Lab, names: &[String]) -> Result<Vec<PathBuf>> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let jobs = names.iter().map(|name| variant_job(lab, name, &[])).collect::<Result<Vec<_>>>()?;
    let paths = jobs.iter().map(|job| job.destination.clone()).collect();
    let bar = lab.progress(names.len() as u64, "building");
    bar.set_message(format!("building {}", names.join(", ")));
    Workshop::of(lab).build(lab, jobs, &|_| bar.inc(1)).inspect_err(|_| bar.abandon())?;
    bar.finish_and_clear();
    Ok(paths)
}

pub fn command(lab: &Lab, args: &BuildArgs) -> Result<()> {
    let started = Instant::now();
    let paths = build_all(lab, &args.variants)?;
    let mut rows = Vec::new();
    for (name, path) in args.variants.iter().zip(&paths) {
        let report = self_report(path)?;
        rows.push(serde_json::json!({
            "variant": name,
            "binary": path.strip_prefix(&lab.root).unwrap_or(path),
            "reports": report.variants,
            "features": report.features,
        }));
        if !lab.global.json {
            let features = if report.features.is_empty() { "none".to_string() } else { report.features.join(" ") };
            println!("{name:<22} {}  (reports {}; features: {features})", path.display(), report.variants.join(", "));
        }
    }
    if lab.global.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        lab.say(&format!("built {} variant(s) in {:.1} s", paths.len(), started.elapsed().as_secs_f64()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in binary whose `features --json` reports `variants` and
    /// `features`.
    fn reporting(dir: &Path, variants: &[&str], features: &[&str]) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let report = serde_json::json!({ "version": "0", "variants": variants, "features": features });
        let path = dir.join(format!("reports-{}", variants.len()));
        std::fs::write(&path, format!("#!/bin/sh\necho '{report}'\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    #[test]
    fn an_ablation_is_known_by_its_features_a_variant_also_by_its_name() {
        let lab = Lab::for_tests();
        let dir = std::env::temp_dir().join(format!("prunelab-self-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ablation = lab.variant("full-without-razoring").unwrap().features.clone();
        // A binary of full's features less razoring's names no variant.
        assert!(check_self_report(&lab, "full-without-razoring", &reporting(&dir, &[], &ablation)).is_ok());
        let full = lab.variant("full").unwrap().features.clone();
        let wrong = check_self_report(&lab, "full-without-razoring", &reporting(&dir, &[], &full)).unwrap_err();
        assert!(wrong.to_string().contains("claims to be `full-without-razoring`"), "{wrong}");
        // A variant file's binary must still name it.
        assert!(check_self_report(&lab, "full", &reporting(&dir, &[], &full)).is_err());
        assert!(check_self_report(&lab, "full", &reporting(&dir, &["full"], &full)).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A stand-in for cargo: "builds" a binary reporting the one feature it
    /// is given in `$CARGO_TARGET_DIR/<profile>/prunelab`, and fails as a
    /// compile error for a feature named `broken...`. With `rendezvous`, a
    /// build waits up to 10 s for another to start beside it, and fails
    /// without one; a broken build fails only then, so the build beside it
    /// has started whatever the threads' timing.
    fn stand_in_cargo(dir: &Path, rendezvous: Option<&Path>) -> Workshop {
        let rendezvous = rendezvous.map_or(String::new(), |folder| folder.display().to_string());
        let body = format!(
            r#"rendezvous='{rendezvous}'
while [ $# -gt 0 ]; do
    case $1 in --features) features=$2; shift ;; --profile) profile=$2; shift ;; esac
    shift
done
if [ -n "$rendezvous" ]; then
    touch "$rendezvous/$features"
    waited=0
    while [ "$(ls "$rendezvous" | wc -l)" -lt 2 ]; do
        waited=$((waited + 1))
        if [ $waited -gt 200 ]; then echo "no other build ran beside $features" >&2; exit 1; fi
        sleep 0.05
    done
fi
case $features in broken*) echo "error[E0425]: cannot find value in $features" >&2; exit 101 ;; esac
mkdir -p "$CARGO_TARGET_DIR/$profile"
binary=$CARGO_TARGET_DIR/$profile/prunelab
printf '#!/bin/sh\necho %s\n' "'{{\"version\":\"0\",\"variants\":[],\"features\":[\"$features\"]}}'" > "$binary"
chmod 755 "$binary"
echo "{{\"reason\":\"compiler-artifact\",\"target\":{{\"name\":\"prunelab\"}},\"executable\":\"$binary\"}}""#
        );
        Workshop {
            cargo: test_support::script(dir, "stand-in-cargo", &body).into(),
            profile: "labtest".into(),
            slots: vec![slots::folder(dir, 0), slots::folder(dir, 1)],
        }
    }

    /// The build of the one feature `name` into `dir/<name>/prunelab`,
    /// refused unless the binary reports it.
    fn stand_in_job<'a>(dir: &Path, name: &'a str) -> Job<'a> {
        Job {
            build: Build { what: name, features: vec![name], tunables: String::new() },
            destination: dir.join(name).join("prunelab"),
            check: Box::new(move |binary| {
                let features = self_report(binary)?.features;
                anyhow::ensure!(features == [name], "{} reports {features:?}", binary.display());
                Ok(())
            }),
        }
    }

    fn reported(binary: &Path) -> Vec<String> {
        self_report(binary).unwrap().features
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("prunelab-builder-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("rendezvous")).unwrap();
        dir
    }

    #[test]
    fn two_builds_run_at_once_each_in_its_slot_and_each_destination_holds_its_own() {
        let lab = Lab::for_tests();
        let dir = scratch("slots");
        let workshop = stand_in_cargo(&dir, Some(&dir.join("rendezvous")));
        let done = std::sync::Mutex::new(Vec::new());
        let jobs = vec![stand_in_job(&dir, "alpha"), stand_in_job(&dir, "beta")];
        workshop.build(&lab, jobs, &|name| done.lock().unwrap().push(name.to_string())).unwrap();
        assert_eq!(reported(&dir.join("alpha/prunelab")), ["alpha"]);
        assert_eq!(reported(&dir.join("beta/prunelab")), ["beta"]);
        assert_eq!(reported(&dir.join("cargo/labtest/prunelab")), ["alpha"]);
        assert_eq!(reported(&dir.join("cargo-1/labtest/prunelab")), ["beta"]);
        let mut done = done.into_inner().unwrap();
        done.sort();
        assert_eq!(done, ["alpha", "beta"]);
        // Each slot lists its build, so the next command sends it back there.
        let built = slots::recorded(&workshop.slots);
        assert_eq!(built.get("labtest\talpha\t"), Some(&0));
        assert_eq!(built.get("labtest\tbeta\t"), Some(&1));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_build_is_named_and_the_other_binary_is_whole() {
        let lab = Lab::for_tests();
        let dir = scratch("failed");
        // Both builds start before the broken one fails: a failure stops
        // only the builds not yet started.
        let workshop = stand_in_cargo(&dir, Some(&dir.join("rendezvous")));
        let jobs = vec![stand_in_job(&dir, "alpha"), stand_in_job(&dir, "broken")];
        let error = format!("{:#}", workshop.build(&lab, jobs, &|_| ()).unwrap_err());
        assert!(
            error.starts_with(
                "building `broken` (features: broken) failed; cargo said:\nerror[E0425]: cannot find value in broken"
            ),
            "{error}"
        );
        assert!(!error.contains("alpha"), "{error}");
        assert_eq!(reported(&dir.join("alpha/prunelab")), ["alpha"]);
        // No binary, and no half copy, where the failed build's would go.
        assert_eq!(std::fs::read_dir(dir.join("broken")).unwrap().count(), 0);
        // Two failures at once: both named, in the command's order.
        let second = dir.join("second");
        std::fs::create_dir_all(second.join("rendezvous")).unwrap();
        let workshop = stand_in_cargo(&second, Some(&second.join("rendezvous")));
        let jobs = vec![stand_in_job(&dir, "broken-a"), stand_in_job(&dir, "broken-b")];
        let error = format!("{:#}", workshop.build(&lab, jobs, &|_| ()).unwrap_err());
        assert!(error.starts_with("2 builds failed:\nbuilding `broken-a` (features: broken-a) failed"), "{error}");
        assert!(error.contains("\nbuilding `broken-b` (features: broken-b) failed"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_executable_comes_from_cargo_messages() {
        let messages = concat!(
            "{\"reason\":\"compiler-artifact\",\"target\":{\"name\":\"cozy-chess\"},\"executable\":null}\n",
            "not json\n",
            "{\"reason\":\"compiler-artifact\",\"target\":{\"name\":\"prunelab\"},\"executable\":\"/t/release/prunelab\"}\n",
            "{\"reason\":\"build-finished\",\"success\":true}\n"
        );
        assert_eq!(executable_from_messages(messages.as_bytes()), Some(PathBuf::from("/t/release/prunelab")));
        assert_eq!(executable_from_messages(b"{\"reason\":\"build-finished\"}"), None);
    }
}
