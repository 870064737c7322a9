//! Who takes part in a run: a variant of this repository, which the lab
//! builds with exactly its features; any UCI engine binary, written
//! `uci:PATH` (`uci:/usr/games/stockfish`), so a variant can be measured
//! beside another engine; or a variant of another engine (an option set of
//! it, in `lab/other-engines/<folder>/`). A UCI engine is run as it is: it is not
//! built, and no claim is judged for it; when it offers a `SearchStats`
//! option (as SeaJay, the plans' engine, does) it is switched on, and the
//! plans' telemetry lines it prints are read like a variant's.
//!
//! A `uci:` engine may carry UCI options after an `@`:
//! `uci:/usr/local/bin/seajay@UseRazoring=false,RazorMargin1=300`. `@`, `,`
//! and `=` need no quotes in bash, zsh or fish (a `?` is a glob there), and
//! `%`-escapes write what they cannot (`%20` a space, `%2C` a comma, `%40`
//! an at sign). The spec is the participant's name in tables and result
//! files, so two option sets of one binary are two participants.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use games::engine::{Engine, Launch};
use games::matches::MatchArgs;
use games::uci_options::Setting;

use crate::engines::builder;
use crate::engines::commits::{self, CommitBuild};
use crate::lab::Lab;
use crate::variants::external::{self, External};

pub use crate::variants::external::{OPTIONS_SEPARATOR, UCI_PREFIX};

/// A participant as the command line names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Participant {
    /// A variant by name: of `variants/`, or of another engine.
    Variant(String),
    /// A UCI engine binary, by path as given, with the options to set.
    Uci { path: PathBuf, settings: Vec<Setting> },
}

impl Participant {
    /// Reads `uci:PATH`, `uci:PATH@Name=value,...` or a variant name; an
    /// empty path or a malformed option is an error.
    pub fn parse(spec: &str) -> Result<Participant> {
        Ok(match external::parse_uci(spec)? {
            Some((path, settings)) => Participant::Uci { path, settings },
            None => Participant::Variant(spec.to_string()),
        })
    }
}

/// Checks a participant: a variant of ours must exist; a UCI engine (a
/// `uci:` one, or the engine of another engine's variant) must be a file,
/// pass the UCI handshake and offer every option it is given with a value
/// it takes. Returns how to start it, for a UCI engine; `None` for a variant of ours.
pub fn check(lab: &Lab, spec: &str) -> Result<Option<Launch>> {
    let launch = match Participant::parse(spec)? {
        Participant::Variant(name) => match lab.external(&name) {
            None => {
                lab.variant(&name)?;
                return Ok(None);
            }
            Some(external) => Launch { binary: external_binary(lab, external)?, settings: external.settings.clone() },
        },
        Participant::Uci { path, settings } => Launch { binary: engine_file(lab, spec, &path)?, settings },
    };
    handshake(&launch, spec)?;
    Ok(Some(launch))
}

/// The binary of another engine's variant: the one `--engine-path` (or the
/// environment) gives for its engine, else its commit built from its
/// repository (`commits`).
pub fn external_binary(lab: &Lab, external: &External) -> Result<PathBuf> {
    if let Some(binary) = &external.binary {
        return Ok(binary.clone());
    }
    let (engine, name) = (external.engine.as_str(), external.name());
    if lab.engine_path(engine)?.is_some() {
        return lab.engine_binary(engine, name);
    }
    match (&external.repository, &external.commit) {
        (Some(repository), Some(commit)) => {
            commits::binary(lab, &CommitBuild { engine, repository, commit, build: &external.build })
        }
        _ => bail!(
            "variant `{name}` runs engine `{engine}`: give its binary with --engine-path {engine}=PATH or {}=PATH, \
             or its `repository` and `commit` in {} or a parent's file (the lab then builds that commit)",
            external::environment_variable(engine),
            external.path
        ),
    }
}

