//! The results index, `results/README.md` (and `results-quick/README.md`
//! for the quick profile): every table the specs make, by game, with one
//! line on what it shows, its method (with the trials of the profile its
//! folder holds, and the verdict a comparison is expected to reach), and
//! its files. Generated from the specs alone, so it lists exactly what
//! `reproduce` writes, and `reproduce --check` can tell when it is stale.

use super::{Profile, Spec, long_form, site::page_of};
use crate::games::registry::GAMES;
use crate::report::figures::thousands;

/// The index of the tables of `specs` (all of `analysis/`) made under
/// `profile` into the folder named `folder`, as Markdown.
///
/// Guarantee: depends only on the specs, the folder's name and the profile,
/// in the order given (every table once, each game's in spec order), so the
/// same specs give the same bytes.
pub fn results_index(specs: &[Spec], folder: &str, profile: Profile) -> String {
    let mut out = format!(
        "# Card-game odds: the tables in {folder}/\n\nThe same tables as web pages: [index.html](index.html), with the answers to each game's questions first.\n\n"
    );
    out.push_str(match profile {
        Profile::Full => FULL_INTRO,
        Profile::Quick => QUICK_INTRO,
    });
    out.push_str(METHODS);
    // The games in the order of RULES.md, from the registry, so that no
    // game's tables can be left out.
    for game in GAMES {
        let tables: Vec<&Spec> = specs.iter().filter(|s| s.game == game.id).collect();
        if tables.is_empty() {
            continue;
        }
        // A game whose rules run on into later sections (blackjack's
        // player) names them all.
        let sections = match game.later_sections {
            [] => format!("section {}", game.rules_section),
            later => {
                let all: Vec<String> = std::iter::once(game.rules_section)
                    .chain(later.iter().copied())
                    .map(|section| section.to_string())
                    .collect();
                format!("sections {}", all.join(" and "))
            }
        };
        out.push_str(&format!(
            "\n## {} (RULES.md {sections})\n\n",
            game.results_heading
        ));
        if long_form::has_csv(game, specs) {
            out.push_str(&format!(
                "Every figure of these tables' JSON outputs in one long-form CSV (a row per outcome, comparison cell or solver count): [{0}]({0}).\n\n",
                long_form::file_of(game)
            ));
        }
        out.push_str("| table | what it shows | method | files | spec |\n|---|---|---|---|---|\n");
        for spec in tables {
            // Every file the table has: its outputs, its chart's PDF and
            // PNG, its web page and its provenance.
            let mut files: Vec<String> = spec
                .file_paths(std::path::Path::new(""))
                .iter()
                .filter_map(|path| {
                    let extension = path.extension()?.to_string_lossy().into_owned();
                    Some(format!("[{extension}]({})", path.display()))
                })
                .collect();
            files.push(format!("[page]({}#{})", page_of(&spec.family), spec.name));
            files.push(format!("[provenance]({}.provenance.json)", spec.name));
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | [{}](../analysis/{}.toml) |\n",
                spec.name,
                spec.description.replace('|', "\\|"),
                method(spec, profile),
                files.join(" · "),
                spec.family,
                spec.family,
            ));
        }
    }
    out
}

/// The method column: the command; for Monte Carlo the trials of
/// `profile` and the seed; the verdict a comparison is expected to reach;
/// and whether it is slow.
fn method(spec: &Spec, profile: Profile) -> String {
    let mut text = format!("`{}`", spec.command);
    if let (Some(sampling), Some(trials)) = (&spec.sampling, spec.trials(profile)) {
        text.push_str(&format!(
            ", {} trials, seed {}",
            thousands(trials),
            sampling.seed
        ));
    }
    if let Some(expected) = spec.expect {
        text.push_str(&format!("; expected: {expected}"));
    }
    match (spec.slow, profile, &spec.sampling) {
        (false, _, _) => {}
        (true, Profile::Quick, None) => text.push_str(" (slow: not made by --quick)"),
        (true, _, _) => text.push_str(" (slow)"),
    }
    text
}

const FULL_INTRO: &str = "\
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

