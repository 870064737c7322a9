//! The compiled-in pruning features, so a binary always says what it is.

/// Every pruning feature compiled into this binary, in catalogue order.
pub fn compiled() -> Vec<&'static str> {
    Vec::new()
}

/// The feature list as one word for `id name` lines: `baseline` when empty.
pub fn describe() -> String {
    let list = compiled();
    if list.is_empty() {
        "baseline".to_string()
    } else {
        list.join(",")
    }
}
