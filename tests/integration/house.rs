//! The house plan of `src/`, checked over the code itself (ARCHITECTURE.md,
//! "Invariants"):
//!
//! - layers: a file imports only from its own layer and the layers below
//!   it, main > commands > analysis > cli, report > games > engine >
//!   ground (cards, rng, distribution, stats, compare, contract, error); so `engine/`
//!   imports only the ground floor, and `games/` only `engine/` and the
//!   ground floor, and never `serde_json` either;
//! - no import cycle between files anywhere in `src/`;
//! - only `commands/` touches files, the environment or signals;
//! - a game's id (or its report's name) is spelled as a string only in the
//!   registry, the game's folder, its cli file and its command file;
//! - the registry, the command line and the analysis specs name the same
//!   games.
//!
//! Imports are read from the tokens of the code (comments and string
//! literals skipped): every `use` and every path that starts at `crate`,
//! `super`, `self`, a child module or (in main.rs) `deckodds`, resolved to
//! the file that defines the item (following `pub use` re-exports), so
//! that a re-export in a `mod.rs` is no import of everything behind it. A
//! re-export itself counts for the layers (nothing re-exports from above)
//! but not for cycles (naming an item for others is no use of it).
//! Test code (`#[cfg(test)]` items) counts for the imports: a test that
//! imports a game makes its file depend on the game as much as any other
//! line does (and would make the engine's tests a cycle through the
//! games). It does not count for I/O or ids: tests read fixtures and name
//! games.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use clap::CommandFactory;
use deckodds::cli::Cli;
use deckodds::games::registry::{self, GAMES, GameEntry};

// ---------------------------------------------------------------------
// Reading Rust: tokens.

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    /// A string literal's text between its quotes, escapes as written.
    Str(String),
    /// `::`
    Sep,
    Punct(char),
    /// A number or a character literal.
    Literal,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    line: usize,
    /// Inside a `#[cfg(test)]` item.
    test: bool,
    /// The inline modules (`mod name { ... }`) the token is in.
    inline: Vec<String>,
}

