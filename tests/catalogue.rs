//! The registry (each technique file's `features!`) and Cargo.toml's
//! `[features]` table describe the same features with the same
//! implications, so a variant resolved in-process means what `cargo build
//! --features` means. Each failure names the feature.

use prunelab::features::{close_over_implications, find, CATALOGUE};

/// Cargo features that are not pruning features: `full` is an alias for a
/// variant's feature list, `tune` and `trace` change no search, `variants`
/// carries every variant's search.
const NOT_PRUNING: [&str; 5] = ["default", "tune", "trace", "full", "variants"];

fn cargo_features() -> toml::Table {
    let manifest: toml::Table = include_str!("../Cargo.toml").parse().expect("Cargo.toml parses");
    manifest["features"].as_table().expect("a [features] table").clone()
}

fn strings(value: &toml::Value) -> Vec<&str> {
    value.as_array().expect("a list").iter().map(|item| item.as_str().expect("a string")).collect()
}

#[test]
fn every_cargo_feature_is_in_the_registry_with_the_same_implications() {
    for (name, implies) in &cargo_features() {
        if NOT_PRUNING.contains(&name.as_str()) {
            continue;
        }
        let feature = find(name).unwrap_or_else(|| {
            panic!("Cargo.toml declares `{name}`, which no technique file declares (features! in src/prune/)")
        });
        assert_eq!(
            strings(implies),
            feature.implies,
            "`{name}`: Cargo.toml and {} disagree on what it implies",
            feature.technique
        );
    }
}

#[test]
fn every_registry_feature_is_a_cargo_feature() {
    let declared = cargo_features();
    for feature in CATALOGUE {
        assert!(
            declared.contains_key(feature.name),
            "`{}` ({}) is missing from Cargo.toml's [features]: add `\"{}\" = {:?}`",
            feature.name,
            feature.technique,
            feature.name,
            feature.implies
        );
    }
}

#[test]
fn the_full_alias_is_the_full_variant() {
    let declared = cargo_features();
    let alias = strings(&declared["full"]);
    let mut alias = close_over_implications(&alias).expect("`full` names catalogue features");
    let variants = prunelab::variants::load().unwrap();
    let mut variant = prunelab::variants::find(&variants, "full").unwrap().features.clone();
    alias.sort_unstable();
    variant.sort_unstable();
    assert_eq!(alias, variant, "Cargo.toml's `full` and variants/full.toml disagree");
}

#[test]
fn every_feature_is_in_a_variant() {
    let variants = prunelab::variants::load().unwrap();
    for feature in CATALOGUE {
        assert!(
            variants.iter().any(|variant| variant.features.contains(&feature.name)),
            "`{}` is in no variant: give it a file in variants/ so the matrix snapshots it",
            feature.name
        );
    }
}

/// A catalogue feature is read only by the `features!` macros
/// (`cfg!(feature = $feature)`, an exclusive pair's `compile_error!`), never
/// named in a `cfg` of its own: so a feature alone compiles whatever its
/// implications reach, which the tests above resolve for every feature, and
/// `ci/check-features.sh` need not type-check all 68 on every commit.
#[test]
fn no_source_names_a_catalogue_feature_in_a_cfg() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut folders = vec![root.join("src"), root.join("crates"), root.join("build.rs")];
    while let Some(path) = folders.pop() {
        if path.is_dir() {
            folders.extend(std::fs::read_dir(&path).unwrap().map(|entry| entry.unwrap().path()));
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            files.push(path);
        }
    }
    assert!(files.len() > 30, "{files:?}");
    let mut named = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for feature in CATALOGUE {
            // `feature = "razor-r1"`, with any spacing.
            let quoted = format!("\"{}\"", feature.name);
            for (at, _) in text.match_indices(&quoted) {
                if text[..at].trim_end().strip_suffix('=').is_some_and(|before| before.trim_end().ends_with("feature"))
                {
                    named.push(format!("{}: `{}`", file.strip_prefix(root).unwrap().display(), feature.name));
                }
            }
        }
    }
    assert!(named.is_empty(), "catalogue features named in a cfg outside features!: {named:?}");
}
