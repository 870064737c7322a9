//! The `prunelab` binary. Without a subcommand it speaks UCI on stdin/stdout,
//! as GUIs, cutechess and OpenBench expect; the subcommands are tools:
//! `bench [depth] [--stats]`, `perft <depth> [fen]`, `features` and `spsa`.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};

use prunelab::bench::{run_bench, DEFAULT_BENCH_DEPTH};
use prunelab::features;
use prunelab::perft::divide;
use prunelab::position::{move_to_uci, Position};
use prunelab::search::MAX_PLY;
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
    /// List the pruning features compiled into this binary, one per line.
    Features {
        /// Print the whole catalogue as a markdown table instead.
        #[arg(long)]
        all: bool,
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
        Some(Command::Features { all }) => print_features(all),
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

fn print_features(all: bool) -> Result<()> {
    let mut out = io::stdout().lock();
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
    let compiled = features::compiled();
    if compiled.is_empty() {
        writeln!(out, "none (baseline)")?;
    }
    for feature in compiled {
        writeln!(out, "{feature}")?;
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
