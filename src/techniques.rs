//! The technique registry's machinery: how a technique declares itself, and
//! the technique set a search runs with.
//!
//! A technique is one file under `src/prune/`. In that file, and nowhere
//! else, it writes the struct of its feature flags (one `bool` per Cargo
//! feature) and declares with [`features!`](crate::features) what each flag's
//! feature is (what it implies, its plan phase, a summary), which of them are
//! exclusive, and where a feature is known to act; with
//! [`counters!`](crate::counters) its telemetry counters; with
//! [`tunables!`](crate::tunables) its margins and limits; by implementing
//! [`Technique`] its name, its place in the technique set and the counters,
//! its telemetry lines and which of its tunables a configuration reads (by
//! default all of them while any feature is on); and by implementing
//! [`Hooks`] what it does at each step it acts at, where `search.rs` calls it
//! by name.
//! `src/prune/mod.rs` lists every technique, by hand, in pipeline order: its
//! module, its field in the [`Techniques`] set and in the per-search
//! [`TechniqueCounters`], and its [`Registration`] in `REGISTRY`, from which
//! the catalogue (`features::CATALOGUE`), the telemetry and the matrix's
//! counters are gathered.
//!
//! The search is generic over a [`TechniqueSet`], whose `TECHNIQUES` is a
//! constant: a step calls a technique's hook only where the technique runs
//! in the set ([`Runs`]), so an off technique is not even compiled into
//! that set's search, and the flags a hook reads fold away. A Cargo
//! build uses [`Compiled`], derived from the features compiled in; the
//! variant matrix instantiates other sets from feature lists through the
//! same [`Techniques::of`], so a variant and the binary built with its
//! features search identically.

use std::fmt::Debug;

use cozy_chess::{Board, Move};

use crate::context::Context;
use crate::features::{self, CATALOGUE};
use crate::movepick::ScoredMove;
pub use crate::prune::{TechniqueCounters, Techniques, REGISTRY};
use crate::search::{Candidate, Cutoff, Node, NodeType, QNode};

/// One Cargo feature of the pruning catalogue, as its technique declares it.
#[derive(Clone, Copy, Debug)]
pub struct Feature {
    pub name: &'static str,
    /// Compiled into this binary: the one place a pruning feature is read.
    pub compiled: bool,
    /// Features this one switches on too (as in Cargo.toml).
    pub implies: &'static [&'static str],
    /// The technique's file, `src/prune/<technique>.rs`.
    pub technique: &'static str,
    /// The plan phase or published engine it reproduces.
    pub source: &'static str,
    pub summary: &'static str,
    /// A position (FEN) and depth where the feature is known to act, for
    /// features that do not act on seeds.epd at depth 10.
    pub witness: Option<(&'static str, i32)>,
}

/// Features that cannot be on together: any two of them are refused.
#[derive(Clone, Copy, Debug)]
pub struct Exclusive {
    /// What they are, for the message: "razoring styles".
    pub what: &'static str,
    pub features: &'static [&'static str],
}

/// Counters that add up: a search's totals over positions, a bench's over
/// searches.
pub trait Tally {
    fn tally(&mut self, other: &Self);
}

impl Tally for u64 {
    fn tally(&mut self, other: &Self) {
        *self += other;
    }
}

impl<const N: usize> Tally for [u64; N] {
    fn tally(&mut self, other: &Self) {
        for (mine, theirs) in self.iter_mut().zip(other) {
            *mine += theirs;
        }
    }
}

/// A technique without counters of its own.
impl Tally for () {
    fn tally(&mut self, _: &Self) {}
}

/// A technique's features, as [`features!`](crate::features) declares them
/// beside the technique's struct of flags.
pub trait Features {
    /// The technique's catalogue entries, in declaration order.
    const FEATURES: &'static [Feature];
    /// Groups of its features that cannot be on together.
    const EXCLUSIVE: &'static [Exclusive];
    /// One search per feature (with what it implies), for the library's
    /// tests: `prune::feature_searches()`.
    #[cfg(test)]
    const FEATURE_SEARCHES: &'static [(&'static str, crate::matrix::SearchFn)];

    /// Whether any feature of the technique is on.
    fn any_feature(&self) -> bool;
}

