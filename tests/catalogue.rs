//! The feature catalogue (src/features.rs) and Cargo.toml's `[features]`
//! table describe the same features with the same implications, so a
//! variant resolved in-process means what `cargo build --features` means.

use prunelab::features::CATALOGUE;

#[test]
fn cargo_features_match_the_catalogue() {
    let manifest: toml::Table = include_str!("../Cargo.toml").parse().expect("Cargo.toml parses");
    let features = manifest["features"].as_table().expect("a [features] table");
    let non_catalogue = ["default", "tune", "full"];
    for (name, implies) in features {
        if non_catalogue.contains(&name.as_str()) {
            continue;
        }
        let feature = prunelab::features::find(name).unwrap_or_else(|| panic!("{name} is not in the catalogue"));
        let implies: Vec<&str> = implies.as_array().unwrap().iter().map(|value| value.as_str().unwrap()).collect();
        assert_eq!(implies, feature.implies, "{name}: Cargo.toml and the catalogue disagree");
    }
    for feature in CATALOGUE {
        assert!(features.contains_key(feature.name), "{} is missing from Cargo.toml", feature.name);
    }
}

#[test]
fn every_catalogue_entry_names_an_existing_technique_file() {
    for feature in CATALOGUE {
        let path = format!("{}/src/prune/{}.rs", env!("CARGO_MANIFEST_DIR"), feature.technique);
        assert!(std::path::Path::new(&path).exists(), "{}: no {path}", feature.name);
    }
}
