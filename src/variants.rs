//! Variants: named feature sets in `variants/*.toml`, each optionally
//! extending a parent, with the plan's source and its claimed effect.
//!
//! ```toml
//! name = "razor-r2"
//! description = "Razoring R2: tactical guard."
//! extends = "razor-r1"          # optional parent
//! features = ["razor-r2"]       # added to the parent's
//! source = "plan 000, R2"
//! sprt = [0.0, 5.0]             # optional SPRT bounds from the plan
//! [expect]                      # optional claims, checked by the lab
//! nodes_pct = [-5, -3]          # depth-10 node change vs the parent, %
//! "razor.cut%" = [5, 10]        # a telemetry rate over the suite, %
//! "pvs.re%" = [0, 7]
//! ```
//!
//! A rate claim is named after the engine's telemetry line and key
//! (`info string razor: att=.. cut=.. cut%=..` gives `razor.cut%`).
//!
//! Loading refuses, with a message naming the culprit: a missing parent, a
//! cycle, an unknown feature (listing the valid ones), an exclusive
//! combination, and a duplicate name.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};

use crate::features::close_over_implications;
use crate::techniques::Techniques;

/// A variant as its file states it.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantFile {
    pub name: String,
    pub description: String,
    pub extends: Option<String>,
    pub features: Vec<String>,
    pub source: String,
    pub sprt: Option<(f64, f64)>,
    /// The claimed effects, sorted by key: `nodes_pct` (depth-10 node change
    /// against the parent, in percent) and telemetry rates such as
    /// `razor.cut%`, each a `[low, high]` range.
    pub expect: Vec<(String, (f64, f64))>,
}

impl VariantFile {
    /// The claimed depth-10 node change against the parent, in percent.
    pub fn expect_nodes_pct(&self) -> Option<(f64, f64)> {
        self.claim(NODES_PCT)
    }

    pub fn claim(&self, metric: &str) -> Option<(f64, f64)> {
        self.expect.iter().find(|(name, _)| name == metric).map(|(_, range)| *range)
    }
}

/// The node-change claim's key in `[expect]`.
pub const NODES_PCT: &str = "nodes_pct";

/// Whether `key` names a claim: `nodes_pct` or a telemetry rate
/// `<subject>.<key>%`.
fn is_claim_key(key: &str) -> bool {
    let is_word = |word: &str| !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    key == NODES_PCT
        || key
            .strip_suffix('%')
            .and_then(|rate| rate.split_once('.'))
            .is_some_and(|(subject, name)| is_word(subject) && is_word(name))
}

/// A variant with its parent chain resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    pub file: VariantFile,
    /// Every feature it compiles in, implications included, in catalogue
    /// order: what `cargo build --features` needs.
    pub features: Vec<&'static str>,
    pub techniques: Techniques,
}

impl Variant {
    pub fn name(&self) -> &str {
        &self.file.name
    }
}

fn float_pair(value: &toml::Value, what: &str) -> Result<(f64, f64)> {
    let items = value.as_array().ok_or_else(|| anyhow!("{what} must be a list of two numbers"))?;
    let number = |item: &toml::Value| {
        item.as_float().or_else(|| item.as_integer().map(|i| i as f64)).ok_or_else(|| anyhow!("{what}: not a number"))
    };
    match items.as_slice() {
        [low, high] => Ok((number(low)?, number(high)?)),
        _ => bail!("{what} must be a list of two numbers"),
    }
}

