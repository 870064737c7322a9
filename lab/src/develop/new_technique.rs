//! `lab new-technique NAME --hook HOOK --parent VARIANT`: the skeleton of a
//! new technique, in the six places a technique lives:
//!
//! - `src/prune/<name>.rs`: its doc comment, its struct of flags and
//!   `features!`, `counters!`,
//!   `tunables!`, the hook it plugs into (its signature read from the
//!   `Hooks` trait in `src/techniques.rs`) and its telemetry line;
//! - its lines in the registry's lists (`src/prune/mod.rs`), where its step runs,
//!   and its call at that step in `src/search.rs`, after the techniques
//!   already there;
//! - its Cargo feature (`Cargo.toml`);
//! - its variant, `variants/<name>.toml`, on the parent it is measured
//!   against, its claim left to the author;
//! - a row of the book's variants table (`docs/variants.md`).
//!
//! What only the author can write is marked `(to write)`: the technique's
//! test, its claim, its description and source. `ci/check-technique.sh NAME`
//! refuses a file that still holds the mark, or a variant that claims
//! nothing, then writes the snapshot and the
//! catalogue, checks that only that snapshot moved, runs the feature and
//! catalogue tests and `lab ab NAME`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};

use crate::develop::atlas_lines;
use crate::lab::Lab;

/// What the author still has to write, wherever the skeleton leaves it.
pub const TO_WRITE: &str = "(to write)";

/// The hooks a skeleton can plug into (the book's hook contract says what
/// each is given and when it is called).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
#[value(rename_all = "snake_case")]
pub enum Hook {
    /// Node-level pruning (a step of its own in `negamax`): a node returns a score, or is searched shallower, before
    /// its moves are generated.
    PruneNode,
    /// Move pruning: a move of the main search is skipped without a search.
    PrunesMove,
    /// Extensions: plies added to (or taken from) a move's depth.
    ExtendMove,
    /// Quiescence pruning: a quiescence node returns after stand pat.
    PruneQnode,
    /// Quiescence move pruning: a quiescence capture or promotion is skipped.
    PrunesCapture,
}

#[derive(Args, Debug)]
pub struct NewTechniqueArgs {
    /// The technique's Cargo feature and variant name, e.g. `see-capture`
    /// (lower case, digits and `-`; the file is `src/prune/see_capture.rs`).
    pub name: String,
    /// The search step it plugs into.
    #[arg(long, value_enum)]
    pub hook: Hook,
    /// The variant it is measured against (its variant's `extends`).
    #[arg(long, default_value = "p003-3")]
    pub parent: String,
    /// The plan phase or published engine it follows (default: marked to write).
    #[arg(long)]
    pub source: Option<String>,
    /// What it does, in a line, for the catalogue (default: marked to write).
    #[arg(long)]
    pub summary: Option<String>,
}

/// The names a feature name gives.
#[derive(Debug, PartialEq, Eq)]
struct Names {
    /// `see-capture`: the Cargo feature and the variant.
    feature: String,
    /// `see_capture`: the file, the registry field, the telemetry key.
    module: String,
    /// `SeeCapture`: the technique's type.
    type_name: String,
    /// `SEE_CAPTURE`: the tunables' prefix.
    prefix: String,
    /// `sc_b`: the depth buckets' key.
    buckets: String,
}

/// Rust's keywords, strict and reserved (every edition to 2024): none can
/// name a module, and `self`, `super` and `crate` not even as `r#self`.
const RUST_KEYWORDS: [&str; 52] = [
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct", "super",
    "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box",
    "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// Names the skeleton's file and the registry already use: a technique
/// named so would not compile.
const TAKEN_TYPES: [&str; 16] = [
    "Board",
    "Candidate",
    "Context",
    "Hooks",
    "Node",
    "NodeType",
    "NodeVerdict",
    "Registration",
    "ScoredMove",
    "Technique",
    "TechniqueCounters",
    "TechniqueSet",
    "Techniques",
    "TraceKind",
    "Tunable",
    "Worker",
];
const TAKEN_MODULES: [&str; 1] = ["tests"];

impl Names {
    fn of(feature: &str) -> Result<Names> {
        let valid = feature.chars().next().is_some_and(|first| first.is_ascii_lowercase())
            && feature
                .split('-')
                .all(|word| !word.is_empty() && word.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()));
        if !valid {
            bail!("`{feature}`: a technique's name is words of lower-case letters and digits joined by `-`, e.g. see-capture");
        }
        let words: Vec<&str> = feature.split('-').collect();
        let type_name: String = words.iter().map(|word| word[..1].to_ascii_uppercase() + &word[1..]).collect();
        let initials: String = words.iter().map(|word| &word[..1]).collect();
        let module = words.join("_");
        // The module and the type become Rust identifiers.
        if RUST_KEYWORDS.contains(&module.as_str()) {
            bail!(
                "`{feature}`: `{module}` is a Rust keyword and cannot name the technique's module; choose another name"
            );
        }
        if TAKEN_TYPES.contains(&type_name.as_str()) || TAKEN_MODULES.contains(&module.as_str()) {
            bail!(
                "`{feature}`: `{}` is a name the technique's file or the registry uses already; choose another name",
                if TAKEN_MODULES.contains(&module.as_str()) { &module } else { &type_name }
            );
        }
        Ok(Names {
            feature: feature.to_string(),
            prefix: module.to_ascii_uppercase(),
            module,
            type_name,
            buckets: format!("{initials}_b"),
        })
    }
}

/// One file the generator writes: its path from the repository root, and
/// its new text.
#[derive(Debug)]
pub struct Edit {
    pub path: PathBuf,
    pub text: String,
}

