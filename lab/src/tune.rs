//! `lab tune VARIANT --param NAME ...`: OpenBench's SPSA run locally, with
//! the lab's own match runner.
//!
//! The variant is built with the `tune` feature, so its tunables are UCI
//! options. Iteration `k` draws a flip per parameter (`spsa_update`), plays the
//! dev engine (`θ + flip · c_k`) against the base engine (`θ − flip · c_k`)
//! for `--pairs-per` game pairs from the book, and moves `θ` by the dev
//! engine's wins − losses, as an OpenBench worker's workload does. Each
//! iteration's match is a match run of its own, in the tuning run's
//! `iteration-NNNN/` folder; the iteration is appended to `records.jsonl`
//! when its games are done, and `--resume` replays the records and plays
//! the rest (an iteration cut short resumes its match, with the same
//! engines: its random numbers come from the seed and `k`).
//!
//! A `uci:` engine, or another engine's variant, is tuned by its own spin
//! options instead (`other_engine`), set over UCI on each side.

pub mod chart;
mod other_engine;
pub mod params;
// `lab spsa`: a variant's tunables as OpenBench SPSA input.
pub mod spsa_input;
pub mod spsa_update;

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use games::engine::Launch;
use games::matches::{self, clock::TimeControl, MatchArgs};
use games::results::{self, write_atomically, RunDir};
use games::statistics::{Pentanomial, Wdl};
use games::uci_options::Setting;
use serde::{Deserialize, Serialize};

use self::spsa_update::{Parameter, Perturbation, Schedule, Tuner};
use crate::engines::builder;
use crate::engines::participant;
use crate::lab::options::HashOption;
use crate::lab::Lab;

/// The extra feature a tuning build has.
const TUNE_FEATURE: &str = "tune";

#[derive(Args, Clone, Debug)]
pub struct TuneArgs {
    /// The variant whose tunables to tune (built with the `tune` feature).
    pub variant: String,
    /// A tunable, by its UCI name (ReverseFutilityDepthMargin) or its
    /// constant's (REVERSE_FUTILITY_DEPTH_MARGIN), with optional
    /// `:start,min,max,c_end,r_end` (an empty field keeps the declaration's).
    #[arg(long = "param", value_name = "NAME[:start,min,max,c_end,r_end]", required = true)]
    pub params: Vec<String>,
    /// SPSA iterations; each plays --pairs-per game pairs.
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub iterations: u64,
    /// Game pairs per iteration (OpenBench's "Pairs-Per").
    #[arg(long, default_value_t = 8, value_name = "N")]
    pub pairs_per: u64,
    /// Fixed nodes a move (`go nodes N`), unless --tc is given.
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    pub nodes: u64,
    /// A time control instead of fixed nodes: `[moves/]seconds[+increment]`.
    #[arg(long, value_name = "TC", conflicts_with = "nodes")]
    pub tc: Option<TimeControl>,
    /// SPSA's learning-rate decay α (OpenBench's default).
    #[arg(long, default_value_t = spsa_update::ALPHA)]
    pub alpha: f64,
    /// SPSA's perturbation decay γ (OpenBench's default).
    #[arg(long, default_value_t = spsa_update::GAMMA)]
    pub gamma: f64,
    /// SPSA's stability constant A as a share of the iterations (OpenBench's default).
    #[arg(long, default_value_t = spsa_update::A_RATIO)]
    pub a_ratio: f64,
    /// Opening book, EPD or FEN lines (default: as `lab match`).
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
    /// Fixes the flips, the rounding and the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at the same time, each with its own engine processes.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub concurrency: usize,
    #[command(flatten)]
    pub hash: HashOption,
    /// Continue a tuning run: DIR, or the latest `tune` run under the results
    /// folder. Give the same arguments as the first time.
    #[arg(long, num_args = 0..=1, value_name = "DIR")]
    pub resume: Option<Option<PathBuf>>,
    /// When the run is done, write the tuned values as a variant file
    /// (`variants/NAME.toml`: extends the tuned variant, `[tunables]`).
    #[arg(long, value_name = "FILE")]
    pub write_variant: Option<PathBuf>,
}

/// What decides a tuning run's games and updates, as `run.json` records
/// it; a resumed run must have the same.
#[derive(Clone, Debug, Serialize)]
struct TuneSettings {
    variant: String,
    binary: PathBuf,
    /// Another engine's own options, set on both sides before the tuned ones.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    options: Vec<Setting>,
    parameters: Vec<Parameter>,
    schedule: Schedule,
    pairs_per: u64,
    tc: TimeControl,
    book: Option<PathBuf>,
    seed: u64,
    hash_mb: u32,
}

