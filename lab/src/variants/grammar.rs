//! The lab's grammar of a variant file's plan: the claims its plan makes
//! (`[expect]`), the plan's SPRT (`[sprt]`) and a witness (`[witness]`).
//! The engine reads a variant file's name, parent and features
//! (`prunelab::variants`) and keeps these sections as written; the lab
//! parses them here, refusing a malformed one with a message naming the
//! culprit.
//!
//! ```toml
//! name = "razor-r1"
//! description = "Razoring R1 on the plan-003 chain's end."
//! extends = "p003-3"            # the parent: what it is measured against
//! features = ["razor-r1"]       # added to the parent's
//! source = "plan 000, R1"
//!
//! [expect]                      # the plan's claims, against the parent
//! nodes_pct = [-5, -3]          # node change at depth 10, in percent
//! "razor.cut%" = [5, 10]        # a telemetry rate, in percent
//! "pvs.re%" = [0, 7]
//! "wac.solved" = "not-below-parent"
//!
//! [sprt]                        # the plan's SPRT for the phase
//! bounds = [0.0, 5.0]           # normalized Elo
//! tc = "10+0.1"                 # or fixed nodes: "N=25000"
//! hash = 8                      # MiB, when the plan sets it
//!
//! [witness]                     # where it acts, when the node-count
//! fen = "4k3/PPP5/8/8/8/8/5r2/1K3b2 b - - 0 1"  # suite at depth 10
//! depth = 8                     # does not show it
//! ```
//!
//! Claims (`[expect]`):
//! - `nodes_pct = [low, high]`: the node change at depth 10 against the
//!   parent, in percent (the range the plan gives);
//! - `nodes = "fewer" | "more" | "similar" | "same"`: the direction, where
//!   the plan gives only a direction ("similar": within ±2%; "same": the
//!   same tree, every position's node count the parent's, for a feature
//!   that changes only the work done per node);
//! - `"<line>.<key>%" = [low, high]`: a telemetry rate in percent, named
//!   after the engine's `info string <line>: ... <key>%=` (`razor.cut%`);
//! - `"<line>.<key>/iteration" = [low, high]`: a telemetry count per
//!   iteration of iterative deepening (the depths the search reported),
//!   summed over the positions: plan 003's "`asp.att`: average < 2
//!   re-searches per iteration" is `"asp.att/iteration" = [0, 2]`;
//! - `nodes_per_position = [low, high]`: the variant's own node count,
//!   averaged over the positions (not a change against the parent): plan
//!   003's "<100k at depth 10" from the start position is
//!   `nodes_per_position = { claim = [0, 100000], suite = "startpos" }`;
//! - `"<suite>.solved" = "not-below-parent"`: the tactical suite (`wac`,
//!   `arasan`, `zugzwang`) is solved at least as often as by the parent
//!   ("no zugzwang failures", "fewer tactical misses");
//! - `games = "gain" | "no-loss"`: games against the parent (`lab match`,
//!   `lab ab --sprt`, an OpenBench test) show a gain or no loss, optionally
//!   from the openings of one book: plan 000's "better endgame performance"
//!   is `games = { claim = "gain", book = "data/books/endgames.epd" }`.
//!
//! A node claim or a rate can be scoped to where its plan makes it
//! ([`Scope`]): its value is then a table, `nodes_pct = { claim = [-10,
//! -5], suite = "lab/suites/material-ahead.epd" }`, with `suite`, `depth`,
//! `depths = [low, high]` (main-search nodes of those depths), `moves_from`
//! (main-search nodes below the moves from that number on) and `from` (a
//! chain span's start, measured against instead of the parent); a games
//! claim takes only `book` and `tc` (the time control its games are
//! played at: by default the variant's `[sprt]` tc, else 10+0.1; fixed
//! nodes, `N=10000`, only where `tc` says so).

use std::path::Path;

use anyhow::{anyhow, bail, Result};
use prunelab::variants::{Value, Variant, VariantFile};

/// What a variant file's plan says: its SPRT, its claims and its witness.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    /// The plan's SPRT for this phase.
    pub sprt: Option<SprtPlan>,
    /// The plan's claims, in file order.
    pub claims: Vec<ScopedClaim>,
    /// A position and depth where the variant's search differs from its
    /// parent's, for a variant whose effect the node-count suite at depth
    /// 10 does not show (the engine's matrix test checks it).
    pub witness: Option<Witness>,
}

/// A variant's plan, parsed from its file's sections.
pub trait Planned {
    /// The plan. `Lab::open` has checked every variant's, so this one
    /// parses.
    fn plan(&self) -> Plan;
}

impl Planned for Variant {
    fn plan(&self) -> Plan {
        parse_plan(&self.file).expect("the lab checked every variant's plan when it loaded them")
    }
}

