//! The engine's telemetry (`info string <subject>: key=value ...`, printed
//! with the `SearchStats` option) as numbers, summed over a suite, and the
//! rates the plans quote, recomputed from the sums rather than averaged.
//!
//! Any engine that prints the plans' formats is read the same way.
//! prunelab prints one line per subject (`null: att=X cut=Y cut%=Z.Z%`);
//! SeaJay, the engine the plans were written for, prints all of them on
//! one line (`SearchStats: depth=8 ... tt: probes= hits= hit%= ... null:
//! att= cut= cut%= ... razor: att= cut= cut%= skips(tact=,tt=,eg=)
//! razor_b=[a,b] asp: att= low= high= fut_b=[...] ...`). So a line whose
//! first word is `<subject>:` is read word by word: a `<subject>:` word
//! starts a subject, `key=value` belongs to the subject before it, and
//! `group(k=v,...)` gives `group_k`. The plans' bucket lists (`fut_b`,
//! `fut_eff_b`, `mcp_b`, `razor_b`) are filed under their technique
//! wherever they stand. SeaJay's names for the plans' counters
//! are read as ours ([`ALIASES`]), and a rate printed without its count
//! (SeaJay's `pvs: scout= re%=`) gives the count back from the whole, to
//! the rate's printed precision, listed in `derived`. Lines that are not
//! telemetry (text, or another engine's `[Time Management] ...`) give
//! nothing.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

/// SeaJay's names for the counters prunelab names otherwise: (theirs, ours).
pub const ALIASES: [(&str, &str); 3] = [
    // Zero-window searches of PVS ("scout" searches).
    ("pvs.scout", "pvs.zw"),
    // Plan 000's razorTacticalSkips.
    ("razor.skips_tact", "razor.tactical"),
    // Nodes cut by the TT score.
    ("tt.cutoffs", "tt.cut"),
];

/// The plans' bucket lists and the subject each belongs to, wherever an
/// engine prints it.
const PLAN_BUCKETS: [(&str, &str); 4] =
    [("fut_b", "fut"), ("fut_eff_b", "fut"), ("mcp_b", "mcp"), ("razor_b", "razor")];

/// One search's counters, or a suite's sums: `razor.att` → 120,
/// `razor.razor_b` → [70, 50]. Percentages are not kept; [`rate`] derives
/// them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Telemetry {
    pub counts: BTreeMap<String, u64>,
    pub buckets: BTreeMap<String, Vec<u64>>,
    /// Counts the engine did not print, taken back from a printed rate.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub derived: BTreeSet<String>,
}

