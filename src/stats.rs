//! Search counters, kept per search and printed in the plans' formats.
//!
//! The search's own counters live here; each technique keeps its counters
//! in its file (`counters!`), gathered by the registry into
//! [`TechniqueCounters`]. Counting never changes the search: these are
//! plain increments that no search decision reads.

use crate::techniques::{Tally, TechniqueCounters, Techniques};

/// The kinds a cutting move is counted under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutoffKind {
    TtMove = 0,
    Killer = 1,
    Capture = 2,
    Quiet = 3,
}

const CUTOFF_KIND_NAMES: [&str; 4] = ["tt", "killer", "capture", "quiet"];

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Every node visited, main search and quiescence.
    pub nodes: u64,
    pub qsearch_nodes: u64,
    /// Main-search nodes by their depth (after the check extension): 1,
    /// 2, ..., 19, 20+.
    pub nodes_by_depth: [u64; NODE_DEPTHS],
    /// Main-search nodes by the number of the move that led to them in
    /// their parent's move loop, in [`MOVE_NUMBER_EDGES`]' buckets (the
    /// root, a null move's child and a probcut capture's are in none).
    pub nodes_by_move: [u64; MOVE_NUMBER_EDGES.len()],
    pub tt_probes: u64,
    pub tt_hits: u64,
    /// Nodes that returned on the TT score alone.
    pub tt_cutoffs: u64,
    /// TT moves that were not legal here (a key-check collision).
    pub illegal_tt_moves: u64,
    pub beta_cutoffs: u64,
    pub first_move_cutoffs: u64,
    pub cutoffs_by_kind: [u64; 4],
    pub first_move_cutoffs_by_kind: [u64; 4],
    /// Zero-window searches of later moves at PV nodes, and how many of
    /// them beat alpha and were searched again with the full window.
    pub pvs_zero_window: u64,
    pub pvs_researches: u64,
    /// Root searches repeated because the aspiration window failed, and the
    /// iterations in which it failed low and high (the plans' `asp:`).
    pub aspiration_researches: u64,
    pub aspiration_fail_lows: u64,
    pub aspiration_fail_highs: u64,
    /// Killers and countermoves that are not moves of the node they were
    /// offered to (with `illegal_tt_moves`, the plans' `illegal:`).
    pub rejected_hints: u64,
    /// Every technique's counters.
    pub techniques: TechniqueCounters,
}

/// How many depths `nodes: by_depth=` has: 1 to 19, then 20 and deeper.
pub const NODE_DEPTHS: usize = 20;

/// Where the buckets of `nodes: by_move=` start: moves 1, 2, 3, 4-7, 8-15,
/// 16 and later (the baseline reduces from the fourth move on).
pub const MOVE_NUMBER_EDGES: [usize; 6] = [1, 2, 3, 4, 8, 16];

/// `part` as a percentage of `whole`, with one decimal.
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "0.0".to_string()
    } else {
        format!("{:.1}", part as f64 * 100.0 / whole as f64)
    }
}

/// `att=X cut=Y cut%=Z.Z%`, the plans' common prefix.
pub fn rate(attempts: u64, cutoffs: u64) -> String {
    format!("att={attempts} cut={cutoffs} cut%={}%", percent(cutoffs, attempts))
}

/// `cut=X first=Y first%=Z.Z%`: the cutoffs by moves a history ordered, and
/// how many of them by the first such move picked.
pub fn first_rate(cutoffs: u64, first: u64) -> String {
    format!("cut={cutoffs} first={first} first%={}%", percent(first, cutoffs))
}

/// The plans' depth buckets for `fut_b` and `mcp_b`: d1-3, d4-6, d7-9, d10+.
pub fn depth_bucket(depth: i32) -> usize {
    ((depth.max(1) - 1) / 3).min(3) as usize
}

/// `[a,b,...]`, the plans' bucket lists.
pub fn buckets(counts: &[u64]) -> String {
    let shown: Vec<String> = counts.iter().map(u64::to_string).collect();
    format!("[{}]", shown.join(","))
}

