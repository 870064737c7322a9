//! The pruning catalogue as a whole: mates in two and three are still found
//! with every feature of each family on, and the baseline prints only the
//! search's and the baseline techniques' telemetry. (That each feature acts
//! where it says is the library's `prune::tests`, generated from the
//! registry.)

use std::sync::atomic::AtomicBool;

use prunelab::position::Position;
use prunelab::score::uci_score;
use prunelab::search::{SearchLimits, Searcher};
use prunelab::technique_set;
use prunelab::techniques::{TechniqueSet, Techniques};

use crate::common::razor_styles;

technique_set!(Baseline, []);

#[test]
fn baseline_prints_the_search_and_the_baseline_techniques_only() {
    let mut searcher = Searcher::new(16);
    searcher.new_game();
    let limits = SearchLimits { depth: Some(8), ..Default::default() };
    let result = searcher.search_with::<Baseline>(&Position::startpos(), &limits, &AtomicBool::new(false), &mut |_| {});
    let lines = result.stats.report_lines_for(&Techniques::BASELINE);
    let subjects: Vec<&str> = lines.iter().map(|line| line.split(':').next().unwrap()).collect();
    assert_eq!(subjects, ["nodes", "tt", "cutoffs", "first", "pvs", "asp", "illegal", "rfp", "null", "lmr", "delta"]);
    assert_eq!(result.stats.techniques.razoring, Default::default());
    assert_eq!(result.stats.techniques.futility, Default::default());
}

// One set per family with every feature of the family on (exclusive styles
// get a set each).
technique_set!(
    NullFamily,
    ["rfp-margin-90", "rfp-simple", "see-prune-conservative", "nmp-verify-10", "rfp-progressive"]
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
        "futility-victim",
        "futility-skip-quiets"
    ]
);
technique_set!(MoveCountFamily, ["lmp-history", "lmp-countermove", "lmp-depth-10", "lmp-skip-quiets"]);
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
    assert_mates_found::<razor_styles::RazorChain>("razor chain");
    assert_mates_found::<LaterIdeas>("later ideas");
}

macro_rules! razor_styles_find_mates {
    ($($test:ident, $set:ident, $feature:literal;)*) => {
        $(
            #[test]
            fn $test() {
                assert_mates_found::<razor_styles::$set>($feature);
            }
        )*
    };
}

razor_styles_find_mates! {
    mates_survive_razor_plan_4_1, RazorPlan, "razor-plan-4.1";
    mates_survive_razor_sf, RazorSf, "razor-sf";
    mates_survive_razor_heinz, RazorHeinz, "razor-heinz";
    mates_survive_razor_hyatt, RazorHyatt, "razor-hyatt";
    mates_survive_razor_strelka, RazorStrelka, "razor-strelka";
    mates_survive_razor_crafty, RazorCrafty, "razor-crafty";
}
