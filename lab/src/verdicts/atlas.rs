//! `lab atlas [VARIANT... | --chain NAME | --all] --nodes N`: what every
//! technique is worth in games. Each variant plays its parent at N nodes a
//! move (`go nodes N`, no clock: the games do not depend on the machine's
//! load or speed) from the book's openings, in pairs with colours reversed,
//! with the match runner of `lab match`; each finished match is a line of
//! the repository's atlas file, `atlas/atlas.jsonl` (see `entries`), which
//! `lab report` reads for its atlas and calibration tables.
//!
//! A variant whose result the atlas has at the same settings (its feature
//! set and its parent's, the nodes, the book, the seed and the hash; not the
//! commit) is not played again. A run is resumable: its folder,
//! `lab-results/<time>-atlas/`, keeps each phase's match in `<variant>/`
//! and one record per finished phase, so `--resume` continues the match in
//! progress where it stopped.
//!
//! `--time-controls` (or `--pair VARIANT..PARENT`) plays the pairs of the
//! matches at a time control (`time_controls`) instead: each side built from
//! its recorded feature set, so `lab report` can set their fixed-nodes Elo
//! beside the Elo on the clock.
//!
//! Another engine's variants (`--engine NAME`, or their names) play into
//! that engine's own atlas beside prunelab's, on a clock where a side does
//! not stop at `go nodes` (`per_engine`).

pub mod ablation_phases;
pub mod clock_estimate;
pub mod entries;
pub mod fast_measures;
pub mod identical;
pub mod node_odds;
pub mod per_engine;
pub mod speeds;
pub mod text;
pub mod time_controls;

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{anyhow, bail, Result};
use clap::Args;
use games::engine::Launch;
use games::matches::book::Book;
use games::matches::clock::TimeControl;
use games::matches::{self, MatchArgs, MatchSummary, StopReason};
use games::results::{runs_of, timestamp, RunDir};
use games::statistics::sprt::options::SprtOptions;
use games::statistics::SprtSettings;
use serde::{Deserialize, Serialize};

use self::entries::{AtlasEntry, AtlasKey, PairSearches, ATLAS_FILE};
use self::fast_measures::FastEntry;
use self::identical::Sameness;
use self::time_controls::TimeControlMatch;
use crate::engines::builder;
use crate::engines::participant;
use crate::lab::options::HashOption;
use crate::lab::Lab;
use crate::tools;
use crate::variants::grammar::Planned;
use crate::verdicts::atlas::fast_measures::{latest_comparisons, FastMeasures, LocalComparison, TACTICS_SUITE};
use crate::verdicts::chain;

/// Games a phase plays when `--games` is not given: with `--sprt`, the cap.
const DEFAULT_GAMES: u64 = 1000;