/// The tokens of Rust source, without comments, with their lines.
fn lex(text: &str) -> Vec<(Tok, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    // The end of a string body starting at `i` (after its opening quote),
    // with escapes; lines are counted.
    let quoted = |mut i: usize, line: &mut usize| -> usize {
        while i < chars.len() && chars[i] != '"' {
            if chars[i] == '\\' {
                i += 1;
            }
            if at(i) == '\n' {
                *line += 1;
            }
            i += 1;
        }
        i
    };
    while i < chars.len() {
        let c = chars[i];
        let start_line = line;
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            loop {
                if at(i) == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if at(i) == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else if i >= chars.len() {
                    break;
                } else {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if let Some((body, hashes)) = raw_string_start(&chars, i) {
            let mut k = body;
            loop {
                if k >= chars.len() {
                    break;
                }
                if chars[k] == '"' && (1..=hashes).all(|h| at(k + h) == '#') {
                    break;
                }
                if chars[k] == '\n' {
                    line += 1;
                }
                k += 1;
            }
            let content: String = chars[body..k.min(chars.len())].iter().collect();
            tokens.push((Tok::Str(content), start_line));
            i = k + 1 + hashes;
        } else if c == '"' || (c == 'b' && at(i + 1) == '"') {
            let body = i + 1 + usize::from(c == 'b');
            let end = quoted(body, &mut line);
            let content: String = chars[body..end.min(chars.len())].iter().collect();
            tokens.push((Tok::Str(content), start_line));
            i = end + 1;
        } else if c == '\'' || (c == 'b' && at(i + 1) == '\'') {
            let j = i + 1 + usize::from(c == 'b');
            if at(j) == '\\' {
                // An escaped character literal: '\n', '\'', '\u{..}'.
                let mut k = j + 2;
                while at(k) != '\'' && k < chars.len() {
                    k += 1;
                }
                tokens.push((Tok::Literal, start_line));
                i = k + 1;
            } else if at(j + 1) == '\'' {
                tokens.push((Tok::Literal, start_line));
                i = j + 2;
            } else {
                // A lifetime or a label: the quote alone.
                tokens.push((Tok::Punct('\''), start_line));
                i = j;
            }
        } else if c.is_alphabetic() || c == '_' {
            let mut j = i;
            while at(j).is_alphanumeric() || at(j) == '_' {
                j += 1;
            }
            let word: String = chars[i..j].iter().collect();
            tokens.push((Tok::Ident(word), start_line));
            i = j;
        } else if c.is_ascii_digit() {
            let mut j = i;
            while at(j).is_alphanumeric() || at(j) == '_' {
                j += 1;
            }
            tokens.push((Tok::Literal, start_line));
            i = j;
        } else if c == ':' && at(i + 1) == ':' {
            tokens.push((Tok::Sep, start_line));
            i += 2;
        } else {
            tokens.push((Tok::Punct(c), start_line));
            i += 1;
        }
    }
    tokens
}

/// Where the body of a raw string starting at `i` begins (`r"`, `r#"`,
/// `br"`), and its number of `#`s; `None` if none starts there.
fn raw_string_start(chars: &[char], i: usize) -> Option<(usize, usize)> {
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let mut j = match (at(i), at(i + 1)) {
        ('r', _) => i + 1,
        ('b', 'r') => i + 2,
        _ => return None,
    };
    let mut hashes = 0;
    while at(j) == '#' {
        hashes += 1;
        j += 1;
    }
    (at(j) == '"').then_some((j + 1, hashes))
}

/// The index of the bracket that closes the one at `open`.
fn closing(tokens: &[(Tok, usize)], open: usize) -> usize {
    let (left, right) = match tokens[open].0 {
        Tok::Punct('{') => ('{', '}'),
        Tok::Punct('(') => ('(', ')'),
        _ => ('[', ']'),
    };
    let mut depth = 0;
    for (i, (tok, _)) in tokens.iter().enumerate().skip(open) {
        if *tok == Tok::Punct(left) {
            depth += 1;
        } else if *tok == Tok::Punct(right) {
            depth -= 1;
            if depth == 0 {
                return i;
            }
        }
    }
    tokens.len() - 1
}

fn ident(tok: &Tok) -> Option<&str> {
    match tok {
        Tok::Ident(word) => Some(word),
        _ => None,
    }
}

/// The tokens of a file, each marked with whether it is test code and
/// with the inline modules around it.
fn tokens(text: &str) -> Vec<Token> {
    let raw = lex(text);
    let mut test = vec![false; raw.len()];
    let mut inline: Vec<Vec<String>> = vec![Vec::new(); raw.len()];
    let mut i = 0;
    while i < raw.len() {
        // #[cfg(...test...)] and the item it is on.
        if raw[i].0 == Tok::Punct('#') && raw.get(i + 1).map(|t| &t.0) == Some(&Tok::Punct('[')) {
            let end = closing(&raw, i + 1);
            let words: Vec<&str> = raw[i + 2..end].iter().filter_map(|t| ident(&t.0)).collect();
            if words.first() == Some(&"cfg") && words.contains(&"test") && !words.contains(&"not") {
                // Further attributes, then the item: to its `;` or through
                // its body.
                let mut j = end + 1;
                let mut last = j;
                while j < raw.len() {
                    match raw[j].0 {
                        Tok::Punct('#')
                            if raw.get(j + 1).map(|t| &t.0) == Some(&Tok::Punct('[')) =>
                        {
                            j = closing(&raw, j + 1) + 1;
                            continue;
                        }
                        Tok::Punct('(') | Tok::Punct('[') => {
                            j = closing(&raw, j) + 1;
                            continue;
                        }
                        Tok::Punct(';') => {
                            last = j;
                            break;
                        }
                        Tok::Punct('{') => {
                            last = closing(&raw, j);
                            break;
                        }
                        _ => j += 1,
                    }
                }
                test[i..=last.min(raw.len() - 1)].fill(true);
            }
        }
        // mod name { ... }
        if raw[i].0 == Tok::Ident("mod".into())
            && let (Some(Tok::Ident(name)), Some(Tok::Punct('{'))) =
                (raw.get(i + 1).map(|t| &t.0), raw.get(i + 2).map(|t| &t.0))
        {
            // Found outermost first, so each list runs outermost first.
            let end = closing(&raw, i + 2);
            for around in &mut inline[i + 3..end] {
                around.push(name.clone());
            }
        }
        i += 1;
    }
    raw.into_iter()
        .zip(test)
        .zip(inline)
        .map(|(((tok, line), test), inline)| Token {
            tok,
            line,
            test,
            inline,
        })
        .collect()
}

// ---------------------------------------------------------------------
// Paths: `use` trees and paths in code.

/// A path the code names: its segments as written, where it is, and
/// whether it is a `pub use` (a re-export), a glob, or in test code.
#[derive(Clone, Debug)]
struct Named {
    segments: Vec<String>,
    /// The name it is known by here (`as` or its last segment).
    alias: Option<String>,
    glob: bool,
    reexport: bool,
    /// A leaf of a `use` tree (else a path in code).
    from_use: bool,
    line: usize,
    test: bool,
    inline: Vec<String>,
}

/// The leaves of the use tree in `tokens` (after `use`, before `;`).
fn use_leaves(
    tokens: &[Token],
    prefix: &[String],
    out: &mut Vec<(Vec<String>, Option<String>, bool)>,
) {
    let mut path = prefix.to_vec();
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i].tok {
            Tok::Ident(word) if word == "as" => {
                let alias = tokens
                    .get(i + 1)
                    .and_then(|t| ident(&t.tok))
                    .map(str::to_string);
                out.push((path.clone(), alias, false));
                return;
            }
            Tok::Ident(word) if word == "self" && !path.is_empty() => {}
            Tok::Ident(word) => path.push(word.clone()),
            Tok::Sep => {}
            Tok::Punct('*') => {
                out.push((path.clone(), None, true));
                return;
            }
            Tok::Punct('{') => {
                let mut depth = 0;
                let mut start = i + 1;
                for j in i..tokens.len() {
                    match tokens[j].tok {
                        Tok::Punct('{') => depth += 1,
                        Tok::Punct('}') => {
                            depth -= 1;
                            if depth == 0 {
                                if start < j {
                                    use_leaves(&tokens[start..j], &path, out);
                                }
                                return;
                            }
                        }
                        Tok::Punct(',') if depth == 1 => {
                            if start < j {
                                use_leaves(&tokens[start..j], &path, out);
                            }
                            start = j + 1;
                        }
                        _ => {}
                    }
                }
                return;
            }
            _ => {}
        }
        i += 1;
    }
    if !path.is_empty() {
        out.push((path, None, false));
    }
}

