//! results/ as a website: every page's local links resolve to files in
//! results/ (and its anchors to ids), no page loads anything from another
//! host, every page and table is accessible (lang, title, viewport, `<th
//! scope>`, alt text), and headless Chromium renders every page at 1280
//! and 390 px wide with no broken image and no horizontal overflow, the
//! front page's headline table one row per game variant. Screenshots go
//! to target/site-screenshots/ for a person to look at.
//!
//! The same checks run on a scratch site with one defect per page, and
//! must find each defect and nothing else: a check that cannot fail
//! would pass results/ too.

use std::fs;
use std::path::{Path, PathBuf};

use crate::support::require_tool;
use deckodds::analysis::Spec;

mod checks;
mod chromium;

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn results() -> PathBuf {
    root().join("results")
}

#[test]
fn every_local_link_resolves_within_results_and_nothing_loads_from_elsewhere() {
    let pages = checks::pages(&results());
    assert!(
        pages.contains_key("index.html"),
        "results/index.html is missing"
    );
    let (defects, checked) = checks::link_defects(&results(), &pages);
    assert!(defects.is_empty(), "{}", defects.join("\n"));
    assert!(checked > pages.len(), "only {checked} links checked");
}

#[test]
fn every_page_has_lang_title_viewport_scoped_headers_and_alt_text() {
    let defects = checks::accessibility_defects(&checks::pages(&results()));
    assert!(defects.is_empty(), "{}", defects.join("\n"));
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
    let pages: Vec<String> = checks::pages(&results()).into_keys().collect();
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

/// A page of the scratch site: everything a page needs, and `body`.
fn scratch_page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title}</title>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )
}

/// A site of a few pages, each sound but for one kind of defect (named
/// by its file), and two sound pages: `index.html`, whose headline table
/// has two rows, and `sound.html`.
fn scratch_site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let chart = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"20\"><rect width=\"40\" height=\"20\" fill=\"#36c\"/></svg>\n";
    let pages = [
        (
            "index.html",
            "<h1>Scratch</h1>\n<div class=\"scroll\"><table class=\"headline\"><thead><tr><th scope=\"col\">game</th></tr></thead>\n<tbody><tr><th scope=\"row\">a</th></tr><tr><th scope=\"row\">b</th></tr></tbody></table></div>\n<p><a href=\"sound.html#table\">sound</a> <a href=\"broken-image.html\">image</a> <a href=\"wide.html\">wide</a> <a href=\"broken-link.html\">link</a> <a href=\"unscoped.html\">unscoped</a></p>",
        ),
        (
            "sound.html",
            "<p><a href=\"index.html\">All</a> <a href=\"#table\">the table</a></p>\n<p><img src=\"chart.svg\" alt=\"a chart\"></p>\n<div class=\"scroll\"><table id=\"table\"><thead><tr><th scope=\"col\">outcome</th><th scope=\"col\">percent</th></tr></thead><tbody><tr><th scope=\"row\">win</th><td>1.00</td></tr></tbody></table></div>",
        ),
        (
            "broken-image.html",
            "<p><img src=\"missing.svg\" alt=\"a chart that is not there\"></p>",
        ),
        (
            "wide.html",
            "<div style=\"width:600px\">a line 600 px wide, wider than a phone</div>",
        ),
        (
            "broken-link.html",
            "<p><a href=\"nowhere.html\">a page that is not there</a> <a href=\"#nowhere\">an anchor that is not there</a></p>",
        ),
        (
            "unscoped.html",
            "<div class=\"scroll\"><table><thead><tr><th>outcome</th></tr></thead><tbody><tr><td>win</td></tr></tbody></table></div>",
        ),
    ];
    for (name, body) in pages {
        fs::write(dir.path().join(name), scratch_page(name, body)).unwrap();
    }
    fs::write(dir.path().join("chart.svg"), chart).unwrap();
    dir
}

/// `defects` are `expected`, each found once: a defect starts with
/// exactly one of the expected lines (a figure that depends on the
/// browser, such as a width, may follow it), and each expected line
/// starts one defect.
fn assert_found_exactly(defects: &[String], expected: &[&str]) {
    for defect in defects {
        assert_eq!(
            expected.iter().filter(|e| defect.starts_with(**e)).count(),
            1,
            "an unexpected defect: {defect}\nall: {defects:#?}"
        );
    }
    for line in expected {
        assert_eq!(
            defects.iter().filter(|d| d.starts_with(line)).count(),
            1,
            "not found: {line}\nfound: {defects:#?}"
        );
    }
}

/// The checks read from the HTML can fail: on a scratch site they find
/// its broken image, broken link, missing anchor and unscoped header,
/// and nothing on its sound pages.
#[test]
fn the_checks_of_the_html_find_each_defect_of_a_scratch_site() {
    let site = scratch_site();
    let pages = checks::pages(site.path());
    assert_eq!(pages.len(), 6);
    let (mut defects, checked) = checks::link_defects(site.path(), &pages);
    assert_eq!(checked, 9, "every local link of the scratch site");
    defects.extend(checks::accessibility_defects(&pages));
    assert_found_exactly(
        &defects,
        &[
            "broken-image.html: missing.svg: no such file in the folder",
            "broken-link.html: nowhere.html: no such file in the folder",
            "broken-link.html: #nowhere: no id \"nowhere\" in broken-link.html",
            "unscoped.html: <th> has no scope",
        ],
    );
}

/// The checks in Chromium can fail: on a scratch site they find its
/// broken image and missing anchor at both widths, its overflow at the
/// phone's width only, and nothing on its sound pages (the front page's
/// two headline rows included).
#[test]
#[cfg_attr(
    not(deckodds_has_chromium),
    ignore = "needs chromium (Debian: chromium)"
)]
fn chromium_finds_each_defect_of_a_scratch_site() {
    require_tool("chromium", "chromium (Debian: chromium)");
    let site = scratch_site();
    let pages: Vec<String> = checks::pages(site.path()).into_keys().collect();
    let rendered = chromium::render(site.path(), &pages, &site.path().join("shots"));
    assert_eq!(rendered.len(), pages.len() * chromium::WIDTHS.len());
    let headline_rows = |page: &str| if page == "index.html" { 2 } else { 0 };
    assert_found_exactly(
        &chromium::defects(&rendered, &headline_rows),
        &[
            "broken-image.html at 1280 px: a broken image missing.svg",
            "broken-image.html at 390 px: a broken image missing.svg",
            "broken-link.html at 1280 px: a link to a missing anchor #nowhere",
            "broken-link.html at 390 px: a link to a missing anchor #nowhere",
            "wide.html at 390 px: overflows horizontally (",
        ],
    );
}