#[derive(Args, Clone, Debug, Serialize)]
pub struct AtlasArgs {
    /// Variants, each played against its parent.
    pub variants: Vec<String>,
    /// A chain's phases (p002, p003, razor; repeatable): each against its parent.
    #[arg(long = "chain", value_name = "NAME")]
    pub chains: Vec<String>,
    /// Every variant that has a parent.
    #[arg(long)]
    pub all: bool,
    /// Every variant of another engine (lab/other-engines/) that has a parent, into that engine's atlas
    /// (atlas/NAME/atlas.jsonl beside --atlas).
    #[arg(long = "engine", value_name = "NAME")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// Every pair of the matches at a time control (time-controls.toml beside the atlas file), each side built
    /// from its recorded feature set.
    #[arg(long)]
    // Left out of an atlas run's arguments when not given, so runs begun
    // before the flag existed still resume.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub time_controls: bool,
    /// One pair of the matches at a time control, as the file names it (repeatable).
    #[arg(long = "pair", value_name = "VARIANT..PARENT")]
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pairs: Vec<String>,
    /// The variant without each of its techniques in turn, each against the
    /// variant (`full-without-razoring` against `full`; repeatable).
    #[arg(long = "ablate", value_name = "VARIANT")]
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ablate: Vec<String>,
    /// Nodes a move (`go nodes N`); for another engine's variants 10000 unless given, and a clock (--tc) where
    /// a side does not stop at `go nodes`.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// The clock of another engine's games where a side does not stop at `go nodes` [default: 2+0.02].
    #[arg(long, value_name = "TC")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tc: Option<String>,
    /// Play no games: keep the phases' fast measures (the latest `lab ab` or
    /// `lab chain` run of each pair under --results) in fast.jsonl beside the
    /// atlas file, where the calibration reads them on any clone.
    #[arg(long, conflicts_with_all = ["nodes", "tc", "games", "resume", "time_controls", "pairs"])]
    pub keep_fast: bool,
    /// For another engine's variants: play the games only, without taking each phase's fast measures into the
    /// engine's fast.jsonl.
    #[arg(long)]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub no_fast: bool,
    /// Games a phase plays, in pairs (default 1000; with --sprt a cap).
    #[arg(long, value_name = "G")]
    pub games: Option<u64>,
    /// What a doubling of nodes is worth to the variant at --nodes: it plays
    /// itself at 2N against N, into node-odds.jsonl beside the atlas file
    /// (repeatable).
    #[arg(long = "node-odds", value_name = "VARIANT", conflicts_with_all = ["sprt", "speed"])]
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub node_odds: Vec<String>,
    /// Bench each phase's two searches instead of playing them: the
    /// variant's nodes per CPU second over its parent's, into speeds.jsonl
    /// beside the atlas file.
    #[arg(long)]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub speed: bool,
    /// Rounds of bench each side runs with --speed.
    #[arg(long, value_name = "N", default_value_t = speeds::DEFAULT_ROUNDS, requires = "speed")]
    #[serde(skip_serializing_if = "is_default_speed_rounds")]
    pub speed_rounds: usize,
    /// Stop a phase at the SPRT's verdict; `--sprt` alone takes each
    /// variant file's `[sprt]` bounds (a variant without one plays the games).
    #[command(flatten)]
    #[serde(flatten)]
    pub sprt: SprtOptions,
    /// Opening book (default: the one `lab match` plays).
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Fixes the order of the book's openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub hash: HashOption,
    /// Games played at the same time (each with its own engine processes).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub concurrency: usize,
    /// The atlas file the results are appended to (default: the repository's).
    #[arg(long, value_name = "FILE", default_value = ATLAS_FILE)]
    pub atlas: PathBuf,
    /// Continue an atlas run: DIR, or the latest `atlas` run.
    #[arg(long, num_args = 0..=1, value_name = "DIR", default_missing_value = "latest")]
    #[serde(skip)]
    pub resume: Option<String>,
    /// Use an already built binary for a name instead of building it: NAME=PATH
    /// (repeatable; for tests).
    #[arg(long = "binary", value_name = "NAME=PATH", hide = true)]
    #[serde(skip)]
    pub binaries: Vec<String>,
}

/// Runs begun before `--speed-rounds` existed record none, and still resume.
fn is_default_speed_rounds(rounds: &usize) -> bool {
    *rounds == speeds::DEFAULT_ROUNDS
}

impl AtlasArgs {
    /// Nodes a move; `command` has checked there are some before any game.
    fn nodes_a_move(&self) -> u64 {
        self.nodes.unwrap_or_default()
    }
}

/// One phase of the run: a variant and its parent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Phase {
    pub variant: String,
    pub parent: String,
    /// The two searches by feature set, for a pair of a match at a time
    /// control or an ablation; `None` for variants, whose files give them.
    pub searches: Option<Searches>,
}

impl Phase {
    /// A variant against its parent, both variant files.
    pub fn of_variants(variant: &str, parent: &str) -> Phase {
        Phase { variant: variant.to_string(), parent: parent.to_string(), searches: None }
    }

    /// The phase's folder in the run: the variant's name, or both names for
    /// a time-control pair (one side may be in several pairs).
    fn folder(&self) -> String {
        match self.searches {
            None => self.variant.clone(),
            Some(_) => format!("{}-against-{}", self.variant, self.parent),
        }
    }
}

/// A time-control pair's or an ablation's two searches and the SPRT
/// `--sprt` alone plays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Searches {
    pub features: Vec<String>,
    pub parent_features: Vec<String>,
    pub sprt: SprtSettings,
}

impl Searches {
    fn of(record: &TimeControlMatch) -> Searches {
        Searches {
            features: record.features.clone(),
            parent_features: record.parent_features.clone(),
            // A match of fixed games plays the plans' usual bounds at fixed
            // nodes, where `--sprt` asks for one.
            sprt: record.sprt.unwrap_or(ablation_phases::DEFAULT_SPRT),
        }
    }
}

/// A finished phase, as the run's `records.jsonl` keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct PhaseRecord {
    variant: String,
    parent: String,
    /// `played` or `already in the atlas`.
    outcome: String,
}

