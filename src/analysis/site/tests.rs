use std::path::Path;

use serde_json::json;

use super::*;

const KLONDIKE: &str = r#"description = "Klondike drawing {draw}"
game = "klondike"
command = "mc"
outputs = ["md", "json", "svg"]
suffix = "draw{draw}"
each = [{ draw = [1, 3] }]
finding = "Drawing {/params/draw} wins {/distributions/0/outcomes/1/count} of {/trials} games."

[headline]
variant = "draw {draw}"
label = "P(all 52 out)"
outcome = "52"

[monte-carlo]
trials = 10_000_000
quick-trials = 100
seed = 1
"#;

fn specs() -> Vec<Spec> {
    Spec::parse(Path::new("analysis/klondike-52.toml"), KLONDIKE).unwrap()
}

/// A Monte-Carlo JSON output whose win is `wins` of 1000 games.
fn files(spec: &Spec) -> TableFiles {
    let draw: u64 = if spec.name.ends_with('1') { 1 } else { 3 };
    let wins = 10 * draw;
    TableFiles {
        json: Some(json!({
            "schema": "deckodds.report/v1",
            "game": crate::games::registry::KLONDIKE.report_name,
            "method": "monte-carlo",
            "params": { "draw": draw },
            "seed": 1,
            "trials": 1000,
            "distributions": [{
                "key": "foundation-cards",
                "params": {},
                "outcomes": [
                    { "outcome": "0", "count": 1000 - wins, "estimate": 1.0 - wins as f64 / 1000.0, "ci95": [0.9, 1.0] },
                    { "outcome": "52", "count": wins, "estimate": wins as f64 / 1000.0, "ci95": [0.005, 0.05] }
                ],
                "mean": { "estimate": 7.5, "standard_error": 0.1, "ci95": [7.3, 7.7] }
            }]
        }).to_string()),
        markdown: Some("| cards | percent |\n|---|---:|\n| 52 | 1.00 |\n".into()),
    }
}

#[test]
fn the_headline_rows_and_findings_come_from_the_json() {
    let site = build_site(&specs(), "results", Profile::Full, &files);
    let names: Vec<&str> = site.pages.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["index.html", "klondike-52.html"]);
    let index = &site.pages[0].1;
    // One row per variant, each figure the JSON's.
    assert!(index.contains("<td>Klondike</td><th scope=\"row\">draw 1</th><td>P(all 52 out)</td><td>1.000 % [0.5000, 5.000]</td><td>7.5000 foundation cards [7.3000, 7.7000]</td>"), "{index}");
    assert!(index.contains("<th scope=\"row\">draw 3</th><td>P(all 52 out)</td><td>3.000 %"));
    assert!(index.contains("Drawing 3 wins 30 of 1,000 games."));
    assert!(index.contains("href=\"klondike-52.html#klondike-52-draw3\""));
    let family = &site.pages[1].1;
    assert!(family.contains("<section id=\"klondike-52-draw1\">"));
    assert!(family.contains("<img src=\"klondike-52-draw1.svg\" alt=\"Klondike drawing 1\""));
    assert!(family.contains("<tr><th scope=\"row\">52</th><td>1.00</td></tr>"));
    assert!(family.contains("<code>analysis/klondike-52.toml</code>"));
    assert_eq!(
        site.headline_markdown.lines().count(),
        4,
        "{}",
        site.headline_markdown
    );
}

#[test]
fn a_missing_figure_leaves_its_row_out() {
    let site = build_site(&specs(), "results", Profile::Full, &|_| {
        TableFiles::default()
    });
    assert!(!site.pages[0].1.contains("<th scope=\"row\">draw"));
    assert_eq!(site.headline_markdown.lines().count(), 2);
}

/// Blackjack's headline rows are the player's, so they name the game
/// "Blackjack", not its dealer (the name its dealer's reports and the
/// registry's display name use).
#[test]
fn blackjack_player_rows_name_the_game_blackjack() {
    let spec = r#"description = "House edge, 6 decks"
game = "blackjack"
command = "house-edge"
outputs = ["md", "json"]

[headline]
variant = "6 decks, S17"
label = "player's expectation per unit bet"
figure = "/overall"
"#;
    let specs = Spec::parse(
        Path::new("analysis/blackjack-house-edge-6-decks.toml"),
        spec,
    )
    .unwrap();
    let site = build_site(&specs, "results", Profile::Full, &|_| TableFiles {
        json: Some(json!({ "overall": { "value": "-1/4", "decimal": -0.25 } }).to_string()),
        markdown: None,
    });
    let index = &site.pages[0].1;
    assert!(
        index.contains("<tr><td>Blackjack</td><th scope=\"row\">6 decks, S17</th>"),
        "{index}"
    );
    assert!(!index.contains("<td>Blackjack dealer</td>"), "{index}");
    assert!(
        site.headline_markdown.contains("\n| Blackjack | 6 decks, S17 | player's expectation per unit bet | -25.00 % (exactly -1/4) |"),
        "{}",
        site.headline_markdown
    );
}

