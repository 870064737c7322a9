//! The page's plots carry the report's numbers, and a browser opens it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use games::results::RunDir;

use super::PAGE;
use crate::lab::Lab;
use crate::measure::nodes::{BUILDS, COMMIT};
use crate::measure::ratio::RatioEstimate;
use crate::measure::telemetry::Telemetry;
use crate::plots::read_marks;
use crate::tune::spsa_update::{Parameter, Perturbation, Schedule};
use crate::tune::IterationRecord;
use crate::verdicts::atlas::entries;
use crate::verdicts::chain::PhaseRecord;
use crate::verdicts::claims::NodeChange;
use crate::verdicts::report::{command, tests::record, ReportArgs};
use crate::verdicts::verdict::Comparison;

/// A node change of `percent` with its interval, over ten positions.
fn change(percent: f64, (low, high): (f64, f64)) -> RatioEstimate {
    let ratio = |percent: f64| 1.0 + percent / 100.0;
    RatioEstimate { ratio: ratio(percent), interval: Some((ratio(low), ratio(high))), positions: 10 }
}

fn comparison((reference, subject): (&str, &str), nodes: RatioEstimate) -> Comparison {
    Comparison {
        reference: reference.into(),
        subject: subject.into(),
        node_setting: "seeds at depth 10".into(),
        counted_on: None,
        claimed_on: None,
        nodes: Some(nodes),
        total_nodes: (1000, 900),
        positions: 10,
        failures: 0,
        time_to_depth: None,
        identical_search: false,
        solved: Vec::new(),
        unsolved: Vec::new(),
        telemetry: Telemetry::default(),
    }
}

fn phase((parent, phase): (&str, &str), nodes: RatioEstimate, ours: Option<Comparison>) -> PhaseRecord {
    PhaseRecord {
        phase: phase.into(),
        parent: parent.into(),
        beside: false,
        adds: Vec::new(),
        comparison: comparison((parent, phase), nodes),
        ttd_run: PathBuf::new(),
        sprt: None,
        ours,
    }
}

/// The runs the page is drawn from, besides the repository's atlas.
struct Fixture {
    lab: Lab,
    results: PathBuf,
    chain: Vec<PhaseRecord>,
    beside: Vec<PhaseRecord>,
    tune_start: f64,
    tune: Vec<IterationRecord>,
}

