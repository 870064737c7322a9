//! Selectivity, one file per technique, and the registry that lists them.
//!
//! Each file opens with what the technique is, its other names and the plan
//! phase or engine each of its features follows; its phases sit side by
//! side; it writes the struct of its feature flags and declares what each
//! is (`features!`), its counters (`counters!`) and its tunables
//! (`tunables!`) at its top; and what it does at each step it acts at is
//! its `impl Hooks`, which `search.rs` calls by name at that step,
//! when the technique runs in the set (`techniques::Runs`): an off
//! technique is not compiled into that set's search at all. See
//! `techniques.rs` for the traits.
//!
//! Baseline techniques (null move, reverse futility, delta pruning, late move
//! reductions) are always on; the catalogue's features change or add to them.
//!
//! The registry is this file, written out: every technique's module, its
//! field in [`Techniques`] (with `BASELINE`, `with` and `has`) and in
//! [`TechniqueCounters`], and its line in [`REGISTRY`], each list in the
//! same order, which is the pipeline's: at each step `search.rs` calls the
//! techniques in this order, and telemetry lines and the matrix's counters
//! column follow it (the tests below hold the lists, the files and
//! `search.rs` in step). To add a technique (`lab new-technique` writes the
//! skeleton): write its file, add it to each list below where its step
//! runs and its call at that step in `search.rs`, declare its features in
//! Cargo.toml, and give it a variant in `variants/`.

// The technique files (rustfmt keeps them sorted; the pipeline order is
// the lists' below).
pub mod capture_history;
pub mod continuation_history;
pub mod delta;
pub mod futility;
pub mod history_pruning;
pub mod iir;
pub mod lmr;
pub mod move_count;
pub mod null_move;
pub mod probcut;
pub mod qsearch_order;
pub mod quiet_see;
pub mod razoring;
pub mod reverse_futility;
pub mod see_ordering;
pub mod see_pruning;
pub mod singular;
pub mod staged_picking;

use capture_history::{CaptureHistory, CaptureHistoryCounters};
use continuation_history::{ContinuationHistory, ContinuationHistoryCounters};
use delta::{DeltaCounters, DeltaPruning};
use futility::{Futility, FutilityCounters};
use history_pruning::{HistoryPruning, HistoryPruningCounters};
use iir::{IirCounters, InternalIterativeReduction};
use lmr::{LateMoveReductions, LmrCounters};
use move_count::{MoveCountCounters, MoveCountPruning};
use null_move::{NullMoveCounters, NullMovePruning};
use probcut::{ProbCut, ProbCutCounters};
use qsearch_order::{QsearchOrder, QsearchOrderCounters};
use quiet_see::{QuietSee, QuietSeeCounters};
use razoring::{RazorCounters, Razoring};
use reverse_futility::{ReverseFutility, ReverseFutilityCounters};
use see_ordering::{SeeOrdering, SeeOrderingCounters};
use see_pruning::{SeePruning, SeePruningCounters};
use singular::{SingularCounters, SingularExtension};
use staged_picking::{StagedPicking, StagedPickingCounters};

use crate::techniques::{technique_names, Registration};

/// A technique set: which features of each technique are on, a field per
/// technique file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Techniques {
    // Node-level reduction and pruning, in this order (`negamax` names each
    // as a step of its own).
    pub iir: InternalIterativeReduction,
    pub razoring: Razoring,
    pub futility: Futility,
    pub reverse_futility: ReverseFutility,
    pub null_move: NullMovePruning,
    pub probcut: ProbCut,
    // The move loop: staging, ordering, move pruning and extensions, in
    // this order (the history orderings before anything that reads the
    // scores).
    pub staged_picking: StagedPicking,
    pub capture_history: CaptureHistory,
    pub continuation_history: ContinuationHistory,
    pub see_ordering: SeeOrdering,
    pub move_count: MoveCountPruning,
    pub history_pruning: HistoryPruning,
    pub quiet_see: QuietSee,
    pub singular: SingularExtension,
    pub lmr: LateMoveReductions,
    // Quiescence: the coarse filter, then move pruning and ordering.
    pub delta: DeltaPruning,
    pub see_pruning: SeePruning,
    pub qsearch_order: QsearchOrder,
}

