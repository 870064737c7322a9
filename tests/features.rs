//! The pruning catalogue, feature by feature: each fires on seeds.epd at
//! depth 10 (its counters move and the node count differs from the
//! baseline), its counters are absent from the baseline, and mates in two
//! and three are still found with every feature of each family on.
//!
//! Every set runs in this one build through `technique_set!`, the same
//! mechanism the variant matrix uses; `tests/feature_builds.rs` checks the
//! Cargo-feature builds agree.

use std::sync::atomic::AtomicBool;

use prunelab::epd::read_epd_file;
use prunelab::position::Position;
use prunelab::search::{uci_score, SearchLimits, SearchResult, Searcher};
use prunelab::stats::{SearchStats, Technique, TECHNIQUE_COUNT};
use prunelab::technique_set;
use prunelab::techniques::{TechniqueSet, Techniques};

const SEEDS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/suites/seeds.epd");
const DEPTH: i32 = 10;

fn search<T: TechniqueSet>(pos: &Position, depth: i32) -> SearchResult {
    let mut searcher = Searcher::new(16);
    searcher.new_game();
    let limits = SearchLimits { depth: Some(depth), ..Default::default() };
    searcher.search_with::<T>(pos, &limits, &AtomicBool::new(false), &mut |_| {})
}

fn seeds() -> Vec<Position> {
    let file = read_epd_file(std::path::Path::new(SEEDS)).expect("seeds.epd is readable");
    assert!(file.errors.is_empty(), "{:?}", file.errors);
    file.records.into_iter().map(|record| Position::from_board(record.board)).collect()
}

fn technique_counter(technique: Technique) -> impl Fn(&SearchStats) -> u64 {
    move |stats| stats.counters(technique).attempts
}

/// Depth of the firing test: the plans' depth 10, except for null-move
/// verification, which only exists at depth ≥ 10 or 12 and so needs a
/// deeper root to reach a non-PV node that deep.
fn firing_depth(name: &str) -> i32 {
    match name {
        "nmp-verify-12" => 15,
        "nmp-verify-10" => 13,
        _ => DEPTH,
    }
}

/// Searches the seeds, then the bench positions, until one shows the
/// feature's counter moving and a node count different from the
/// baseline's. Features that fire only outside seeds.epd are listed in
/// `FIRES_OUTSIDE_SEEDS`, so a change in that is noticed.
fn assert_fires<T: TechniqueSet>(name: &str, counter: impl Fn(&SearchStats) -> u64) {
    let depth = firing_depth(name);
    let bench: Vec<Position> = prunelab::bench::BENCH_POSITIONS
        .iter()
        .chain(&[COMPENSATION_POSITION])
        .map(|fen| Position::from_fen(fen).unwrap())
        .collect();
    let seeds = seeds();
    let seed_count = seeds.len();
    let mut counted = 0;
    let mut differs = false;
    for (index, pos) in seeds.into_iter().chain(bench).enumerate() {
        if index == seed_count {
            assert!(FIRES_OUTSIDE_SEEDS.contains(&name), "{name} does not fire on seeds.epd at depth {depth}");
        }
        let baseline = search::<Baseline>(&pos, depth);
        let with = search::<T>(&pos, depth);
        counted += counter(&with.stats);
        differs |= with.nodes != baseline.nodes;
        if counted > 0 && differs {
            assert!(
                index >= seed_count || !FIRES_OUTSIDE_SEEDS.contains(&name),
                "{name} now fires on seeds.epd: remove it from FIRES_OUTSIDE_SEEDS"
            );
            let lines = with.stats.report_lines_for(&T::TECHNIQUES);
            let baseline_lines = baseline.stats.report_lines_for(&Techniques::BASELINE);
            assert_ne!(lines, baseline_lines, "{name}: telemetry does not show the feature");
            return;
        }
    }
    panic!("{name} never fired at depth {depth} (counter {counted}, nodes differ: {differs})");
}

/// Three pawns on the seventh against rook and bishop: the evaluation is far
/// above the plain material balance, which is when the material gate of
/// reverse futility blocks a cutoff the eval alone would allow.
const COMPENSATION_POSITION: &str = "4k3/PPP5/8/8/8/8/5r2/1K3b2 b - - 0 1";

/// Features whose node counts on seeds.epd (and the bench positions) at
/// depth 10 equal the baseline's, measured: the material gate never blocks
/// reverse futility there, since it needs the eval to exceed plain material
/// by 200 cp plus the margin.
const FIRES_OUTSIDE_SEEDS: [&str; 1] = ["rfp-no-material-gate"];

technique_set!(Baseline, []);

