//! Tunables: each margin, depth limit and bonus is declared once, in its
//! technique's file, with a default, a range and an SPSA step.
//!
//! In a normal build a tunable reads as the technique set's constant and
//! folds away. With the `tune` feature it is a runtime value: a UCI `spin`
//! option, and a line of `prunelab spsa` in OpenBench's format
//! (`name, int, value, min, max, c_end, r_end`). This file is the only place
//! the `tune` feature is read.

#[cfg(feature = "tune")]
use std::sync::atomic::{AtomicI32, Ordering};

/// Whether this build exposes tunables as options.
pub const TUNING: bool = cfg!(feature = "tune");

/// OpenBench's SPSA learning rate for every tunable.
const SPSA_R_END: f64 = 0.002;

#[derive(Debug)]
pub struct Tunable {
    /// The UCI option name, `<Technique><Role>`.
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// SPSA's final perturbation size (`c_end`).
    pub step: i32,
    #[cfg(feature = "tune")]
    value: AtomicI32,
}

impl Tunable {
    pub const fn new(name: &'static str, default: i32, min: i32, max: i32, step: i32) -> Self {
        assert!(min <= default && default <= max && step > 0, "tunable default outside its range");
        Tunable {
            name,
            default,
            min,
            max,
            step,
            #[cfg(feature = "tune")]
            value: AtomicI32::new(default),
        }
    }

    /// The value the search uses: `configured` (the technique set's constant)
    /// in a normal build, the option's current value in a tuning build.
    #[inline(always)]
    pub fn value_or(&self, configured: i32) -> i32 {
        #[cfg(feature = "tune")]
        {
            let _ = configured;
            self.value.load(Ordering::Relaxed)
        }
        #[cfg(not(feature = "tune"))]
        configured
    }

    /// The value of a tunable whose default does not depend on the phase.
    #[inline(always)]
    pub fn get(&self) -> i32 {
        self.value_or(self.default)
    }

    /// Sets the option (tuning builds only), refusing values out of range.
    pub fn set(&self, value: i32) -> Result<(), String> {
        if value < self.min || value > self.max {
            return Err(format!("{} must be in {}..={}, got {value}", self.name, self.min, self.max));
        }
        #[cfg(feature = "tune")]
        {
            self.value.store(value, Ordering::Relaxed);
            Ok(())
        }
        #[cfg(not(feature = "tune"))]
        Err(format!("{} is a tunable; build with the `tune` feature to set it", self.name))
    }

    pub fn uci_option(&self) -> String {
        format!("option name {} type spin default {} min {} max {}", self.name, self.default, self.min, self.max)
    }

    pub fn spsa_line(&self) -> String {
        format!("{}, int, {}, {}, {}, {}, {}", self.name, self.default, self.min, self.max, self.step, SPSA_R_END)
    }
}

/// Declares a technique's tunables and its `TUNABLES` list:
/// `IDENT = "UciName": default, min, max, step;`. A technique with several
/// styles names one list per style: `tunables!(list R_CHAIN_TUNABLES; ...)`.
#[macro_export]
macro_rules! tunables {
    (list $list:ident; $( $(#[$doc:meta])* $ident:ident = $name:literal : $default:expr, $min:expr, $max:expr, $step:expr; )*) => {
        $(
            $(#[$doc])*
            pub static $ident: $crate::tune::Tunable = $crate::tune::Tunable::new($name, $default, $min, $max, $step);
        )*
        /// These tunables, in declaration order.
        pub static $list: &[&$crate::tune::Tunable] = &[$(&$ident),*];
    };
    ($( $(#[$doc:meta])* $ident:ident = $name:literal : $default:expr, $min:expr, $max:expr, $step:expr; )*) => {
        $crate::tunables!(list TUNABLES; $( $(#[$doc])* $ident = $name: $default, $min, $max, $step; )*);
    };
}

/// The tunables of every technique compiled into this binary.
pub fn compiled_tunables() -> Vec<&'static Tunable> {
    crate::techniques::COMPILED.tunables()
}

/// Finds a compiled tunable by its option name (case-insensitive, as UCI).
pub fn find(name: &str) -> Option<&'static Tunable> {
    compiled_tunables().into_iter().find(|tunable| tunable.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spsa_line_has_openbench_fields() {
        let tunable = Tunable::new("RazorMargin1", 300, 100, 600, 20);
        assert_eq!(tunable.spsa_line(), "RazorMargin1, int, 300, 100, 600, 20, 0.002");
        assert_eq!(tunable.uci_option(), "option name RazorMargin1 type spin default 300 min 100 max 600");
        assert!(tunable.set(601).is_err());
        assert_eq!(tunable.value_or(300), 300);
    }
}
