//! The Markdown the report renderers write (headings, paragraphs, `- `
//! lists, `**bold**`, backslash escapes and pipe tables), read back as
//! blocks for the web pages: only that subset, which is all `reproduce`'s
//! `md` outputs hold. No Markdown syntax reaches a page: headings become
//! `<h4>`, list items `<li>`, and `**` and backquotes are dropped.

use std::fmt::Write as _;

use super::escape;

/// A block of a Markdown output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// A heading (`## ...`), as plain text: shown under the table's own
    /// heading on a page, so as `<h4>` whatever its level.
    Heading(String),
    /// A paragraph, as plain text; a hard line break (a line ending in
    /// two spaces) is a `\n`.
    Paragraph(String),
    /// A list of `- ` items, each as plain text.
    List(Vec<String>),
    /// A pipe table: its header cells and rows of cells, as plain text.
    Table {
        head: Vec<String>,
        rows: Vec<Vec<String>>,
    },
}

/// The blocks of `markdown`: a line of `#`s and text a heading,
/// consecutive `|` lines a table (the second, the alignment row,
/// dropped), consecutive `- ` lines a list, other runs of lines
/// paragraphs (a line ending in two spaces ends a line of its paragraph,
/// as in CommonMark; other lines run on).
///
/// Guarantee: never panics; text that is not this subset comes back as
/// paragraphs.
pub fn markdown_blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut paragraph: Vec<String> = Vec::new();
    let mut table: Vec<Vec<String>> = Vec::new();
    let mut list: Vec<String> = Vec::new();
    let flush_list = |list: &mut Vec<String>, blocks: &mut Vec<Block>| {
        if !list.is_empty() {
            blocks.push(Block::List(std::mem::take(list)));
        }
    };
    let flush_paragraph = |paragraph: &mut Vec<String>, blocks: &mut Vec<Block>| {
        if !paragraph.is_empty() {
            let mut text = String::new();
            for line in paragraph.drain(..) {
                if !text.is_empty() && !text.ends_with('\n') {
                    text.push(' ');
                }
                text.push_str(&line);
            }
            blocks.push(Block::Paragraph(plain(text.trim_end_matches('\n'))));
        }
    };
    let flush_table = |table: &mut Vec<Vec<String>>, blocks: &mut Vec<Block>| {
        if !table.is_empty() {
            let mut rows = std::mem::take(table);
            let head = rows.remove(0);
            // The alignment row: `| :--- | ---: |`.
            if rows.first().is_some_and(|row| {
                row.iter()
                    .all(|cell| !cell.is_empty() && cell.chars().all(|c| matches!(c, '-' | ':')))
            }) {
                rows.remove(0);
            }
            blocks.push(Block::Table { head, rows });
        }
    };
    for raw in markdown.lines() {
        let line = raw.trim();
        let hard_break = raw.ends_with("  ");
        let heading = line
            .trim_start_matches('#')
            .strip_prefix(' ')
            .filter(|_| line.starts_with('#'));
        let item = line.strip_prefix("- ");
        if line.starts_with('|') {
            flush_paragraph(&mut paragraph, &mut blocks);
            flush_list(&mut list, &mut blocks);
            table.push(cells(line));
        } else if line.is_empty() {
            flush_paragraph(&mut paragraph, &mut blocks);
            flush_table(&mut table, &mut blocks);
            flush_list(&mut list, &mut blocks);
        } else if let Some(heading) = heading {
            flush_paragraph(&mut paragraph, &mut blocks);
            flush_table(&mut table, &mut blocks);
            flush_list(&mut list, &mut blocks);
            blocks.push(Block::Heading(plain(heading.trim())));
        } else if let Some(item) = item {
            flush_paragraph(&mut paragraph, &mut blocks);
            flush_table(&mut table, &mut blocks);
            list.push(plain(item.trim()));
        } else if !list.is_empty() && paragraph.is_empty() {
            // A list item's continuation line.
            if let Some(last) = list.last_mut() {
                last.push(' ');
                last.push_str(&plain(line));
            }
        } else {
            flush_table(&mut table, &mut blocks);
            paragraph.push(if hard_break {
                format!("{line}\n")
            } else {
                line.to_string()
            });
        }
    }
    flush_paragraph(&mut paragraph, &mut blocks);
    flush_table(&mut table, &mut blocks);
    flush_list(&mut list, &mut blocks);
    blocks
}

/// The cells of a table line, split at `|` not escaped by a backslash.
fn cells(line: &str) -> Vec<String> {
    let inner = line.strip_prefix('|').unwrap_or(line);
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                cell.push(c);
                cell.extend(chars.next());
            }
            '|' => cells.push(plain(std::mem::take(&mut cell).trim())),
            _ => cell.push(c),
        }
    }
    cells.push(plain(cell.trim()));
    cells
}

/// Markdown text as plain text: `**` and backquotes dropped, escapes
/// undone.
fn plain(text: &str) -> String {
    let text = text.replace("**", "").replace('`', "");
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            _ => out.push(c),
        }
    }
    out
}

/// A table estimated wider than this many CSS pixels says that it scrolls
/// sideways: a phone's 390 px less the page's margins and a little room.
pub const SCROLL_HINT_FROM_PX: usize = 330;

/// A table's width in CSS pixels, estimated from above: each column as
/// wide as its longest cell at 9 px a character (the table's type is
/// 14.4 px; its widest letters are about 9 px, its digits 8), plus the
/// cells' 16 px of padding.
fn estimated_width(head: &[String], rows: &[Vec<String>]) -> usize {
    (0..head.len())
        .map(|column| {
            let longest = std::iter::once(head)
                .chain(rows.iter().map(Vec::as_slice))
                .filter_map(|row| row.get(column))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0);
            longest * 9 + 16
        })
        .sum()
}

impl Block {
    /// The block as HTML: a table in a scrolling wrapper, its header
    /// cells `scope="col"` and each row's first cell `scope="row"`, one
    /// that may be wider than a phone (an estimated width over
    /// [`SCROLL_HINT_FROM_PX`]) after a line saying that it scrolls.
    pub fn html(&self) -> String {
        match self {
            Block::Heading(text) => format!("<h4>{}</h4>\n", escape(text)),
            Block::Paragraph(text) => {
                format!("<p>{}</p>\n", escape(text).replace('\n', "<br>\n"))
            }
            Block::List(items) => {
                let mut out = String::from("<ul>\n");
                for item in items {
                    let _ = writeln!(out, "<li>{}</li>", escape(item));
                }
                out.push_str("</ul>\n");
                out
            }
            Block::Table { head, rows } => {
                let mut out = String::new();
                if estimated_width(head, rows) > SCROLL_HINT_FROM_PX {
                    let _ = writeln!(
                        out,
                        "<p class=\"hint\">{} columns: where the table is cut off at the right, scroll it sideways.</p>",
                        head.len()
                    );
                }
                out.push_str("<div class=\"scroll\"><table>\n<thead><tr>");
                for cell in head {
                    let _ = write!(out, "<th scope=\"col\">{}</th>", escape(cell));
                }
                out.push_str("</tr></thead>\n<tbody>\n");
                for row in rows {
                    out.push_str("<tr>");
                    for (i, cell) in row.iter().enumerate() {
                        if i == 0 {
                            let _ = write!(out, "<th scope=\"row\">{}</th>", escape(cell));
                        } else {
                            let _ = write!(out, "<td>{}</td>", escape(cell));
                        }
                    }
                    out.push_str("</tr>\n");
                }
                out.push_str("</tbody></table></div>\n");
                out
            }
        }
    }
}
