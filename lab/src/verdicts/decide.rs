//! `lab ab --decide`: the games that turn a verdict into a decision. After
//! the fast measures, the pair plays at fixed nodes (N=10000 unless `--tc`)
//! from the atlas's book, in pairs with colours reversed, an SPRT on the
//! variant file's bounds, until the SPRT decides or the command's time
//! budget is spent. The page opens with what the games decide, by the one
//! rule every page applies ([`GameResult::says`]); an undecided SPRT says
//! about how far it still has to go and the commands that would play the
//! rest. A finished match at fixed nodes is an atlas line like any other.

use std::fmt::Write;
use std::path::Path;
use std::time::Duration;

use anyhow::{bail, Result};
use games::statistics::sprt::options::SprtOptions;
use games::statistics::sprt::remaining::expected_remaining;
use games::statistics::{format_estimate, SprtStatus};

use super::ab::{AbArgs, MatchPlan, Played};
use super::atlas::{self, clock_estimate, entries, node_odds, speeds, time_controls, Phase};
use super::evidence::{self, GameResult, GamesSay};
use super::other_engines;
use crate::lab::{Lab, Pair};
use crate::measure::speed::{self, SpeedArgs};
use crate::variants::grammar::Planned;
use crate::verdicts::ab_sections::DECISION;

/// Nodes a move of `--decide`'s games: the atlas's.
pub const DEFAULT_NODES: u64 = 10_000;
/// The whole command's time with `--decide`, unless `--budget` says.
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(600);
/// The SPRT of a variant whose file has none: the plans' usual bounds.
const DEFAULT_BOUNDS: (f64, f64) = (0.0, 5.0);

/// `--decide`'s match: the variant file's SPRT bounds (`--sprt ELO0 ELO1`
/// overrides them; a file without `[sprt]` plays [0, 5]), at N=10000 (or
/// `--tc`), from the atlas's book, with the verdict's hash, as the atlas
/// plays, so its games are the atlas's.
/// An engine that does not stop at `go nodes` is refused without `--tc`:
/// its games at fixed nodes would be lost by the clock's deadline.
pub(crate) fn plan(lab: &Lab, args: &AbArgs, pair: Pair) -> Result<MatchPlan> {
    let variant = pair.subject.variant;
    let file_bounds = variant.plan().sprt.map(|plan| plan.bounds).unwrap_or(DEFAULT_BOUNDS);
    let sprt = match args.sprt.bounds.as_deref() {
        Some([_, _]) => args.sprt.clone(),
        _ => SprtOptions { bounds: Some(vec![file_bounds.0, file_bounds.1]), ..args.sprt.clone() },
    };
    sprt.settings()?;
    if args.tc.is_none() {
        let (a, b) = pair.names();
        if let Some(why) = other_engines::fixed_nodes_refusal(lab, &[a.to_string(), b.to_string()])? {
            bail!("--decide plays at fixed nodes (N={DEFAULT_NODES}), and {why}: give it a clock, e.g. --tc 2+0.02");
        }
    }
    let tc = args.tc.clone().unwrap_or_else(|| format!("N={DEFAULT_NODES}"));
    let book = prunelab::data::folder(&lab.root)?.join(prunelab::data::BOOK_SAMPLE);
    Ok(MatchPlan { sprt, tc, hash: args.search.hash.mb, book: Some(book), decides: true })
}

/// What the games decided: the word the title ends with, and the section
/// the page opens with.
pub(crate) struct Decision {
    pub word: String,
    pub section: String,
}

