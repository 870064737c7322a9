//! Variants: named feature sets in `variants/*.toml`, each optionally
//! extending a parent (the plans' base: the previous phase), with its source
//! in the plans.
//!
//! ```toml
//! name = "razor-r1"
//! description = "Razoring R1 on the plan-003 chain's end."
//! extends = "p003-3"            # the parent: what it is measured against
//! features = ["razor-r1"]       # added to the parent's
//! source = "plan 000, R1"
//! ```
//!
//! A variant may set tunables' values (by UCI or constant name), which its
//! build compiles in as constants (see `crate::tune`); a child inherits its
//! parent's and may change them:
//!
//! ```toml
//! [tunables]
//! ReverseFutilityDepthMargin = 75
//! ```
//!
//! A file may also hold the lab's sections (`[expect]`, the plan's claims;
//! `[sprt]`, its SPRT; `[witness]`, where it acts): the engine keeps them
//! as written, and the lab reads them (`lab/src/verdicts/claims/grammar.rs`).
//!
//! build.rs reads the files (see the crate `variant_file`); [`load`] turns what it read
//! into variant files and resolves them, refusing with a message naming the
//! culprit: a malformed file, a missing parent, a cycle, an unknown feature
//! (listing the valid ones), an exclusive combination, and a duplicate name.

pub mod selectable;

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};

use crate::features;
use crate::techniques::Techniques;
pub use variant_file::{Source, Value};

/// A variant as its file states it.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantFile {
    pub name: String,
    pub description: String,
    pub extends: Option<String>,
    pub features: Vec<String>,
    pub source: String,
    /// Its own `[tunables]`: name and value as written.
    pub tunables: Vec<(String, i64)>,
    /// The lab's sections ([`LAB_SECTIONS`]) the file has, as written.
    pub sections: Vec<(String, Value)>,
}

/// The keys the engine reads.
const KEYS: [&str; 6] = ["name", "description", "extends", "features", "source", "tunables"];

/// The sections the lab reads and the engine keeps as written: the plan's
/// claims, its SPRT, and where the variant acts.
pub const LAB_SECTIONS: [&str; 3] = ["expect", "sprt", "witness"];

/// A variant with its parent chain resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    pub file: VariantFile,
    /// Every feature it compiles in, implications included, in catalogue
    /// order: what `cargo build --features` needs.
    pub features: Vec<&'static str>,
    pub techniques: Techniques,
    /// Its tunables' values, its parents' included (a child's replace its
    /// parent's), checked against the tunables its techniques read, by UCI
    /// name; what `$PRUNELAB_TUNABLES` must give its build.
    pub tunables: Vec<(&'static str, i32)>,
}

impl Variant {
    pub fn name(&self) -> &str {
        &self.file.name
    }

    /// Its tunable values as `$PRUNELAB_TUNABLES` takes them,
    /// `NAME=value,...`; empty when it has none.
    pub fn tunables_variable(&self) -> String {
        let pairs: Vec<String> = self.tunables.iter().map(|(name, value)| format!("{name}={value}")).collect();
        pairs.join(",")
    }

    /// What its own file adds to its parent: its features, then its
    /// tunables' values as the file writes them (`NAME=value`).
    pub fn adds(&self) -> Vec<String> {
        let values = self.file.tunables.iter().map(|(name, value)| format!("{name}={value}"));
        self.file.features.iter().cloned().chain(values).collect()
    }
}

fn string(value: &Value, what: &str) -> Result<String> {
    match value {
        Value::String(text) => Ok(text.clone()),
        other => bail!("`{what}` must be a string, found {}", other.kind()),
    }
}