/// Refuses one binary for an engine whose variants in this run are at
/// several commits: `--engine-path` names one binary, which cannot be
/// both; without it each commit is built.
fn refuse_one_binary_for_several_commits(lab: &Lab, specs: &[String]) -> Result<()> {
    let externals: Vec<&External> = specs.iter().filter_map(|spec| lab.external(spec)).collect();
    for external in &externals {
        let Some((given, _)) = lab.engine_path(&external.engine)? else { continue };
        let mut commits: Vec<(Option<&str>, &str)> = Vec::new();
        for other in externals.iter().filter(|other| other.engine == external.engine) {
            if !commits.iter().any(|(commit, _)| *commit == other.commit.as_deref()) {
                commits.push((other.commit.as_deref(), other.name()));
            }
        }
        if commits.len() > 1 {
            bail!(
                "{given} gives one binary for engine `{}`, whose variants here are at {} commits ({}): leave it out, \
                 and the lab builds each commit from the engine's repository",
                external.engine,
                commits.len(),
                commits
                    .iter()
                    .map(|(commit, name)| format!("`{name}` at {}", commit.unwrap_or("none")))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    Ok(())
}

/// Variant `name` of ours as `--variants-build` searches it: that binary
/// with `Variant=name`, once its self-report says it was built from this
/// lab's `variants/` folder and has the variant's search. `None` without
/// the option, and for an ablation, which no variants build has: it is built.
fn by_variants_build(lab: &Lab, name: &str) -> Result<Option<Launch>> {
    let Some(path) = &lab.global.variants_build else { return Ok(None) };
    if lab.ablation(name).is_some() {
        return Ok(None);
    }
    let binary = lab.resolve(path);
    if !binary.is_file() {
        bail!("--variants-build {}: no such file (`make` builds the variants build)", binary.display());
    }
    let report = builder::self_report(&binary).with_context(|| format!("--variants-build {}", binary.display()))?;
    if report.selectable.is_empty() {
        bail!(
            "--variants-build {}: a build of one feature set, not the variants build (`make` builds it)",
            binary.display()
        );
    }
    if report.variants_digest != Some(prunelab::variants::SOURCES_DIGEST) {
        bail!(
            "--variants-build {}: built from another variants/ folder than this lab's; rebuild it (`make`)",
            binary.display()
        );
    }
    if !report.selectable.iter().any(|selectable| selectable == name) {
        bail!("--variants-build {}: has no search for `{name}`", binary.display());
    }
    say_once(name, &binary);
    Ok(Some(Launch { binary, settings: vec![Setting { name: "Variant".into(), value: name.into() }] }))
}

/// A feature set as `--variants-build` searches it: that binary set to the
/// variant of ours whose features are exactly `features` (in any order) and
/// which has no tunable values, since the variants build searches that
/// variant as a build of those features would. `None` without the option,
/// or when no variant has the set: it is built.
pub fn feature_set_by_variants_build(lab: &Lab, features: &[&str]) -> Result<Option<Launch>> {
    if lab.global.variants_build.is_none() {
        return Ok(None);
    }
    let mut wanted = features.to_vec();
    wanted.sort_unstable();
    let same_search = lab.variants.iter().find(|variant| {
        let mut has = variant.features.clone();
        has.sort_unstable();
        has == wanted && variant.tunables.is_empty()
    });
    match same_search {
        Some(variant) => by_variants_build(lab, variant.name()),
        None => Ok(None),
    }
}

/// Says which binary searches `name`, once a run: its times are that
/// binary's, not those of a build of the variant's features.
fn say_once(name: &str, binary: &Path) {
    static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut said = SAID.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if !said.iter().any(|known| known == name) {
        said.push(name.to_string());
        eprintln!(
            "lab: `{name}` is searched by the variants build {} (--variants-build, Variant={name}): its times are that binary's",
            binary.display()
        );
    }
}

/// The engine file of `uci:PATH`: the path from the current folder, else
/// from the repository.
fn engine_file(lab: &Lab, spec: &str, path: &Path) -> Result<PathBuf> {
    let resolved = lab.resolve(path);
    if !resolved.is_file() {
        bail!("`{spec}`: {} is not a file (give an engine binary, e.g. uci:/usr/games/stockfish)", resolved.display());
    }
    Ok(resolved)
}

/// Starts the engine, completes the UCI handshake (`uci` … `uciok`, then
/// `isready` … `readyok`) and sets its options once each is checked against
/// what the engine offers, so an engine that is not one, or an option it
/// does not take, fails here with a clear error instead of in every search.
pub fn handshake(launch: &Launch, spec: &str) -> Result<String> {
    let failed = || format!("`{spec}` failed the UCI handshake");
    let mut engine = Engine::start(&launch.binary, spec).with_context(failed)?;
    engine.sync().with_context(failed)?;
    engine.apply(&launch.settings)?;
    Ok(engine.id_name().to_string())
}

/// How to start the participant: a variant's build (made if needed) or the
/// variants build `--variants-build` names, or the UCI engine with its
/// options once it has passed the handshake.
pub fn launch(lab: &Lab, spec: &str) -> Result<Launch> {
    match check(lab, spec)? {
        Some(launch) => Ok(launch),
        None => match by_variants_build(lab, spec)? {
            Some(launch) => Ok(launch),
            None => builder::ensure_built(lab, spec).map(Launch::from),
        },
    }
}

/// Every participant's launch, in order; every one is checked before any is
/// built, and the variants are built at the same time (`builder::build_all`).
pub fn launches(lab: &Lab, specs: &[String]) -> Result<Vec<Launch>> {
    refuse_one_binary_for_several_commits(lab, specs)?;
    let mut checked = Vec::new();
    for spec in specs {
        checked.push(match check(lab, spec)? {
            Some(launch) => Some(launch),
            None => by_variants_build(lab, spec)?,
        });
    }
    let variants: Vec<String> =
        specs.iter().zip(&checked).filter(|(_, checked)| checked.is_none()).map(|(spec, _)| spec.clone()).collect();
    let mut built = builder::build_all(lab, &variants)?.into_iter();
    Ok(checked
        .into_iter()
        .map(|checked| checked.unwrap_or_else(|| built.next().expect("a build each").into()))
        .collect())
}

/// How to start `name`: `--binary NAME=PATH`, else the variant's build, or
/// the engine of `uci:PATH` (or of another engine's variant) with its
/// options once it has passed the UCI handshake.
pub fn engine_binary(lab: &Lab, args: &MatchArgs, name: &str) -> Result<Launch> {
    match args.binary_override(name)? {
        Some(path) => {
            let path = lab.resolve(&path);
            if !path.is_file() {
                bail!("--binary {name}={}: no such file", path.display());
            }
            Ok(Launch::from(path))
        }
        None => launch(lab, name),
    }
}

#[cfg(test)]
mod tests {
    use games::uci_options;
    use test_support::script;

    use super::*;

    #[test]
    fn uci_specs_parse_and_variant_names_pass_through() {
        assert_eq!(Participant::parse("razor-r1").unwrap(), Participant::Variant("razor-r1".into()));
        assert_eq!(
            Participant::parse("uci:/usr/games/stockfish").unwrap(),
            Participant::Uci { path: PathBuf::from("/usr/games/stockfish"), settings: Vec::new() }
        );
        assert_eq!(
            Participant::parse("uci:/e/sea%40jay@UseRazoring=false,Move%20Overhead=30").unwrap(),
            Participant::Uci {
                path: PathBuf::from("/e/sea@jay"),
                settings: uci_options::parse_settings("UseRazoring=false,Move%20Overhead=30").unwrap()
            }
        );
        let bad = format!("{:#}", Participant::parse("uci:/e/x@UseRazoring").unwrap_err());
        assert!(bad.contains("`uci:/e/x@UseRazoring`: option `UseRazoring`: write Name=value"), "{bad}");
        let empty = Participant::parse("uci:").unwrap_err().to_string();
        assert!(empty.contains("give the engine binary's path"), "{empty}");
    }

    #[test]
    fn the_variants_build_searches_a_variant_it_was_built_for_and_nothing_else() {
        let dir = std::env::temp_dir().join(format!("prunelab-variants-build-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A stand-in's self-report (`features --json`), its digest and variants given.
        let stand_in = |name: &str, selectable: &str, digest: u64| {
            let report = format!(
                r#"{{"version":"0.1.0","variants":["baseline"],"features":[],"selectable":[{selectable}],"tunables":{{}},"variants_digest":{digest}}}"#
            );
            script(&dir, name, &format!("echo '{report}'"))
        };
        let digest = prunelab::variants::SOURCES_DIGEST;
        let mut lab = Lab::for_tests();
        let launch_with = |lab: &mut Lab, binary: PathBuf, name: &str| {
            lab.global.variants_build = Some(binary);
            by_variants_build(lab, name).map_err(|error| format!("{error:#}"))
        };

        let ours = stand_in("ours.sh", r#""baseline","razor-r1""#, digest);
        let launch = launch_with(&mut lab, ours.clone(), "razor-r1").unwrap().expect("the variants build's");
        assert_eq!(launch.binary, ours);
        assert_eq!(launch.settings, uci_options::parse_settings("Variant=razor-r1").unwrap());
        // An ablation has no search in any variants build: it is built.
        assert!(launch_with(&mut lab, ours, "full-without-razoring").unwrap().is_none());

        let error = launch_with(&mut lab, stand_in("stale.sh", r#""razor-r1""#, digest ^ 1), "razor-r1").unwrap_err();
        assert!(
            error.ends_with("stale.sh: built from another variants/ folder than this lab's; rebuild it (`make`)"),
            "{error}"
        );
        let error = launch_with(&mut lab, stand_in("one-set.sh", "", digest), "razor-r1").unwrap_err();
        assert!(
            error.ends_with("one-set.sh: a build of one feature set, not the variants build (`make` builds it)"),
            "{error}"
        );
        let error = launch_with(&mut lab, stand_in("some.sh", r#""baseline""#, digest), "razor-r1").unwrap_err();
        assert!(error.ends_with("some.sh: has no search for `razor-r1`"), "{error}");
        let error = launch_with(&mut lab, dir.join("missing"), "razor-r1").unwrap_err();
        assert!(error.ends_with("missing: no such file (`make` builds the variants build)"), "{error}");
        // Without the option every variant is built.
        lab.global.variants_build = None;
        assert!(by_variants_build(&lab, "razor-r1").unwrap().is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn one_binary_is_refused_for_variants_at_two_commits() {
        let mut lab = Lab::for_tests();
        let names = |names: &[&str]| names.iter().map(|name| name.to_string()).collect::<Vec<_>>();
        let pair = names(&["seajay-before-razoring", "seajay-razoring"]);
        // Without --engine-path each commit is built: nothing to refuse.
        assert!(refuse_one_binary_for_several_commits(&lab, &pair).is_ok());
        lab.global.engine_paths = vec!["seajay=/usr/local/bin/seajay".into()];
        let error = refuse_one_binary_for_several_commits(&lab, &pair).unwrap_err().to_string();
        assert_eq!(
            error,
            "--engine-path seajay=/usr/local/bin/seajay gives one binary for engine `seajay`, whose variants here are \
             at 2 commits (`seajay-before-razoring` at 62be8cad0e5c491f4bcec1cdaad3c6130d53786b, `seajay-razoring` at \
             5e63ca7ccd6adb80ceddeabb6b4886add2df7230): leave it out, and the lab builds each commit from the engine's \
             repository"
        );
        // Option sets of one commit share the binary.
        assert!(
            refuse_one_binary_for_several_commits(&lab, &names(&["seajay-razor-off", "seajay-razor-r1-r2"])).is_ok()
        );
    }

    #[test]
    fn an_engine_that_is_not_uci_fails_the_handshake_by_name() {
        let dir = std::env::temp_dir().join(format!("prunelab-participant-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Exits at once, as a program that is not an engine would.
        let quitter = script(&dir, "quitter.sh", "echo 'usage: quitter FILE'; exit 2");
        let error = format!("{:#}", handshake(&quitter.into(), "uci:quitter.sh").unwrap_err());
        assert!(error.contains("`uci:quitter.sh` failed the UCI handshake"), "{error}");
        assert!(error.contains("the engine process exited"), "{error}");
        // A minimal engine: answers `uci` and `isready`, and names itself.
        let engine = script(
            &dir,
            "engine.sh",
            "while read line; do case \"$line\" in uci) echo 'id name Tiny 1'; echo uciok;; \
             isready) echo readyok;; quit) exit 0;; esac; done",
        );
        assert_eq!(handshake(&engine.into(), "uci:engine.sh").unwrap(), "Tiny 1");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
