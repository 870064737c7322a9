//! `lab atlas` on another engine's variants (`lab/other-engines/`): each
//! plays its parent (`extends`) into the engine's own atlas,
//! `atlas/<engine>/atlas.jsonl` beside prunelab's, never into prunelab's.
//! A run plays one engine's variants.
//!
//! A line's key names the engine and what each side runs: its commit and
//! build command, or the bytes of a binary a path gave, and its options
//! ([`EngineSides`]). The games are at fixed nodes where both sides stop
//! at `go nodes` (`abilities`), else on a clock (`--tc`, by default the
//! sanity match's), and the key says which: an engine that searches on
//! past its budget would be measured at another budget than the line says.
//!
//! Each phase's fast measures are taken as `lab chain` takes them by
//! default, where the calibration's are ([`MeasuredAt::fitted`]), and kept
//! in the engine's `fast.jsonl` beside its atlas: the engine's calibration
//! is its games beside its own fast measures. WAC, searched at fixed
//! nodes, is left out with the reason where the engine does not stop at
//! `go nodes`.
//!
//! [`MeasuredAt::fitted`]: super::fast_measures::MeasuredAt::fitted

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Result};
use clap::Parser;
use games::engine::Launch;
use games::matches::clock::TimeControl;

use super::entries::{self, AtlasKey, EngineSide, EngineSides, PairSearches};
use super::fast_measures::{self, latest_comparisons};
use super::{AtlasArgs, Phase};
use crate::engines::commits::{self, CommitBuild};
use crate::engines::{abilities, participant};
use crate::lab::Lab;
use crate::tools;
use crate::variants::external::External;
use crate::verdicts::chain::{self, ChainArgs};
use crate::verdicts::other_engines::SANITY_CLOCK;

/// The engine whose variants the phases are: none for prunelab's. Each
/// phase's two sides are variants of one engine, and so are all phases of
/// a run, whose lines go to one file.
pub fn engine_of(lab: &Lab, phases: &[Phase]) -> Result<Option<String>> {
    let engine = |name: &str| lab.external(name).map(|external| external.engine.clone());
    let mut found: Option<Option<String>> = None;
    for phase in phases {
        let sides = [engine(&phase.variant), engine(&phase.parent)];
        if sides[0] != sides[1] {
            bail!(
                "`{}` and its parent `{}` are not variants of one engine: an atlas line is one engine's change",
                phase.variant,
                phase.parent
            );
        }
        match &found {
            Some(known) if *known != sides[0] => {
                let name = |engine: &Option<String>| engine.clone().unwrap_or_else(|| "prunelab".to_string());
                bail!(
                    "lab atlas plays one engine's variants a run, each into its own atlas: here {} and {}",
                    name(known),
                    name(&sides[0])
                );
            }
            _ => found = Some(sides[0].clone()),
        }
    }
    Ok(found.flatten())
}

/// The atlas file a run appends to: `--atlas` for prunelab's variants,
/// the engine's file beside it for another engine's.
pub fn atlas_file(lab: &Lab, args: &AtlasArgs, engine: Option<&str>) -> Result<PathBuf> {
    let prunelab = lab.resolve(&args.atlas);
    match engine {
        None => Ok(prunelab),
        Some(engine) => entries::engine_file(&prunelab, engine),
    }
}

/// The atlas file the games of `variant` against its parent go to: the
/// engine's beside `prunelab_atlas` for another engine's variant, else
/// `prunelab_atlas` itself.
pub fn file_of(lab: &Lab, prunelab_atlas: &Path, variant: &str) -> Result<PathBuf> {
    match lab.external(variant) {
        Some(external) => entries::engine_file(prunelab_atlas, &external.engine),
        None => Ok(prunelab_atlas.to_path_buf()),
    }
}

/// What `lab atlas` does for prunelab's variants alone, refused for
/// another engine's with the reason.
pub fn refuse_prunelab_only(args: &AtlasArgs, engine: &str) -> Result<()> {
    let asked = [
        (args.time_controls || !args.pairs.is_empty(), "--time-controls and --pair build sides from feature sets"),
        (!args.ablate.is_empty(), "--ablate takes techniques out of a build of prunelab's"),
        (!args.node_odds.is_empty(), "--node-odds plays fixed nodes, which a clock cannot"),
        (args.speed, "--speed benches prunelab's builds"),
    ];
    match asked.iter().find(|(asked, _)| *asked) {
        Some((_, why)) => bail!("engine `{engine}`'s variants: {why}"),
        None => Ok(()),
    }
}