/// The phases the arguments name, in order, each once: the variants, then
/// each chain's phases, then (`--all`) every variant with a parent, parents
/// before their children.
pub fn phases(lab: &Lab, args: &AtlasArgs) -> Result<Vec<Phase>> {
    let mut names: Vec<String> = args.variants.clone();
    for name in &args.chains {
        let chain = chain::resolve_args(&lab.variants, std::slice::from_ref(name))?;
        names.extend(chain.into_iter().skip(1));
    }
    if args.all {
        let mut all: Vec<&str> = lab
            .variants
            .iter()
            .filter(|variant| variant.file.extends.is_some())
            .map(|variant| variant.name())
            .collect();
        let generations = |name: &str| prunelab::variants::ancestry(&lab.variants, name).len();
        all.sort_by_key(|name| (generations(name), name.to_string()));
        names.extend(all.into_iter().map(str::to_string));
    }
    if let Some(engine) = &args.engine {
        let theirs: Vec<&crate::variants::external::External> =
            lab.externals.iter().filter(|external| &external.engine == engine).collect();
        if theirs.is_empty() {
            let known: Vec<&str> = lab.externals.iter().map(|external| external.engine.as_str()).collect();
            bail!("--engine {engine}: no variant of that engine; the other engines here: {}", known.join(", "));
        }
        let mut children: Vec<&str> =
            theirs.iter().filter(|external| external.variant.file.extends.is_some()).map(|e| e.name()).collect();
        let every = lab.every_variant();
        let generations = |name: &str| prunelab::variants::ancestry(&every, name).len();
        children.sort_by_key(|name| (generations(name), name.to_string()));
        names.extend(children.into_iter().map(str::to_string));
    }
    let pairs = time_control_pairs(lab, args)?;
    if names.is_empty() && pairs.is_empty() && args.ablate.is_empty() {
        bail!(
            "lab atlas needs variants, --chain NAME, --all, --engine NAME, --ablate VARIANT, --time-controls or \
             --pair VARIANT..PARENT"
        );
    }
    let mut phases: Vec<Phase> = Vec::new();
    for name in names {
        let variant = lab.variant(&name)?;
        let Some(parent) = variant.file.extends.clone() else {
            bail!("`{name}` has no parent to play against");
        };
        if !phases.iter().any(|phase| phase.variant == name && phase.searches.is_none()) {
            phases.push(Phase::of_variants(&name, &parent));
        }
    }
    phases.extend(pairs);
    for base in &args.ablate {
        phases.extend(ablation_phases::phases(lab, base)?);
    }
    Ok(phases)
}

/// The pairs of the matches at a time control that `--time-controls` or
/// `--pair` name, in the file's order, each pair of searches once (several
/// matches of one pair at several controls are one phase).
fn time_control_pairs(lab: &Lab, args: &AtlasArgs) -> Result<Vec<Phase>> {
    if !args.time_controls && args.pairs.is_empty() {
        return Ok(Vec::new());
    }
    let path = time_controls::beside(&lab.resolve(&args.atlas));
    let records = time_controls::read(&path)?;
    let named = |record: &TimeControlMatch| format!("{}..{}", record.variant, record.parent);
    for pair in &args.pairs {
        if !records.iter().any(|record| &named(record) == pair) {
            let mut known: Vec<String> = Vec::new();
            for name in records.iter().map(named) {
                if !known.contains(&name) {
                    known.push(name);
                }
            }
            bail!("--pair {pair}: no such match in {}; its pairs: {}", path.display(), known.join(", "));
        }
    }
    let mut phases: Vec<Phase> = Vec::new();
    for record in records.iter().filter(|record| args.time_controls || args.pairs.contains(&named(record))) {
        let searches = Searches::of(record);
        let seen = phases.iter().any(|phase| {
            phase.searches.as_ref().is_some_and(|known| {
                (&known.features, &known.parent_features) == (&searches.features, &searches.parent_features)
            })
        });
        if !seen {
            phases.push(Phase {
                variant: record.variant.clone(),
                parent: record.parent.clone(),
                searches: Some(searches),
            });
        }
    }
    Ok(phases)
}

/// Every feature a variant compiles in, sorted: how the atlas's files name
/// a search.
fn sorted_features(lab: &Lab, name: &str) -> Result<Vec<String>> {
    let mut features: Vec<String> = lab.variant(name)?.features.iter().map(|f| f.to_string()).collect();
    features.sort();
    Ok(features)
}

/// The variant's and its parent's searches: the phase's own feature sets
/// for a time-control pair or an ablation, else the variant files'; each
/// side's tunable values those of the variant it is built as.
fn phase_searches(lab: &Lab, phase: &Phase) -> Result<PairSearches> {
    Ok(match &phase.searches {
        Some(searches) => PairSearches {
            engine: None,
            tunables: side_tunables(lab, &phase.variant, &searches.features)?,
            parent_tunables: side_tunables(lab, &phase.parent, &searches.parent_features)?,
            features: searches.features.clone(),
            parent_features: searches.parent_features.clone(),
        },
        None => PairSearches {
            engine: None,
            features: sorted_features(lab, &phase.variant)?,
            parent_features: sorted_features(lab, &phase.parent)?,
            tunables: lab.variant(&phase.variant)?.tunables_variable(),
            parent_tunables: lab.variant(&phase.parent)?.tunables_variable(),
        },
    })
}