/// A word that starts a subject: `null:`.
fn subject_word(word: &str) -> Option<&str> {
    let subject = word.strip_suffix(':')?;
    (!subject.is_empty() && subject.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')).then_some(subject)
}

/// Our name for `subject.key`.
fn canonical(name: String) -> String {
    ALIASES.iter().find(|(theirs, _)| *theirs == name).map_or(name, |(_, ours)| ours.to_string())
}

impl Telemetry {
    /// Reads the `info string` texts of one search; a later line's value
    /// of a key replaces an earlier one's (an engine that reports each
    /// iteration reports running totals).
    pub fn parse(strings: &[String]) -> Telemetry {
        let mut telemetry = Telemetry::default();
        let mut percents: BTreeMap<String, f64> = BTreeMap::new();
        for text in strings {
            let mut words = text.split_whitespace();
            let Some(mut subject) = words.next().and_then(subject_word) else { continue };
            if subject == "error" || subject == "warning" {
                continue;
            }
            for word in words {
                if let Some(next) = subject_word(word) {
                    subject = next;
                    continue;
                }
                let pairs: Vec<(String, &str)> = match word.split_once('(') {
                    // `skips(tact=474,tt=686,eg=0)`
                    Some((group, inner)) if word.ends_with(')') => inner[..inner.len() - 1]
                        .split(',')
                        .filter_map(|pair| pair.split_once('='))
                        .map(|(key, value)| (format!("{group}_{key}"), value))
                        .collect(),
                    _ => word.split_once('=').map(|(key, value)| (key.to_string(), value)).into_iter().collect(),
                };
                for (key, value) in pairs {
                    // Plan 003's bucket lists are their technique's.
                    let owner = PLAN_BUCKETS.iter().find(|(list, _)| *list == key).map_or(subject, |(_, owner)| owner);
                    let name = canonical(format!("{owner}.{key}"));
                    if let Ok(count) = value.parse::<u64>() {
                        telemetry.counts.insert(name, count);
                    } else if let Some(list) = value.strip_prefix('[').and_then(|list| list.strip_suffix(']')) {
                        let numbers: Option<Vec<u64>> = list.split(',').map(|item| item.trim().parse().ok()).collect();
                        if let Some(numbers) = numbers {
                            telemetry.buckets.insert(name, numbers);
                        }
                    } else if name.ends_with('%') {
                        if let Ok(percent) = value.trim_end_matches('%').parse::<f64>() {
                            percents.insert(name, percent);
                        }
                    }
                }
            }
        }
        // A rate printed without its count: the count back from the whole.
        for (name, percent) in percents {
            let Some((subject, (part, whole))) = name
                .split_once('.')
                .and_then(|(subject, _)| rate_parts(&name).map(|parts| (subject.to_string(), parts)))
            else {
                continue;
            };
            let part = if part.contains('.') { part } else { format!("{subject}.{part}") };
            let whole = if whole.contains('.') { whole } else { format!("{subject}.{whole}") };
            if telemetry.counts.contains_key(&part) {
                continue;
            }
            if let Some(&total) = telemetry.counts.get(&whole) {
                telemetry.counts.insert(part.clone(), (percent * total as f64 / 100.0).round() as u64);
                telemetry.derived.insert(part);
            }
        }
        telemetry
    }

    /// Adds another search's counters.
    pub fn add(&mut self, other: &Telemetry) {
        self.derived.extend(other.derived.iter().cloned());
        for (key, count) in &other.counts {
            *self.counts.entry(key.clone()).or_default() += count;
        }
        for (key, buckets) in &other.buckets {
            let mine = self.buckets.entry(key.clone()).or_default();
            if mine.len() < buckets.len() {
                mine.resize(buckets.len(), 0);
            }
            for (sum, count) in mine.iter_mut().zip(buckets) {
                *sum += count;
            }
        }
    }

    pub fn count(&self, key: &str) -> Option<u64> {
        self.counts.get(key).copied()
    }

    /// A rate in percent by its telemetry name, from the summed counters:
    /// `razor.cut%` is `razor.cut / razor.att`, `tt.hit%` is `tt.hits /
    /// tt.probes`, `pvs.re%` is `pvs.re / pvs.zw`, `nodes.qs%` is
    /// `nodes.qs / nodes.total`, `first.first%` is `first.cut /
    /// cutoffs.total`; any `<subject>.<prefix>cut%` is `<prefix>cut /
    /// <prefix>att`.
    pub fn rate(&self, name: &str) -> Option<f64> {
        let (subject, _) = name.split_once('.')?;
        let (part, whole) = rate_parts(name)?;
        let qualified = |key: String| if key.contains('.') { key } else { format!("{subject}.{key}") };
        let part = self.count(&qualified(part))?;
        let whole = self.count(&qualified(whole))?;
        (whole > 0).then(|| part as f64 * 100.0 / whole as f64)
    }

    /// A bucket list as `a/b/c`.
    pub fn buckets_text(&self, key: &str) -> Option<String> {
        let buckets = self.buckets.get(key)?;
        Some(buckets.iter().map(u64::to_string).collect::<Vec<_>>().join("/"))
    }
}

/// The counts a rate is made of, `(part, whole)`: a key of the rate's
/// subject, or `subject.key` for another subject's.
pub fn rate_parts(name: &str) -> Option<(String, String)> {
    let (subject, key) = name.strip_suffix('%')?.split_once('.')?;
    Some(match (subject, key) {
        ("tt", "hit") => ("hits".to_string(), "probes".to_string()),
        ("cutoffs", "tt") => ("tt".to_string(), "total".to_string()),
        ("first", "first") => ("cut".to_string(), "cutoffs.total".to_string()),
        ("razor", "tactical") => ("tactical".to_string(), "att".to_string()),
        ("razor", "confirm") => ("cut".to_string(), "probes".to_string()),
        ("pvs", "re") => ("re".to_string(), "zw".to_string()),
        ("nodes", "qs") => ("qs".to_string(), "total".to_string()),
        (_, key) => {
            let prefix = key.strip_suffix("cut")?;
            (key.to_string(), format!("{prefix}att"))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|line| line.to_string()).collect()
    }

    #[test]
    fn sums_and_rates_come_from_counts_not_from_percentages() {
        let one = Telemetry::parse(&strings(&[
            "razor: att=10 cut=1 cut%=10.0% razor_b=[4,6]",
            "tt: probes=100 hits=50 hit%=50.0% cut=3 illegal_moves=0",
            "eval: 3 cp",
            "error: nothing",
        ]));
        assert_eq!(one.count("razor.att"), Some(10));
        assert_eq!(one.count("razor.cut%"), None);
        assert_eq!(one.buckets["razor.razor_b"], [4, 6]);
        let two =
            Telemetry::parse(&strings(&["razor: att=90 cut=29 cut%=32.2% razor_b=[40,60]", "tt: probes=300 hits=50"]));
        let mut total = Telemetry::default();
        total.add(&one);
        total.add(&two);
        assert_eq!(total.rate("razor.cut%"), Some(30.0));
        assert_eq!(total.rate("tt.hit%"), Some(25.0));
        assert_eq!(total.rate("pvs.re%"), None);
        assert_eq!(total.buckets_text("razor.razor_b").as_deref(), Some("44/66"));
        let delta = Telemetry::parse(&strings(&["delta_enh: coarse_att=8 coarse_cut=2 coarse_cut%=25.0%"]));
        assert_eq!(delta.rate("delta_enh.coarse_cut%"), Some(25.0));
    }

    /// SeaJay's one long line (v20251002, start position, depth 8), and the
    /// lines around it that are not telemetry.
    #[test]
    fn seajays_search_stats_line_is_read_like_ours() {
        let telemetry = Telemetry::parse(&strings(&[
            "Countermoves: updates=2390 hits=856 hitRate=35.8% bonus=7960",
            "SEE pruning final: 2274/5301 captures pruned (42.9%) [Conservative mode]",
            "MoveOrdering cutoffs: TT=37.5% 1stCap=1.0% Killer=56.7%",
            "SearchStats: depth=8 seldepth=14 nodes=23431 nps=1115761 tt: probes=5234 hits=3847 hit%=73.5 \
             cutoffs=771 stores=4378 coll=0 pvs: scout=15889 re%=5.0 null: att=1613 cut=555 cut%=34.4 \
             extra(cand=0,app=0,blk=0,sup=0,cut=0,vpass=0,vfail=0,cap=0) no-store=0 static-cut=97 \
             static-no-store=85 prune: fut=1742 mcp=2473 razor: att=3130 cut=42 cut%=1.3 \
             skips(tact=474,tt=686,eg=0) razor_b=[37,5] asp: att=4 low=3 high=0 fut_b=[0,0,0,0] \
             fut_eff_b=[22,0,0,0] mcp_b=[980,1493,0,0] illegal: first=7 total=55 \
             hist(apps=3769,basic=2580,cmh=1189,first=1761+533,cuts=95+112,re=787)",
        ]));
        let count = |key: &str| telemetry.count(key);
        assert_eq!((count("null.att"), count("null.cut")), (Some(1613), Some(555)));
        assert_eq!(
            (count("razor.att"), count("razor.cut"), count("razor.tactical")),
            (Some(3130), Some(42), Some(474))
        );
        assert_eq!((count("asp.att"), count("asp.low"), count("asp.high")), (Some(4), Some(3), Some(0)));
        assert_eq!((count("tt.probes"), count("tt.hits"), count("tt.cut")), (Some(5234), Some(3847), Some(771)));
        assert_eq!((count("prune.fut"), count("prune.mcp")), (Some(1742), Some(2473)));
        assert_eq!(count("null.extra_cand"), Some(0));
        assert_eq!(telemetry.buckets["razor.razor_b"], [37, 5]);
        assert_eq!(telemetry.buckets["fut.fut_eff_b"], [22, 0, 0, 0]);
        assert_eq!(telemetry.buckets["mcp.mcp_b"], [980, 1493, 0, 0]);
        assert!(!telemetry.buckets.contains_key("asp.fut_b"));
        // `re%` without `re`: 5.0% of 15889 scouts, to the printed 0.1%.
        assert_eq!(count("pvs.zw"), Some(15889));
        assert_eq!(count("pvs.re"), Some(794));
        assert!(telemetry.derived.contains("pvs.re"));
        assert!((telemetry.rate("razor.tactical%").unwrap() - 15.14).abs() < 0.01);
        assert!((telemetry.rate("null.cut%").unwrap() - 34.41).abs() < 0.01);
        // Text with a colon in its middle is not telemetry.
        assert_eq!(count("cutoffs.TT"), None);
        assert_eq!(count("Countermoves.updates"), Some(2390));
    }
}
