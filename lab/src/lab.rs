//! What every command shares: the repository (or, outside one, the lab's
//! home: `outside`), its variants, the results folder, and how to report
//! progress.

pub mod options;
pub mod outside;
pub mod table;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{anyhow, bail, Result};
use clap::Args;
use games::session::Session;
use indicatif::ProgressBar;
use prunelab::variants::{self, Variant};

use crate::variants::ablations;
use crate::variants::external::{self, External};

#[derive(Args, Clone, Debug)]
pub struct GlobalArgs {
    /// No progress bars or running lines (results are still written).
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// Print the result as JSON on stdout, for scripts.
    #[arg(long, global = true)]
    pub json: bool,
    /// The folder runs write their results to.
    #[arg(long, global = true, default_value = "lab-results", value_name = "DIR")]
    pub results: PathBuf,
    /// The binary of another engine whose variants (lab/other-engines/<folder>/) take part: NAME=PATH; else the environment's PRUNELAB_ENGINE_<NAME>
    // Not `engines`: `lab ttd`'s positional argument has that id.
    #[arg(long = "engine-path", global = true, value_name = "NAME=PATH")]
    pub engine_paths: Vec<String>,
    /// Search this repository's variants with this variants build (`make`'s binary, every variant's search in one, its UCI option Variant choosing it) instead of building each one's features: the node counts are the same, the times that binary's. Ablations are still built
    #[arg(long, global = true, env = "PRUNELAB_LAB_VARIANTS_BUILD", value_name = "PATH")]
    pub variants_build: Option<PathBuf>,
}

/// The repository the lab works in, or outside one its home.
pub struct Lab {
    /// The repository; outside one, the lab's home (`outside::home`), which
    /// holds its data folder and its builds of other engines.
    pub root: PathBuf,
    /// Whether `root` is a prunelab repository, whose variants the lab builds.
    pub in_repository: bool,
    /// This repository's variants, which the lab builds.
    pub variants: Vec<Variant>,
    /// Variants of other engines (`lab/other-engines/<folder>/`), run by their options.
    pub externals: Vec<External>,
    pub global: GlobalArgs,
    /// The ablations (`full-without-razoring`) looked up so far: variants
    /// without a file, each made once when first named, shared with the
    /// nested labs. They are leaked to lend them out as any variant is (a
    /// few a run, alive as long as the lab in any case).
    ablations: Arc<Mutex<Vec<&'static Variant>>>,
    /// The `uci:` sides named so far, each as a variant of no file; leaked
    /// as the ablations are.
    uci_sides: Arc<Mutex<Vec<&'static External>>>,
}

/// A participant resolved once, where a command starts (its door), and
/// handed on: the variant, and the other engine it is a variant of where it
/// is not ours.
#[derive(Clone, Copy, Debug)]
pub struct Side<'a> {
    pub variant: &'a Variant,
    pub external: Option<&'a External>,
}

impl<'a> Side<'a> {
    /// The variant `name` names, ours or another engine's, or the engine a
    /// `uci:PATH[@Name=value...]` names; an unknown name is an error.
    pub fn of(lab: &'a Lab, name: &str) -> Result<Side<'a>> {
        if name.starts_with(external::UCI_PREFIX) {
            let external = lab.uci_side(name)?;
            return Ok(Side { variant: &external.variant, external: Some(external) });
        }
        Ok(Side { variant: lab.variant(name)?, external: lab.external(name) })
    }

    pub fn name(&self) -> &'a str {
        self.variant.name()
    }
}

/// What a verdict or a blame compares: the subject (B) against the
/// reference (A).
#[derive(Clone, Copy, Debug)]
pub struct Pair<'a> {
    pub reference: Side<'a>,
    pub subject: Side<'a>,
}