/// The tunable values a side of a time-control pair or an ablation is
/// built with: its variant's when [`side_binary`] builds that variant, none
/// when it builds the bare feature set.
fn side_tunables(lab: &Lab, name: &str, features: &[String]) -> Result<String> {
    Ok(match lab.own_variant(name) {
        Ok(variant) if sorted_features(lab, name)? == features => variant.tunables_variable(),
        _ => String::new(),
    })
}

/// What decides a phase's games, but not the commit.
fn key_of(lab: &Lab, phase: &Phase, args: &AtlasArgs, book: &Path) -> Result<AtlasKey> {
    key_at(phase_searches(lab, phase)?, args.nodes_a_move(), book, args.seed, args.hash.mb)
}

/// The atlas's key of games between `searches` at `nodes` a move from
/// `book`'s openings in `seed`'s order, each engine with `hash_mb`.
fn key_at(searches: PairSearches, nodes: u64, book: &Path, seed: u64, hash_mb: u32) -> Result<AtlasKey> {
    let bytes = std::fs::read(book).map_err(|error| anyhow!("cannot read the book {}: {error}", book.display()))?;
    Ok(AtlasKey {
        searches,
        nodes,
        tc: None,
        book: book.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default(),
        book_hash: entries::fnv1a_hex(&bytes),
        seed,
        hash_mb,
    })
}

/// The atlas's key of a variant's games against its parent (its file's, or
/// an ablation's) played as `settings` says: `lab ab --decide`'s, which go
/// to the atlas like any other.
///
/// Another engine's variant's games are keyed as its engine's atlas keys
/// them, at fixed nodes or on a clock ([`per_engine::file_of`] names their
/// file); prunelab's at fixed nodes only.
pub fn key_of_match(lab: &Lab, variant: &str, settings: &MatchArgs, book: &Path) -> Result<Option<AtlasKey>> {
    let Some(parent) = lab.variant(variant)?.file.extends.clone() else { return Ok(None) };
    let phase = Phase::of_variants(variant, &parent);
    if per_engine::engine_of(lab, std::slice::from_ref(&phase))?.is_some() {
        let launches = [participant::launch(lab, variant)?, participant::launch(lab, &parent)?];
        let at = (book, settings.seed, settings.hash.mb);
        return per_engine::key_at(lab, &phase, &launches, &settings.tc, at).map(Some);
    }
    let Some(nodes) = settings.tc.nodes() else { return Ok(None) };
    key_at(phase_searches(lab, &phase)?, nodes, book, settings.seed, settings.hash.mb).map(Some)
}

/// The atlas run's folder: a new one, or the one `--resume` names with the
/// phases it has finished.
fn open_run(lab: &Lab, args: &AtlasArgs) -> Result<(RunDir, Vec<PhaseRecord>)> {
    let Some(resume) = &args.resume else {
        return Ok((RunDir::create(&lab.results_root(), "atlas", args)?, Vec::new()));
    };
    let dir = if resume == "latest" {
        let root = lab.results_root();
        runs_of(&root, "atlas").pop().ok_or_else(|| anyhow!("--resume: no atlas run under {}", root.display()))?
    } else {
        lab.resolve(Path::new(resume))
    };
    let (run, done) = RunDir::resume(&dir, "atlas", args)?;
    lab.say(&format!("resuming {}: {} phase(s) finished", dir.display(), done.len()));
    Ok((run, done))
}

/// The match of one phase, in its folder of the run: the variant first, so
/// its Elo is its gain over its parent. A match begun there is continued.
fn match_settings(args: &AtlasArgs, phase: &Phase, sprt: SprtOptions, folder: &Path) -> MatchArgs {
    let mut settings = MatchArgs::new(&phase.variant, &phase.parent);
    settings.tc = TimeControl::Nodes(args.nodes_a_move());
    settings.games = Some(args.games.unwrap_or(DEFAULT_GAMES));
    settings.sprt = sprt;
    settings.book = args.book.clone();
    settings.seed = args.seed;
    settings.hash = args.hash;
    settings.concurrency = args.concurrency;
    settings.binaries = args.binaries.clone();
    settings.resume = runs_of(folder, "match").pop().map(Some);
    settings
}

/// The SPRT a phase plays: `--sprt` alone takes the variant file's bounds
/// (a variant without them plays its games) or a time-control pair's own.
fn phase_sprt(lab: &Lab, args: &AtlasArgs, phase: &Phase) -> Result<SprtOptions> {
    if let Some(searches) = &phase.searches {
        let recorded = &searches.sprt;
        return Ok(match args.sprt.wants_plan() {
            true => SprtOptions {
                bounds: Some(vec![recorded.elo0, recorded.elo1]),
                model: recorded.model,
                ..args.sprt.clone()
            },
            false => args.sprt.clone(),
        });
    }
    let plan = lab.variant(&phase.variant)?.plan().sprt;
    let plan = plan.as_ref();
    if args.sprt.wants_plan() && plan.is_none() {
        Ok(SprtOptions { bounds: None, ..args.sprt.clone() })
    } else {
        args.sprt.with_plan_bounds(plan.map(|plan| plan.bounds), &phase.variant)
    }
}