/// What a technique tells the rest of the engine about itself, beyond its
/// features ([`Features`]) and its steps ([`Hooks`]).
pub trait Technique: Features + Copy + Debug + Eq + 'static {
    /// The technique's file under `src/prune/`, without `.rs`: its field in
    /// [`Techniques`] and [`TechniqueCounters`], and its name in traces and
    /// in a replay's suppressions.
    const NAME: &'static str;

    /// The telemetry counters the technique keeps in each search.
    type Counters: Tally + Copy + Debug + Default + Eq;

    /// The technique's flags in a technique set.
    fn of(set: &Techniques) -> &Self;

    /// The technique's counters among every technique's.
    fn counters(all: &TechniqueCounters) -> &Self::Counters;

    /// The same, to count in.
    fn counters_mut(all: &mut TechniqueCounters) -> &mut Self::Counters;

    /// The technique's telemetry lines for a search, in the plans' formats;
    /// none when the technique is off.
    fn report(&self, counters: &Self::Counters) -> Vec<String>;

    /// `(name, attempts, cutoffs)` for the variant matrix's counters column;
    /// each name is the key of one of the technique's telemetry lines.
    fn snapshot_counters(_counters: &Self::Counters) -> Vec<(&'static str, u64, u64)> {
        Vec::new()
    }

    /// A baseline technique (null move, reverse futility, delta pruning)
    /// runs in every search, and so reads its tunables whatever its features.
    const ALWAYS_ON: bool = false;

    /// The file's `tunables!` list, read while the technique runs; none by
    /// default.
    fn tunable_list() -> &'static [&'static crate::tune::Tunable] {
        &[]
    }

    /// The tunables this configuration of the technique reads: the whole
    /// list while it runs. A technique whose features read different
    /// tunables (razoring's styles, LMR's terms) says which.
    fn tunables(&self) -> Vec<&'static crate::tune::Tunable> {
        if Self::ALWAYS_ON || self.any_feature() {
            Self::tunable_list().to_vec()
        } else {
            Vec::new()
        }
    }
}

/// A technique as the registry (`prune::REGISTRY`) lists it: its name and
/// catalogue entries, and what the engine asks of every technique in turn
/// (its telemetry, its matrix counters, its tunables), type-erased so the
/// registry is one table.
#[derive(Clone, Copy)]
pub struct Registration {
    /// Its file under `src/prune/`, without `.rs` ([`Technique::NAME`]).
    pub name: &'static str,
    pub features: &'static [Feature],
    pub exclusive: &'static [Exclusive],
    pub(crate) report: fn(&Techniques, &TechniqueCounters) -> Vec<String>,
    pub(crate) snapshot_counters: fn(&TechniqueCounters) -> Vec<(&'static str, u64, u64)>,
    tunables: fn(&Techniques) -> Vec<&'static crate::tune::Tunable>,
    tally: fn(&mut TechniqueCounters, &TechniqueCounters),
    counted: fn(&TechniqueCounters) -> bool,
    #[cfg(test)]
    pub(crate) feature_searches: &'static [(&'static str, crate::matrix::SearchFn)],
}

impl Registration {
    /// Technique `H`'s entry.
    pub const fn of<H: Technique>() -> Registration {
        Registration {
            name: H::NAME,
            features: H::FEATURES,
            exclusive: H::EXCLUSIVE,
            report: report_of::<H>,
            snapshot_counters: snapshot_counters_of::<H>,
            tunables: tunables_of::<H>,
            tally: tally_of::<H>,
            counted: counted_of::<H>,
            #[cfg(test)]
            feature_searches: H::FEATURE_SEARCHES,
        }
    }
}

