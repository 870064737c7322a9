//! Variants of another engine: a commit of a named UCI engine, an option
//! set of it, or both, in `lab/other-engines/<folder>/*.toml`. They are the
//! lab's alone: the engine's build, its matrix test and the CI scripts read
//! `variants/`, and a change here rebuilds no engine.
//!
//! ```toml
//! name = "seajay-p002-2.1"
//! engine = "seajay"             # the engine, the same in every file
//! extends = "seajay-p002-1.5"   # a variant of the same engine
//! mirrors = "p002-2.1"          # prunelab's variant of the same phase
//! source = "plan 002, phase 2.1"
//! repository = "https://github.com/namebrandon/seajay-chess"
//! commit = "1c64dbc4..."        # the engine at this commit; inherited
//!                               # along `extends`, as `repository` and
//! build = "make EXE={out}"      # `build` (this one the default) are
//!
//! [options]                     # UCI options, added to the parent's
//! UseFutilityPruning = true
//! FutilityMaxDepth = 4
//!
//! [expect]                      # claims and [sprt] as for ours
//! nodes_pct = [-10, -5]
//! ```
//!
//! A variant's binary is `--engine-path seajay=PATH` (or
//! PRUNELAB_ENGINE_SEAJAY=PATH) where one is given, else its commit built
//! from its repository (`crate::engines::commits`). The claims, `[sprt]` and
//! the other keys are read by the same parser as ours, so they are judged
//! the same way; the engine's options are checked against what it offers
//! when it starts, like any `uci:` participant's.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use games::uci_options::{self, Setting};
use prunelab::techniques::Techniques;
use prunelab::variants::{self, Value, Variant};
// The variant files' TOML reader, the one build.rs uses for ours.
use variant_file::read as read_variant_toml;

/// The keys a variant of another engine has beside those of ours.
const ENGINE_KEYS: [&str; 6] = ["engine", "options", "mirrors", "repository", "commit", "build"];

/// How a commit is built when no file says: as OpenBench's workers build
/// an engine, `make` with the binary's path in `EXE`.
pub const DEFAULT_BUILD: &str = "make EXE={out}";

/// What a build command names the binary's path by.
pub const OUT: &str = "{out}";

/// What marks an engine binary among variant names.
pub const UCI_PREFIX: &str = "uci:";

/// What separates a `uci:` engine's path from its options.
pub const OPTIONS_SEPARATOR: char = '@';

/// The path and options `uci:PATH`, `uci:PATH@Name=value,...` names (the
/// path `%`-decoded); `None` for a variant's name. An empty path or a
/// malformed option is an error.
pub fn parse_uci(spec: &str) -> Result<Option<(PathBuf, Vec<Setting>)>> {
    let Some(rest) = spec.strip_prefix(UCI_PREFIX) else { return Ok(None) };
    let (path, settings) = match rest.split_once(OPTIONS_SEPARATOR) {
        Some((path, options)) => (path, uci_options::parse_settings(options).with_context(|| format!("`{spec}`"))?),
        None => (rest, Vec::new()),
    };
    if path.is_empty() {
        bail!("`{spec}`: give the engine binary's path after `uci:`, e.g. uci:/usr/games/stockfish");
    }
    let path = percent_encoding::percent_decode_str(path).decode_utf8_lossy().into_owned();
    Ok(Some((PathBuf::from(path), settings)))
}

/// The environment variable giving engine `name`'s binary.
pub fn environment_variable(engine: &str) -> String {
    let name: String =
        engine.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_uppercase() } else { '_' }).collect();
    format!("PRUNELAB_ENGINE_{name}")
}