impl<'a> Pair<'a> {
    /// B against A, both resolved.
    pub fn of(lab: &'a Lab, a: &str, b: &str) -> Result<Pair<'a>> {
        Ok(Pair { reference: Side::of(lab, a)?, subject: Side::of(lab, b)? })
    }

    /// (A's name, B's name).
    pub fn names(&self) -> (&'a str, &'a str) {
        (self.reference.name(), self.subject.name())
    }

    /// The features of A and B that differ, implications included: `+x`
    /// for each only B has, then `-y` for each only A has, in catalogue order.
    pub fn feature_difference(&self) -> Vec<String> {
        let (a, b) = (&self.reference.variant.features, &self.subject.variant.features);
        let added = b.iter().filter(|feature| !a.contains(feature)).map(|feature| format!("+{feature}"));
        let removed = a.iter().filter(|feature| !b.contains(feature)).map(|feature| format!("-{feature}"));
        added.chain(removed).collect()
    }

    /// Whether A is B's parent: B's claims are about that pair.
    pub fn against_parent(&self) -> bool {
        self.subject.variant.file.extends.as_deref() == Some(self.reference.name())
    }
}

/// The repository: the nearest folder upwards with `variants/` and a
/// `Cargo.toml`, from the current directory; `None` outside one.
fn find_root() -> Result<Option<PathBuf>> {
    let start = std::env::current_dir()?;
    Ok(start
        .ancestors()
        .find(|dir| dir.join("variants").is_dir() && dir.join("Cargo.toml").is_file())
        .map(Path::to_path_buf))
}

impl Lab {
    /// The lab of the repository around the current folder; outside one,
    /// the lab of other engines alone, at home in `outside::home`.
    pub fn open(global: GlobalArgs) -> Result<Lab> {
        let variants = variants::load()?;
        crate::variants::grammar::check_plans(&variants)?;
        let (root, in_repository, externals) = match find_root()? {
            Some(root) => {
                variants::check_up_to_date(&root)?;
                let externals = external::load(&root, &variants)?;
                (root, true, externals)
            }
            None => {
                let home = outside::home()?;
                outside::unpack_data(&home)?;
                let here = std::env::current_dir()?;
                let externals = external::load_folder(&here, &here.join(outside::OTHER_ENGINES), &variants)?;
                (home, false, externals)
            }
        };
        Ok(Lab {
            root,
            in_repository,
            variants,
            externals,
            global,
            ablations: Arc::default(),
            uci_sides: Arc::default(),
        })
    }

    /// The repository's lab, quiet, as the unit tests open it.
    #[cfg(test)]
    pub fn for_tests() -> Lab {
        let global = GlobalArgs {
            quiet: true,
            json: false,
            results: PathBuf::from("lab-results"),
            engine_paths: Vec::new(),
            variants_build: None,
        };
        Lab::open(global).expect("the tests run inside the repository")
    }

    /// The same repository with its results under `dir`: where a command
    /// made of steps (`lab ab`, `lab chain`) keeps its steps' runs, inside
    /// its own run folder.
    pub fn nested(&self, dir: &Path) -> Lab {
        let global = GlobalArgs { results: dir.to_path_buf(), ..self.global.clone() };
        Lab {
            root: self.root.clone(),
            in_repository: self.in_repository,
            variants: self.variants.clone(),
            externals: self.externals.clone(),
            global,
            ablations: Arc::clone(&self.ablations),
            uci_sides: Arc::clone(&self.uci_sides),
        }
    }

    /// A variant by name: one of ours, or another engine's (whose file is
    /// read as ours are, its claims judged alike).
    pub fn variant(&self, name: &str) -> Result<&Variant> {
        match self.external(name) {
            Some(external) => Ok(&external.variant),
            None => self.own_or_ablation(name).map_err(|error| match self.externals.is_empty() {
                true => error,
                false => {
                    let theirs: Vec<&str> = self.externals.iter().map(External::name).collect();
                    anyhow!("{error}; other engines' variants: {}", theirs.join(", "))
                }
            }),
        }
    }

    /// One of this repository's variants, which the lab builds; another
    /// engine's variant is refused, saying why, and so is any of ours
    /// outside the repository, where it cannot be built.
    pub fn own_variant(&self, name: &str) -> Result<&Variant> {
        if !self.in_repository {
            bail!(
                "`{name}`: prunelab's variants are built from its repository, and {} is not inside one; here the lab \
                 measures UCI engines (`uci:PATH[@Name=value...]`) and the variants of other engines in ./{}/",
                std::env::current_dir()
                    .map_or_else(|_| "the current folder".to_string(), |dir| dir.display().to_string()),
                outside::OTHER_ENGINES
            );
        }
        if let Some(external) = self.external(name) {
            bail!(
                "`{name}` is a variant of engine `{}` ({}): it is not built from this repository, so it has no \
                 build or features here; `lab ab`, `lab chain`, `lab nodes`, `lab ttd`, `lab tactics`, `lab match` \
                 and `lab openbench` run it by its options",
                external.engine,
                external.path
            );
        }
        self.own_or_ablation(name)
    }

    /// A variant file of this repository's, or an ablation of one
    /// (`full-without-razoring`: `full` without razoring, its parent `full`).
    fn own_or_ablation(&self, name: &str) -> Result<&Variant> {
        variants::find(&self.variants, name).or_else(|error| self.ablation(name).ok_or(error))
    }

    /// The ablation `name` names, if it names one.
    pub fn ablation(&self, name: &str) -> Option<&Variant> {
        let mut known = self.ablations.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(variant) = known.iter().find(|variant| variant.name() == name) {
            return Some(*variant);
        }
        let variant: &'static Variant = Box::leak(Box::new(ablations::variant(&self.variants, name)?));
        known.push(variant);
        Some(variant)
    }

    /// The file a variant is read from, from the repository root; for a
    /// `uci:` side, which no file holds, its spec.
    pub fn variant_file(&self, name: &str) -> String {
        if name.starts_with(external::UCI_PREFIX) {
            return name.to_string();
        }
        self.external(name).map_or_else(|| format!("variants/{name}.toml"), |external| external.path.clone())
    }

