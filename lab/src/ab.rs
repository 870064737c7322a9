//! `lab ab A B`: the main job. Build both, count nodes on the seeds, run a
//! short tactics suite, and print a one-page verdict that sets each measured
//! change beside the effect the variant files claim; with `--sprt`, go on
//! into a match.

use std::fmt::Write;

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use crate::claims::{self, Evidence, NodeChange};
use crate::lab::Lab;
use crate::nodes::{self, percent_change, NodesArgs};
use crate::runner::RunArgs;
use crate::sprt_options::SprtOptions;
use crate::tactics::{self, TacticsArgs};
use crate::{builder, matches};
use prunelab::variants::{Claim, Variant};

#[derive(Args, Clone, Debug, Serialize)]
pub struct AbArgs {
    /// The reference variant.
    pub a: String,
    /// The variant under test.
    pub b: String,
    /// Node-count suite.
    #[arg(long, default_value = "seeds")]
    pub suite: String,
    /// Node-count depth (the plans' claims are at depth 10).
    #[arg(long, default_value_t = 10)]
    pub depth: u32,
    /// Tactics suite, or `none` to skip it.
    #[arg(long, default_value = "wac")]
    pub tactics: String,
    /// Nodes per tactics position.
    #[arg(long, default_value_t = 50_000)]
    pub tactics_nodes: u64,
    /// Only the tactics suite's first N positions.
    #[arg(long, value_name = "N")]
    pub tactics_first: Option<usize>,
    /// Hash size in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: u32,
    /// Engine processes at the same time (node counts and solve counts do not
    /// depend on it; nps is measured under that load).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// With `--sprt`, go on into a match that stops at the SPRT's verdict.
    #[command(flatten)]
    #[serde(flatten)]
    pub sprt: SprtOptions,
    /// The match's time control (with --sprt).
    #[arg(long, default_value = "10+0.1")]
    pub tc: String,
    /// The match's game limit (with --sprt).
    #[arg(long, default_value_t = 20_000)]
    pub games: u64,
}

/// The claims of `variant`, each judged on what this run measured.
fn claims_section(out: &mut String, variant: &Variant, evidence: &Evidence) {
    let parent = variant.file.extends.as_deref().unwrap_or("none");
    if variant.file.claims.is_empty() {
        writeln!(out, "- `{}` claims nothing (parent `{parent}`; source: {}).", variant.name(), variant.file.source)
            .unwrap();
        return;
    }
    for claim in &variant.file.claims {
        let judgement = claims::judge(variant, claim, evidence);
        writeln!(out, "- `{}` ({}): {} → {judgement}", variant.name(), variant.file.source, claim.text()).unwrap();
    }
}