/// The decision of the match `played`, and (a finished match at fixed
/// nodes of a variant against its parent) its line appended to the atlas.
pub(crate) fn settle(lab: &Lab, args: &AbArgs, pair: Pair, plan: &MatchPlan, played: &Played) -> Result<Decision> {
    let result = evidence::match_result(&played.run_dir)
        .ok_or_else(|| anyhow::anyhow!("the match in {} left no summary", played.run_dir.display()))?;
    let mut section = format!("{DECISION}\n\n");
    let word = decision_word(&result);
    writeln!(section, "**{word}**: {}", what_the_games_say(&result, &played.summary.tc.to_string())).unwrap();
    if result.says() == GamesSay::Undecided {
        writeln!(section, "\n{}", how_to_go_on(pair, plan, &result)).unwrap();
    }
    if let Some(line) = keep_in_atlas(lab, &args.atlas, pair, plan, played)? {
        writeln!(section, "\n{line}").unwrap();
    }
    if let Some(nodes) = played.summary.tc.nodes() {
        writeln!(section, "\n{}", on_the_clock(lab, args, pair, &result, nodes)?).unwrap();
    }
    Ok(Decision { word, section })
}

/// Rounds of bench each side runs for the clock estimate: about 20 s of a
/// 10-minute budget.
const SPEED_ROUNDS: usize = 3;

/// The clock estimate of games at `nodes` a move: their Elo, plus the Elo
/// of a doubling at that budget (the atlas's node odds) times log2 of the
/// speed ratio (`lab speed`'s nodes per CPU second, measured here), or why
/// there is none.
fn on_the_clock(lab: &Lab, args: &AbArgs, pair: Pair, result: &GameResult, nodes: u64) -> Result<String> {
    let (a, b) = pair.names();
    let doublings = node_odds::read(&node_odds::beside(&lab.resolve(&args.atlas)));
    let Some(doubling) = node_odds::per_doubling(&doublings, a, nodes) else {
        return Ok(format!(
            "No estimate on the clock: the atlas has no doubling of nodes at N={nodes} (`cargo lab atlas \
             --node-odds full --nodes {nodes}` measures it)."
        ));
    };
    let (Some(fixed), Some(k)) = (result.elo(), doubling.elo) else {
        return Ok("No estimate on the clock before the first pair.".to_string());
    };
    if lab.global.variants_build.is_some() {
        return Ok("No estimate on the clock: the speed is each variant's own build's `bench`, and this verdict \
                   searched with the variants build."
            .to_string());
    }
    lab.say(&format!("speed: {b} over {a}, {SPEED_ROUNDS} rounds of bench"));
    let speed_args = SpeedArgs {
        variants: vec![a.to_string(), b.to_string()],
        rounds: SPEED_ROUNDS,
        depth: None,
        build_profile: crate::engines::builder::build_profile(),
        resume: None,
    };
    let run = speed::run(lab, &speed_args)?;
    let Some(ratio) = speed::cpu_nps_ratio(&speed::records_of(&run), 0, 1) else {
        return Ok(format!("No estimate on the clock: no round of {} gave both CPU times.", run.display()));
    };
    let how_far_it_held =
        if clock_estimate::near_speed(ratio.ratio) { String::new() } else { far_speeds_record(lab, args) };
    Ok(match clock_estimate::estimate(fixed, k, &ratio) {
        Some(estimate) => format!(
            "On the clock, an estimate: {} Elo, from {:+.1} at N={nodes}, a doubling of nodes worth {:+.1} [{:+.1}, \
             {:+.1}] ({} at N={}, `atlas/node-odds.jsonl`) and nodes per CPU second {} (`lab speed`). The model and \
             how far it held on the atlas's matches at a time control: docs/measured/clock-estimate.md.{how_far_it_held}",
            estimate.text(),
            fixed.value,
            k.value,
            k.low,
            k.high,
            doubling.variant,
            doubling.nodes,
            ratio.ratio_text_over("round")
        ),
        None => format!("No estimate on the clock: the speed {} has no interval.", ratio.ratio_text_over("round")),
    })
}