/// How to start one side of a phase: a variant's build (or `--binary`);
/// a time-control pair's side that is no variant with the same features is
/// built from its feature set.
fn side_binary(lab: &Lab, settings: &MatchArgs, name: &str, features: Option<&[String]>) -> Result<Launch> {
    let Some(features) = features else { return participant::engine_binary(lab, settings, name) };
    let is_that_variant = lab.own_variant(name).is_ok() && sorted_features(lab, name)? == features;
    if is_that_variant || settings.binary_override(name)?.is_some() {
        return participant::engine_binary(lab, settings, name);
    }
    let features: Vec<&str> = features.iter().map(String::as_str).collect();
    builder::ensure_built_features(lab, name, &features).map(Launch::from)
}

/// Plays one phase and returns its atlas entry; a match that stopped before
/// its end is an error (its games are kept for `--resume`). A pair whose
/// searches are identical from every opening the match would play is not
/// played: its entry has 0 games (see `identical`); on a clock, where no
/// two searches are alike, the games are played. Another engine's sides
/// come started (`launches`), at the key's time control.
fn play(
    lab: &Lab,
    args: &AtlasArgs,
    phase: &Phase,
    (key, launches): (AtlasKey, Option<[Launch; 2]>),
    (book, folder): (&Path, &Path),
) -> Result<AtlasEntry> {
    let sprt = phase_sprt(lab, args, phase)?;
    let mut settings = match_settings(args, phase, sprt, folder);
    settings.tc = key.time_control().parse().map_err(|error| anyhow!("{}: {error}", key.time_control()))?;
    let searches = phase.searches.as_ref();
    let binaries = match launches {
        Some(launches) => launches,
        None => [
            side_binary(lab, &settings, &phase.variant, searches.map(|s| s.features.as_slice()))?,
            side_binary(lab, &settings, &phase.parent, searches.map(|s| s.parent_features.as_slice()))?,
        ],
    };
    // Before the match: the commit the engines are built from, not the one
    // the tree has reached when it ends.
    let commit = tools::commit(&lab.root);
    let started = Instant::now();
    let pairs = settings.games.unwrap_or(DEFAULT_GAMES).div_ceil(2);
    let sides = [(phase.variant.as_str(), &binaries[0]), (phase.parent.as_str(), &binaries[1])];
    if key.tc.is_none() {
        let sameness = identical::compare(sides, Book::read(book)?, args.seed, pairs, (key.nodes, args.hash.mb))?;
        if let Sameness::Identical { openings } = sameness {
            lab.say(&format!(
                "atlas: {} and {} search identically at N={} from all {openings} opening(s) the match would play: \
                 recorded with 0 games, not played",
                phase.variant, phase.parent, key.nodes
            ));
            return Ok(identical_entry(phase, key, commit, started.elapsed().as_secs()));
        }
    }
    let outcome = matches::run_match(
        &lab.nested(folder).session(),
        (&phase.variant, &binaries[0]),
        (&phase.parent, &binaries[1]),
        &settings,
    )?;
    entry_of_match(phase, key, &outcome.summary, commit, started.elapsed().as_secs())
}

/// The atlas line of a finished match of `phase`: to the SPRT's verdict or
/// its games (a match stopped before, by its budget, an error or a signal,
/// is an error: its games are kept for `--resume`).
pub fn entry_of_match(
    phase: &Phase,
    key: AtlasKey,
    summary: &MatchSummary,
    commit: String,
    wall_seconds: u64,
) -> Result<AtlasEntry> {
    let stop = match summary.stop {
        StopReason::Sprt => "sprt",
        StopReason::Games => "games",
        StopReason::Running | StopReason::Error | StopReason::Budget => {
            bail!("the match in {} did not finish", summary.run_dir.display())
        }
    };
    let failures = summary.engines.iter().map(|engine| engine.failures.total()).sum();
    Ok(AtlasEntry {
        variant: phase.variant.clone(),
        parent: phase.parent.clone(),
        key,
        games: summary.games,
        wdl: summary.wdl,
        penta: summary.penta,
        elo: summary.elo,
        nelo: summary.nelo,
        sprt: summary.sprt,
        sprt_status: summary.sprt_status,
        stop: stop.to_string(),
        failures,
        commit,
        finished: timestamp(),
        wall_seconds,
    })
}

