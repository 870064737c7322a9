//! The `prunelab` binary. Without a subcommand it speaks UCI on stdin/stdout,
//! as GUIs, cutechess and OpenBench expect; the subcommands are tools:
//! `bench [depth] [--stats]`, `perft <depth> [fen]`, `features [--all|--json]`,
//! `matrix` and `spsa`.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};

use prunelab::bench::{run_bench, DEFAULT_BENCH_DEPTH};
use prunelab::features::{self, COMPILED_VARIANTS};
use prunelab::matrix::{self, DEPTH, HASH_MB, SUITE_PATH};
use prunelab::perft::divide;
use prunelab::position::{move_to_uci, Position};
use prunelab::search::MAX_PLY;
use prunelab::techniques::Compiled;
use prunelab::time::nodes_per_second;
use prunelab::uci;

#[derive(Parser)]
#[command(
    name = "prunelab",
    version,
    about = "A chess engine built as a pruning laboratory (UCI without a subcommand)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Search the bench positions to a fixed depth; the last line is `Bench: <nodes> nodes <nps> nps`.
    Bench {
        /// Search depth (default: the tuned bench depth).
        depth: Option<i32>,
        /// Also print the search counters summed over all positions.
        #[arg(long)]
        stats: bool,
    },
    /// Count the leaf nodes of the move tree, split by root move.
    Perft {
        depth: u32,
        /// The position, as one quoted argument or as separate words (default: `startpos`).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        fen: Vec<String>,
    },
    /// Name this binary's variant, then list its pruning features one per line.
    Features {
        /// Print the whole catalogue as a markdown table instead.
        #[arg(long, conflicts_with = "json")]
        all: bool,
        /// Print one JSON object: `{"version":..,"variants":[..],"features":[..]}`.
        #[arg(long)]
        json: bool,
    },
    /// Print the variant matrix's table for this build's technique set: what
    /// `snapshots/<variant>.snap` holds for a build with that variant's features.
    Matrix {
        /// The node-count suite.
        #[arg(long, default_value = SUITE_PATH)]
        suite: PathBuf,
        #[arg(long, default_value_t = DEPTH)]
        depth: i32,
        /// Hash size in MiB.
        #[arg(long, default_value_t = HASH_MB)]
        hash: usize,
        /// The variant the header names; one this build is (default: all of them, joined by `/`).
        #[arg(long)]
        variant: Option<String>,
    },
    /// Print a variant's features, parents' and implied ones included, space-separated
    /// (for the Makefile's VARIANT= and ci/honesty.sh).
    #[command(hide = true)]
    VariantFeatures {
        name: String,
        /// The variants folder.
        #[arg(long, default_value = "variants")]
        dir: PathBuf,
    },
    /// Print OpenBench SPSA input for the compiled techniques' tunables
    /// (`name, int, value, min, max, c_end, r_end`); tune with a `tune` build.
    Spsa,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        None => {
            uci::run(io::stdin().lock(), io::stdout());
            Ok(())
        }
        Some(Command::Bench { depth, stats }) => bench(depth.unwrap_or(DEFAULT_BENCH_DEPTH), stats),
        Some(Command::Perft { depth, fen }) => perft(depth, &fen.join(" ")),
        Some(Command::Features { all, json }) => print_features(all, json),
        Some(Command::Matrix { suite, depth, hash, variant }) => print_matrix(&suite, depth, hash, variant),
        Some(Command::VariantFeatures { name, dir }) => print_variant_features(&name, &dir),
        Some(Command::Spsa) => print_spsa(),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("prunelab: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn bench(depth: i32, with_stats: bool) -> Result<()> {
    if !(1..=MAX_PLY as i32).contains(&depth) {
        bail!("bench depth must be between 1 and {MAX_PLY}, got {depth}");
    }
    let mut out = io::stdout().lock();
    run_bench(depth, with_stats, &mut out);
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

/// `prunelab features --json`; the lab reads this exact shape.
#[derive(serde::Serialize)]
struct FeaturesReport {
    version: &'static str,
    variants: &'static [&'static str],
    features: Vec<&'static str>,
}

fn print_features(all: bool, json: bool) -> Result<()> {
    let mut out = io::stdout().lock();
    if json {
        let report = FeaturesReport {
            version: env!("CARGO_PKG_VERSION"),
            variants: COMPILED_VARIANTS,
            features: features::compiled(),
        };
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
        return Ok(());
    }
    if all {
        writeln!(out, "| feature | implies | technique | source | what it does |")?;
        writeln!(out, "| --- | --- | --- | --- | --- |")?;
        for feature in features::CATALOGUE {
            let implies = feature.implies.iter().map(|name| format!("`{name}`")).collect::<Vec<_>>().join(", ");
            writeln!(
                out,
                "| `{}` | {} | `src/prune/{}.rs` | {} | {} |",
                feature.name, implies, feature.technique, feature.source, feature.summary
            )?;
        }
        return Ok(());
    }
    writeln!(out, "variant: {}", features::variant_label())?;
    let compiled = features::compiled();
    if compiled.is_empty() {
        writeln!(out, "none")?;
    }
    for feature in compiled {
        writeln!(out, "{feature}")?;
    }
    Ok(())
}

fn print_matrix(suite: &Path, depth: i32, hash_mb: usize, variant: Option<String>) -> Result<()> {
    if !(1..=MAX_PLY as i32).contains(&depth) {
        bail!("matrix depth must be between 1 and {MAX_PLY}, got {depth}");
    }
    if !(1..=65536).contains(&hash_mb) {
        bail!("matrix hash must be between 1 and 65536 MiB, got {hash_mb}");
    }
    let name = match variant {
        None => features::variant_label(),
        Some(name) if COMPILED_VARIANTS.contains(&name.as_str()) => name,
        Some(name) => bail!(
            "this binary is variant {}, not `{name}`: build one with `{name}`'s features (`make VARIANT={name}`)",
            features::variant_label()
        ),
    };
    let positions = matrix::load_suite(suite).with_context(|| format!("cannot load the suite {}", suite.display()))?;
    let table = matrix::table(&name, &features::compiled(), matrix::search_as::<Compiled>, &positions, depth, hash_mb);
    io::stdout().lock().write_all(table.as_bytes())?;
    Ok(())
}

fn print_variant_features(name: &str, dir: &Path) -> Result<()> {
    let variants = prunelab::variants::load_dir(dir)?;
    let variant = prunelab::variants::find(&variants, name)?;
    println!("{}", variant.features.join(" "));
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