/// Every path a file names: `use` leaves, and paths of two segments or
/// more in code.
fn named_paths(tokens: &[Token]) -> Vec<Named> {
    let mut named = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let is_use = tokens[i].tok == Tok::Ident("use".into())
            && (i == 0 || !matches!(tokens[i - 1].tok, Tok::Sep));
        if is_use {
            let end = (i..tokens.len())
                .find(|&j| tokens[j].tok == Tok::Punct(';'))
                .unwrap_or(tokens.len());
            // `pub use`, `pub(crate) use`: a re-export.
            let is_pub = |t: &Token| t.tok == Tok::Ident("pub".into());
            let reexport = match tokens[..i].last().map(|t| &t.tok) {
                Some(Tok::Ident(word)) => word == "pub",
                Some(Tok::Punct(')')) => tokens[..i]
                    .iter()
                    .rev()
                    .skip_while(|t| t.tok != Tok::Punct('('))
                    .nth(1)
                    .is_some_and(is_pub),
                _ => false,
            };
            let mut leaves = Vec::new();
            use_leaves(&tokens[i + 1..end], &[], &mut leaves);
            for (segments, alias, glob) in leaves {
                named.push(Named {
                    segments,
                    alias,
                    glob,
                    reexport,
                    from_use: true,
                    line: tokens[i].line,
                    test: tokens[i].test,
                    inline: tokens[i].inline.clone(),
                });
            }
            i = end + 1;
            continue;
        }
        let starts_path = i == 0 || tokens[i - 1].tok != Tok::Sep;
        if let Tok::Ident(word) = &tokens[i].tok
            && starts_path
            && tokens.get(i + 1).map(|t| &t.tok) == Some(&Tok::Sep)
        {
            let mut segments = vec![word.clone()];
            let mut j = i + 1;
            while tokens.get(j).map(|t| &t.tok) == Some(&Tok::Sep) {
                match tokens.get(j + 1).map(|t| &t.tok) {
                    Some(Tok::Ident(next)) => {
                        segments.push(next.clone());
                        j += 2;
                    }
                    _ => break,
                }
            }
            named.push(Named {
                segments,
                alias: None,
                glob: false,
                reexport: false,
                from_use: false,
                line: tokens[i].line,
                test: tokens[i].test,
                inline: tokens[i].inline.clone(),
            });
            i = j;
            continue;
        }
        i += 1;
    }
    // Paths that do not lead into the crate (`std::fs::read`, a local
    // enum's variant) stay: the I/O check reads them, and the import
    // graph drops them (see `Crate::absolute`).
    named
}

// ---------------------------------------------------------------------
// The crate: files, modules, and what imports what.

/// One source file of the crate.
struct Source {
    /// `src/commands/blackjack.rs`
    path: String,
    tokens: Vec<Token>,
    /// The module path of the file (`["commands", "blackjack"]`).
    module: Vec<String>,
    /// Child modules declared here (`mod name;` or inline).
    children: BTreeSet<String>,
    named: Vec<Named>,
    /// Items defined here by name (fn, struct, const, ...).
    defines: BTreeSet<String>,
}

