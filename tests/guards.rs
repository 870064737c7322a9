//! The plans' guards: no razoring or futility in check or at PV nodes where
//! the plan forbids it, no razoring near mate bounds. The hooks state these
//! as `debug_assert!`s, so these tests need debug assertions (a debug build,
//! or the `ci` profile ci/test.sh runs) and are ignored, saying so, without
//! them. Each search must also end with a legal best move.

use std::sync::atomic::AtomicBool;

use prunelab::epd::read_epd_file;
use prunelab::position::Position;
use prunelab::search::{SearchLimits, Searcher};
use prunelab::technique_set;
use prunelab::techniques::TechniqueSet;

use crate::common;
use crate::common::razor_styles::*;

const DEPTH: i32 = 7;

/// Positions with checks, mates near the horizon and zugzwang.
const EXTRA: [&str; 4] = [
    "r1b1k2r/pp4pp/3Bpp2/3p4/6q1/8/PQ3PPP/1R2R1K1 w kq - 0 1",
    "k4r2/1R4pb/1pQp1n1p/3P4/5p1P/3P2P1/r1q1R2K/8 w - - 0 1",
    "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",
    "7k/R7/6K1/8/8/8/8/8 b - - 0 1",
];

fn positions() -> Vec<Position> {
    let mut positions: Vec<Position> = Vec::new();
    for file in [prunelab::data::SEEDS, prunelab::data::ZUGZWANG] {
        let suite = read_epd_file(&common::data_path(file)).expect("suite is readable");
        positions.extend(suite.records.into_iter().take(10).map(|record| Position::from_board(record.board)));
    }
    positions.extend(EXTRA.iter().map(|fen| Position::from_fen(fen).unwrap()));
    positions
}

fn search_all<T: TechniqueSet>() {
    let mut searcher = Searcher::new(8);
    for pos in positions() {
        searcher.new_game();
        let limits = SearchLimits { depth: Some(DEPTH), ..Default::default() };
        let result = searcher.search_with::<T>(&pos, &limits, &AtomicBool::new(false), &mut |_| {});
        let best = result.best_move.unwrap_or_else(|| panic!("no best move in {}", pos.board()));
        assert!(pos.board().is_legal(best), "{best} is not legal in {}", pos.board());
    }
}

/// A test each, searching every position with the set: `[features]` a set
/// of the test's own, or a set of `common::razor_styles`.
macro_rules! guarded_families {
    ($($test:ident, $set:ident $([$($feature:literal),*])?;)*) => {
        $(
            $(technique_set!($set, [$($feature),*]);)?
            #[test]
            #[cfg_attr(not(debug_assertions), ignore = "the guards are debug assertions: run with --profile ci")]
            fn $test() {
                search_all::<$set>();
            }
        )*
    };
}

guarded_families! {
    razor_chain_guards, RazorChain;
    razor_plan_guards, RazorPlan;
    razor_sf_guards, RazorSf;
    razor_heinz_guards, RazorHeinz;
    razor_hyatt_guards, RazorHyatt;
    razor_strelka_guards, RazorStrelka;
    razor_crafty_guards, RazorCrafty;
    futility_guards, Futility ["futility-2.4", "futility-node", "futility-progressive", "futility-effective-depth", "futility-tactical-guards", "futility-victim", "futility-skip-quiets"];
    null_guards, Null ["rfp-simple", "rfp-progressive", "nmp-verify-10", "see-prune-aggressive", "delta-enhanced"];
    move_count_guards, MoveCount ["lmp-history", "lmp-countermove", "lmp-depth-10", "lmp-skip-quiets", "history-pruning"];
    later_guards, Later ["probcut", "lmr-history", "qsearch-tt-first", "singular-ext"];
}
