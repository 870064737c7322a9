//! The engine's telemetry (`info string <subject>: key=value ...`, printed
//! with the `SearchStats` option) as numbers, summed over a suite, and the
//! rates the plans quote, recomputed from the sums rather than averaged.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One search's counters, or a suite's sums: `razor.att` → 120,
/// `razor.razor_b` → [70, 50]. Percentages are not kept; [`rate`] derives
/// them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Telemetry {
    pub counts: BTreeMap<String, u64>,
    pub buckets: BTreeMap<String, Vec<u64>>,
}

impl Telemetry {
    /// Reads the `info string` texts of one search.
    pub fn parse(strings: &[String]) -> Telemetry {
        let mut telemetry = Telemetry::default();
        for text in strings {
            let Some((subject, rest)) = text.split_once(": ") else { continue };
            if subject.contains(' ') || subject == "error" || subject == "warning" {
                continue;
            }
            for word in rest.split_whitespace() {
                let Some((key, value)) = word.split_once('=') else { continue };
                let name = format!("{subject}.{key}");
                if let Ok(count) = value.parse::<u64>() {
                    telemetry.counts.insert(name, count);
                } else if let Some(list) = value.strip_prefix('[').and_then(|list| list.strip_suffix(']')) {
                    let numbers: Option<Vec<u64>> = list.split(',').map(|item| item.trim().parse().ok()).collect();
                    if let Some(numbers) = numbers {
                        telemetry.buckets.insert(name, numbers);
                    }
                }
            }
        }
        telemetry
    }

    /// Adds another search's counters.
    pub fn add(&mut self, other: &Telemetry) {
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
    /// `nodes.qs / nodes.total`; any `<subject>.<prefix>cut%` is
    /// `<prefix>cut / <prefix>att`.
    pub fn rate(&self, name: &str) -> Option<f64> {
        let (subject, key) = name.strip_suffix('%')?.split_once('.')?;
        let (part, whole) = match (subject, key) {
            ("tt", "hit") => ("hits".to_string(), "probes".to_string()),
            ("cutoffs", "tt") => ("tt".to_string(), "total".to_string()),
            ("razor", "tactical") => ("tactical".to_string(), "att".to_string()),
            ("razor", "confirm") => ("cut".to_string(), "probes".to_string()),
            ("pvs", "re") => ("re".to_string(), "zw".to_string()),
            ("nodes", "qs") => ("qs".to_string(), "total".to_string()),
            (_, key) => {
                let prefix = key.strip_suffix("cut")?;
                (key.to_string(), format!("{prefix}att"))
            }
        };
        let part = self.count(&format!("{subject}.{part}"))?;
        let whole = self.count(&format!("{subject}.{whole}"))?;
        (whole > 0).then(|| part as f64 * 100.0 / whole as f64)
    }

    /// A bucket list as `a/b/c`.
    pub fn buckets_text(&self, key: &str) -> Option<String> {
        let buckets = self.buckets.get(key)?;
        Some(buckets.iter().map(u64::to_string).collect::<Vec<_>>().join("/"))
    }
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
}