impl Source {
    fn new(path: &str, text: &str) -> Source {
        let tokens = tokens(text);
        let module: Vec<String> = {
            let stem = path
                .strip_prefix("src/")
                .unwrap_or(path)
                .strip_suffix(".rs")
                .unwrap_or(path);
            let stem = stem.strip_suffix("/mod").unwrap_or(stem);
            if stem == "lib" || stem == "main" {
                Vec::new()
            } else {
                stem.split('/').map(str::to_string).collect()
            }
        };
        let mut children = BTreeSet::new();
        let mut defines = BTreeSet::new();
        for window in tokens.windows(2) {
            if let (Some(keyword), Some(name)) = (ident(&window[0].tok), ident(&window[1].tok)) {
                if keyword == "mod" {
                    children.insert(name.to_string());
                }
                if matches!(
                    keyword,
                    "fn" | "struct"
                        | "enum"
                        | "trait"
                        | "type"
                        | "const"
                        | "static"
                        | "union"
                        | "mod"
                ) {
                    defines.insert(name.to_string());
                }
            }
        }
        let named = named_paths(&tokens);
        Source {
            path: path.to_string(),
            tokens,
            module,
            children,
            named,
            defines,
        }
    }

    fn is_main(&self) -> bool {
        self.path == "src/main.rs"
    }
}

/// An import of one file by another.
#[derive(Clone, Debug)]
struct Edge {
    from: String,
    to: String,
    line: usize,
    path: String,
    test: bool,
    /// A `pub use`: `from` names the item for its users, whose imports
    /// lead to `to` themselves.
    reexport: bool,
}

struct Crate {
    sources: Vec<Source>,
    by_path: HashMap<String, usize>,
}

impl Crate {
    fn new(files: &[(String, String)]) -> Crate {
        let sources: Vec<Source> = files.iter().map(|(p, t)| Source::new(p, t)).collect();
        let by_path = sources
            .iter()
            .enumerate()
            .map(|(i, s)| (s.path.clone(), i))
            .collect();
        Crate { sources, by_path }
    }

    /// The crate's `src/` as it is on disk.
    fn on_disk() -> Crate {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        let mut stack = vec![root.join("src")];
        while let Some(directory) = stack.pop() {
            for entry in std::fs::read_dir(&directory).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let relative = path.strip_prefix(root).unwrap();
                    let name = relative.to_string_lossy().replace('\\', "/");
                    files.push((name, std::fs::read_to_string(&path).unwrap()));
                }
            }
        }
        files.sort();
        Crate::new(&files)
    }

    /// The file of module `module`, if it is a file of its own.
    fn module_file(&self, module: &[String]) -> Option<usize> {
        if module.is_empty() {
            return self.by_path.get("src/lib.rs").copied();
        }
        let base = format!("src/{}", module.join("/"));
        self.by_path
            .get(&format!("{base}.rs"))
            .or_else(|| self.by_path.get(&format!("{base}/mod.rs")))
            .copied()
    }

    /// The absolute module path (from the crate root) of `named` as
    /// written in `source`, or `None` for a path outside the crate.
    fn absolute(&self, source: &Source, named: &Named) -> Option<Vec<String>> {
        let mut here = source.module.clone();
        here.extend(named.inline.iter().cloned());
        let segments = &named.segments;
        let first = segments[0].as_str();
        let rest = |from: usize| segments[from..].to_vec();
        match first {
            "crate" if !source.is_main() => Some(rest(1)),
            "deckodds" if source.is_main() => Some(rest(1)),
            "self" => Some([here, rest(1)].concat()),
            "super" => {
                let ups = segments.iter().take_while(|s| *s == "super").count();
                let keep = here.len().checked_sub(ups)?;
                Some([here[..keep].to_vec(), rest(ups)].concat())
            }
            // A child module: `mod blackjack;` then `blackjack::run(...)`.
            _ if !source.is_main() && source.children.contains(first) => {
                Some([source.module.clone(), segments.clone()].concat())
            }
            // A name a `use` brought in: `use crate::report::comparison;`
            // then `comparison::render(...)`.
            _ if !named.from_use => {
                let binding = source.named.iter().find(|n| {
                    n.from_use
                        && !n.glob
                        && n.alias.as_ref().or(n.segments.last()).map(String::as_str) == Some(first)
                })?;
                Some([self.absolute(source, binding)?, rest(1)].concat())
            }
            _ => None,
        }
    }

    /// The file that defines what the absolute path `path` names: the
    /// deepest module file on it, or, for an item that file re-exports,
    /// the file the re-export leads to.
    fn defining_file(&self, path: &[String], depth: usize) -> Option<usize> {
        let mut file = self.module_file(&[])?;
        let mut module: Vec<String> = Vec::new();
        let mut item = None;
        for segment in path {
            module.push(segment.clone());
            if let Some(next) = self.module_file(&module) {
                file = next;
            } else if self.sources[file].children.contains(segment) {
                // An inline module: the same file.
            } else {
                item = Some(segment.clone());
                break;
            }
        }
        let Some(item) = item else {
            return Some(file);
        };
        if depth > 8 || self.sources[file].defines.contains(&item) {
            return Some(file);
        }
        let source = &self.sources[file];
        for named in source.named.iter().filter(|n| n.reexport) {
            let Some(target) = self.absolute(source, named) else {
                continue;
            };
            let known_as = named
                .alias
                .clone()
                .or_else(|| named.segments.last().cloned());
            if named.glob {
                let mut inner = target.clone();
                inner.push(item.clone());
                if let Some(found) = self.defining_file(&inner, depth + 1)
                    && self.sources[found].defines.contains(&item)
                {
                    return Some(found);
                }
            } else if known_as.as_deref() == Some(item.as_str()) {
                return self.defining_file(&target, depth + 1);
            }
        }
        Some(file)
    }

    /// Every import between two files of the crate.
    fn edges(&self) -> Vec<Edge> {
        let mut edges = Vec::new();
        for source in &self.sources {
            for named in &source.named {
                let Some(path) = self.absolute(source, named) else {
                    continue;
                };
                let Some(to) = self.defining_file(&path, 0) else {
                    continue;
                };
                let to = &self.sources[to].path;
                if *to != source.path {
                    edges.push(Edge {
                        from: source.path.clone(),
                        to: to.clone(),
                        line: named.line,
                        path: named.segments.join("::"),
                        test: named.test,
                        reexport: named.reexport,
                    });
                }
            }
        }
        edges
    }
}

