//! Search counters, kept per search (placeholder).

#[derive(Clone, Debug, Default)]
pub struct SearchStats {
    pub nodes: u64,
}

impl SearchStats {
    /// The `info string` lines in the plans' formats (without the `info string ` prefix).
    pub fn report_lines(&self) -> Vec<String> {
        vec![format!("nodes={}", self.nodes)]
    }
}
