//! Selectivity, one file per technique, and the registry that lists them.
//!
//! Each file opens with what the technique is, its other names and the plan
//! phase or engine each of its features follows; its phases sit side by
//! side; it declares its features (`technique!`), its counters
//! (`counters!`) and its tunables (`tunables!`) at its top; and its hooks are
//! `Worker` methods the search calls unconditionally, folding away when the
//! technique is off. See `techniques.rs` for the machinery.
//!
//! Baseline techniques (null move, reverse futility, delta pruning, late move
//! reductions) are always on; the catalogue's features change or add to them.
//!
//! The registry's order is the pipeline's: at each step (`Hooks`) the search
//! asks the techniques in this order, and telemetry lines and the matrix's
//! counters column follow it. To add a technique: write its file, add its
//! line below where its step runs, declare its features in Cargo.toml, and
//! give it a variant in `variants/`.

crate::registry! {
    // Node-level reduction and pruning, in this order (`negamax` names
    // each as a step of its own).
    iir: InternalIterativeReduction,
    razoring: Razoring,
    futility: Futility,
    reverse_futility: ReverseFutility,
    null_move: NullMovePruning,
    probcut: ProbCut,
    // The move loop: staging, ordering, move pruning and
    // extensions, in this order (the history orderings before anything
    // that reads the scores).
    staged_picking: StagedPicking,
    capture_history: CaptureHistory,
    continuation_history: ContinuationHistory,
    see_ordering: SeeOrdering,
    move_count: MoveCountPruning,
    history_pruning: HistoryPruning,
    quiet_see: QuietSee,
    singular: SingularExtension,
    lmr: LateMoveReductions,
    // Quiescence: the coarse filter, then move pruning and ordering.
    delta: DeltaPruning,
    see_pruning: SeePruning,
    qsearch_order: QsearchOrder,
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    use crate::features::find;
    use crate::matrix::{load_suite, search_as, SearchFn};
    use crate::position::Position;
    use crate::search::{SearchLimits, SearchResult, Searcher};
    use crate::techniques::Techniques;

    crate::technique_set!(Baseline, []);

    /// The seeds' positions, from the node-count suite.
    fn seeds() -> Vec<Position> {
        let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join(crate::matrix::SUITE_PATH);
        let positions = load_suite(&suite).expect("the node-count suite loads");
        positions.into_iter().filter(|(id, _)| id.starts_with("seeds.")).map(|(_, pos)| pos).collect()
    }

    fn search(search: SearchFn, pos: &Position, depth: i32) -> SearchResult {
        let mut searcher = Searcher::new(16);
        searcher.new_game();
        search(&mut searcher, pos, &SearchLimits { depth: Some(depth), ..Default::default() })
    }

    /// Every feature acts: on its witness position (or else the first seed
    /// of seeds.epd at depth 10 where it does), its technique's counters
    /// move, the node count differs from the baseline's, and its telemetry
    /// differs from the baseline's. A new technique's features are tested
    /// here without a line of their own. Every feature, unless the build
    /// named some (`$PRUNELAB_FEATURE_SEARCHES`, as `ci/check-technique.sh`
    /// does for the new technique's): then exactly those.
    #[test]
    fn every_feature_acts_where_it_says() {
        let searches = super::feature_searches();
        let compiled: BTreeSet<&str> = searches.iter().map(|(name, _)| *name).collect();
        let named: BTreeSet<&str> = option_env!("PRUNELAB_FEATURE_SEARCHES")
            .unwrap_or_default()
            .split([' ', ','])
            .filter(|name| !name.is_empty())
            .collect();
        if named.is_empty() {
            assert_eq!(compiled.len(), crate::features::CATALOGUE.len());
        } else {
            for name in &named {
                assert!(find(name).is_some(), "PRUNELAB_FEATURE_SEARCHES names `{name}`, no feature");
            }
            assert_eq!(compiled, named, "the searches of the features PRUNELAB_FEATURE_SEARCHES names");
        }
        let seeds = seeds();
        assert_eq!(seeds.len(), 10);
        for (name, feature_search) in searches {
            let feature = find(name).unwrap();
            let (positions, depth) = match feature.witness {
                Some((fen, depth)) => (vec![Position::from_fen(fen).expect("a witness is a legal FEN")], depth),
                None => (seeds.clone(), 10),
            };
            let set = Techniques::from_features(&[name]).unwrap();
            let acts = positions.iter().any(|pos| {
                let baseline = search(search_as::<Baseline>, pos, depth);
                let with = search(feature_search, pos, depth);
                with.stats.techniques.counted_in(feature.technique)
                    && with.nodes != baseline.nodes
                    && with.stats.report_lines_for(&set) != baseline.stats.report_lines_for(&Techniques::BASELINE)
            });
            let place = feature.witness.map_or("seeds.epd".to_string(), |(fen, _)| fen.to_string());
            assert!(acts, "{name} does not act on {place} at depth {depth}");
        }
    }

    /// `negamax` names each node-level step: every technique with a
    /// `prune_node` hook has its `node_step` call there, in registry order,
    /// and no other technique has one (a hook it does not call would never
    /// run).
    #[test]
    fn every_node_hook_is_a_step_of_negamax() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let read = |path: &str| std::fs::read_to_string(root.join(path)).unwrap();
        let registry = read("src/prune/mod.rs");
        let with_hook: Vec<String> = registry
            .lines()
            .skip_while(|line| !line.starts_with("crate::registry!"))
            .take_while(|line| *line != "}")
            .filter_map(|line| line.trim().strip_suffix(',')?.split_once(": "))
            .filter(|(module, _)| read(&format!("src/prune/{module}.rs")).contains("fn prune_node<"))
            .map(|(_, type_name)| type_name.to_string())
            .collect();
        let steps: Vec<String> = read("src/search.rs")
            .split("self.node_step::<NT, ")
            .skip(1)
            .map(|rest| rest.split('>').next().unwrap().rsplit("::").next().unwrap().to_string())
            .collect();
        assert!(with_hook.len() >= 6, "{with_hook:?}");
        assert_eq!(steps, with_hook, "negamax's node steps against the techniques with a `prune_node` hook");
    }
}
