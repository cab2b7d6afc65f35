//! The results index, `results/README.md`: every table the specs make, by
//! game, with one line on what it shows, its method, and its files.
//! Generated from the specs alone, so it lists exactly what `reproduce`
//! writes, and `reproduce --check` can tell when it is stale.

use super::Spec;
use crate::report::figures::thousands;

/// The games in the order of RULES.md, with their headings.
const SECTIONS: [(&str, &str); 5] = [
    ("idiots-delight", "Idiot's Delight (RULES.md section 1)"),
    (
        "roll-call",
        "Roll-Call, or Hit or Miss (RULES.md section 2)",
    ),
    (
        "prisoners-patience",
        "Prisoner's patience (RULES.md section 3)",
    ),
    ("klondike", "Klondike (RULES.md section 4)"),
    (
        "blackjack",
        "Blackjack dealer outcomes (RULES.md section 5)",
    ),
];

/// The index of the tables of `specs` (all of `analysis/`), as Markdown.
///
/// Guarantee: depends only on the specs, in the order given (every table
/// once, each game's in spec order), so the same specs give the same bytes.
pub fn results_index(specs: &[Spec]) -> String {
    let mut out = String::from(INTRO);
    for (game, heading) in SECTIONS {
        let tables: Vec<&Spec> = specs.iter().filter(|s| s.game == game).collect();
        if tables.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "\n## {heading}\n\n| table | what it shows | method | files | spec |\n|---|---|---|---|---|\n"
        ));
        for spec in tables {
            let mut files: Vec<String> = spec
                .outputs
                .iter()
                .map(|kind| format!("[{kind}]({}.{kind})", spec.name))
                .collect();
            files.push(format!("[provenance]({}.provenance.json)", spec.name));
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | [{}](../analysis/{}.toml) |\n",
                spec.name,
                spec.description.replace('|', "\\|"),
                method(spec),
                files.join(" · "),
                spec.family,
                spec.family,
            ));
        }
    }
    out
}

/// The method column: the command, and for Monte Carlo its size and seed.
fn method(spec: &Spec) -> String {
    let mut text = format!("`{}`", spec.command);
    if let Some(sampling) = &spec.sampling {
        text.push_str(&format!(
            ", {} trials, seed {}",
            thousands(sampling.trials),
            sampling.seed
        ));
    }
    if spec.slow {
        text.push_str(" (slow)");
    }
    text
}

const INTRO: &str = "\
# results/

Every file here is written by deckodds from a spec in `analysis/` (one
TOML file per table, or per family of tables), by `deckodds reproduce`;
this index is generated from the same specs. Do not edit these files: change
the spec or the program and run `cargo run --release -- reproduce`.

Beside each table, `NAME.provenance.json` records the spec and its text, the
program version, the exact command line, the seed and trials, a checksum of
the counts that does not depend on the number of threads, a checksum of each
file, the time taken and the machine's cores. `deckodds reproduce --check`
(run by CI) verifies every file against its provenance, recomputes the exact
tables byte for byte and the Monte-Carlo ones under their quick profile,
checks that this index is current, and fails on a file no spec makes.

Methods: `exact` enumerates every deal (exact fractions); `mc` is Monte
Carlo with 95% intervals; `compare` sets Monte Carlo against the exact
distribution (or a published table) and gives a verdict; a chart (`svg`) is a
bar chart of a distribution with its 95% intervals, stacked bars of the
dealer's outcomes by upcard, or the z-score of each outcome of a
comparison. Tables marked slow take minutes and are remade only by
`deckodds reproduce --slow` (the quick profile, `--quick`, leaves out slow
exact tables).
";

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn lists_every_table_with_its_files() {
        let text = r#"description = "Klondike drawing {draw}"
game = "klondike"
command = "mc"
outputs = ["md", "json"]
suffix = "draw{draw}"
each = [{ draw = [1, 3] }]
[monte-carlo]
trials = 10_000_000
quick-trials = 100
seed = 1
"#;
        let specs = Spec::parse(Path::new("analysis/klondike-52.toml"), text).unwrap();
        let index = results_index(&specs);
        assert!(index.contains("## Klondike (RULES.md section 4)"));
        assert!(index.contains(
            "| `klondike-52-draw3` | Klondike drawing 3 | `mc`, 10,000,000 trials, seed 1 | [md](klondike-52-draw3.md) · [json](klondike-52-draw3.json) · [provenance](klondike-52-draw3.provenance.json) | [klondike-52](../analysis/klondike-52.toml) |"
        ));
        assert_eq!(index.matches("| `klondike-52-draw").count(), 2);
        assert!(!index.contains("Blackjack"));
    }
}
