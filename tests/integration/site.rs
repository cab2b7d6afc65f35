//! results/ as a website: every page's local links resolve to files in
//! results/ (and its anchors to ids), no page loads anything from another
//! host, every page and table is accessible (lang, title, viewport, `<th
//! scope>`, alt text), and headless Chromium renders every page at 1280
//! and 390 px wide with no broken image and no horizontal overflow, the
//! front page's headline table one row per game variant. Screenshots go
//! to target/site-screenshots/ for a person to look at.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::support::require_tool;
use deckodds::analysis::Spec;

mod chromium;

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn results() -> PathBuf {
    root().join("results")
}

/// Every page in results/, by file name, with its text.
fn pages() -> BTreeMap<String, String> {
    let mut pages = BTreeMap::new();
    for entry in fs::read_dir(results()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "html") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            pages.insert(name, fs::read_to_string(&path).unwrap());
        }
    }
    assert!(
        pages.contains_key("index.html"),
        "results/index.html is missing"
    );
    pages
}

/// The values of `attribute` in `html` (`href="..."`), unescaped.
fn attribute_values(html: &str, attribute: &str) -> Vec<String> {
    let marker = format!(" {attribute}=\"");
    html.match_indices(&marker)
        .map(|(at, _)| {
            let rest = &html[at + marker.len()..];
            let value = &rest[..rest.find('"').unwrap()];
            value.replace("&amp;", "&").replace("&quot;", "\"")
        })
        .collect()
}

/// Every opening tag `<name ...>` in `html`.
fn tags<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("<{name}");
    html.match_indices(&open)
        .filter(|(at, _)| {
            html[at + open.len()..]
                .chars()
                .next()
                .is_some_and(|c| c == '>' || c == ' ')
        })
        .map(|(at, _)| &html[at..at + html[at..].find('>').unwrap() + 1])
        .collect()
}

#[test]
fn every_local_link_resolves_within_results_and_nothing_loads_from_elsewhere() {
    let pages = pages();
    let ids: BTreeMap<&str, Vec<String>> = pages
        .iter()
        .map(|(name, html)| (name.as_str(), attribute_values(html, "id")))
        .collect();
    let mut checked = 0;
    for (name, html) in &pages {
        // What a page loads: images, scripts, stylesheets, frames.
        for source in attribute_values(html, "src") {
            assert!(
                !source.contains("//") && !source.starts_with("data:"),
                "{name}: loads {source} from elsewhere"
            );
        }
        assert!(
            !html.contains("<link"),
            "{name}: links a stylesheet or font"
        );
        assert!(
            !html.contains("@import") && !html.contains("url("),
            "{name}: CSS loads a file"
        );
        for script in tags(html, "script") {
            assert_eq!(script, "<script>", "{name}: an external script");
        }
        for href in attribute_values(html, "href") {
            // Citations of sources may link out.
            if href.starts_with("https://") || href.starts_with("http://") {
                continue;
            }
            let (file, anchor) = href.split_once('#').unwrap_or((&href, ""));
            let target = if file.is_empty() { name.as_str() } else { file };
            assert!(
                !target.contains('/') && !target.contains(".."),
                "{name}: {href} leaves results/"
            );
            assert!(
                results().join(target).is_file(),
                "{name}: {href}: no such file in results/"
            );
            if !anchor.is_empty() {
                let target_ids = ids.get(target).unwrap_or_else(|| {
                    panic!("{name}: {href}: an anchor into a file that is not a page")
                });
                assert!(
                    target_ids.iter().any(|id| id == anchor),
                    "{name}: {href}: no id {anchor:?} in {target}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > pages.len(), "only {checked} links checked");
}

#[test]
fn every_page_has_lang_title_viewport_scoped_headers_and_alt_text() {
    for (name, html) in pages() {
        assert!(html.contains("<html lang=\"en\">"), "{name}: no lang");
        assert!(
            tags(&html, "title").len() == 1 && !html.contains("<title></title>"),
            "{name}: no title"
        );
        assert!(
            html.contains(
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            ),
            "{name}: no viewport meta"
        );
        for th in tags(&html, "th") {
            assert!(
                th.contains(" scope=\"col\"") || th.contains(" scope=\"row\""),
                "{name}: {th} has no scope"
            );
        }
        for table in tags(&html, "table") {
            let at = html.find(table).unwrap();
            assert!(
                html[..at].ends_with("<div class=\"scroll\">"),
                "{name}: a table outside a scrolling wrapper"
            );
        }
        for img in tags(&html, "img") {
            let alt = attribute_values(img, "alt");
            assert!(
                alt.len() == 1 && !alt[0].trim().is_empty(),
                "{name}: {img} has no alt text"
            );
        }
    }
}

/// Rows the front page's headline table must have: one per table whose
/// spec declares a `[headline]`.
fn headline_variants() -> u64 {
    let mut count = 0;
    for entry in fs::read_dir(root().join("analysis")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let relative = Path::new("analysis").join(path.file_name().unwrap());
            let specs = Spec::parse(&relative, &fs::read_to_string(&path).unwrap()).unwrap();
            count += specs.iter().filter(|s| s.headline.is_some()).count() as u64;
        }
    }
    count
}

#[test]
#[cfg_attr(
    not(deckodds_has_chromium),
    ignore = "needs chromium (Debian: chromium)"
)]
fn chromium_renders_every_page_at_both_widths_without_overflow_or_broken_images() {
    require_tool("chromium", "chromium (Debian: chromium)");
    let pages: Vec<String> = pages().into_keys().collect();
    let rendered = chromium::render(&results(), &pages, &root().join("target/site-screenshots"));
    assert_eq!(
        rendered.len(),
        pages.len() * chromium::WIDTHS.len(),
        "every page at both widths"
    );
    let variants = headline_variants();
    assert!(variants > 0);
    // One headline row per game variant on the front page, none elsewhere.
    let headline_rows = |page: &str| if page == "index.html" { variants } else { 0 };
    let defects = chromium::defects(&rendered, &headline_rows);
    assert!(defects.is_empty(), "{}", defects.join("\n"));
}