fn report_of<H: Technique>(set: &Techniques, counters: &TechniqueCounters) -> Vec<String> {
    H::of(set).report(H::counters(counters))
}

fn snapshot_counters_of<H: Technique>(counters: &TechniqueCounters) -> Vec<(&'static str, u64, u64)> {
    H::snapshot_counters(H::counters(counters))
}

fn tunables_of<H: Technique>(set: &Techniques) -> Vec<&'static crate::tune::Tunable> {
    H::of(set).tunables()
}

fn tally_of<H: Technique>(all: &mut TechniqueCounters, other: &TechniqueCounters) {
    H::counters_mut(all).tally(H::counters(other));
}

fn counted_of<H: Technique>(counters: &TechniqueCounters) -> bool {
    *H::counters(counters) != H::Counters::default()
}

/// The techniques' names, in registry order.
pub const fn technique_names<const N: usize>(registry: &[Registration]) -> [&'static str; N] {
    assert!(registry.len() == N, "one name per technique");
    let mut names = [""; N];
    let mut i = 0;
    while i < N {
        names[i] = registry[i].name;
        i += 1;
    }
    names
}

impl Techniques {
    /// The tunables of the techniques this set runs.
    pub fn tunables(&self) -> Vec<&'static crate::tune::Tunable> {
        REGISTRY.iter().flat_map(|technique| (technique.tunables)(self)).collect()
    }
}

impl Tally for TechniqueCounters {
    fn tally(&mut self, other: &Self) {
        for technique in REGISTRY {
            (technique.tally)(self, other);
        }
    }
}

impl TechniqueCounters {
    /// The telemetry lines of the techniques `set` runs, in registry order.
    pub fn report(&self, set: &Techniques) -> Vec<String> {
        REGISTRY.iter().flat_map(|technique| (technique.report)(set, self)).collect()
    }

    /// `(name, attempts, cutoffs)` of every technique, registry order.
    pub fn snapshot_counters(&self) -> Vec<(&'static str, u64, u64)> {
        REGISTRY.iter().flat_map(|technique| (technique.snapshot_counters)(self)).collect()
    }

    /// Whether the technique of a file (`src/prune/<name>.rs`) counted anything.
    pub fn counted_in(&self, technique_file: &str) -> bool {
        REGISTRY
            .iter()
            .find(|technique| {
                technique_file.rsplit('/').next().and_then(|file| file.strip_suffix(".rs")) == Some(technique.name)
            })
            .is_some_and(|technique| (technique.counted)(self))
    }
}

/// What a node-level hook decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeVerdict {
    Continue,
    /// Return this score from the node.
    Prune(i32),
    /// Search the node this many plies shallower.
    Reduce(i32),
}

/// The search's steps, one method each. A technique implements the steps
/// it acts at, and its logic is there: the search's step functions in
/// `search.rs` call each technique that acts at a step, by name, in
/// pipeline order (`negamax` its node-level hooks, the move loop's and
/// quiescence's step functions the others), where it runs in the set
/// ([`Runs`]). Each does nothing unless the technique says otherwise, and
/// reads its features from `T::TECHNIQUES`, which fold away.
///
/// A hook is given what it judges (the node, the move) and its technique's
/// [`Context`]: what it may read and do in the search (its own counters,
/// the stack, traces, the searches it runs), never the search's `Worker`.
#[allow(unused_variables)]
pub(crate) trait Hooks: Technique {
    /// Node-level pruning, one step of `negamax` per technique, after the static eval and before any
    /// move is generated; never in check or in a singular-exclusion search.
    #[inline(always)]
    fn prune_node<T: TechniqueSet, NT: NodeType>(cx: &mut Context<'_, '_, T, Self>, node: &Node) -> NodeVerdict {
        NodeVerdict::Continue
    }

