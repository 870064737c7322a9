//! The telemetry lines of a razor-r3 build and of `full`, pinned key by key:
//! the plans' keys first and in the plans' order (plan 000's `razor:`, plan
//! 003's `fut_b`, `mcp_b`, `asp:`, `null:`, `prune:`, `illegal:`), each value
//! of the shape the plans print, and the values that the plans define from
//! others equal to them: every rate is its count over its attempts, every
//! cutoff's depth buckets add up to its cutoffs, and `prune:` repeats each
//! technique's cutoffs. The searches are the variants' own, from
//! the same generated technique sets as the variant matrix (a module of its
//! test binary): only these two are compiled into it.

use prunelab::matrix::{search_as, SearchFn};
use prunelab::position::Position;
use prunelab::search::{SearchLimits, Searcher};
use prunelab::stats::SearchStats;

// The generated technique-set types that `variant_set!` names.
use super::*;

/// What a value looks like.
#[derive(Clone, Copy, Debug)]
enum Shape {
    /// A whole number.
    Count,
    /// `12.3%`.
    Percent,
    /// `[a,b,...]` with this many whole numbers.
    Buckets(usize),
}

fn matches(value: &str, shape: Shape) -> bool {
    let is_count = |text: &str| !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit());
    match shape {
        Shape::Count => is_count(value),
        Shape::Percent => value
            .strip_suffix('%')
            .and_then(|number| number.split_once('.'))
            .is_some_and(|(whole, tenth)| is_count(whole) && tenth.len() == 1 && is_count(tenth)),
        Shape::Buckets(count) => value
            .strip_prefix('[')
            .and_then(|rest| rest.strip_suffix(']'))
            .is_some_and(|inner| inner.split(',').all(is_count) && inner.split(',').count() == count),
    }
}

/// The value of `key` on the line of `subject`.
fn value<'a>(lines: &'a [String], subject: &str, key: &str) -> &'a str {
    let prefix = format!("{subject}: ");
    let line = lines.iter().find(|line| line.starts_with(&prefix)).unwrap_or_else(|| panic!("no `{subject}:` line"));
    let field = line[prefix.len()..].split(' ').find(|field| field.split('=').next() == Some(key));
    field.unwrap_or_else(|| panic!("no `{key}` in `{line}`")).split_once('=').unwrap().1
}

fn count(lines: &[String], subject: &str, key: &str) -> u64 {
    value(lines, subject, key).parse().unwrap_or_else(|_| panic!("`{subject}: {key}` is not a count"))
}

fn bucket_sum(lines: &[String], subject: &str, key: &str) -> u64 {
    let text = value(lines, subject, key);
    text[1..text.len() - 1].split(',').map(|item| item.parse::<u64>().unwrap()).sum()
}

/// `part` over `whole` as the plans print a rate: one decimal, 0.0 of none.
fn rate(part: u64, whole: u64) -> String {
    let percent = if whole == 0 { 0.0 } else { part as f64 * 100.0 / whole as f64 };
    format!("{percent:.1}%")
}

/// The values the plans define from other values.
fn assert_relations(lines: &[String], subjects: &[&str]) {
    for subject in subjects {
        let (attempts, cutoffs) = (count(lines, subject, "att"), count(lines, subject, "cut"));
        assert!(cutoffs <= attempts, "{subject}: more cutoffs than attempts");
        assert_eq!(value(lines, subject, "cut%"), rate(cutoffs, attempts), "{subject}: cut%");
    }
    assert_eq!(value(lines, "pvs", "re%"), rate(count(lines, "pvs", "re"), count(lines, "pvs", "zw")), "pvs: re%");
    for (subject, buckets) in [("fut", "fut_b"), ("fut", "fut_eff_b"), ("mcp", "mcp_b"), ("razor", "razor_b")] {
        assert_eq!(
            bucket_sum(lines, subject, buckets),
            count(lines, subject, "cut"),
            "{subject}: {buckets} adds up to cut"
        );
    }
    for (key, subject) in [("fut", "fut"), ("mcp", "mcp"), ("razor", "razor")] {
        assert_eq!(count(lines, "prune", key), count(lines, subject, "cut"), "prune: {key}= is {subject}'s cut");
    }
}