impl SearchStats {
    /// A main-search node of `depth`, reached by the move numbered
    /// `move_number` (0: not by a move of a move loop).
    #[inline]
    pub fn count_main_node(&mut self, depth: i32, move_number: usize) {
        self.nodes_by_depth[(depth.clamp(1, NODE_DEPTHS as i32) - 1) as usize] += 1;
        if move_number > 0 {
            let bucket = MOVE_NUMBER_EDGES.iter().rposition(|&edge| move_number >= edge).unwrap_or(0);
            self.nodes_by_move[bucket] += 1;
        }
    }

    pub fn record_cutoff(&mut self, kind: CutoffKind, first_move: bool) {
        self.beta_cutoffs += 1;
        self.cutoffs_by_kind[kind as usize] += 1;
        if first_move {
            self.first_move_cutoffs += 1;
            self.first_move_cutoffs_by_kind[kind as usize] += 1;
        }
    }

    /// Adds another search's counters, for bench totals.
    pub fn add(&mut self, other: &SearchStats) {
        let SearchStats {
            nodes,
            qsearch_nodes,
            nodes_by_depth,
            nodes_by_move,
            tt_probes,
            tt_hits,
            tt_cutoffs,
            illegal_tt_moves,
            beta_cutoffs,
            first_move_cutoffs,
            cutoffs_by_kind,
            first_move_cutoffs_by_kind,
            pvs_zero_window,
            pvs_researches,
            aspiration_researches,
            aspiration_fail_lows,
            aspiration_fail_highs,
            rejected_hints,
            techniques,
        } = other;
        self.nodes.tally(nodes);
        self.qsearch_nodes.tally(qsearch_nodes);
        self.nodes_by_depth.tally(nodes_by_depth);
        self.nodes_by_move.tally(nodes_by_move);
        self.tt_probes.tally(tt_probes);
        self.tt_hits.tally(tt_hits);
        self.tt_cutoffs.tally(tt_cutoffs);
        self.illegal_tt_moves.tally(illegal_tt_moves);
        self.beta_cutoffs.tally(beta_cutoffs);
        self.first_move_cutoffs.tally(first_move_cutoffs);
        self.cutoffs_by_kind.tally(cutoffs_by_kind);
        self.first_move_cutoffs_by_kind.tally(first_move_cutoffs_by_kind);
        self.pvs_zero_window.tally(pvs_zero_window);
        self.pvs_researches.tally(pvs_researches);
        self.aspiration_researches.tally(aspiration_researches);
        self.aspiration_fail_lows.tally(aspiration_fail_lows);
        self.aspiration_fail_highs.tally(aspiration_fail_highs);
        self.rejected_hints.tally(rejected_hints);
        self.techniques.tally(techniques);
    }

    /// The `info string` lines (without that prefix), one per subject: the
    /// search's, then those of the techniques `techniques` runs, then the
    /// plans' `prune:` totals.
    pub fn report_lines_for(&self, techniques: &Techniques) -> Vec<String> {
        let mut lines = self.search_lines();
        lines.extend(self.techniques.report(techniques));
        if techniques.futility.any() || techniques.move_count.any() || techniques.razoring.any() {
            let counters = &self.techniques;
            lines.push(format!(
                "prune: fut={} mcp={} razor={}",
                counters.futility.cutoffs + counters.futility.node_cutoffs,
                counters.move_count.cutoffs,
                counters.razoring.cutoffs
            ));
        }
        lines
    }

