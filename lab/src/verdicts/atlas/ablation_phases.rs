//! `lab atlas --ablate VARIANT`: the variant without one of its techniques,
//! each against the variant itself. A phase of the plans adds a technique
//! and most of them win; an ablation takes one away from the strongest
//! search, so the atlas also holds results that lose, and the calibration
//! learns what a loss looks like in the fast measures. The ablations
//! themselves, variants without a file, are `crate::variants::ablations`.

use anyhow::{bail, Result};
use games::statistics::{Model, SprtSettings};

use super::{sorted_features, Phase, Searches};
use crate::lab::Lab;
use crate::variants::ablations::techniques;
use crate::variants::grammar::Planned;

/// The SPRT of an ablation when its variant's file has none: the plans'
/// usual bounds, [0, 5] normalized Elo. The ablation is the first engine,
/// so accepting H0 says the technique is worth something (its removal gains
/// nothing), and H1 that the search is better without it.
pub(super) const DEFAULT_SPRT: SprtSettings =
    SprtSettings { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05, model: Model::Normalized };

/// One phase per technique the variant compiles in, in catalogue order:
/// the variant without it against the variant.
pub fn phases(lab: &Lab, base: &str) -> Result<Vec<Phase>> {
    let variant = lab.own_variant(base)?;
    let techniques = techniques(&variant.features);
    if techniques.is_empty() {
        bail!("--ablate {base}: `{base}` compiles in no pruning technique, so there is nothing to take away");
    }
    let features = sorted_features(lab, base)?;
    let sprt = match variant.plan().sprt {
        Some(plan) => SprtSettings { elo0: plan.bounds.0, elo1: plan.bounds.1, ..DEFAULT_SPRT },
        None => DEFAULT_SPRT,
    };
    techniques
        .into_iter()
        .map(|technique| {
            let name = format!("{base}-without-{technique}");
            Ok(Phase {
                searches: Some(Searches {
                    features: sorted_features(lab, &name)?,
                    parent_features: features.clone(),
                    sprt,
                }),
                variant: name,
                parent: base.to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::ablations::technique_of;

    #[test]
    fn the_lab_resolves_an_ablation_by_name_without_a_file() {
        let lab = Lab::for_tests();
        let razoring = lab.variant("full-without-razoring").unwrap();
        assert_eq!(razoring.file.extends.as_deref(), Some("full"));
        assert_eq!(razoring.name(), "full-without-razoring");
        let phase = phases(&lab, "full").unwrap().into_iter().find(|phase| phase.variant == razoring.name()).unwrap();
        let mut features: Vec<String> = razoring.features.iter().map(|name| name.to_string()).collect();
        features.sort();
        assert_eq!(features, phase.searches.unwrap().features);
        assert!(!razoring.features.iter().any(|name| technique_of(name) == Some("razoring")));
        // Made once, lent out again.
        assert!(std::ptr::eq(razoring, lab.own_variant("full-without-razoring").unwrap()));
        // The repository's variants do not grow: `lab list`, `--all` and
        // CI's matrix read those.
        assert!(!lab.variants.iter().any(|variant| variant.name().contains("-without-")));
        // Not a technique of full's, not a variant, not a technique at all.
        let unknown = lab.variant("baseline-without-razoring").unwrap_err().to_string();
        assert!(unknown.starts_with("unknown variant `baseline-without-razoring`"), "{unknown}");
        assert!(lab.variant("nothing-without-razoring").is_err());
        assert!(lab.variant("full-without-nothing").is_err());
    }

    #[test]
    fn an_ablation_removes_one_technique_and_what_implies_it() {
        let lab = Lab::for_tests();
        let ablations = phases(&lab, "full").unwrap();
        let full = sorted_features(&lab, "full").unwrap();
        let names: Vec<&str> = ablations.iter().map(|phase| phase.variant.as_str()).collect();
        assert!(names.contains(&"full-without-razoring"), "{names:?}");
        assert!(names.contains(&"full-without-futility"), "{names:?}");
        let mut seen = Vec::new();
        for phase in &ablations {
            assert_eq!(phase.parent, "full");
            let searches = phase.searches.as_ref().unwrap();
            assert_eq!(searches.parent_features, full);
            let technique = phase.variant.strip_prefix("full-without-").unwrap();
            assert!(!seen.contains(&technique), "{technique} twice");
            seen.push(technique);
            // The technique's features are gone, and a feature of another
            // technique is gone only when it implies one of them.
            for feature in &full {
                let kept = searches.features.contains(feature);
                let implied = prunelab::features::close_over_implications(&[feature.as_str()]).unwrap();
                let needs_removed = implied.iter().any(|name| technique_of(name) == Some(technique));
                assert_eq!(kept, !needs_removed, "{technique}: {feature}");
            }
            let refs: Vec<&str> = searches.features.iter().map(String::as_str).collect();
            let closed = prunelab::features::close_over_implications(&refs).unwrap();
            assert_eq!(closed.len(), refs.len(), "{technique}: the set is closed under implication");
            // full's own SPRT bounds.
            assert_eq!((searches.sprt.elo0, searches.sprt.elo1), (0.0, 5.0));
        }
        // One phase per technique file full compiles a feature of.
        let mut files: Vec<&str> = full.iter().filter_map(|feature| technique_of(feature)).collect();
        files.sort_unstable();
        files.dedup();
        assert_eq!(seen.len(), files.len());
        let move_count = &ablations.iter().find(|phase| phase.variant == "full-without-move_count").unwrap();
        let removed: Vec<&String> =
            full.iter().filter(|name| !move_count.searches.as_ref().unwrap().features.contains(name)).collect();
        // staged-skip, of the staged picker, implies lmp-skip-quiets.
        assert_eq!(removed, ["lmp", "lmp-countermove", "lmp-history", "lmp-skip-quiets", "staged-skip"]);
        let none = phases(&lab, "baseline").unwrap_err().to_string();
        assert_eq!(
            none,
            "--ablate baseline: `baseline` compiles in no pruning technique, so there is nothing to take away"
        );
    }
}
