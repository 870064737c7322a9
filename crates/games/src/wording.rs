//! Wording the commands' messages share, kept on the ground floor so that
//! no room imports another only for a word.

/// `1 line`, `2 lines`.
pub fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}