/// A variant of another engine, its parents resolved.
#[derive(Clone, Debug)]
pub struct External {
    /// Its file as ours are read (no features: the engine is not built here).
    pub variant: Variant,
    /// The engine's name, which names its binary.
    pub engine: String,
    /// Every option it sets, its parents' first, a later one replacing an
    /// earlier one of the same name.
    pub settings: Vec<Setting>,
    /// The options its own file sets.
    pub own: Vec<Setting>,
    /// Prunelab's variant of the same plan phase.
    pub mirrors: Option<String>,
    /// The engine's sources (a URL, or a local clone's absolute path) and
    /// the commit the variant is: its own file's, else its nearest
    /// parent's.
    pub repository: Option<String>,
    pub commit: Option<String>,
    /// How a commit is built, `{out}` the binary's path: its nearest
    /// file's `build`, else [`DEFAULT_BUILD`].
    pub build: String,
    /// Relative to the repository: `lab/other-engines/seajay/seajay-p002-2.1.toml`.
    pub path: String,
    /// The binary a `uci:PATH` side names; `None` for a variant file's
    /// engine, whose binary is given (`--engine-path`) or built.
    pub binary: Option<PathBuf>,
}

impl External {
    pub fn name(&self) -> &str {
        self.variant.name()
    }

    /// A `uci:PATH[@Name=value...]` side as a variant of no file: the
    /// binary, its options, no parent and no claims. `spec` names it.
    pub fn uci(spec: &str, binary: PathBuf, settings: Vec<Setting>) -> External {
        let file = variants::VariantFile {
            name: spec.to_string(),
            description: format!("the UCI engine {}", binary.display()),
            extends: None,
            features: Vec::new(),
            source: "the command line".to_string(),
            tunables: Vec::new(),
            sections: Vec::new(),
        };
        External {
            variant: Variant { file, features: Vec::new(), techniques: Techniques::BASELINE, tunables: Vec::new() },
            engine: binary.display().to_string(),
            own: settings.clone(),
            settings,
            mirrors: None,
            repository: None,
            commit: None,
            build: DEFAULT_BUILD.to_string(),
            path: spec.to_string(),
            binary: Some(binary),
        }
    }

    /// What a verdict's heading says the variant adds and is: `adds
    /// options UseRazoring=true; engine `seajay` at commit 5e63ca7c with
    /// UseRazoring=true`.
    pub fn heading_words(&self) -> String {
        let own: Vec<String> = self.own.iter().map(ToString::to_string).collect();
        match (&self.binary, own.is_empty()) {
            (Some(_), _) => self.describe(),
            (None, true) => format!("adds no options; {}", self.describe()),
            (None, false) => format!("adds options {}; {}", own.join(" "), self.describe()),
        }
    }

    /// What the engine is: `engine `seajay` at commit 5e63ca7c with
    /// UseRazoring=true`, or `the binary PATH with its default options`.
    pub fn describe(&self) -> String {
        let options: Vec<String> = self.settings.iter().map(ToString::to_string).collect();
        let options = if options.is_empty() { "its default options".to_string() } else { options.join(" ") };
        match (&self.binary, &self.commit) {
            (Some(binary), _) => format!("the binary {} with {options}", binary.display()),
            (None, Some(commit)) => {
                format!("engine `{}` at commit {} with {options}", self.engine, &commit[..commit.len().min(8)])
            }
            (None, None) => format!("engine `{}` with {options}", self.engine),
        }
    }
}

/// One file before its parents are resolved.
struct ExternalFile {
    variant: Variant,
    engine: String,
    own: Vec<Setting>,
    mirrors: Option<String>,
    repository: Option<String>,
    commit: Option<String>,
    build: Option<String>,
    path: String,
}

/// A TOML scalar as an option's value.
fn option_value(value: &Value, what: &str) -> Result<String> {
    match value {
        Value::String(text) => Ok(text.clone()),
        Value::Integer(number) => Ok(number.to_string()),
        Value::Boolean(flag) => Ok(flag.to_string()),
        other => bail!("{what}: an option's value is a string, a whole number or true/false, found {}", other.kind()),
    }
}

fn string_key(entries: &[(String, Value)], key: &str) -> Result<Option<String>> {
    match entries.iter().find(|(name, _)| name == key) {
        None => Ok(None),
        Some((_, Value::String(text))) => Ok(Some(text.clone())),
        Some((_, other)) => bail!("`{key}` must be a string, found {}", other.kind()),
    }
}

/// Whether `repository` is an address git fetches from (`https://...`,
/// `git@host:owner/name`), not a folder on this machine.
pub fn is_remote(repository: &str) -> bool {
    repository.contains("://") || repository.split_once(':').is_some_and(|(host, _)| host.contains('@'))
}