    /// Move ordering, in the move loop: adjusts the scores of the main search's
    /// scored move list before the first pick.
    #[inline(always)]
    fn order_moves<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        node: &Node,
        moves: &mut [ScoredMove],
    ) {
    }

    /// Move ordering, a deferred term (see `ScoredMove::defer`): settles
    /// the score of `entry`, the best remaining move, before it is picked.
    #[inline(always)]
    fn settle_move<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        node: &Node,
        entry: &mut ScoredMove,
    ) {
    }

    /// Reductions, in the move loop: the plies the move's search is reduced
    /// by when it is not the node's first (0 for a move that is not reduced).
    #[inline(always)]
    fn reduce_move<T: TechniqueSet, NT: NodeType>(node: &Node, candidate: &Candidate) -> i32 {
        0
    }

    /// Move pruning, in the move loop: whether `candidate` is skipped without a
    /// search. The search has excluded the root, the first move and nodes
    /// whose every move so far is mated.
    #[inline(always)]
    fn prunes_move<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        node: &Node,
        candidate: &Candidate,
    ) -> bool {
        false
    }

    /// Extensions, in the move loop: plies added to the move's depth (negative to
    /// reduce it). `child` is the position after the move.
    #[inline(always)]
    fn extend_move<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        node: &Node,
        candidate: &Candidate,
        child: &Board,
    ) -> i32 {
        0
    }

    /// The best-move update, at a beta cutoff in the main search: the
    /// technique's own statistics learn from it. The search counts the
    /// cutoff and updates the baseline's killers, countermove and butterfly
    /// history itself.
    #[inline(always)]
    fn update_histories<T: TechniqueSet>(cx: &mut Context<'_, '_, T, Self>, cutoff: &Cutoff) {}

    /// Quiescence pruning after stand pat (not in check): the score to
    /// return when the node is hopeless.
    #[inline(always)]
    fn prune_qnode<T: TechniqueSet, NT: NodeType>(cx: &mut Context<'_, '_, T, Self>, qnode: &QNode) -> Option<i32> {
        None
    }

    /// Quiescence move ordering (not in check), after MVV-LVA.
    #[inline(always)]
    fn order_captures<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        moves: &mut [ScoredMove],
        tt_move: Option<Move>,
    ) {
    }

    /// Quiescence move pruning (not in check): whether the capture
    /// or promotion `entry` is skipped.
    #[inline(always)]
    fn prunes_capture<T: TechniqueSet, NT: NodeType>(
        cx: &mut Context<'_, '_, T, Self>,
        qnode: &QNode,
        entry: &ScoredMove,
    ) -> bool {
        false
    }
}