/// Parses one variant file's text.
pub fn parse_variant(text: &str) -> Result<VariantFile> {
    let table: toml::Table = text.parse().context("not valid TOML")?;
    let string = |key: &str| table.get(key).and_then(|value| value.as_str()).map(str::to_string);
    let name = string("name").ok_or_else(|| anyhow!("missing `name`"))?;
    let features = match table.get("features") {
        None => Vec::new(),
        Some(value) => value
            .as_array()
            .ok_or_else(|| anyhow!("`features` must be a list of strings"))?
            .iter()
            .map(|item| item.as_str().map(str::to_string).ok_or_else(|| anyhow!("`features` must be strings")))
            .collect::<Result<_>>()?,
    };
    let mut expect = Vec::new();
    if let Some(claims) = table.get("expect") {
        let claims = claims.as_table().ok_or_else(|| anyhow!("`expect` must be a table of claims"))?;
        for (key, value) in claims {
            if !is_claim_key(key) {
                bail!("expect.{key}: a claim is `nodes_pct` or a telemetry rate such as `\"razor.cut%\"`");
            }
            let (low, high) = float_pair(value, &format!("expect.{key}"))?;
            if low > high {
                bail!("expect.{key}: the range [{low}, {high}] is upside down");
            }
            expect.push((key.clone(), (low, high)));
        }
    }
    Ok(VariantFile {
        description: string("description").unwrap_or_default(),
        extends: string("extends"),
        features,
        source: string("source").unwrap_or_default(),
        sprt: table.get("sprt").map(|value| float_pair(value, "sprt")).transpose()?,
        expect,
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
            let mut chain = vec![file.name.as_str()];
            let mut current = file;
            loop {
                names.extend(current.features.iter().map(String::as_str));
                let Some(parent) = &current.extends else { break };
                if chain.contains(&parent.as_str()) {
                    bail!("variant `{}`: its parents form a cycle ({} -> {parent})", file.name, chain.join(" -> "));
                }
                current = by_name
                    .get(parent)
                    .ok_or_else(|| anyhow!("variant `{}` extends `{parent}`, which does not exist", current.name))?;
                chain.push(parent);
            }
            let features =
                close_over_implications(&names).map_err(|error| anyhow!("variant `{}`: {error}", file.name))?;
            let techniques =
                Techniques::from_features(&features).map_err(|error| anyhow!("variant `{}`: {error}", file.name))?;
            Ok(Variant { file: file.clone(), features, techniques })
        })
        .collect()
}

/// Loads every `*.toml` of a folder.
pub fn load_dir(dir: &Path) -> Result<Vec<Variant>> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the variants folder {}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    paths.sort();
    let files = paths
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            parse_variant(&text).with_context(|| format!("{}", path.display()))
        })
        .collect::<Result<Vec<_>>>()?;
    resolve(files)
}

/// The repository's own variants.
pub fn load() -> Result<Vec<Variant>> {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("variants"))
}

/// Finds a variant by name, or says which exist.
pub fn find<'a>(variants: &'a [Variant], name: &str) -> Result<&'a Variant> {
    variants.iter().find(|variant| variant.name() == name).ok_or_else(|| {
        let names: Vec<&str> = variants.iter().map(Variant::name).collect();
        anyhow!("unknown variant `{name}`; variants: {}", names.join(", "))
    })
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
            sprt: None,
            expect: Vec::new(),
        }
    }

    #[test]
    fn parents_add_their_features() {
        let variants = resolve(vec![file("a", None, &["lmp"]), file("b", Some("a"), &["razor-r2"])]).unwrap();
        assert_eq!(variants[1].features, ["lmp", "razor-r1", "razor-r2"]);
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

    #[test]
    fn files_parse_with_their_claims() {
        let text = "name = \"x\"\nextends = \"baseline\"\nfeatures = [\"lmp\"]\nsprt = [0, 5]\n[expect]\nnodes_pct = [-5, -3]\n\"razor.cut%\" = [5, 10]\n";
        let parsed = parse_variant(text).unwrap();
        assert_eq!(parsed.sprt, Some((0.0, 5.0)));
        assert_eq!(parsed.expect_nodes_pct(), Some((-5.0, -3.0)));
        assert_eq!(parsed.claim("razor.cut%"), Some((5.0, 10.0)));
        assert!(parse_variant("name = \"x\"\n[expect]\nnodes = [1, 2]").is_err());
        assert!(parse_variant("name = \"x\"\n[expect]\nnodes_pct = [2, 1]").is_err());
        assert!(parse_variant("features = 3").is_err());
        assert!(parse_variant("name = ").is_err());
    }

    #[test]
    fn the_repository_variants_load() {
        let variants = load().unwrap();
        assert!(variants.len() >= 30);
        let full = find(&variants, "full").unwrap();
        let manifest: toml::Table = include_str!("../Cargo.toml").parse().unwrap();
        let cargo_full: Vec<&str> =
            manifest["features"]["full"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        let mut cargo_full = crate::features::close_over_implications(&cargo_full).unwrap();
        cargo_full.sort();
        let mut variant_full = full.features.clone();
        variant_full.sort();
        assert_eq!(variant_full, cargo_full, "variants/full.toml and Cargo.toml's `full` disagree");
        assert!(find(&variants, "nope").unwrap_err().to_string().contains("baseline"));
    }
}