/// `parse_file`'s `repository`: an address as it is, a local clone's path
/// from `folder` (the file's) when it is relative.
fn repository_from(repository: String, folder: &Path) -> String {
    if is_remote(&repository) || Path::new(&repository).is_absolute() {
        repository
    } else {
        folder.join(repository).display().to_string()
    }
}

fn parse_file(text: &str, path: &str, folder: &Path) -> Result<ExternalFile> {
    let table = read_variant_toml(text).map_err(|error| anyhow!("not valid TOML: {error}"))?;
    let Value::Table(entries) = table else { bail!("a variant file is a table of keys") };
    let engine = string_key(&entries, "engine")?
        .ok_or_else(|| anyhow!("missing `engine`: a file under a folder of variants/ is another engine's variant"))?;
    if engine.is_empty() {
        bail!("`engine` is empty");
    }
    let mirrors = string_key(&entries, "mirrors")?;
    let repository = string_key(&entries, "repository")?.map(|repository| repository_from(repository, folder));
    let commit = string_key(&entries, "commit")?;
    if commit.as_deref().is_some_and(|commit| commit.trim().is_empty() || commit.contains(char::is_whitespace)) {
        bail!("`commit` must name one commit (a hash, a tag or a branch), without spaces");
    }
    let build = string_key(&entries, "build")?;
    if let Some(build) = build.as_deref().filter(|build| !build.contains(OUT)) {
        bail!("`build` = \"{build}\" must name {OUT}, the path the lab wants the binary at, e.g. \"{DEFAULT_BUILD}\"");
    }
    let own = match entries.iter().find(|(name, _)| name == "options") {
        None => Vec::new(),
        Some((_, Value::Table(options))) => options
            .iter()
            .map(|(name, value)| {
                Ok(Setting { name: name.clone(), value: option_value(value, &format!("options.{name}"))? })
            })
            .collect::<Result<_>>()?,
        Some((_, other)) => bail!("`options` must be a table of UCI options, found {}", other.kind()),
    };
    if entries.iter().any(|(name, _)| name == "features") {
        bail!("`features`: a variant of engine `{engine}` sets its UCI `options`; features are prunelab's");
    }
    if entries.iter().any(|(name, _)| name == "witness") {
        bail!("`witness`: the matrix test checks prunelab's variants only");
    }
    let ours: Vec<(String, Value)> =
        entries.into_iter().filter(|(name, _)| !ENGINE_KEYS.contains(&name.as_str())).collect();
    let file = variants::parse_table(&Value::Table(ours))?;
    // Its claims and SPRT are checked here, as ours are when the lab opens.
    crate::variants::grammar::parse_plan(&file)?;
    if !file.tunables.is_empty() {
        bail!("`tunables`: a variant of engine `{engine}` sets its spin options in `options`; tunables are prunelab's");
    }
    let variant = Variant { file, features: Vec::new(), techniques: Techniques::BASELINE, tunables: Vec::new() };
    Ok(ExternalFile { variant, engine, own, mirrors, repository, commit, build, path: path.to_string() })
}

/// Where the variants of other engines live, from the repository root.
/// (Not `lab/variants`: the lab finds the repository as the folder with
/// `variants/` and `Cargo.toml`, which `lab/` would then be.)
pub const FOLDER: &str = "lab/other-engines";

