//! The pruning feature catalogue: every feature's name, what it implies, the
//! technique file it belongs to, and the plan phase or engine it follows.
//!
//! This table is the one place where Cargo features are read (`cfg!`), so a
//! binary always says what it is (`prunelab features`, the `id name` line),
//! and the search's technique set (`techniques::COMPILED`) is derived from it.
//! `implies` must match Cargo.toml's `[features]` table; a test checks it.

/// One Cargo feature of the pruning catalogue.
#[derive(Debug)]
pub struct Feature {
    pub name: &'static str,
    /// Compiled into this binary.
    pub compiled: bool,
    /// Features this one switches on too (as in Cargo.toml).
    pub implies: &'static [&'static str],
    /// The technique's file under `src/prune/`.
    pub technique: &'static str,
    /// The plan phase or published engine it reproduces.
    pub source: &'static str,
    pub summary: &'static str,
}

macro_rules! catalogue {
    ($( $name:literal [$($implied:literal),*] $technique:literal, $source:literal, $summary:literal; )*) => {
        /// Every pruning feature, in catalogue order.
        pub const CATALOGUE: &[Feature] = &[
            $( Feature {
                name: $name,
                compiled: cfg!(feature = $name),
                implies: &[$($implied),*],
                technique: $technique,
                source: $source,
                summary: $summary,
            }, )*
        ];
    };
}

catalogue! {
    "nmp-margin-90" [] "reverse_futility", "plan 002, 1.1", "static null move margin 90 cp per ply instead of 120";
    "rfp-depth-6" [] "reverse_futility", "plan 002, 1.2a", "static null move up to depth 6 instead of 3";
    "rfp-no-material-gate" [] "reverse_futility", "plan 002, 1.2b", "no material-balance pre-check for static null move";
    "rfp-simple" ["rfp-depth-6", "rfp-no-material-gate"] "reverse_futility", "plan 002, 1.2c (Publius)", "static null move gated on non-pawn material instead of the material check";
    "see-prune-conservative" [] "see_pruning", "plan 002, 1.3", "quiescence skips captures with SEE < -100";
    "see-prune-aggressive" [] "see_pruning", "plan 002, 1.3 (aggressive)", "quiescence skips captures with SEE < -75";
    "nmp-verify-12" [] "null_move", "plan 002, 1.4", "verify null-move fail-highs at depth >= 12";
    "nmp-verify-10" ["nmp-verify-12"] "null_move", "plan 002, 1.5", "verify null-move fail-highs at depth >= 10";
    "futility-2.1" [] "futility", "plan 002, 2.1", "move-level futility, margin 150 + 60 d, depth <= 4";
    "futility-2.2" ["futility-2.1"] "futility", "plan 002, 2.2", "futility margin 130 + 75 d";
    "futility-2.3" ["futility-2.2"] "futility", "plan 002, 2.3", "futility up to depth 6";
    "futility-2.4" ["futility-2.3"] "futility", "plan 002, 2.4 (Laser)", "futility margin 115 + 90 d";
    "futility-node" [] "futility", "plan 002, 2.1 as written", "node-level futility: return static eval when eval + 150 + 60 d <= alpha";
    "futility-progressive" ["futility-2.1"] "futility", "plan 003, 1.1", "futility to depth 7 with margins 150..825";
    "rfp-progressive" [] "reverse_futility", "plan 003, 1.2", "static null move to depth 8 with the plan's margin table";
    "delta-enhanced" [] "delta", "plan 003, 1.3", "coarse qsearch delta filter; halved delta for minor or smaller victims";
    "futility-effective-depth" ["futility-2.1"] "futility", "plan 003, phase 2", "futility on depth minus the LMR reduction, gated on the child's PV status";
    "futility-tactical-guards" ["futility-2.1"] "futility", "plan 003", "no futility for checks, TT move, killers, countermove; depth <= 2 with a good capture";
    "futility-victim" [] "futility", "plan 003, priority 2", "extended futility at depths 4-7 using the best capturable victim";
    "lmp" [] "move_count", "plan 002, 3.1", "late move pruning with limits 3..50 for depths 1-8";
    "lmp-history" ["lmp"] "move_count", "plan 002, 3.2", "+5 to the limit for moves with good history";
    "lmp-countermove" ["lmp"] "move_count", "plan 002, 3.3", "never prune the countermove";
    "lmp-depth-10" ["lmp"] "move_count", "plan 003, 2.1", "late move pruning to depth 10 (limits 48, 54)";
    "razor-r1" [] "razoring", "plan 000 R1", "razoring at depth <= 2, margins 300/500, null-window qsearch";
    "razor-r2" ["razor-r1"] "razoring", "plan 000 R2", "razoring tactical guard: +150 with a capture of SEE >= 0";
    "razor-r3" ["razor-r2"] "razoring", "plan 000 R3", "phase-aware razoring margins";
    "razor-plan-4.1" [] "razoring", "plan 002, 4.1", "razoring margin 300 at depth <= 2, full-window qsearch";
    "razor-sf" [] "razoring", "Stockfish 2022", "razoring at any depth when eval < alpha - 512 - 293 d^2";
    "razor-heinz" [] "razoring", "Heinz, limited razoring", "depth 3 reduced to 2 when material + margin <= alpha";
    "razor-hyatt" [] "razoring", "Hyatt/Romstad", "drop into qsearch at depth <= 3 when eval + 300 < beta";
    "razor-strelka" [] "razoring", "Strelka 2.0", "fail-hard razoring at depths 1-3 with max(q, value)";
    "razor-crafty" [] "razoring", "Crafty 15.17", "reduce one more ply at depth 2 when value + 50 < alpha";
    "probcut" [] "probcut", "plan 002, phase 5", "captures with SEE >= rbeta - eval cut when qsearch and a depth - 4 search beat beta + 100";
    "history-pruning" [] "history_pruning", "plan 003", "prune quiet moves with history below -threshold * depth at depth <= 3";
    "lmr-history" [] "lmr", "plan 003", "LMR adjusted by history, more for late quiets with bad history";
    "qsearch-tt-first" [] "qsearch_order", "plan 003", "the TT move first in quiescence";
    "singular-ext" [] "singular", "plan 003", "singular extension of the TT move";
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

// `COMPILED_VARIANTS`: build.rs compares every variant's feature set with the
// features this build enables.
include!(concat!(env!("OUT_DIR"), "/compiled_variant.rs"));

/// The variant a build with a feature set no variant has calls itself.
pub const CUSTOM_VARIANT: &str = "custom";

/// The name(s) this binary goes by: its variants joined by `/`
/// (`p003-3/full`), or `custom`.
pub fn variant_label() -> String {
    if COMPILED_VARIANTS.is_empty() {
        CUSTOM_VARIANT.to_string()
    } else {
        COMPILED_VARIANTS.join("/")
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
    fn compiled_variants_are_the_variants_with_this_feature_set() {
        let variants = crate::variants::load().unwrap();
        let expected: Vec<&str> =
            variants.iter().filter(|variant| variant.features == compiled()).map(|variant| variant.name()).collect();
        let mut generated = COMPILED_VARIANTS.to_vec();
        generated.sort();
        assert_eq!(generated, expected, "build.rs and variants::load disagree on this build's variants");
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
}