/// `lab new-technique`.
pub fn command(lab: &Lab, args: &NewTechniqueArgs) -> Result<()> {
    lab.variant(&args.parent).with_context(|| format!("--parent {}", args.parent))?;
    if lab.variant(&args.name).is_ok() {
        bail!("a variant `{}` exists already", args.name);
    }
    let edits = edits(&lab.root, args)?;
    for edit in &edits {
        std::fs::write(lab.root.join(&edit.path), &edit.text)
            .with_context(|| format!("cannot write {}", edit.path.display()))?;
    }
    let names = Names::of(&args.name)?;
    println!("new technique `{}`, on `{}`, plugged into {:?}:", names.feature, args.parent, args.hook);
    for edit in &edits {
        println!("  wrote {}", edit.path.display());
    }
    println!(
        "next: write what is marked {TO_WRITE} in src/prune/{}.rs and variants/{}.toml (docs/adding-a-technique.md, \
         \"Hooks\", says what the hook is given), then run `bash ci/check-technique.sh {}`",
        names.module, names.feature, names.feature
    );
    Ok(())
}

/// Every file the skeleton writes or changes, read from `root`; nothing is
/// written. Refuses a name that is taken.
pub fn edits(root: &Path, args: &NewTechniqueArgs) -> Result<Vec<Edit>> {
    let names = Names::of(&args.name)?;
    let read = |path: &str| {
        std::fs::read_to_string(root.join(path)).with_context(|| format!("cannot read {}", root.join(path).display()))
    };
    let file = PathBuf::from(format!("src/prune/{}.rs", names.module));
    if root.join(&file).exists() {
        bail!("{} exists already", file.display());
    }
    let variant = PathBuf::from(format!("variants/{}.toml", names.feature));
    if root.join(&variant).exists() {
        bail!("{} exists already", variant.display());
    }
    let source = args.source.clone().unwrap_or_else(|| TO_WRITE.to_string());
    let summary = args.summary.clone().unwrap_or_else(|| TO_WRITE.to_string());
    let edits = vec![
        Edit { path: "Cargo.toml".into(), text: with_feature(&read("Cargo.toml")?, &names)? },
        Edit { path: VARIANTS_TABLE.into(), text: with_variant_row(&read(VARIANTS_TABLE)?, &names, &summary)? },
        Edit {
            path: "src/prune/mod.rs".into(),
            text: with_registry_lines(&read("src/prune/mod.rs")?, &read("src/search.rs")?, &names, args.hook)?,
        },
        Edit {
            path: "src/search.rs".into(),
            text: with_step(&read("src/search.rs")?, &read("src/prune/mod.rs")?, &names, args.hook)?,
        },
        Edit { path: file, text: technique_file(&names, args.hook, &read(HOOKS_TRAIT)?, &source, &summary)? },
        Edit { path: variant, text: variant_file(&names, args.hook, &args.parent, &source, &summary) },
    ];
    Ok(edits)
}

/// Cargo.toml with `"<feature>" = []` after the catalogue's last feature.
fn with_feature(cargo: &str, names: &Names) -> Result<String> {
    let quoted = format!("\"{}\" = ", names.feature);
    if cargo.lines().any(|line| line.starts_with(&quoted)) {
        bail!("Cargo.toml has a feature `{}` already", names.feature);
    }
    let lines: Vec<&str> = cargo.lines().collect();
    let Some(last) = lines.iter().rposition(|line| line.starts_with('"') && line.contains("\" = [")) else {
        bail!("Cargo.toml: no catalogue feature (`\"name\" = [...]`) to add `{}` after", names.feature);
    };
    let mut out: Vec<String> = lines.iter().map(|line| line.to_string()).collect();
    out.insert(last + 1, format!("{quoted}[]"));
    Ok(out.join("\n") + "\n")
}

/// The call of a hook's step in `src/search.rs`, `__Type__` standing for
/// the technique: the new technique's call has this form, after the step's
/// last.
fn call_template(hook: Hook) -> &'static str {
    match hook {
        Hook::PruneNode => "if let Some(score) = self.node_step::<NT, __Type__>(&mut node) {",
        Hook::PrunesMove => "self.move_pruned_by::<NT, __Type__>(node, candidate)",
        Hook::ExtendMove => "self.move_extension::<NT, __Type__>(node, candidate, child)",
        Hook::PruneQnode => "self.qnode_pruned_by::<NT, __Type__>(qnode)",
        Hook::PrunesCapture => "self.capture_pruned_by::<NT, __Type__>(qnode, entry)",
    }
}

/// The step's last technique in `src/search.rs`: the line of its call, and
/// its type.
fn last_call(search: &str, hook: Hook) -> Result<(usize, String)> {
    let (before, after) = call_template(hook).split_once("__Type__").unwrap();
    search
        .lines()
        .enumerate()
        .filter_map(|(at, line)| {
            let rest = &line[line.find(before)? + before.len()..];
            let type_name = &rest[..rest.find(after)?];
            type_name.chars().all(|c| c.is_alphanumeric()).then(|| (at, type_name.to_string()))
        })
        .last()
        .with_context(|| format!("src/search.rs: no call `{}`", call_template(hook).replace("__Type__", "..")))
}

/// The registry's lines for the new technique: after each line of the
/// step's last technique (`anchor`, its type) in `Techniques`, `BASELINE`,
/// `with`, `has`, `TechniqueCounters` and `REGISTRY`, its own (the registry's
/// order is the pipeline's); and its `pub mod` and `use` lines among the
/// others, in the order rustfmt keeps them.
fn registry_lines(registry: &str, names: &Names, anchor_type: &str) -> Result<(Vec<(String, String)>, [String; 2])> {
    let (module, type_name) = (&names.module, &names.type_name);
    let (anchor, anchor_counters) = technique_field(registry, anchor_type)?;
    let after = vec![
        (format!("    pub {anchor}: {anchor_type},"), format!("    pub {module}: {type_name},")),
        (format!("        {anchor}: {anchor_type}::BASELINE,"), format!("        {module}: {type_name}::BASELINE,")),
        (
            format!("            {anchor}: self.{anchor}.with(feature),"),
            format!("            {module}: self.{module}.with(feature),"),
        ),
        // `has`, which `Runs` reads: a technique missing there never runs.
        (format!("            || self.{anchor}.has(feature)"), format!("            || self.{module}.has(feature)")),
        (format!("    pub {anchor}: {anchor_counters},"), format!("    pub {module}: {type_name}Counters,")),
        (format!("    Registration::of::<{anchor_type}>(),"), format!("    Registration::of::<{type_name}>(),")),
    ];
    let sorted = [format!("pub mod {module};"), format!("use {module}::{{{type_name}, {type_name}Counters}};")];
    Ok((after, sorted))
}

