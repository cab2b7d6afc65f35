//! LaTeX output: every kind of table deckodds prints as `--format latex`
//! is a booktabs tabular (a longtable when it is longer than a page holds)
//! that compiles as it is, inside a minimal document that loads booktabs
//! and longtable (as the table's header comment says), without running off
//! the page.
//!
//! The structure is checked everywhere. The compilation needs `pdflatex`
//! (Debian's texlive-latex-base and texlive-latex-recommended): CI installs
//! it and sets `DECKODDS_LATEX=required`, and then its absence is a
//! failure; elsewhere, when build.rs did not find pdflatex, the two
//! compiling tests are `ignored` in the test summary, with the reason.

use std::path::Path;
use std::process::Command;

use crate::support::{require_tool, run_line};

/// What to install for pdflatex.
const LATEX_PACKAGES: &str = "texlive-latex-base and texlive-latex-recommended";

/// One command line per kind of table: exact and Monte-Carlo distributions
/// (one and many), summary figures, comparisons with exact, between runs,
/// and with published tables.
const TABLES: [(&str, &str); 9] = [
    ("exact", "idiots-delight exact --suits 2 --ranks 4"),
    ("exact-many", "roll-call exact --ranks 4 --copies 2"),
    ("blackjack-exact", "blackjack exact"),
    ("mc-summary", "klondike mc --trials 2000"),
    (
        "mc-vs-exact",
        "roll-call compare --ranks 4 --copies 2 --trials 20000",
    ),
    (
        "two-runs",
        "prisoners-patience compare --with rules --trials 20000",
    ),
    (
        "published-counts",
        "idiots-delight compare --published sas --shuffle all --trials 20000",
    ),
    (
        "published-percentages",
        "blackjack compare --published analysis/published/quiz151-simulation.csv --hands 100000",
    ),
    ("first-pass", "roll-call first-pass"),
];

/// Every table is booktabs: rules paired, each row with as many cells as
/// its tabular has columns (a `\multicolumn{n}` counting n).
#[test]
fn latex_tables_are_well_formed_booktabs() {
    for (name, line) in TABLES {
        let text = run_line(&format!("{line} --quiet --format latex"));
        check_structure(name, &text);
    }
}

/// Every table compiles in a minimal document, with no missing character
/// and nothing running off the page.
#[test]
#[cfg_attr(
    not(deckodds_has_pdflatex),
    ignore = "needs pdflatex (Debian: texlive-latex-base, texlive-latex-recommended)"
)]
fn latex_tables_compile() {
    require_tool("pdflatex", LATEX_PACKAGES);
    let dir = tempfile::tempdir().unwrap();
    for (name, line) in TABLES {
        let table = run_line(&format!("{line} --quiet --format latex"));
        compile(dir.path(), name, &table);
    }
}

/// So does every LaTeX table committed in `results/`.
#[test]
#[cfg_attr(
    not(deckodds_has_pdflatex),
    ignore = "needs pdflatex (Debian: texlive-latex-base, texlive-latex-recommended)"
)]
fn committed_latex_tables_compile() {
    require_tool("pdflatex", LATEX_PACKAGES);
    let dir = tempfile::tempdir().unwrap();
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
    let mut n_tables = 0;
    for entry in std::fs::read_dir(results).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "tex") {
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            compile(dir.path(), &name, &std::fs::read_to_string(&path).unwrap());
            n_tables += 1;
        }
    }
    assert!(n_tables >= 20, "{n_tables} tables in results/");
}

/// Compiles `table` (as `dir/NAME.tex`) in a minimal document that loads
/// what its header comment asks for, and checks the log.
fn compile(dir: &Path, name: &str, table: &str) {
    std::fs::write(dir.join(format!("{name}.tex")), table).unwrap();
    let document = format!(
        "\\documentclass{{article}}\n\\usepackage[T1]{{fontenc}}\n\\usepackage{{booktabs}}\n\\usepackage{{longtable}}\n\\begin{{document}}\n\\input{{{name}}}\n\\end{{document}}\n"
    );
    let doc_name = format!("doc-{name}");
    std::fs::write(dir.join(format!("{doc_name}.tex")), document).unwrap();
    let output = Command::new("pdflatex")
        .args(["-interaction=nonstopmode", "-halt-on-error"])
        .arg(format!("{doc_name}.tex"))
        .current_dir(dir)
        .output()
        .unwrap();
    let log = std::fs::read_to_string(dir.join(format!("{doc_name}.log"))).unwrap_or_default();
    assert!(
        output.status.success(),
        "{name}: pdflatex failed\n{}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert!(
        !log.contains("Missing character"),
        "{name}: a character the font lacks\n{log}"
    );
    // A table taller than the page runs off it: longtable breaks it.
    assert!(
        !log.contains("Overfull \\vbox"),
        "{name}: a table runs off the page\n{log}"
    );
    assert!(dir.join(format!("{doc_name}.pdf")).exists());
}

fn check_structure(name: &str, text: &str) {
    let count = |needle: &str| text.matches(needle).count();
    let longtables = count("\\begin{longtable}");
    let tabulars = count("\\begin{tabular}") + longtables;
    assert!(tabulars >= 1, "{name}: no tabular\n{text}");
    for rule in ["\\toprule", "\\midrule", "\\bottomrule"] {
        assert_eq!(count(rule), tabulars, "{name}: {rule}\n{text}");
    }
    assert_eq!(count("\\end{longtable}"), longtables, "{name}\n{text}");
    assert_eq!(count("\\endhead"), longtables, "{name}\n{text}");
    assert_eq!(count("\\endlastfoot"), longtables, "{name}\n{text}");
    assert_eq!(
        count("\\end{tabular}"),
        tabulars - longtables,
        "{name}\n{text}"
    );
    if text.contains("{longtable}") {
        assert!(text.contains("\\usepackage{longtable}"), "{name}: header");
    }
    let mut columns = 0;
    let mut in_tabular = false;
    for line in text.lines() {
        if let Some(rest) = line
            .strip_prefix("\\begin{tabular}{")
            .or_else(|| line.strip_prefix("\\begin{longtable}{"))
        {
            let spec = rest.split('}').next().unwrap();
            columns = spec
                .chars()
                .filter(|c| matches!(c, 'l' | 'r' | 'c'))
                .count();
            in_tabular = true;
        } else if line.starts_with("\\end{tabular}") || line.starts_with("\\end{longtable}") {
            in_tabular = false;
            continue;
        } else if in_tabular && line.trim_end().ends_with("\\\\") {
            let cells: usize = cells_of(line)
                .iter()
                .map(|cell| {
                    cell.trim()
                        .strip_prefix("\\multicolumn{")
                        .and_then(|rest| rest.split('}').next())
                        .and_then(|n| n.parse().ok())
                        .unwrap_or(1)
                })
                .sum();
            assert_eq!(cells, columns, "{name}: row {line:?}\n{text}");
        }
        if !in_tabular && !line.is_empty() {
            assert!(
                line.starts_with('%'),
                "{name}: text outside a tabular that is not a comment: {line:?}"
            );
        }
    }
}

/// The cells of a row: split at each `&` that is not escaped.
fn cells_of(line: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut escaped = false;
    for c in line.chars() {
        if c == '&' && !escaped {
            cells.push(String::new());
        } else {
            cells.last_mut().unwrap().push(c);
        }
        escaped = c == '\\' && !escaped;
    }
    cells
}
