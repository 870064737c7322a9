//! The technique set a search runs with: one value per technique, saying
//! which phase of it (if any) is on.
//!
//! The search is generic over a [`TechniqueSet`], whose `TECHNIQUES` is a
//! constant, so every disabled hook folds away at compile time. A Cargo
//! build uses [`Compiled`], derived from the features compiled in
//! (`features::CATALOGUE`); the variant matrix instantiates other sets from
//! feature lists through the same [`Techniques::from_features`], so a variant
//! and the binary built with its features search identically.

use crate::features::{self, CATALOGUE};
use crate::prune::{
    delta::DeltaPruning, futility::Futility, history_pruning::HistoryPruning, lmr::LateMoveReductions,
    move_count::MoveCountPruning, null_move::NullMovePruning, probcut::ProbCut, qsearch_order::QsearchOrder,
    razoring::Razoring, reverse_futility::ReverseFutility, see_pruning::SeePruning, singular::SingularExtension,
};
use crate::tune::Tunable;

/// Byte-wise string equality usable in constant evaluation.
pub const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Techniques {
    pub null_move: NullMovePruning,
    pub reverse_futility: ReverseFutility,
    pub see_pruning: SeePruning,
    pub futility: Futility,
    pub delta: DeltaPruning,
    pub move_count: MoveCountPruning,
    pub razoring: Razoring,
    pub probcut: ProbCut,
    pub history_pruning: HistoryPruning,
    pub lmr: LateMoveReductions,
    pub qsearch_order: QsearchOrder,
    pub singular: SingularExtension,
}

impl Techniques {
    /// The baseline search: no catalogue feature on.
    pub const BASELINE: Techniques = Techniques {
        null_move: NullMovePruning::BASELINE,
        reverse_futility: ReverseFutility::BASELINE,
        see_pruning: SeePruning::BASELINE,
        futility: Futility::BASELINE,
        delta: DeltaPruning::BASELINE,
        move_count: MoveCountPruning::BASELINE,
        razoring: Razoring::BASELINE,
        probcut: ProbCut::BASELINE,
        history_pruning: HistoryPruning::BASELINE,
        lmr: LateMoveReductions::BASELINE,
        qsearch_order: QsearchOrder::BASELINE,
        singular: SingularExtension::BASELINE,
    };

    /// Switches one feature on; each technique recognises its own names.
    /// Implications must already be resolved.
    pub const fn with(self, feature: &str) -> Techniques {
        Techniques {
            null_move: self.null_move.with(feature),
            reverse_futility: self.reverse_futility.with(feature),
            see_pruning: self.see_pruning.with(feature),
            futility: self.futility.with(feature),
            delta: self.delta.with(feature),
            move_count: self.move_count.with(feature),
            razoring: self.razoring.with(feature),
            probcut: self.probcut.with(feature),
            history_pruning: self.history_pruning.with(feature),
            lmr: self.lmr.with(feature),
            qsearch_order: self.qsearch_order.with(feature),
            singular: self.singular.with(feature),
        }
    }

    /// Switches a feature on together with everything it implies, at compile
    /// time (unknown names change nothing; `from_features` checks names).
    pub const fn with_implied(self, feature: &str) -> Techniques {
        let mut set = self.with(feature);
        let mut i = 0;
        while i < CATALOGUE.len() {
            if same(CATALOGUE[i].name, feature) {
                let implies = CATALOGUE[i].implies;
                let mut j = 0;
                while j < implies.len() {
                    set = set.with_implied(implies[j]);
                    j += 1;
                }
            }
            i += 1;
        }
        set
    }

    /// The set for a feature list, at compile time (for [`technique_set!`]).
    pub const fn of(features: &[&str]) -> Techniques {
        let mut set = Techniques::BASELINE;
        let mut i = 0;
        while i < features.len() {
            set = set.with_implied(features[i]);
            i += 1;
        }
        set
    }