/// One side as the key names it: the commit's full hash and the build
/// command where the lab builds it, else the bytes of the binary it runs;
/// and its options.
fn side(lab: &Lab, external: &External, launch: &Launch) -> Result<EngineSide> {
    let options: Vec<String> = launch.settings.iter().map(ToString::to_string).collect();
    let options = options.join(",");
    let given = lab.engine_path(&external.engine)?.is_some();
    if let (Some(repository), Some(commit), false) = (&external.repository, &external.commit, given) {
        let at = CommitBuild { engine: &external.engine, repository, commit, build: &external.build };
        let built = commits::built(lab, &at)?;
        return Ok(EngineSide {
            commit: Some(built.commit),
            build: Some(external.build.clone()),
            binary: None,
            options,
        });
    }
    let bytes =
        std::fs::read(&launch.binary).map_err(|error| anyhow!("cannot read {}: {error}", launch.binary.display()))?;
    Ok(EngineSide { commit: None, build: None, binary: Some(entries::fnv1a_hex(&bytes)), options })
}

/// The clock of a phase whose side does not stop at `go nodes`: `--tc`,
/// else the sanity match's.
fn clock(args: &AtlasArgs) -> Result<TimeControl> {
    let tc = args.tc.clone().unwrap_or_else(|| SANITY_CLOCK.to_string());
    match tc.parse::<TimeControl>() {
        Ok(TimeControl::Nodes(_)) => bail!("--tc {tc}: a clock (e.g. 2+0.02); nodes are --nodes"),
        Ok(clock) => Ok(clock),
        Err(error) => bail!("--tc {tc}: {error}"),
    }
}

/// A phase of another engine: its key (the engine, both sides, and the
/// nodes or the clock) and how to start each side, the variant first.
/// Both sides are asked whether they stop at `go nodes`; the reason one
/// does not is said once.
pub fn key_and_launches(lab: &Lab, args: &AtlasArgs, phase: &Phase, book: &Path) -> Result<(AtlasKey, [Launch; 2])> {
    let launches = [participant::launch(lab, &phase.variant)?, participant::launch(lab, &phase.parent)?];
    let mut refusal = None;
    for (name, launch) in [(&phase.variant, &launches[0]), (&phase.parent, &launches[1])] {
        if refusal.is_none() {
            refusal = abilities::go_nodes_refusal(launch, name)?;
        }
    }
    let tc = match &refusal {
        None => TimeControl::Nodes(args.nodes.unwrap_or(abilities::GO_NODES_PROBE_NODES)),
        Some(_) => clock(args)?,
    };
    let key = key_at(lab, phase, &launches, &tc, (book, args.seed, args.hash.mb))?;
    if let Some(why) = refusal {
        lab.say(&format!("atlas: {why}, so {} against {} is played at {tc}", phase.variant, phase.parent));
    }
    Ok((key, launches))
}

/// The key of another engine's games between `phase`'s two sides started
/// as `launches` (the variant first) at `tc`, from `book`'s openings in
/// `seed`'s order with `hash_mb` each: the engine's atlas's, which `lab ab
/// --decide` keeps its games under too.
pub fn key_at(
    lab: &Lab,
    phase: &Phase,
    launches: &[Launch; 2],
    tc: &TimeControl,
    (book, seed, hash_mb): (&Path, u64, u32),
) -> Result<AtlasKey> {
    let external = |name: &str| lab.external(name).ok_or_else(|| anyhow!("`{name}` is no other engine's variant"));
    let (variant, parent) = (external(&phase.variant)?, external(&phase.parent)?);
    let engine = EngineSides {
        name: variant.engine.clone(),
        variant: side(lab, variant, &launches[0])?,
        parent: side(lab, parent, &launches[1])?,
    };
    let searches = PairSearches { engine: Some(engine), ..PairSearches::of([&[], &[]], ["", ""]) };
    let mut key = super::key_at(searches, tc.nodes().unwrap_or(0), book, seed, hash_mb)?;
    if tc.nodes().is_none() {
        key.tc = Some(tc.to_string());
    }
    Ok(key)
}

/// `lab chain`'s arguments, as its command line reads them.
#[derive(Parser)]
struct ChainLine {
    #[command(flatten)]
    args: ChainArgs,
}

