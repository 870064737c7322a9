//! Variants of another engine: an option set of a named UCI engine, in
//! `lab/other-engines/<folder>/*.toml`. They are the lab's alone: the engine's
//! build, its matrix test and the CI scripts read `variants/`, and a change
//! here rebuilds no engine.
//!
//! ```toml
//! name = "seajay-p002-2.1"
//! engine = "seajay"             # its binary: --engine-path seajay=PATH,
//!                               # or PRUNELAB_ENGINE_SEAJAY=PATH
//! extends = "seajay-p002-1.5"   # a variant of the same engine
//! mirrors = "p002-2.1"          # prunelab's variant of the same phase
//! source = "plan 002, phase 2.1"
//! repository = "https://github.com/namebrandon/seajay-chess"
//! commit = "1c64dbc4..."        # the two for `lab openbench`, inherited
//!                               # along `extends`
//!
//! [options]                     # UCI options, added to the parent's
//! UseFutilityPruning = true
//! FutilityMaxDepth = 4
//!
//! [expect]                      # claims and [sprt] as for ours
//! nodes_pct = [-10, -5]
//! ```
//!
//! The claims, `[sprt]` and the other keys are read by the same parser as
//! ours, so they are judged the same way; the engine's options are checked
//! against what it offers when it starts, like any `uci:` participant's.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use games::uci_options::Setting;
use prunelab::techniques::Techniques;
use prunelab::variants::{self, Value, Variant};
// The variant files' TOML reader, the one build.rs uses for ours.
use variant_file::read as read_variant_toml;

/// The keys a variant of another engine has beside those of ours.
const ENGINE_KEYS: [&str; 5] = ["engine", "options", "mirrors", "repository", "commit"];

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
    /// The engine's sources, as OpenBench downloads them, and the commit
    /// its options are for: its own file's, else its nearest parent's.
    pub repository: Option<String>,
    pub commit: Option<String>,
    /// Relative to the repository: `lab/other-engines/seajay/seajay-p002-2.1.toml`.
    pub path: String,
}

impl External {
    pub fn name(&self) -> &str {
        self.variant.name()
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

fn parse_file(text: &str, path: &str) -> Result<ExternalFile> {
    let table = read_variant_toml(text).map_err(|error| anyhow!("not valid TOML: {error}"))?;
    let Value::Table(entries) = table else { bail!("a variant file is a table of keys") };
    let engine = string_key(&entries, "engine")?
        .ok_or_else(|| anyhow!("missing `engine`: a file under a folder of variants/ is another engine's variant"))?;
    if engine.is_empty() {
        bail!("`engine` is empty");
    }
    let mirrors = string_key(&entries, "mirrors")?;
    let repository = string_key(&entries, "repository")?;
    let commit = string_key(&entries, "commit")?;
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
    Ok(ExternalFile { variant, engine, own, mirrors, repository, commit, path: path.to_string() })
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
    let mut parsed: Vec<ExternalFile> = Vec::new();
    let folder = root.join(FOLDER);
    if !folder.is_dir() {
        return Ok(Vec::new());
    }
    for path in files(&folder)? {
        let relative = path.strip_prefix(root).unwrap_or(&path).display().to_string();
        let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {relative}"))?;
        let file = parse_file(&text, &relative).with_context(|| relative.clone())?;
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
        path: file.path.clone(),
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
}