/// A family a page also shows is embedded whole while its Markdown is
/// small; a large one is shown by each table's description and chart,
/// linked to the table on its own page, so that the page stays small.
#[test]
fn a_large_family_also_shown_is_linked_not_embedded() {
    let spec = |family: &str, also: &str| {
        format!(
            "description = \"Dealer {{decks}} decks\"\ngame = \"blackjack\"\ncommand = \"exact\"\noutputs = [\"md\", \"json\", \"svg\"]\n{also}suffix = \"{{decks}}\"\neach = [{{ decks = [1, 2] }}]\n# {family}\n"
        )
    };
    let mut specs = Vec::new();
    for (family, also) in [
        ("grid", "also-shows = [\"small\", \"large\"]\n"),
        ("small", ""),
        ("large", ""),
    ] {
        let path = format!("analysis/{family}.toml");
        specs.extend(Spec::parse(Path::new(&path), &spec(family, also)).unwrap());
    }
    // A large table: rows enough that the family's Markdown passes the
    // limit; each row a distinct text, to count how often it shows.
    let rows = ALSO_SHOWN_WHOLE_UP_TO / 2 / 20 + 1;
    let files = |spec: &Spec| {
        let mut markdown = format!("| {} | percent |\n|---|---:|\n", spec.name);
        let count = if spec.family == "large" { rows } else { 1 };
        for row in 0..count {
            markdown.push_str(&format!("| row{row:06} | 1.00 |\n"));
        }
        TableFiles {
            json: None,
            markdown: Some(markdown),
        }
    };
    let site = build_site(&specs, "results", Profile::Full, &files);
    let grid = &site
        .pages
        .iter()
        .find(|(name, _)| name == "grid.html")
        .unwrap()
        .1;
    // The small family's tables are on the page, whole.
    assert!(grid.contains("<th scope=\"col\">small-1</th>"), "{grid}");
    // The large family's: their charts and a link each, no rows.
    assert!(grid.contains("<img src=\"large-2.svg\""));
    assert!(grid.contains("<a href=\"large.html#large-2\">large-2 on its family's page</a>"));
    assert!(grid.contains("the tables themselves are on <a href=\"large.html\">large.html</a>"));
    assert!(!grid.contains("row000001"), "a large table embedded");
    assert!(!grid.contains("<a href=\"small.html#small-1\">"));
    // Its own page shows them whole.
    let large = &site
        .pages
        .iter()
        .find(|(name, _)| name == "large.html")
        .unwrap()
        .1;
    assert!(large.contains(&format!("<th scope=\"row\">row{:06}</th>", rows - 1)));
    assert!(
        grid.len() * 4 < large.len(),
        "{} against {}",
        grid.len(),
        large.len()
    );
}

#[test]
fn exact_figures_read_fractions_and_pointers_fill_in() {
    assert_eq!(
        figure_of(&json!({ "probability": "8/103", "value": 0.0777 })),
        Some(HeadlineValue::Exact {
            fraction: "8/103".into(),
            value: 0.0777
        })
    );
    assert_eq!(
        figure_of(&json!({ "value": "-1/4", "decimal": -0.25 })),
        Some(HeadlineValue::Exact {
            fraction: "-1/4".into(),
            value: -0.25
        })
    );
    assert_eq!(figure_of(&json!({ "mean": 1.0 })), None);
    let json = json!({ "rows": [{ "p_value": 4.4698965943280104e-33, "chi_square": 19.772 }] });
    assert_eq!(
        fill_figures(
            "p = {/rows/0/p_value}, chi-square {/rows/0/chi_square}",
            &json
        )
        .as_deref(),
        Some("p = 4.5e-33, chi-square 19.77")
    );
    assert_eq!(fill_figures("{/rows/9/p_value}", &json), None);
    assert_eq!(figure_text(&json!(18606948.08)), "18,606,948");
    assert_eq!(figure_text(&json!(-0.25)), "-0.2500");
}

#[test]
fn the_readme_table_goes_between_the_markers() {
    let readme = format!("# deckodds\n\n{README_BEGIN}\nold\n{README_END}\n\nmore\n");
    let updated = readme_with_headline(&readme, "| new |\n").unwrap();
    assert_eq!(
        updated,
        format!("# deckodds\n\n{README_BEGIN}\n\n| new |\n\n{README_END}\n\nmore\n")
    );
    assert_eq!(
        readme_with_headline(&updated, "| new |\n").unwrap(),
        updated
    );
    assert_eq!(readme_with_headline("# no markers\n", "x"), None);
}

/// A report written before documents carried a `schema` is not read: its
/// headline row is left out, as for a missing figure.
#[test]
fn a_report_without_a_schema_leaves_its_row_out() {
    let site = build_site(&specs(), "results", Profile::Full, &|spec| {
        let mut old: serde_json::Value = serde_json::from_str(&files(spec).json.unwrap()).unwrap();
        old.as_object_mut().unwrap().remove("schema");
        TableFiles {
            json: Some(old.to_string()),
            markdown: None,
        }
    });
    assert!(!site.pages[0].1.contains("<th scope=\"row\">draw"));
    // The same JSON with its schema has the rows.
    let site = build_site(&specs(), "results", Profile::Full, &files);
    assert!(site.pages[0].1.contains("<th scope=\"row\">draw 1"));
}