// ---------------------------------------------------------------------
// The checks. Each returns one line per violation, naming file and line.

/// The layers, bottom up, and the files in each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Layer {
    Ground,
    Engine,
    Games,
    Cli,
    Report,
    Analysis,
    Commands,
    Main,
}

impl Layer {
    /// cli and report are one storey: neither imports the other.
    fn storey(self) -> u8 {
        match self {
            Layer::Ground => 0,
            Layer::Engine => 1,
            Layer::Games => 2,
            Layer::Cli | Layer::Report => 3,
            Layer::Analysis => 4,
            Layer::Commands => 5,
            Layer::Main => 6,
        }
    }

    fn of(path: &str) -> Option<Layer> {
        let name = path.strip_prefix("src/")?;
        let top = name.split('/').next()?.trim_end_matches(".rs");
        Some(match top {
            "cards" | "rng" | "distribution" | "stats" | "compare" | "contract" | "error"
            | "csv_text" | "simd" | "lib" => Layer::Ground,
            "engine" => Layer::Engine,
            // The rule book is data about the games, read through the
            // registry.
            "games" | "rulebook" => Layer::Games,
            "cli" => Layer::Cli,
            "report" => Layer::Report,
            "analysis" => Layer::Analysis,
            "commands" => Layer::Commands,
            "main" => Layer::Main,
            _ => return None,
        })
    }
}

/// Imports that go up a layer or sideways between cli and report, files
/// in no layer, and `serde_json` in `games/`.
fn layer_violations(krate: &Crate) -> Vec<String> {
    let mut problems = Vec::new();
    for source in &krate.sources {
        if Layer::of(&source.path).is_none() {
            problems.push(format!(
                "{}: in no layer (add its module to house.rs's Layer::of)",
                source.path
            ));
        }
        if source.path.starts_with("src/games/") {
            for token in &source.tokens {
                if token.tok == Tok::Ident("serde_json".into()) {
                    problems.push(format!(
                        "{}:{}: games use serde_json (JSON belongs to report/)",
                        source.path, token.line
                    ));
                }
            }
        }
    }
    for edge in krate.edges() {
        let (Some(from), Some(to)) = (Layer::of(&edge.from), Layer::of(&edge.to)) else {
            continue;
        };
        if to.storey() > from.storey() || (to.storey() == from.storey() && to != from) {
            problems.push(format!(
                "{}:{}: {from:?} imports {to:?}: {} ({}){}",
                edge.from,
                edge.line,
                edge.path,
                edge.to,
                if edge.test { " in test code" } else { "" }
            ));
        }
    }
    problems
}