pub fn command(lab: &Lab, args: &AbArgs) -> Result<()> {
    let (a, b) = (lab.variant(&args.a)?, lab.variant(&args.b)?);
    // A bad --sprt is an error now, not after the node counts and tactics.
    let sprt = args.sprt.settings()?;
    let variants = vec![args.a.clone(), args.b.clone()];
    let run = RunArgs { concurrency: args.concurrency, resume: None };
    builder::build_all(lab, &variants)?;

    lab.say(&format!("nodes: {} at depth {}", args.suite, args.depth));
    let nodes_args = NodesArgs {
        variants: variants.clone(),
        suite: args.suite.clone(),
        depth: args.depth,
        hash: args.hash,
        first: None,
        run: run.clone(),
    };
    let nodes_run = nodes::run(lab, &nodes_args)?;
    let totals = nodes::totals(&nodes_run.records, &variants);

    // A named suite lives in the shared data folder; without it the verdict
    // says so instead of failing after the node counts.
    let tactics_missing = match args.tactics.as_str() {
        "none" => None,
        suite => crate::suites::load(lab, suite).err().map(|error| format!("{error:#}")),
    };
    if let Some(why) = &tactics_missing {
        lab.say(&format!("tactics skipped: {why}"));
    }
    let tactics_run = if args.tactics == "none" || tactics_missing.is_some() {
        None
    } else {
        lab.say(&format!("tactics: {} at {} nodes", args.tactics, args.tactics_nodes));
        let tactics_args = TacticsArgs {
            variants: variants.clone(),
            suite: args.tactics.clone(),
            movetime: None,
            nodes: Some(args.tactics_nodes),
            depth: None,
            hash: args.hash,
            first: args.tactics_first,
            run: run.clone(),
        };
        Some((tactics::run(lab, &tactics_args)?, tactics_args))
    };

    // The verdict page.
    let mut page = String::new();
    writeln!(page, "# Verdict: {} against {}\n", args.b, args.a).unwrap();
    for variant in [a, b] {
        let features =
            if variant.file.features.is_empty() { "none".to_string() } else { variant.file.features.join(" ") };
        writeln!(
            page,
            "- `{}`: {} (extends `{}`, adds {features}; {} features in all)",
            variant.name(),
            variant.file.description,
            variant.file.extends.as_deref().unwrap_or("-"),
            variant.features.len()
        )
        .unwrap();
    }
    let (base, test) = (&totals[0], &totals[1]);
    let node_change = test.delta_total_pct;
    let tactic_totals = tactics_run.as_ref().map(|(run, _)| tactics::totals(&run.suite, &run.records, &variants));

    // The verdict in one table; the sections below give the detail.
    let evidence_b = Evidence {
        reference: Some(args.a.as_str()),
        node_change: node_change.map(|percent| {
            (NodeChange { percent, interval: None }, format!("{} at depth {}", nodes_run.suite.name, args.depth))
        }),
        telemetry: Some(&test.telemetry),
        solved: Vec::new(),
        unsolved: Vec::new(),
    };
    let node_claim = b
        .file
        .claims
        .iter()
        .find(|claim| matches!(claim, Claim::NodeChange { .. } | Claim::NodeDirection(_)))
        .map_or("-".to_string(), |claim| format!("{}: {}", claim.text(), claims::judge(b, claim, &evidence_b).word()));
    writeln!(page, "\n| measure | {} | {} | change | claim |", args.a, args.b).unwrap();
    writeln!(page, "|---|---:|---:|---:|---|").unwrap();
    writeln!(
        page,
        "| nodes, {} depth {} | {} | {} | {} | {node_claim} |",
        nodes_run.suite.name,
        args.depth,
        base.nodes,
        test.nodes,
        node_change.map_or("-".into(), |v| format!("{v:+.1}%"))
    )
    .unwrap();
    if let (Some(tactic_totals), Some((run, tactics_args))) = (&tactic_totals, &tactics_run) {
        let (base_t, test_t) = (&tactic_totals[0], &tactic_totals[1]);
        writeln!(
            page,
            "| solved, {} at {} | {}/{} | {}/{} | {:+} | - |",
            run.suite.name,
            tactics_args.limit_text(),
            base_t.solved,
            base_t.positions,
            test_t.solved,
            test_t.positions,
            test_t.solved as i64 - base_t.solved as i64
        )
        .unwrap();
    }
    writeln!(
        page,
        "| nps | {} | {} | {:+.1}% | - |",
        base.nps,
        test.nps,
        percent_change(test.nps as f64, base.nps.max(1) as f64)
    )
    .unwrap();
    writeln!(page, "\n## Nodes: {}, depth {}, Hash {}\n", nodes_run.suite.name, args.depth, args.hash).unwrap();
    writeln!(
        page,
        "- total: {} → {} nodes ({}), geometric mean per position {}",
        base.nodes,
        test.nodes,
        node_change.map_or("-".into(), |v| format!("{v:+.1}%")),
        test.delta_geomean_pct.map_or("-".into(), |v| format!("{v:+.1}%"))
    )
    .unwrap();
    let fewer = nodes_run
        .records
        .iter()
        .filter(|r| r.variant == args.b && r.error.is_none())
        .filter(|r| {
            nodes_run
                .records
                .iter()
                .any(|base| base.variant == args.a && base.position == r.position && base.nodes > r.nodes)
        })
        .count();
    writeln!(page, "- {} searched fewer nodes on {fewer} of {} positions", args.b, nodes_run.suite.positions.len())
        .unwrap();
    writeln!(
        page,
        "- effective branching factor (geometric mean): {} → {}",
        base.ebf_geomean.map_or("-".into(), |v| format!("{v:.2}")),
        test.ebf_geomean.map_or("-".into(), |v| format!("{v:.2}"))
    )
    .unwrap();
    let failures = base.failures + test.failures;
    if failures > 0 {
        writeln!(page, "- **{failures} search(es) failed**; see the nodes report").unwrap();
    }

    writeln!(page, "\n## Speed\n").unwrap();
    writeln!(
        page,
        "- nps over the node-count searches: {} → {} ({:+.1}%), {} process(es) at a time",
        base.nps,
        test.nps,
        percent_change(test.nps as f64, base.nps.max(1) as f64),
        args.concurrency
    )
    .unwrap();

    if let (Some((tactics_run, tactics_args)), Some(tactic_totals)) = (&tactics_run, &tactic_totals) {
        let (base_t, test_t) = (&tactic_totals[0], &tactic_totals[1]);
        writeln!(page, "\n## Tactics: {}, {} per position\n", tactics_run.suite.name, tactics_args.limit_text())
            .unwrap();
        writeln!(
            page,
            "- solved: {} → {} of {} ({:+})",
            base_t.solved,
            test_t.solved,
            test_t.positions,
            test_t.solved as i64 - base_t.solved as i64
        )
        .unwrap();
        let list = |ids: &[String]| if ids.is_empty() { "none".to_string() } else { ids.join(", ") };
        writeln!(page, "- only {} solves: {}", args.b, list(&test_t.gained)).unwrap();
        writeln!(page, "- only {} solves: {}", args.a, list(&test_t.lost)).unwrap();
        if let (Some(base_nodes), Some(test_nodes)) = (base_t.mean_solution_nodes, test_t.mean_solution_nodes) {
            writeln!(
                page,
                "- mean nodes to solution over the {} positions both solve: {base_nodes:.0} → {test_nodes:.0} ({:+.1}%)",
                test_t.common_solved,
                percent_change(test_nodes, base_nodes)
            )
            .unwrap();
        }
    }

    if let Some(why) = &tactics_missing {
        writeln!(page, "\n## Tactics\n\nSkipped: {why}").unwrap();
    }

    writeln!(page, "\n## Claims from the variant files\n").unwrap();
    claims_section(&mut page, b, &evidence_b);
    claims_section(
        &mut page,
        a,
        &Evidence { reference: Some(args.b.as_str()), telemetry: Some(&base.telemetry), ..Default::default() },
    );

    writeln!(page, "\n## Results\n").unwrap();
    writeln!(page, "- nodes: {}", nodes_run.run_dir.display()).unwrap();
    if let Some((tactics_run, _)) = &tactics_run {
        writeln!(page, "- tactics: {}", tactics_run.run_dir.display()).unwrap();
    }

    if let Some(sprt) = sprt {
        lab.say(&format!("match: {} vs {} at {} with SPRT [{}, {}]", args.b, args.a, args.tc, sprt.elo0, sprt.elo1));
        let outcome = play_match(lab, args)?;
        writeln!(page, "\n## Match: {} against {}, {}\n\n{outcome}", args.b, args.a, args.tc).unwrap();
    } else {
        writeln!(page, "\nNo match played: add `--sprt 0 5` to go on into an SPRT at {}.", args.tc).unwrap();
    }

    let run_dir = crate::results::RunDir::create(&lab.results_root(), "ab", args)?;
    run_dir.write_summary(
        &page,
        &serde_json::json!({
            "a": args.a,
            "b": args.b,
            "nodes": totals,
            "nodes_run": nodes_run.run_dir,
            "tactics_run": tactics_run.as_ref().map(|(run, _)| run.run_dir.clone()),
        }),
    )?;
    if lab.global.json {
        println!("{}", std::fs::read_to_string(run_dir.path().join("summary.json"))?);
    } else {
        println!("{page}");
        lab.say(&format!("verdict: {}", run_dir.path().join("summary.md").display()));
    }
    Ok(())
}

/// The SPRT match of `--sprt`, with B as the first engine, so its Elo is
/// B's gain over A.
fn play_match(lab: &Lab, args: &AbArgs) -> Result<String> {
    let mut settings = matches::MatchArgs::new(&args.b, &args.a);
    settings.tc = args.tc.parse().map_err(|error| anyhow::anyhow!("--tc {}: {error}", args.tc))?;
    settings.games = Some(args.games);
    settings.sprt = args.sprt.clone();
    settings.concurrency = args.concurrency;
    settings.hash = args.hash;
    let (binary_b, binary_a) = (builder::binary_path(lab, &args.b), builder::binary_path(lab, &args.a));
    let outcome = matches::run_match(lab, (&args.b, &binary_b), (&args.a, &binary_a), &settings)?;
    Ok(format!(
        "{}
Games and PGN: {}",
        matches::summary_markdown(&outcome.summary),
        outcome.run_dir.display()
    ))
}