/// One finished iteration, a line of `records.jsonl`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct IterationRecord {
    /// `k`, from 1.
    pub iteration: u64,
    /// Per parameter, in `--param` order.
    pub perturbation: Vec<Perturbation>,
    /// The dev engine's games.
    pub wdl: Wdl,
    pub penta: Pentanomial,
    /// Wins − losses of the dev engine: what moves θ.
    pub result: i64,
    /// θ after the update, per parameter.
    pub values: Vec<f64>,
    /// The iteration's match run.
    pub match_run: PathBuf,
}

/// What the run ends with, `summary.json`.
#[derive(Debug, Serialize)]
struct TuneSummary {
    variant: String,
    iterations: u64,
    iterations_planned: u64,
    games: u64,
    parameters: Vec<FinalValue>,
    verify: String,
    charts: Vec<PathBuf>,
}

#[derive(Debug, Serialize)]
struct FinalValue {
    name: String,
    start: f64,
    /// θ as the updates left it.
    value: f64,
    /// As OpenBench reports it (rounded, half to even).
    tuned: f64,
}

/// `lab tune`.
pub fn command(lab: &Lab, args: &TuneArgs) -> Result<()> {
    if args.iterations == 0 || args.pairs_per == 0 || args.concurrency == 0 {
        bail!("--iterations, --pairs-per and --concurrency must each be at least 1");
    }
    matches::check_book(&lab.session(), args.book.as_deref())?;
    let tc = args.tc.unwrap_or(TimeControl::Nodes(args.nodes));
    let (engine, parameters) = match participant::check(lab, &args.variant)? {
        None => {
            let (binary, parameters) = tuning_build(lab, &args.variant, &args.params)?;
            (Launch::from(binary), parameters)
        }
        Some(launch) => {
            if args.write_variant.is_some() {
                bail!(
                    "--write-variant writes a variant of prunelab's; `{}` is another engine: put its tuned values in \
                     a variant's `options` (lab/other-engines/)",
                    args.variant
                );
            }
            other_engine_parameters(&launch, &args.variant, &args.params, tc)?
        }
    };
    let settings = TuneSettings {
        variant: args.variant.clone(),
        binary: engine.binary,
        options: engine.settings,
        parameters,
        schedule: Schedule { iterations: args.iterations, alpha: args.alpha, gamma: args.gamma, a_ratio: args.a_ratio },
        pairs_per: args.pairs_per,
        tc,
        book: args.book.clone(),
        seed: args.seed,
        hash_mb: args.hash.mb,
    };
    let (mut run, records) = open_run(lab, args, &settings)?;
    let mut tuner = Tuner::new(settings.schedule, settings.parameters.clone(), settings.seed);
    for record in &records {
        tuner.apply(&record.perturbation, record.result);
    }
    let mut history = records;
    let bar = lab.progress(args.iterations, "SPSA iterations");
    bar.set_position(tuner.done);
    while tuner.done < args.iterations {
        let record = play_iteration(lab, args, &settings, &mut tuner, run.path())?;
        lab.say_above(&bar, &iteration_line(&settings.parameters, &record));
        run.keep(&mut history, record)?;
        bar.inc(1);
        write_results(lab, &run, &settings, &tuner, &history)?;
    }
    bar.finish_and_clear();
    let summary = write_results(lab, &run, &settings, &tuner, &history)?;
    lab.say(&format!("results: {}", run.path().display()));
    if let Some(file) = &args.write_variant {
        let path = lab.resolve(file);
        write_variant(&path, &summary, run.path().strip_prefix(&lab.root).unwrap_or(run.path()))?;
        lab.say(&format!("wrote {}; the lab knows it once rebuilt (cargo lab ... rebuilds it)", path.display()));
    }
    if lab.global.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        print!("{}", summary_markdown(&summary));
    }
    Ok(())
}

/// The tuned values as a variant file at `path`, named by its stem: it
/// extends the tuned variant and sets the values in `[tunables]`, so its
/// build has them as constants. An existing file is left alone.
fn write_variant(path: &Path, summary: &TuneSummary, run: &Path) -> Result<()> {
    let name = path
        .file_stem()
        .and_then(|stem| stem.to_str())
        .filter(|_| path.extension().is_some_and(|extension| extension == "toml"))
        .ok_or_else(|| anyhow!("--write-variant {}: give a file NAME.toml", path.display()))?;
    if path.exists() {
        bail!("--write-variant: {} exists; the lab does not replace a variant file", path.display());
    }
    let names: Vec<&str> = summary.parameters.iter().map(|parameter| parameter.name.as_str()).collect();
    let mut text = format!(
        "name = {name:?}\n\
         description = {:?}\n\
         extends = {:?}\n\
         source = {:?}\n\n[tunables]\n",
        format!("{} with {} as SPSA tuned it.", summary.variant, names.join(", ")),
        summary.variant,
        format!("lab tune: {} iterations, {} games ({})", summary.iterations, summary.games, run.display()),
    );
    for parameter in &summary.parameters {
        text += &format!("{} = {}\n", parameter.name, parameter.tuned);
    }
    write_atomically(path, &text)
}