/// Another engine's phase's fast measures, kept in `fast_file` (its
/// engine's) unless it has them for the same two sides: `lab chain PARENT
/// VARIANT` at its defaults, run in `folder`.
pub fn measure_fast(lab: &Lab, phase: &Phase, searches: &PairSearches, folder: &Path, fast_file: &Path) -> Result<()> {
    let pair = (phase.variant.as_str(), phase.parent.as_str());
    if let Some(known) = fast_measures::find(&fast_measures::read(fast_file), pair, searches) {
        lab.say(&format!(
            "atlas: the fast measures of {} against {} are in {} already (from {}): not measured again",
            pair.0,
            pair.1,
            fast_file.display(),
            known.source
        ));
        return Ok(());
    }
    lab.say(&format!("atlas: the fast measures of {} against {} (lab chain's defaults)", pair.0, pair.1));
    let line = ChainLine::try_parse_from(["chain", pair.1, pair.0])?;
    let measured = chain::measure(&lab.nested(folder), &line.args)?;
    let local = latest_comparisons(folder);
    let Some(comparison) =
        local.iter().find(|local| (local.comparison.subject.as_str(), local.comparison.reference.as_str()) == pair)
    else {
        bail!("the chain run {} measured no comparison of {} against {}", measured.run.display(), pair.0, pair.1);
    };
    let entry = super::fast_entry(phase, searches.clone(), comparison, &tools::commit(&lab.root))?;
    fast_measures::append(fast_file, &entry)?;
    let [_, _, nodes, ttd, wac] = fast_measures::fast_measure_cells(pair.0, pair.1, &entry.fast);
    lab.say(&format!("atlas: {} over {}: nodes {nodes}, time to depth {ttd}, WAC {wac}", pair.0, pair.1));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdicts::atlas::entries::tests::entry;
    use crate::verdicts::atlas::entries::AtlasEntry;

    fn sides(engine: &str, commits: [&str; 2]) -> EngineSides {
        let side = |commit: &str| EngineSide {
            commit: Some(commit.to_string()),
            build: Some("make EXE={out}".to_string()),
            binary: None,
            options: "UseRazoring=true".to_string(),
        };
        EngineSides { name: engine.to_string(), variant: side(commits[0]), parent: side(commits[1]) }
    }

    /// A line of `engine` at these commits, on the clock.
    fn engine_entry(engine: &str, commits: [&str; 2]) -> AtlasEntry {
        let mut line = entry("lmr", (30, 20, 50), [2, 10, 20, 12, 6]);
        line.parent = "before-lmr".into();
        line.key.searches =
            PairSearches { engine: Some(sides(engine, commits)), ..PairSearches::of([&[], &[]], ["", ""]) };
        line.key.nodes = 0;
        line.key.tc = Some("2+0.02".into());
        line
    }

    #[test]
    fn another_engine_s_line_names_it_and_its_sides_and_reads_back() {
        let line = engine_entry("seajay", ["d3fd436", "1b5317b"]);
        let text = serde_json::to_string(&line).unwrap();
        assert!(
            text.starts_with(
                "{\"variant\":\"lmr\",\"parent\":\"before-lmr\",\"engine\":{\"name\":\"seajay\",\"variant\":\
                 {\"commit\":\"d3fd436\",\"build\":\"make EXE={out}\",\"options\":\"UseRazoring=true\"},\"parent\":\
                 {\"commit\":\"1b5317b\",\"build\":\"make EXE={out}\",\"options\":\"UseRazoring=true\"}},\
                 \"features\":[],\"parent_features\":[],\"tc\":\"2+0.02\",\"book\":\"book.epd\","
            ),
            "{text}"
        );
        assert!(!text.contains("\"nodes\""), "{text}");
        assert_eq!(serde_json::from_str::<AtlasEntry>(&text).unwrap(), line);
        assert_eq!(line.key.time_control(), "2+0.02");
        assert_eq!(entry("a", (1, 1, 1), [0, 1, 1, 1, 0]).key.time_control(), "N=10000");
    }

    #[test]
    fn the_keys_of_two_engines_never_collide_and_their_files_are_apart() {
        // The same names, commits, options and clock: another engine's
        // games are not these.
        let seajay = engine_entry("seajay", ["d3fd436", "1b5317b"]);
        let other = engine_entry("other", ["d3fd436", "1b5317b"]);
        assert_ne!(seajay.key, other.key);
        assert!(entries::find(std::slice::from_ref(&seajay), &other.key).is_none());
        // Nor is another commit of one side, nor prunelab's line of the pair.
        let moved = engine_entry("seajay", ["d3fd436", "62be8ca"]);
        assert!(entries::find(std::slice::from_ref(&seajay), &moved.key).is_none());
        let prunelab = AtlasEntry { key: entry("lmr", (1, 1, 1), [0, 1, 1, 1, 0]).key, ..seajay.clone() };
        assert!(entries::find(&[prunelab], &seajay.key).is_none());
        // Each engine's file is its own, beside prunelab's.
        let atlas = Path::new("atlas/atlas.jsonl");
        assert_eq!(entries::engine_file(atlas, "seajay").unwrap(), Path::new("atlas/seajay/atlas.jsonl"));
        assert_eq!(entries::engine_file(atlas, "other").unwrap(), Path::new("atlas/other/atlas.jsonl"));
        assert_eq!(
            entries::engine_file(Path::new("atlas/fast.jsonl"), "seajay").unwrap(),
            Path::new("atlas/seajay/fast.jsonl")
        );
        for name in ["", "..", "a/b", "x y"] {
            assert!(entries::engine_file(atlas, name).is_err(), "{name}");
        }
    }
}
