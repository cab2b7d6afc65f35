//! The Markdown the report renderers write (paragraphs, `**bold**`,
//! backslash escapes and pipe tables), read back as blocks for the web
//! pages: only that subset, which is all `reproduce`'s `md` outputs hold.

use std::fmt::Write as _;

use super::escape;

/// A block of a Markdown output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// A paragraph, as plain text.
    Paragraph(String),
    /// A pipe table: its header cells and rows of cells, as plain text.
    Table {
        head: Vec<String>,
        rows: Vec<Vec<String>>,
    },
}

/// The blocks of `markdown`: consecutive `|` lines are a table (the
/// second, the alignment row, dropped), other runs of lines paragraphs.
///
/// Guarantee: never panics; text that is not this subset comes back as
/// paragraphs.
pub fn markdown_blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut paragraph: Vec<&str> = Vec::new();
    let mut table: Vec<Vec<String>> = Vec::new();
    let flush_paragraph = |paragraph: &mut Vec<&str>, blocks: &mut Vec<Block>| {
        if !paragraph.is_empty() {
            blocks.push(Block::Paragraph(plain(&paragraph.join(" "))));
            paragraph.clear();
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
    for line in markdown.lines() {
        let line = line.trim();
        if line.starts_with('|') {
            flush_paragraph(&mut paragraph, &mut blocks);
            table.push(cells(line));
        } else if line.is_empty() {
            flush_paragraph(&mut paragraph, &mut blocks);
            flush_table(&mut table, &mut blocks);
        } else {
            flush_table(&mut table, &mut blocks);
            paragraph.push(line);
        }
    }
    flush_paragraph(&mut paragraph, &mut blocks);
    flush_table(&mut table, &mut blocks);
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

impl Block {
    /// The block as HTML: a table in a scrolling wrapper, its header
    /// cells `scope="col"` and each row's first cell `scope="row"`.
    pub fn html(&self) -> String {
        match self {
            Block::Paragraph(text) => format!("<p>{}</p>\n", escape(text)),
            Block::Table { head, rows } => {
                let mut out = String::from("<div class=\"scroll\"><table>\n<thead><tr>");
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
