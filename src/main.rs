//! The `prunelab` binary. Without a subcommand it speaks UCI on stdin/stdout,
//! as GUIs, cutechess and OpenBench expect; the subcommands are tools:
//! `bench [depth] [--stats]`, `perft <depth> [fen]`, `features [--all|--json]`,
//! `matrix`, `variant-features`, `variant-tunables` and `spsa`.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};

use prunelab::bench::{run_bench, run_bench_as, DEFAULT_BENCH_DEPTH};
use prunelab::features;
use prunelab::matrix::{self, DEPTH, HASH_MB, SUITE_PATH};
use prunelab::perft::divide;
use prunelab::position::{move_to_uci, Position};
use prunelab::score::MAX_PLY;
use prunelab::techniques::Compiled;
use prunelab::time::nodes_per_second;
use prunelab::uci;
use prunelab::variants::selectable;

const USAGE: &str = "\
prunelab: a chess engine built as a pruning laboratory

Usage: prunelab [COMMAND]

Without a command it speaks UCI on stdin and stdout.

Commands:
  bench [DEPTH] [--stats] [--variant NAME]
                                 search the bench positions to a fixed depth; the last
                                 line is `Bench: <nodes> nodes <nps> nps` (--variant: as
                                 that variant, in the variants build)
  perft DEPTH [FEN|startpos]     count the leaf nodes of the move tree, split by root move
  features [--all | --json]      this binary's variant and pruning features (--all: the
                                 catalogue as a markdown table; --json: one JSON object)
  matrix [--suite FILE] [--depth N] [--hash MB] [--variant NAME]
                                 the variant matrix's table for this build (in the
                                 variants build, for any variant)
  variant-features NAME...       each variant's features, parents' and implied ones
                                 included, on one line (for ci/ and cargo build --features)
  variant-tunables NAME          the variant's tunable values as $PRUNELAB_TUNABLES takes
                                 them (NAME=value,...), for cargo build --features
  spsa                           OpenBench SPSA input for the compiled tunables
  help, --help, -h               this text
  --version, -V                  the version
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        // `prunelab features | head -n 1`: the reader has what it wanted.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("prunelab: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Whether the error is a write to a pipe whose reader has gone.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .any(|cause| cause.downcast_ref::<io::Error>().is_some_and(|error| error.kind() == io::ErrorKind::BrokenPipe))
}

fn run(args: &[String]) -> Result<()> {
    let Some((command, rest)) = args.split_first() else {
        uci::run(io::stdin().lock(), io::stdout());
        return Ok(());
    };
    // A value `$PRUNELAB_TUNABLES` gave the build that no tunable of its
    // techniques takes is refused before anything runs.
    prunelab::tune::built_values().map_err(|error| anyhow!(error))?;
    let mut options = Options::new(rest);
    match command.as_str() {
        "bench" => {
            let stats = options.flag("--stats");
            let variant: Option<String> = options.value("--variant")?;
            let depth = options.positional("depth")?.unwrap_or(DEFAULT_BENCH_DEPTH);
            options.done()?;
            bench(depth, stats, variant)
        }
        "perft" => {
            let depth: u32 = options.positional("depth")?.ok_or_else(|| anyhow!("perft needs a depth"))?;
            perft(depth, &options.remaining().join(" "))
        }
        "features" => {
            let (all, json) = (options.flag("--all"), options.flag("--json"));
            options.done()?;
            if all && json {
                bail!("features: --all and --json cannot be used together");
            }
            print_features(all, json)
        }
        "matrix" => {
            let suite = options.value("--suite")?.unwrap_or_else(|| PathBuf::from(SUITE_PATH));
            let depth = options.value("--depth")?.unwrap_or(DEPTH);
            let hash = options.value("--hash")?.unwrap_or(HASH_MB);
            let variant: Option<String> = options.value("--variant")?;
            options.done()?;
            print_matrix(&suite, depth, hash, variant)
        }
        "variant-features" => {
            let names = options.remaining();
            if names.is_empty() {
                bail!("variant-features needs at least one variant name");
            }
            print_variant_features(&names)
        }
        "variant-tunables" => {
            let name: String =
                options.positional("variant name")?.ok_or_else(|| anyhow!("variant-tunables needs a variant name"))?;
            options.done()?;
            let variants = prunelab::variants::load()?;
            println!("{}", prunelab::variants::find(&variants, &name)?.tunables_variable());
            Ok(())
        }
        "spsa" => {
            options.done()?;
            print_spsa()
        }
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(())
        }
        "--version" | "-V" => {
            println!("prunelab {}", env!("CARGO_PKG_VERSION"));
            Ok(())
        }
        other => bail!("unknown command `{other}`; run `prunelab --help` for the commands"),
    }
}

/// A subcommand's arguments: flags, `--name value` options and positionals,
/// each taken once; what is left over is an error.
struct Options<'a> {
    args: Vec<&'a str>,
}

