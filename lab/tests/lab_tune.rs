//! `lab tune` end to end on a real tuning build (the `labtest` profile):
//! the iterations in the run folder, each one's update as OpenBench's
//! formula gives it from the recorded games, the path chart, the tuned
//! values, `--resume` (of a finished run, and of an iteration played but not
//! recorded), and a tunable the variant does not have.

use crate::common;

use common::{lab, records, run_folder, scratch, stdout};

const TUNE: [&str; 10] = [
    "tune",
    "p002-1.5",
    "--param",
    "REVERSE_FUTILITY_DEPTH_MARGIN",
    "--iterations",
    "2",
    "--pairs-per",
    "1",
    "--nodes",
    "500",
];

#[test]
fn a_short_tune_records_each_iteration_and_its_update() {
    let dir = scratch("tune");
    let results = dir.join("results");
    stdout(&lab(&TUNE, &results));
    let run = run_folder(&results, "tune");
    let iterations = records(&run);
    assert_eq!(iterations.len(), 2);
    // OpenBench's gains for 2 iterations: c = 10 · 2^0.101, a = 0.002 · 10² · (0.2 + 2)^0.602.
    let (c_value, a_value) = (10.0 * 2f64.powf(0.101), 0.2 * 2.2f64.powf(0.602));
    let mut theta = 90.0;
    for (k, record) in (1..).zip(&iterations) {
        assert_eq!(record["iteration"], k);
        let step = &record["perturbation"][0];
        let c = c_value / (k as f64).powf(0.101);
        let r = a_value / (0.2 + k as f64).powf(0.602) / (c * c);
        assert!((step["c"].as_f64().unwrap() - c).abs() < 1e-9, "c_{k}");
        assert!((step["r"].as_f64().unwrap() - r).abs() < 1e-9, "R_{k}");
        let flip = step["flip"].as_f64().unwrap();
        let (dev, base) = (step["dev"].as_f64().unwrap(), step["base"].as_f64().unwrap());
        // Rounded with one uniform number: 2c apart, give or take the floor.
        assert!(((dev - base) * flip - 2.0 * c).abs() < 1.0, "dev {dev}, base {base}, c {c}");
        let wdl = &record["wdl"];
        let games = ["wins", "draws", "losses"].map(|key| wdl[key].as_i64().unwrap());
        assert_eq!(games.iter().sum::<i64>(), 2, "one pair");
        assert_eq!(record["result"], games[0] - games[2]);
        theta = (theta + r * c * (games[0] - games[2]) as f64 * flip).clamp(50.0, 200.0);
        assert!((record["values"][0].as_f64().unwrap() - theta).abs() < 1e-9, "θ after iteration {k}");
        let games_played = records(&run.join(record["match_run"].as_str().unwrap()));
        assert_eq!(games_played.len(), 2, "the iteration's match keeps its games");
    }
    let tuned = theta.round_ties_even();
    assert_eq!(
        std::fs::read_to_string(run.join("tuned.txt")).unwrap(),
        format!("ReverseFutilityDepthMargin, {tuned}\n")
    );
    let chart = std::fs::read_to_string(run.join("path-ReverseFutilityDepthMargin.svg")).unwrap();
    assert!(chart.starts_with("<svg") && chart.contains("ReverseFutilityDepthMargin"), "{chart}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("summary.json")).unwrap()).unwrap();
    assert_eq!((summary["iterations"].as_u64(), summary["games"].as_u64()), (Some(2), Some(4)));
    let verify = summary["verify"].as_str().unwrap();
    assert!(verify.contains(&format!("@ReverseFutilityDepthMargin={tuned} ")), "{verify}");
    assert!(verify.ends_with("@ReverseFutilityDepthMargin=90 --tc N=500 --sprt 0 5 --games 2000"), "{verify}");

    // A finished run resumed plays nothing more.
    let mut resumed = TUNE.to_vec();
    resumed.push("--resume");
    stdout(&lab(&resumed, &results));
    assert_eq!(records(&run).len(), 2);

    // An iteration whose games were played but not yet recorded (a crash
    // between the two) is recorded again from its own match, as it was.
    let lines = std::fs::read_to_string(run.join("records.jsonl")).unwrap();
    let first_line_end = lines.find('\n').unwrap() + 1;
    std::fs::write(run.join("records.jsonl"), &lines[..first_line_end]).unwrap();
    stdout(&lab(&resumed, &results));
    assert_eq!(std::fs::read_to_string(run.join("records.jsonl")).unwrap(), lines);

    // A tunable the variant lacks is named, with the ones it has.
    let mut unknown = TUNE.to_vec();
    unknown[3] = "NullMoveStaticMargin";
    let output = lab(&unknown, &results);
    let error = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1));
    assert!(error.contains("the variant has no tunable `NullMoveStaticMargin`; it has: "), "{error}");
    assert!(error.contains("ReverseFutilityDepthMargin"), "{error}");
    std::fs::remove_dir_all(&dir).unwrap();
}
