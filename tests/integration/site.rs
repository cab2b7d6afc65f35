//! results/ as a website: every page's local links resolve to files in
//! results/ (and its anchors to ids), no page loads anything from another
//! host, every page and table is accessible (lang, title, viewport, `<th
//! scope>`, alt text), every title is words and no Markdown syntax is left
//! in any page's text, every page cites its own game's section of
//! RULES.md, and headless Chromium renders every page at 1280 and 390 px
//! wide with no broken image and no horizontal overflow, the front page's
//! headline table one row per game variant with every value wholly on the
//! screen, and every table cut off saying that it scrolls. Screenshots go
//! to target/site-screenshots/ for a person to look at.
//!
//! The same checks run on a scratch site with one defect per page, and
//! must find each defect and nothing else: a check that cannot fail
//! would pass results/ too.

use std::fs;
use std::path::{Path, PathBuf};

use crate::support::require_tool;
use deckodds::analysis::{Spec, page_of};

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

#[test]
fn every_title_is_words_and_no_page_shows_markdown() {
    let defects = checks::wording_defects(&checks::pages(&results()));
    assert!(defects.is_empty(), "{}", defects.join("\n"));
}

/// The section of RULES.md a family's tables follow, by the family's
/// name, as the book lays the games out (independently of the registry,
/// which the pages are made from).
fn expected_section(family: &str) -> u8 {
    const BY_PREFIX: [(&str, u8); 10] = [
        ("idiots-delight", 1),
        ("roll-call", 2),
        ("prisoners-patience", 3),
        ("klondike-winnable", 7),
        ("klondike", 4),
        ("blackjack-dealer", 5),
        ("blackjack-player", 6),
        ("blackjack-strategy", 6),
        ("blackjack-house-edge", 6),
        ("blackjack-", 6),
    ];
    BY_PREFIX
        .iter()
        .find(|(prefix, _)| family.starts_with(prefix))
        .map(|&(_, section)| section)
        .unwrap_or_else(|| panic!("{family}: no section expected"))
}

/// Each family's page cites the section of RULES.md its tables follow:
/// the blackjack player's pages section 6 (not the dealer's 5), Klondike
/// free play's section 7; and that section is its game's.
#[test]
fn every_page_cites_its_own_games_section_of_the_rules() {
    let rules = fs::read_to_string(root().join("RULES.md")).unwrap();
    let mut checked = 0;
    for entry in fs::read_dir(root().join("analysis")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let relative = Path::new("analysis").join(path.file_name().unwrap());
        let specs = Spec::parse(&relative, &fs::read_to_string(&path).unwrap()).unwrap();
        let family = &specs[0].family;
        let page = fs::read_to_string(results().join(page_of(family))).unwrap();
        let cited: Vec<u8> = page
            .match_indices("RULES.md section ")
            .map(|(at, marker)| {
                let digits: String = page[at + marker.len()..]
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                digits.parse().unwrap()
            })
            .collect();
        let expected = expected_section(family);
        let game = deckodds::games::registry::by_id(&specs[0].game).unwrap();
        // The page's heading cites its tables' section; the text may cite
        // its game's others (a solver run beside the fixed policy).
        assert_eq!(cited.first(), Some(&expected), "{family}: cites {cited:?}");
        let own: Vec<u8> = std::iter::once(game.rules_section)
            .chain(game.later_sections.iter().copied())
            .collect();
        assert!(
            cited.iter().all(|section| own.contains(section)),
            "{family}: cites sections {cited:?}, not all its game's {own:?}"
        );
        let heading = rules
            .lines()
            .find(|line| line.starts_with(&format!("## {expected}. ")))
            .unwrap();
        let first_word = game.game_name.split([' ', '\'']).next().unwrap();
        assert!(heading.contains(first_word), "{family}: {heading}");
        checked += 1;
    }
    assert!(checked > 50, "only {checked} families");
}