/// Checks that the line of `subject` has exactly these keys, in this order,
/// with values of these shapes.
fn assert_line(lines: &[String], subject: &str, keys: &[(&str, Shape)]) {
    let prefix = format!("{subject}: ");
    let line = lines
        .iter()
        .find(|line| line.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no `{subject}:` line in {lines:#?}"));
    let fields: Vec<(&str, &str)> = line[prefix.len()..]
        .split(' ')
        .map(|field| field.split_once('=').unwrap_or_else(|| panic!("`{field}` is not key=value in `{line}`")))
        .collect();
    let found: Vec<&str> = fields.iter().map(|(key, _)| *key).collect();
    let wanted: Vec<&str> = keys.iter().map(|(key, _)| *key).collect();
    assert_eq!(found, wanted, "keys of `{line}`");
    for ((key, value), (_, shape)) in fields.iter().zip(keys) {
        assert!(matches(value, *shape), "`{key}={value}` in `{line}` is not {shape:?}");
    }
}

/// `variant`'s telemetry lines, searched with `search`, its set's search.
fn telemetry_of(variant: &str, search: SearchFn) -> Vec<String> {
    let variants = prunelab::variants::load().unwrap();
    let techniques = prunelab::variants::find(&variants, variant).unwrap().techniques;
    let mut total = SearchStats::default();
    // A middlegame, an endgame and a tactical position, as the plans measure.
    for fen in [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1",
        "8/5p2/2R2Pk1/5r1p/5P1P/5KP1/8/8 b - - 26 82",
        "r1b1k2r/pp4pp/3Bpp2/3p4/6q1/8/PQ3PPP/1R2R1K1 w kq - 2 17",
    ] {
        let mut searcher = Searcher::new(16);
        searcher.new_game();
        let limits = SearchLimits { depth: Some(9), ..Default::default() };
        total.add(&search(&mut searcher, &Position::from_fen(fen).unwrap(), &limits).stats);
    }
    total.report_lines_for(&techniques)
}

use Shape::{Buckets, Count, Percent};

const RATE: [(&str, Shape); 3] = [("att", Count), ("cut", Count), ("cut%", Percent)];

fn with_rate(more: &[(&'static str, Shape)]) -> Vec<(&'static str, Shape)> {
    RATE.iter().chain(more).copied().collect()
}

/// `fut_extra`: the keys a variant's futility features add to the line.
fn assert_common_lines(lines: &[String], fut_extra: &[(&'static str, Shape)], mcp_extra: &[(&'static str, Shape)]) {
    assert_line(lines, "asp", &[("att", Count), ("low", Count), ("high", Count)]);
    assert_line(lines, "illegal", &[("first", Count), ("total", Count)]);
    assert_line(lines, "null", &with_rate(&[("verify", Count), ("verify_fail", Count)]));
    assert_line(lines, "rfp", &RATE);
    assert_line(
        lines,
        "fut",
        &with_rate(
            &[
                &[("fut_b", Buckets(4)), ("fut_eff_b", Buckets(4)), ("guarded", Count), ("capture_limited", Count)],
                fut_extra,
            ]
            .concat(),
        ),
    );
    assert_line(
        lines,
        "mcp",
        &with_rate(
            &[&[("mcp_b", Buckets(4)), ("hist_above", Count), ("hist_kept", Count), ("cm_kept", Count)], mcp_extra]
                .concat(),
        ),
    );
    assert_line(lines, "prune", &[("fut", Count), ("mcp", Count), ("razor", Count)]);
    assert_line(lines, "pvs", &[("zw", Count), ("re", Count), ("re%", Percent)]);
}

#[test]
fn a_razor_r3_build_prints_every_line_in_the_plans_formats() {
    let lines = telemetry_of("razor-r3", search_as::<variant_set!("razor-r3")>);
    assert_common_lines(&lines, &[], &[]);
    assert_line(
        &lines,
        "razor",
        &with_rate(&[
            ("razor_b", Buckets(2)),
            ("tactical", Count),
            ("tactical%", Percent),
            ("guard_kept", Count),
            ("phase", Count),
            ("probes", Count),
            ("confirm%", Percent),
        ]),
    );
    assert_relations(&lines, &["razor", "fut", "mcp", "rfp", "null"]);
    let tactical = count(&lines, "razor", "tactical");
    assert_eq!(value(&lines, "razor", "tactical%"), rate(tactical, count(&lines, "razor", "att")), "tactical%");
}

#[test]
fn full_prints_every_line_in_the_plans_formats() {
    let lines = telemetry_of("full", search_as::<variant_set!("full")>);
    // `full` has futility-victim-100, both skip-quiets features and razor-r1
    // (plan 000's R1, without R2's tactical guard or R3's phase margin).
    assert_common_lines(
        &lines,
        &[
            ("victim_att", Count),
            ("victim_cut", Count),
            ("phase_cut_d", Buckets(10)),
            ("victim_cut_d", Buckets(10)),
            ("skipped", Count),
        ],
        &[("skipped", Count)],
    );
    assert_line(&lines, "staged", &RATE);
    assert_line(&lines, "razor", &with_rate(&[("razor_b", Buckets(2)), ("probes", Count), ("confirm%", Percent)]));
    assert_relations(&lines, &["razor", "fut", "mcp", "rfp", "null", "staged"]);
}

#[test]
fn the_shapes_refuse_what_they_should() {
    assert!(matches("12.5%", Percent) && !matches("12%", Percent) && !matches("12.50%", Percent));
    assert!(matches("[1,2,3,4]", Buckets(4)) && !matches("[1,2,3]", Buckets(4)) && !matches("1,2,3,4", Buckets(4)));
    assert!(!matches("[1,2,x,3,4]", Buckets(4)) && !matches("[1,2,,3]", Buckets(4)) && !matches("[]", Buckets(0)));
    assert_eq!((rate(1, 3), rate(0, 0), rate(2, 2)), ("33.3%".to_string(), "0.0%".to_string(), "100.0%".to_string()));
    assert!(matches("0", Count) && !matches("-1", Count) && !matches("", Count));
}