/// A variant file from its value tree.
pub fn parse_table(table: &Value) -> Result<VariantFile> {
    let Value::Table(entries) = table else { bail!("a variant file is a table of keys") };
    let get = |key: &str| entries.iter().find(|(name, _)| name == key).map(|(_, value)| value);
    if let Some((key, _)) =
        entries.iter().find(|(key, _)| !KEYS.contains(&key.as_str()) && !LAB_SECTIONS.contains(&key.as_str()))
    {
        bail!("unknown key `{key}`; a variant file has {}, {}", KEYS.join(", "), LAB_SECTIONS.join(", "));
    }
    let optional_string = |key: &str| get(key).map(|value| string(value, key)).transpose();
    let name = optional_string("name")?.ok_or_else(|| anyhow!("missing `name`"))?;
    let features = match get("features") {
        None => Vec::new(),
        Some(Value::Array(items)) => {
            items.iter().map(|item| string(item, "features")).collect::<Result<_>>().context("`features`")?
        }
        Some(other) => bail!("`features` must be a list of strings, found {}", other.kind()),
    };
    let tunables = match get("tunables") {
        None => Vec::new(),
        Some(Value::Table(values)) => values
            .iter()
            .map(|(name, value)| match value {
                Value::Integer(number) => Ok((name.clone(), *number)),
                other => bail!("`tunables.{name}` must be an integer, found {}", other.kind()),
            })
            .collect::<Result<_>>()?,
        Some(other) => bail!("`tunables` must be a table of `NAME = value`, found {}", other.kind()),
    };
    Ok(VariantFile {
        tunables,
        description: optional_string("description")?.unwrap_or_default(),
        extends: optional_string("extends")?,
        features,
        source: optional_string("source")?.unwrap_or_default(),
        sections: entries.iter().filter(|(key, _)| LAB_SECTIONS.contains(&key.as_str())).cloned().collect(),
        name,
    })
}

/// Resolves parents, checks every rule, and returns the variants sorted by
/// name.
pub fn resolve(files: Vec<VariantFile>) -> Result<Vec<Variant>> {
    let mut by_name: BTreeMap<String, VariantFile> = BTreeMap::new();
    for file in files {
        if by_name.contains_key(&file.name) {
            bail!("variant `{}` is defined twice", file.name);
        }
        by_name.insert(file.name.clone(), file);
    }
    by_name
        .values()
        .map(|file| {
            // Walk up the parent chain, collecting features.
            let mut names: Vec<&str> = Vec::new();
            // The variant's own values first: the first a name matches wins.
            let mut tunables: Vec<(String, i64)> = Vec::new();
            let mut chain = vec![file.name.as_str()];
            let mut current = file;
            loop {
                names.extend(current.features.iter().map(String::as_str));
                tunables.extend(current.tunables.iter().cloned());
                let Some(parent) = &current.extends else { break };
                if chain.contains(&parent.as_str()) {
                    bail!("variant `{}`: its parents form a cycle ({} -> {parent})", file.name, chain.join(" -> "));
                }
                current = by_name
                    .get(parent)
                    .ok_or_else(|| anyhow!("variant `{}` extends `{parent}`, which does not exist", current.name))?;
                chain.push(parent);
            }
            let features = features::resolve(&names).map_err(|error| anyhow!("variant `{}`: {error}", file.name))?;
            let techniques = features.iter().fold(Techniques::BASELINE, |set, name| set.with(name));
            let tunables = inherited_tunables(&tunables, &techniques.tunables())
                .map_err(|error| anyhow!("variant `{}`: [tunables]: {error}", file.name))?;
            Ok(Variant { file: file.clone(), features, techniques, tunables })
        })
        .collect()
}

