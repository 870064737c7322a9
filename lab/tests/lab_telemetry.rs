//! Telemetry in the plans' formats from any UCI engine: a stand-in for
//! SeaJay, the engine the plans were written for, that offers a
//! `SearchStats` option and, once it is on, prints SeaJay's one long
//! `SearchStats:` line, among lines that are not UCI. Neither the lab nor
//! its tests need SeaJay itself.

use crate::common;

use common::{executable, lab, records, run_folder, scratch, stdout};

const TWO_POSITIONS: &str = "\
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - id \"open-game\";
8/8/1p1r1k2/p1pPN1p1/P3KnP1/1P6/8/3R4 b - - id \"zugzwang-endgame\";
";

/// SeaJay's output, as v20251002 prints it: a banner, `[Time Management]`
/// and `Negamax:` lines that are not UCI, reports with `string` notes amid
/// their fields, and with `SearchStats` on its summary line (here the
/// numbers of its start-position search to depth 8).
const STAND_IN: &str = "#!/bin/sh
echo 'SeaJay Chess Engine (stand-in)'
stats=false
while read -r line; do
  case \"$line\" in
    uci) echo 'id name SeaJay stand-in'; echo 'option name Hash type spin default 16 min 1 max 64'
         echo 'option name SearchStats type check default false'; echo uciok;;
    'setoption name SearchStats value true') stats=true;;
    isready) echo readyok;;
    go*) echo '[Time Management] soft=0ms hard=0ms'; echo 'Negamax: Starting search at depth 4'
         echo 'info depth 1 seldepth 1 score cp 49 nodes 23 nps 0 time 0 tthits 0.00 hashfull 0 pv b1c3'
         echo 'info depth 2 seldepth 3 score cp 36 string fail-low(2) bound [-116,64] string unstable ebf 6.31 nodes 2047 nps 2047000 time 1 pv b1c3 b8c6'
         echo 'info string SEE pruning final: 2274/5301 captures pruned (42.9%) [Conservative mode]'
         if [ $stats = true ]; then echo 'info string SearchStats: depth=8 seldepth=14 nodes=23431 nps=1115761 tt: probes=5234 hits=3847 hit%=73.5 cutoffs=771 stores=4378 coll=0 pvs: scout=15889 re%=5.0 null: att=1613 cut=555 cut%=34.4 extra(cand=0,app=0,blk=0,sup=0,cut=0,vpass=0,vfail=0,cap=0) no-store=0 static-cut=97 static-no-store=85 prune: fut=1742 mcp=2473 razor: att=3130 cut=42 cut%=1.3 skips(tact=474,tt=686,eg=0) razor_b=[37,5] asp: att=4 low=3 high=0 fut_b=[0,0,0,0] fut_eff_b=[22,0,0,0] mcp_b=[980,1493,0,0] illegal: first=7 total=55 hist(apps=3769,basic=2580,cmh=1189,first=1761+533,cuts=95+112,re=787)'; fi
         echo 'bestmove b1c3';;
    quit) exit 0;;
  esac
done
";

#[test]
fn an_engine_offering_search_stats_has_its_plan_lines_read_beside_a_variant() {
    let dir = scratch("telemetry");
    let suite = dir.join("two.epd");
    std::fs::write(&suite, TWO_POSITIONS).unwrap();
    let engine = dir.join("seajay-stand-in");
    executable(&engine, STAND_IN);
    let stand_in = format!("uci:{}", engine.display());
    let results = dir.join("results");
    let text =
        stdout(&lab(&["nodes", "p003-3", &stand_in, "--suite", suite.to_str().unwrap(), "--depth", "7"], &results));

    let found = records(&run_folder(&results, "nodes"));
    let theirs: Vec<_> = found.iter().filter(|record| record["variant"] == stand_in.as_str()).collect();
    assert_eq!(theirs.len(), 2);
    for record in &theirs {
        // The last report, past its `string` notes.
        assert_eq!(record["nodes"], 2047);
        let counts = &record["telemetry"]["counts"];
        assert_eq!((&counts["null.att"], &counts["null.cut"]), (&1613.into(), &555.into()));
        assert_eq!(
            (&counts["razor.att"], &counts["razor.cut"], &counts["razor.tactical"]),
            (&3130.into(), &42.into(), &474.into())
        );
        assert_eq!((&counts["asp.att"], &counts["asp.low"], &counts["asp.high"]), (&4.into(), &3.into(), &0.into()));
        assert_eq!(counts["search.iterations"], 2);
        assert_eq!(record["telemetry"]["buckets"]["razor.razor_b"], serde_json::json!([37, 5]));
    }
    // Both engines' counters side by side, summed over the two positions.
    let table = text.split("## The plans' telemetry").nth(1).expect("the telemetry table");
    let row = |engine: &str| table.lines().find(|line| line.starts_with(&format!("| {engine} |"))).unwrap().to_string();
    assert_eq!(
        row(&stand_in),
        format!(
            "| {stand_in} | 3226 | 1110 | 34.4% | 6260 | 84 | 1.3% | 15.1% | 74/10 | 8 | 6 | 0 | 2.00 | 73.5% | 5.0% | 3484 | 4946 |"
        )
    );
    let ours = row("p003-3");
    let cells: Vec<&str> = ours.split('|').map(str::trim).collect();
    // p003-3 has null move and aspiration windows, no razoring.
    assert!(cells[2].parse::<u64>().unwrap() > 0 && cells[3].parse::<u64>().unwrap() > 0, "{ours}");
    assert_eq!(cells[5], "-", "{ours}");
    assert!(cells[10].parse::<u64>().is_ok() && cells[13] != "-", "{ours}");
    assert!(table.contains(&format!("{stand_in}: pvs.re")), "{table}");

    // The same table under a chain, for its end and the engines beside it.
    let args = ["chain", "p003-3", "razor-r1", "--suite", suite.to_str().unwrap(), "--depth", "7", "--tactics", "none"];
    let text = stdout(&lab(&[&args[..], &["--ttd-rounds", "1", "--beside", &stand_in]].concat(), &results));
    let table = text.split(&format!("### razor-r1 beside {stand_in}: the plans' telemetry")).nth(1).expect("{text}");
    assert!(table.contains(&row(&stand_in)), "{table}");
    let ours = table.lines().find(|line| line.starts_with("| razor-r1 |")).expect("razor-r1's row");
    // razor-r1 razors: its razoring counters are there too.
    assert!(ours.split('|').nth(5).unwrap().trim().parse::<u64>().unwrap() > 0, "{ours}");
    std::fs::remove_dir_all(&dir).unwrap();
}