/// The entry of a pair that searched identically: no game, no Elo.
fn identical_entry(phase: &Phase, key: AtlasKey, commit: String, wall_seconds: u64) -> AtlasEntry {
    AtlasEntry {
        variant: phase.variant.clone(),
        parent: phase.parent.clone(),
        key,
        games: 0,
        wdl: Default::default(),
        penta: Default::default(),
        elo: None,
        nelo: None,
        sprt: None,
        sprt_status: None,
        stop: entries::STOP_IDENTICAL.to_string(),
        failures: 0,
        commit,
        finished: timestamp(),
        wall_seconds,
    }
}

pub fn command(lab: &Lab, args: &AtlasArgs) -> Result<()> {
    if args.keep_fast {
        return keep_fast(lab, args);
    }
    if args.nodes == Some(0) {
        bail!("--nodes must be at least 1");
    }
    if args.games == Some(0) {
        bail!("--games must be at least 1");
    }
    let book = matches::book_path(&lab.session(), args.book.as_deref())?;
    let phases = if args.node_odds.is_empty() { phases(lab, args)? } else { Vec::new() };
    let engine = per_engine::engine_of(lab, &phases)?;
    match &engine {
        Some(engine) => per_engine::refuse_prunelab_only(args, engine)?,
        None if args.nodes.is_none() => bail!("--nodes N: prunelab's variants play at N nodes a move"),
        None if args.tc.is_some() => bail!("--tc is the clock of another engine's games; prunelab's play at --nodes"),
        None if args.no_fast => bail!("--no-fast is for another engine's variants; prunelab's play their games only"),
        None => {}
    }
    let atlas_path = per_engine::atlas_file(lab, args, engine.as_deref())?;
    if !args.node_odds.is_empty() {
        return node_odds_command(lab, args, &book, &atlas_path);
    }
    let (mut run, mut done) = open_run(lab, args)?;
    let mut time_controls: Vec<String> = Vec::new();
    for (index, phase) in phases.iter().enumerate() {
        if done.iter().any(|record| (&record.variant, &record.parent) == (&phase.variant, &phase.parent)) {
            continue;
        }
        let (key, launches) = match engine {
            None => (key_of(lab, phase, args, &book)?, None),
            Some(_) => {
                per_engine::key_and_launches(lab, args, phase, &book).map(|(key, launches)| (key, Some(launches)))?
            }
        };
        if !time_controls.contains(&key.time_control()) {
            time_controls.push(key.time_control());
        }
        let number = format!("phase {} of {}", index + 1, phases.len());
        if args.speed {
            let outcome = speed_phase(lab, args, phase, key.searches, (&run, &atlas_path), &number)?;
            let record =
                PhaseRecord { variant: phase.variant.clone(), parent: phase.parent.clone(), outcome: outcome.into() };
            run.keep(&mut done, record)?;
            continue;
        }
        let searches = key.searches.clone();
        let outcome = match entries::find(&entries::read(&atlas_path), &key) {
            Some(entry) => {
                lab.say(&format!(
                    "atlas, {number}: {} against {} is in the atlas already at these settings ({} games, commit \
                     {}): not played again",
                    phase.variant, phase.parent, entry.games, entry.commit
                ));
                "already in the atlas"
            }
            None => {
                lab.say(&format!(
                    "atlas, {number}: {} against {} at {}",
                    phase.variant,
                    phase.parent,
                    key.time_control()
                ));
                let folder = run.path().join(phase.folder());
                let entry = play(lab, args, phase, (key, launches), (&book, &folder))?;
                entries::append(&atlas_path, &entry)?;
                lab.say(&format!("atlas: {}", text::entry_line(&entry)));
                "played"
            }
        };
        if engine.is_some() && !args.no_fast {
            let folder = run.path().join(phase.folder());
            per_engine::measure_fast(lab, phase, &searches, &folder, &fast_measures::beside(&atlas_path))?;
        }
        let record =
            PhaseRecord { variant: phase.variant.clone(), parent: phase.parent.clone(), outcome: outcome.into() };
        run.keep(&mut done, record)?;
    }
    let atlas = entries::read(&atlas_path);
    if time_controls.is_empty() {
        time_controls.push(format!("N={}", args.nodes_a_move()));
    }
    let mut text = text::run_summary(&phases, &atlas, &time_controls, &atlas_path);
    if args.time_controls || !args.pairs.is_empty() {
        let path = time_controls::beside(&atlas_path);
        let records = time_controls::read(&path)?;
        text.push('\n');
        text.push_str(&time_controls::section(&records, &atlas, &path.display().to_string()));
    }
    run.write_summary(&text, &atlas)?;
    if lab.global.json {
        println!("{}", serde_json::to_string_pretty(&atlas)?);
    } else {
        print!("{text}");
        lab.say(&format!("atlas: {} (run: {})", atlas_path.display(), run.path().display()));
    }
    Ok(())
}

