//! The results folder as a static website: `index.html`, which answers
//! the questions (a headline table per game and variant, and what the
//! comparisons found), and one page per table family, each table's
//! Markdown shown as HTML with its chart and files.
//!
//! Pages are self-contained: inline CSS, figures as local `<img>` links,
//! no external font, script or stylesheet, so they work opened from disk
//! and served by any static host. Every page has `lang`, a `<title>`, a
//! viewport meta; every table `<th scope>` and a scrolling wrapper (no
//! horizontal overflow at 390 px); every figure alt text.
//!
//! Architecture invariant: strings from typed structs, no I/O; the
//! `commands` layer writes the files.

mod markdown;

pub use markdown::{Block, markdown_blocks};

use std::fmt::Write as _;

/// The front page.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexPage {
    /// The results folder's name, for the title.
    pub folder: String,
    /// One section per game, in the registry's order.
    pub games: Vec<GameSection>,
}

/// A game on the front page.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSection {
    /// The game's heading (the registry's results heading).
    pub heading: String,
    /// Its sections of RULES.md: its own, then any later ones.
    pub rules_sections: Vec<u8>,
    /// Its rows of the headline table.
    pub headlines: Vec<HeadlineRow>,
    /// What its comparisons found: one sentence each, with the page and
    /// table it comes from.
    pub findings: Vec<Finding>,
    /// Its families' pages: (page file, family name, tables).
    pub families: Vec<FamilyLink>,
    /// Its long-form CSV of every table's figures, if it has one.
    pub csv: Option<String>,
}

/// A link to a family's page.
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyLink {
    /// The page file: `klondike-52.html`.
    pub page: String,
    /// The family: `klondike-52`.
    pub family: String,
    /// How many tables it holds.
    pub tables: usize,
}

/// A sentence on what a comparison found, linked to its table.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The sentence, its figures already filled in from the JSON.
    pub text: String,
    /// `page.html#table`.
    pub link: String,
}

/// What a row of the answers table is: each game's rows come in this
/// order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum HeadlineRole {
    /// The usual game, under good play where deckodds computes it: one
    /// row per game, first.
    Usual,
    /// Another variant of the game.
    Variant,
    /// A seed question's figure: a fixed policy, or a seed program's
    /// rules.
    Seed,
}

impl HeadlineRole {
    /// The words the row's variant is marked with, if any.
    pub fn mark(self) -> Option<&'static str> {
        match self {
            HeadlineRole::Usual => Some("the usual game"),
            HeadlineRole::Variant => None,
            HeadlineRole::Seed => Some("seed question"),
        }
    }
}

/// One row of the headline table.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadlineRow {
    /// The game, for the README's single table.
    pub game: String,
    /// What the row is: the usual game, a variant, a seed question.
    pub role: HeadlineRole,
    /// The variant in words.
    pub variant: String,
    /// What the figure is: `P(win)`.
    pub label: String,
    /// The figure.
    pub figure: HeadlineValue,
    /// The mean outcome, where the table has one, in words.
    pub mean: Option<String>,
    /// A few words beside the figure (what is undecided, what it counts).
    pub note: Option<String>,
    /// The method: `exact`, `Monte Carlo, 10,000,000 trials`.
    pub method: String,
    /// `page.html#table`.
    pub link: String,
    /// The table's Markdown file, `table.md`, where it has one: what
    /// README's rows link to (a code host shows Markdown as a table and
    /// HTML as source).
    pub markdown_file: Option<String>,
    /// The table's name.
    pub table: String,
}

/// A headline figure.
#[derive(Clone, Debug, PartialEq)]
pub enum HeadlineValue {
    /// An exact probability or value: its reduced fraction and nearest
    /// `f64`.
    Exact { fraction: String, value: f64 },
    /// An estimate with its 95% interval.
    Estimate { value: f64, low: f64, high: f64 },
}