/// A results folder with a `lab nodes` run that measures p002-2.1's node
/// claim, a SeaJay chain counted beside prunelab's, a later prunelab chain
/// and a tuning run; then `lab report` on it.
fn fixture(name: &str) -> Fixture {
    let results = std::env::temp_dir().join(format!("prunelab-report-page-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&results);
    let lab = Lab::for_tests().nested(&results);

    // Every position of the verdict suite at depth 10, so the claim is
    // measured where it is claimed: p002-2.1 searches 88% to 96% of its
    // parent's nodes.
    let suite = crate::measure::suites::load(&lab, crate::variants::grammar::VERDICT_SUITE).unwrap();
    let args = serde_json::json!({"suite": "verdict", "depth": 10, "hash": 16});
    let mut nodes = RunDir::create(&results, "nodes", &args).unwrap();
    for (index, position) in suite.positions.iter().enumerate() {
        let parent_nodes = 10_000 + 100 * index as u64;
        let own_nodes = parent_nodes * (88 + 2 * (index as u64 % 5)) / 100;
        for (variant, count) in [("p002-1.5", parent_nodes), ("p002-2.1", own_nodes)] {
            let mut searched = record(variant, &position.id, count, &[1, 1, 1, 1]);
            (searched.fen, searched.position) = (position.fen.clone(), index);
            nodes.append(&searched).unwrap();
        }
    }
    let builds = serde_json::json!({"p002-1.5": "features a", "p002-2.1": "features b"});
    nodes.write_summary("", &serde_json::json!({ COMMIT: "c", BUILDS: builds })).unwrap();

    let beside = vec![
        phase(
            ("seajay-p002-1.5", "seajay-p002-2.1"),
            change(-41.6, (-54.2, -26.9)),
            Some(comparison(("p002-1.5", "p002-2.1"), change(-25.7, (-29.5, -21.4)))),
        ),
        phase(
            ("seajay-p002-2.1", "seajay-p002-2.2"),
            change(3.0, (-0.3, 9.2)),
            Some(comparison(("p002-2.1", "p002-2.2"), change(2.4, (-0.1, 7.1)))),
        ),
    ];
    let chain = vec![
        phase(("p002-1.5", "p002-2.1"), change(-25.7, (-29.5, -21.4)), None),
        phase(("p002-2.1", "p002-2.2"), change(2.4, (-0.1, 7.1)), None),
        phase(("p002-2.2", "p002-2.3"), change(-0.4, (-1.0, -0.1)), None),
    ];
    for (names, records) in [(["seajay-p002-1.5", "seajay-p002-2.2"], &beside), (["p002-1.5", "p002-2.3"], &chain)] {
        let mut run = RunDir::create(&results, "chain", &serde_json::json!({ "chain": names })).unwrap();
        records.iter().for_each(|record| run.append(record).unwrap());
    }

    let parameter = Parameter {
        name: "RazorMargin".into(),
        is_float: false,
        start: 300.0,
        min: 100.0,
        max: 500.0,
        c_end: 20.0,
        r_end: 0.002,
    };
    let schedule = Schedule { iterations: 10, alpha: 0.602, gamma: 0.101, a_ratio: 0.1 };
    let tune_args = serde_json::json!({"variant": "p003-3", "parameters": [parameter], "schedule": schedule});
    let mut tuning = RunDir::create(&results, "tune", &tune_args).unwrap();
    let tune: Vec<IterationRecord> = [304.5, 301.25, 309.0]
        .iter()
        .enumerate()
        .map(|(index, &value)| IterationRecord {
            iteration: index as u64 + 1,
            perturbation: vec![Perturbation { flip: 1.0, c: 20.0, r: 0.002, dev: value + 20.0, base: value - 20.0 }],
            wdl: Default::default(),
            penta: Default::default(),
            result: 1,
            values: vec![value],
            match_run: PathBuf::new(),
        })
        .collect();
    tune.iter().for_each(|record| tuning.append(record).unwrap());

    command(&lab, &ReportArgs { measure: false, concurrency: 1, figures: None }).unwrap();
    Fixture { lab, results, chain, beside, tune_start: parameter.start, tune }
}

/// The page's figures: each one's heading and marks.
fn figures(page: &str) -> Vec<(String, Vec<BTreeMap<String, String>>)> {
    page.split("<section class=\"figure\">")
        .skip(1)
        .map(|section| {
            let title = section.split("<h2>").nth(1).unwrap().split("</h2>").next().unwrap().to_string();
            (title, read_marks(section))
        })
        .collect()
}

fn number(mark: &BTreeMap<String, String>, name: &str) -> f64 {
    mark[name].parse().unwrap_or_else(|_| panic!("{name} of {mark:?}"))
}

fn figure<'a>(figures: &'a [(String, Vec<BTreeMap<String, String>>)], title: &str) -> &'a [BTreeMap<String, String>] {
    &figures.iter().find(|(heading, _)| heading == title).unwrap_or_else(|| panic!("no figure {title}")).1
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn the_pages_plots_carry_the_reports_numbers() {
    let fixture = fixture("numbers");
    let page = std::fs::read_to_string(fixture.results.join(PAGE)).unwrap();
    let report = std::fs::read_to_string(fixture.results.join("report.md")).unwrap();
    let figures = figures(&page);
    let titles: Vec<&str> = figures.iter().map(|(title, _)| title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "The claims",
            "The atlas",
            "Calibration: node change",
            "Calibration: time-to-depth ratio",
            "Calibration: WAC change",
            "Chain p002-1.5 p002-2.3",
            "seajay beside prunelab",
            "SPSA: RazorMargin of p003-3"
        ]
    );

    // Each claim's point is its row of the claims table: the change and
    // interval it prints, and its verdict.
    let claims = figure(&figures, "The claims");
    assert!(claims.iter().any(|mark| mark["label"] == "p002-2.1"), "{claims:?}");
    for mark in claims {
        let measured = NodeChange {
            percent: number(mark, "value"),
            interval: Some((number(mark, "low"), number(mark, "high"))),
            positions: 0,
        };
        let row = format!("| {} |", mark["label"]);
        assert!(
            report.lines().any(|line| line.starts_with(&row)
                && line.contains(&format!("| {} |", mark["claim"]))
                && line.contains(&measured.to_string())
                && line.ends_with(&format!("| {} |", mark["verdict"]))),
            "no row of the claims table for {mark:?} in:\n{report}"
        );
    }

    // The atlas: each variant's latest entry with games, in the table's order.
    let atlas = entries::read(&fixture.lab.root.join(entries::ATLAS_FILE));
    let plotted: Vec<(String, [f64; 3])> = figure(&figures, "The atlas")
        .iter()
        .map(|mark| (mark["label"].clone(), [number(mark, "value"), number(mark, "low"), number(mark, "high")]))
        .collect();
    let tabled: Vec<(String, [f64; 3])> = entries::latest_per_variant(&atlas)
        .into_iter()
        .filter(|entry| entry.games > 0)
        .filter_map(|entry| Some((entry.variant.clone(), entry.elo.map(|elo| [elo.value, elo.low, elo.high])?)))
        .collect();
    assert_eq!(plotted, tabled);

    // The calibration: each point is a row of the calibration table, its
    // measure and Elo as printed there.
    let calibration = &report[report.find("## Calibration").unwrap()..];
    for (title, unit) in [("Calibration: node change", "%"), ("Calibration: WAC change", "")] {
        let marks = figure(&figures, title);
        assert!(!marks.is_empty(), "{title}");
        for mark in marks {
            let (measure, elo) = (number(mark, "measure"), number(mark, "value"));
            let measure_cell =
                if unit == "%" { format!("| {measure:+.1}% |") } else { format!("| {:+} |", measure as i64) };
            let row = calibration
                .lines()
                .find(|line| line.starts_with(&format!("| {} | {} |", mark["label"], mark["parent"])))
                .unwrap_or_else(|| panic!("no calibration row of {mark:?}"));
            assert!(row.contains(&measure_cell) && row.contains(&format!("| {elo:+.1} |")), "{row} against {mark:?}");
            assert!(row.ends_with(&format!("| {} |", mark["decision"])), "{row} against {mark:?}");
        }
    }

    // The chain: each phase's change, stepped from the level before it.
    let waterfall = figure(&figures, "Chain p002-1.5 p002-2.3");
    let mut level = 100.0;
    assert_eq!(waterfall.len(), fixture.chain.len());
    for (mark, record) in waterfall.iter().zip(&fixture.chain) {
        let ratio = record.comparison.nodes.unwrap();
        let (low, high) = ratio.interval.unwrap();
        assert_eq!(mark["label"], record.phase);
        assert!(close(number(mark, "change"), ratio.percent()) && close(number(mark, "from"), level), "{mark:?}");
        assert!(close(number(mark, "low"), level * low) && close(number(mark, "high"), level * high), "{mark:?}");
        level *= ratio.ratio;
        assert!(close(number(mark, "value"), level), "{mark:?}");
    }

    // SeaJay beside prunelab: both changes of each phase, paired.
    let beside: Vec<(String, String, f64)> = figure(&figures, "seajay beside prunelab")
        .iter()
        .map(|mark| (mark["label"].clone(), mark["side"].clone(), number(mark, "value")))
        .collect();
    let expected: Vec<(String, String, f64)> = fixture
        .beside
        .iter()
        .flat_map(|record| {
            let ours = record.ours.as_ref().unwrap().nodes.unwrap().percent();
            [
                (record.phase.clone(), "seajay".to_string(), record.comparison.nodes.unwrap().percent()),
                (record.phase.clone(), "prunelab".to_string(), ours),
            ]
        })
        .collect();
    assert_eq!(beside, expected);

    // The tuning run: θ from the start through each iteration.
    let path: Vec<f64> =
        figure(&figures, "SPSA: RazorMargin of p003-3").iter().map(|mark| number(mark, "value")).collect();
    let values: Vec<f64> =
        std::iter::once(fixture.tune_start).chain(fixture.tune.iter().map(|record| record.values[0])).collect();
    assert_eq!(path, values);
    std::fs::remove_dir_all(&fixture.results).unwrap();
}