A comparison whose spec declares the verdict it is expected to reach
(`expected: disagree` below) is a regression check: `reproduce` and
`reproduce --check` fail if it reaches another. The expected disagreements
are findings: a rule or shuffle that changes the odds, or a published
table that is wrong.
";

const QUICK_INTRO: &str = "\
Every file here is written by `deckodds reproduce --quick` from a spec in
`analysis/` (one TOML file per table, or per family of tables), under the
quick profile: each Monte-Carlo table runs its spec's `quick-trials` (the
trials below; by default the smaller of its full trials and 100,000),
through the same code as the committed tables in `results/`, which run the
full trials. Their figures are less precise than those in `results/`; slow
exact tables are left out. This index is generated from the same specs.

Beside each table, `NAME.provenance.json` records the spec and its text, the
program version, the exact command line, the seed and trials, a checksum of
the counts that does not depend on the number of threads, a checksum of each
file, the time taken and the machine's cores.

A comparison whose spec declares the verdict it is expected to reach
(`expected: disagree` below) is a regression check: `reproduce` fails if it
reaches another. The expected disagreements are findings: a rule or shuffle
that changes the odds, or a published table that is wrong.
";

/// How to read the method column, for either profile.
const METHODS: &str = "
Methods: `exact` enumerates every deal (exact fractions); `mc` is Monte
Carlo with 95% intervals; `compare` sets Monte Carlo against the exact
distribution (or a published table) and gives a verdict; `first-pass` is
Roll-Call's first pass, exactly; `power` is how many games it takes to see
a biased shuffle; `solve` decides deals with every card seen (won, proved
lost, or undecided within a budget of states); `record` writes whole games
move by move. The blackjack player's: `player` values every decision
exactly, `strategy` is the best action as a chart, `house-edge` and
`house-edge-grid` are a round's value under best play, by rule set,
`table` deals shoes at a simulated table (its house edge with an interval),
`cut-card-effect` sets that table's house edge to a cut card against
the value off the top, and `counts` measures counting systems (betting
correlation, playing efficiency, insurance correlation) from the exact
effects of removal. A chart (`svg`) is a
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
        let index = results_index(&specs, "results", Profile::Full);
        assert!(index.starts_with("# Card-game odds: the tables in results/\n"));
        // Klondike's rules run on into section 7 (free play).
        assert!(index.contains("## Klondike (RULES.md sections 4 and 7)"));
        assert!(index.contains(
            "| `klondike-52-draw3` | Klondike drawing 3 | `mc`, 10,000,000 trials, seed 1 | [md](klondike-52-draw3.md) · [json](klondike-52-draw3.json) · [page](klondike-52.html#klondike-52-draw3) · [provenance](klondike-52-draw3.provenance.json) | [klondike-52](../analysis/klondike-52.toml) |"
        ));
        assert_eq!(index.matches("| `klondike-52-draw").count(), 2);
        assert!(index.contains("one long-form CSV (a row per outcome, comparison cell or solver count): [klondike-tables.csv](klondike-tables.csv)."));
        assert!(!index.contains("Blackjack"));
    }

    /// The quick profile's index is headed by its own folder and gives the
    /// trials its tables hold; a comparison's expected verdict is shown.
    #[test]
    fn the_quick_index_describes_the_quick_profile() {
        let text = r#"description = "Roll-Call against exact"
game = "roll-call"
command = "compare"
outputs = ["md", "json"]
expect = "agree"
[monte-carlo]
trials = 1_000_000
quick-trials = 2_000
seed = 3
"#;
        let specs = Spec::parse(Path::new("analysis/rc.toml"), text).unwrap();
        let quick = results_index(&specs, "results-quick", Profile::Quick);
        assert!(
            quick.starts_with("# Card-game odds: the tables in results-quick/\n"),
            "{quick}"
        );
        assert!(quick.contains("`deckodds reproduce --quick`"));
        assert!(quick.contains("| `compare`, 2,000 trials, seed 3; expected: agree |"));
        assert!(!quick.contains("1,000,000"));
        let full = results_index(&specs, "results", Profile::Full);
        assert!(full.contains("| `compare`, 1,000,000 trials, seed 3; expected: agree |"));
    }
}
