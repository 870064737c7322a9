//! UCI options on `uci:` participants, without SeaJay: the variants build
//! of prunelab itself driven as a UCI engine with its option `Variant`
//! must search exactly as the variant's own build (its snapshot's node
//! counts), and a stand-in engine with options of each kind shows that a
//! bad option fails before anything runs, named, with what the engine
//! offers.

use crate::common;

use common::{executable, lab, records, run_folder, scratch, stdout, variant_by_option};

/// A stand-in engine with an option of each kind; a search reports as many
/// nodes as its `Margin` is set to, so a setting that did not reach the
/// engine shows.
const STAND_IN: &str = "#!/bin/sh
margin=100
while read -r line; do
  case \"$line\" in
    uci) echo 'id name Options stand-in'
         echo 'option name Hash type spin default 16 min 1 max 64'
         echo 'option name Margin type spin default 100 min 50 max 300'
         echo 'option name Use Razoring type check default true'
         echo 'option name Mode type combo default off var off var very careful'
         echo uciok;;
    'setoption name Margin value '*) margin=${line#setoption name Margin value };;
    isready) echo readyok;;
    go*) echo \"info depth 1 score cp 10 nodes $margin pv e2e4\"; echo 'bestmove e2e4';;
    quit) exit 0;;
  esac
done
";

const ONE_POSITION: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"startpos\";\n";

#[test]
fn the_variants_build_set_to_razor_r1_searches_as_razor_r1s_snapshot() {
    let dir = scratch("uci-options-variant");
    let participant = variant_by_option("razor-r1");
    let results = dir.join("results");
    stdout(&lab(&["nodes", &participant, "--suite", "seeds", "--depth", "10"], &results));
    let found = records(&run_folder(&results, "nodes"));
    let snapshot = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../snapshots/razor-r1.snap")).unwrap();
    let expected: Vec<(String, u64)> = snapshot
        .lines()
        .filter(|line| line.starts_with("seeds."))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            (cells[0].to_string(), cells[1].parse().unwrap())
        })
        .collect();
    assert_eq!(expected.len(), 10, "the snapshot's seeds");
    let measured: Vec<(String, u64)> = found
        .iter()
        .map(|record| {
            assert_eq!(record["variant"], participant.as_str(), "the label keeps the option");
            (record["id"].as_str().unwrap().to_string(), record["nodes"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(measured, expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn two_option_sets_of_one_binary_are_two_participants() {
    let dir = scratch("uci-options-two");
    let engine = dir.join("stand-in");
    executable(&engine, STAND_IN);
    let suite = dir.join("one.epd");
    std::fs::write(&suite, ONE_POSITION).unwrap();
    let narrow = format!("uci:{}@Margin=60,Use%20Razoring=false,Mode=very%20careful", engine.display());
    let wide = format!("uci:{}@Margin=250", engine.display());
    let results = dir.join("results");
    stdout(&lab(&["nodes", &narrow, &wide, "--suite", suite.to_str().unwrap(), "--depth", "1"], &results));
    let found = records(&run_folder(&results, "nodes"));
    let nodes: Vec<(&str, u64)> =
        found.iter().map(|record| (record["variant"].as_str().unwrap(), record["nodes"].as_u64().unwrap())).collect();
    assert_eq!(nodes, [(narrow.as_str(), 60), (wide.as_str(), 250)]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_option_fails_before_anything_runs_naming_it_and_what_the_engine_offers() {
    let dir = scratch("uci-options-bad");
    let engine = dir.join("stand-in");
    executable(&engine, STAND_IN);
    let offers = "it offers: Hash (spin 1..64), Margin (spin 50..300), Use Razoring (check true/false), \
                  Mode (combo off/very careful)";
    let cases = [
        ("Margn=60", format!("the engine has no option `Margn`; {offers}")),
        ("Margin=40", "option Margin (spin 50..300): `40` is out of its range 50..300".to_string()),
        ("Margin=wide", "option Margin (spin 50..300): `wide` is not a whole number from 50 to 300".to_string()),
        (
            "Mode=careless",
            "option Mode (combo off/very careful): `careless` is not among its values off, very careful".to_string(),
        ),
        ("Use%20Razoring=yes", "option Use Razoring (check true/false): `yes` is not true or false".to_string()),
        ("Hash=32", "option `Hash` is the lab's own (the run's --hash sets it)".to_string()),
    ];
    for command in ["nodes", "ttd", "tactics", "match"] {
        for (options, message) in &cases {
            let participant = format!("uci:{}@{options}", engine.display());
            let results = dir.join(format!("results-{command}"));
            let args: Vec<&str> = match command {
                "nodes" => vec!["nodes", &participant, "--suite", "startpos", "--depth", "1"],
                "ttd" => vec!["ttd", "baseline", &participant, "--suite", "startpos", "--depth", "1"],
                "tactics" => vec!["tactics", &participant, "--suite", "wac", "--first", "1"],
                _ => vec!["match", &participant, &participant, "--games", "2"],
            };
            let output = lab(&args, &results);
            let error = String::from_utf8_lossy(&output.stderr);
            assert!(!output.status.success(), "{command} {options}");
            assert!(error.contains(&format!("{participant}: {message}")), "{command} {options}: {error}");
            assert!(
                !results.exists() || std::fs::read_dir(&results).unwrap().next().is_none(),
                "{command}: nothing ran"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