/// The plan of a variant file: its `[sprt]`, `[expect]` and `[witness]`.
pub fn parse_plan(file: &VariantFile) -> Result<Plan> {
    let get = |key: &str| file.sections.iter().find(|(name, _)| name == key).map(|(_, value)| value);
    let claims = match get("expect") {
        None => Vec::new(),
        Some(Value::Table(claims)) => {
            claims.iter().map(|(key, value)| parse_scoped_claim(key, value)).collect::<Result<Vec<_>>>()?
        }
        Some(other) => bail!("`expect` must be a table of claims, found {}", other.kind()),
    };
    let node_claims =
        claims.iter().filter(|scoped| matches!(scoped.claim, Claim::NodeChange { .. } | Claim::NodeDirection(_)));
    if node_claims.count() > 1 {
        bail!("expect: `nodes_pct` and `nodes` both claim the node change; keep one");
    }
    let witness = match get("witness") {
        None => None,
        Some(value @ Value::Table(_)) => Some(parse_witness(value)?),
        Some(other) => bail!("`witness` must be a table with `fen` and `depth`, found {}", other.kind()),
    };
    Ok(Plan { sprt: get("sprt").map(parse_sprt).transpose()?, claims, witness })
}

/// Every variant's plan parses, or the first that does not, named by its
/// file.
pub fn check_plans(variants: &[Variant]) -> Result<()> {
    for variant in variants {
        parse_plan(&variant.file).map_err(|error| anyhow!("variants/{}.toml: {error:#}", variant.name()))?;
    }
    Ok(())
}

/// The time control of a variant's games when neither `lab ab --tc` nor
/// the variant file (its claim's scope, its `[sprt]`) gives one.
pub const DEFAULT_TC: &str = "10+0.1";

/// A plan's SPRT for a phase: normalized-Elo bounds, time control, hash.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtPlan {
    pub bounds: (f64, f64),
    /// `base+increment` in seconds, as the plans write it: `10+0.1`.
    pub tc: String,
    pub hash_mb: Option<u32>,
}

/// Which way the node count goes, where a plan gives only that.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Fewer,
    More,
    Similar,
    /// No change at all: the same tree, only faster or slower.
    Same,
}

/// "Similar" node counts differ by at most this much, in percent.
pub const SIMILAR_NODES_PCT: f64 = 2.0;

impl Direction {
    /// Whether a node change (in percent) goes this way.
    pub fn holds_for(self, change_pct: f64) -> bool {
        match self {
            Direction::Fewer => change_pct < 0.0,
            Direction::More => change_pct > 0.0,
            Direction::Similar => change_pct.abs() <= SIMILAR_NODES_PCT,
            Direction::Same => change_pct == 0.0,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Direction::Fewer => "fewer",
            Direction::More => "more",
            Direction::Similar => "similar",
            Direction::Same => "same",
        }
    }
}

/// One claim of a plan about a variant, against its parent.
#[derive(Clone, Debug, PartialEq)]
pub enum Claim {
    /// `nodes_pct`: the node change at depth 10, in percent.
    NodeChange { low: f64, high: f64 },
    /// `nodes`: the node change's direction.
    NodeDirection(Direction),
    /// A telemetry rate in percent: `line` and `key` of `<line>.<key>%`.
    Rate { line: String, key: String, low: f64, high: f64 },
    /// A telemetry count per search iteration: `line` and `key` of
    /// `<line>.<key>/iteration`.
    PerIteration { line: String, key: String, low: f64, high: f64 },
    /// `nodes_per_position`: the variant's mean node count per position.
    NodesPerPosition { low: f64, high: f64 },
    /// The suite is solved at least as often as by the parent.
    SolvedNotBelowParent { suite: String },
    /// Games against the parent show a gain, or no loss.
    Games(GamesClaim),
}

/// What games against the parent are claimed to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamesClaim {
    /// Stronger: the Elo interval above 0, or an SPRT for a gain accepted.
    Gain,
    /// Not weaker: a non-regression SPRT accepted, or a gain.
    NoLoss,
}

/// Where a claim is judged, as far as its plan says: without a scope, on
/// the report's suite (the verdict suite) at depth 10, on all main-search
/// and quiescence nodes, against the parent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scope {
    /// The positions: a suite's name or an EPD file (`lab nodes --suite`).
    pub suite: Option<String>,
    /// The search depth, when not 10.
    pub depth: Option<u32>,
    /// Only main-search nodes of these remaining depths (the engine's
    /// `nodes: by_depth=`): "additional pruning at depths 4-7".
    pub depths: Option<(u32, u32)>,
    /// Only main-search nodes below moves numbered this or later in their
    /// parent's move loop (`nodes: by_move=`): "on late moves".
    pub moves_from: Option<usize>,
    /// The variant the change is measured from, when not the parent: the
    /// start of a chain span ("phase 3 in total", from `p002-2.4`).
    pub from: Option<String>,
    /// The opening book of a games claim's games: a file, matched by its
    /// name without folder and extension.
    pub book: Option<String>,
    /// The time control of a games claim's games, when not the variant's
    /// `[sprt]` one.
    pub tc: Option<String>,
}

/// The keys of a scoped claim's table, besides `claim`.
const SCOPE_KEYS: [&str; 7] = ["suite", "depth", "depths", "moves_from", "from", "book", "tc"];

