//! Wording the commands' messages share, kept on the ground floor so that
//! no room imports another only for a word.

/// `1 line`, `2 lines`.
pub fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// `10,000`: a count with its thousands separated.
pub fn thousands(count: u64) -> String {
    let digits = count.to_string();
    let mut out = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn thousands_are_separated() {
        assert_eq!(
            [0, 999, 1000, 10_000, 1_234_567].map(super::thousands),
            ["0", "999", "1,000", "10,000", "1,234,567"]
        );
    }
}
