//! Selectivity, one file per technique, and the registry that lists them.
//!
//! Each file opens with what the technique is, its other names and the plan
//! phase or engine each of its features follows; its phases sit side by
//! side; it declares its features (`technique!`), its counters
//! (`counters!`) and its tunables (`tunables!`) at its top; and what it does
//! at each step it acts at is its `impl Hooks`, which `search.rs` calls by
//! name at that step, unconditionally, folding away when the technique is
//! off. See `techniques.rs` for the machinery.
//!
//! Baseline techniques (null move, reverse futility, delta pruning, late move
//! reductions) are always on; the catalogue's features change or add to them.
//!
//! The registry's order is the pipeline's: at each step `search.rs` calls
//! the techniques in this order (a test holds the two in step), and
//! telemetry lines and the matrix's counters column follow it. To add a
//! technique (`lab new-technique` writes the skeleton): write its file, add
//! its line below where its step runs and its call at that step in
//! `search.rs`, declare its features in Cargo.toml, and give it a variant
//! in `variants/`.

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

    /// The registry's `(module, Type)` lines, in order.
    fn registry() -> Vec<(String, String)> {
        read("src/prune/mod.rs")
            .lines()
            .skip_while(|line| !line.starts_with("crate::registry!"))
            .take_while(|line| *line != "}")
            .filter_map(|line| line.trim().strip_suffix(',')?.split_once(": "))
            .map(|(module, type_name)| (module.to_string(), type_name.to_string()))
            .collect()
    }

    fn read(path: &str) -> String {
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
    }

    /// The techniques (of `types`) that `search` calls `hook` of, in the
    /// order of the calls: directly (`SeeOrdering::order_moves::<`) or
    /// through a step helper generic over the technique
    /// (`self.node_step::<NT, Razoring>(`, whose body calls `H::prune_node::<`).
    fn step_calls<'a>(search: &str, types: &[&'a str], hook: &str) -> Vec<&'a str> {
        // Each step helper (`fn name<NT: NodeType, H: Hooks + Registered>`)
        // of this hook.
        let helpers: Vec<&str> = search
            .split("    fn ")
            .skip(1)
            .filter(|rest| rest.lines().next().unwrap().contains("<NT: NodeType, H: Hooks + Registered>"))
            .filter(|rest| {
                let body = rest.split("\n    }\n").next().unwrap();
                body.split("H::").nth(1).expect("a step helper calls a hook").starts_with(&format!("{hook}::<"))
            })
            .map(|rest| rest.split('<').next().unwrap())
            .collect();
        // Where `pattern` starts a name (`Futility::` is not `ReverseFutility::`).
        let positions = |pattern: String| {
            let starts_name = |at: usize| !search[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
            search.match_indices(&pattern).map(|(at, _)| at).filter(|&at| starts_name(at)).collect::<Vec<_>>()
        };
        let mut calls: Vec<(usize, &str)> = Vec::new();
        for &type_name in types {
            calls.extend(positions(format!("{type_name}::{hook}::<")).into_iter().map(|at| (at, type_name)));
            for helper in &helpers {
                calls.extend(
                    positions(format!("self.{helper}::<NT, {type_name}>(")).into_iter().map(|at| (at, type_name)),
                );
            }
        }
        calls.sort();
        calls.into_iter().map(|(_, type_name)| type_name).collect()
    }

    /// `search.rs` calls every technique at each step it acts at, by name:
    /// for every hook of `Hooks`, the techniques whose file implements it
    /// are exactly those `search.rs` calls it of, in registry order (a hook
    /// it does not call would never run); and the steps' comments name each
    /// such technique's file.
    #[test]
    fn every_hook_is_called_at_its_step() {
        let registry = registry();
        assert!(registry.len() >= 18, "{registry:?}");
        let types: Vec<&str> = registry.iter().map(|(_, type_name)| type_name.as_str()).collect();
        let files: Vec<String> = registry.iter().map(|(module, _)| read(&format!("src/prune/{module}.rs"))).collect();
        let techniques = read("src/techniques.rs");
        let trait_body = techniques.split("pub(crate) trait Hooks {").nth(1).unwrap().split("\n}\n").next().unwrap();
        let hooks: Vec<&str> =
            trait_body.split("    fn ").skip(1).map(|rest| rest.split('<').next().unwrap()).collect();
        assert!(hooks.len() >= 10, "{hooks:?}");
        let search = read("src/search.rs");
        for hook in hooks {
            let implementers: Vec<&str> = types
                .iter()
                .zip(&files)
                .filter(|(_, file)| file.contains(&format!("fn {hook}<")))
                .map(|(type_name, _)| *type_name)
                .collect();
            assert!(!implementers.is_empty(), "no technique implements `{hook}`");
            assert_eq!(
                step_calls(&search, &types, hook),
                implementers,
                "search.rs's calls of `{hook}` against the techniques implementing it"
            );
            for (module, _) in registry.iter().filter(|(_, type_name)| implementers.contains(&type_name.as_str())) {
                assert!(search.contains(&format!("{module}.rs")), "no step of search.rs names {module}.rs");
            }
        }
    }

    /// What `every_hook_is_called_at_its_step` reads sees a call left out,
    /// two calls swapped and a direct call left out, on search.rs's text.
    #[test]
    fn a_step_that_leaves_out_or_reorders_a_technique_is_seen() {
        let registry = registry();
        let types: Vec<&str> = registry.iter().map(|(_, type_name)| type_name.as_str()).collect();
        let search = read("src/search.rs");
        let calls = |text: &str, hook: &str| step_calls(text, &types, hook);
        fn without<'a>(list: Vec<&'a str>, left_out: &str) -> Vec<&'a str> {
            assert!(list.contains(&left_out), "{left_out} not in {list:?}");
            list.into_iter().filter(|name| *name != left_out).collect()
        }
        let prunes_move = calls(&search, "prunes_move");
        let quiet_see = "\n            || self.move_pruned_by::<NT, QuietSee>(node, candidate)";
        assert!(search.contains(quiet_see));
        assert_eq!(calls(&search.replace(quiet_see, ""), "prunes_move"), without(prunes_move, "QuietSee"));

        let order_moves = calls(&search, "order_moves");
        let see_ordering = "SeeOrdering::order_moves::<T, NT>(self, node, moves);";
        assert!(search.contains(see_ordering));
        assert_eq!(calls(&search.replace(see_ordering, ""), "order_moves"), without(order_moves, "SeeOrdering"));

        let mut extend_move = calls(&search, "extend_move");
        let swapped = search
            .replace("move_extension::<NT, Razoring>", "move_extension::<NT, Swapped>")
            .replace("move_extension::<NT, SingularExtension>", "move_extension::<NT, Razoring>")
            .replace("move_extension::<NT, Swapped>", "move_extension::<NT, SingularExtension>");
        let (razoring, singular) = (
            extend_move.iter().position(|name| *name == "Razoring").unwrap(),
            extend_move.iter().position(|name| *name == "SingularExtension").unwrap(),
        );
        extend_move.swap(razoring, singular);
        assert_eq!(calls(&swapped, "extend_move"), extend_move);
    }
}