/// A chain's tunable values, the variant's own first, each checked against
/// the tunables its techniques read; a parent's value that a child sets
/// again gives way. Sorted by name.
fn inherited_tunables(
    values: &[(String, i64)],
    reads: &[&'static crate::tune::Tunable],
) -> Result<Vec<(&'static str, i32)>> {
    let mut resolved: Vec<(&'static str, i32)> = Vec::new();
    for value in values {
        for (name, number) in
            crate::tune::check_values(std::slice::from_ref(value), reads).map_err(|error| anyhow!(error))?
        {
            if !resolved.iter().any(|(known, _)| *known == name) {
                resolved.push((name, number));
            }
        }
    }
    resolved.sort_unstable();
    Ok(resolved)
}

/// Parses the files build.rs read, each error naming its file.
pub fn parse_sources(sources: &[Source]) -> Result<Vec<VariantFile>> {
    sources
        .iter()
        .map(|source| {
            let table = source.table.as_ref().map_err(|error| anyhow!("{}: not valid TOML: {error}", source.path))?;
            parse_table(table).with_context(|| source.path.clone())
        })
        .collect()
}

// `SOURCES` and `SOURCES_DIGEST`: what build.rs read from `variants/`.
include!(concat!(env!("OUT_DIR"), "/variant_sources.rs"));

/// The repository's variants, as this build read them.
pub fn load() -> Result<Vec<Variant>> {
    resolve(parse_sources(&sources())?)
}

/// Whether the `variants/` folder under `root` still holds what this build
/// read; a program that resolves variants by name should refuse to run
/// otherwise (it would not know a new variant).
pub fn check_up_to_date(root: &Path) -> Result<()> {
    let dir = root.join("variants");
    let digest = variant_file::folder_digest(&dir).with_context(|| format!("cannot read {}", dir.display()))?;
    if digest != SOURCES_DIGEST {
        bail!(
            "{} changed since this program was built; rebuild it (`cargo run` does) so it knows every variant",
            dir.display()
        );
    }
    Ok(())
}

/// Finds a variant by name, or says which exist.
pub fn find<'a>(variants: &'a [Variant], name: &str) -> Result<&'a Variant> {
    variants.iter().find(|variant| variant.name() == name).ok_or_else(|| {
        let names: Vec<&str> = variants.iter().map(Variant::name).collect();
        anyhow!("unknown variant `{name}`; variants: {}", names.join(", "))
    })
}

