//! The project stands on its own and its documents tell the truth: no
//! reference to a file outside the repository or to one that does not
//! exist, README's examples print what README shows, the rule book's
//! published figures are the ones the program checks against, and the
//! rule book, completion scripts, man pages and source package are what
//! the commands and Cargo.toml promise.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};

use clap::CommandFactory;
use num_bigint::BigUint;
use num_rational::BigRational;

use crate::support::{assert_bad_input, deckodds, require_tool, run_ok};
use deckodds::cli::Cli;
use deckodds::games::idiots_delight::SAS_PAPER_COUNTS;
use deckodds::games::registry::{self, GAMES};
use deckodds::games::roll_call::first_pass::first_pass_matches;
use deckodds::rulebook;

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Reads a file of the repository.
fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

// ---------------------------------------------------------------------
// References

/// The repository's text files (those git tracks or would track, or every
/// file but `target/` and `.git/` where git cannot say), as paths relative
/// to the root.
fn text_files() -> Vec<PathBuf> {
    let listed = Command::new("git")
        .args(["ls-files", "--cached", "--others", "--exclude-standard"])
        .current_dir(root())
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| {
            String::from_utf8_lossy(&output.stdout)
                .lines()
                .map(PathBuf::from)
                .collect::<Vec<_>>()
        });
    let files = listed.unwrap_or_else(|| {
        let mut files = Vec::new();
        walk(&root(), &mut files);
        files
    });
    files
        .into_iter()
        .filter(|path| root().join(path).is_file())
        .filter(|path| is_text(path))
        .collect()
}

/// Every file under `directory` except in `target/` and `.git/`.
fn walk(directory: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(directory) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            if name != "target" && name != ".git" {
                walk(&path, files);
            }
        } else if let Ok(relative) = path.strip_prefix(root()) {
            files.push(relative.to_path_buf());
        }
    }
}

/// The files whose text is read for references: documents, code, specs
/// and scripts (not data: JSON, CSV, SVG and LaTeX are generated).
fn is_text(path: &Path) -> bool {
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    matches!(extension, "md" | "rs" | "toml" | "sh" | "sbatch" | "yml")
        || path == Path::new(".ci/run")
}

/// The parts of a file where a path is a reference: all of a document,
/// spec or script; only the comments of Rust code (its string literals
/// name files that tests make in temporary directories).
fn referring_lines(path: &Path, text: &str) -> Vec<(usize, String)> {
    let is_rust = path.extension().is_some_and(|e| e == "rs");
    text.lines()
        .enumerate()
        .filter(|(_, line)| !is_rust || line.trim_start().starts_with("//"))
        .map(|(i, line)| (i + 1, line.to_string()))
        .collect()
}

/// Where a mention of a repository path may start.
const ROOTS: [&str; 7] = [
    "docs/",
    "src/",
    "tests/",
    "benches/",
    "analysis/",
    "results/",
    ".ci/",
];

/// Documents mentioned by bare name.
const DOCUMENTS: [&str; 8] = [
    "RULES.md",
    "ARCHITECTURE.md",
    "README.md",
    "GUIDE.md",
    "CONTRACTS.md",
    "DESIGN.md",
    "LICENSE-MIT",
    "LICENSE-APACHE",
];

/// The path mentions in `line`: words that start (after any `../`) with a
/// repository directory of [`ROOTS`] or are a document of [`DOCUMENTS`],
/// without trailing punctuation and without a `#anchor`.
fn mentions(line: &str) -> BTreeSet<String> {
    let is_path_char = |c: char| c.is_ascii_alphanumeric() || "_./*-".contains(c);
    // A word is a maximal run of path characters.
    line.split(|c: char| !is_path_char(c))
        .filter(|word| {
            let bare = word.trim_start_matches("../");
            ROOTS.iter().any(|root| bare.starts_with(root)) || DOCUMENTS.contains(&bare)
        })
        .map(|word| without_anchor(word.trim_end_matches(['.', ',', ':', ';'])))
        .collect()
}

