//! The pruning feature catalogue, gathered from the technique files, and the
//! one resolver of implications and exclusivity that the library, the lab,
//! the Makefile (through `prunelab variant-features`) and the variant matrix
//! all use.
//!
//! Each feature is declared in its technique's file (`features!`), which is
//! also where the build's Cargo features are read (`cfg!`), so a binary
//! always says what it is (`prunelab features`, the `id name` line).
//! `implies` must match Cargo.toml's `[features]` table; a test checks it.

pub use crate::techniques::{Exclusive, Feature};
use crate::techniques::{Registration, REGISTRY};

/// Every pruning feature, in registry order, then declaration order.
pub const CATALOGUE: &[Feature] = &flatten::<{ feature_count(REGISTRY) }>(REGISTRY);

const fn feature_count(registry: &[Registration]) -> usize {
    let mut count = 0;
    let mut i = 0;
    while i < registry.len() {
        count += registry[i].features.len();
        i += 1;
    }
    count
}

const fn flatten<const N: usize>(registry: &[Registration]) -> [Feature; N] {
    const EMPTY: Feature =
        Feature { name: "", compiled: false, implies: &[], technique: "", source: "", summary: "", witness: None };
    let mut all = [EMPTY; N];
    let mut count = 0;
    let mut technique = 0;
    while technique < registry.len() {
        let features = registry[technique].features;
        let mut i = 0;
        while i < features.len() {
            all[count] = features[i];
            count += 1;
            i += 1;
        }
        technique += 1;
    }
    all
}

/// Every pruning feature compiled into this binary, in catalogue order.
pub fn compiled() -> Vec<&'static str> {
    CATALOGUE.iter().filter(|feature| feature.compiled).map(|feature| feature.name).collect()
}

/// The feature list as one word for `id name` lines: `none` when empty.
pub fn describe() -> String {
    let list = compiled();
    if list.is_empty() {
        "none".to_string()
    } else {
        list.join(",")
    }
}

/// Looks a feature up by name.
pub fn find(name: &str) -> Option<&'static Feature> {
    CATALOGUE.iter().find(|feature| feature.name == name)
}

/// The names with everything they imply, in catalogue order, or an error
/// naming the unknown feature and listing the valid ones.
pub fn close_over_implications(names: &[&str]) -> Result<Vec<&'static str>, String> {
    let mut wanted: Vec<&'static str> = Vec::new();
    let mut pending: Vec<&str> = names.to_vec();
    while let Some(name) = pending.pop() {
        let feature = find(name).ok_or_else(|| {
            let valid: Vec<&str> = CATALOGUE.iter().map(|f| f.name).collect();
            format!("unknown feature '{name}'; valid features: {}", valid.join(", "))
        })?;
        if !wanted.contains(&feature.name) {
            wanted.push(feature.name);
            pending.extend(feature.implies.iter().copied());
        }
    }
    Ok(CATALOGUE.iter().map(|f| f.name).filter(|name| wanted.contains(name)).collect())
}

/// Refuses two features of one exclusive group, naming both (the same words
/// as the `compile_error!` of a Cargo build).
pub fn check_exclusive(features: &[&str]) -> Result<(), String> {
    for group in REGISTRY.iter().flat_map(|technique| technique.exclusive) {
        let on: Vec<&str> = group.features.iter().copied().filter(|name| features.contains(name)).collect();
        if let [first, second, ..] = on.as_slice() {
            return Err(format!("{} are exclusive: `{first}` and `{second}` are both enabled", group.what));
        }
    }
    Ok(())
}

/// The resolver: a feature list closed over its implications, in catalogue
/// order, with unknown names and exclusive combinations refused.
pub fn resolve(names: &[&str]) -> Result<Vec<&'static str>, String> {
    let resolved = close_over_implications(names)?;
    check_exclusive(&resolved)?;
    Ok(resolved)
}

/// The variant a build with a feature set no variant has calls itself.
pub const CUSTOM_VARIANT: &str = "custom";

// `VARIANT_FEATURE_LISTS`: every variant's name, generations and features,
// as build.rs read them from `variants/`.
include!(concat!(env!("OUT_DIR"), "/variant_names.rs"));

