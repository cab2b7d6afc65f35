//! The checks of a folder of pages read from their HTML text: links and
//! loads ([`link_defects`]) and accessibility ([`accessibility_defects`]).
//! Each returns the defects found, one line each naming the page, so that
//! a test can assert there are none on results/, and another that each
//! defect of a scratch site is found.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// Every page of `folder` (its `.html` files), by file name, with its text.
pub fn pages(folder: &Path) -> BTreeMap<String, String> {
    let mut pages = BTreeMap::new();
    for entry in fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "html") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            pages.insert(name, fs::read_to_string(&path).unwrap());
        }
    }
    pages
}

/// The values of `attribute` in `html` (`href="..."`), unescaped.
pub fn attribute_values(html: &str, attribute: &str) -> Vec<String> {
    let marker = format!(" {attribute}=\"");
    html.match_indices(&marker)
        .map(|(at, _)| {
            let rest = &html[at + marker.len()..];
            let value = &rest[..rest.find('"').unwrap_or(rest.len())];
            value.replace("&amp;", "&").replace("&quot;", "\"")
        })
        .collect()
}

/// Every opening tag `<name ...>` in `html`.
pub fn tags<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("<{name}");
    html.match_indices(&open)
        .filter(|(at, _)| {
            html[at + open.len()..]
                .chars()
                .next()
                .is_some_and(|c| c == '>' || c == ' ')
        })
        .map(|(at, _)| {
            let end = html[at..].find('>').map_or(html.len(), |end| at + end + 1);
            &html[at..end]
        })
        .collect()
}

/// Where a local reference of `page` (an `href` or `src` without a
/// scheme) leads: a defect if it leaves `folder`, names no file there, or
/// names an anchor that is not an id of its page. `ids` are each page's
/// ids.
fn local_defect(
    folder: &Path,
    page: &str,
    reference: &str,
    ids: &BTreeMap<&str, Vec<String>>,
) -> Option<String> {
    let (file, anchor) = reference.split_once('#').unwrap_or((reference, ""));
    let target = if file.is_empty() { page } else { file };
    if target.contains('/') || target.contains("..") {
        return Some(format!("{page}: {reference} leaves the folder"));
    }
    if !folder.join(target).is_file() {
        return Some(format!("{page}: {reference}: no such file in the folder"));
    }
    if anchor.is_empty() {
        return None;
    }
    match ids.get(target) {
        None => Some(format!(
            "{page}: {reference}: an anchor into a file that is not a page"
        )),
        Some(target_ids) if !target_ids.iter().any(|id| id == anchor) => {
            Some(format!("{page}: {reference}: no id {anchor:?} in {target}"))
        }
        Some(_) => None,
    }
}

/// The defects of what `pages` (the pages of `folder`) link to and load:
/// anything loaded from another host or from a `data:` URL, a stylesheet
/// or font linked or imported, an external script, a local image or link
/// that resolves to no file in `folder` (or leaves it), and an anchor
/// that is no id of its page. Links out (`http://`, `https://`: citations
/// of sources) are allowed. Also returns how many local links it checked.
pub fn link_defects(folder: &Path, pages: &BTreeMap<String, String>) -> (Vec<String>, usize) {
    let ids: BTreeMap<&str, Vec<String>> = pages
        .iter()
        .map(|(name, html)| (name.as_str(), attribute_values(html, "id")))
        .collect();
    let mut defects = Vec::new();
    let mut checked = 0;
    for (name, html) in pages {
        // What a page loads: images, scripts, frames.
        for source in attribute_values(html, "src") {
            if source.contains("//") || source.starts_with("data:") {
                defects.push(format!("{name}: loads {source} from elsewhere"));
            } else {
                defects.extend(local_defect(folder, name, &source, &ids));
            }
        }
        if html.contains("<link") {
            defects.push(format!("{name}: links a stylesheet or font"));
        }
        if html.contains("@import") || html.contains("url(") {
            defects.push(format!("{name}: CSS loads a file"));
        }
        for script in tags(html, "script") {
            if script != "<script>" {
                defects.push(format!("{name}: an external script {script}"));
            }
        }
        for href in attribute_values(html, "href") {
            if href.starts_with("https://") || href.starts_with("http://") {
                continue;
            }
            defects.extend(local_defect(folder, name, &href, &ids));
            checked += 1;
        }
    }
    (defects, checked)
}

