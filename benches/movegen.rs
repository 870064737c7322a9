//! Move generation speed: bulk-counted perft from the start position (depth 5)
//! and Kiwipete (depth 4), reported as nodes (leaf positions) per second.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use prunelab::perft::perft;
use prunelab::position::parse_fen;

/// (name, FEN, depth, expected leaf count), the counts published on the
/// chessprogramming perft page.
const CASES: [(&str, &str, u32, u64); 2] = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 4_865_609),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 4_085_603),
];

fn perft_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    // Each iteration takes tens of milliseconds; a few samples are enough.
    group.sample_size(10);
    for (name, fen, depth, nodes) in CASES {
        let board = parse_fen(fen).expect("benchmark FEN is valid").0;
        // A wrong count would make the speed meaningless.
        assert_eq!(perft(&board, depth), nodes, "{name} perft({depth})");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}_depth{depth}"), |b| b.iter(|| perft(black_box(&board), black_box(depth))));
    }
    group.finish();
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
