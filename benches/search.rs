//! Search speed: time to a fixed depth from `ucinewgame` on the seeds
//! positions, for whatever pruning features this build compiles in. Node
//! counts live in snapshots and tests; this bench carries the time figures.

mod common;

use std::sync::atomic::AtomicBool;

use common::seed_positions;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use prunelab::position::Position;
use prunelab::search::{SearchLimits, Searcher};

const DEPTH: i32 = 9;

fn nodes_to_depth(searcher: &mut Searcher, pos: &Position) -> u64 {
    searcher.new_game();
    let limits = SearchLimits { depth: Some(DEPTH), ..Default::default() };
    searcher.search(pos, &limits, &AtomicBool::new(false), &mut |_| {}).nodes
}

fn time_to_depth(c: &mut Criterion) {
    let mut group = c.benchmark_group(format!("time_to_depth_{DEPTH}"));
    group.sample_size(10);
    let mut searcher = Searcher::new(16);
    for (id, pos) in seed_positions() {
        // Throughput in nodes turns criterion's time into nodes per second.
        group.throughput(Throughput::Elements(nodes_to_depth(&mut searcher, &pos)));
        group.bench_with_input(BenchmarkId::from_parameter(&id), &pos, |b, pos| {
            b.iter(|| nodes_to_depth(&mut searcher, pos))
        });
    }
    group.finish();
}

criterion_group!(benches, time_to_depth);
criterion_main!(benches);