/// The field of the technique of type `ty` in `Techniques` (its module),
/// and the type of its field in `TechniqueCounters`.
fn technique_field(registry: &str, ty: &str) -> Result<(String, String)> {
    fn field(line: &str) -> Option<(&str, &str)> {
        line.strip_prefix("    pub ")?.split_once(": ")
    }
    let module = registry
        .lines()
        .filter_map(field)
        .find(|(_, field_type)| field_type.strip_suffix(',') == Some(ty))
        .map(|(module, _)| module)
        .with_context(|| format!("src/prune/mod.rs: no field of type {ty} in Techniques"))?;
    let counters = registry
        .lines()
        .filter_map(field)
        .filter(|(name, _)| *name == module)
        .nth(1)
        .and_then(|(_, field_type)| field_type.strip_suffix(','))
        .with_context(|| format!("src/prune/mod.rs: no field {module} in TechniqueCounters"))?;
    Ok((module.to_string(), counters.to_string()))
}

fn with_registry_lines(registry: &str, search: &str, names: &Names, hook: Hook) -> Result<String> {
    let (_, anchor_type) = last_call(search, hook)?;
    let (after, sorted) = registry_lines(registry, names, &anchor_type)?;
    let mut out: Vec<String> = registry.lines().map(str::to_string).collect();
    for (anchor, line) in after {
        let Some(at) = out.iter().position(|existing| *existing == anchor) else {
            bail!("src/prune/mod.rs: no line `{}` to add `{}` after", anchor.trim(), line.trim());
        };
        out.insert(at + 1, line);
    }
    for line in sorted {
        // Among the lines of its kind (`pub mod `, or a technique's `use`).
        let kind = if line.starts_with("pub mod ") { "pub mod " } else { "use " };
        let of_kind = |existing: &String| existing.starts_with(kind) && !existing.starts_with("use crate::");
        let Some(last) = out.iter().rposition(of_kind) else {
            bail!("src/prune/mod.rs: no `{kind}` line to add `{line}` beside");
        };
        let at = out.iter().position(|existing| of_kind(existing) && *existing > line).unwrap_or(last + 1);
        out.insert(at, line);
    }
    Ok(out.join("\n") + "\n")
}

/// `src/search.rs` with the technique called at its hook's step, after the
/// techniques already there, and its type imported beside theirs. A
/// node-level technique gets a step of its own after the last node-level
/// step, numbered as a part of it (`Step 11b` after `Step 11`, `11c` after
/// `11b`), so no later step is renumbered.
fn with_step(search: &str, registry: &str, names: &Names, hook: Hook) -> Result<String> {
    let (at, anchor_type) = last_call(search, hook)?;
    // Its measured worth (`lab atlas-lines`): in no variant yet, no
    // ablation; after its own step's comment, or the step's last
    // technique's line.
    let measured = format!("// {}", atlas_lines::line(&names.module, &[], &[]));
    let lines: Vec<&str> = search.lines().collect();
    let indent = &lines[at][..lines[at].len() - lines[at].trim_start().len()];
    let call = call_template(hook).replace("__Type__", &names.type_name);
    let mut added = Vec::new();
    // After the call; a node step's after its `return score;` and closing brace.
    let mut after = at + 1;
    match hook {
        Hook::PruneNode => {
            let number = lines[..at]
                .iter()
                .rev()
                .find_map(|line| line.trim().strip_prefix("// Step "))
                .and_then(|rest| rest.split_once('.'))
                .map(|(number, _)| number.to_string())
                .with_context(|| "src/search.rs: the last node-level step has no `// Step N.` comment above it")?;
            let next = match number.chars().last() {
                Some(letter) if letter.is_ascii_lowercase() => {
                    format!("{}{}", &number[..number.len() - 1], (letter as u8 + 1) as char)
                }
                _ => format!("{number}b"),
            };
            added.push(format!("{indent}// Step {next}. {} ({}.rs).", names.type_name, names.module));
            added.push(format!("{indent}{measured}"));
            added.push(format!("{indent}{call}"));
            added.push(format!("{indent}    return score;"));
            added.push(format!("{indent}}}"));
            after = at + 3;
        }
        // The first call of a step's chain is not joined to anything before it.
        Hook::PrunesMove | Hook::PrunesCapture => {
            let continued =
                if lines[at].trim_start().starts_with("||") { indent.to_string() } else { format!("{indent}    ") };
            added.push(format!("{continued}|| {call}"));
        }
        Hook::ExtendMove => {
            let continued =
                if lines[at].trim_start().starts_with('+') { indent.to_string() } else { format!("{indent}    ") };
            added.push(format!("{continued}+ {call}"));
        }
        Hook::PruneQnode => {
            let continued =
                if lines[at].trim_start().starts_with('.') { indent.to_string() } else { format!("{indent}    ") };
            added.push(format!("{continued}.or_else(|| {call})"));
        }
    }
    let mut out: Vec<String> = lines.iter().map(|line| line.to_string()).collect();
    out.splice(after..after, added);
    if hook != Hook::PruneNode {
        let (anchor, _) = technique_field(registry, &anchor_type)?;
        let anchor_line = format!("// Measured: full-without-{anchor} ");
        let Some(at) = out.iter().position(|line| line.trim_start().starts_with(&anchor_line)) else {
            bail!("src/search.rs: no `{}...` line (`cargo lab atlas-lines` writes it)", anchor_line.trim_end());
        };
        let indent = out[at][..out[at].len() - out[at].trim_start().len()].to_string();
        out.insert(at + 1, format!("{indent}{measured}"));
    }
    // The import, in order among the techniques' (`use crate::prune::...`).
    let import = format!("use crate::prune::{}::{};", names.module, names.type_name);
    let Some(last_prune) = out.iter().rposition(|line| line.starts_with("use crate::prune::")) else {
        bail!("src/search.rs: no `use crate::prune::` line to add `{import}` beside");
    };
    let at = out[..=last_prune]
        .iter()
        .position(|line| line.starts_with("use crate::prune::") && *line > import)
        .unwrap_or(last_prune + 1);
    out.insert(at, import);
    Ok(out.join("\n") + "\n")
}

