//! Time to depth of named variants side by side, in one binary: by default
//! `baseline` and `full` on seeds.epd, so one run shows what the pruning
//! costs per node and what it saves in the end. Every variant's search is
//! compiled in (as in the matrix test), so no feature flags are needed:
//!
//! ```sh
//! cargo bench --bench ttd                                   # baseline, full, depth 10
//! PRUNELAB_TTD_VARIANTS=p003-3,full PRUNELAB_TTD_DEPTH=12 cargo bench --bench ttd
//! ```
//!
//! `ttd_<depth>/<position>/<variant>` times one position from `ucinewgame`
//! (Hash 16, one thread), with its nodes as criterion's throughput, so the
//! report gives nodes per second too; `ttd_<depth>_suite/<variant>` times
//! the whole suite, the total a user waits.

mod common;

use std::time::Duration;

use common::seed_positions;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use prunelab::matrix::SearchFn;
use prunelab::position::Position;
use prunelab::search::{SearchLimits, Searcher};

include!(concat!(env!("OUT_DIR"), "/variant_sets.rs"));

const DEFAULT_VARIANTS: &str = "baseline,full";
const DEFAULT_DEPTH: i32 = 10;
const HASH_MB: usize = 16;

/// The variants to time, from `PRUNELAB_TTD_VARIANTS` (comma-separated).
fn variants() -> Vec<(&'static str, SearchFn)> {
    let names = std::env::var("PRUNELAB_TTD_VARIANTS").unwrap_or_else(|_| DEFAULT_VARIANTS.to_string());
    names
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(|name| {
            VARIANT_SEARCHES.iter().find(|(variant, _)| *variant == name).copied().unwrap_or_else(|| {
                let known: Vec<&str> = VARIANT_SEARCHES.iter().map(|(variant, _)| *variant).collect();
                panic!("PRUNELAB_TTD_VARIANTS: unknown variant `{name}`; the variants are {}", known.join(", "))
            })
        })
        .collect()
}

/// The depth to search, from `PRUNELAB_TTD_DEPTH`.
fn depth() -> i32 {
    match std::env::var("PRUNELAB_TTD_DEPTH") {
        Ok(text) => text.trim().parse().unwrap_or_else(|_| panic!("PRUNELAB_TTD_DEPTH: `{text}` is not a depth")),
        Err(_) => DEFAULT_DEPTH,
    }
}

fn nodes_to_depth(search: SearchFn, searcher: &mut Searcher, pos: &Position, depth: i32) -> u64 {
    searcher.new_game();
    search(searcher, pos, &SearchLimits { depth: Some(depth), ..Default::default() }).nodes
}

fn time_to_depth(c: &mut Criterion) {
    let (variants, depth, positions) = (variants(), depth(), seed_positions());
    let mut searcher = Searcher::new(HASH_MB);

    let mut group = c.benchmark_group(format!("ttd_{depth}"));
    group.sample_size(10);
    for (id, pos) in &positions {
        for &(name, search) in &variants {
            group.throughput(Throughput::Elements(nodes_to_depth(search, &mut searcher, pos, depth)));
            group.bench_with_input(BenchmarkId::new(id, name), pos, |b, pos| {
                b.iter(|| nodes_to_depth(search, &mut searcher, pos, depth))
            });
        }
    }
    group.finish();

    let mut group = c.benchmark_group(format!("ttd_{depth}_suite"));
    group.sample_size(10).measurement_time(Duration::from_secs(20));
    for &(name, search) in &variants {
        let nodes = positions.iter().map(|(_, pos)| nodes_to_depth(search, &mut searcher, pos, depth)).sum();
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| {
            b.iter(|| positions.iter().map(|(_, pos)| nodes_to_depth(search, &mut searcher, pos, depth)).sum::<u64>())
        });
    }
    group.finish();
}

criterion_group!(benches, time_to_depth);
criterion_main!(benches);