/// Every set of files that import each other in a circle (strongly
/// connected components of the import graph), with the imports that close
/// it.
fn cycles(krate: &Crate) -> Vec<String> {
    // A re-export is no use of what it names: a `mod.rs` that re-exports
    // its children's items for its users, and whose children use items it
    // defines, is no circle. Its users' imports lead to the children.
    let edges: Vec<Edge> = krate.edges().into_iter().filter(|e| !e.reexport).collect();
    let mut graph: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for edge in &edges {
        graph.entry(&edge.from).or_default().insert(&edge.to);
        graph.entry(&edge.to).or_default();
    }
    // Tarjan's algorithm.
    struct State<'a> {
        graph: &'a BTreeMap<&'a str, BTreeSet<&'a str>>,
        index: HashMap<&'a str, usize>,
        low: HashMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        components: Vec<Vec<&'a str>>,
    }
    fn visit<'a>(state: &mut State<'a>, node: &'a str) {
        let n = state.index.len();
        state.index.insert(node, n);
        state.low.insert(node, n);
        state.stack.push(node);
        state.on_stack.insert(node);
        for &next in &state.graph[node] {
            if !state.index.contains_key(next) {
                visit(state, next);
                let low = state.low[node].min(state.low[next]);
                state.low.insert(node, low);
            } else if state.on_stack.contains(next) {
                let low = state.low[node].min(state.index[next]);
                state.low.insert(node, low);
            }
        }
        if state.low[node] == state.index[node] {
            let mut component = Vec::new();
            while let Some(member) = state.stack.pop() {
                state.on_stack.remove(member);
                component.push(member);
                if member == node {
                    break;
                }
            }
            state.components.push(component);
        }
    }
    let mut state = State {
        graph: &graph,
        index: HashMap::new(),
        low: HashMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for &node in graph.keys() {
        if !state.index.contains_key(node) {
            visit(&mut state, node);
        }
    }
    let mut problems = Vec::new();
    for mut component in state.components.into_iter().filter(|c| c.len() > 1) {
        component.sort_unstable();
        let members: BTreeSet<&str> = component.iter().copied().collect();
        let mut seen = BTreeSet::new();
        let closing: Vec<String> = edges
            .iter()
            .filter(|e| members.contains(e.from.as_str()) && members.contains(e.to.as_str()))
            .filter(|e| seen.insert((e.from.clone(), e.to.clone())))
            .map(|e| format!("{}:{} -> {} ({})", e.from, e.line, e.to, e.path))
            .collect();
        problems.push(format!(
            "import cycle between {}: {}",
            component.join(", "),
            closing.join("; ")
        ));
    }
    problems
}

/// Paths that touch files, the environment or signals, by their start.
const IO_PATHS: [&[&str]; 8] = [
    &["std", "fs"],
    &["std", "env"],
    &["fs"],
    &["env"],
    &["tempfile"],
    &["ctrlc"],
    &["signal_hook"],
    &["libc"],
];

/// Production code outside `commands/` that touches files, the
/// environment or signals.
fn io_outside_commands(krate: &Crate) -> Vec<String> {
    let mut problems = Vec::new();
    for source in krate
        .sources
        .iter()
        .filter(|s| !s.path.starts_with("src/commands/"))
    {
        for named in source.named.iter().filter(|n| !n.test) {
            if IO_PATHS.iter().any(|start| {
                named.segments.len() >= start.len() && named.segments[..start.len()] == **start
            }) {
                problems.push(format!(
                    "{}:{}: I/O outside commands/: {}",
                    source.path,
                    named.line,
                    named.segments.join("::")
                ));
            }
        }
    }
    problems
}

/// The files that may spell `game`'s id and report name: the registry,
/// the game's folder, its cli file and its command file.
fn may_spell(game: &GameEntry, path: &str) -> bool {
    let folder = game.id.replace('-', "_");
    path == "src/games/registry.rs"
        || path.starts_with(&format!("src/games/{folder}/"))
        || path == format!("src/cli/{folder}.rs")
        || path == format!("src/commands/{folder}.rs")
}

/// String literals in production code equal to a game's id or report
/// name, outside the places that may spell it.
fn misplaced_game_ids(krate: &Crate, games: &[&GameEntry]) -> Vec<String> {
    let mut problems = Vec::new();
    for source in &krate.sources {
        for token in source.tokens.iter().filter(|t| !t.test) {
            let Tok::Str(text) = &token.tok else {
                continue;
            };
            for game in games {
                if (text == game.id || text == game.report_name) && !may_spell(game, &source.path) {
                    problems.push(format!(
                        "{}:{}: spells the game id \"{text}\" (use games::registry::{})",
                        source.path,
                        token.line,
                        game.id.replace('-', "_").to_uppercase()
                    ));
                }
            }
        }
    }
    problems
}