impl Scope {
    /// Whether it counts only some of the nodes (by depth or by move).
    pub fn counts_part(&self) -> bool {
        self.depths.is_some() || self.moves_from.is_some()
    }

    /// The search depth the claim is judged at.
    pub fn search_depth(&self) -> u32 {
        self.depth.unwrap_or(CLAIM_DEPTH)
    }

    /// The nodes it counts, when only some: ` of remaining depths 4-7`,
    /// ` below moves 4 and later`.
    pub fn part_text(&self) -> String {
        match (self.depths, self.moves_from) {
            (Some((low, high)), _) => format!(" of remaining depths {low}-{high}"),
            (None, Some(from)) => format!(" below moves {from} and later"),
            (None, None) => String::new(),
        }
    }

    /// Where, besides the depth: ` on material-ahead`, `, from p002-2.4`,
    /// ` from the openings of endgames.epd`.
    pub fn place_text(&self) -> String {
        let mut text = String::new();
        if let Some(book) = &self.book {
            let name = Path::new(book).file_name().and_then(|name| name.to_str()).unwrap_or(book);
            text.push_str(&format!(" from the openings of {name}"));
        }
        if let Some(suite) = &self.suite {
            text.push_str(&format!(" on {suite}"));
        }
        if let Some(from) = &self.from {
            text.push_str(&format!(", from {from}"));
        }
        text
    }

    /// The whole scope, for messages.
    pub fn text(&self) -> String {
        let depth = self.depth.map_or(String::new(), |depth| format!(" at depth {depth}"));
        format!("{}{depth}{}", self.part_text(), self.place_text())
    }
}

/// A claim and where it is judged.
#[derive(Clone, Debug, PartialEq)]
pub struct ScopedClaim {
    pub claim: Claim,
    pub scope: Scope,
}

impl From<Claim> for ScopedClaim {
    fn from(claim: Claim) -> ScopedClaim {
        ScopedClaim { claim, scope: Scope::default() }
    }
}

impl ScopedClaim {
    pub fn key(&self) -> String {
        self.claim.key()
    }

    /// What the claim says, with its scope.
    pub fn text(&self) -> String {
        let depth = self.scope.search_depth();
        let nodes = match self.scope.part_text().as_str() {
            "" => "nodes".to_string(),
            part => format!("main-search nodes{part}"),
        };
        let claim = match &self.claim {
            Claim::NodeChange { low, high } => format!("{low:+}% to {high:+}% {nodes} at depth {depth}"),
            Claim::NodeDirection(Direction::Similar) => {
                format!("similar {nodes} at depth {depth} (within ±{SIMILAR_NODES_PCT}%)")
            }
            Claim::NodeDirection(direction) => format!("{} {nodes} at depth {depth}", direction.name()),
            Claim::NodesPerPosition { low, high } => format!("{low} to {high} nodes per position at depth {depth}"),
            other => other.text(),
        };
        let place = self.scope.place_text();
        match &self.claim {
            Claim::NodeChange { .. } | Claim::NodeDirection(_) | Claim::NodesPerPosition { .. } => {
                format!("{claim}{place}")
            }
            _ => format!(
                "{claim}{}{place}",
                self.scope.depth.map_or(String::new(), |depth| format!(" at depth {depth}"))
            ),
        }
    }
}

/// The depth node claims are judged at unless scoped to another.
pub const CLAIM_DEPTH: u32 = 10;

/// The verdicts' node suite, and where a claim that names no suite is
/// measured.
pub const VERDICT_SUITE: &str = "verdict";

/// The nodes per position a solved claim is judged at, over its whole
/// suite (`lab ab`'s `--tactics-nodes`).
pub const CLAIM_TACTICS_NODES: u64 = 50_000;

/// A tactics run's limit where solved claims are judged: `nodes 50000`.
pub fn claim_tactics_limit() -> String {
    format!("nodes {CLAIM_TACTICS_NODES}")
}

/// The tactical suites a solved claim may name.
pub const CLAIM_SUITES: [&str; 3] = ["wac", "arasan", "zugzwang"];

impl Claim {
    /// The claim's key in `[expect]`.
    pub fn key(&self) -> String {
        match self {
            Claim::NodeChange { .. } => NODES_PCT.to_string(),
            Claim::NodeDirection(_) => NODES.to_string(),
            Claim::Rate { line, key, .. } => format!("{line}.{key}%"),
            Claim::PerIteration { line, key, .. } => format!("{line}.{key}{PER_ITERATION}"),
            Claim::NodesPerPosition { .. } => NODES_PER_POSITION.to_string(),
            Claim::SolvedNotBelowParent { suite } => format!("{suite}.solved"),
            Claim::Games(_) => GAMES.to_string(),
        }
    }