macro_rules! fires {
    ($($test:ident, $set:ident, $feature:literal, $counter:expr;)*) => {
        $(
            technique_set!($set, [$feature]);
            #[test]
            fn $test() {
                assert_fires::<$set>($feature, $counter);
            }
        )*
    };
}

fires! {
    nmp_margin_90_fires, NmpMargin90, "nmp-margin-90", |s: &SearchStats| s.rfp_cutoffs;
    rfp_depth_6_fires, RfpDepth6, "rfp-depth-6", |s: &SearchStats| s.rfp_cutoffs;
    rfp_no_material_gate_fires, RfpNoMaterialGate, "rfp-no-material-gate", |s: &SearchStats| s.rfp_cutoffs;
    rfp_simple_fires, RfpSimple, "rfp-simple", |s: &SearchStats| s.rfp_cutoffs;
    rfp_progressive_fires, RfpProgressive, "rfp-progressive", |s: &SearchStats| s.rfp_cutoffs;
    see_prune_conservative_fires, SeePruneConservative, "see-prune-conservative", technique_counter(Technique::SeePruning);
    see_prune_aggressive_fires, SeePruneAggressive, "see-prune-aggressive", technique_counter(Technique::SeePruning);
    nmp_verify_12_fires, NmpVerify12, "nmp-verify-12", technique_counter(Technique::NullVerification);
    nmp_verify_10_fires, NmpVerify10, "nmp-verify-10", technique_counter(Technique::NullVerification);
    futility_2_1_fires, Futility21, "futility-2.1", technique_counter(Technique::Futility);
    futility_2_2_fires, Futility22, "futility-2.2", technique_counter(Technique::Futility);
    futility_2_3_fires, Futility23, "futility-2.3", technique_counter(Technique::Futility);
    futility_2_4_fires, Futility24, "futility-2.4", technique_counter(Technique::Futility);
    futility_node_fires, FutilityNode, "futility-node", technique_counter(Technique::FutilityNode);
    futility_progressive_fires, FutilityProgressive, "futility-progressive", technique_counter(Technique::Futility);
    delta_enhanced_fires, DeltaEnhanced, "delta-enhanced", technique_counter(Technique::DeltaEnhanced);
    futility_effective_depth_fires, FutilityEffectiveDepth, "futility-effective-depth", technique_counter(Technique::Futility);
    futility_tactical_guards_fires, FutilityTacticalGuards, "futility-tactical-guards", technique_counter(Technique::Futility);
    futility_victim_fires, FutilityVictim, "futility-victim", technique_counter(Technique::Futility);
    lmp_fires, Lmp, "lmp", technique_counter(Technique::MoveCount);
    lmp_history_fires, LmpHistory, "lmp-history", technique_counter(Technique::MoveCount);
    lmp_countermove_fires, LmpCountermove, "lmp-countermove", technique_counter(Technique::MoveCount);
    lmp_depth_10_fires, LmpDepth10, "lmp-depth-10", technique_counter(Technique::MoveCount);
    razor_r1_fires, RazorR1, "razor-r1", technique_counter(Technique::Razoring);
    razor_r2_fires, RazorR2, "razor-r2", technique_counter(Technique::Razoring);
    razor_r3_fires, RazorR3, "razor-r3", technique_counter(Technique::Razoring);
    razor_plan_4_1_fires, RazorPlan41, "razor-plan-4.1", technique_counter(Technique::Razoring);
    razor_sf_fires, RazorSf, "razor-sf", technique_counter(Technique::Razoring);
    razor_heinz_fires, RazorHeinz, "razor-heinz", technique_counter(Technique::Razoring);
    razor_hyatt_fires, RazorHyatt, "razor-hyatt", technique_counter(Technique::Razoring);
    razor_strelka_fires, RazorStrelka, "razor-strelka", technique_counter(Technique::Razoring);
    razor_crafty_fires, RazorCrafty, "razor-crafty", technique_counter(Technique::Razoring);
    probcut_fires, ProbCut, "probcut", technique_counter(Technique::ProbCut);
    history_pruning_fires, HistoryPruning, "history-pruning", technique_counter(Technique::HistoryPruning);
    lmr_history_fires, LmrHistory, "lmr-history", |s: &SearchStats| s.lmr_reductions;
    qsearch_tt_first_fires, QsearchTtFirst, "qsearch-tt-first", |s: &SearchStats| s.qsearch_nodes;
    singular_ext_fires, SingularExt, "singular-ext", technique_counter(Technique::Singular);
}