/// Declares what each flag of a technique's struct is: its Cargo feature,
/// what it implies, the plan phase or engine it follows and a summary, and
/// where it is known to act if seeds.epd at depth 10 is not the place; then
/// the groups of features that are exclusive:
///
/// ```ignore
/// /// Which razoring features are on.
/// #[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// pub struct Razoring {
///     pub r1: bool,
///     pub r2: bool,
/// }
///
/// features! {
///     Razoring {
///         r1: "razor-r1" [] "plan 000, R1" => "razoring at depth <= 2";
///         r2: "razor-r2" ["razor-r1"] "plan 000, R2" => "tactical guard",
///             witness "8/8/..." depth 8;
///     }
///     exclusive "razoring styles": ["razor-r1", "razor-sf"];
/// }
/// ```
///
/// This is the one place a feature is read (`cfg!`). It implements, on the
/// struct, `BASELINE` (nothing on), `with(feature)` and `any()`, and
/// [`Features`] (the catalogue entries, the exclusive groups, a search per
/// feature for the library's tests); and it writes a `compile_error!` for
/// every exclusive pair a Cargo build enables. A flag the struct has and the
/// list lacks (or the other way round) does not compile.
#[macro_export]
macro_rules! features {
    (
        $name:ident {
            $(
                $field:ident: $feature:literal [$($implied:literal),*] $source:literal => $summary:literal
                $(, witness $fen:literal depth $depth:literal)?;
            )*
        }
        $( exclusive $what:literal: [$($exclusive:literal),+ $(,)?]; )*
    ) => {
        impl $name {
            /// Nothing on.
            pub const BASELINE: Self = Self { $( $field: false, )* };

            /// Switches one feature on (implications are the resolver's).
            pub const fn with(self, feature: &str) -> Self {
                #[allow(unused_mut)]
                let mut next = self;
                $( if $crate::techniques::same(feature, $feature) { next.$field = true; } )*
                next
            }

            /// Whether any feature of the technique is on.
            pub const fn any(&self) -> bool {
                false $( || self.$field )*
            }

            /// Whether `feature`, one of the technique's, is on.
            pub const fn has(&self, feature: &str) -> bool {
                false $( || ($crate::techniques::same(feature, $feature) && self.$field) )*
            }
        }

        impl $crate::techniques::Features for $name {
            const FEATURES: &'static [$crate::techniques::Feature] = &[
                $(
                    $crate::techniques::Feature {
                        name: $feature,
                        compiled: cfg!(feature = $feature),
                        implies: &[$($implied),*],
                        technique: file!(),
                        source: $source,
                        summary: $summary,
                        witness: $crate::features!(@witness $($fen, $depth)?),
                    },
                )*
            ];

            const EXCLUSIVE: &'static [$crate::techniques::Exclusive] = &[
                $( $crate::techniques::Exclusive { what: $what, features: &[$($exclusive),+] }, )*
            ];

            #[cfg(test)]
            const FEATURE_SEARCHES: &'static [(&'static str, $crate::matrix::SearchFn)] = feature_searches::ALL;

            fn any_feature(&self) -> bool {
                self.any()
            }
        }

        $( $crate::exclusive_features!($what; $($exclusive),+); )*

        /// One technique set per feature (with what it implies), for the
        /// library's tests: `prune::feature_searches()`; only the features
        /// `$PRUNELAB_FEATURE_SEARCHES` names when it names some (build.rs).
        #[cfg(test)]
        #[allow(non_camel_case_types)]
        #[cfg_attr(prunelab_feature_searches_only, allow(dead_code))]
        mod feature_searches {
            $( $crate::technique_set!($field, [$feature]); )*
            pub(crate) const ALL: &[(&str, $crate::matrix::SearchFn)] = &[
                $(
                    #[cfg(any(not(prunelab_feature_searches_only), prunelab_feature_search = $feature))]
                    ($feature, $crate::matrix::search_as::<$field>),
                )*
            ];
        }
    };
    (@witness) => { None };
    (@witness $fen:literal, $depth:literal) => { Some(($fen, $depth)) };
}

/// A `compile_error!` for every pair of exclusive features a build enables.
#[doc(hidden)]
#[macro_export]
macro_rules! exclusive_features {
    ($what:literal; $first:literal $(, $rest:literal)*) => {
        $(
            #[cfg(all(feature = $first, feature = $rest))]
            compile_error!(concat!($what, " are exclusive: `", $first, "` and `", $rest, "` are both enabled"));
        )*
        $crate::exclusive_features!($what; $($rest),*);
    };
    ($what:literal;) => {};
}

/// Declares a technique's telemetry counters: a struct of `u64` and
/// `[u64; N]` fields that add up field by field.
#[macro_export]
macro_rules! counters {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$field_meta:meta])* pub $field:ident: $type:ty, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name {
            $( $(#[$field_meta])* pub $field: $type, )*
        }

        impl $crate::techniques::Tally for $name {
            fn tally(&mut self, other: &Self) {
                $( $crate::techniques::Tally::tally(&mut self.$field, &other.$field); )*
            }
        }
    };
}

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

