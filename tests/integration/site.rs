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
use std::process::Command;

use serde_json::Value;

use crate::support::require_tool;
use deckodds::analysis::Spec;

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
fn headline_variants() -> usize {
    let mut count = 0;
    for entry in fs::read_dir(root().join("analysis")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let relative = Path::new("analysis").join(path.file_name().unwrap());
            let specs = Spec::parse(&relative, &fs::read_to_string(&path).unwrap()).unwrap();
            count += specs.iter().filter(|s| s.headline.is_some()).count();
        }
    }
    count
}

/// The page the checks run in: the page under test in two frames, 1280
/// and 390 CSS pixels wide (a headless window is at least 500 wide, so
/// the narrow width is a frame's), each reporting what it rendered once
/// loaded; every page in turn, the report written into the document for
/// `--dump-dom`.
const CHECKER: &str = r##"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>check</title>
<style>body{margin:0}iframe{border:0;height:1200px;display:block}</style></head><body>
<script>
var pages = PAGES, widths = [1280, 390], results = [], i = 0;
function next() {
  if (i >= pages.length * widths.length) {
    var out = document.createElement('pre'); out.id = 'report';
    out.textContent = JSON.stringify(results); document.body.appendChild(out); return;
  }
  var page = pages[Math.floor(i / widths.length)], width = widths[i % widths.length]; i++;
  var frame = document.createElement('iframe'); frame.style.width = width + 'px';
  frame.addEventListener('load', function () {
    var w = frame.contentWindow, d = frame.contentDocument;
    var broken = [].slice.call(d.images).filter(function (img) {
      return !img.complete || img.naturalWidth === 0;
    }).map(function (img) { return img.getAttribute('src'); });
    var missing = [].slice.call(d.querySelectorAll('a[href^="#"]')).filter(function (a) {
      return !d.getElementById(a.getAttribute('href').slice(1));
    }).map(function (a) { return a.getAttribute('href'); });
    results.push({ page: page, width: width, inner: w.innerWidth,
      scroll: d.documentElement.scrollWidth, broken: broken, missing: missing,
      headline_rows: d.querySelectorAll('table.headline tbody tr').length,
      title: d.title, lang: d.documentElement.lang });
    document.body.removeChild(frame); next();
  });
  frame.src = RESULTS + page; document.body.appendChild(frame);
}
next();
</script></body></html>
"##;

/// The page a screenshot is taken of: `page` at both widths side by side.
const SHOT: &str = r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>shot</title>
<style>body{margin:0;display:flex;gap:16px;background:#888}iframe{border:0;height:1600px;background:#fff}</style></head><body>
<iframe style="width:1280px" src="PAGE"></iframe><iframe style="width:390px" src="PAGE"></iframe></body></html>
"#;

fn chromium(args: &[&str]) -> std::process::Output {
    Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--allow-file-access-from-files",
            "--no-first-run",
        ])
        .args(args)
        .output()
        .expect("chromium runs")
}

fn file_url(path: &Path) -> String {
    format!("file://{}", path.display())
}

#[test]
#[cfg_attr(
    not(deckodds_has_chromium),
    ignore = "needs chromium (Debian: chromium)"
)]
fn chromium_renders_every_page_at_both_widths_without_overflow_or_broken_images() {
    require_tool("chromium", "chromium (Debian: chromium)");
    let pages: Vec<String> = pages().into_keys().collect();
    let work = root().join("target/site-screenshots");
    fs::create_dir_all(&work).unwrap();
    let results_url = format!("{}/", file_url(&results()));
    let checker = CHECKER
        .replace("PAGES", &serde_json::to_string(&pages).unwrap())
        .replace("RESULTS", &serde_json::to_string(&results_url).unwrap());
    let checker_path = work.join("check.html");
    fs::write(&checker_path, checker).unwrap();
    let output = chromium(&[
        "--window-size=1400,1300",
        "--virtual-time-budget=600000",
        "--dump-dom",
        &file_url(&checker_path),
    ]);
    let dom = String::from_utf8_lossy(&output.stdout);
    let report = dom
        .split("<pre id=\"report\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .unwrap_or_else(|| {
            panic!(
                "no report from the checker page: {}",
                String::from_utf8_lossy(&output.stderr)
            )
        })
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">");
    let rendered: Vec<Value> = serde_json::from_str(&report).unwrap();
    assert_eq!(rendered.len(), pages.len() * 2, "every page at both widths");
    let variants = headline_variants();
    assert!(variants > 0);
    for page in &rendered {
        let what = format!("{} at {} px", page["page"], page["width"]);
        assert_eq!(page["inner"], page["width"], "{what}: the frame's width");
        assert!(
            page["scroll"].as_u64() <= page["inner"].as_u64(),
            "{what}: overflows horizontally ({} > {})",
            page["scroll"],
            page["inner"]
        );
        assert_eq!(
            page["broken"],
            Value::Array(vec![]),
            "{what}: broken images"
        );
        assert_eq!(
            page["missing"],
            Value::Array(vec![]),
            "{what}: links to missing anchors"
        );
        assert_eq!(page["lang"], "en", "{what}");
        assert!(
            page["title"].as_str().is_some_and(|t| !t.is_empty()),
            "{what}: no title"
        );
        let expected = if page["page"] == "index.html" {
            variants
        } else {
            0
        };
        assert_eq!(
            page["headline_rows"].as_u64(),
            Some(expected as u64),
            "{what}: headline rows (one per game variant on the front page)"
        );
    }
    // A screenshot of each page at both widths, side by side, for a person.
    for page in &pages {
        let shot_page = work.join("shot.html");
        fs::write(
            &shot_page,
            SHOT.replace("PAGE", &format!("{results_url}{page}")),
        )
        .unwrap();
        let png = work.join(page.replace(".html", ".png"));
        let output = chromium(&[
            "--window-size=1700,1600",
            "--virtual-time-budget=20000",
            &format!("--screenshot={}", png.display()),
            &file_url(&shot_page),
        ]);
        assert!(
            png.is_file() && fs::metadata(&png).unwrap().len() > 1000,
            "{page}: no screenshot: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