/// The variants whose feature set and tunable values are exactly this
/// build's, parents before children (`p003-3` before `full`), then by name;
/// empty for a feature set no variant has. Read from build.rs's list of the
/// variants' features, so naming the binary loads no variant file.
pub fn compiled_variants() -> Vec<String> {
    let compiled = compiled();
    let mut matching: Vec<(usize, &str)> = VARIANT_FEATURE_LISTS
        .iter()
        .filter(|(_, _, features, tunables)| {
            resolve(features).is_ok_and(|resolved| resolved == compiled)
                && crate::tune::same_values(tunables, crate::tune::BUILT_TUNABLES)
        })
        .map(|(name, generations, ..)| (*generations, *name))
        .collect();
    matching.sort();
    matching.into_iter().map(|(_, name)| name.to_string()).collect()
}

/// The name(s) this binary goes by: its variants joined by `/`
/// (`p003-3/full`), or `custom`.
pub fn variant_label() -> String {
    let variants = compiled_variants();
    if variants.is_empty() {
        CUSTOM_VARIANT.to_string()
    } else {
        variants.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_implications_exist() {
        for (i, feature) in CATALOGUE.iter().enumerate() {
            assert!(CATALOGUE[..i].iter().all(|other| other.name != feature.name), "{}", feature.name);
            for implied in feature.implies {
                assert!(find(implied).is_some(), "{} implies unknown {implied}", feature.name);
            }
        }
    }

    #[test]
    fn implications_close_transitively() {
        assert_eq!(
            close_over_implications(&["futility-2.4"]).unwrap(),
            ["futility-2.1", "futility-2.2", "futility-2.3", "futility-2.4"]
        );
        assert_eq!(close_over_implications(&["razor-r3"]).unwrap(), ["razor-r1", "razor-r2", "razor-r3"]);
        let error = close_over_implications(&["razor-r9"]).unwrap_err();
        assert!(error.contains("razor-r9") && error.contains("razor-r1"), "{error}");
    }

    #[test]
    fn exclusive_groups_are_refused_after_implications() {
        assert_eq!(
            resolve(&["razor-r3", "razor-hyatt"]).unwrap_err(),
            "razoring styles are exclusive: `razor-r1` and `razor-hyatt` are both enabled"
        );
        assert!(resolve(&["razor-r3", "razor-r1"]).is_ok());
        assert!(resolve(&["see-prune-conservative", "see-prune-aggressive"]).unwrap_err().contains("exclusive"));
    }

    #[test]
    fn every_feature_names_its_technique_file() {
        for feature in CATALOGUE {
            assert!(feature.technique.starts_with("src/prune/") && feature.technique.ends_with(".rs"), "{feature:?}");
        }
    }

    #[test]
    fn this_build_is_the_variants_with_its_feature_set() {
        let variants = crate::variants::load().unwrap();
        let mut expected: Vec<&str> =
            variants.iter().filter(|variant| variant.features == compiled()).map(|variant| variant.name()).collect();
        let mut reported = compiled_variants();
        expected.sort_unstable();
        reported.sort_unstable();
        assert_eq!(reported, expected);
        // build.rs's list has every variant, with its chain's length and features.
        for variant in &variants {
            let (_, generations, features, _) =
                VARIANT_FEATURE_LISTS.iter().find(|(name, ..)| *name == variant.name()).expect("every variant listed");
            assert_eq!(*generations, crate::variants::ancestry(&variants, variant.name()).len(), "{}", variant.name());
            assert_eq!(resolve(features).unwrap(), variant.features, "{}", variant.name());
        }
        assert_eq!(VARIANT_FEATURE_LISTS.len(), variants.len());
        // The default build is the baseline; `full` adds to the chain's end,
        // so each has its own set.
        let names = |features: &[&str]| {
            let mut names: Vec<&str> =
                variants.iter().filter(|variant| variant.features == features).map(|v| v.name()).collect();
            names.sort_unstable();
            names
        };
        assert_eq!(names(&[]), ["baseline"]);
        assert_eq!(names(&find_variant(&variants, "full").features), ["full"]);
        assert_eq!(names(&find_variant(&variants, "p003-3").features), ["p003-3"]);
    }

    fn find_variant<'a>(variants: &'a [crate::variants::Variant], name: &str) -> &'a crate::variants::Variant {
        crate::variants::find(variants, name).unwrap()
    }
}
