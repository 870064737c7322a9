//! Ablations: a variant without one of its techniques (`lab atlas --ablate
//! VARIANT` plays each against the variant itself: the atlas's
//! `ablation_phases`).
//!
//! An ablation is no variant file (so CI's variant matrix, `lab list` and
//! `--all` do not grow by one per technique): it is a feature set, named
//! `<variant>-without-<technique>` after the technique's file,
//! `src/prune/<technique>.rs`, and built and keyed in the atlas by its
//! features as any pair of searches is. The lab also resolves such a name
//! as a variant of its own ([`variant`]: its parent the variant), so `lab
//! ab full-without-razoring` and `lab nodes` measure it without a file, and
//! `lab atlas --keep-fast --ablate full` keeps its fast measures.

use std::path::Path;

use prunelab::features::CATALOGUE;
use prunelab::techniques::Techniques;
use prunelab::variants::{Variant, VariantFile};

/// The technique a feature belongs to, by its file's stem: `razoring` for
/// `src/prune/razoring.rs`.
pub fn technique_of(feature: &str) -> Option<&'static str> {
    let technique = CATALOGUE.iter().find(|known| known.name == feature)?.technique;
    Path::new(technique).file_stem().and_then(|stem| stem.to_str())
}

/// The features left when a technique's own are removed, and with them
/// every feature that implies one of them (it would switch it back on).
fn without(features: &[String], technique: &str) -> Vec<String> {
    let removed = |name: &str| technique_of(name) == Some(technique);
    let mut kept: Vec<String> = features.iter().filter(|name| !removed(name)).cloned().collect();
    loop {
        let implies_removed = |name: &String| {
            let implied = prunelab::features::close_over_implications(&[name.as_str()]).unwrap_or_default();
            implied.iter().any(|implied| !kept.contains(&implied.to_string()))
        };
        let Some(position) = kept.iter().position(implies_removed) else { break };
        kept.remove(position);
    }
    kept
}

/// The techniques `features` compile in, by file stem, in catalogue order.
pub fn techniques(features: &[&str]) -> Vec<&'static str> {
    let mut techniques: Vec<&'static str> = Vec::new();
    for feature in CATALOGUE.iter().filter(|feature| features.contains(&feature.name)) {
        let technique = technique_of(feature.name).expect("a catalogue feature has a technique file");
        if !techniques.contains(&technique) {
            techniques.push(technique);
        }
    }
    techniques
}

/// `base` without `technique`, as a variant: its parent `base`, its
/// features `base`'s less the technique's and what implies them.
fn ablation(base: &Variant, technique: &str) -> Variant {
    let all: Vec<String> = base.features.iter().map(|name| name.to_string()).collect();
    let kept = without(&all, technique);
    let kept: Vec<&str> = kept.iter().map(String::as_str).collect();
    let features = prunelab::features::resolve(&kept).expect("a variant's features less a closed part stay valid");
    let techniques = features.iter().fold(Techniques::BASELINE, |set, name| set.with(name));
    let file = VariantFile {
        name: format!("{}-without-{technique}", base.name()),
        description: format!("`{}` without {technique} (src/prune/{technique}.rs): an ablation", base.name()),
        extends: Some(base.name().to_string()),
        features: Vec::new(),
        source: format!("ablation of {}", base.name()),
        tunables: Vec::new(),
        sections: Vec::new(),
    };
    // The base's tunable values that the techniques left still read.
    let reads = techniques.tunables();
    let tunables =
        base.tunables.iter().filter(|(name, _)| reads.iter().any(|tunable| tunable.name() == *name)).copied().collect();
    Variant { file, features, techniques, tunables }
}

/// The variant a name `<variant>-without-<technique>` stands for, when
/// `<variant>` is one of `variants` and compiles `<technique>` in.
pub fn variant(variants: &[Variant], name: &str) -> Option<Variant> {
    variants.iter().find_map(|base| {
        let technique = name.strip_prefix(base.name())?.strip_prefix("-without-")?;
        techniques(&base.features).contains(&technique).then(|| ablation(base, technique))
    })
}
