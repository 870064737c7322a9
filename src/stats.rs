//! Search counters, kept per search and printed in the plans' formats.
//!
//! Counting never changes the search: these are plain increments that no
//! search decision reads.

/// The kinds a cutting move is counted under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutoffKind {
    TtMove = 0,
    Killer = 1,
    Capture = 2,
    Quiet = 3,
}

const CUTOFF_KIND_NAMES: [&str; 4] = ["tt", "killer", "capture", "quiet"];

/// The catalogue techniques that keep counters, one slot each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Technique {
    Razoring = 0,
    Futility = 1,
    FutilityNode = 2,
    MoveCount = 3,
    SeePruning = 4,
    ProbCut = 5,
    HistoryPruning = 6,
    Singular = 7,
    DeltaEnhanced = 8,
    NullVerification = 9,
}

pub const TECHNIQUE_COUNT: usize = 10;

/// One technique's telemetry: attempts, cutoffs, cutoffs by depth bucket
/// (the technique chooses its buckets) and technique-specific extras (for
/// razoring: tactical and phase margin adjustments).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TechniqueCounters {
    pub attempts: u64,
    pub cutoffs: u64,
    pub buckets: [u64; 8],
    pub extra: [u64; 4],
}

impl TechniqueCounters {
    fn add(&mut self, other: &TechniqueCounters) {
        self.attempts += other.attempts;
        self.cutoffs += other.cutoffs;
        for (mine, theirs) in self.buckets.iter_mut().zip(other.buckets) {
            *mine += theirs;
        }
        for (mine, theirs) in self.extra.iter_mut().zip(other.extra) {
            *mine += theirs;
        }
    }

    /// `att=X cut=Y cut%=Z.Z%`, the plans' common prefix.
    pub fn rate(&self) -> String {
        format!("att={} cut={} cut%={}%", self.attempts, self.cutoffs, percent(self.cutoffs, self.attempts))
    }

    /// `[a,b,...]` over the first `count` buckets.
    pub fn buckets(&self, count: usize) -> String {
        let shown: Vec<String> = self.buckets[..count].iter().map(u64::to_string).collect();
        format!("[{}]", shown.join(","))
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Every node visited, main search and quiescence.
    pub nodes: u64,
    pub qsearch_nodes: u64,
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
    pub null_attempts: u64,
    pub null_cutoffs: u64,
    pub rfp_attempts: u64,
    pub rfp_cutoffs: u64,
    pub delta_prunes: u64,
    pub lmr_reductions: u64,
    pub lmr_researches: u64,
    /// Zero-window searches of later moves at PV nodes, and how many of
    /// them beat alpha and were searched again with the full window.
    pub pvs_zero_window: u64,
    pub pvs_researches: u64,
    pub aspiration_attempts: u64,
    pub aspiration_fail_lows: u64,
    pub aspiration_fail_highs: u64,
    /// The catalogue techniques' counters, by `Technique`.
    pub techniques: [TechniqueCounters; TECHNIQUE_COUNT],
}

/// `part` as a percentage of `whole`, with one decimal.
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "0.0".to_string()
    } else {
        format!("{:.1}", part as f64 * 100.0 / whole as f64)
    }
}