impl Techniques {
    /// The baseline search: no catalogue feature on.
    pub const BASELINE: Techniques = Techniques {
        iir: InternalIterativeReduction::BASELINE,
        razoring: Razoring::BASELINE,
        futility: Futility::BASELINE,
        reverse_futility: ReverseFutility::BASELINE,
        null_move: NullMovePruning::BASELINE,
        probcut: ProbCut::BASELINE,
        staged_picking: StagedPicking::BASELINE,
        capture_history: CaptureHistory::BASELINE,
        continuation_history: ContinuationHistory::BASELINE,
        see_ordering: SeeOrdering::BASELINE,
        move_count: MoveCountPruning::BASELINE,
        history_pruning: HistoryPruning::BASELINE,
        quiet_see: QuietSee::BASELINE,
        singular: SingularExtension::BASELINE,
        lmr: LateMoveReductions::BASELINE,
        delta: DeltaPruning::BASELINE,
        see_pruning: SeePruning::BASELINE,
        qsearch_order: QsearchOrder::BASELINE,
    };

    /// Switches one feature on; each technique recognises its own names.
    /// Implications must already be resolved.
    pub const fn with(self, feature: &str) -> Techniques {
        Techniques {
            iir: self.iir.with(feature),
            razoring: self.razoring.with(feature),
            futility: self.futility.with(feature),
            reverse_futility: self.reverse_futility.with(feature),
            null_move: self.null_move.with(feature),
            probcut: self.probcut.with(feature),
            staged_picking: self.staged_picking.with(feature),
            capture_history: self.capture_history.with(feature),
            continuation_history: self.continuation_history.with(feature),
            see_ordering: self.see_ordering.with(feature),
            move_count: self.move_count.with(feature),
            history_pruning: self.history_pruning.with(feature),
            quiet_see: self.quiet_see.with(feature),
            singular: self.singular.with(feature),
            lmr: self.lmr.with(feature),
            delta: self.delta.with(feature),
            see_pruning: self.see_pruning.with(feature),
            qsearch_order: self.qsearch_order.with(feature),
        }
    }

    /// Whether `feature` is on.
    pub const fn has(&self, feature: &str) -> bool {
        self.iir.has(feature)
            || self.razoring.has(feature)
            || self.futility.has(feature)
            || self.reverse_futility.has(feature)
            || self.null_move.has(feature)
            || self.probcut.has(feature)
            || self.staged_picking.has(feature)
            || self.capture_history.has(feature)
            || self.continuation_history.has(feature)
            || self.see_ordering.has(feature)
            || self.move_count.has(feature)
            || self.history_pruning.has(feature)
            || self.quiet_see.has(feature)
            || self.singular.has(feature)
            || self.lmr.has(feature)
            || self.delta.has(feature)
            || self.see_pruning.has(feature)
            || self.qsearch_order.has(feature)
    }
}

/// Every technique's telemetry counters for one search, a field per
/// technique file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TechniqueCounters {
    pub iir: IirCounters,
    pub razoring: RazorCounters,
    pub futility: FutilityCounters,
    pub reverse_futility: ReverseFutilityCounters,
    pub null_move: NullMoveCounters,
    pub probcut: ProbCutCounters,
    pub staged_picking: StagedPickingCounters,
    pub capture_history: CaptureHistoryCounters,
    pub continuation_history: ContinuationHistoryCounters,
    pub see_ordering: SeeOrderingCounters,
    pub move_count: MoveCountCounters,
    pub history_pruning: HistoryPruningCounters,
    pub quiet_see: QuietSeeCounters,
    pub singular: SingularCounters,
    pub lmr: LmrCounters,
    pub delta: DeltaCounters,
    pub see_pruning: SeePruningCounters,
    pub qsearch_order: QsearchOrderCounters,
}