/// The model's record where the two speeds are far apart, from the atlas's
/// matches at a time control, as a sentence to follow the estimate.
fn far_speeds_record(lab: &Lab, args: &AbArgs) -> String {
    let atlas_file = lab.resolve(&args.atlas);
    let records = match time_controls::read(&time_controls::beside(&atlas_file)) {
        Ok(records) => records,
        Err(error) => {
            return format!(" The speeds are far apart, and the model's record there does not read: {error:#}.")
        }
    };
    let atlas = entries::read(&atlas_file);
    let speeds = speeds::read(&speeds::beside(&atlas_file));
    let doublings = node_odds::read(&node_odds::beside(&atlas_file));
    let (tested, _) = clock_estimate::tested(&records, &atlas, &speeds, &doublings);
    match clock_estimate::misses(&tested, false) {
        Some(record) => format!(" The speeds are far apart, where the model holds least: on {record}."),
        None => " The speeds are far apart, and no match at a time control has tested the model there.".to_string(),
    }
}

/// The decision in a word or two: `gain`, `loss`, `no regression`, `no
/// gain`, or `undecided after N games`.
fn decision_word(result: &GameResult) -> String {
    match result.says() {
        GamesSay::Gain => "gain".to_string(),
        GamesSay::Loss => "loss".to_string(),
        GamesSay::NoLoss => "no regression".to_string(),
        GamesSay::NoGain => "no gain".to_string(),
        GamesSay::Undecided => format!("undecided after {} games", result.games()),
    }
}

/// The games' numbers: how many, at what, Elo with its interval, and where
/// the SPRT stands.
fn what_the_games_say(result: &GameResult, tc: &str) -> String {
    let pairs = result.penta.pairs();
    let elo = result.elo().map_or("n/a".to_string(), |elo| {
        format!("{} [{:+.1}, {:+.1}]", format_estimate(&elo, pairs), elo.low, elo.high)
    });
    let (_, nelo) = result.elo_texts();
    let sprt = result.sprt.map_or(String::new(), |sprt| format!("; {}", sprt.text()));
    let why = if result.finished { "" } else { "; the budget ran out, or the match was stopped" };
    format!("{} games ({pairs} pairs) at {tc}: Elo {elo}, nElo {nelo}{sprt}{why}.", result.games())
}

/// For an undecided SPRT: about how many more games it needs, were the
/// Elo what the games so far say, and the commands that play them.
fn how_to_go_on(pair: Pair, plan: &MatchPlan, result: &GameResult) -> String {
    let (a, b) = pair.names();
    let settings = plan.sprt.settings().ok().flatten();
    let more = settings.zip(result.sprt).and_then(|(settings, sprt)| {
        let status = SprtStatus { llr: sprt.llr, lower: sprt.lower, upper: sprt.upper, verdict: sprt.verdict() };
        expected_remaining(&result.penta.0, &settings, &status)
    });
    let more = match more {
        Some(pairs) => format!("An SPRT would need about {} more games", rounded(2.0 * pairs)),
        None => "An SPRT needs games to say how many more".to_string(),
    };
    let named = if pair.against_parent() { b.to_string() } else { format!("{a} {b}") };
    let openbench = if pair.against_parent() {
        format!("; `cargo lab openbench {b} --tc {} --server URL` plays them on OpenBench", plan.tc)
    } else {
        String::new()
    };
    format!(
        "{more}, were the Elo what these games say. `cargo lab ab {named} --decide --resume --budget 30m` plays on here{openbench}."
    )
}

/// `n` to two significant digits, with thousands separated: `6,800`.
fn rounded(n: f64) -> String {
    if !n.is_finite() || n >= 1e7 {
        return "ten million or more".to_string();
    }
    let n = n.max(2.0);
    let magnitude = 10f64.powi(n.log10().floor() as i32 - 1).max(1.0);
    games::wording::thousands(((n / magnitude).round() * magnitude) as u64)
}