/// A variant and its ancestors, the variant first.
pub fn ancestry<'a>(variants: &'a [Variant], name: &'a str) -> Vec<&'a str> {
    let mut chain = Vec::new();
    let mut current = Some(name);
    while let Some(name) = current.filter(|name| !chain.contains(name)) {
        chain.push(name);
        current = variants.iter().find(|variant| variant.name() == name).and_then(|v| v.file.extends.as_deref());
    }
    chain
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, extends: Option<&str>, features: &[&str]) -> VariantFile {
        VariantFile {
            name: name.into(),
            description: String::new(),
            extends: extends.map(Into::into),
            features: features.iter().map(|f| f.to_string()).collect(),
            source: String::new(),
            tunables: Vec::new(),
            sections: Vec::new(),
        }
    }

    fn table(entries: &[(&str, Value)]) -> Value {
        Value::Table(entries.iter().map(|(key, value)| (key.to_string(), value.clone())).collect())
    }

    fn text(value: &str) -> Value {
        Value::String(value.into())
    }

    #[test]
    fn parents_add_their_features() {
        let variants = resolve(vec![file("a", None, &["lmp"]), file("b", Some("a"), &["razor-r2"])]).unwrap();
        assert_eq!(variants[1].features, ["razor-r1", "razor-r2", "lmp"]);
        assert_eq!(ancestry(&variants, "b"), ["b", "a"]);
    }

    #[test]
    fn every_rule_is_enforced_by_name() {
        let error = |files| resolve(files).unwrap_err().to_string();
        assert!(error(vec![file("a", Some("ghost"), &[])]).contains("`ghost`, which does not exist"));
        assert!(error(vec![file("a", Some("b"), &[]), file("b", Some("a"), &[])]).contains("cycle"));
        let unknown = error(vec![file("a", None, &["razor-r9"])]);
        assert!(unknown.contains("razor-r9") && unknown.contains("valid features"), "{unknown}");
        assert!(error(vec![file("a", None, &["razor-sf", "razor-hyatt"])]).contains("exclusive"));
        assert!(error(vec![file("a", None, &[]), file("a", None, &[])]).contains("defined twice"));
    }

    /// The lab's sections are kept as written, whatever they hold: the
    /// lab judges them.
    #[test]
    fn the_labs_sections_are_kept_not_read() {
        let expect = table(&[("nodez", Value::Integer(3))]);
        let parsed = parse_table(&table(&[
            ("name", text("x")),
            ("features", Value::Array(vec![text("lmp")])),
            ("expect", expect.clone()),
            ("sprt", text("anything")),
        ]))
        .unwrap();
        assert_eq!(parsed.features, ["lmp"]);
        assert_eq!(parsed.sections, [("expect".to_string(), expect), ("sprt".to_string(), text("anything"))]);
    }

    #[test]
    fn tunable_values_are_inherited_replaced_and_checked() {
        let with = |mut file: VariantFile, values: &[(&str, i64)]| {
            file.tunables = values.iter().map(|(name, value)| (name.to_string(), *value)).collect();
            file
        };
        let variants = resolve(vec![
            with(
                file("tuned", None, &["rfp-margin-90"]),
                &[("ReverseFutilityDepthMargin", 75), ("NULL_MOVE_MIN_DEPTH", 4)],
            ),
            with(file("retuned", Some("tuned"), &[]), &[("REVERSE_FUTILITY_DEPTH_MARGIN", 80)]),
        ])
        .unwrap();
        assert_eq!(variants[1].tunables, [("NullMoveMinDepth", 4), ("ReverseFutilityDepthMargin", 75)]);
        assert_eq!(variants[1].tunables_variable(), "NullMoveMinDepth=4,ReverseFutilityDepthMargin=75");
        assert_eq!(variants[0].name(), "retuned");
        assert_eq!(variants[0].tunables, [("NullMoveMinDepth", 4), ("ReverseFutilityDepthMargin", 80)]);
        let error =
            |values: &[(&str, i64)]| format!("{:#}", resolve(vec![with(file("a", None, &[]), values)]).unwrap_err());
        assert!(error(&[("RazorMargin1", 300)]).starts_with("variant `a`: [tunables]: `RazorMargin1` is read only with a technique this feature set does not compile (such as `razor-r1`)"), "{}", error(&[("RazorMargin1", 300)]));
        assert_eq!(
            error(&[("ReverseFutilityDepthMargin", 300)]),
            "variant `a`: [tunables]: ReverseFutilityDepthMargin = 300 is outside its range 50..=200"
        );
        assert!(error(&[("NullMoveStaticMargin", 90)])
            .starts_with("variant `a`: [tunables]: no tunable `NullMoveStaticMargin`"));
        let name = ("name", text("a"));
        let parse = |tunables: Value| {
            format!("{:#}", parse_table(&table(&[name.clone(), ("tunables", tunables)])).unwrap_err())
        };
        assert_eq!(parse(Value::Integer(3)), "`tunables` must be a table of `NAME = value`, found an integer");
        assert_eq!(
            parse(table(&[("ReverseFutilityDepthMargin", text("75"))])),
            "`tunables.ReverseFutilityDepthMargin` must be an integer, found a string"
        );
    }

    #[test]
    fn malformed_files_are_refused_with_the_reason() {
        let error = |entries: &[(&str, Value)]| parse_table(&table(entries)).unwrap_err().to_string();
        let name = ("name", text("x"));
        assert!(error(&[name.clone(), ("features", Value::Integer(3))]).contains("list of strings"));
        assert!(error(&[("features", Value::Array(vec![]))]).contains("missing `name`"));
        assert!(error(&[name.clone(), ("extend", text("baseline"))]).contains("unknown key `extend`"));
        assert!(error(&[name, ("extends", Value::Integer(1))]).contains("`extends` must be a string"));
        let broken = Source { path: "variants/x.toml".into(), table: Err("expected `=`".into()) };
        assert!(parse_sources(&[broken]).unwrap_err().to_string().contains("variants/x.toml: not valid TOML"));
    }

    #[test]
    fn the_repository_variants_load_and_are_up_to_date() {
        let variants = load().unwrap();
        // One variant per file of variants/, counted by the file system.
        let files = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("variants"))
            .unwrap()
            .filter(|entry| entry.as_ref().unwrap().path().extension().is_some_and(|ext| ext == "toml"))
            .count();
        assert_eq!(variants.len(), files);
        assert!(find(&variants, "nope").unwrap_err().to_string().contains("baseline"));
        check_up_to_date(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert!(check_up_to_date(Path::new("/nonexistent")).is_err());
    }
}