/// `program` if it is on PATH.
fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(program)).find(|candidate| candidate.is_file())
}

/// Chromium run headless on `page` with `arguments`: its stdout and stderr.
fn chromium(browser: &Path, page: &Path, arguments: &[&str]) -> (String, String) {
    let output = std::process::Command::new(browser)
        .args(["--headless", "--disable-gpu", "--no-sandbox", "--enable-logging=stderr", "--v=0"])
        .args(arguments)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    (String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr).into_owned())
}

/// Opens the page in headless Chromium: no console message (a failed load
/// would be one: the page must need no network), every plot's SVG in the
/// browser's DOM with all its marks, and a screenshot of some size.
#[test]
fn the_page_opens_in_a_browser_with_every_plot_and_no_console_message() {
    let Some(browser) = on_path("chromium") else {
        println!("skipped: no `chromium` on PATH to open the report's page in");
        return;
    };
    let fixture = fixture("browser");
    let page_path = fixture.results.join(PAGE);
    let page = std::fs::read_to_string(&page_path).unwrap();
    assert!(!page.contains(" src=") && !page.contains(" href="), "the page loads nothing");
    let written = figures(&page);

    let (dom, log) = chromium(&browser, &page_path, &["--dump-dom"]);
    let console: Vec<&str> = log.lines().filter(|line| line.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "console messages: {console:?}");
    let shown = figures(&dom);
    assert_eq!(shown.len(), written.len(), "{dom}");
    assert_eq!(dom.matches("<svg").count(), written.len());
    for ((title, marks), (shown_title, shown_marks)) in written.iter().zip(&shown) {
        assert_eq!((title, marks.len()), (shown_title, shown_marks.len()));
        assert!(!marks.is_empty(), "{title} has no data point");
    }

    let screenshot = fixture.results.join("report/page.png");
    let shot = format!("--screenshot={}", screenshot.display());
    chromium(&browser, &page_path, &[&shot, "--window-size=1200,3000"]);
    let png = std::fs::read(&screenshot).expect("chromium wrote a screenshot");
    assert!(png.starts_with(b"\x89PNG") && png.len() > 50_000, "{} bytes", png.len());
    println!(
        "browser: {} plots ({}), {} marks, screenshot {} bytes",
        shown.len(),
        shown.iter().map(|(title, _)| title.as_str()).collect::<Vec<_>>().join("; "),
        shown.iter().map(|(_, marks)| marks.len()).sum::<usize>(),
        png.len()
    );
    std::fs::remove_dir_all(&fixture.results).unwrap();
}