/// A finished match at fixed nodes of a variant against its parent goes to
/// the atlas; the line says so, or why not.
fn keep_in_atlas(
    lab: &Lab,
    atlas_file: &Path,
    pair: Pair,
    plan: &MatchPlan,
    played: &Played,
) -> Result<Option<String>> {
    let (parent, variant) = pair.names();
    let (Some(book), true) = (&plan.book, pair.against_parent()) else { return Ok(None) };
    let mut settings = games::matches::MatchArgs::new(variant, parent);
    settings.tc = played.summary.tc;
    settings.seed = played.summary.seed;
    settings.hash.mb = plan.hash;
    let Some(key) = atlas::key_of_match(lab, variant, &settings, book)? else { return Ok(None) };
    let phase = Phase::of_variants(variant, parent);
    // Another engine's games go to its own atlas.
    let file = atlas::per_engine::file_of(lab, &lab.resolve(atlas_file), variant)?;
    match atlas::entry_of_match(&phase, key, &played.summary, played.commit.clone(), played.wall_seconds) {
        Ok(entry) => {
            entries::append(&file, &entry)?;
            let shown = if lab.external(variant).is_some() { file.as_path() } else { atlas_file };
            Ok(Some(format!("These games are a line of the atlas now (`{}`).", shown.display())))
        }
        Err(_) => Ok(Some(
            "These games are not in the atlas yet: the match did not reach its end. `--resume` continues it, and \
             the atlas takes it once it ends."
                .to_string(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use games::statistics::{Pentanomial, Wdl};

    use super::*;
    use crate::verdicts::evidence::SprtReading;

    #[test]
    fn an_undecided_sprt_says_how_many_more_games_and_how_to_play_them() {
        let lab = Lab::for_tests();
        let pair = super::super::ab::pair(&lab, &["razor-r1".to_string()]).unwrap();
        let args = AbArgs { decide: true, ..clap_args(&["ab", "razor-r1", "--decide"]) };
        let plan = plan(&lab, &args, pair).unwrap();
        assert_eq!((plan.tc.as_str(), plan.sprt.bounds.clone()), ("N=10000", Some(vec![0.0, 5.0])));
        assert!(plan.book.as_ref().unwrap().ends_with("data/books/UHO_4060_v2-4000.epd"));
        let penta = Pentanomial([41, 116, 198, 99, 46]);
        let settings = plan.sprt.settings().unwrap().unwrap();
        let status = settings.on_pairs(&penta);
        let result = GameResult {
            subject: "razor-r1".into(),
            reference: "p003-3".into(),
            source: "lab match".into(),
            taken: "20261207T000000Z".into(),
            tc: "N=10000".into(),
            book: None,
            wdl: Wdl { wins: 327, draws: 339, losses: 334 },
            penta,
            sprt: Some(SprtReading { elo0: 0.0, elo1: 5.0, llr: status.llr, lower: status.lower, upper: status.upper }),
            finished: false,
            time_losses: 0,
            crashes: 0,
        };
        assert_eq!(decision_word(&result), "undecided after 1000 games");
        let pairs = expected_remaining(&result.penta.0, &settings, &status).unwrap();
        let text = how_to_go_on(pair, &plan, &result);
        assert_eq!(
            text,
            format!(
                "An SPRT would need about {} more games, were the Elo what these games say. `cargo lab ab razor-r1 \
                 --decide --resume --budget 30m` plays on here; `cargo lab openbench razor-r1 --tc N=10000 --server \
                 URL` plays them on OpenBench.",
                rounded(2.0 * pairs)
            )
        );
    }

    fn clap_args(words: &[&str]) -> AbArgs {
        #[derive(clap::Parser)]
        struct Wrapper {
            #[command(flatten)]
            args: AbArgs,
        }
        <Wrapper as clap::Parser>::parse_from(std::iter::once("lab").chain(words.iter().skip(1).copied())).args
    }

    #[test]
    fn game_counts_are_rounded_to_two_digits_with_separators() {
        assert_eq!(rounded(6_843.0), "6,800");
        assert_eq!(rounded(1_234_567.0), "1,200,000");
        assert_eq!(rounded(57.4), "57");
        assert_eq!(rounded(0.3), "2");
        assert_eq!(rounded(f64::INFINITY), "ten million or more");
    }
}
