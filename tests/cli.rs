//! Runs the `prunelab` binary's subcommands and checks their output.

use std::process::{Command, Output};

use prunelab::bench::BENCH_POSITIONS;

fn prunelab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_prunelab")).args(args).output().expect("run prunelab")
}

fn stdout_lines(output: &Output) -> Vec<String> {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output").lines().map(str::to_string).collect()
}

/// Whether `line` is `Bench: <digits> nodes <digits> nps`.
fn is_bench_line(line: &str) -> bool {
    let is_number = |word: &str| !word.is_empty() && word.bytes().all(|byte| byte.is_ascii_digit());
    matches!(
        line.split(' ').collect::<Vec<_>>().as_slice(),
        ["Bench:", nodes, "nodes", nps, "nps"] if is_number(nodes) && is_number(nps)
    )
}

/// Whether `text` is two squares, like `e2e4`.
fn is_square_pair(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 4
        && bytes.chunks(2).all(|square| (b'a'..=b'h').contains(&square[0]) && (b'1'..=b'8').contains(&square[1]))
}

/// Refused input: a message on stderr, a failure status, and no panic.
fn assert_refused(output: &Output) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "accepted; stdout: {}", String::from_utf8_lossy(&output.stdout));
    assert!(!stderr.trim().is_empty(), "no error message");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn bench_line_format_is_recognised() {
    assert!(is_bench_line("Bench: 123 nodes 45 nps"));
    for bad in ["Bench: 123 nodes 45 nps ", "Bench: x nodes 45 nps", "Bench:  nodes 45 nps", "bench: 1 nodes 2 nps"] {
        assert!(!is_bench_line(bad), "{bad}");
    }
}

/// The nodes a bench line reports (`nodes N` of a position's line, or the
/// total of the `Bench:` line).
fn nodes_of(line: &str) -> u64 {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|word| *word == "nodes").unwrap_or_else(|| panic!("no nodes in {line}"));
    let number = if words[0] == "Bench:" { words[at - 1] } else { words[at + 1] };
    number.parse().unwrap_or_else(|_| panic!("nodes in {line}"))
}

#[test]
fn bench_is_deterministic_apart_from_speed() {
    let runs: Vec<Vec<String>> = (0..2)
        .map(|_| {
            let output = prunelab(&["bench", "2"]);
            assert!(output.status.success());
            stdout_lines(&output)
        })
        .collect();
    for lines in &runs {
        assert_eq!(lines.len(), BENCH_POSITIONS.len() + 1);
        assert!(is_bench_line(lines.last().unwrap()), "{:?}", lines.last());
        for (line, fen) in lines.iter().zip(BENCH_POSITIONS) {
            assert!(line.ends_with(&format!("fen {fen}")), "{line}");
        }
    }
    assert_eq!(runs[0][..BENCH_POSITIONS.len()], runs[1][..BENCH_POSITIONS.len()]);
    for lines in &runs {
        let (positions, bench) = lines.split_at(BENCH_POSITIONS.len());
        assert_eq!(
            nodes_of(&bench[0]),
            positions.iter().map(|line| nodes_of(line)).sum::<u64>(),
            "the total is the sum"
        );
    }
}

/// The default build's stats, in the plans' formats: the search's counters,
/// then the baseline techniques' (the catalogue's print nothing here).
#[test]
fn bench_stats_come_before_the_bench_line() {
    let output = prunelab(&["bench", "1", "--stats"]);
    assert!(output.status.success());
    let lines = stdout_lines(&output);
    assert!(is_bench_line(lines.last().unwrap()));
    let stats = &lines[BENCH_POSITIONS.len()..lines.len() - 1];
    let keys: Vec<String> = stats
        .iter()
        .map(|line| {
            let (name, fields) = line.split_once(": ").unwrap_or_else(|| panic!("not a stats line: {line}"));
            let keys: Vec<&str> = fields.split(' ').map(|field| field.split('=').next().unwrap()).collect();
            format!("{name}: {}", keys.join(" "))
        })
        .collect();
    assert_eq!(
        keys,
        [
            "nodes: total qs qs% by_depth by_move",
            "tt: probes hits hit% cut illegal_moves",
            "cutoffs: total tt killer capture quiet tt%",
            "first: cut first% tt killer capture quiet",
            "pvs: zw re re%",
            "asp: att low high",
            "illegal: first total",
            "rfp: att cut cut%",
            "null: att cut cut%",
            "lmr: reduced re",
            "delta: pruned",
        ]
    );
    assert_eq!(
        stats[0],
        format!("nodes: total={} {}", nodes_of(lines.last().unwrap()), &stats[0][stats[0].find(" qs=").unwrap() + 1..])
    );
}

