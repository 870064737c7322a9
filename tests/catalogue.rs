//! The registry (each technique file's `technique!`) and Cargo.toml's
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
            panic!("Cargo.toml declares `{name}`, which no technique file declares (technique! in src/prune/)")
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
