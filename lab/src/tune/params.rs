//! `--param NAME[:start,min,max,c_end,r_end]`: a tunable to tune, its
//! defaults from its own declaration as the variant's binary prints it
//! (`prunelab spsa`: `name, int, default, min, max, step, r_end`).

use anyhow::{anyhow, bail, Context, Result};

use super::spsa_update::Parameter;

/// A tunable's declaration as an SPSA input line.
#[derive(Clone, Debug, PartialEq)]
pub struct Declared {
    pub name: String,
    pub default: f64,
    pub min: f64,
    pub max: f64,
    pub step: f64,
    pub r_end: f64,
}

/// Reads the lines `prunelab spsa` prints.
pub fn read_declarations(lines: &str) -> Result<Vec<Declared>> {
    lines
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            let [name, kind, default, min, max, step, r_end] = fields[..] else {
                bail!("`{line}` is no SPSA input line (name, int, default, min, max, c_end, r_end)");
            };
            if kind != "int" {
                bail!("`{line}`: only int tunables are declared here, not {kind}");
            }
            let number = |text: &str| text.parse::<f64>().with_context(|| format!("`{line}`: `{text}` is no number"));
            Ok(Declared {
                name: name.to_string(),
                default: number(default)?,
                min: number(min)?,
                max: number(max)?,
                step: number(step)?,
                r_end: number(r_end)?,
            })
        })
        .collect()
}

/// A constant's name as its UCI option, as the engine derives it:
/// `REVERSE_FUTILITY_DEPTH_MARGIN` is `ReverseFutilityDepthMargin`. Names
/// already in that form are left as they are.
fn option_name(name: &str) -> String {
    if !name.contains('_') && name.chars().any(|c| c.is_ascii_lowercase()) {
        return name.to_string();
    }
    name.split('_')
        .filter(|word| !word.is_empty())
        .map(|word| {
            let mut letters = word.chars();
            letters.next().map(|first| first.to_ascii_uppercase().to_string() + &letters.as_str().to_ascii_lowercase())
        })
        .map(Option::unwrap_or_default)
        .collect()
}

/// One `--param`: the tunable by its UCI or constant name, each of
/// `start,min,max,c_end,r_end` given or left empty for the declaration's
/// (the step is `c_end`; `r_end` is the declaration's 0.002, a common choice
/// in engines' SPSA input).
pub fn parse(spec: &str, declared: &[Declared]) -> Result<Parameter> {
    let (name, values) = match spec.split_once(':') {
        Some((name, values)) => (name, Some(values)),
        None => (spec, None),
    };
    let wanted = option_name(name.trim());
    let declaration = declared.iter().find(|tunable| tunable.name.eq_ignore_ascii_case(&wanted)).ok_or_else(|| {
        let names: Vec<&str> = declared.iter().map(|tunable| tunable.name.as_str()).collect();
        anyhow!("--param {spec}: the variant has no tunable `{name}`; it has: {}", names.join(", "))
    })?;
    let mut fields = [declaration.default, declaration.min, declaration.max, declaration.step, declaration.r_end];
    if let Some(values) = values {
        let given: Vec<&str> = values.split(',').map(str::trim).collect();
        if given.len() != fields.len() {
            bail!("--param {spec}: give NAME or NAME:start,min,max,c_end,r_end (a field left empty keeps its default)");
        }
        for (field, text) in fields.iter_mut().zip(given) {
            if !text.is_empty() {
                *field = text.parse().map_err(|_| anyhow!("--param {spec}: `{text}` is no number"))?;
            }
        }
    }
    let [start, min, max, c_end, r_end] = fields;
    if !(min <= start && start <= max) || c_end <= 0.0 || r_end <= 0.0 {
        bail!("--param {spec}: needs min <= start <= max and c_end, r_end above 0 (got {start}, {min}, {max}, {c_end}, {r_end})");
    }
    Ok(Parameter { name: declaration.name.clone(), is_float: false, start, min, max, c_end, r_end })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINES: &str = "RazorMargin1, int, 300, 100, 800, 20, 0.002\n\
                         ReverseFutilityDepthMargin, int, 90, 50, 200, 10, 0.002\n";

    #[test]
    fn params_take_either_name_and_the_declarations_defaults() {
        let declared = read_declarations(LINES).unwrap();
        // The plan's margin: `ReverseFutilityDepthMargin, int, 90, 50, 200, 10, 0.002`.
        let expected = crate::tune::spsa_update::tests::margin();
        assert_eq!(parse("ReverseFutilityDepthMargin", &declared).unwrap(), expected);
        assert_eq!(parse("REVERSE_FUTILITY_DEPTH_MARGIN", &declared).unwrap(), expected);
        assert_eq!(parse("RAZOR_MARGIN_1", &declared).unwrap().name, "RazorMargin1");
        let given = parse("reversefutilitydepthmargin:100,60,,5,", &declared).unwrap();
        assert_eq!(given, Parameter { start: 100.0, min: 60.0, c_end: 5.0, ..expected });
    }

    #[test]
    fn bad_params_are_clear_errors() {
        let declared = read_declarations(LINES).unwrap();
        let error = |spec: &str| parse(spec, &declared).unwrap_err().to_string();
        assert_eq!(
            error("NullMoveStaticMargin"),
            "--param NullMoveStaticMargin: the variant has no tunable `NullMoveStaticMargin`; it has: \
             RazorMargin1, ReverseFutilityDepthMargin"
        );
        assert!(error("RazorMargin1:1,2").contains("give NAME or NAME:start,min,max,c_end,r_end"));
        assert!(error("RazorMargin1:x,,,,").contains("`x` is no number"));
        assert!(error("RazorMargin1:900,,,,").contains("needs min <= start <= max"));
        assert!(read_declarations("Name, float, 1, 0, 2, 0.1, 0.002").is_err());
        assert!(read_declarations("just words").is_err());
    }
}