#[test]
fn every_catalogue_feature_has_a_firing_test() {
    let source = include_str!("features.rs");
    for feature in prunelab::features::CATALOGUE {
        assert!(source.contains(&format!("\"{}\", ", feature.name)), "no firing test for {}", feature.name);
    }
}

#[test]
fn baseline_has_no_technique_counters_or_lines() {
    let pos = Position::startpos();
    let result = search::<Baseline>(&pos, 8);
    for slot in 0..TECHNIQUE_COUNT {
        assert_eq!(result.stats.techniques[slot], Default::default(), "slot {slot}");
    }
    let lines = result.stats.report_lines_for(&Techniques::BASELINE);
    for prefix in ["razor:", "fut", "mcp", "prune:", "see_qs", "probcut", "history_prune", "singular"] {
        assert!(lines.iter().all(|line| !line.starts_with(prefix)), "{prefix} in {lines:?}");
    }
}

// One set per family with every feature of the family on (exclusive styles
// get a set each).
technique_set!(
    NullFamily,
    ["nmp-margin-90", "rfp-simple", "see-prune-conservative", "nmp-verify-10", "rfp-progressive"]
);
technique_set!(
    FutilityFamily,
    [
        "futility-2.4",
        "futility-node",
        "futility-progressive",
        "delta-enhanced",
        "futility-effective-depth",
        "futility-tactical-guards",
        "futility-victim"
    ]
);
technique_set!(MoveCountFamily, ["lmp-history", "lmp-countermove", "lmp-depth-10"]);
technique_set!(RazorChain, ["razor-r3"]);
technique_set!(LaterIdeas, ["probcut", "history-pruning", "lmr-history", "qsearch-tt-first", "singular-ext"]);

const MATES: [(&str, u32); 4] = [
    ("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", 2),
    ("7k/pp4np/2p3p1/3pN1q1/3P4/Q7/1r3rPP/2R2RK1 w - - 0 1", 2),
    ("k4r2/1R4pb/1pQp1n1p/3P4/5p1P/3P2P1/r1q1R2K/8 w - - 0 1", 3),
    ("r3k2r/pbp2pp1/3b1n2/1p6/3P3p/1B2N1Pq/PP1PQP1P/R1B2RK1 b kq - 0 1", 3),
];

/// Pruning may delay a mate (razoring with a captures-only quiescence is
/// blind to a quiet mate-in-one near the horizon), but must not lose it: each
/// mate is found, with the right distance, by depth `MATE_DEPTH_LIMIT`. The
/// depth at which it appears is printed for the record.
const MATE_DEPTH_LIMIT: i32 = 16;

fn assert_mates_found<T: TechniqueSet>(family: &str) {
    for (fen, moves) in MATES {
        let pos = Position::from_fen(fen).unwrap();
        let expected = format!("mate {moves}");
        let stop = AtomicBool::new(false);
        let mut found_at = None;
        let mut searcher = Searcher::new(16);
        searcher.new_game();
        let limits = SearchLimits { depth: Some(MATE_DEPTH_LIMIT), ..Default::default() };
        searcher.search_with::<T>(&pos, &limits, &stop, &mut |report| {
            if found_at.is_none() && uci_score(report.score) == expected {
                found_at = Some(report.depth);
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        });
        let depth = found_at.unwrap_or_else(|| panic!("{family}: no {expected} by depth {MATE_DEPTH_LIMIT}: {fen}"));
        println!("{family}: {expected} found at depth {depth}: {fen}");
    }
}

#[test]
fn mates_survive_every_family() {
    assert_mates_found::<NullFamily>("null/rfp/see");
    assert_mates_found::<FutilityFamily>("futility");
    assert_mates_found::<MoveCountFamily>("move count");
    assert_mates_found::<RazorChain>("razor chain");
    assert_mates_found::<LaterIdeas>("later ideas");
}

macro_rules! razor_styles_find_mates {
    ($($test:ident, $set:ident, $feature:literal;)*) => {
        $(
            technique_set!($set, [$feature]);
            #[test]
            fn $test() {
                assert_mates_found::<$set>($feature);
            }
        )*
    };
}

razor_styles_find_mates! {
    mates_survive_razor_plan_4_1, RazorPlanStyle, "razor-plan-4.1";
    mates_survive_razor_sf, RazorSfStyle, "razor-sf";
    mates_survive_razor_heinz, RazorHeinzStyle, "razor-heinz";
    mates_survive_razor_hyatt, RazorHyattStyle, "razor-hyatt";
    mates_survive_razor_strelka, RazorStrelkaStyle, "razor-strelka";
    mates_survive_razor_crafty, RazorCraftyStyle, "razor-crafty";
}