    /// The search's own `info string` lines (without that prefix).
    pub fn search_lines(&self) -> Vec<String> {
        let kinds = |counts: &[u64; 4]| {
            CUTOFF_KIND_NAMES
                .iter()
                .zip(counts)
                .map(|(name, count)| format!("{name}={count}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        vec![
            // `by_depth`, `by_move`: main-search nodes by depth and by the
            // number of the move that led to them (for the lab's claims
            // scoped to depths or move numbers).
            format!(
                "nodes: total={} qs={} qs%={}% by_depth={} by_move={}",
                self.nodes,
                self.qsearch_nodes,
                percent(self.qsearch_nodes, self.nodes),
                buckets(&self.nodes_by_depth),
                buckets(&self.nodes_by_move)
            ),
            format!(
                "tt: probes={} hits={} hit%={}% cut={} illegal_moves={}",
                self.tt_probes,
                self.tt_hits,
                percent(self.tt_hits, self.tt_probes),
                self.tt_cutoffs,
                self.illegal_tt_moves
            ),
            // `tt%`: the TT move's share of cutoffs (plan 003's "TT move cutoffs").
            format!(
                "cutoffs: total={} {} tt%={}%",
                self.beta_cutoffs,
                kinds(&self.cutoffs_by_kind),
                percent(self.cutoffs_by_kind[CutoffKind::TtMove as usize], self.beta_cutoffs)
            ),
            format!(
                "first: cut={} first%={}% {}",
                self.first_move_cutoffs,
                percent(self.first_move_cutoffs, self.beta_cutoffs),
                kinds(&self.first_move_cutoffs_by_kind)
            ),
            format!(
                "pvs: zw={} re={} re%={}%",
                self.pvs_zero_window,
                self.pvs_researches,
                percent(self.pvs_researches, self.pvs_zero_window)
            ),
            // `att`: re-searches over all iterations; `low`/`high`: iterations
            // whose window failed low/high at least once (plan 003).
            format!(
                "asp: att={} low={} high={}",
                self.aspiration_researches, self.aspiration_fail_lows, self.aspiration_fail_highs
            ),
            // `first`: rejected TT moves, the first move a node would try;
            // `total`: every rejected candidate, killers and countermoves too
            // (plan 003's line; moves are generated legal here, so the
            // candidates are what can be illegal).
            format!("illegal: first={} total={}", self.illegal_tt_moves, self.illegal_tt_moves + self.rejected_hints),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_follow_the_plans_formats() {
        let mut stats = SearchStats {
            aspiration_researches: 5,
            aspiration_fail_lows: 1,
            aspiration_fail_highs: 2,
            illegal_tt_moves: 2,
            rejected_hints: 3,
            ..Default::default()
        };
        stats.techniques.null_move.attempts = 8;
        stats.techniques.null_move.cutoffs = 3;
        let lines = stats.report_lines_for(&Techniques::BASELINE);
        assert!(lines.contains(&"null: att=8 cut=3 cut%=37.5%".to_string()), "{lines:?}");
        assert!(lines.contains(&"asp: att=5 low=1 high=2".to_string()), "{lines:?}");
        assert!(lines.contains(&"illegal: first=2 total=5".to_string()), "{lines:?}");
        assert_eq!(rate(0, 0), "att=0 cut=0 cut%=0.0%");
        assert_eq!(buckets(&[1, 2]), "[1,2]");
    }

    #[test]
    fn add_sums_every_counter() {
        let mut total = SearchStats::default();
        let mut one = SearchStats { nodes: 10, pvs_researches: 2, ..Default::default() };
        one.record_cutoff(CutoffKind::Killer, true);
        one.techniques.razoring.by_depth[1] = 3;
        total.add(&one);
        total.add(&one);
        assert_eq!(total.nodes, 20);
        assert_eq!(total.pvs_researches, 4);
        assert_eq!(total.first_move_cutoffs_by_kind[CutoffKind::Killer as usize], 2);
        assert_eq!(total.techniques.razoring.by_depth, [0, 6, 0, 0]);
    }

    #[test]
    fn main_nodes_are_counted_by_depth_and_by_the_move_that_led_to_them() {
        let mut stats = SearchStats::default();
        for (depth, move_number) in [(1, 1), (3, 3), (3, 4), (7, 7), (25, 8), (2, 40), (5, 0)] {
            stats.count_main_node(depth, move_number);
        }
        assert_eq!(stats.nodes_by_depth[..8], [1, 1, 2, 0, 1, 0, 1, 0]);
        assert_eq!(stats.nodes_by_depth[NODE_DEPTHS - 1], 1);
        assert_eq!(stats.nodes_by_move, [1, 0, 1, 2, 1, 1]);
    }
}
