//! Selectivity, one file per technique. Each file opens with what the
//! technique is, its other names and the plan phase or engine each of its
//! variants follows; its phases sit side by side; its configuration (which
//! phase is on) is a small `Copy` value in the technique set
//! (`techniques.rs`); its tunables are declared once at its top; and its
//! hooks are `Worker` methods the search calls unconditionally, folding away
//! when the technique is off.
//!
//! Baseline techniques (null move, reverse futility, delta pruning, late move
//! reductions) are always on; the catalogue's features change or add to them.

pub mod delta;
pub mod futility;
pub mod history_pruning;
pub mod lmr;
pub mod move_count;
pub mod null_move;
pub mod probcut;
pub mod qsearch_order;
pub mod razoring;
pub mod reverse_futility;
pub mod see_pruning;
pub mod singular;

use crate::stats::SearchStats;
use crate::techniques::Techniques;

/// The catalogue techniques' telemetry lines for the techniques `set` runs,
/// in the plans' formats; techniques that are off print nothing.
pub fn report_lines(stats: &SearchStats, set: &Techniques) -> Vec<String> {
    let mut lines = Vec::new();
    lines.extend(razoring::report(stats, &set.razoring));
    lines.extend(futility::report_lines(stats, &set.futility));
    lines.extend(move_count::report(stats, &set.move_count));
    lines.extend(null_move::report(stats, &set.null_move));
    lines.extend(see_pruning::report(stats, &set.see_pruning));
    lines.extend(delta::report(stats, &set.delta));
    lines.extend(probcut::report(stats, &set.probcut));
    lines.extend(history_pruning::report(stats, &set.history_pruning));
    lines.extend(singular::report(stats, &set.singular));
    if set.futility.is_on() || set.move_count.is_on() || set.razoring.is_on() {
        use crate::stats::Technique;
        let cuts = |technique| stats.counters(technique).cutoffs;
        lines.push(format!(
            "prune: fut={} mcp={} razor={}",
            cuts(Technique::Futility) + cuts(Technique::FutilityNode),
            cuts(Technique::MoveCount),
            cuts(Technique::Razoring)
        ));
    }
    lines
}