/// The targets of the Markdown links in `line` that name a file (not a
/// web address, not only an anchor), without their `#anchor`.
fn link_targets(line: &str) -> BTreeSet<String> {
    line.match_indices("](")
        .map(|(at, _)| {
            let target = &line[at + 2..];
            &target[..target.find(')').unwrap_or(target.len())]
        })
        .filter(|target| {
            !target.contains("://") && !target.starts_with("mailto:") && !target.starts_with('#')
        })
        .map(without_anchor)
        .filter(|target| !target.is_empty())
        .collect()
}

/// `text` without its `#anchor`.
fn without_anchor(text: &str) -> String {
    text.split('#').next().unwrap_or(text).to_string()
}

/// Whether a mention is a placeholder rather than a file: a component in
/// capitals (`results/NAME.md`, `exact-SxR.json`) or a `...`.
fn is_placeholder(mention: &str) -> bool {
    let last = mention
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("");
    let stem = last.split('.').next().unwrap_or("");
    mention.contains("...")
        || (stem.chars().any(|c| c.is_ascii_uppercase()) && !DOCUMENTS.contains(&last))
}

/// `path` made plain (`docs/../RULES.md` is `RULES.md`), or `None` if it
/// climbs out of the repository.
fn normalise(path: &Path) -> Option<PathBuf> {
    let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::Normal(part) => parts.push(part),
            _ => {}
        }
    }
    Some(parts.iter().collect())
}

/// Whether a mention names something that exists: a file or directory, or
/// for a glob (`*` in its last component) at least one file.
fn exists(path: &Path) -> bool {
    let text = path.to_string_lossy();
    if !text.contains('*') {
        return root().join(path).exists();
    }
    let directory = path.parent().unwrap_or(Path::new(""));
    let pattern = path.file_name().unwrap_or_default().to_string_lossy();
    let pieces: Vec<&str> = pattern.split('*').collect();
    let Ok(entries) = std::fs::read_dir(root().join(directory)) else {
        return false;
    };
    entries.flatten().any(|entry| {
        let name = entry.file_name().to_string_lossy().into_owned();
        glob_matches(&pieces, &name)
    })
}

/// Whether `name` matches the glob whose literal pieces (split at `*`)
/// are `pieces`.
fn glob_matches(pieces: &[&str], name: &str) -> bool {
    let (first, rest) = pieces.split_first().expect("split gives one piece");
    let Some(mut remaining) = name.strip_prefix(first) else {
        return false;
    };
    for (i, piece) in rest.iter().enumerate() {
        if i == rest.len() - 1 {
            return remaining.ends_with(piece);
        }
        match remaining.find(piece) {
            Some(at) => remaining = &remaining[at + piece.len()..],
            None => return false,
        }
    }
    remaining.is_empty()
}