    /// What the claim says, for verdicts and lists.
    pub fn text(&self) -> String {
        match self {
            Claim::NodeChange { low, high } => format!("{low:+}% to {high:+}% nodes at depth 10"),
            Claim::NodeDirection(Direction::Similar) => {
                format!("similar nodes at depth 10 (within ±{SIMILAR_NODES_PCT}%)")
            }
            Claim::NodeDirection(direction) => format!("{} nodes at depth 10", direction.name()),
            Claim::Rate { line, key, low, high } => format!("{line} {key}% between {low}% and {high}%"),
            Claim::PerIteration { line, key, low, high } => {
                format!("{line} {key} per iteration between {low} and {high}")
            }
            Claim::NodesPerPosition { low, high } => format!("{low} to {high} nodes per position at depth 10"),
            Claim::SolvedNotBelowParent { suite } => format!("{suite} solved no less often than by the parent"),
            Claim::Games(GamesClaim::Gain) => "games against the parent show a gain".to_string(),
            Claim::Games(GamesClaim::NoLoss) => "games against the parent show no loss".to_string(),
        }
    }
}

/// A position (FEN) and a depth.
#[derive(Clone, Debug, PartialEq)]
pub struct Witness {
    pub fen: String,
    pub depth: i32,
}

/// The node-change claims' keys in `[expect]`.
pub const NODES_PCT: &str = "nodes_pct";
pub const NODES: &str = "nodes";
pub const NODES_PER_POSITION: &str = "nodes_per_position";
pub const GAMES: &str = "games";

/// The suffix of a per-iteration claim's key: `asp.att/iteration`.
pub const PER_ITERATION: &str = "/iteration";