/// The book's chapter that holds the variants table.
const VARIANTS_TABLE: &str = "docs/variants.md";

/// The variants chapter with a row for the new variant just above
/// `full`'s, the last row of its variants table.
fn with_variant_row(readme: &str, names: &Names, summary: &str) -> Result<String> {
    let full_row = "| `full` |";
    let Some(at) = readme.lines().position(|line| line.starts_with(full_row)) else {
        bail!("{VARIANTS_TABLE}: no `{full_row}` row in the variants table to add `{}` above", names.feature);
    };
    let mut out: Vec<String> = readme.lines().map(str::to_string).collect();
    out.insert(at, format!("| `{}` | {summary} |", names.feature));
    Ok(out.join("\n") + "\n")
}

/// The variant file. Its claim is the author's, from the technique's
/// source: the generator leaves it marked `(to write)` in a comment, so
/// the file parses (build.rs reads every variant file) while
/// `ci/check-technique.sh` refuses it until the claim is written.
fn variant_file(names: &Names, hook: Hook, parent: &str, source: &str, summary: &str) -> String {
    let usual = match hook {
        Hook::ExtendMove => "an extension searches more: nodes = \"more\"",
        _ => "a pruning searches less: nodes = \"fewer\"",
    };
    format!(
        "name = \"{feature}\"\n\
         description = \"{summary}. On `{parent}`.\"\n\
         extends = \"{parent}\"\n\
         features = [\"{feature}\"]\n\
         source = \"{source}\"\n\
         \n\
         [expect]\n\
         # {TO_WRITE} What the source claims against `{parent}`, in the claims of\n\
         # lab/src/verdicts/claims/grammar.rs: a node change (nodes_pct = [low, high], or\n\
         # nodes = \"fewer\", \"more\", \"similar\" or \"same\"), a telemetry rate\n\
         # (\"{module}.cut%\" = [low, high]), games, a suite. Usually\n\
         # {usual}.\n",
        feature = names.feature,
        module = names.module,
    )
}

/// The counter stanza every hook's skeleton shares, written once: an
/// attempt, then a cutoff (at a depth, in the engine's one bucket function's
/// bucket, where the hook runs at one).
const COUNT_ATTEMPT: &str = "        let counters = cx.counters();\n        counters.attempts += 1;";
const COUNT_CUTOFF: &str = "        counters.cutoffs += 1;";
const COUNT_CUTOFF_BY_DEPTH: &str =
    "        counters.cutoffs += 1;\n        counters.by_depth[crate::stats::depth_bucket(node.depth)] += 1;";

/// What the hook's skeleton says and does, per hook.
struct HookText {
    /// What an attempt is, for the telemetry's doc.
    attempt: &'static str,
    /// Whether it runs at a depth (main search) and so counts by depth.
    by_depth: bool,
    /// The hook's body, under the signature the trait gives it.
    body: &'static str,
}

/// The file that declares the `Hooks` trait: a skeleton's hook takes its
/// signature from there, so the generator holds no second copy of it.
const HOOKS_TRAIT: &str = "src/techniques.rs";

/// The hook's signature in the `Hooks` trait, `fn name<...>(...) -> ... {`,
/// as the technique's `impl Hooks` writes it.
fn hook_signature(hooks_trait: &str, hook: Hook) -> Result<String> {
    let name = hook.to_possible_value().expect("every hook has a name").get_name().to_string();
    let body = hooks_trait
        .split("pub(crate) trait Hooks")
        .nth(1)
        .and_then(|rest| rest.split_once("{\n"))
        .and_then(|(_, rest)| rest.split("\n}\n").next())
        .with_context(|| format!("{HOOKS_TRAIT}: no `pub(crate) trait Hooks`"))?;
    let start =
        body.find(&format!("    fn {name}<")).with_context(|| format!("{HOOKS_TRAIT}: the trait has no `{name}`"))?;
    let end = body[start..].find("{\n").with_context(|| format!("{HOOKS_TRAIT}: `{name}` has no body"))?;
    Ok(body[start..start + end + 2].to_string())
}