/// `--speed`: one phase's speed, unless the speeds file has it for the
/// same two searches.
fn speed_phase(
    lab: &Lab,
    args: &AtlasArgs,
    phase: &Phase,
    searches: PairSearches,
    (run, atlas_path): (&RunDir, &Path),
    number: &str,
) -> Result<&'static str> {
    let file = speeds::beside(atlas_path);
    if let Some(line) = speeds::find(&speeds::read(&file), &searches) {
        lab.say(&format!(
            "atlas, {number}: the speed of {} against {} is in {} already (x{:.3}, commit {}): not measured again",
            phase.variant,
            phase.parent,
            file.display(),
            line.ratio,
            line.commit
        ));
        return Ok("speed already measured");
    }
    lab.say(&format!("atlas, {number}: the speed of {} against {}", phase.variant, phase.parent));
    let settings = match_settings(args, phase, args.sprt.clone(), run.path());
    let sides = phase.searches.as_ref();
    let binaries = [
        side_binary(lab, &settings, &phase.parent, sides.map(|s| s.parent_features.as_slice()))?.binary,
        side_binary(lab, &settings, &phase.variant, sides.map(|s| s.features.as_slice()))?.binary,
    ];
    let folder = run.path().join(phase.folder());
    let pair = (phase.variant.as_str(), phase.parent.as_str());
    let line = speeds::measure(lab, pair, searches, binaries, args.speed_rounds, (&folder, &file))?;
    lab.say(&format!("atlas: {} over {}: {}", phase.variant, phase.parent, line.estimate().ratio_text_over("round")));
    Ok("speed measured")
}

/// `--node-odds`: each variant at 2N against itself at N, into the
/// node-odds file beside the atlas.
fn node_odds_command(lab: &Lab, args: &AtlasArgs, book: &Path, atlas_path: &Path) -> Result<()> {
    let (run, _) = open_run(lab, args)?;
    let file = node_odds::beside(atlas_path);
    let settings = node_odds::NodeOddsSettings {
        nodes: args.nodes_a_move(),
        games: args.games.unwrap_or(DEFAULT_GAMES),
        book: book.to_path_buf(),
        seed: args.seed,
        hash_mb: args.hash.mb,
        concurrency: args.concurrency,
        binaries: args.binaries.clone(),
    };
    for variant in &args.node_odds {
        lab.say(&format!("node odds: {variant} at N={} against itself at N={}", 2 * settings.nodes, settings.nodes));
        let folder = run.path().join(format!("{variant}-node-odds"));
        let line = node_odds::play(lab, variant, &settings, &folder, &file)?;
        let elo =
            line.elo.map_or("n/a".to_string(), |elo| format!("{:+.1} [{:+.1}, {:+.1}]", elo.value, elo.low, elo.high));
        lab.say(&format!(
            "node odds: a doubling at N={} is worth {elo} Elo to {variant} ({} games)",
            line.nodes, line.games
        ));
    }
    Ok(())
}

/// `--keep-fast`: each phase's latest local fast measures, appended to the
/// atlas's fast file unless it has them already for the same two searches.
fn keep_fast(lab: &Lab, args: &AtlasArgs) -> Result<()> {
    let phases = phases(lab, args)?;
    let engine = per_engine::engine_of(lab, &phases)?;
    let path = fast_measures::beside(&per_engine::atlas_file(lab, args, engine.as_deref())?);
    // Another engine's sides are named by their builds, which are started.
    let searches_of = |phase: &Phase| match engine {
        None => phase_searches(lab, phase),
        Some(_) => {
            let book = matches::book_path(&lab.session(), args.book.as_deref())?;
            per_engine::key_and_launches(lab, args, phase, &book).map(|(key, _)| key.searches)
        }
    };
    let local = latest_comparisons(&lab.results_root());
    let commit = tools::commit(&lab.root);
    let mut out = format!("# Fast measures kept in {}\n\n", path.display());
    let mut table = fast_measures::fast_measures_table().left("from");
    let mut kept = fast_measures::read(&path);
    let mut missing = Vec::new();
    let mut kept_before = Vec::new();
    for phase in &phases {
        let Some(measured) = local
            .iter()
            .find(|local| (&local.comparison.subject, &local.comparison.reference) == (&phase.variant, &phase.parent))
        else {
            // Kept from another results folder: not missing.
            let known = fast_measures::find(&kept, (&phase.variant, &phase.parent), &searches_of(phase)?);
            if known.is_some() {
                kept_before.push(phase.variant.as_str());
            } else {
                missing.push(phase.variant.as_str());
            }
            continue;
        };
        let entry = fast_entry(phase, searches_of(phase)?, measured, &commit)?;
        let known = fast_measures::find(&kept, (&entry.variant, &entry.parent), &entry.searches);
        // The same run measured the same two searches: kept already.
        let from = if known.is_some_and(|known| known.source == entry.source) {
            "kept already".to_string()
        } else {
            fast_measures::append(&path, &entry)?;
            kept.push(entry.clone());
            entry.source.clone()
        };
        let cells = fast_measures::fast_measure_cells(&phase.variant, &phase.parent, &entry.fast);
        table.push(cells.into_iter().chain([from]));
    }
    out.push_str(&table.to_string());
    if !kept_before.is_empty() {
        out.push_str(&format!(
            "\nKept before, from runs not under {}: {}\n",
            lab.results_root().display(),
            kept_before.join(", ")
        ));
    }
    if !missing.is_empty() {
        out.push_str(&format!(
            "\nNot measured under {} (run `lab chain NAME` or `lab ab VARIANT` first): {}\n",
            lab.results_root().display(),
            missing.join(", ")
        ));
    }
    print!("{out}");
    Ok(())
}