impl<'a> Options<'a> {
    fn new(args: &'a [String]) -> Self {
        Options { args: args.iter().map(String::as_str).collect() }
    }

    /// Whether `--name` is given (and takes it).
    fn flag(&mut self, name: &str) -> bool {
        let before = self.args.len();
        self.args.retain(|arg| *arg != name);
        self.args.len() != before
    }

    /// The value of `--name value` or `--name=value`, parsed.
    fn value<T: std::str::FromStr>(&mut self, name: &str) -> Result<Option<T>>
    where
        T::Err: std::fmt::Display,
    {
        let prefix = format!("{name}=");
        let Some(index) = self.args.iter().position(|arg| *arg == name || arg.starts_with(&prefix)) else {
            return Ok(None);
        };
        let text = match self.args[index].strip_prefix(&prefix) {
            Some(text) => text,
            None if index + 1 < self.args.len() => self.args.remove(index + 1),
            None => bail!("{name} needs a value"),
        };
        self.args.remove(index);
        text.parse().map(Some).map_err(|error| anyhow!("{name} {text}: {error}"))
    }

    /// The first argument that is not an option, parsed.
    fn positional<T: std::str::FromStr>(&mut self, what: &str) -> Result<Option<T>>
    where
        T::Err: std::fmt::Display,
    {
        let Some(index) = self.args.iter().position(|arg| !arg.starts_with("--")) else { return Ok(None) };
        let text = self.args.remove(index);
        text.parse().map(Some).map_err(|error| anyhow!("{what} '{text}': {error}"))
    }

    /// Every argument not taken yet.
    fn remaining(self) -> Vec<&'a str> {
        self.args
    }

    /// Refuses arguments nobody took.
    fn done(self) -> Result<()> {
        match self.args.first() {
            None => Ok(()),
            Some(arg) => bail!("unexpected argument '{arg}'; run `prunelab --help` for the commands"),
        }
    }
}

fn bench(depth: i32, with_stats: bool, variant: Option<String>) -> Result<()> {
    if !(1..=MAX_PLY as i32).contains(&depth) {
        bail!("bench depth must be between 1 and {MAX_PLY}, got {depth}");
    }
    let variant = match variant {
        Some(name) => Some(selectable::find(&name).map_err(|error| anyhow!("bench --variant: {error}"))?),
        None => selectable::default_variant(),
    };
    let mut out = io::stdout().lock();
    match variant {
        Some(variant) => run_bench_as(variant, depth, with_stats, &mut out),
        None => run_bench(depth, with_stats, &mut out),
    };
    Ok(())
}

fn perft(depth: u32, fen: &str) -> Result<()> {
    if depth == 0 {
        bail!("perft depth must be at least 1");
    }
    let position = if fen.trim().is_empty() || fen.trim() == "startpos" {
        Position::startpos()
    } else {
        Position::from_fen(fen).map_err(anyhow::Error::msg).with_context(|| format!("bad FEN '{fen}'"))?
    };
    let board = position.board();
    let started = Instant::now();
    let counts = divide(board, depth);
    let elapsed = started.elapsed();
    let total: u64 = counts.iter().map(|(_, count)| count).sum();

    let mut out = BufWriter::new(io::stdout().lock());
    for (mv, count) in &counts {
        writeln!(out, "{}: {count}", move_to_uci(board, *mv))?;
    }
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    writeln!(out, "Time: {} ms", elapsed.as_millis())?;
    writeln!(out, "NPS: {}", nodes_per_second(total, elapsed))?;
    out.flush()?;
    Ok(())
}