/// The `*.toml` files of every folder under [`FOLDER`], in name order.
fn files(variants_dir: &Path) -> Result<Vec<PathBuf>> {
    let mut folders: Vec<PathBuf> = std::fs::read_dir(variants_dir)
        .with_context(|| format!("cannot read {}", variants_dir.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.is_dir())
        .collect();
    folders.sort();
    let mut paths = Vec::new();
    for folder in folders {
        let mut inside: Vec<PathBuf> = std::fs::read_dir(&folder)
            .with_context(|| format!("cannot read {}", folder.display()))?
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
            .collect();
        inside.sort();
        paths.extend(inside);
    }
    Ok(paths)
}

/// Reads the variants of other engines under `root/lab/other-engines/*/`, refusing
/// a malformed file, a name one of `ours` has, a parent that is not a
/// variant of the same engine, a cycle, and a `mirrors` naming no variant
/// of ours.
pub fn load(root: &Path, ours: &[Variant]) -> Result<Vec<External>> {
    load_folder(root, &root.join(FOLDER), ours)
}

/// [`load`] from the engine folders in `folder`, each file's path named
/// from `root`: outside a repository, `./other-engines/`.
pub fn load_folder(root: &Path, folder: &Path, ours: &[Variant]) -> Result<Vec<External>> {
    let mut parsed: Vec<ExternalFile> = Vec::new();
    let folder = folder.to_path_buf();
    if !folder.is_dir() {
        return Ok(Vec::new());
    }
    for path in files(&folder)? {
        let relative = path.strip_prefix(root).unwrap_or(&path).display().to_string();
        let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {relative}"))?;
        let folder = path.parent().unwrap_or(root);
        let file = parse_file(&text, &relative, folder).with_context(|| relative.clone())?;
        let name = file.variant.name();
        if ours.iter().any(|variant| variant.name() == name) || parsed.iter().any(|other| other.variant.name() == name)
        {
            bail!("{relative}: variant `{name}` is defined twice");
        }
        if let Some(mirror) = &file.mirrors {
            variants::find(ours, mirror).with_context(|| format!("{relative}: `mirrors`"))?;
        }
        parsed.push(file);
    }
    parsed.iter().map(|file| resolve(file, &parsed)).collect()
}

/// A file with its parents' options before its own.
fn resolve(file: &ExternalFile, all: &[ExternalFile]) -> Result<External> {
    let mut lineage = vec![file];
    let mut current = file;
    while let Some(parent) = &current.variant.file.extends {
        let found = all.iter().find(|other| other.variant.name() == parent).ok_or_else(|| {
            anyhow!(
                "{}: `{}` extends `{parent}`, which is no variant of engine `{}`",
                file.path,
                current.variant.name(),
                file.engine
            )
        })?;
        if found.engine != file.engine {
            bail!(
                "{}: `{}` extends `{parent}`, a variant of engine `{}`, not `{}`",
                file.path,
                current.variant.name(),
                found.engine,
                file.engine
            );
        }
        if lineage.iter().any(|seen| seen.variant.name() == parent) {
            bail!("{}: `{}`'s parents form a cycle", file.path, file.variant.name());
        }
        lineage.push(found);
        current = found;
    }
    let mut settings: Vec<Setting> = Vec::new();
    for ancestor in lineage.iter().rev() {
        for setting in &ancestor.own {
            settings.retain(|earlier| !earlier.name.eq_ignore_ascii_case(&setting.name));
            settings.push(setting.clone());
        }
    }
    let nearest = |key: fn(&ExternalFile) -> &Option<String>| lineage.iter().find_map(|file| key(file).clone());
    Ok(External {
        variant: file.variant.clone(),
        engine: file.engine.clone(),
        settings,
        own: file.own.clone(),
        mirrors: file.mirrors.clone(),
        repository: nearest(|file| &file.repository),
        commit: nearest(|file| &file.commit),
        build: nearest(|file| &file.build).unwrap_or_else(|| DEFAULT_BUILD.to_string()),
        path: file.path.clone(),
        binary: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::grammar::Planned;

    fn write(dir: &Path, name: &str, text: &str) {
        std::fs::create_dir_all(dir.join(FOLDER).join("other")).unwrap();
        std::fs::write(dir.join(FOLDER).join("other").join(name), text).unwrap();
    }

    #[test]
    fn options_add_up_along_extends_and_claims_parse_as_ours() {
        let dir = std::env::temp_dir().join(format!("prunelab-external-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let ours = variants::load().unwrap();
        write(
            &dir,
            "a.toml",
            "name = \"x-a\"\nengine = \"x\"\nrepository = \"https://github.com/someone/x\"\ncommit = \"abc\"\n\
             [options]\nUseRazoring = false\nRazorMargin1 = 300\n",
        );
        write(
            &dir,
            "b.toml",
            "name = \"x-b\"\nengine = \"x\"\nextends = \"x-a\"\nmirrors = \"razor-r1\"\n\
             [options]\nuserazoring = true\n[expect]\nnodes_pct = [-5, -3]\n[sprt]\nbounds = [0, 5]\ntc = \"10+0.1\"\n",
        );
        let externals = load(&dir, &ours).unwrap();
        let b = externals.iter().find(|external| external.name() == "x-b").unwrap();
        let texts: Vec<String> = b.settings.iter().map(Setting::to_string).collect();
        assert_eq!(texts, ["RazorMargin1=300", "userazoring=true"]);
        assert_eq!(b.mirrors.as_deref(), Some("razor-r1"));
        // The repository and commit come from the nearest file that has them.
        assert_eq!((b.repository.as_deref(), b.commit.as_deref()), (Some("https://github.com/someone/x"), Some("abc")));
        assert_eq!(b.variant.plan().claims.len(), 1);
        assert_eq!(b.variant.plan().sprt.as_ref().unwrap().tc, "10+0.1");
        assert_eq!(environment_variable("sea-jay"), "PRUNELAB_ENGINE_SEA_JAY");

        write(&dir, "c.toml", "name = \"x-c\"\nengine = \"x\"\nfeatures = [\"lmp\"]\n");
        let error = format!("{:#}", load(&dir, &ours).unwrap_err());
        assert!(
            error
                .contains("lab/other-engines/other/c.toml: `features`: a variant of engine `x` sets its UCI `options`"),
            "{error}"
        );
        write(&dir, "c.toml", "name = \"x-c\"\nengine = \"x\"\nextends = \"baseline\"\n");
        let error = format!("{:#}", load(&dir, &ours).unwrap_err());
        assert!(error.contains("extends `baseline`, which is no variant of engine `x`"), "{error}");
        write(&dir, "c.toml", "name = \"razor-r1\"\nengine = \"x\"\n");
        let error = format!("{:#}", load(&dir, &ours).unwrap_err());
        assert!(error.contains("variant `razor-r1` is defined twice"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_commit_variant_inherits_its_roots_repository_and_build() {
        let dir = std::env::temp_dir().join(format!("prunelab-external-commits-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let ours = variants::load().unwrap();
        write(&dir, "a.toml", "name = \"x-a\"\nengine = \"x\"\nrepository = \"../clone\"\ncommit = \"aaa\"\n");
        write(&dir, "b.toml", "name = \"x-b\"\nengine = \"x\"\nextends = \"x-a\"\ncommit = \"bbb\"\n");
        let externals = load(&dir, &ours).unwrap();
        let (a, b) = (&externals[0], &externals[1]);
        // A local clone's path is taken from the file's folder; no `build`, OpenBench's.
        let clone = dir.join(FOLDER).join("other").join("../clone").display().to_string();
        assert_eq!(
            (a.repository.as_deref(), a.commit.as_deref(), a.build.as_str()),
            (Some(&*clone), Some("aaa"), DEFAULT_BUILD)
        );
        assert_eq!((b.repository.as_deref(), b.commit.as_deref(), b.settings.len()), (Some(&*clone), Some("bbb"), 0));
        assert_eq!(b.heading_words(), "adds no options; engine `x` at commit bbb with its default options");
        write(&dir, "a.toml", "name = \"x-a\"\nengine = \"x\"\nrepository = \"https://example.com/x\"\nbuild = \"cmake --build . && cp x {out}\"\n");
        let externals = load(&dir, &ours).unwrap();
        assert_eq!(externals[1].repository.as_deref(), Some("https://example.com/x"));
        assert_eq!(externals[1].build, "cmake --build . && cp x {out}");
        write(&dir, "a.toml", "name = \"x-a\"\nengine = \"x\"\nbuild = \"make\"\n");
        let error = format!("{:#}", load(&dir, &ours).unwrap_err());
        assert!(
            error.ends_with(
                "`build` = \"make\" must name {out}, the path the lab wants the binary at, e.g. \"make EXE={out}\""
            ),
            "{error}"
        );
        write(&dir, "a.toml", "name = \"x-a\"\nengine = \"x\"\ncommit = \"two words\"\n");
        let error = format!("{:#}", load(&dir, &ours).unwrap_err());
        assert!(
            error.ends_with("`commit` must name one commit (a hash, a tag or a branch), without spaces"),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