/// A pair's fast measures as the atlas keeps them. A run whose arguments
/// do not say where it measured is refused: its line could not be set
/// beside the atlas's like with like.
fn fast_entry(phase: &Phase, searches: PairSearches, measured: &LocalComparison, commit: &str) -> Result<FastEntry> {
    let comparison = &measured.comparison;
    let Some(measured_at) = measured.measured_at.clone() else {
        bail!("{}: its run file does not say where it measured; measure the pair again", measured.run)
    };
    let wac = comparison.solved.iter().find(|solved| solved.suite == TACTICS_SUITE);
    let percent = |(low, high): (f64, f64)| ((low - 1.0) * 100.0, (high - 1.0) * 100.0);
    Ok(FastEntry {
        variant: phase.variant.clone(),
        parent: phase.parent.clone(),
        searches,
        fast: FastMeasures::of(comparison),
        node_setting: comparison.node_setting.clone(),
        measured_at,
        node_change_interval: comparison.nodes.and_then(|nodes| nodes.interval).map(percent),
        ttd_interval: comparison.time_to_depth.and_then(|ttd| ttd.interval),
        wac_solved: wac.map(|solved| (solved.variant, solved.parent, solved.positions)),
        source: measured.run.clone(),
        commit: commit.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: AtlasArgs,
    }

    fn args(line: &[&str]) -> AtlasArgs {
        Cli::parse_from(std::iter::once("atlas").chain(line.iter().copied())).args
    }

    fn names(phases: &[Phase]) -> Vec<String> {
        phases.iter().map(|phase| format!("{}<{}", phase.variant, phase.parent)).collect()
    }

    #[test]
    fn the_phases_are_the_variants_then_the_chains_each_once() {
        let lab = Lab::for_tests();
        let named = phases(&lab, &args(&["razor-r2", "--chain", "razor", "--nodes", "10000"])).unwrap();
        assert_eq!(names(&named), ["razor-r2<razor-r1", "razor-r1<p003-3", "razor-r3<razor-r2"]);
        let plans = args(&["--chain", "p002", "--chain", "p003", "--chain", "razor", "--nodes", "10000"]);
        let plans = phases(&lab, &plans).unwrap();
        assert_eq!(plans.len(), 21);
        assert_eq!(names(&plans[..1]), ["p002-1.1<baseline"]);
        let all = phases(&lab, &args(&["--all", "--nodes", "1"])).unwrap();
        assert_eq!(all.len(), lab.variants.len() - 1, "every variant but the baseline");
        // Parents first.
        let position = |name: &str| all.iter().position(|phase| phase.variant == name).unwrap();
        assert!(position("p003-3") < position("razor-r1") && position("razor-r1") < position("razor-r2"));
        // The repository's matches at a time control: twelve pairs of
        // searches (full-old against p003-3 at three controls is one).
        let pairs = phases(&lab, &args(&["--time-controls", "--nodes", "1"])).unwrap();
        assert_eq!(pairs.len(), 12);
        assert_eq!(
            names(&pairs[..5]),
            ["full<full-5", "full-5<full-3", "full-3<full-old", "full-old<baseline", "full-old<p003-3"]
        );
        assert!(pairs.iter().all(|phase| phase.searches.is_some()));
        let one = phases(&lab, &args(&["--pair", "full-old..p003-3", "--nodes", "1"])).unwrap();
        assert_eq!(names(&one), ["full-old<p003-3"]);
        let orphan = phases(&lab, &args(&["baseline", "--nodes", "1"])).unwrap_err().to_string();
        assert_eq!(orphan, "`baseline` has no parent to play against");
        assert!(phases(&lab, &args(&["--nodes", "1"])).is_err());
    }
}