#[test]
fn bench_refuses_a_bad_depth() {
    assert_refused(&prunelab(&["bench", "0"]));
    assert_refused(&prunelab(&["bench", "1000"]));
    assert_refused(&prunelab(&["bench", "deep"]));
}

#[test]
fn perft_divides_the_start_position() {
    let output = prunelab(&["perft", "3"]);
    assert!(output.status.success());
    let lines = stdout_lines(&output);
    let divide: Vec<(&str, u64)> = lines
        .iter()
        .filter_map(|line| line.split_once(": "))
        .filter(|(mv, _)| is_square_pair(mv))
        .map(|(mv, count)| (mv, count.parse().unwrap()))
        .collect();
    assert_eq!(divide.len(), 20);
    assert_eq!(divide.iter().map(|(_, count)| count).sum::<u64>(), 8902);
    assert!(divide.contains(&("e2e4", 600)) && divide.contains(&("g1f3", 440)));
    assert!(lines.contains(&"Nodes searched: 8902".to_string()), "{lines:?}");
}

#[test]
fn perft_takes_a_fen_in_one_argument_or_several() {
    // Kiwipete: 48 moves, 2039 nodes at depth 2, castling among them.
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let quoted = prunelab(&["perft", "2", kiwipete]);
    let mut args = vec!["perft", "2"];
    args.extend(kiwipete.split(' '));
    let split = prunelab(&args);
    for output in [&quoted, &split] {
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let lines = stdout_lines(output);
        assert!(lines.contains(&"Nodes searched: 2039".to_string()), "{lines:?}");
        assert!(lines.contains(&"e1g1: 43".to_string()) && lines.contains(&"e1c1: 43".to_string()), "{lines:?}");
    }
}

#[test]
fn perft_refuses_bad_input() {
    assert_refused(&prunelab(&["perft", "2", "8/8/8/8/8/8/8/8 w - - 0 1"]));
    assert_refused(&prunelab(&["perft", "2", "not a fen"]));
    assert_refused(&prunelab(&["perft", "0"]));
    assert_refused(&prunelab(&["perft", "-1"]));
    assert_refused(&prunelab(&["perft"]));
}

// ci/test.sh runs these tests in the default build: no catalogue feature,
// the baseline variant (the lab checks feature builds' self-reports).

#[test]
fn features_names_the_variant_then_lists_the_compiled_features() {
    let output = prunelab(&["features"]);
    assert!(output.status.success());
    assert_eq!(stdout_lines(&output), ["variant: baseline", "none"]);
}