/// The `use` lines a hook's file needs for the types its hook names.
fn hook_uses(hook: &str) -> String {
    let names = |candidates: &[&'static str]| -> Vec<&'static str> {
        candidates
            .iter()
            .copied()
            .filter(|name| {
                hook.match_indices(name).any(|(at, _)| {
                    let next = hook[at + name.len()..].chars().next();
                    !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
            })
            .collect()
    };
    let mut uses = String::new();
    if !names(&["Board"]).is_empty() {
        uses.push_str("use cozy_chess::Board;\n\n");
    }
    if !names(&["ScoredMove"]).is_empty() {
        uses.push_str("use crate::movepick::ScoredMove;\n");
    }
    if !names(&["Context"]).is_empty() {
        uses.push_str("use crate::context::Context;\n");
    }
    uses.push_str(&format!(
        "use crate::search::{{{}}};\n",
        names(&["Candidate", "Node", "NodeType", "QNode"]).join(", ")
    ));
    let mut techniques = vec!["Hooks"];
    techniques.extend(names(&["NodeVerdict"]));
    techniques.extend(["Technique", "TechniqueCounters", "TechniqueSet", "Techniques"]);
    uses.push_str(&format!("use crate::techniques::{{{}}};", techniques.join(", ")));
    uses
}

fn hook_text(hook: Hook) -> HookText {
    match hook {
        Hook::PruneNode => HookText {
            attempt: "a node",
            by_depth: true,
            body: r#"        // Called at each main-search node that is not in check and not a
        // singular-exclusion search, after its static eval and before any
        // move is generated (docs/adding-a-technique.md, "Hooks").
        if !T::TECHNIQUES.__module__.enabled || NT::PV || node.depth > __PREFIX___MAX_DEPTH.get() {
            return NodeVerdict::Continue;
        }
__count_attempt__
        let margin = __PREFIX___MARGIN.get() * node.depth;
        // (to write) The technique's test, from the node (`board`,
        // `static_eval`, `alpha`, `beta`) and `margin`: NodeVerdict::Prune(score)
        // to return a score, NodeVerdict::Reduce(plies) to search shallower.
        let verdict = NodeVerdict::Continue;
        if verdict == NodeVerdict::Continue {
            return verdict;
        }
__count_cutoff__
        if cx.traces(node.ply) {
            let kind = if matches!(verdict, NodeVerdict::Prune(_)) { TraceKind::NodePruned } else { TraceKind::NodeReduced };
            let detail = format!("(to write) the numbers the test compared; margin {margin}");
            cx.trace(node.ply, node.depth, kind, "__feature__", detail);
        }
        verdict
    }
"#,
        },
        Hook::PrunesMove => HookText {
            attempt: "a move",
            by_depth: true,
            body: r#"        // Called for each move of the main search's move loop but the
        // first, never at the root or while every move so far is mated
        // (docs/adding-a-technique.md, "Hooks").
        if !T::TECHNIQUES.__module__.enabled
            || NT::PV
            || node.in_check
            || node.depth > __PREFIX___MAX_DEPTH.get()
            || candidate.is_tt_move
        {
            return false;
        }
__count_attempt__
        let margin = __PREFIX___MARGIN.get() * node.depth;
        // (to write) The technique's test, from the node (`board`,
        // `static_eval`, `alpha`, `beta`), the candidate (`mv`, `kind`: a
        // capture is GoodCapture or BadCapture already, `quiet`,
        // `gives_check`, `history`, ...) and `margin`: true skips the move.
        let prunes = false;
        if !prunes {
            return false;
        }
__count_cutoff__
        if cx.traces_move(node.ply, candidate.mv) {
            let detail = format!("(to write) the numbers the test compared; margin {margin}");
            cx.trace(node.ply, node.depth, TraceKind::MoveSkipped, "__feature__", detail);
        }
        true
    }
"#,
        },
        Hook::ExtendMove => HookText {
            attempt: "a move",
            by_depth: true,
            body: r#"        // Called for each move the main search is about to search, after
        // it is made (`child`), before its reduction (docs/adding-a-technique.md, "Hooks").
        if !T::TECHNIQUES.__module__.enabled || node.depth > __PREFIX___MAX_DEPTH.get() {
            return 0;
        }
__count_attempt__
        let margin = __PREFIX___MARGIN.get() * node.depth;
        // (to write) The technique's test, from the node (its `board`), the
        // candidate, `child` and `margin`: the plies added to the move's
        // depth (negative to reduce it).
        let plies = 0;
        if plies == 0 {
            return 0;
        }
__count_cutoff__
        if cx.traces_move(node.ply, candidate.mv) {
            let detail = format!("(to write) the numbers the test compared; margin {margin}; {plies:+} plies");
            cx.trace(node.ply, node.depth, TraceKind::MoveDepth, "__feature__", detail);
        }
        plies
    }
"#,
        },
        Hook::PruneQnode => HookText {
            attempt: "a quiescence node",
            by_depth: false,
            body: r#"        // Called at each quiescence node not in check, after stand pat
        // (docs/adding-a-technique.md, "Hooks").
        if !T::TECHNIQUES.__module__.enabled {
            return None;
        }
__count_attempt__
        let margin = __PREFIX___MARGIN.get();
        // (to write) The technique's test, from the node (`board`,
        // `stand_pat`, `alpha`, `phase`: 24 in the opening, 0 in a pawn
        // ending) and `margin`: Some(score) returns that score from the node.
        let score: Option<i32> = None;
        let score = score?;
__count_cutoff__
        if cx.traces(qnode.ply) {
            let detail = format!("(to write) the numbers the test compared; margin {margin}; returns {score}");
            cx.trace(qnode.ply, 0, TraceKind::NodePruned, "__feature__", detail);
        }
        Some(score)
    }
"#,
        },
        Hook::PrunesCapture => HookText {
            attempt: "a capture or promotion",
            by_depth: false,
            body: r#"        // Called for each capture and promotion a quiescence node not in
        // check is about to search (docs/adding-a-technique.md, "Hooks").
        if !T::TECHNIQUES.__module__.enabled {
            return false;
        }
__count_attempt__
        let margin = __PREFIX___MARGIN.get();
        // (to write) The technique's test, from the node (`board`,
        // `stand_pat`, `alpha`, `phase`), `entry` (`mv`, `piece`,
        // `captured`) and `margin`: true skips the move.
        let prunes = false;
        if !prunes {
            return false;
        }
__count_cutoff__
        if cx.traces_move(qnode.ply, entry.mv) {
            let detail = format!("(to write) the numbers the test compared; margin {margin}");
            cx.trace(qnode.ply, 0, TraceKind::MoveSkipped, "__feature__", detail);
        }
        true
    }
"#,
        },
    }
}