fn assert_none(what: &str, problems: &[String]) {
    assert!(
        problems.is_empty(),
        "{what}: {} violation(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

// ---------------------------------------------------------------------
// The tree as it is.

#[test]
fn each_layer_imports_only_its_own_and_the_layers_below() {
    assert_none("layers", &layer_violations(&Crate::on_disk()));
}

#[test]
fn no_file_imports_itself_through_others() {
    assert_none("import cycles", &cycles(&Crate::on_disk()));
}

#[test]
fn only_commands_touch_files_the_environment_or_signals() {
    assert_none("I/O", &io_outside_commands(&Crate::on_disk()));
}

#[test]
fn a_game_is_named_only_in_its_own_places() {
    assert_none("game ids", &misplaced_game_ids(&Crate::on_disk(), &GAMES));
}

/// The top-level commands that are not a game.
const CROSS_GAME: [&str; 6] = [
    "reproduce",
    "merge",
    "rules",
    "completions",
    "man",
    "schema",
];

#[test]
fn the_registry_lists_every_game_command_and_nothing_else() {
    let cli = Cli::command();
    let commands: BTreeSet<&str> = cli
        .get_subcommands()
        .map(|c| c.get_name())
        .filter(|name| !CROSS_GAME.contains(name) && *name != "help")
        .collect();
    let ids: BTreeSet<&str> = GAMES.iter().map(|game| game.id).collect();
    assert_eq!(
        commands, ids,
        "a game subcommand without a registry entry, or an entry without a subcommand"
    );
    for name in CROSS_GAME {
        assert!(cli.find_subcommand(name).is_some(), "no `{name}` command");
    }
    // The exceptions the registry states name real commands and options.
    for game in GAMES {
        let command = cli.find_subcommand(game.id).unwrap();
        for exception in game
            .samples_nothing_with
            .iter()
            .chain(game.draws_own_chart_with)
        {
            let sub = command
                .find_subcommand(exception.command)
                .unwrap_or_else(|| panic!("{} has no {}", game.id, exception.command));
            assert!(
                sub.get_arguments()
                    .any(|a| a.get_long() == Some(exception.option)),
                "{} {} has no --{}",
                game.id,
                exception.command,
                exception.option
            );
        }
    }
}

#[test]
fn every_game_an_analysis_spec_names_is_in_the_registry() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis");
    let mut specs = 0;
    let mut named = BTreeSet::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        specs += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        // `game` is a top-level key, so it comes before any [table].
        let game = text
            .lines()
            .take_while(|line| !line.trim_start().starts_with('['))
            .find_map(|line| {
                let (key, value) = line.split_once('=')?;
                (key.trim() == "game").then(|| value.trim().trim_matches('"').to_string())
            })
            .unwrap_or_else(|| panic!("{}: no game", path.display()));
        assert!(
            registry::by_id(&game).is_some(),
            "{}: game = {game:?} is not in the registry",
            path.display()
        );
        named.insert(game);
    }
    assert!(specs > 0 && !named.is_empty());
}

// ---------------------------------------------------------------------
// The checker catches what it is for.

fn synthetic(files: &[(&str, &str)]) -> Crate {
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    Crate::new(&files)
}

const LIB: &str = "pub mod cards; pub mod engine; pub mod games; pub mod report; pub mod commands; pub use cards::Card;";

#[test]
fn the_lexer_skips_comments_and_strings_and_reads_use_trees() {
    let source = Source::new(
        "src/engine/x.rs",
        r####"
// use crate::commands::a;
/* use crate::commands::b; /* nested */ still a comment */
const A: &str = "use crate::commands::c;";
const B: &str = r#"crate::commands::d "quoted" "#;
const C: char = '"';
fn f<'a>(x: &'a str) -> &'a str { x }
use crate::games::{self, y::{Z, W as V}, q::*};
fn g() { crate::report::h(); super::k::l(); }
"####,
    );
    let paths: Vec<String> = source
        .named
        .iter()
        .map(|n| {
            format!(
                "{}{}{}@{}",
                n.segments.join("::"),
                if n.glob { "::*" } else { "" },
                n.alias
                    .as_ref()
                    .map(|a| format!(" as {a}"))
                    .unwrap_or_default(),
                n.line
            )
        })
        .collect();
    assert_eq!(
        paths,
        [
            "crate::games@8",
            "crate::games::y::Z@8",
            "crate::games::y::W as V@8",
            "crate::games::q::*@8",
            "crate::report::h@9",
            "super::k::l@9"
        ]
    );
    let strings: Vec<&Tok> = source
        .tokens
        .iter()
        .map(|t| &t.tok)
        .filter(|t| matches!(t, Tok::Str(_)))
        .collect();
    assert_eq!(
        strings,
        [
            &Tok::Str("use crate::commands::c;".into()),
            &Tok::Str("crate::commands::d \"quoted\" ".into())
        ]
    );
}