/// The variant's tuning build and the `--param`s, their defaults from the
/// tunables it declares.
pub fn tuning_build(lab: &Lab, variant: &str, specs: &[String]) -> Result<(PathBuf, Vec<Parameter>)> {
    let binary = builder::ensure_built_with(lab, variant, &[TUNE_FEATURE])?;
    let declared = params::read_declarations(&spsa_lines(&binary)?)?;
    let parameters = specs.iter().map(|spec| params::parse(spec, &declared)).collect::<Result<Vec<_>>>()?;
    Ok((binary, parameters))
}

/// Another engine's `--param`s, from the spin options it offers; refused
/// at fixed nodes when it does not stop at `go nodes`.
fn other_engine_parameters(
    launch: &Launch,
    spec: &str,
    specs: &[String],
    tc: TimeControl,
) -> Result<(Launch, Vec<Parameter>)> {
    let engine = games::engine::Engine::launch(launch, spec)?;
    let wanted: Vec<&str> =
        specs.iter().map(|spec| spec.split_once(':').map_or(spec.as_str(), |(name, _)| name)).collect();
    let declared = other_engine::declarations(engine.id_name(), engine.options(), &wanted)?;
    drop(engine);
    let parameters = specs.iter().map(|spec| params::parse(spec, &declared)).collect::<Result<Vec<_>>>()?;
    if let TimeControl::Nodes(nodes) = tc {
        other_engine::check_fixed_nodes(launch, spec, nodes, other_engine::nodes_deadline(nodes))?;
    }
    Ok((launch.clone(), parameters))
}