/// What is wrong with the references of `file`, whose text is `text`: one
/// line per bad reference.
fn bad_references(file: &Path, text: &str) -> Vec<String> {
    // Spelled in two pieces so that this file does not mention them.
    let outside = concat!("..", "/shared");
    let design = concat!("DESIGN", ".md");
    let sections: BTreeSet<u8> = rulebook::section_numbers().into_iter().collect();
    let directory = file.parent().unwrap_or(Path::new(""));
    let mut problems = Vec::new();
    for (number, line) in referring_lines(file, text) {
        let place = format!("{}:{number}", file.display());
        if line.contains(outside) || line.contains(design) {
            problems.push(format!("{place}: refers outside the repository: {line}"));
            continue;
        }
        for (at, _) in line.match_indices("RULES.md section ") {
            let digits: String = line[at + "RULES.md section ".len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if let Ok(section) = digits.parse::<u8>()
                && !sections.contains(&section)
            {
                problems.push(format!("{place}: RULES.md has no section {section}"));
            }
        }
        // A link must lead somewhere; a mention in prose may be a
        // placeholder.
        let mentioned = mentions(&line)
            .into_iter()
            .filter(|mention| !is_placeholder(mention));
        let linked = link_targets(&line);
        let named: BTreeSet<String> = mentioned.chain(linked).collect();
        for mention in named {
            let relative = directory.join(&mention);
            let candidates = if mention.starts_with("../") {
                vec![normalise(&relative)]
            } else {
                vec![normalise(Path::new(&mention)), normalise(&relative)]
            };
            let found = candidates.iter().flatten().any(|path| exists(path));
            if !found {
                problems.push(format!("{place}: `{mention}` does not exist"));
            }
        }
    }
    problems
}

#[test]
fn nothing_refers_outside_the_repository_or_to_a_missing_file() {
    let files = text_files();
    assert!(
        files.iter().any(|f| f == Path::new("README.md")),
        "the file list misses README.md"
    );
    let problems: Vec<String> = files
        .iter()
        .flat_map(|file| bad_references(file, &read(&file.to_string_lossy())))
        .collect();
    assert!(
        problems.is_empty(),
        "bad references:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_reference_check_catches_what_it_is_for() {
    let check = |text: &str| bad_references(Path::new("docs/GUIDE.md"), text);
    // Good: files, directories, globs, links relative to docs/, placeholders.
    for good in [
        "See `ARCHITECTURE.md` and [the rules](../RULES.md#2-roll-call).",
        "Specs live in `analysis/` and `src/games/roll_call/mod.rs`; see CONTRACTS.md.",
        "The runs are `results/roll-call-52-*`, indexed in results/README.md.",
        "Each table writes `results/NAME.md`; RULES.md section 5.",
    ] {
        assert_eq!(check(good), Vec::<String>::new(), "{good}");
    }
    // Bad: outside the repository, missing files, a glob with no match,
    // a section the rule book lacks.
    for bad in [
        concat!("The rules are in `../", "shared/RULES.md`."),
        concat!("The contract of DESIGN", ".md."),
        "See `src/games/poker.rs`.",
        "See [the guide](GUIDES.md).",
        "The runs are `results/poker-*`.",
        "As RULES.md section 9 says.",
        "Up and out: [x](../../RULES.md).",
    ] {
        assert_eq!(check(bad).len(), 1, "{bad}: {:?}", check(bad));
    }
}

// ---------------------------------------------------------------------
// Markdown links and their anchors

/// A heading's anchor as GitHub makes it: lower case, punctuation
/// dropped, spaces as hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown document's headings (outside code blocks).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut in_code = false;
    let mut found = BTreeSet::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            found.insert(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

/// The ids of an HTML page's elements.
fn html_ids(text: &str) -> BTreeSet<String> {
    text.match_indices(" id=\"")
        .filter_map(|(at, marker)| {
            let rest = &text[at + marker.len()..];
            rest.find('"').map(|end| rest[..end].to_string())
        })
        .collect()
}

#[test]
fn markdown_links_lead_to_headings_that_exist() {
    let mut problems = Vec::new();
    for file in text_files() {
        if file.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = read(&file.to_string_lossy());
        let directory = file.parent().unwrap_or(Path::new(""));
        for (at, _) in text.match_indices("](") {
            let target = &text[at + 2..];
            let target = &target[..target.find(')').unwrap_or(0)];
            let Some((path, fragment)) = target.split_once('#') else {
                continue;
            };
            let document = if path.is_empty() {
                file.clone()
            } else {
                match normalise(&directory.join(path)) {
                    Some(document) => document,
                    None => continue, // reported by the reference check
                }
            };
            let Ok(linked) = std::fs::read_to_string(root().join(&document)) else {
                continue; // reported by the reference check
            };
            // A web page of results/ is linked to by its elements' ids.
            let targets = if document.extension().is_some_and(|e| e == "html") {
                html_ids(&linked)
            } else {
                anchors(&linked)
            };
            if !targets.contains(fragment) {
                problems.push(format!(
                    "{}: link to {target}: {} has no heading with that anchor",
                    file.display(),
                    document.display()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---------------------------------------------------------------------
// README's examples

/// One example of README: the command line after `$ deckodds`, and the
/// output README shows (the text between the fences, each line ended).
struct Example {
    line: String,
    shown: String,
    /// Where the shown output starts and ends in README, in bytes.
    span: (usize, usize),
}

/// README's examples: a ```` ```sh ```` block of one `$ deckodds ...` line,
/// then (after blank lines) a ```` ```text ```` block.
fn readme_examples(readme: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    let fence_sh = "```sh\n$ deckodds ";
    let mut from = 0;
    while let Some(at) = readme[from..].find(fence_sh) {
        let start = from + at + fence_sh.len();
        let line_end = start + readme[start..].find('\n').expect("a line");
        let line = readme[start..line_end].to_string();
        let after = &readme[line_end + 1..];
        assert!(
            after.starts_with("```\n"),
            "README: `$ deckodds {line}` is alone in its block"
        );
        let after_close = line_end + 1 + "```\n".len();
        let blank =
            readme[after_close..].len() - readme[after_close..].trim_start_matches('\n').len();
        let text_start = after_close + blank;
        assert!(
            readme[text_start..].starts_with("```text\n"),
            "README: `$ deckodds {line}` has no ```text block after it"
        );
        let body_start = text_start + "```text\n".len();
        let body_end = body_start
            + readme[body_start..]
                .find("```\n")
                .filter(|&end| end == 0 || readme[body_start + end - 1..].starts_with('\n'))
                .expect("a closing fence");
        examples.push(Example {
            line,
            shown: readme[body_start..body_end].to_string(),
            span: (body_start, body_end),
        });
        from = body_end;
    }
    examples
}

/// The words of a command line, with double quotes grouping.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(word);
    }
    words
}

/// What `deckodds LINE` prints on stdout, where LINE may end in
/// `| head -n N` or `| tail -n N`.
fn printed(line: &str) -> String {
    let (command, filter) = match line.split_once('|') {
        Some((command, filter)) => (command, Some(words(filter))),
        None => (line, None),
    };
    let args = words(command);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = run_ok(&args);
    let lines: Vec<&str> = output.lines().collect();
    let kept: Vec<&str> = match filter.as_deref() {
        None => lines,
        Some([tool, flag, count]) if flag == "-n" => {
            let count: usize = count.parse().expect("a line count");
            match tool.as_str() {
                "head" => lines.into_iter().take(count).collect(),
                "tail" => lines[lines.len().saturating_sub(count)..].to_vec(),
                other => panic!("README: `{other}`: examples may pipe only into head or tail"),
            }
        }
        Some(other) => panic!(
            "README: `| {}`: write `| head -n N` or `| tail -n N`",
            other.join(" ")
        ),
    };
    kept.iter().map(|line| format!("{line}\n")).collect()
}

/// Runs every README example and compares its output with the block
/// README shows. With `DECKODDS_UPDATE_README=1` it writes the actual
/// outputs into README instead (then review the diff).
#[test]
fn readme_examples_print_what_readme_shows() {
    let readme = read("README.md");
    let examples = readme_examples(&readme);
    for game in GAMES {
        assert!(
            examples
                .iter()
                .any(|e| e.line.starts_with(&format!("{} ", game.id)) || e.line == game.id),
            "README has no example of {}",
            game.id
        );
    }
    let update = std::env::var_os("DECKODDS_UPDATE_README").is_some_and(|v| v == "1");
    let mut updated = readme.clone();
    let mut mismatches = Vec::new();
    // Back to front, so that the spans still point at the right text.
    for example in examples.iter().rev() {
        let actual = printed(&example.line);
        if actual != example.shown {
            mismatches.push(format!(
                "README shows for `deckodds {}`:\n{}\nbut it prints (paste this into the ```text block):\n{}",
                example.line, example.shown, actual
            ));
            updated.replace_range(example.span.0..example.span.1, &actual);
        }
    }
    if update && !mismatches.is_empty() {
        std::fs::write(root().join("README.md"), updated).unwrap();
        eprintln!("updated README.md: {} example(s)", mismatches.len());
        return;
    }
    assert!(
        mismatches.is_empty(),
        "{}\n(or run this test with DECKODDS_UPDATE_README=1 to rewrite README's blocks)",
        mismatches.join("\n")
    );
}

#[test]
fn readme_examples_are_parsed_as_written() {
    let readme =
        "x\n```sh\n$ deckodds rules roll-call | head -n 2\n```\n\n```text\n# a\nb\n```\ny\n";
    let examples = readme_examples(readme);
    assert_eq!(examples.len(), 1);
    assert_eq!(examples[0].line, "rules roll-call | head -n 2");
    assert_eq!(examples[0].shown, "# a\nb\n");
    assert_eq!(&readme[examples[0].span.0..examples[0].span.1], "# a\nb\n");
    assert_eq!(
        words(r#"blackjack exact --remove "10 10 6""#),
        ["blackjack", "exact", "--remove", "10 10 6"]
    );
    assert_eq!(printed("rules roll-call | head -n 1"), "# The rule book\n");
}

// ---------------------------------------------------------------------
// The rule book

#[test]
fn rules_prints_the_book_and_each_game_its_own_section() {
    assert_eq!(run_ok(&["rules"]), read("RULES.md"));
    // Every game subcommand's help cites its section; `rules NAME` prints
    // that section after the general part, and no other game's.
    let cli = Cli::command();
    let mut games = 0;
    for subcommand in cli.get_subcommands() {
        let about = subcommand
            .get_about()
            .map(|a| a.to_string())
            .unwrap_or_default();
        let Some(at) = about.find("RULES.md section ") else {
            continue;
        };
        games += 1;
        let section: u8 = about[at + "RULES.md section ".len()..][..1]
            .parse()
            .unwrap();
        let entry = registry::by_id(subcommand.get_name()).unwrap();
        assert_eq!(section, entry.rules_section, "{}", entry.id);
        let printed = run_ok(&["rules", subcommand.get_name()]);
        assert!(
            printed.starts_with(rulebook::general()),
            "{}",
            subcommand.get_name()
        );
        let headings: Vec<&str> = printed.lines().filter(|l| l.starts_with("## ")).collect();
        let numbered: Vec<&&str> = headings
            .iter()
            .filter(|h| h.chars().nth(3).is_some_and(|c| c.is_ascii_digit()))
            .collect();
        assert_eq!(
            numbered.len(),
            1 + entry.later_sections.len(),
            "{}: {numbered:?}",
            subcommand.get_name()
        );
        assert!(
            numbered[0].starts_with(&format!("## {section}. ")),
            "{numbered:?}"
        );
    }
    assert_eq!(games, GAMES.len(), "a game subcommand per section");
    assert_bad_input(&[(
        "rules poker",
        "GAME poker: must be one of idiots-delight, roll-call, prisoners-patience, klondike, blackjack",
    )]);
}

/// The rows of the Markdown tables in `text`, as cells.
fn table_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|line| {
            line.starts_with('|') && !line.starts_with("|--") && !line.starts_with("|---")
        })
        .map(|line| {
            line.trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn the_rule_books_published_figures_are_the_ones_checked() {
    // Section 1: the SAS paper's counts, as built into the program.
    let rows = table_rows(rulebook::section(&registry::IDIOTS_DELIGHT));
    let mut counts = Vec::new();
    for row in rows.iter().filter(|row| row[0].parse::<u8>().is_ok()) {
        for pair in row.chunks(2) {
            let left: u8 = pair[0].parse().unwrap();
            let games: u64 = pair[1].replace(',', "").parse().unwrap();
            counts.push((left, games));
        }
    }
    counts.sort();
    assert_eq!(counts, SAS_PAPER_COUNTS.to_vec());
    assert_eq!(counts.iter().map(|(_, n)| n).sum::<u64>(), 1_000_000);

    // Section 2: Frustration solitaire's first pass without a match.
    let first_pass = first_pass_matches(13, 4).unwrap();
    let no_match = BigRational::new(
        first_pass.counts[0].clone().into(),
        BigUint::clone(&first_pass.total).into(),
    );
    let section = rulebook::section(&registry::ROLL_CALL)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let written = format!("{} / {}", no_match.numer(), no_match.denom());
    assert!(
        section.contains(&written),
        "RULES.md section 2 should give {written}"
    );

    // Section 5: both quiz tables, as shipped in analysis/published/.
    let rows = table_rows(rulebook::section(&registry::BLACKJACK));
    for csv in ["quiz151-exact.csv", "quiz151-simulation.csv"] {
        let published = read(&format!("analysis/published/{csv}"));
        for line in published.lines().skip(1) {
            let cells: Vec<String> = line.split(',').map(str::to_string).collect();
            assert!(
                rows.contains(&cells),
                "RULES.md section 5 lacks the {csv} row {line}"
            );
        }
    }
}

// ---------------------------------------------------------------------
// Completions, man pages, the package

/// The top-level subcommands' names.
fn subcommand_names() -> Vec<String> {
    Cli::command()
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect()
}

#[test]
fn completion_scripts_cover_every_command() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = run_ok(&["completions", shell]);
        for name in subcommand_names() {
            assert!(script.contains(&name), "{shell} completions lack {name}");
        }
    }
    let script = run_ok(&["completions", "bash"]);
    let mut bash = Command::new("bash")
        .arg("-n")
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bash runs");
    use std::io::Write;
    bash.stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let output = bash.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "bash -n: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_bad_input(&[(
        "completions tcsh",
        "SHELL tcsh: must be one of bash, zsh, fish, powershell, elvish",
    )]);
}

/// Renders a roff page with groff's man macros, with every warning on;
/// returns the text.
fn groff(page: &str) -> String {
    let mut groff = Command::new("groff")
        // -P-cbou: plain text, no overstriking for bold or underline.
        .args(["-man", "-Tutf8", "-ww", "-P-cbou"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("groff runs");
    use std::io::Write;
    groff
        .stdin
        .take()
        .unwrap()
        .write_all(page.as_bytes())
        .unwrap();
    let output = groff.wait_with_output().unwrap();
    assert!(output.status.success());
    assert!(
        output.stderr.is_empty(),
        "groff warns: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn the_man_page_names_every_command() {
    let page = run_ok(&["man"]);
    assert!(
        page.contains(".TH deckodds 1"),
        "{}",
        &page[..200.min(page.len())]
    );
    for name in subcommand_names().iter().filter(|n| *n != "help") {
        // roff writes a hyphen as `\-`.
        let roff_name = format!("deckodds\\-{}", name.replace('-', "\\-"));
        assert!(page.contains(&roff_name), "the man page lacks {roff_name}");
    }
}

/// The man page, and a page `man --out` writes, render without a warning
/// from groff, the formatter `man` uses.
#[test]
#[cfg_attr(not(deckodds_has_groff), ignore = "needs groff (Debian: groff-base)")]
fn the_man_page_renders_with_groff() {
    require_tool("groff", "groff-base");
    let text = groff(&run_ok(&["man"]));
    assert!(
        text.contains("SYNOPSIS") && text.contains("deckodds-klondike"),
        "{text}"
    );
    let directory = tempfile::tempdir().unwrap();
    run_ok(&["man", "--out", directory.path().to_str().unwrap()]);
    let page = directory.path().join("deckodds-blackjack-exact.1");
    groff(&std::fs::read_to_string(page).unwrap());
}

#[test]
fn man_out_writes_a_page_per_command() {
    let directory = tempfile::tempdir().unwrap();
    let out = directory.path().to_str().unwrap();
    run_ok(&["--quiet", "man", "--out", out]);
    // One page per command of the tree, the built-in `help` left out.
    fn count(command: &clap::Command) -> usize {
        1 + command
            .get_subcommands()
            .filter(|s| s.get_name() != "help")
            .map(count)
            .sum::<usize>()
    }
    let pages: Vec<String> = std::fs::read_dir(directory.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(pages.len(), count(&Cli::command()), "{pages:?}");
    let exact =
        std::fs::read_to_string(directory.path().join("deckodds-blackjack-exact.1")).unwrap();
    assert!(exact.contains(".TH deckodds-blackjack-exact 1 "), "{exact}");
    assert!(
        exact.contains("\"deckodds "),
        "every page's source is deckodds: {exact}"
    );
    assert!(
        exact.contains("\\-\\-decks"),
        "the page lists the command's options"
    );
    let missing = directory.path().join("no-such-directory");
    let output = deckodds()
        .args(["man", "--out", missing.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("must be an existing directory"), "{stderr}");
}

#[test]
fn the_source_package_holds_the_docs_and_no_results() {
    // What cargo actually packs.
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = Command::new(cargo)
        .args(["package", "--list", "--allow-dirty", "--offline"])
        .current_dir(root())
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo package --list: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let listed: BTreeSet<String> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    for needed in [
        "README.md",
        "RULES.md",
        "ARCHITECTURE.md",
        "docs/GUIDE.md",
        "docs/CONTRACTS.md",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "src/lib.rs",
        "build.rs",
        "analysis/published/quiz151-exact.csv",
    ] {
        assert!(listed.contains(needed), "the package lacks {needed}");
    }
    let unwanted: Vec<&String> = listed
        .iter()
        .filter(|f| f.starts_with("results") || f.starts_with("target/"))
        .collect();
    assert!(unwanted.is_empty(), "the package holds {unwanted:?}");
}

// ---------------------------------------------------------------------
// Command lines in the documents

/// The lines of the fenced code blocks of a Markdown text.
fn code_lines(text: &str) -> Vec<(usize, &str)> {
    let mut in_code = false;
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if in_code {
            lines.push((i + 1, line));
        }
    }
    lines
}

/// What is wrong with a documented `deckodds` command line (the words
/// after `deckodds`): a subcommand or an option the program does not
/// have. Values and placeholders (`N`, `[rule options]`) pass.
fn bad_command_line(words: &[&str]) -> Option<String> {
    let mut command = Cli::command();
    command.build();
    let mut depth = 0;
    for word in words {
        if ["|", ">", ">>", "#"].contains(word) {
            break;
        }
        let word = word.trim_start_matches('[');
        if let Some(flag) = word.strip_prefix("--") {
            let name: String = flag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            let known = name == "help"
                || name == "version"
                || command.get_arguments().any(|a| a.get_long() == Some(&name));
            if !known {
                return Some(format!("`{}` has no option --{name}", command.get_name()));
            }
        } else if let Some(sub) = command.find_subcommand(word).cloned() {
            command = sub;
            depth += 1;
        }
    }
    (depth == 0).then(|| "names no command".to_string())
}

#[test]
fn documented_command_lines_use_real_commands_and_options() {
    let mut problems = Vec::new();
    for file in ["README.md", "docs/GUIDE.md"] {
        let text = read(file);
        for (number, line) in code_lines(&text) {
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some(at) = words
                .iter()
                .position(|w| *w == "deckodds" || w.ends_with("/deckodds"))
            else {
                continue;
            };
            if let Some(problem) = bad_command_line(&words[at + 1..]) {
                problems.push(format!("{file}:{number}: {problem}: {line}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The check itself.
    assert_eq!(
        bad_command_line(&["blackjack", "exact", "[--decks", "N|inf]"]),
        None
    );
    assert_eq!(
        bad_command_line(&["--quiet", "klondike", "mc", "--shard", "0/4", "--out", "x"]),
        None
    );
    assert!(bad_command_line(&["--shard", "0/4", "klondike", "mc"]).is_some());
    assert!(bad_command_line(&["blackjack", "exact", "--checkpoint", "c"]).is_some());
    assert!(bad_command_line(&["blackjack", "exact", "--deck", "2"]).is_some());
    assert!(bad_command_line(&["--quiet", "poker"]).is_some());
}