    /// Another engine's variant by name.
    pub fn external(&self, name: &str) -> Option<&External> {
        self.externals.iter().find(|external| external.name() == name)
    }

    /// The side `uci:PATH[@Name=value...]` names, as a variant of no file
    /// (`External::uci`); a malformed spec or a path that is no file is an
    /// error.
    pub fn uci_side(&self, spec: &str) -> Result<&'static External> {
        let mut known = self.uci_sides.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(side) = known.iter().find(|side| side.name() == spec) {
            return Ok(side);
        }
        let Some((path, settings)) = external::parse_uci(spec)? else {
            bail!("`{spec}` is not a `uci:PATH` engine");
        };
        let binary = self.resolve(&path);
        if !binary.is_file() {
            bail!(
                "`{spec}`: {} is not a file (give an engine binary, e.g. uci:/usr/games/stockfish)",
                binary.display()
            );
        }
        let side: &'static External = Box::leak(Box::new(External::uci(spec, binary, settings)));
        known.push(side);
        Ok(side)
    }

    /// Every variant, ours then the other engines', each resolved.
    pub fn every_side(&self) -> Vec<Side<'_>> {
        let ours = self.variants.iter().map(|variant| Side { variant, external: None });
        let theirs =
            self.externals.iter().map(|external| Side { variant: &external.variant, external: Some(external) });
        ours.chain(theirs).collect()
    }

    /// Every variant, ours then the other engines', for following `extends`.
    pub fn every_variant(&self) -> Vec<Variant> {
        self.variants.iter().cloned().chain(self.externals.iter().map(|external| external.variant.clone())).collect()
    }

    /// Where engine `engine`'s binary was given, and how: `--engine-path
    /// NAME=PATH`, else `PRUNELAB_ENGINE_<NAME>`; `None` when neither names
    /// it. A malformed `--engine-path` is an error.
    pub fn engine_path(&self, engine: &str) -> Result<Option<(String, PathBuf)>> {
        let mut given = None;
        for entry in &self.global.engine_paths {
            let Some((name, path)) = entry.split_once('=') else {
                bail!("--engine-path {entry}: expected NAME=PATH, e.g. --engine-path {engine}=/usr/local/bin/{engine}")
            };
            if name == engine {
                given = Some((format!("--engine-path {entry}"), self.resolve(Path::new(path))));
            }
        }
        if given.is_none() {
            let variable = external::environment_variable(engine);
            if let Some(path) = std::env::var_os(&variable).filter(|value| !value.is_empty()) {
                given = Some((variable, self.resolve(Path::new(&path))));
            }
        }
        Ok(given)
    }

    /// The binary of engine `engine` ([`Lab::engine_path`]); it must be a file.
    pub fn engine_binary(&self, engine: &str, variant: &str) -> Result<PathBuf> {
        let Some((source, resolved)) = self.engine_path(engine)? else {
            bail!(
                "variant `{variant}` runs engine `{engine}`: give its binary with --engine-path {engine}=PATH or {}=PATH",
                external::environment_variable(engine)
            )
        };
        if !resolved.is_file() {
            bail!("{source}: {} is not a file (engine `{engine}`, for variant `{variant}`)", resolved.display());
        }
        Ok(resolved)
    }

    /// The results folder, relative paths taken from the repository root
    /// (outside one, from the current folder).
    pub fn results_root(&self) -> PathBuf {
        if self.global.results.is_absolute() {
            self.global.results.clone()
        } else if self.in_repository {
            self.root.join(&self.global.results)
        } else {
            std::env::current_dir().unwrap_or_default().join(&self.global.results)
        }
    }

    /// Cargo's target folder, shared with normal builds.
    pub fn target_dir(&self) -> PathBuf {
        match std::env::var_os("CARGO_TARGET_DIR") {
            Some(dir) => {
                let dir = PathBuf::from(dir);
                if dir.is_absolute() {
                    dir
                } else {
                    self.root.join(dir)
                }
            }
            None => self.root.join("target"),
        }
    }

    /// Where the games crate's commands run: this repository, its results
    /// folder, and the global options' quiet and JSON modes.
    pub fn session(&self) -> Session {
        Session {
            root: self.root.clone(),
            results_root: self.results_root(),
            quiet: self.global.quiet,
            json: self.global.json,
        }
    }

    /// A path given on the command line, for messages and opening.
    pub fn resolve(&self, path: &Path) -> PathBuf {
        self.session().resolve(path)
    }

    /// A progress bar with ETA, hidden in quiet or JSON mode.
    pub fn progress(&self, length: u64, message: &str) -> ProgressBar {
        self.session().progress(length, message)
    }

    /// A line for the user (stderr, so `--json` output stays clean).
    pub fn say(&self, text: &str) {
        self.session().say(text)
    }

    /// A line for the user, above the progress bar while it shows.
    pub fn say_above(&self, bar: &ProgressBar, text: &str) {
        self.session().say_above(bar, text)
    }
}