fn is_word(word: &str) -> bool {
    !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn range(value: &Value, what: &str) -> Result<(f64, f64)> {
    let (low, high) = number_pair(value, what)?;
    if low > high {
        bail!("{what}: the range [{low}, {high}] is upside down");
    }
    Ok((low, high))
}

/// One `[expect]` entry as a claim: its value, or a table of the value
/// (`claim`) and its scope (`suite`, `depth`, `depths`, `moves_from`,
/// `from`).
fn parse_scoped_claim(key: &str, value: &Value) -> Result<ScopedClaim> {
    let Value::Table(entries) = value else { return Ok(parse_claim(key, value)?.into()) };
    let what = format!("expect.{key}");
    if let Some((name, _)) = entries.iter().find(|(name, _)| name != "claim" && !SCOPE_KEYS.contains(&name.as_str())) {
        bail!("{what}.{name}: a scoped claim has `claim` and {}", SCOPE_KEYS.join(", "));
    }
    let get = |name: &str| entries.iter().find(|(key, _)| key == name).map(|(_, value)| value);
    let claim = parse_claim(key, get("claim").ok_or_else(|| anyhow!("{what}: a scoped claim needs `claim`"))?)?;
    let whole = |value: &Value, name: &str, low: i64, high: i64| match value {
        Value::Integer(number) if (low..=high).contains(number) => Ok(*number),
        _ => bail!("{what}.{name} must be a whole number from {low} to {high}"),
    };
    let max_depth = prunelab::score::MAX_PLY as i64 - 1;
    let depths = get("depths")
        .map(|value| -> Result<(u32, u32)> {
            let (low, high) = range(value, &format!("{what}.depths"))?;
            let last = prunelab::stats::NODE_DEPTHS as f64 - 1.0;
            if low < 1.0 || high > last || low.fract() != 0.0 || high.fract() != 0.0 {
                bail!("{what}.depths: whole depths from 1 to {last} (the engine counts deeper ones together)");
            }
            Ok((low as u32, high as u32))
        })
        .transpose()?;
    let moves_from = get("moves_from")
        .map(|value| -> Result<usize> {
            let edges = prunelab::stats::MOVE_NUMBER_EDGES;
            match value {
                Value::Integer(number) if edges.iter().any(|&edge| edge as i64 == *number) => Ok(*number as usize),
                _ => bail!("{what}.moves_from must be where the engine's move buckets start: {edges:?}"),
            }
        })
        .transpose()?;
    let scope = Scope {
        suite: get("suite").map(|value| string(value, &format!("{what}.suite"))).transpose()?,
        depth: get("depth").map(|value| whole(value, "depth", 1, max_depth)).transpose()?.map(|depth| depth as u32),
        depths,
        moves_from,
        from: get("from").map(|value| string(value, &format!("{what}.from"))).transpose()?,
        book: get("book").map(|value| string(value, &format!("{what}.book"))).transpose()?,
        tc: get("tc").map(|value| string(value, &format!("{what}.tc"))).transpose()?,
    };
    let games_claim = matches!(claim, Claim::Games(_));
    if games_claim && scope != (Scope { book: scope.book.clone(), tc: scope.tc.clone(), ..Scope::default() }) {
        bail!("{what}: games are scoped only by their `book` and `tc`");
    }
    if let Some(tc) = &scope.tc {
        if !games_claim {
            bail!("{what}.tc: only a games claim has a time control");
        }
        tc.parse::<games::matches::clock::TimeControl>().map_err(|error| anyhow!("{what}.tc: {error}"))?;
    }
    if scope.book.is_some() && !games_claim {
        bail!("{what}.book: only a games claim has a book");
    }
    let node_claim = matches!(claim, Claim::NodeChange { .. } | Claim::NodeDirection(_));
    if scope.counts_part() && !node_claim {
        bail!("{what}: only a node change claim counts nodes by depth or by move");
    }
    if scope.from.is_some() && !node_claim {
        bail!("{what}.from: only a node change claim is measured from a chain span's start");
    }
    if matches!(claim, Claim::SolvedNotBelowParent { .. }) {
        bail!("{what}: a solved claim is the tactical suite's, with the suite's own limits; it takes no scope");
    }
    if scope.depths.is_some() && scope.moves_from.is_some() {
        bail!("{what}: the engine counts nodes by depth and by move apart; scope a claim to one of them");
    }
    Ok(ScopedClaim { claim, scope })
}

/// One claim's value.
fn parse_claim(key: &str, value: &Value) -> Result<Claim> {
    let what = format!("expect.{key}");
    if key == NODES_PCT {
        let (low, high) = range(value, &what)?;
        return Ok(Claim::NodeChange { low, high });
    }
    if key == NODES_PER_POSITION {
        let (low, high) = range(value, &what)?;
        if low < 0.0 {
            bail!("{what}: a node count is not negative");
        }
        return Ok(Claim::NodesPerPosition { low, high });
    }
    if key == GAMES {
        return match value {
            Value::String(text) if text == "gain" => Ok(Claim::Games(GamesClaim::Gain)),
            Value::String(text) if text == "no-loss" => Ok(Claim::Games(GamesClaim::NoLoss)),
            _ => bail!("{what} must be \"gain\" or \"no-loss\""),
        };
    }
    if key == NODES {
        let direction = match value {
            Value::String(text) if text == "fewer" => Direction::Fewer,
            Value::String(text) if text == "more" => Direction::More,
            Value::String(text) if text == "similar" => Direction::Similar,
            Value::String(text) if text == "same" => Direction::Same,
            _ => bail!("{what} must be \"fewer\", \"more\", \"similar\" or \"same\""),
        };
        return Ok(Claim::NodeDirection(direction));
    }
    if let Some(suite) = key.strip_suffix(".solved") {
        if !CLAIM_SUITES.contains(&suite) {
            bail!("{what}: the suite must be one of {}", CLAIM_SUITES.join(", "));
        }
        return match value {
            Value::String(text) if text == "not-below-parent" => {
                Ok(Claim::SolvedNotBelowParent { suite: suite.to_string() })
            }
            _ => bail!("{what} must be \"not-below-parent\""),
        };
    }
    if let Some((line, count_key)) = key.strip_suffix(PER_ITERATION).and_then(|count| count.split_once('.')) {
        if is_word(line) && is_word(count_key) {
            let (low, high) = range(value, &what)?;
            if low < 0.0 {
                bail!("{what}: a count per iteration is not negative");
            }
            return Ok(Claim::PerIteration { line: line.to_string(), key: count_key.to_string(), low, high });
        }
    }
    if let Some((line, rate_key)) = key.strip_suffix('%').and_then(|rate| rate.split_once('.')) {
        if is_word(line) && is_word(rate_key) {
            let (low, high) = range(value, &what)?;
            if low < 0.0 || high > 100.0 {
                bail!("{what}: a rate is a percentage, 0 to 100");
            }
            return Ok(Claim::Rate { line: line.to_string(), key: rate_key.to_string(), low, high });
        }
    }
    bail!(
        "{what}: a claim is `nodes_pct`, `nodes`, `nodes_per_position`, a telemetry rate such as \
         `\"razor.cut%\"`, a count per iteration such as `\"asp.att/iteration\"`, a suite's `\"wac.solved\"` or \
         `games`"
    )
}

/// An SPRT's time control: `<base>+<increment>` in seconds, such as
/// `10+0.1`, or `N=<nodes>`, a fixed number of nodes a move as OpenBench
/// writes it (which `lab openbench` sends; the lab's own matches play
/// clocks only).
pub fn check_time_control(tc: &str) -> Result<()> {
    if let Some(nodes) = tc.strip_prefix("N=") {
        if !nodes.chars().all(|c| c.is_ascii_digit()) || nodes.parse::<u64>().map_or(true, |n| n == 0) {
            bail!("'{tc}': N= takes a positive whole number of nodes, such as N=25000");
        }
        return Ok(());
    }
    let positive = |text: &str, allow_zero: bool| {
        text.parse::<f64>().is_ok_and(|x| x.is_finite() && (x > 0.0 || allow_zero && x == 0.0))
    };
    if !tc.split_once('+').is_some_and(|(base, increment)| positive(base, false) && positive(increment, true)) {
        bail!("'{tc}' is not base+increment in seconds, such as 10+0.1, nor fixed nodes, such as N=25000");
    }
    Ok(())
}

/// `[sprt]`: bounds, time control, hash.
fn parse_sprt(value: &Value) -> Result<SprtPlan> {
    let Value::Table(entries) = value else { bail!("`sprt` must be a table with `bounds` and `tc`") };
    let get = |key: &str| entries.iter().find(|(name, _)| name == key).map(|(_, value)| value);
    if let Some((key, _)) = entries.iter().find(|(key, _)| !["bounds", "tc", "hash"].contains(&key.as_str())) {
        bail!("sprt.{key}: an SPRT has `bounds`, `tc` and `hash`");
    }
    let bounds = number_pair(get("bounds").ok_or_else(|| anyhow!("sprt: missing `bounds`"))?, "sprt.bounds")?;
    if bounds.0 >= bounds.1 {
        bail!("sprt.bounds: [{}, {}] must have ELO0 below ELO1", bounds.0, bounds.1);
    }
    let tc = string(get("tc").ok_or_else(|| anyhow!("sprt: missing `tc`"))?, "sprt.tc")?;
    check_time_control(&tc).map_err(|error| anyhow!("sprt.tc: {error}"))?;
    let hash_mb = match get("hash") {
        None => None,
        Some(Value::Integer(mb)) if (1..=65536).contains(mb) => Some(*mb as u32),
        Some(_) => bail!("sprt.hash must be a whole number of MiB from 1 to 65536"),
    };
    Ok(SprtPlan { bounds, tc, hash_mb })
}

fn number(value: &Value, what: &str) -> Result<f64> {
    match value {
        Value::Integer(number) => Ok(*number as f64),
        Value::Float(number) if number.is_finite() => Ok(*number),
        other => bail!("{what}: expected a finite number, found {}", other.kind()),
    }
}

fn number_pair(value: &Value, what: &str) -> Result<(f64, f64)> {
    match value {
        Value::Array(items) if items.len() == 2 => Ok((number(&items[0], what)?, number(&items[1], what)?)),
        _ => bail!("{what} must be a list of two numbers"),
    }
}

fn string(value: &Value, what: &str) -> Result<String> {
    match value {
        Value::String(text) => Ok(text.clone()),
        other => bail!("`{what}` must be a string, found {}", other.kind()),
    }
}

fn parse_witness(table: &Value) -> Result<Witness> {
    let Value::Table(entries) = table else { bail!("`witness` must be a table") };
    let get = |key: &str| entries.iter().find(|(name, _)| name == key).map(|(_, value)| value);
    if let Some((key, _)) = entries.iter().find(|(key, _)| key != "fen" && key != "depth") {
        bail!("witness.{key}: a witness has `fen` and `depth`");
    }
    let fen = string(get("fen").ok_or_else(|| anyhow!("witness: missing `fen`"))?, "witness.fen")?;
    prunelab::position::Position::from_fen(&fen).map_err(|error| anyhow!("witness.fen: {error}"))?;
    let depth = match get("depth") {
        Some(Value::Integer(depth)) if (1..=prunelab::score::MAX_PLY as i64 - 1).contains(depth) => *depth as i32,
        _ => bail!("witness.depth must be a whole number from 1 to {}", prunelab::score::MAX_PLY - 1),
    };
    Ok(Witness { fen, depth })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A variant file's plan from its value tree, through the engine's
    /// reader first, as the lab reads the repository's files.
    fn parse_table(table: &Value) -> Result<Plan> {
        parse_plan(&prunelab::variants::parse_table(table)?)
    }

    fn table(entries: &[(&str, Value)]) -> Value {
        Value::Table(entries.iter().map(|(key, value)| (key.to_string(), value.clone())).collect())
    }

    fn text(value: &str) -> Value {
        Value::String(value.into())
    }

    fn pair(low: i64, high: i64) -> Value {
        Value::Array(vec![Value::Integer(low), Value::Integer(high)])
    }

    #[test]
    fn files_parse_with_their_claims() {
        let claims = table(&[
            ("nodes_pct", pair(-5, -3)),
            ("razor.cut%", pair(5, 10)),
            ("zugzwang.solved", text("not-below-parent")),
        ]);
        let sprt = table(&[
            ("bounds", Value::Array(vec![Value::Integer(0), Value::Float(5.0)])),
            ("tc", text("10+0.1")),
            ("hash", Value::Integer(8)),
        ]);
        let parsed = parse_table(&table(&[
            ("name", text("x")),
            ("extends", text("baseline")),
            ("features", Value::Array(vec![text("lmp")])),
            ("sprt", sprt),
            ("expect", claims),
        ]))
        .unwrap();
        assert_eq!(parsed.sprt, Some(SprtPlan { bounds: (0.0, 5.0), tc: "10+0.1".into(), hash_mb: Some(8) }));
        // Fixed nodes a move, as OpenBench writes them.
        let fixed_nodes = table(&[("bounds", pair(0, 5)), ("tc", text("N=25000"))]);
        let fixed_nodes_file = parse_table(&table(&[("name", text("x")), ("sprt", fixed_nodes)])).unwrap();
        assert_eq!(fixed_nodes_file.sprt, Some(SprtPlan { bounds: (0.0, 5.0), tc: "N=25000".into(), hash_mb: None }));
        assert_eq!(
            parsed.claims,
            [
                Claim::NodeChange { low: -5.0, high: -3.0 }.into(),
                Claim::Rate { line: "razor".into(), key: "cut".into(), low: 5.0, high: 10.0 }.into(),
                ScopedClaim::from(Claim::SolvedNotBelowParent { suite: "zugzwang".into() }),
            ]
        );
        assert_eq!(parsed.claims[1].key(), "razor.cut%");
        assert_eq!(parsed.claims[0].text(), "-5% to -3% nodes at depth 10");
        let direction = parse_table(&table(&[("name", text("y")), ("expect", table(&[("nodes", text("more"))]))]));
        assert_eq!(direction.unwrap().claims, [ScopedClaim::from(Claim::NodeDirection(Direction::More))]);
        assert!(Direction::Similar.holds_for(-1.9) && !Direction::Similar.holds_for(2.1));
        assert!(Direction::Fewer.holds_for(-0.1) && !Direction::Fewer.holds_for(0.0));
        assert!(
            Direction::Same.holds_for(0.0) && !Direction::Same.holds_for(0.01) && !Direction::Same.holds_for(-0.01)
        );
    }

    #[test]
    fn claims_carry_their_scope() {
        let scoped = |claim: Value, scope: &[(&str, Value)]| {
            let mut entries = vec![("claim", claim)];
            entries.extend(scope.iter().cloned());
            parse_table(&table(&[("name", text("x")), ("expect", table(&[("nodes_pct", table(&entries))]))]))
                .map(|file| file.claims[0].clone())
                .map_err(|error| error.to_string())
        };
        let ahead = scoped(pair(-10, -5), &[("suite", text("material-ahead")), ("depth", Value::Integer(12))]).unwrap();
        assert_eq!(ahead.claim, Claim::NodeChange { low: -10.0, high: -5.0 });
        assert_eq!(ahead.scope, Scope { suite: Some("material-ahead".into()), depth: Some(12), ..Default::default() });
        assert_eq!(ahead.text(), "-10% to -5% nodes at depth 12 on material-ahead");
        let depths = scoped(pair(-15, -10), &[("depths", pair(3, 6))]).unwrap();
        assert_eq!(depths.text(), "-15% to -10% main-search nodes of remaining depths 3-6 at depth 10");
        let late = scoped(pair(-25, -15), &[("moves_from", Value::Integer(4))]).unwrap();
        assert_eq!(late.scope.moves_from, Some(4));
        let span = scoped(pair(-15, -10), &[("from", text("p002-2.4"))]).unwrap();
        assert_eq!(span.text(), "-15% to -10% nodes at depth 10, from p002-2.4");
        // What a scope cannot be.
        assert!(scoped(pair(-1, 0), &[("moves_from", Value::Integer(5))]).unwrap_err().contains("[1, 2, 3, 4, 8, 16]"));
        assert!(scoped(pair(-1, 0), &[("depths", pair(0, 6))]).unwrap_err().contains("expect.nodes_pct.depths"));
        assert!(scoped(pair(-1, 0), &[("depths", pair(3, 6)), ("moves_from", Value::Integer(4))])
            .unwrap_err()
            .contains("one of them"));
        assert!(scoped(pair(-1, 0), &[("positions", text("all"))]).unwrap_err().contains("expect.nodes_pct.positions"));
        let no_claim = parse_table(&table(&[
            ("name", text("x")),
            ("expect", table(&[("nodes_pct", table(&[("suite", text("seeds"))]))])),
        ]));
        assert!(no_claim.unwrap_err().to_string().contains("needs `claim`"));
        let rate = parse_table(&table(&[
            ("name", text("x")),
            ("expect", table(&[("razor.cut%", table(&[("claim", pair(5, 10)), ("depths", pair(3, 6))]))])),
        ]));
        assert!(rate.unwrap_err().to_string().contains("only a node change claim"));
    }

    /// The claims of a file whose `[expect]` is `entries`, or why it is refused.
    fn claims(entries: &[(&str, Value)]) -> Result<Vec<ScopedClaim>, String> {
        parse_table(&table(&[("name", text("x")), ("expect", table(entries))]))
            .map(|file| file.claims)
            .map_err(|error| error.to_string())
    }

    #[test]
    fn plan_targets_are_claims_of_counts_per_iteration_and_per_position() {
        let per_iteration = claims(&[("asp.att/iteration", pair(0, 2))]).unwrap();
        assert_eq!(
            per_iteration[0].claim,
            Claim::PerIteration { line: "asp".into(), key: "att".into(), low: 0.0, high: 2.0 }
        );
        assert_eq!(per_iteration[0].key(), "asp.att/iteration");
        assert_eq!(per_iteration[0].text(), "asp att per iteration between 0 and 2");
        let startpos = table(&[("claim", pair(0, 100000)), ("suite", text("startpos"))]);
        let count = claims(&[("nodes_per_position", startpos), ("nodes", text("fewer"))]).unwrap();
        assert_eq!(count[0].claim, Claim::NodesPerPosition { low: 0.0, high: 100000.0 });
        assert_eq!(count[0].text(), "0 to 100000 nodes per position at depth 10 on startpos");
        // It is the variant's own count, not a change: no parts, no span.
        let span = table(&[("claim", pair(0, 100000)), ("from", text("p002-2.4"))]);
        assert!(claims(&[("nodes_per_position", span)]).unwrap_err().contains("only a node change claim"));
        assert!(claims(&[("nodes_per_position", pair(-5, 100))]).unwrap_err().contains("not negative"));
        assert!(claims(&[("asp.att/iteration", pair(-1, 2))]).unwrap_err().contains("not negative"));
        assert!(claims(&[("asp/iteration", pair(0, 2))]).unwrap_err().contains("asp.att/iteration"));
    }

    #[test]
    fn games_claims_name_their_book() {
        let endgames = table(&[("claim", text("gain")), ("book", text("data/books/endgames.epd"))]);
        let gain = claims(&[("games", endgames)]).unwrap();
        assert_eq!(gain[0].claim, Claim::Games(GamesClaim::Gain));
        assert_eq!(gain[0].scope.book.as_deref(), Some("data/books/endgames.epd"));
        assert_eq!(gain[0].text(), "games against the parent show a gain from the openings of endgames.epd");
        let no_loss = claims(&[("games", text("no-loss"))]).unwrap();
        assert_eq!(no_loss[0].text(), "games against the parent show no loss");
        assert!(claims(&[("games", text("better"))]).unwrap_err().contains("\"gain\" or \"no-loss\""));
        let deep = table(&[("claim", text("gain")), ("depth", Value::Integer(12))]);
        assert!(claims(&[("games", deep)]).unwrap_err().contains("only by their `book`"));
        let booked = table(&[("claim", pair(-5, -3)), ("book", text("endgames.epd"))]);
        assert!(claims(&[("nodes_pct", booked)]).unwrap_err().contains("only a games claim has a book"));
    }

    #[test]
    fn malformed_files_are_refused_with_the_reason() {
        let error = |entries: &[(&str, Value)]| parse_table(&table(entries)).unwrap_err().to_string();
        let name = ("name", text("x"));
        assert!(error(&[name.clone(), ("expect", table(&[("nodez", pair(1, 2))]))]).contains("expect.nodez"));
        assert!(error(&[name.clone(), ("expect", table(&[("nodes", text("less"))]))]).contains("\"fewer\""));
        let both = table(&[("nodes", text("more")), ("nodes_pct", pair(1, 2))]);
        assert!(error(&[name.clone(), ("expect", both)]).contains("keep one"));
        assert!(error(&[name.clone(), ("expect", table(&[("chess960.solved", text("not-below-parent"))]))])
            .contains("suite must be"));
        assert!(error(&[name.clone(), ("expect", table(&[("razor.cut%", pair(5, 200))]))]).contains("0 to 100"));
        for (tc, refusal) in [
            ("10", "sprt.tc: '10' is not base+increment in seconds, such as 10+0.1, nor fixed nodes, such as N=25000"),
            ("N=0", "sprt.tc: 'N=0': N= takes a positive whole number of nodes, such as N=25000"),
            ("N=+5", "sprt.tc: 'N=+5': N= takes a positive whole number of nodes, such as N=25000"),
        ] {
            let bad_tc = table(&[("bounds", pair(0, 5)), ("tc", text(tc))]);
            assert_eq!(error(&[name.clone(), ("sprt", bad_tc)]), refusal);
        }
        let upside_down = table(&[("bounds", pair(5, 0)), ("tc", text("10+0.1"))]);
        assert!(error(&[name.clone(), ("sprt", upside_down)]).contains("ELO0 below ELO1"));
        assert!(error(&[name.clone(), ("sprt", pair(0, 5))]).contains("`sprt` must be a table"));
        assert!(error(&[name.clone(), ("expect", table(&[("nodes_pct", pair(2, 1))]))]).contains("upside down"));
        assert!(error(&[name.clone(), ("features", Value::Integer(3))]).contains("list of strings"));
        assert!(error(&[("features", Value::Array(vec![]))]).contains("missing `name`"));
        assert!(error(&[name.clone(), ("extend", text("baseline"))]).contains("unknown key `extend`"));
        let witness = |entries: &[(&str, Value)]| table(entries);
        let bad_fen = witness(&[("fen", text("8/8/8/8/8/8/8/8 w - - 0 1")), ("depth", Value::Integer(8))]);
        assert!(error(&[name.clone(), ("witness", bad_fen)]).contains("witness.fen"));
        let no_depth = witness(&[("fen", text("4k3/8/8/8/8/8/8/4K3 w - - 0 1")), ("depth", Value::Integer(0))]);
        assert!(error(&[name.clone(), ("witness", no_depth)]).contains("witness.depth"));
        let nan = Value::Array(vec![Value::Float(f64::NAN), Value::Integer(1)]);
        assert!(error(&[name, ("sprt", table(&[("bounds", nan), ("tc", text("10+0.1"))]))]).contains("finite number"));
    }

    #[test]
    fn the_repository_variants_plans_parse() {
        check_plans(&prunelab::variants::load().unwrap()).unwrap();
        let mut broken = prunelab::variants::load().unwrap();
        broken[0].file.sections = vec![("expect".into(), table(&[("nodez", pair(1, 2))]))];
        let error = check_plans(&broken).unwrap_err().to_string();
        assert!(error.starts_with(&format!("variants/{}.toml: expect.nodez", broken[0].name())), "{error}");
    }
}