/// A JSON string literal.
fn json_string(text: &str) -> String {
    let mut quoted = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            c if (c as u32) < 0x20 => quoted.push_str(&format!("\\u{:04x}", c as u32)),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

fn json_list<S: AsRef<str>>(items: &[S]) -> String {
    let items: Vec<String> = items.iter().map(|item| json_string(item.as_ref())).collect();
    format!("[{}]", items.join(","))
}

fn print_features(all: bool, json: bool) -> Result<()> {
    let mut out = io::stdout().lock();
    let (variants, compiled) = identity()?;
    if json {
        // `{"version":..,"variants":[..],"features":[..],"selectable":[..],
        // "tunables":{"Name":value,..},"variants_digest":N}`: the lab reads
        // this shape (the digest of the `variants/` folder it was built from
        // tells the lab whether a variants build knows its variants).
        let selectable: Vec<&str> = selectable::all().iter().map(|variant| variant.name).collect();
        let tunables: Vec<String> =
            identity_tunables()?.iter().map(|(name, value)| format!("{}:{value}", json_string(name))).collect();
        writeln!(
            out,
            "{{\"version\":{},\"variants\":{},\"features\":{},\"selectable\":{},\"tunables\":{{{}}},\"variants_digest\":{}}}",
            json_string(env!("CARGO_PKG_VERSION")),
            json_list(&variants),
            json_list(&compiled),
            json_list(&selectable),
            tunables.join(","),
            prunelab::variants::SOURCES_DIGEST
        )?;
        return Ok(());
    }
    if all {
        writeln!(out, "| feature | implies | technique | source | what it does |")?;
        writeln!(out, "| --- | --- | --- | --- | --- |")?;
        for feature in features::CATALOGUE {
            let implies = feature.implies.iter().map(|name| format!("`{name}`")).collect::<Vec<_>>().join(", ");
            writeln!(
                out,
                "| `{}` | {} | `{}` | {} | {} |",
                feature.name, implies, feature.technique, feature.source, feature.summary
            )?;
        }
        return Ok(());
    }
    let label = if variants.is_empty() { features::CUSTOM_VARIANT.to_string() } else { variants.join("/") };
    match selectable::default_variant() {
        Some(_) => writeln!(
            out,
            "variant: {label} (the default of this variants build: its UCI option Variant chooses among {} \
             variants)",
            selectable::all().len()
        )?,
        None => writeln!(out, "variant: {label}")?,
    }
    if compiled.is_empty() {
        writeln!(out, "none")?;
    }
    for feature in compiled {
        writeln!(out, "{feature}")?;
    }
    Ok(())
}

/// The variant(s) this binary searches as (in the variants build, its
/// default) and their features.
fn identity() -> Result<(Vec<String>, Vec<&'static str>)> {
    match selectable::default_variant() {
        Some(variant) => Ok((vec![variant.name.to_string()], variant_features(variant.name)?)),
        None => Ok((features::compiled_variants(), features::compiled())),
    }
}

/// The tunable values this binary searches with that are not its
/// techniques' own: its build's (`$PRUNELAB_TUNABLES`), or in the variants
/// build its default variant's, by UCI name.
fn identity_tunables() -> Result<Vec<(&'static str, i32)>> {
    match selectable::default_variant() {
        Some(variant) => {
            let given: Vec<(String, i64)> =
                variant.tunables.iter().map(|(name, value)| (name.to_string(), i64::from(*value))).collect();
            prunelab::tune::check_values(&given, &variant.techniques.tunables()).map_err(|error| anyhow!(error))
        }
        None => prunelab::tune::built_values().map_err(|error| anyhow!(error)),
    }
}

/// A variant's features, its parents' and the implied ones, in catalogue order.
fn variant_features(name: &str) -> Result<Vec<&'static str>> {
    let variants = prunelab::variants::load()?;
    Ok(prunelab::variants::find(&variants, name)?.features.clone())
}

fn print_matrix(suite: &std::path::Path, depth: i32, hash_mb: usize, variant: Option<String>) -> Result<()> {
    if !(1..=MAX_PLY as i32).contains(&depth) {
        bail!("matrix depth must be between 1 and {MAX_PLY}, got {depth}");
    }
    if !(1..=65536).contains(&hash_mb) {
        bail!("matrix hash must be between 1 and 65536 MiB, got {hash_mb}");
    }
    let positions = || matrix::load_suite(suite).with_context(|| format!("cannot load the suite {}", suite.display()));
    let table = if selectable::VARIANTS_BUILD {
        let name = variant.unwrap_or_else(|| selectable::default_variant().map_or("", |variant| variant.name).into());
        let variant = selectable::find(&name).map_err(|error| anyhow!("matrix --variant: {error}"))?;
        let search = |searcher: &mut _, pos: &_, limits: &_| {
            (variant.search)(searcher, pos, limits, &AtomicBool::new(false), &mut |_| {})
        };
        matrix::table(&name, &variant_features(&name)?, search, &positions()?, depth, hash_mb)
    } else {
        let name = match variant {
            None => features::variant_label(),
            Some(name) if features::compiled_variants().contains(&name) => name,
            Some(name) => bail!(
                "this binary is variant {}, not `{name}`: build one with `{name}`'s features, or build every \
                 variant in one binary with `make`",
                features::variant_label()
            ),
        };
        matrix::table(&name, &features::compiled(), matrix::search_as::<Compiled>, &positions()?, depth, hash_mb)
    };
    io::stdout().lock().write_all(table.as_bytes())?;
    Ok(())
}

fn print_variant_features(names: &[&str]) -> Result<()> {
    let variants = prunelab::variants::load()?;
    for name in names {
        let variant = prunelab::variants::find(&variants, name)?;
        println!("{}", variant.features.join(" "));
    }
    Ok(())
}

fn print_spsa() -> Result<()> {
    if !prunelab::tune::TUNING {
        eprintln!("prunelab: note: this build has no `tune` feature, so these options cannot be set over UCI");
    }
    let mut out = io::stdout().lock();
    for tunable in prunelab::tune::compiled_tunables() {
        writeln!(out, "{}", tunable.spsa_line())?;
    }
    Ok(())
}
