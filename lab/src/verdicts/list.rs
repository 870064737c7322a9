//! `lab list`: what the variants are.

use anyhow::Result;

use crate::lab::Lab;
use crate::variants::grammar::Planned;

pub fn command(lab: &Lab) -> Result<()> {
    if lab.global.json {
        let rows: Vec<_> = lab
            .variants
            .iter()
            .map(|variant| {
                serde_json::json!({
                    "name": variant.name(),
                    "description": variant.file.description,
                    "extends": variant.file.extends,
                    "own_features": variant.file.features,
                    "features": variant.features,
                    "source": variant.file.source,
                    "claims": variant.plan().claims.iter().map(|claim| serde_json::json!({"key": claim.key(), "claim": claim.text()})).collect::<Vec<_>>(),
                    "sprt": variant.plan().sprt.as_ref().map(|sprt| serde_json::json!({"bounds": [sprt.bounds.0, sprt.bounds.1], "tc": sprt.tc, "hash": sprt.hash_mb})),
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    println!("| variant | extends | adds | source | claimed effect | SPRT |");
    println!("|---|---|---|---|---|---|");
    for variant in &lab.variants {
        let adds = if variant.file.features.is_empty() { "-".to_string() } else { variant.file.features.join(" ") };
        let claims: Vec<String> = variant.plan().claims.iter().map(|claim| claim.text()).collect();
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            variant.name(),
            variant.file.extends.as_deref().unwrap_or("-"),
            adds,
            if variant.file.source.is_empty() { "-" } else { &variant.file.source },
            if claims.is_empty() { "-".to_string() } else { claims.join("; ") },
            variant.plan().sprt.as_ref().map_or("-".to_string(), |sprt| format!(
                "[{}, {}] at {}{}",
                sprt.bounds.0,
                sprt.bounds.1,
                sprt.tc,
                sprt.hash_mb.map_or(String::new(), |mb| format!(", Hash {mb}"))
            ))
        );
    }
    lab.say(&format!("{} variants; `lab list --json` gives every feature each one compiles in", lab.variants.len()));
    Ok(())
}