/// `prunelab features | head -n 1`: a reader that stops early is no error.
/// The pipe's reader is closed before the binary starts, so every write
/// meets a broken pipe.
#[cfg(target_os = "linux")]
#[test]
fn a_reader_that_closed_its_pipe_is_no_error() {
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::process::Stdio;

    let mut ends = [0; 2];
    assert_eq!(unsafe { libc::pipe(ends.as_mut_ptr()) }, 0);
    // SAFETY: pipe() just returned both descriptors, owned by nothing else.
    let (reader, writer) = unsafe { (OwnedFd::from_raw_fd(ends[0]), OwnedFd::from_raw_fd(ends[1])) };
    drop(reader);
    let output = Command::new(env!("CARGO_BIN_EXE_prunelab"))
        .arg("features")
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .expect("prunelab runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}

#[test]
fn features_json_is_one_object_of_version_variants_features_selectable_tunables_and_digest() {
    let output = prunelab(&["features", "--json"]);
    assert!(output.status.success());
    let lines = stdout_lines(&output);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let report: serde_json::Value = serde_json::from_str(&lines[0]).expect("valid JSON");
    let object = report.as_object().expect("a JSON object");
    let keys: Vec<&str> = object.keys().map(String::as_str).collect();
    assert_eq!(keys, ["features", "selectable", "tunables", "variants", "variants_digest", "version"]);
    assert_eq!(report["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(report["variants"], serde_json::json!(["baseline"]));
    assert_eq!(report["features"], serde_json::json!([]));
    // A build of one feature set has no variant to choose with `Variant`.
    assert_eq!(report["selectable"], serde_json::json!([]));
    // Built without `$PRUNELAB_TUNABLES`: no value but its techniques' own.
    assert_eq!(report["tunables"], serde_json::json!({}));
    // The digest of the variants/ folder it was built from, as a u64.
    assert_eq!(report["variants_digest"].as_u64(), Some(prunelab::variants::SOURCES_DIGEST));
    // The lab reads the fields in this order.
    assert!(lines[0].starts_with("{\"version\":") && lines[0].contains(",\"variants\":["), "{}", lines[0]);
}

#[test]
fn variant_features_resolves_parents_and_implications() {
    let output = prunelab(&["variant-features", "razor-r2"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let variants = prunelab::variants::load().unwrap();
    let razor_r2 = prunelab::variants::find(&variants, "razor-r2").unwrap();
    assert_eq!(stdout_lines(&output), [razor_r2.features.join(" ")]);
    assert!(razor_r2.features.contains(&"razor-r1") && razor_r2.features.contains(&"futility-2.4"));
    assert_refused(&prunelab(&["variant-features", "razor-r9"]));
}

#[test]
fn variant_tunables_prints_what_prunelab_tunables_takes() {
    let variants = prunelab::variants::load().unwrap();
    for name in ["baseline", "p002-1.5", "p002-1.6"] {
        let output = prunelab(&["variant-tunables", name]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let variant = prunelab::variants::find(&variants, name).unwrap();
        assert_eq!(stdout_lines(&output), [variant.tunables_variable()]);
    }
    // Plan 002's phase 1.6: the margin SPSA tuned, where its parent has none of its own.
    assert_eq!(stdout_lines(&prunelab(&["variant-tunables", "p002-1.6"])), ["ReverseFutilityDepthMargin=93"]);
    assert_eq!(stdout_lines(&prunelab(&["variant-tunables", "p002-1.5"])), [""]);
    assert_refused(&prunelab(&["variant-tunables", "razor-r9"]));
    assert_refused(&prunelab(&["variant-tunables"]));
}

#[test]
fn matrix_prints_the_snapshot_table_of_this_build() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/data/suites/node-suite.epd");
    let output = prunelab(&["matrix", "--suite", suite, "--depth", "3"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let lines = stdout_lines(&output);
    let compiled = prunelab::features::compiled();
    let header = prunelab::matrix::header(&prunelab::features::variant_label(), &compiled);
    assert_eq!(lines[0], header);
    assert_eq!(lines[1], "depth 3, Hash 16, 1 thread, from ucinewgame");
    assert!(lines.last().unwrap().starts_with("total "), "{lines:?}");
    let positions = prunelab::matrix::load_suite(std::path::Path::new(suite)).unwrap();
    assert_eq!(lines.len(), positions.len() + 4);
    assert_refused(&prunelab(&["matrix", "--suite", suite, "--variant", "no-such-variant"]));
    assert_refused(&prunelab(&["matrix", "--suite", "/nonexistent/suite.epd"]));
}

#[test]
fn unknown_subcommand_is_refused() {
    assert_refused(&prunelab(&["frobnicate"]));
}