/// A family's page.
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyPage {
    /// The family: the page is `FAMILY.html`.
    pub family: String,
    /// Its title, in words.
    pub title: String,
    /// The game's heading.
    pub game_heading: String,
    /// The section of RULES.md its tables follow (blackjack's player
    /// commands: 6, not the dealer's 5).
    pub rules_section: u8,
    /// The spec file, from the project folder: `analysis/FAMILY.toml`
    /// (named, not linked: the site is the results folder alone).
    pub spec_path: String,
    /// Its tables, then those of the families it also shows.
    pub sections: Vec<PageSection>,
    /// A selector over the tables (families of more than a few tables).
    pub selector: Option<Selector>,
}

/// A group of tables on a page: the family's own, or one it also shows.
#[derive(Clone, Debug, PartialEq)]
pub struct PageSection {
    /// The heading, for a family also shown; `None` for the page's own.
    pub heading: Option<String>,
    /// For a family also shown by its tables' descriptions and charts
    /// only: its own page, which shows the tables whole.
    pub summary_of: Option<String>,
    /// The tables.
    pub tables: Vec<TableSection>,
}

/// One table on a page.
#[derive(Clone, Debug, PartialEq)]
pub struct TableSection {
    /// The table's name: its anchor.
    pub name: String,
    /// The spec's description.
    pub description: String,
    /// The method, in words.
    pub method: String,
    /// Its files, as (kind, file name).
    pub files: Vec<(String, String)>,
    /// Its chart, if it has one: (file name, alt text).
    pub figure: Option<(String, String)>,
    /// Its Markdown output as blocks; empty for a table without one, or
    /// shown elsewhere.
    pub blocks: Vec<Block>,
    /// Where the table is shown whole, when this page shows only its
    /// description and chart: `page.html#table`.
    pub shown_whole_at: Option<String>,
    /// The choice this table is in the page's selector:
    /// (parameter, value) pairs.
    pub choice: Vec<(String, String)>,
}

/// Pick a table by its parameters: a `<select>` per parameter that varies
/// across the family, and without JavaScript a list of links.
#[derive(Clone, Debug, PartialEq)]
pub struct Selector {
    /// (parameter, its values in order).
    pub axes: Vec<(String, Vec<String>)>,
}