    /// The set for a list of features: implications resolved, unknown names
    /// and exclusive combinations refused with a message naming them.
    pub fn from_features(names: &[&str]) -> Result<Techniques, String> {
        let resolved = features::close_over_implications(names)?;
        Razoring::check_exclusive(&resolved)?;
        SeePruning::check_exclusive(&resolved)?;
        Ok(resolved.iter().fold(Techniques::BASELINE, |set, name| set.with(name)))
    }

    /// The tunables of the techniques this set runs.
    pub fn tunables(&self) -> Vec<&'static Tunable> {
        let mut list: Vec<&'static Tunable> = Vec::new();
        let mut add = |on: bool, tunables: &[&'static Tunable]| {
            if on {
                list.extend_from_slice(tunables);
            }
        };
        add(true, crate::prune::null_move::TUNABLES);
        add(true, crate::prune::reverse_futility::TUNABLES);
        add(self.see_pruning.is_on(), crate::prune::see_pruning::TUNABLES);
        add(self.futility.is_on(), crate::prune::futility::TUNABLES);
        add(true, crate::prune::delta::TUNABLES);
        add(self.move_count.is_on(), crate::prune::move_count::TUNABLES);
        add(self.razoring.is_on(), self.razoring.tunables());
        add(self.probcut.is_on(), crate::prune::probcut::TUNABLES);
        add(self.history_pruning.is_on(), crate::prune::history_pruning::TUNABLES);
        add(self.singular.is_on(), crate::prune::singular::TUNABLES);
        add(self.lmr.history, crate::prune::lmr::TUNABLES);
        list
    }
}

/// The technique set of this binary, from its compiled features.
pub const COMPILED: Techniques = {
    let mut set = Techniques::BASELINE;
    let mut i = 0;
    while i < CATALOGUE.len() {
        if CATALOGUE[i].compiled {
            set = set.with(CATALOGUE[i].name);
        }
        i += 1;
    }
    set
};

/// A technique set as a type, so the search is monomorphized over it.
pub trait TechniqueSet: 'static {
    const TECHNIQUES: Techniques;
}

/// Declares a technique set type from a feature list, for running several
/// sets in one build: `technique_set!(RazorR2, ["razor-r2"]);`.
#[macro_export]
macro_rules! technique_set {
    ($(#[$doc:meta])* $name:ident, [$($feature:literal),* $(,)?]) => {
        $(#[$doc])*
        pub struct $name;
        impl $crate::techniques::TechniqueSet for $name {
            const TECHNIQUES: $crate::techniques::Techniques = $crate::techniques::Techniques::of(&[$($feature),*]);
        }
    };
}

/// The set compiled in with Cargo features.
pub struct Compiled;

impl TechniqueSet for Compiled {
    const TECHNIQUES: Techniques = COMPILED;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiled_set_matches_the_compiled_feature_list() {
        assert_eq!(Techniques::from_features(&features::compiled()).unwrap(), COMPILED);
    }

    #[test]
    fn baseline_has_no_feature() {
        assert_eq!(Techniques::from_features(&[]).unwrap(), Techniques::BASELINE);
        assert_ne!(Techniques::from_features(&["razor-r1"]).unwrap(), Techniques::BASELINE);
    }

    #[test]
    fn exclusive_razoring_styles_are_refused() {
        let error = Techniques::from_features(&["razor-r2", "razor-sf"]).unwrap_err();
        assert!(error.contains("razor-r2") || error.contains("razor-r1"), "{error}");
        assert!(error.contains("razor-sf"), "{error}");
    }

    #[test]
    fn compile_time_sets_match_checked_sets() {
        for feature in CATALOGUE {
            assert_eq!(Techniques::of(&[feature.name]), Techniques::from_features(&[feature.name]).unwrap());
        }
        assert_eq!(
            Techniques::of(&["futility-2.4", "razor-r3"]),
            Techniques::from_features(&["razor-r3", "futility-2.4"]).unwrap()
        );
    }

    #[test]
    fn every_feature_changes_the_set() {
        for feature in CATALOGUE {
            let with = Techniques::from_features(&[feature.name]).unwrap();
            assert_ne!(with, Techniques::BASELINE, "{} changes nothing", feature.name);
        }
    }
}