/// The accessibility defects of `pages`: no `<html lang="en">`, not one
/// non-empty `<title>`, no viewport meta, a `<th>` without `scope`, a
/// table outside a scrolling wrapper (`<div class="scroll">`, which keeps
/// a wide table from overflowing a phone's width), an image without alt
/// text.
pub fn accessibility_defects(pages: &BTreeMap<String, String>) -> Vec<String> {
    let mut defects = Vec::new();
    for (name, html) in pages {
        if !html.contains("<html lang=\"en\">") {
            defects.push(format!("{name}: no lang"));
        }
        if tags(html, "title").len() != 1 || html.contains("<title></title>") {
            defects.push(format!("{name}: not one title"));
        }
        if !html
            .contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        {
            defects.push(format!("{name}: no viewport meta"));
        }
        for th in tags(html, "th") {
            if !th.contains(" scope=\"col\"") && !th.contains(" scope=\"row\"") {
                defects.push(format!("{name}: {th} has no scope"));
            }
        }
        let mut searched = 0;
        for table in tags(html, "table") {
            let at = searched + html[searched..].find(table).unwrap_or(0);
            searched = at + table.len();
            if !html[..at].ends_with("<div class=\"scroll\">") {
                defects.push(format!("{name}: a table outside a scrolling wrapper"));
            }
        }
        for img in tags(html, "img") {
            let alt = attribute_values(img, "alt");
            if alt.len() != 1 || alt[0].trim().is_empty() {
                defects.push(format!("{name}: {img} has no alt text"));
            }
        }
    }
    defects
}

/// The text of `html` as a reader sees it, roughly: tags dropped (a block
/// tag ends a line), the few entities the pages use undone, scripts and
/// styles left out.
pub fn text_lines(html: &str) -> Vec<String> {
    let mut text = String::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        text.push_str(&rest[..open]);
        let after = &rest[open..];
        let end = after.find('>').map_or(after.len(), |end| end + 1);
        let tag = &after[..end];
        let name: String = tag[1..]
            .trim_start_matches('/')
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect();
        rest = &after[end..];
        if matches!(name.as_str(), "script" | "style") && !tag.starts_with("</") {
            let close = format!("</{name}>");
            rest = rest.find(&close).map_or("", |at| &rest[at + close.len()..]);
            continue;
        }
        if matches!(
            name.as_str(),
            "p" | "div"
                | "li"
                | "tr"
                | "h1"
                | "h2"
                | "h3"
                | "h4"
                | "br"
                | "ul"
                | "table"
                | "section"
                | "td"
                | "th"
        ) {
            text.push('\n');
        }
    }
    text.push_str(rest);
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(String::from)
        .collect()
}

/// The defects of `pages` a reader would see in their words: a line of
/// text that is Markdown syntax (starting with `#`, or holding `**`), and
/// a title that is a file name rather than words (the page's own name, or
/// a word of three or more parts joined by hyphens, as table names are).
pub fn wording_defects(pages: &BTreeMap<String, String>) -> Vec<String> {
    let mut defects = Vec::new();
    for (name, html) in pages {
        for line in text_lines(html) {
            if line.starts_with('#') || line.contains("**") {
                defects.push(format!("{name}: Markdown in the text: {line}"));
            }
        }
        let title = html
            .split_once("<title>")
            .and_then(|(_, rest)| rest.split_once("</title>"))
            .map_or("", |(title, _)| title);
        let stem = name.trim_end_matches(".html");
        let slug = title
            .split(|c: char| c.is_whitespace() || matches!(c, ':' | ',' | '(' | ')'))
            .find(|word| word.matches('-').count() >= 2 || *word == stem);
        if let Some(slug) = slug {
            defects.push(format!("{name}: the title is not words: {slug}"));
        }
    }
    defects
}