impl SearchStats {
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
            tt_probes,
            tt_hits,
            tt_cutoffs,
            illegal_tt_moves,
            beta_cutoffs,
            first_move_cutoffs,
            cutoffs_by_kind,
            first_move_cutoffs_by_kind,
            null_attempts,
            null_cutoffs,
            rfp_attempts,
            rfp_cutoffs,
            delta_prunes,
            lmr_reductions,
            lmr_researches,
            pvs_zero_window,
            pvs_researches,
            aspiration_attempts,
            aspiration_fail_lows,
            aspiration_fail_highs,
            techniques,
        } = other;
        self.nodes += nodes;
        self.qsearch_nodes += qsearch_nodes;
        self.tt_probes += tt_probes;
        self.tt_hits += tt_hits;
        self.tt_cutoffs += tt_cutoffs;
        self.illegal_tt_moves += illegal_tt_moves;
        self.beta_cutoffs += beta_cutoffs;
        self.first_move_cutoffs += first_move_cutoffs;
        for kind in 0..4 {
            self.cutoffs_by_kind[kind] += cutoffs_by_kind[kind];
            self.first_move_cutoffs_by_kind[kind] += first_move_cutoffs_by_kind[kind];
        }
        self.null_attempts += null_attempts;
        self.null_cutoffs += null_cutoffs;
        self.rfp_attempts += rfp_attempts;
        self.rfp_cutoffs += rfp_cutoffs;
        self.delta_prunes += delta_prunes;
        self.lmr_reductions += lmr_reductions;
        self.lmr_researches += lmr_researches;
        self.pvs_zero_window += pvs_zero_window;
        self.pvs_researches += pvs_researches;
        self.aspiration_attempts += aspiration_attempts;
        self.aspiration_fail_lows += aspiration_fail_lows;
        self.aspiration_fail_highs += aspiration_fail_highs;
        for (mine, theirs) in self.techniques.iter_mut().zip(techniques) {
            mine.add(theirs);
        }
    }

    pub fn technique(&mut self, technique: Technique) -> &mut TechniqueCounters {
        &mut self.techniques[technique as usize]
    }

    pub fn counters(&self, technique: Technique) -> &TechniqueCounters {
        &self.techniques[technique as usize]
    }

    /// The `info string` lines (without that prefix), one per subject: the
    /// baseline's, then those of the techniques `techniques` runs.
    pub fn report_lines_for(&self, techniques: &crate::techniques::Techniques) -> Vec<String> {
        let mut lines = self.report_lines();
        if techniques.null_move.verifies() {
            // Null-move verification reports the whole `null:` line.
            lines.retain(|line| !line.starts_with("null:"));
        }
        lines.extend(crate::prune::report_lines(self, techniques));
        lines
    }

    /// The baseline search's `info string` lines (without that prefix).
    pub fn report_lines(&self) -> Vec<String> {
        let kinds = |counts: &[u64; 4]| {
            CUTOFF_KIND_NAMES
                .iter()
                .zip(counts)
                .map(|(name, count)| format!("{name}={count}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        vec![
            format!(
                "nodes: total={} qs={} qs%={}%",
                self.nodes,
                self.qsearch_nodes,
                percent(self.qsearch_nodes, self.nodes)
            ),
            format!(
                "tt: probes={} hits={} hit%={}% cut={} illegal_moves={}",
                self.tt_probes,
                self.tt_hits,
                percent(self.tt_hits, self.tt_probes),
                self.tt_cutoffs,
                self.illegal_tt_moves
            ),
            format!("cutoffs: total={} {}", self.beta_cutoffs, kinds(&self.cutoffs_by_kind)),
            format!(
                "first: cut={} first%={}% {}",
                self.first_move_cutoffs,
                percent(self.first_move_cutoffs, self.beta_cutoffs),
                kinds(&self.first_move_cutoffs_by_kind)
            ),
            format!(
                "null: att={} cut={} cut%={}%",
                self.null_attempts,
                self.null_cutoffs,
                percent(self.null_cutoffs, self.null_attempts)
            ),
            format!(
                "rfp: att={} cut={} cut%={}%",
                self.rfp_attempts,
                self.rfp_cutoffs,
                percent(self.rfp_cutoffs, self.rfp_attempts)
            ),
            format!("delta: pruned={}", self.delta_prunes),
            format!("lmr: reduced={} re={}", self.lmr_reductions, self.lmr_researches),
            format!(
                "pvs: zw={} re={} re%={}%",
                self.pvs_zero_window,
                self.pvs_researches,
                percent(self.pvs_researches, self.pvs_zero_window)
            ),
            format!(
                "asp: att={} low={} high={}",
                self.aspiration_attempts, self.aspiration_fail_lows, self.aspiration_fail_highs
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_follow_the_plans_formats() {
        let stats = SearchStats {
            null_attempts: 8,
            null_cutoffs: 3,
            aspiration_attempts: 5,
            aspiration_fail_lows: 1,
            aspiration_fail_highs: 2,
            ..Default::default()
        };
        let lines = stats.report_lines();
        assert!(lines.contains(&"null: att=8 cut=3 cut%=37.5%".to_string()), "{lines:?}");
        assert!(lines.contains(&"asp: att=5 low=1 high=2".to_string()), "{lines:?}");
    }

    #[test]
    fn add_sums_every_counter() {
        let mut total = SearchStats::default();
        let mut one = SearchStats { nodes: 10, pvs_researches: 2, ..Default::default() };
        one.record_cutoff(CutoffKind::Killer, true);
        total.add(&one);
        total.add(&one);
        assert_eq!(total.nodes, 20);
        assert_eq!(total.pvs_researches, 4);
        assert_eq!(total.first_move_cutoffs_by_kind[CutoffKind::Killer as usize], 2);
    }
}