/// Every command the registry puts in a later section is a command of
/// its game.
#[test]
fn the_commands_in_later_sections_are_commands_of_their_game() {
    use clap::CommandFactory;
    let root = deckodds::cli::Cli::command();
    for game in deckodds::games::registry::GAMES {
        let command = root.find_subcommand(game.id).unwrap();
        for (name, _) in game.later_section_commands {
            assert!(
                command.find_subcommand(name).is_some(),
                "{}: no command {name}",
                game.id
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
            count += specs.iter().map(|s| s.headlines.len()).sum::<usize>() as u64;
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
    // Two browsers, each on every other page, side by side: one Chromium
    // keeps about a core and a third busy, and this test is the suite's
    // longest (half a minute alone), run last, beside little else.
    let shots = root().join("target/site-screenshots");
    let halves: [Vec<String>; 2] =
        std::array::from_fn(|half| pages.iter().skip(half).step_by(2).cloned().collect());
    let rendered: Vec<chromium::Rendered> = std::thread::scope(|scope| {
        let renders = halves.each_ref().map(|half_pages| {
            let shots = &shots;
            scope.spawn(move || chromium::render(&results(), half_pages, shots))
        });
        renders
            .into_iter()
            .flat_map(|render| render.join().expect("a browser's thread"))
            .collect()
    });
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
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title}</title>\n<style>.scroll{{overflow-x:auto}}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )
}

/// A site of a few pages, each sound but for one kind of defect (named
/// by its file), and two sound pages: `index.html`, whose headline table
/// has two rows, and `sound.html`, whose wide table says that it scrolls.
fn scratch_site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let chart = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"20\"><rect width=\"40\" height=\"20\" fill=\"#36c\"/></svg>\n";
    let pages = [
        (
            "index.html",
            "<h1>Scratch</h1>\n<div class=\"scroll\"><table class=\"headline\"><thead><tr><th scope=\"col\">game</th><th scope=\"col\">value</th></tr></thead>\n<tbody><tr><th scope=\"row\">a</th><td class=\"value\">1 %</td></tr><tr><th scope=\"row\">b</th><td class=\"value\">2 %</td></tr></tbody></table></div>\n<p><a href=\"sound.html#table\">sound</a> <a href=\"broken-image.html\">image</a> <a href=\"wide.html\">wide</a> <a href=\"broken-link.html\">link</a> <a href=\"unscoped.html\">unscoped</a> <a href=\"cut-value.html\">cut</a> <a href=\"unhinted.html\">unhinted</a> <a href=\"markdown.html\">markdown</a></p>",
        ),
        (
            "sound.html",
            "<p><a href=\"index.html\">All</a> <a href=\"#table\">the table</a></p>\n<p><img src=\"chart.svg\" alt=\"a chart\"></p>\n<div class=\"scroll\"><table id=\"table\"><thead><tr><th scope=\"col\">outcome</th><th scope=\"col\">percent</th></tr></thead><tbody><tr><th scope=\"row\">win</th><td>1.00</td></tr></tbody></table></div>\n<p class=\"hint\">Scroll sideways.</p><div class=\"scroll\"><table><thead><tr><th scope=\"col\" style=\"min-width:600px\">wide</th></tr></thead></table></div>",
        ),
        (
            "cut-value.html",
            "<p class=\"hint\">Scroll sideways.</p><div class=\"scroll\"><table class=\"headline\"><thead><tr><th scope=\"col\">game</th><th scope=\"col\">value</th></tr></thead>\n<tbody><tr><th scope=\"row\" style=\"min-width:600px\">a</th><td class=\"value\">3 %</td></tr></tbody></table></div>",
        ),
        (
            "unhinted.html",
            "<div class=\"scroll\"><table><thead><tr><th scope=\"col\" style=\"min-width:600px\">wide</th></tr></thead></table></div>",
        ),
        (
            "markdown.html",
            "<p>## Basic strategy</p>\n<p>a **bold** word</p>",
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
        // One title is a file slug, not words.
        let title = if name == "markdown.html" {
            "blackjack-strategy-h17-das"
        } else {
            "A scratch page"
        };
        fs::write(dir.path().join(name), scratch_page(title, body)).unwrap();
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
    assert_eq!(pages.len(), 9);
    let (mut defects, checked) = checks::link_defects(site.path(), &pages);
    assert_eq!(checked, 12, "every local link of the scratch site");
    defects.extend(checks::accessibility_defects(&pages));
    defects.extend(checks::wording_defects(&pages));
    assert_found_exactly(
        &defects,
        &[
            "broken-image.html: missing.svg: no such file in the folder",
            "broken-link.html: nowhere.html: no such file in the folder",
            "broken-link.html: #nowhere: no id \"nowhere\" in broken-link.html",
            "unscoped.html: <th> has no scope",
            "markdown.html: Markdown in the text: ## Basic strategy",
            "markdown.html: Markdown in the text: a **bold** word",
            "markdown.html: the title is not words: blackjack-strategy-h17-das",
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
    let headline_rows = |page: &str| match page {
        "index.html" => 2,
        "cut-value.html" => 1,
        _ => 0,
    };
    assert_found_exactly(
        &chromium::defects(&rendered, &headline_rows),
        &[
            "broken-image.html at 1280 px: a broken image missing.svg",
            "broken-image.html at 390 px: a broken image missing.svg",
            "broken-link.html at 1280 px: a link to a missing anchor #nowhere",
            "broken-link.html at 390 px: a link to a missing anchor #nowhere",
            "wide.html at 390 px: overflows horizontally (",
            "cut-value.html at 390 px: a headline value not wholly in the viewport: 3 %",
            "unhinted.html at 390 px: a table cut off with no hint that it scrolls: wide",
            "markdown.html at 1280 px: Markdown in the text: ## Basic strategy",
            "markdown.html at 390 px: Markdown in the text: ## Basic strategy",
            "markdown.html at 1280 px: Markdown in the text: a **bold** word",
            "markdown.html at 390 px: Markdown in the text: a **bold** word",
        ],
    );
}
