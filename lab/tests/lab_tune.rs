//! `lab tune` end to end on a real tuning build (the `labtest` profile):
//! the iterations in the run folder, each one's update as OpenBench's
//! formula gives it from the recorded games, the path chart, the tuned
//! values, the variant file written from them, `--resume` (of a finished
//! run, and of an iteration played but not recorded), and a tunable the
//! variant does not have; and another engine's spin options, tuned over
//! UCI, with the engines and options that cannot be tuned refused.

use crate::common;

use common::{executable, lab, records, run_folder, scratch, stdout, variants_build};

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
    let variant_file = dir.join("p002-1.5-tuned.toml");
    let mut first = TUNE.to_vec();
    first.extend(["--write-variant", variant_file.to_str().unwrap()]);
    stdout(&lab(&first, &results));
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
    let run_name = run.file_name().unwrap().to_str().unwrap();
    assert_eq!(
        std::fs::read_to_string(&variant_file).unwrap(),
        format!(
            "name = \"p002-1.5-tuned\"\n\
             description = \"p002-1.5 with ReverseFutilityDepthMargin as SPSA tuned it.\"\n\
             extends = \"p002-1.5\"\n\
             source = \"lab tune: 2 iterations, 4 games ({})\"\n\n\
             [tunables]\n\
             ReverseFutilityDepthMargin = {tuned}\n",
            results.join(run_name).display()
        )
    );
    // A file already there is not replaced.
    let again = lab(&first, &dir.join("results-again"));
    assert_eq!(again.status.code(), Some(1));
    let error = String::from_utf8_lossy(&again.stderr);
    assert!(error.contains("the lab does not replace a variant file"), "{error}");
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

/// `lab tune uci:...` tunes an engine's own spin option: prunelab's
/// variants build as a UCI engine, searching as p002-1.5 (the spec's own
/// option, set on both sides), its `Move Overhead` (`spin default 10 min 0
/// max 5000`) by `setoption`: the start, range and `c_end` (a twentieth of
/// the range) come from the option line.
#[test]
fn another_engines_spin_option_is_tuned_by_setoption() {
    let dir = scratch("tune-uci");
    let results = dir.join("results");
    let engine = format!("uci:{}@Variant=p002-1.5", variants_build().display());
    let args = ["tune", &engine, "--param", "Move Overhead", "--iterations", "1", "--pairs-per", "1", "--nodes", "500"];
    stdout(&lab(&args, &results));
    let run = run_folder(&results, "tune");
    let settings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("run.json")).unwrap()).unwrap();
    assert_eq!(settings["args"]["options"], serde_json::json!([{ "name": "Variant", "value": "p002-1.5" }]));
    assert_eq!(
        settings["args"]["parameters"],
        serde_json::json!([{ "name": "Move Overhead", "is_float": false, "start": 10.0, "min": 0.0, "max": 5000.0,
                             "c_end": 250.0, "r_end": 0.002 }])
    );
    let iterations = records(&run);
    assert_eq!(iterations.len(), 1);
    // One iteration: c_1 = c_end, as OpenBench's schedule gives.
    assert!((iterations[0]["perturbation"][0]["c"].as_f64().unwrap() - 250.0).abs() < 1e-9);
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("summary.json")).unwrap()).unwrap();
    let verify = summary["verify"].as_str().unwrap();
    assert!(verify.ends_with("@Variant=p002-1.5,Move%20Overhead=10 --tc N=500 --sprt 0 5 --games 2000"), "{verify}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Stand-in engines that cannot be tuned at fixed nodes, or not at all,
/// are refused before any game, each with what to do instead.
#[test]
fn engines_and_options_that_cannot_be_tuned_are_refused_by_name() {
    let dir = scratch("tune-refused");
    let engine = |name: &str, on_go: &str| {
        let path = dir.join(name);
        executable(
            &path,
            &format!(
                "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    \
                 uci) echo 'id name Stand-in'; echo 'option name Margin type spin default 100 min 50 max 300'; \
                 echo 'option name Use Razoring type check default true'; echo uciok;;\n    \
                 isready) echo readyok;;\n    go*) {on_go};;\n    quit) exit 0;;\n  esac\ndone\n"
            ),
        );
        format!("uci:{}", path.display())
    };
    let tune = |engine: &str, param: &str| {
        let output =
            lab(&["tune", engine, "--param", param, "--iterations", "1", "--nodes", "500"], &dir.join("results"));
        assert_eq!(output.status.code(), Some(1), "{engine} --param {param}");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    // Searches a billion nodes whatever it is told.
    let ignores = engine("ignores.sh", "echo 'info depth 30 nodes 1000000000 pv e2e4'; echo 'bestmove e2e4'");
    let error = tune(&ignores, "Margin");
    assert!(
        error.contains(&format!(
            "`{ignores}` ignores `go nodes 500`: it searched 1000000000 nodes; give a time control instead, e.g. --tc 10+0.1"
        )),
        "{error}"
    );
    // Never answers `go`.
    let endless = engine("endless.sh", "sleep 30");
    let error = tune(&endless, "Margin");
    assert!(
        error.contains(&format!(
            "`{endless}` ignores `go nodes 500`: it did not stop within 2.0 s; give a time control instead, e.g. --tc 10+0.1"
        )),
        "{error}"
    );
    let error = tune(&ignores, "Use Razoring");
    assert!(
        error.contains("--param Use Razoring: Stand-in's option `Use Razoring` is not a spin (an integer option), so SPSA cannot tune it"),
        "{error}"
    );
    let error = tune(&ignores, "Margn");
    assert!(error.contains("--param Margn: Stand-in offers no option `Margn`; its spin options: Margin"), "{error}");
    // Another engine gets no prunelab variant file.
    let output = lab(
        &["tune", &ignores, "--param", "Margin", "--tc", "1+0.01", "--write-variant", "variants/x.toml"],
        &dir.join("results"),
    );
    assert!(String::from_utf8_lossy(&output.stderr).contains("--write-variant writes a variant of prunelab's"));
    std::fs::remove_dir_all(&dir).unwrap();
}