/// The tunables the binary declares, as SPSA input lines.
fn spsa_lines(binary: &Path) -> Result<String> {
    let output = std::process::Command::new(binary)
        .arg("spsa")
        .output()
        .with_context(|| format!("cannot run {} spsa", binary.display()))?;
    if !output.status.success() {
        bail!("{} spsa failed: {}", binary.display(), String::from_utf8_lossy(&output.stderr).trim());
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// A new run folder, or the one `--resume` names with its iterations.
fn open_run(lab: &Lab, args: &TuneArgs, settings: &TuneSettings) -> Result<(RunDir, Vec<IterationRecord>)> {
    let dir = match &args.resume {
        None => return Ok((RunDir::create(&lab.results_root(), "tune", settings)?, Vec::new())),
        Some(Some(dir)) => lab.resolve(dir),
        Some(None) => {
            let root = lab.results_root();
            results::runs_of(&root, "tune")
                .pop()
                .ok_or_else(|| anyhow!("--resume: no tune run under {} to continue", root.display()))?
        }
    };
    let (run, records) = RunDir::resume(&dir, "tune", settings)?;
    lab.say(&format!("resuming {}: {} iterations already played", dir.display(), records.len()));
    Ok((run, records))
}

/// Plays iteration `done + 1` and applies it.
fn play_iteration(
    lab: &Lab,
    args: &TuneArgs,
    settings: &TuneSettings,
    tuner: &mut Tuner,
    run: &Path,
) -> Result<IterationRecord> {
    let iteration = tuner.done + 1;
    let perturbation = tuner.perturbation();
    let engine = |pick: fn(&Perturbation) -> f64| Launch {
        binary: settings.binary.clone(),
        settings: settings
            .options
            .iter()
            .cloned()
            .chain(
                settings
                    .parameters
                    .iter()
                    .zip(&perturbation)
                    .map(|(parameter, step)| Setting { name: parameter.name.clone(), value: pick(step).to_string() }),
            )
            .collect(),
    };
    let (dev, base) = (engine(|step| step.dev), engine(|step| step.base));
    let folder = run.join(format!("iteration-{iteration:04}"));
    let mut match_args = MatchArgs::new("dev", "base");
    match_args.tc = settings.tc;
    match_args.book = args.book.clone();
    match_args.games = Some(2 * settings.pairs_per);
    // Each iteration starts its own stretch of the book.
    match_args.seed = settings.seed.wrapping_add(iteration);
    match_args.concurrency = args.concurrency;
    match_args.hash.mb = settings.hash_mb;
    // An iteration cut short continues its own match.
    match_args.resume = results::runs_of(&folder, "match").pop().map(Some);
    let mut steps = lab.nested(&folder);
    steps.global.quiet = true;
    let outcome = matches::run_match(&steps.session(), ("dev", &dev), ("base", &base), &match_args)
        .with_context(|| format!("iteration {iteration}"))?;
    let wdl = outcome.summary.wdl;
    let result = wdl.wins as i64 - wdl.losses as i64;
    tuner.apply(&perturbation, result);
    Ok(IterationRecord {
        iteration,
        perturbation,
        wdl,
        penta: outcome.summary.penta,
        result,
        values: tuner.values.clone(),
        match_run: outcome.run_dir.strip_prefix(run).unwrap_or(&outcome.run_dir).to_path_buf(),
    })
}

/// `iteration 3: W 2 L 1 D 1 (+1), ReverseFutilityDepthMargin 110 vs 70 -> 90.13`.
fn iteration_line(parameters: &[Parameter], record: &IterationRecord) -> String {
    let moves: Vec<String> = parameters
        .iter()
        .zip(&record.perturbation)
        .zip(&record.values)
        .map(|((parameter, step), value)| format!("{} {} vs {} -> {value:.2}", parameter.name, step.dev, step.base))
        .collect();
    let wdl = record.wdl;
    format!(
        "iteration {}: W {} L {} D {} ({:+}), {}",
        record.iteration,
        wdl.wins,
        wdl.losses,
        wdl.draws,
        record.result,
        moves.join(", ")
    )
}

/// The summary, the charts and the tuned values, rewritten after every
/// iteration so a stopped run still shows its path.
fn write_results(
    lab: &Lab,
    run: &RunDir,
    settings: &TuneSettings,
    tuner: &Tuner,
    history: &[IterationRecord],
) -> Result<TuneSummary> {
    let mut charts = Vec::new();
    for (index, parameter) in settings.parameters.iter().enumerate() {
        let path = run.file(&format!("path-{}.svg", parameter.name));
        let svg = chart::parameter_path(parameter, &settings.schedule, index, history)
            .with_context(|| format!("cannot draw {}", path.display()))?;
        write_atomically(&path, &svg)?;
        charts.push(path);
    }
    let tuned = tuner.reported();
    let summary = TuneSummary {
        variant: settings.variant.clone(),
        iterations: tuner.done,
        iterations_planned: settings.schedule.iterations,
        games: history.iter().map(|record| record.wdl.wins + record.wdl.draws + record.wdl.losses).sum(),
        parameters: settings
            .parameters
            .iter()
            .zip(&tuner.values)
            .zip(&tuned)
            .map(|((parameter, &value), &tuned)| FinalValue {
                name: parameter.name.clone(),
                start: parameter.start,
                value,
                tuned,
            })
            .collect(),
        verify: verify_command(lab, settings, &tuned),
        charts,
    };
    write_atomically(&run.file("tuned.txt"), &tuned_lines(&summary))?;
    run.write_summary(&summary_markdown(&summary), &summary)?;
    Ok(summary)
}

/// OpenBench's "optimal values" form: `Name, value` a line.
fn tuned_lines(summary: &TuneSummary) -> String {
    summary.parameters.iter().map(|parameter| format!("{}, {}\n", parameter.name, parameter.tuned)).collect()
}

/// The match that checks the tuned values against the start, at the run's
/// own games' setting, with an SPRT.
fn verify_command(lab: &Lab, settings: &TuneSettings, tuned: &[f64]) -> String {
    // From the repository root, where `cargo lab` runs.
    let binary = settings.binary.strip_prefix(&lab.root).unwrap_or(&settings.binary);
    let options = |values: Vec<f64>| -> String {
        let fixed = settings.options.iter().map(Setting::to_string);
        let tuned =
            settings.parameters.iter().zip(values).map(|(parameter, value)| {
                Setting { name: parameter.name.clone(), value: value.to_string() }.to_string()
            });
        let pairs: Vec<String> = fixed.chain(tuned).collect();
        format!("uci:{}@{}", binary.display(), pairs.join(","))
    };
    let start = settings.parameters.iter().map(|parameter| parameter.start).collect();
    format!(
        "cargo lab match {} {} --tc {} --sprt 0 5 --games 2000",
        options(tuned.to_vec()),
        options(start),
        settings.tc
    )
}

fn summary_markdown(summary: &TuneSummary) -> String {
    let mut text = format!(
        "# lab tune {}\n\n{} of {} iterations, {} games.\n\n| parameter | start | θ | tuned |\n| --- | ---: | ---: | ---: |\n",
        summary.variant, summary.iterations, summary.iterations_planned, summary.games
    );
    for parameter in &summary.parameters {
        text +=
            &format!("| {} | {} | {:.3} | {} |\n", parameter.name, parameter.start, parameter.value, parameter.tuned);
    }
    text += &format!("\nVerify the tuned values against the start:\n\n```sh\n{}\n```\n", summary.verify);
    text
}