const STYLE: &str = "\
body{font:16px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;max-width:70rem;padding:0 1rem 3rem;color:#1b1b1b;background:#fff}
h1{font-size:1.6rem}h2{font-size:1.3rem;margin-top:2.2rem}h3{font-size:1.05rem;margin-top:1.8rem;overflow-wrap:anywhere}h4{font-size:1rem;margin:1.2rem 0 .4rem}
p,li{overflow-wrap:anywhere}
.scroll{overflow-x:auto;max-width:100%;margin:.6rem 0}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:.9rem}
th,td{border-bottom:1px solid #ddd;padding:.2rem .5rem;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}thead th{border-bottom:2px solid #888}
.headline th,.headline td{white-space:normal;text-align:left;vertical-align:top;min-width:6rem}
.role{font-weight:600}
.hint{font-size:.85rem;color:#555;margin:.6rem 0 -.3rem}
img{max-width:100%;height:auto;border:1px solid #eee}
code{font-size:.9em;overflow-wrap:anywhere}
nav a{margin-right:.6rem}.muted{color:#555;font-size:.9rem}
.picker label{margin-right:.8rem}.links{columns:14rem}
@media (max-width:45rem){
.headline,.headline tbody,.headline tr,.headline th,.headline td{display:block;min-width:0}
.headline thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.headline tr{border-bottom:2px solid #888;padding:.4rem 0}
.headline th,.headline td{border:0;padding:.1rem 0}
.headline td[data-label]::before{content:attr(data-label) \": \";color:#555}
}
";

/// The page around `body`, titled `title`.
fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

/// `text` safe in HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// A percentage for people: 4 significant digits, so that a rare win
/// (0.004 %) is not printed as zero.
pub fn percent(value: f64) -> String {
    let p = value * 100.0;
    if p == 0.0 || !p.is_finite() {
        return format!("{p}");
    }
    let digits = 3 - p.abs().log10().floor() as i32;
    format!("{:.*}", digits.max(0) as usize, p)
}

impl HeadlineValue {
    /// Minus the figure: a house edge from the player's expectation. An
    /// exact fraction changes sign; an interval's ends swap.
    pub fn negated(self) -> HeadlineValue {
        match self {
            HeadlineValue::Exact { fraction, value } => HeadlineValue::Exact {
                fraction: match fraction.strip_prefix('-') {
                    Some(positive) => positive.to_string(),
                    None if fraction == "0" => fraction,
                    None => format!("-{fraction}"),
                },
                value: -value,
            },
            HeadlineValue::Estimate { value, low, high } => HeadlineValue::Estimate {
                value: -value,
                low: -high,
                high: -low,
            },
        }
    }

    /// The figure as a percentage, with its interval or exact fraction.
    pub fn text(&self) -> String {
        match self {
            HeadlineValue::Exact { fraction, value } if fraction.len() <= 24 => {
                format!("{} % (exactly {fraction})", percent(*value))
            }
            HeadlineValue::Exact { value, .. } => {
                format!("{} % (exact; fraction in the JSON)", percent(*value))
            }
            HeadlineValue::Estimate { value, low, high } => format!(
                "{} % [{}, {}]",
                percent(*value),
                percent(*low),
                percent(*high)
            ),
        }
    }
}

/// The answers table's column headings, in order.
const HEADLINE_COLUMNS: [&str; 7] = [
    "game",
    "variant",
    "figure",
    "value (95 % interval or exact)",
    "mean or note",
    "method",
    "table",
];

/// The mean and the note of a row, as one cell.
fn mean_and_note(row: &HeadlineRow) -> String {
    [row.note.as_deref(), row.mean.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("; ")
}

/// The headline table as HTML: a row per game variant. On a narrow
/// screen (CSS) each row is a block of its cells, each labelled with its
/// column, so that every value shows without scrolling sideways.
fn headline_table(rows: &[HeadlineRow]) -> String {
    let mut out = String::from("<div class=\"scroll\"><table class=\"headline\">\n<thead><tr>");
    for column in HEADLINE_COLUMNS {
        let _ = write!(out, "<th scope=\"col\">{}</th>", escape(column));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        let cell = |column: usize, text: &str| {
            if text.is_empty() {
                "<td></td>".to_string()
            } else {
                format!(
                    "<td data-label=\"{}\">{}</td>",
                    escape(HEADLINE_COLUMNS[column]),
                    escape(text)
                )
            }
        };
        let mark = row.role.mark().map_or_else(String::new, |mark| {
            format!("<span class=\"role\">{}:</span> ", escape(mark))
        });
        let _ = writeln!(
            out,
            "<tr>{}<th scope=\"row\">{mark}{}</th>{}<td data-label=\"{}\" class=\"value\">{}</td>{}{}<td data-label=\"{}\"><a href=\"{}\">{}</a></td></tr>",
            cell(0, &row.game),
            escape(&row.variant),
            cell(2, &row.label),
            escape(HEADLINE_COLUMNS[3]),
            escape(&row.figure.text()),
            cell(4, &mean_and_note(row)),
            cell(5, &row.method),
            escape(HEADLINE_COLUMNS[6]),
            escape(&row.link),
            escape(&row.table),
        );
    }
    out.push_str("</tbody></table></div>\n");
    out
}

/// `RULES.md section 5` or `RULES.md sections 5 and 6`.
fn sections_text(sections: &[u8]) -> String {
    match sections {
        [one] => format!("RULES.md section {one}"),
        _ => {
            let all: Vec<String> = sections.iter().map(u8::to_string).collect();
            format!("RULES.md sections {}", all.join(" and "))
        }
    }
}

/// The front page.
pub fn index_html(index: &IndexPage) -> String {
    let mut body = format!(
        "<h1>Card-game odds: {}/</h1>\n<p>The odds of winning each game deckodds plays, computed exactly where it can and by Monte Carlo (95 % Wilson intervals) where it cannot, and what the comparisons with published tables found. Every figure here is read from the tables' JSON files; every page is generated by <code>deckodds reproduce</code> from the specs in <code>analysis/</code>.</p>\n<p>Each game's rows come in order: <strong>the usual game</strong> (the question a player asks, under good play where deckodds computes it), then its variants, then the <strong>seed questions</strong>: the figures of the five write-ups deckodds began from (a SAS paper, a blackjack quiz, a programming exercise and two write-ups with simulation programs), under their own rules and fixed ways of play.</p>\n",
        escape(&index.folder)
    );
    body.push_str("<nav>");
    for game in &index.games {
        let _ = write!(
            body,
            "<a href=\"#{}\">{}</a>",
            anchor(&game.heading),
            escape(&game.heading)
        );
    }
    body.push_str("</nav>\n");
    let rows: Vec<HeadlineRow> = index
        .games
        .iter()
        .flat_map(|g| g.headlines.iter().cloned())
        .collect();
    body.push_str("<h2 id=\"headline\">The answers</h2>\n");
    body.push_str(&headline_table(&rows));
    for game in &index.games {
        let _ = writeln!(
            body,
            "<h2 id=\"{}\">{} <span class=\"muted\">({})</span></h2>",
            anchor(&game.heading),
            escape(&game.heading),
            sections_text(&game.rules_sections)
        );
        if !game.findings.is_empty() {
            body.push_str("<p>");
            for (i, finding) in game.findings.iter().enumerate() {
                if i > 0 {
                    body.push(' ');
                }
                let _ = write!(
                    body,
                    "{} (<a href=\"{}\">table</a>)",
                    escape(&finding.text),
                    escape(&finding.link)
                );
            }
            body.push_str("</p>\n");
        }
        body.push_str("<ul class=\"links\">\n");
        for family in &game.families {
            let _ = writeln!(
                body,
                "<li><a href=\"{}\">{}</a> <span class=\"muted\">({} {})</span></li>",
                escape(&family.page),
                escape(&family.family),
                family.tables,
                if family.tables == 1 {
                    "table"
                } else {
                    "tables"
                }
            );
        }
        if let Some(csv) = &game.csv {
            let _ = writeln!(
                body,
                "<li><a href=\"{0}\">{0}</a> <span class=\"muted\">(the figures of every table without a CSV of its own, in one long-form CSV)</span></li>",
                escape(csv)
            );
        }
        body.push_str("</ul>\n");
    }
    body.push_str("<p class=\"muted\">The file list with provenance: <a href=\"README.md\">README.md</a>.</p>\n");
    page(&format!("Card-game odds: {}", index.folder), &body)
}

/// The headline table as Markdown, for README.md: one row per game and
/// variant, linked to the table's Markdown file in `folder` (else its
/// page).
pub fn headline_markdown(index: &IndexPage, folder: &str) -> String {
    let mut out = format!(
        "| {} |\n|{}\n",
        HEADLINE_COLUMNS.join(" | "),
        "---|".repeat(HEADLINE_COLUMNS.len())
    );
    for game in &index.games {
        for row in &game.headlines {
            let cell = |text: &str| text.replace('|', "\\|");
            let mark = row
                .role
                .mark()
                .map_or_else(String::new, |mark| format!("**{mark}:** "));
            let _ = writeln!(
                out,
                "| {} | {mark}{} | {} | {} | {} | {} | [{}]({folder}/{}) |",
                cell(&row.game),
                cell(&row.variant),
                cell(&row.label),
                cell(&row.figure.text()),
                cell(&mean_and_note(row)),
                cell(&row.method),
                row.table,
                row.markdown_file.as_deref().unwrap_or(&row.link),
            );
        }
    }
    out
}

/// An id for a heading: lower case letters and digits, `-` between.
fn anchor(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// A family's page.
pub fn family_html(family: &FamilyPage) -> String {
    let mut body = format!(
        "<p><a href=\"index.html\">All results</a></p>\n<h1>{} <span class=\"muted\">({}, RULES.md section {})</span></h1>\n<p class=\"muted\">The tables <code>{}</code>, made by the spec <code>{}</code>, whose text each table's provenance record holds.</p>\n",
        escape(&family.title),
        escape(&family.game_heading),
        family.rules_section,
        escape(&family.family),
        escape(&family.spec_path),
    );
    if let Some(selector) = &family.selector {
        body.push_str(&selector_html(selector, family));
    }
    for section in &family.sections {
        if let Some(heading) = &section.heading {
            let _ = writeln!(body, "<h2>{}</h2>", escape(heading));
        }
        if let Some(page) = &section.summary_of {
            let _ = writeln!(
                body,
                "<p>Each table by its description and chart; the tables themselves are on <a href=\"{0}\">{0}</a>.</p>",
                escape(page)
            );
        }
        for table in &section.tables {
            body.push_str(&table_html(table));
        }
    }
    page(&family.title, &body)
}

/// The selector: a form of `<select>`s whose few lines of script jump to
/// the table chosen, and the links to every table, which work without
/// JavaScript.
fn selector_html(selector: &Selector, family: &FamilyPage) -> String {
    let mut out = String::from("<h2>Choose a table</h2>\n<form class=\"picker\" id=\"picker\">");
    for (name, values) in &selector.axes {
        let _ = write!(
            out,
            "<label>{} <select name=\"{}\">",
            escape(name),
            escape(name)
        );
        for value in values {
            let _ = write!(out, "<option>{}</option>", escape(value));
        }
        out.push_str("</select></label>");
    }
    out.push_str("</form>\n<ul class=\"links\">\n");
    for table in family.sections.iter().take(1).flat_map(|s| &s.tables) {
        let words: Vec<String> = table
            .choice
            .iter()
            .map(|(name, value)| format!("{name} {value}"))
            .collect();
        let _ = writeln!(
            out,
            "<li><a href=\"#{}\">{}</a></li>",
            escape(&table.name),
            escape(&words.join(", "))
        );
    }
    out.push_str("</ul>\n");
    // Without JavaScript the links above do the same.
    out.push_str(
        "<script>\nvar f=document.getElementById('picker');\nf.addEventListener('change',function(){var c=[];for(var i=0;i<f.elements.length;i++){c.push(f.elements[i].name+'='+f.elements[i].value);}var s=document.querySelector('[data-choice=\"'+c.join(';')+'\"]');if(s){location.hash=s.id;}});\n</script>\n",
    );
    out
}

/// One table's section: its heading, description, chart, tables and
/// files.
fn table_html(table: &TableSection) -> String {
    let choice: Vec<String> = table
        .choice
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    let mut out = format!(
        "<section id=\"{}\"{}>\n<h3>{}</h3>\n<p>{}</p>\n<p class=\"muted\">{}</p>\n",
        escape(&table.name),
        if choice.is_empty() {
            String::new()
        } else {
            format!(" data-choice=\"{}\"", escape(&choice.join(";")))
        },
        escape(&table.name),
        escape(&table.description),
        escape(&table.method),
    );
    if let Some((file, alt)) = &table.figure {
        let _ = writeln!(
            out,
            "<p><a href=\"{0}\"><img src=\"{0}\" alt=\"{1}\"></a></p>",
            escape(file),
            escape(alt)
        );
    }
    for block in &table.blocks {
        out.push_str(&block.html());
    }
    if let Some(link) = &table.shown_whole_at {
        let _ = writeln!(
            out,
            "<p>The table: <a href=\"{}\">{} on its family's page</a>.</p>",
            escape(link),
            escape(&table.name)
        );
    }
    let files: Vec<String> = table
        .files
        .iter()
        .map(|(kind, file)| format!("<a href=\"{}\">{}</a>", escape(file), escape(kind)))
        .collect();
    let _ = writeln!(
        out,
        "<p class=\"muted\">Files: {}</p>\n</section>",
        files.join(" · ")
    );
    out
}

#[cfg(test)]
mod tests;