/// Every technique, in pipeline order: its name, its features, and what the
/// engine asks of each in turn (telemetry, counters, tunables).
pub const REGISTRY: &[Registration] = &[
    Registration::of::<InternalIterativeReduction>(),
    Registration::of::<Razoring>(),
    Registration::of::<Futility>(),
    Registration::of::<ReverseFutility>(),
    Registration::of::<NullMovePruning>(),
    Registration::of::<ProbCut>(),
    Registration::of::<StagedPicking>(),
    Registration::of::<CaptureHistory>(),
    Registration::of::<ContinuationHistory>(),
    Registration::of::<SeeOrdering>(),
    Registration::of::<MoveCountPruning>(),
    Registration::of::<HistoryPruning>(),
    Registration::of::<QuietSee>(),
    Registration::of::<SingularExtension>(),
    Registration::of::<LateMoveReductions>(),
    Registration::of::<DeltaPruning>(),
    Registration::of::<SeePruning>(),
    Registration::of::<QsearchOrder>(),
];

/// The techniques' names, as traces and a replay's suppressions spell them:
/// their files, in registry order.
pub const TECHNIQUE_NAMES: [&str; REGISTRY.len()] = technique_names(REGISTRY);

/// Every feature's name and a search with it (and what it implies) on.
#[cfg(test)]
pub(crate) fn feature_searches() -> Vec<(&'static str, crate::matrix::SearchFn)> {
    REGISTRY.iter().flat_map(|technique| technique.feature_searches.iter().copied()).collect()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    use crate::features::find;
    use crate::matrix::{load_suite, search_as, SearchFn};
    use crate::position::Position;
    use crate::search::{SearchLimits, SearchResult, Searcher};
    use crate::techniques::{Baseline, Techniques};

    use super::{REGISTRY, TECHNIQUE_NAMES};

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

    fn read(path: &str) -> String {
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
    }

    /// A source file's syntax tree.
    fn parse(path: &str, text: &str) -> syn::File {
        syn::parse_file(text).unwrap_or_else(|error| panic!("{path}: {error}"))
    }

    /// The last segment of a type's path (`Razoring` of `razoring::Razoring`).
    fn type_name(ty: &syn::Type) -> String {
        match ty {
            syn::Type::Path(path) => path.path.segments.last().unwrap().ident.to_string(),
            _ => panic!("a technique's type is a path"),
        }
    }

    /// A struct's fields, `(name, type)`, in order.
    fn fields(file: &syn::File, name: &str) -> Vec<(String, String)> {
        let found = file.items.iter().find_map(|item| match item {
            syn::Item::Struct(item) if item.ident == name => Some(item),
            _ => None,
        });
        let fields = &found.unwrap_or_else(|| panic!("no struct {name}")).fields;
        fields.iter().map(|field| (field.ident.as_ref().unwrap().to_string(), type_name(&field.ty))).collect()
    }

    /// This file's lists: the `pub mod` lines, the fields of `Techniques`
    /// and of `TechniqueCounters`, and the types of `REGISTRY`'s entries.
    struct Lists {
        modules: Vec<String>,
        techniques: Vec<(String, String)>,
        counters: Vec<(String, String)>,
        registry: Vec<String>,
    }

    fn lists(text: &str) -> Lists {
        let file = parse("src/prune/mod.rs", text);
        let modules = file
            .items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Mod(item) if item.content.is_none() => Some(item.ident.to_string()),
                _ => None,
            })
            .collect();
        let registry = file.items.iter().find_map(|item| match item {
            syn::Item::Const(item) if item.ident == "REGISTRY" => Some(&item.expr),
            _ => None,
        });
        let syn::Expr::Reference(registry) = registry.expect("a const REGISTRY").as_ref() else {
            panic!("REGISTRY is `&[...]`")
        };
        let syn::Expr::Array(entries) = registry.expr.as_ref() else { panic!("REGISTRY is `&[...]`") };
        let registry = entries
            .elems
            .iter()
            .map(|entry| {
                let syn::Expr::Call(call) = entry else { panic!("a REGISTRY entry is `Registration::of::<Type>()`") };
                let syn::Expr::Path(function) = call.func.as_ref() else { panic!("a REGISTRY entry calls a path") };
                let of = function.path.segments.last().unwrap();
                assert_eq!(of.ident, "of", "a REGISTRY entry is `Registration::of::<Type>()`");
                let syn::PathArguments::AngleBracketed(arguments) = &of.arguments else { panic!("of::<Type>") };
                let Some(syn::GenericArgument::Type(ty)) = arguments.args.first() else { panic!("of::<Type>") };
                type_name(ty)
            })
            .collect();
        Lists {
            modules,
            techniques: fields(&file, "Techniques"),
            counters: fields(&file, "TechniqueCounters"),
            registry,
        }
    }

    /// The types a file implements `trait_name` for, with the names of
    /// the methods each implementation writes.
    fn implementations(file: &syn::File, trait_name: &str) -> Vec<(String, Vec<String>)> {
        file.items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Impl(item)
                    if item.trait_.as_ref().is_some_and(|(path, _)| {
                        path.segments.last().is_some_and(|segment| segment.ident == trait_name)
                    }) =>
                {
                    let methods = item
                        .items
                        .iter()
                        .filter_map(|member| match member {
                            syn::ImplItem::Fn(method) => Some(method.sig.ident.to_string()),
                            _ => None,
                        })
                        .collect();
                    Some((type_name(&item.self_ty), methods))
                }
                _ => None,
            })
            .collect()
    }

    /// The lists of this file agree: a `pub mod` line for every technique
    /// file, and a field of `Techniques` and of `TechniqueCounters` and an
    /// entry of `REGISTRY` for every module, the three in one order; each
    /// technique's type is the one its file implements `Technique` for, with
    /// its counters, and names itself after its file, as its features do.
    #[test]
    fn the_registry_lists_every_technique_file_once_in_one_order() {
        let lists = lists(&read("src/prune/mod.rs"));
        let mut files: Vec<String> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/prune"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter_map(|name| name.strip_suffix(".rs").map(str::to_string))
            .filter(|name| name != "mod")
            .collect();
        files.sort();
        let mut modules = lists.modules.clone();
        modules.sort();
        assert_eq!(modules, files, "the `pub mod` lines against the files of src/prune/");
        let mut fields: Vec<String> = lists.techniques.iter().map(|(field, _)| field.clone()).collect();
        assert_eq!(fields, TECHNIQUE_NAMES, "Techniques' fields against REGISTRY's names");
        fields.sort();
        assert_eq!(fields, files, "Techniques' fields against the files of src/prune/");
        let counter_fields: Vec<&str> = lists.counters.iter().map(|(field, _)| field.as_str()).collect();
        assert_eq!(counter_fields, TECHNIQUE_NAMES, "TechniqueCounters' fields against Techniques'");
        let types: Vec<&str> = lists.techniques.iter().map(|(_, ty)| ty.as_str()).collect();
        assert_eq!(lists.registry, types, "REGISTRY's entries against Techniques' fields");
        for ((module, ty), (_, counters)) in lists.techniques.iter().zip(&lists.counters) {
            let path = format!("src/prune/{module}.rs");
            let file = parse(&path, &read(&path));
            let technique = implementations(&file, "Technique");
            assert_eq!(technique.iter().map(|(ty, _)| ty.as_str()).collect::<Vec<_>>(), [ty], "{path}");
            assert!(
                file.items.iter().any(|item| matches!(item, syn::Item::Struct(item) if item.ident == *ty)),
                "{path} writes no struct {ty}"
            );
            let counters_declared = read(&path).contains(&format!("pub struct {counters} {{"));
            assert!(counters_declared, "{path} declares no {counters}");
        }
        for (registration, module) in REGISTRY.iter().zip(TECHNIQUE_NAMES) {
            for feature in registration.features {
                assert_eq!(feature.technique, format!("src/prune/{module}.rs"), "{}", feature.name);
            }
        }
    }

    /// The keys of a technique's telemetry lines (`razor` of `razor: att=...`),
    /// with each of its features on, and off.
    fn telemetry_keys(technique: &crate::techniques::Registration) -> Vec<String> {
        let mut sets = vec![Techniques::BASELINE];
        sets.extend(technique.features.iter().map(|feature| Techniques::of(&[feature.name])));
        let mut keys: Vec<String> = Vec::new();
        for set in sets {
            for line in (technique.report)(&set, &Default::default()) {
                let key = line.split(':').next().unwrap().to_string();
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }
        keys
    }

    /// One name per technique, and one documented mapping: a technique is
    /// its file everywhere the engine names it (traces and suppressions
    /// take `NAME`, the file's), its telemetry lines keep the plans' keys,
    /// and the matrix's counters are named by those keys (a second counter
    /// of a line adds a suffix: `null_verify`). docs/engine.md's table of
    /// names is this.
    #[test]
    fn each_technique_has_one_name_and_the_book_maps_its_keys() {
        let mut rows = Vec::new();
        for technique in REGISTRY {
            let keys = telemetry_keys(technique);
            for (counter, _, _) in (technique.snapshot_counters)(&Default::default()) {
                assert!(
                    keys.iter().any(|key| counter == key || counter.starts_with(&format!("{key}_"))),
                    "{}: the matrix's counter `{counter}` is named by none of its telemetry keys {keys:?}",
                    technique.name
                );
            }
            let keys: Vec<String> = keys.iter().map(|key| format!("`{key}`")).collect();
            rows.push(format!("| `{}.rs` | {} |", technique.name, keys.join(", ")));
        }
        let book = read("docs/engine.md");
        let table: Vec<&str> = book.lines().filter(|line| line.starts_with("| `") && line.contains(".rs` |")).collect();
        assert_eq!(
            table,
            rows,
            "docs/engine.md's table of names, against the techniques' telemetry:\n{}",
            rows.join("\n")
        );
    }

    /// What the lists' test reads sees a technique out of order or left out.
    #[test]
    fn a_registry_list_out_of_step_is_seen() {
        let text = read("src/prune/mod.rs");
        let original = lists(&text);
        let swapped = text
            .replace("    Registration::of::<Razoring>(),", "    Registration::of::<Swapped>(),")
            .replace("    Registration::of::<Futility>(),", "    Registration::of::<Razoring>(),")
            .replace("    Registration::of::<Swapped>(),", "    Registration::of::<Futility>(),");
        let mut expected = original.registry.clone();
        let (razoring, futility) = (
            expected.iter().position(|ty| ty == "Razoring").unwrap(),
            expected.iter().position(|ty| ty == "Futility").unwrap(),
        );
        expected.swap(razoring, futility);
        assert_eq!(lists(&swapped).registry, expected);
        let without = text.replace("    pub quiet_see: QuietSeeCounters,\n", "");
        assert_eq!(lists(&without).counters.len(), original.counters.len() - 1);
        assert_eq!(lists(&text.replace("pub mod quiet_see;\n", "")).modules.len(), original.modules.len() - 1);
    }

    /// The techniques (of `types`) that `search` calls `hook` of, in the
    /// order of the calls: directly (`SeeOrdering::order_moves::<`) or
    /// through a step helper generic over the technique
    /// (`self.node_step::<NT, Razoring>(`, whose body calls
    /// `H::prune_node::<`). Read from the syntax's tokens, so the layout of
    /// the text does not matter.
    fn step_calls<'a>(search: &str, types: &[&'a str], hook: &str) -> Vec<&'a str> {
        use quote::ToTokens;
        let file = parse("src/search.rs", search);
        // Each step helper: a method generic over `H: Hooks` whose first
        // hook call is `H::<hook>::<`.
        let methods = file.items.iter().filter_map(|item| match item {
            syn::Item::Impl(item) => Some(item.items.iter()),
            _ => None,
        });
        let helpers: Vec<String> = methods
            .flatten()
            .filter_map(|member| match member {
                syn::ImplItem::Fn(method) => Some(method),
                _ => None,
            })
            .filter(|method| {
                method.sig.generics.type_params().any(|param| {
                    param.ident == "H"
                        && param.bounds.iter().any(|bound| {
                            matches!(bound, syn::TypeParamBound::Trait(bound)
                                if bound.path.segments.last().is_some_and(|segment| segment.ident == "Hooks"))
                        })
                })
            })
            .filter(|method| {
                let body = method.block.to_token_stream().to_string();
                let first_call = body.split("H :: ").nth(1).expect("a step helper calls a hook");
                first_call.starts_with(&format!("{hook} :: <"))
            })
            .map(|method| method.sig.ident.to_string())
            .collect();
        // The file's tokens, `Futility :: prune_node :: <` spaced: a name
        // starts after a space (`Futility ::` is not `ReverseFutility ::`).
        let tokens = file.to_token_stream().to_string();
        let positions =
            |pattern: String| tokens.match_indices(&format!(" {pattern}")).map(|(at, _)| at).collect::<Vec<_>>();
        let mut calls: Vec<(usize, &str)> = Vec::new();
        for &type_name in types {
            calls.extend(positions(format!("{type_name} :: {hook} :: <")).into_iter().map(|at| (at, type_name)));
            for helper in &helpers {
                let call = format!(". {helper} :: < NT , {type_name} > (");
                calls.extend(tokens.match_indices(&call).map(|(at, _)| (at, type_name)));
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
        let lists = lists(&read("src/prune/mod.rs"));
        let registry = lists.techniques;
        assert!(registry.len() >= 18, "{:?}", registry);
        let types: Vec<&str> = registry.iter().map(|(_, type_name)| type_name.as_str()).collect();
        let implemented: Vec<Vec<String>> = registry
            .iter()
            .map(|(module, type_name)| {
                let path = format!("src/prune/{module}.rs");
                let hooks = implementations(&parse(&path, &read(&path)), "Hooks");
                hooks.into_iter().filter(|(ty, _)| ty == type_name).flat_map(|(_, methods)| methods).collect()
            })
            .collect();
        let techniques = parse("src/techniques.rs", &read("src/techniques.rs"));
        let hooks: Vec<String> = techniques
            .items
            .iter()
            .find_map(|item| match item {
                syn::Item::Trait(item) if item.ident == "Hooks" => Some(item),
                _ => None,
            })
            .expect("src/techniques.rs declares `trait Hooks`")
            .items
            .iter()
            .filter_map(|member| match member {
                syn::TraitItem::Fn(method) => Some(method.sig.ident.to_string()),
                _ => None,
            })
            .collect();
        assert!(hooks.len() >= 10, "{hooks:?}");
        let search = read("src/search.rs");
        for hook in &hooks {
            let implementers: Vec<&str> = types
                .iter()
                .zip(&implemented)
                .filter(|(_, methods)| methods.contains(hook))
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
        let registry = lists(&read("src/prune/mod.rs")).techniques;
        let types: Vec<&str> = registry.iter().map(|(_, type_name)| type_name.as_str()).collect();
        let search = read("src/search.rs");
        let calls = |text: &str, hook: &str| step_calls(text, &types, hook);
        fn without<'a>(list: Vec<&'a str>, left_out: &str) -> Vec<&'a str> {
            assert!(list.contains(&left_out), "{left_out} not in {list:?}");
            list.into_iter().filter(|name| *name != left_out).collect()
        }
        let prunes_move = calls(&search, "prunes_move");
        let quiet_see = "|| self.move_pruned_by::<NT, QuietSee>(node, candidate)";
        assert!(search.contains(quiet_see));
        assert_eq!(calls(&search.replace(quiet_see, ""), "prunes_move"), without(prunes_move, "QuietSee"));

        let order_moves = calls(&search, "order_moves");
        let see_ordering = "self.ordered_by::<NT, SeeOrdering>(node, moves);";
        assert!(search.contains(see_ordering));
        assert_eq!(calls(&search.replace(see_ordering, ""), "order_moves"), without(order_moves, "SeeOrdering"));

        let update_histories = calls(&search, "update_histories");
        let continuation = "ContinuationHistory::update_histories::<T>(&mut self.context(), cutoff);";
        assert!(search.contains(continuation));
        assert_eq!(
            calls(&search.replace(continuation, ""), "update_histories"),
            without(update_histories, "ContinuationHistory")
        );

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