fn technique_file(names: &Names, hook: Hook, hooks_trait: &str, source: &str, summary: &str) -> Result<String> {
    let text = hook_text(hook);
    let body = hook_signature(hooks_trait, hook)? + text.body;
    let (bucket_field, bucket_doc, bucket_report, report_args, max_depth) = if text.by_depth {
        (
            "        /// Cutoffs at depths 1-3, 4-6, 7-9, 10+ (`crate::stats::depth_bucket`).\n        pub by_depth: [u64; 4],\n",
            " __buckets__=[d1-3,d4-6,d7-9,d10+]",
            " __buckets__={}",
            ",\n            crate::stats::buckets(&counters.by_depth)",
            "    /// At this depth and below.\n    __PREFIX___MAX_DEPTH: 6, 1, 12, 1;\n",
        )
    } else {
        ("", "", "", "", "")
    };
    let file = format!(
        r#"//! `__feature__`: {summary}. {TO_WRITE} What the technique is, in a
//! sentence or two.
//!
//! Also called: {TO_WRITE} its other names, and where engines have it.
//!
//! Phases, side by side:
//! - `__feature__` ({source}): {TO_WRITE} its conditions, and where it
//!   departs from its source.
//!
//! Telemetry: `__module__: att=X cut=Y cut%=Z.Z%{bucket_doc}`: an attempt
//! is {attempt} that met every condition but the technique's test.
//!
//! {measured}

{uses}
use crate::trace::TraceKind;
use crate::tune::Tunable;
use crate::{{counters, features, tunables}};

/// Whether `__feature__` is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct __Type__ {{
    /// `__feature__`
    pub enabled: bool,
}}

features! {{
    __Type__ {{
        enabled: "__feature__" [] "{source}" => "{summary}";
    }}
}}

counters! {{
    /// `__module__:` telemetry.
    pub struct __Type__Counters {{
        /// What met every condition but the technique's test.
        pub attempts: u64,
        pub cutoffs: u64,
{bucket_field}    }}
}}

tunables! {{
{max_depth}    /// {TO_WRITE} The margin the test reads.
    __PREFIX___MARGIN: 100, 0, 400, 10;
}}

impl Hooks for __Type__ {{
{body}}}

impl Technique for __Type__ {{
    const NAME: &'static str = "__module__";
    type Counters = __Type__Counters;

    fn of(set: &Techniques) -> &Self {{
        &set.__module__
    }}

    fn counters(all: &TechniqueCounters) -> &__Type__Counters {{
        &all.__module__
    }}

    fn counters_mut(all: &mut TechniqueCounters) -> &mut __Type__Counters {{
        &mut all.__module__
    }}

    fn report(&self, counters: &__Type__Counters) -> Vec<String> {{
        if !self.enabled {{
            return Vec::new();
        }}
        vec![format!(
            "__module__: {{}}{bucket_report}",
            crate::stats::rate(counters.attempts, counters.cutoffs){report_args}
        )]
    }}

    fn snapshot_counters(counters: &__Type__Counters) -> Vec<(&'static str, u64, u64)> {{
        vec![("__module__", counters.attempts, counters.cutoffs)]
    }}