impl Techniques {
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
        let resolved = features::resolve(names)?;
        Ok(resolved.iter().fold(Techniques::BASELINE, |set, name| set.with(name)))
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

/// Whether technique `H` runs in technique set `T`: a baseline technique
/// always, another when one of its features is on. The search's steps
/// call a hook only `if Runs::<T, H>::ON`: rustc leaves a branch on a
/// constant out of a generic function's code for a type, so a technique
/// that is off is not compiled into that set's search at all. Without it
/// every search compiled every technique's hooks for LLVM to fold away:
/// the variants build's engine crate, its 71 searches, took 129 CPU-s to
/// compile, with it 97 (with `movepick::settle_best` taking its settle
/// step as `dyn`).
pub(crate) struct Runs<T, H>(std::marker::PhantomData<(T, H)>);

impl<T: TechniqueSet, H: Technique> Runs<T, H> {
    pub(crate) const ON: bool = H::ALWAYS_ON || any_on(&T::TECHNIQUES, H::FEATURES);
}

/// Whether any of `features` is on in `set`.
const fn any_on(set: &Techniques, features: &[Feature]) -> bool {
    let mut i = 0;
    while i < features.len() {
        if set.has(features[i].name) {
            return true;
        }
        i += 1;
    }
    false
}

/// A technique set as a type, so the search is monomorphized over it.
pub trait TechniqueSet: 'static {
    const TECHNIQUES: Techniques;
    /// A variant's `[tunables]` (UCI names), which the search sets before it
    /// starts (`tune::select_variant_values`); a build of one feature set
    /// has them as constants instead (`$PRUNELAB_TUNABLES`).
    const TUNED: &'static [(&'static str, i32)] = &[];
    /// Evaluated where the search starts: a build that cannot set `TUNED`
    /// at run time refuses to compile a search of a set that has values.
    const TUNED_SEARCHABLE: () = assert!(
        Self::TUNED.is_empty() || crate::tune::has_runtime_values(),
        "a technique set with tunable values searches only in the variants or tuning build"
    );
}

/// Declares a technique set type from a feature list, for running several
/// sets in one build: `technique_set!(RazorR2, ["razor-r2"]);`, and with a
/// variant's tunable values, `technique_set!(Tuned, ["rfp-margin-90"],
/// tunables [("ReverseFutilityDepthMargin", 75)]);`.
#[macro_export]
macro_rules! technique_set {
    ($(#[$doc:meta])* $name:ident, [$($feature:literal),* $(,)?]) => {
        $crate::technique_set!($(#[$doc])* $name, [$($feature),*], tunables []);
    };
    ($(#[$doc:meta])* $name:ident, [$($feature:literal),* $(,)?], tunables [$(($tunable:literal, $value:expr)),* $(,)?]) => {
        $(#[$doc])*
        pub struct $name;
        impl $crate::techniques::TechniqueSet for $name {
            const TECHNIQUES: $crate::techniques::Techniques = $crate::techniques::Techniques::of(&[$($feature),*]);
            const TUNED: &'static [(&'static str, i32)] = &[$(($tunable, $value)),*];
        }
    };
}

#[cfg(test)]
crate::technique_set!(
    /// The baseline as a technique set, for the library's tests: one type,
    /// so its search is compiled once for them.
    Baseline,
    []
);

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
    fn exclusive_features_are_refused_by_name() {
        let error = Techniques::from_features(&["razor-r2", "razor-sf"]).unwrap_err();
        assert_eq!(error, "razoring styles are exclusive: `razor-r1` and `razor-sf` are both enabled");
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

    #[test]
    fn counters_add_field_by_field() {
        crate::counters! {
            pub struct Example {
                pub attempts: u64,
                pub by_depth: [u64; 2],
            }
        }
        let mut total = Example::default();
        let one = Example { attempts: 3, by_depth: [1, 2] };
        total.tally(&one);
        total.tally(&one);
        assert_eq!(total, Example { attempts: 6, by_depth: [2, 4] });
    }
}