#[test]
fn the_layer_check_catches_imports_upward_and_serde_json_in_games() {
    let krate = synthetic(&[
        ("src/lib.rs", LIB),
        ("src/cards.rs", "pub struct Card;"),
        ("src/engine/mod.rs", "pub mod run;"),
        (
            "src/engine/run.rs",
            "use crate::Card;\n#[cfg(test)]\nmod tests {\n    use crate::games::toy::Toy;\n}\n",
        ),
        ("src/games/mod.rs", "pub mod toy;"),
        (
            "src/games/toy.rs",
            "use crate::engine::run;\nuse crate::report::Table;\npub struct Toy;\nfn j() { serde_json::json!({}); }\n",
        ),
        ("src/report/mod.rs", "pub struct Table;"),
        ("src/commands/mod.rs", "use crate::report::Table;"),
        ("src/stray.rs", ""),
    ]);
    let problems = layer_violations(&krate);
    assert_eq!(
        problems,
        [
            "src/games/toy.rs:4: games use serde_json (JSON belongs to report/)",
            "src/stray.rs: in no layer (add its module to house.rs's Layer::of)",
            "src/engine/run.rs:4: Engine imports Games: crate::games::toy::Toy (src/games/toy.rs) in test code",
            "src/games/toy.rs:2: Games imports Report: crate::report::Table (src/report/mod.rs)",
        ],
        "{problems:#?}"
    );
}

#[test]
fn the_cycle_check_follows_re_exports_and_super() {
    let krate = synthetic(&[
        ("src/lib.rs", LIB),
        (
            "src/commands/mod.rs",
            "mod a; mod b; mod c;\npub use c::Context;\npub fn run() { a::go(); }\npub mod input {\n    pub use super::b::parse;\n}\n",
        ),
        // a -> b -> a, through `super` and a path in code.
        ("src/commands/a.rs", "use super::b::Sample;\npub fn go() {}"),
        (
            "src/commands/b.rs",
            "pub struct Sample;\npub fn parse() { super::a::go(); }",
        ),
        // Context is re-exported by mod.rs but defined in c.rs: importing
        // it is no import of mod.rs, and c.rs using mod.rs's `run` makes
        // no circle through the re-export.
        (
            "src/commands/c.rs",
            "pub struct Context;\nfn f() { super::run(); }",
        ),
        ("src/commands/d.rs", "use super::Context;"),
    ]);
    let edges: Vec<String> = krate
        .edges()
        .iter()
        .map(|e| format!("{} -> {}", e.from, e.to))
        .collect();
    assert!(
        edges.contains(&"src/commands/d.rs -> src/commands/c.rs".to_string()),
        "{edges:?}"
    );
    assert!(
        edges.contains(&"src/commands/mod.rs -> src/commands/a.rs".to_string()),
        "{edges:?}"
    );
    assert!(
        edges.contains(&"src/commands/mod.rs -> src/commands/b.rs".to_string()),
        "{edges:?}"
    );
    assert_eq!(
        cycles(&krate),
        [
            "import cycle between src/commands/a.rs, src/commands/b.rs: \
          src/commands/a.rs:1 -> src/commands/b.rs (super::b::Sample); \
          src/commands/b.rs:2 -> src/commands/a.rs (super::a::go)"
        ]
    );
}

#[test]
fn the_io_check_skips_commands_and_tests() {
    let krate = synthetic(&[
        ("src/lib.rs", LIB),
        (
            "src/report/mod.rs",
            "use std::fs;\nfn f() { std::env::var(\"X\"); let d = env!(\"CARGO_MANIFEST_DIR\"); }\n#[cfg(test)]\nmod tests {\n    fn g() { std::fs::read(\"x\"); }\n}\n",
        ),
        (
            "src/commands/mod.rs",
            "use std::fs::File;\nfn h() { ctrlc::set_handler(|| {}); }",
        ),
    ]);
    assert_eq!(
        io_outside_commands(&krate),
        [
            "src/report/mod.rs:1: I/O outside commands/: std::fs",
            "src/report/mod.rs:2: I/O outside commands/: std::env::var",
        ]
    );
}

#[test]
fn the_id_check_allows_a_games_own_places_only() {
    let games = [&registry::ROLL_CALL, &registry::BLACKJACK];
    let krate = synthetic(&[
        ("src/games/registry.rs", "const A: &str = \"roll-call\";"),
        (
            "src/games/roll_call/mod.rs",
            "const A: &str = \"roll-call\";",
        ),
        (
            "src/commands/roll_call.rs",
            "const A: &str = \"roll-call\";\nconst B: &str = \"blackjack-dealer\";",
        ),
        ("src/cli/roll_call.rs", "#[command(name = \"roll-call\")]"),
        (
            "src/report/figures.rs",
            "const A: &str = \"a roll-call chart\";\nfn f() { if g == \"blackjack\" {} }\n#[cfg(test)]\nmod tests { const T: &str = \"roll-call\"; }\n",
        ),
    ]);
    assert_eq!(
        misplaced_game_ids(&krate, &games),
        [
            "src/commands/roll_call.rs:2: spells the game id \"blackjack-dealer\" (use games::registry::BLACKJACK)",
            "src/report/figures.rs:2: spells the game id \"blackjack\" (use games::registry::BLACKJACK)",
        ]
    );
}
