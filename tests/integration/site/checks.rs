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
