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
//! [witness]                     # optional: where it acts, when the
//! fen = "4k3/PPP5/8/8/8/8/5r2/1K3b2 b - - 0 1"  # node-count suite at
//! depth = 8                     # depth 10 does not show it
//! ```
//!
//! A rate claim is named after the engine's telemetry line and key
//! (`info string razor: att=.. cut=.. cut%=..` gives `razor.cut%`).
//!
//! build.rs reads the files (see [`source`]); [`load`] turns what it read
//! into variant files and resolves them, refusing with a message naming the
//! culprit: a malformed file or claim, a missing parent, a cycle, an unknown
//! feature (listing the valid ones), an exclusive combination, and a
//! duplicate name.

pub mod source;

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};

use crate::features;
use crate::techniques::Techniques;
pub use source::{Source, Value};

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
    /// A position and depth where the variant's search differs from its
    /// parent's, for a variant whose effect the node-count suite at depth
    /// 10 does not show (the matrix test checks it).
    pub witness: Option<Witness>,
}

/// A position (FEN) and a depth.
#[derive(Clone, Debug, PartialEq)]
pub struct Witness {
    pub fen: String,
    pub depth: i32,
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

/// The keys a variant file may have.
const KEYS: [&str; 8] = ["name", "description", "extends", "features", "source", "sprt", "expect", "witness"];

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

fn number(value: &Value, what: &str) -> Result<f64> {
    match value {
        Value::Integer(number) => Ok(*number as f64),
        Value::Float(number) if number.is_finite() => Ok(*number),
        other => bail!("{what}: expected a finite number, found {}", other.kind()),
    }
}

fn number_pair(value: &Value, what: &str) -> Result<(f64, f64)> {
    match value {
        Value::Array(items) if items.len() == 2 => Ok((number(&items[0], what)?, number(&items[1], what)?)),
        _ => bail!("{what} must be a list of two numbers"),
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
    if let Some((key, _)) = entries.iter().find(|(key, _)| !KEYS.contains(&key.as_str())) {
        bail!("unknown key `{key}`; a variant file has {}", KEYS.join(", "));
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
    let mut expect = Vec::new();
    match get("expect") {
        None => {}
        Some(Value::Table(claims)) => {
            for (key, value) in claims {
                if !is_claim_key(key) {
                    bail!("expect.{key}: a claim is `nodes_pct` or a telemetry rate such as `\"razor.cut%\"`");
                }
                let (low, high) = number_pair(value, &format!("expect.{key}"))?;
                if low > high {
                    bail!("expect.{key}: the range [{low}, {high}] is upside down");
                }
                expect.push((key.clone(), (low, high)));
            }
        }
        Some(other) => bail!("`expect` must be a table of claims, found {}", other.kind()),
    }
    let witness = match get("witness") {
        None => None,
        Some(value @ Value::Table(_)) => Some(parse_witness(value)?),
        Some(other) => bail!("`witness` must be a table with `fen` and `depth`, found {}", other.kind()),
    };
    Ok(VariantFile {
        witness,
        description: optional_string("description")?.unwrap_or_default(),
        extends: optional_string("extends")?,
        features,
        source: optional_string("source")?.unwrap_or_default(),
        sprt: get("sprt").map(|value| number_pair(value, "sprt")).transpose()?,
        expect,
        name,
    })
}

fn parse_witness(table: &Value) -> Result<Witness> {
    let Value::Table(entries) = table else { bail!("`witness` must be a table") };
    let get = |key: &str| entries.iter().find(|(name, _)| name == key).map(|(_, value)| value);
    if let Some((key, _)) = entries.iter().find(|(key, _)| key != "fen" && key != "depth") {
        bail!("witness.{key}: a witness has `fen` and `depth`");
    }
    let fen = string(get("fen").ok_or_else(|| anyhow!("witness: missing `fen`"))?, "witness.fen")?;
    crate::position::Position::from_fen(&fen).map_err(|error| anyhow!("witness.fen: {error}"))?;
    let depth = match get("depth") {
        Some(Value::Integer(depth)) if (1..=crate::search::MAX_PLY as i64 - 1).contains(depth) => *depth as i32,
        _ => bail!("witness.depth must be a whole number from 1 to {}", crate::search::MAX_PLY - 1),
    };
    Ok(Witness { fen, depth })
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
            let features = features::resolve(&names).map_err(|error| anyhow!("variant `{}`: {error}", file.name))?;
            let techniques = features.iter().fold(Techniques::BASELINE, |set, name| set.with(name));
            Ok(Variant { file: file.clone(), features, techniques })
        })
        .collect()
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
    let digest = source::folder_digest(&dir).with_context(|| format!("cannot read {}", dir.display()))?;
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
            sprt: None,
            expect: Vec::new(),
            witness: None,
        }
    }

    fn table(entries: &[(&str, Value)]) -> Value {
        Value::Table(entries.iter().map(|(key, value)| (key.to_string(), value.clone())).collect())
    }

    fn text(value: &str) -> Value {
        Value::String(value.into())
    }

    fn pair(low: i64, high: i64) -> Value {
        Value::Array(vec![Value::Integer(low), Value::Integer(high)])
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

    #[test]
    fn files_parse_with_their_claims() {
        let claims = table(&[("nodes_pct", pair(-5, -3)), ("razor.cut%", pair(5, 10))]);
        let parsed = parse_table(&table(&[
            ("name", text("x")),
            ("extends", text("baseline")),
            ("features", Value::Array(vec![text("lmp")])),
            ("sprt", Value::Array(vec![Value::Integer(0), Value::Float(5.0)])),
            ("expect", claims),
        ]))
        .unwrap();
        assert_eq!(parsed.sprt, Some((0.0, 5.0)));
        assert_eq!(parsed.expect_nodes_pct(), Some((-5.0, -3.0)));
        assert_eq!(parsed.claim("razor.cut%"), Some((5.0, 10.0)));
    }

    #[test]
    fn malformed_files_are_refused_with_the_reason() {
        let error = |entries: &[(&str, Value)]| parse_table(&table(entries)).unwrap_err().to_string();
        let name = ("name", text("x"));
        assert!(error(&[name.clone(), ("expect", table(&[("nodes", pair(1, 2))]))]).contains("expect.nodes"));
        assert!(error(&[name.clone(), ("expect", table(&[("nodes_pct", pair(2, 1))]))]).contains("upside down"));
        assert!(error(&[name.clone(), ("features", Value::Integer(3))]).contains("list of strings"));
        assert!(error(&[("features", Value::Array(vec![]))]).contains("missing `name`"));
        assert!(error(&[name.clone(), ("extend", text("baseline"))]).contains("unknown key `extend`"));
        let witness = |entries: &[(&str, Value)]| table(entries);
        let bad_fen = witness(&[("fen", text("8/8/8/8/8/8/8/8 w - - 0 1")), ("depth", Value::Integer(8))]);
        assert!(error(&[name.clone(), ("witness", bad_fen)]).contains("witness.fen"));
        let no_depth = witness(&[("fen", text("4k3/8/8/8/8/8/8/4K3 w - - 0 1")), ("depth", Value::Integer(0))]);
        assert!(error(&[name.clone(), ("witness", no_depth)]).contains("witness.depth"));
        let nan = Value::Array(vec![Value::Float(f64::NAN), Value::Integer(1)]);
        assert!(error(&[name, ("sprt", nan)]).contains("finite number"));
        let broken = Source { path: "variants/x.toml".into(), table: Err("expected `=`".into()) };
        assert!(parse_sources(&[broken]).unwrap_err().to_string().contains("variants/x.toml: not valid TOML"));
    }

    #[test]
    fn the_repository_variants_load_and_are_up_to_date() {
        let variants = load().unwrap();
        assert!(variants.len() >= 30);
        assert!(find(&variants, "nope").unwrap_err().to_string().contains("baseline"));
        check_up_to_date(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
        assert!(check_up_to_date(Path::new("/nonexistent")).is_err());
    }
}