    fn tunable_list() -> &'static [&'static Tunable] {{
        TUNABLES
    }}
}}
"#,
        uses = hook_uses(&body),
        attempt = text.attempt,
        measured = atlas_lines::line(&names.module, &[], &[]),
    );
    let count_cutoff = if text.by_depth { COUNT_CUTOFF_BY_DEPTH } else { COUNT_CUTOFF };
    Ok(file
        .replace("__count_attempt__", COUNT_ATTEMPT)
        .replace("__count_cutoff__", count_cutoff)
        .replace("__feature__", &names.feature)
        .replace("__module__", &names.module)
        .replace("__Type__", &names.type_name)
        .replace("__PREFIX__", &names.prefix)
        .replace("__buckets__", &names.buckets))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_feature() {
        let names = Names::of("see-capture-2").unwrap();
        assert_eq!(
            names,
            Names {
                feature: "see-capture-2".into(),
                module: "see_capture_2".into(),
                type_name: "SeeCapture2".into(),
                prefix: "SEE_CAPTURE_2".into(),
                buckets: "sc2_b".into(),
            }
        );
        for bad in ["", "See", "see_capture", "-see", "see--capture", "2see", "see capture"] {
            assert!(Names::of(bad).is_err(), "{bad}");
        }
        // Names that cannot be the module's or the type's identifier.
        let refusal = |name: &str| Names::of(name).unwrap_err().to_string();
        for keyword in ["type", "loop", "self", "async", "gen", "try"] {
            assert_eq!(
                refusal(keyword),
                format!(
                    "`{keyword}`: `{keyword}` is a Rust keyword and cannot name the technique's module; choose \
                     another name"
                )
            );
        }
        for (name, taken) in
            [("board", "Board"), ("node-type", "NodeType"), ("trace-kind", "TraceKind"), ("tests", "tests")]
        {
            assert_eq!(
                refusal(name),
                format!("`{name}`: `{taken}` is a name the technique's file or the registry uses already; choose another name")
            );
        }
        // A keyword inside a longer name is only part of an identifier.
        assert_eq!(Names::of("type-see").unwrap().module, "type_see");
    }

    /// The generator changes exactly the files the book's walk-through lists,
    /// each in the place it says, on a copy of the repository's own files.
    #[test]
    fn the_skeleton_goes_where_the_book_says() {
        let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let args = NewTechniqueArgs {
            name: "see-capture".into(),
            hook: Hook::PrunesMove,
            parent: "p003-3".into(),
            source: Some("Ethereal (SEE pruning of captures)".into()),
            summary: None,
        };
        let edits = edits(&repository, &args).unwrap();
        let paths: Vec<String> = edits.iter().map(|edit| edit.path.display().to_string()).collect();
        assert_eq!(
            paths,
            [
                "Cargo.toml",
                "docs/variants.md",
                "src/prune/mod.rs",
                "src/search.rs",
                "src/prune/see_capture.rs",
                "variants/see-capture.toml"
            ]
        );
        let text = |path: &str| &edits.iter().find(|edit| edit.path == Path::new(path)).unwrap().text;
        let original = |path: &str| std::fs::read_to_string(repository.join(path)).unwrap();
        // Cargo.toml and the variants table gain exactly one line.
        for (path, line) in
            [("Cargo.toml", "\"see-capture\" = []"), ("docs/variants.md", "| `see-capture` | (to write) |")]
        {
            let original = original(path);
            let mut before: Vec<&str> = original.lines().collect();
            let after: Vec<&str> = text(path).lines().collect();
            let at = after.iter().position(|added| *added == line).unwrap_or_else(|| panic!("{path}: no `{line}`"));
            before.insert(at, line);
            assert_eq!(after, before, "{path}");
        }
        // The registry gains a line in each of its lists, after quiet SEE's
        // where the order is the pipeline's.
        let registry = text("src/prune/mod.rs");
        for (after, line) in [
            ("    pub quiet_see: QuietSee,", "    pub see_capture: SeeCapture,"),
            ("        quiet_see: QuietSee::BASELINE,", "        see_capture: SeeCapture::BASELINE,"),
            (
                "            quiet_see: self.quiet_see.with(feature),",
                "            see_capture: self.see_capture.with(feature),",
            ),
            ("            || self.quiet_see.has(feature)", "            || self.see_capture.has(feature)"),
            ("    pub quiet_see: QuietSeeCounters,", "    pub see_capture: SeeCaptureCounters,"),
            ("    Registration::of::<QuietSee>(),", "    Registration::of::<SeeCapture>(),"),
            ("pub mod see_capture;", "pub mod see_ordering;"),
            (
                "use see_capture::{SeeCapture, SeeCaptureCounters};",
                "use see_ordering::{SeeOrdering, SeeOrderingCounters};",
            ),
        ] {
            assert!(registry.contains(&format!("{after}\n{line}\n")), "src/prune/mod.rs: no `{line}` after `{after}`");
        }
        let added: Vec<&str> =
            registry.lines().filter(|line| line.contains("see_capture") || line.contains("SeeCapture")).collect();
        assert_eq!(added.len(), 8, "{added:?}");
        let without: Vec<&str> = registry.lines().filter(|line| !added.contains(line)).collect();
        assert_eq!(
            without,
            original("src/prune/mod.rs").lines().collect::<Vec<_>>(),
            "src/prune/mod.rs gains eight lines"
        );
        // search.rs gains the call at the move-pruning step, after quiet
        // SEE's, and the import beside the other techniques'.
        let search = text("src/search.rs");
        let call = "            || self.move_pruned_by::<NT, SeeCapture>(node, candidate)";
        let import = "use crate::prune::see_capture::SeeCapture;";
        assert!(
            search.contains(&format!("            || self.move_pruned_by::<NT, QuietSee>(node, candidate)\n{call}\n"))
        );
        assert!(search.contains(&format!("use crate::prune::reverse_futility::ReverseFutility;\n{import}\n")));
        // And its measured worth after quiet SEE's (`lab atlas-lines`).
        let measured =
            "            // Measured: full-without-see_capture is no ablation: no feature of see_capture is in full.";
        assert!(search.contains(&format!("            // Measured: full-without-quiet_see is no ablation: no feature of quiet_see is in full.\n{measured}\n")));
        let without: Vec<&str> =
            search.lines().filter(|line| *line != call && *line != import && *line != measured).collect();
        assert_eq!(without, original("src/search.rs").lines().collect::<Vec<_>>(), "search.rs gains three lines");
        assert!(text("docs/variants.md").contains("| `see-capture` | (to write) |\n| `full` |"));
        // The claim is the author's to write: none is made up.
        assert_eq!(
            text("variants/see-capture.toml"),
            "name = \"see-capture\"\ndescription = \"(to write). On `p003-3`.\"\nextends = \"p003-3\"\n\
             features = [\"see-capture\"]\nsource = \"Ethereal (SEE pruning of captures)\"\n\n[expect]\n\
             # (to write) What the source claims against `p003-3`, in the claims of\n\
             # lab/src/verdicts/claims/grammar.rs: a node change (nodes_pct = [low, high], or\n\
             # nodes = \"fewer\", \"more\", \"similar\" or \"same\"), a telemetry rate\n\
             # (\"see_capture.cut%\" = [low, high]), games, a suite. Usually\n\
             # a pruning searches less: nodes = \"fewer\".\n"
        );
        let file = text("src/prune/see_capture.rs");
        for expected in [
            "pub struct SeeCapture {\n    /// `see-capture`\n    pub enabled: bool,\n}",
            "    SeeCapture {\n        enabled: \"see-capture\" [] \"Ethereal (SEE pruning of captures)\" => \"(to write)\";",
            "const NAME: &'static str = \"see_capture\";",
            "fn counters_mut(all: &mut TechniqueCounters) -> &mut SeeCaptureCounters {\n        &mut all.see_capture\n    }",
            "fn prunes_move<T: TechniqueSet, NT: NodeType>(",
            "if !T::TECHNIQUES.see_capture.enabled",
            "SEE_CAPTURE_MAX_DEPTH: 6, 1, 12, 1;",
            // Depths to 12 in the plans' four buckets, by the engine's one bucket function.
            "pub by_depth: [u64; 4],",
            "counters.by_depth[crate::stats::depth_bucket(node.depth)] += 1;",
            "sc_b=[d1-3,d4-6,d7-9,d10+]",
            "\"see_capture: {} sc_b={}\"",
            "vec![(\"see_capture\", counters.attempts, counters.cutoffs)]",
        ] {
            assert!(file.contains(expected), "{expected}\nnot in\n{file}");
        }
        assert!(!file.contains("__"), "a placeholder is left:\n{file}");
        // The book's walk-through lists these files, and the two the check
        // writes (the snapshot, and the catalogue in docs/catalogue.md).
        let readme = original("docs/adding-a-technique.md");
        let listed = readme
            .split("<!-- new-technique files -->")
            .nth(1)
            .expect("docs/adding-a-technique.md lists the files")
            .split("```")
            .nth(1)
            .unwrap();
        let mut expected: Vec<String> =
            paths.iter().map(|path| path.replace("see-capture", "NAME").replace("see_capture", "NAME")).collect();
        expected.push("snapshots/NAME.snap".into());
        expected.push("docs/catalogue.md".into());
        expected.sort();
        let mut shown: Vec<String> =
            listed.lines().filter_map(|line| line.split_whitespace().last()).map(str::to_string).collect();
        shown.sort();
        assert_eq!(shown, expected);
        // A name that is taken is refused before anything is written.
        let taken = NewTechniqueArgs { name: "see-quiet".into(), ..args };
        assert!(super::edits(&repository, &taken)
            .unwrap_err()
            .to_string()
            .contains("variants/see-quiet.toml exists already"));
    }

    /// Copies `from` into `to`, folders whole.
    fn copy(from: &Path, to: &Path) {
        if from.is_dir() {
            std::fs::create_dir_all(to).unwrap();
            for entry in std::fs::read_dir(from).unwrap() {
                let entry = entry.unwrap();
                copy(&entry.path(), &to.join(entry.file_name()));
            }
        } else {
            std::fs::copy(from, to).unwrap();
        }
    }

    /// Every hook's skeleton compiles: the five are generated one after
    /// another into a copy of the engine's sources (the workspace's
    /// manifests, build script, sources, variant files and the book), and
    /// one `cargo check --lib` type-checks the engine with the five
    /// features on, build.rs reading the new variant files. Its target
    /// folder is kept: the dependencies are checked once (about 10 s on
    /// two cores), after which a run checks the engine alone.
    #[test]
    fn every_skeleton_compiles_in_a_copy_of_the_engine() {
        let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let engine = std::env::temp_dir().join(format!("prunelab-new-technique-{}", std::process::id()));
        std::fs::remove_dir_all(&engine).ok();
        for path in [
            "Cargo.toml",
            "Cargo.lock",
            "docs",
            "build.rs",
            "crates",
            "src",
            "variants",
            "benches",
            "lab/Cargo.toml",
            "lab/src",
            "ci/check-technique.sh",
        ] {
            std::fs::create_dir_all(engine.join(path).parent().unwrap()).unwrap();
            copy(&repository.join(path), &engine.join(path));
        }
        let mut features = Vec::new();
        for hook in Hook::value_variants() {
            let hook_name = hook.to_possible_value().unwrap().get_name().replace('_', "-");
            let args = NewTechniqueArgs {
                name: format!("skeleton-{hook_name}"),
                hook: *hook,
                parent: "p003-3".into(),
                source: None,
                summary: None,
            };
            for edit in edits(&engine, &args).unwrap() {
                std::fs::write(engine.join(&edit.path), &edit.text).unwrap();
            }
            features.push(args.name);
        }
        let target = crate::lab::Lab::for_tests().target_dir().join("lab").join("new-technique-check");
        let output = std::process::Command::new(std::env::var_os("CARGO").unwrap_or("cargo".into()))
            .current_dir(&engine)
            .args(["check", "--quiet", "--offline", "--lib", "--features", &features.join(",")])
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("PRUNELAB_VARIANT")
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "the skeletons of {features:?} do not compile:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        // ci/check-technique.sh refuses the skeleton until the author has
        // written what is marked, the claim among it (its first step, before
        // anything is built).
        let check_technique = || {
            let output = std::process::Command::new("bash")
                .args(["ci/check-technique.sh", "skeleton-prune-node"])
                .current_dir(&engine)
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr).to_string();
            (output.status.code(), stderr.lines().last().unwrap_or_default().to_string())
        };
        assert_eq!(
            check_technique(),
            (Some(1), "check-technique: write what is marked (to write) above first".to_string())
        );
        for path in ["src/prune/skeleton_prune_node.rs", "variants/skeleton-prune-node.toml", "docs/variants.md"] {
            let text = std::fs::read_to_string(engine.join(path)).unwrap();
            std::fs::write(engine.join(path), text.replace(TO_WRITE, "(written)")).unwrap();
        }
        assert_eq!(
            check_technique(),
            (
                Some(1),
                "check-technique: variants/skeleton-prune-node.toml claims nothing: write its claim under [expect] \
                 (lab/src/verdicts/claims/grammar.rs lists the claims)"
                    .to_string()
            )
        );
        std::fs::remove_dir_all(&engine).unwrap();
    }

    /// Each skeleton implements its hook with the signature the `Hooks`
    /// trait gives it, read from the trait: no template restates one.
    #[test]
    fn every_hook_has_a_skeleton_without_placeholders() {
        let names = Names::of("x-y").unwrap();
        let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let hooks_trait = std::fs::read_to_string(repository.join(HOOKS_TRAIT)).unwrap();
        for hook in Hook::value_variants() {
            let file = technique_file(&names, *hook, &hooks_trait, "s", "t").unwrap();
            assert!(!file.contains("__"), "{hook:?}");
            assert!(file.contains("impl Hooks for XY {"), "{hook:?}");
            assert_eq!(file.contains("by_depth"), hook_text(*hook).by_depth, "{hook:?}");
            assert!(!hook_text(*hook).body.contains("fn "), "{hook:?}: the template restates a signature");
            let signature = hook_signature(&hooks_trait, *hook).unwrap();
            let name = hook.to_possible_value().unwrap().get_name().to_string();
            assert!(signature.starts_with(&format!("    fn {name}<T: TechniqueSet")), "{signature}");
            assert!(hooks_trait.contains(&format!("    #[inline(always)]\n{signature}")), "{signature}");
            assert!(file.contains(&format!("impl Hooks for XY {{\n{signature}")), "{hook:?}");
            // A hook reads the node's position from its `Node` or `QNode`:
            // its file imports `Board` only where the signature names it.
            assert_eq!(file.contains("use cozy_chess::Board;\n"), signature.contains("&Board"), "{hook:?}");
        }
        // Only the extension hook is handed a position of its own: the child.
        let given_a_board: Vec<Hook> = Hook::value_variants()
            .iter()
            .copied()
            .filter(|hook| hook_signature(&hooks_trait, *hook).unwrap().contains("&Board"))
            .collect();
        assert_eq!(given_a_board, [Hook::ExtendMove]);
        assert!(hook_signature(&hooks_trait, Hook::ExtendMove).unwrap().contains("child: &Board"));
        assert!(hook_signature("pub(crate) trait Hooks {\n}\n", Hook::PruneNode)
            .unwrap_err()
            .to_string()
            .contains("the trait has no `prune_node`"));
    }
}
