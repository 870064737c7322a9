//! Who takes part in a run: a variant of this repository, which the lab
//! builds with exactly its features, or any UCI engine binary, written
//! `uci:PATH` (`uci:/usr/games/stockfish`), so a variant can be measured
//! beside another engine. A UCI engine is run as it is: it is not built,
//! and no claim is judged for it; when it offers a `SearchStats` option
//! (as SeaJay, the plans' engine, does) it is switched on, and the plans'
//! telemetry lines it prints are read like a variant's.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::engines::builder;
use crate::engines::engine::Engine;
use crate::lab::Lab;

/// What marks an engine binary among variant names.
pub const UCI_PREFIX: &str = "uci:";

/// A participant as the command line names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Participant {
    /// A variant of `variants/`, by name.
    Variant(String),
    /// A UCI engine binary, by path as given.
    Uci(PathBuf),
}

impl Participant {
    /// Reads `uci:PATH` or a variant name; an empty path is an error.
    pub fn parse(spec: &str) -> Result<Participant> {
        match spec.strip_prefix(UCI_PREFIX) {
            Some("") => bail!("`{spec}`: give the engine binary's path after `uci:`, e.g. uci:/usr/games/stockfish"),
            Some(path) => Ok(Participant::Uci(PathBuf::from(path))),
            None => Ok(Participant::Variant(spec.to_string())),
        }
    }
}

/// Checks a participant without running anything: a variant must exist, a
/// UCI engine's file must.
pub fn check(lab: &Lab, spec: &str) -> Result<Participant> {
    let participant = Participant::parse(spec)?;
    match &participant {
        Participant::Variant(name) => {
            lab.variant(name)?;
        }
        Participant::Uci(path) => {
            engine_file(lab, spec, path)?;
        }
    }
    Ok(participant)
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

/// Starts `binary` and completes the UCI handshake (`uci` … `uciok`, then
/// `isready` … `readyok`), so an engine that is not one fails here with a
/// clear error instead of in every search.
pub fn handshake(binary: &Path, spec: &str) -> Result<String> {
    let mut engine = Engine::start(binary, spec).with_context(|| format!("`{spec}` failed the UCI handshake"))?;
    engine.sync().with_context(|| format!("`{spec}` failed the UCI handshake"))?;
    Ok(engine.id_name().to_string())
}

/// The participant's binary: a variant's build (made if needed), or the UCI
/// engine's file once it has passed the handshake.
pub fn binary(lab: &Lab, spec: &str) -> Result<PathBuf> {
    match check(lab, spec)? {
        Participant::Variant(name) => builder::ensure_built(lab, &name),
        Participant::Uci(path) => {
            let file = engine_file(lab, spec, &path)?;
            handshake(&file, spec)?;
            Ok(file)
        }
    }
}

/// Every participant's binary, in order, with a progress bar.
pub fn binaries(lab: &Lab, specs: &[String]) -> Result<Vec<PathBuf>> {
    for spec in specs {
        check(lab, spec)?;
    }
    let bar = lab.progress(specs.len() as u64, "building");
    let mut paths = Vec::new();
    for spec in specs {
        bar.set_message(format!("preparing {spec}"));
        let path = binary(lab, spec);
        bar.inc(1);
        paths.push(path.inspect_err(|_| bar.abandon())?);
    }
    bar.finish_and_clear();
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_scripts::script;

    #[test]
    fn uci_specs_parse_and_variant_names_pass_through() {
        assert_eq!(Participant::parse("razor-r1").unwrap(), Participant::Variant("razor-r1".into()));
        assert_eq!(
            Participant::parse("uci:/usr/games/stockfish").unwrap(),
            Participant::Uci(PathBuf::from("/usr/games/stockfish"))
        );
        let empty = Participant::parse("uci:").unwrap_err().to_string();
        assert!(empty.contains("give the engine binary's path"), "{empty}");
    }

    #[test]
    fn an_engine_that_is_not_uci_fails_the_handshake_by_name() {
        let dir = std::env::temp_dir().join(format!("prunelab-participant-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Exits at once, as a program that is not an engine would.
        let quitter = script(&dir, "quitter.sh", "echo 'usage: quitter FILE'; exit 2");
        let error = format!("{:#}", handshake(&quitter, "uci:quitter.sh").unwrap_err());
        assert!(error.contains("`uci:quitter.sh` failed the UCI handshake"), "{error}");
        assert!(error.contains("the engine process exited"), "{error}");
        // A minimal engine: answers `uci` and `isready`, and names itself.
        let engine = script(
            &dir,
            "engine.sh",
            "while read line; do case \"$line\" in uci) echo 'id name Tiny 1'; echo uciok;; \
             isready) echo readyok;; quit) exit 0;; esac; done",
        );
        assert_eq!(handshake(&engine, "uci:engine.sh").unwrap(), "Tiny 1");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
