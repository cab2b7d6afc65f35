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
    let site = build_site(&specs(), "results", Profile::Full, &files).unwrap();
    let names: Vec<&str> = site.pages.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["index.html", "klondike-52.html"]);
    let index = &site.pages[0].1;
    // One row per variant, each figure the JSON's.
    assert!(index.contains("<td data-label=\"game\">Klondike</td><th scope=\"row\">draw 1</th><td data-label=\"figure\">P(all 52 out)</td><td data-label=\"value (95 % interval or exact)\" class=\"value\">1.000 % [0.5000, 5.000]</td><td data-label=\"mean or note\">7.5000 foundation cards [7.3000, 7.7000]</td>"), "{index}");
    assert!(index.contains("<th scope=\"row\">draw 3</th><td data-label=\"figure\">P(all 52 out)</td><td data-label=\"value (95 % interval or exact)\" class=\"value\">3.000 %"));
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
    })
    .unwrap();
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
    })
    .unwrap();
    let index = &site.pages[0].1;
    assert!(
        index.contains(
            "<tr><td data-label=\"game\">Blackjack</td><th scope=\"row\">6 decks, S17</th>"
        ),
        "{index}"
    );
    assert!(!index.contains(">Blackjack dealer</td>"), "{index}");
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
    let site = build_site(&specs, "results", Profile::Full, &files).unwrap();
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
    })
    .unwrap();
    assert!(!site.pages[0].1.contains("<th scope=\"row\">draw"));
    // The same JSON with its schema has the rows.
    let site = build_site(&specs(), "results", Profile::Full, &files).unwrap();
    assert!(site.pages[0].1.contains("<th scope=\"row\">draw 1"));
}

/// A family's rows: the one `[[headline]]` naming a table is that
/// table's only; rows come usual game first, then variants, then seed
/// questions, whatever the spec order; `negate` shows a house edge and
/// `note` fills its figures from the JSON.
#[test]
fn rows_come_by_role_each_from_the_table_it_names() {
    let family = r#"description = "Player, {decks} decks"
game = "blackjack"
command = "player"
outputs = ["md", "json"]
suffix = "{decks}-decks"
each = [{ decks = [1, 6] }]

[[headline]]
role = "seed"
table = "blackjack-player-1-decks"
variant = "one deck"
label = "house edge"
figure = "/overall"
negate = true

[[headline]]
role = "usual"
table = "blackjack-player-6-decks"
variant = "six decks"
label = "house edge"
figure = "/overall"
negate = true
note = "insurance {/insurance/value}"
"#;
    let specs = Spec::parse(Path::new("analysis/blackjack-player.toml"), family).unwrap();
    assert_eq!(specs[0].headlines.len(), 1);
    assert_eq!(specs[0].headlines[0].variant, "one deck");
    let site = build_site(&specs, "results", Profile::Full, &|spec| {
        TableFiles {
        json: Some(
            json!({
                "overall": { "value": if spec.name.ends_with("1-decks") { "1/1000" } else { "-1/200" }, "decimal": if spec.name.ends_with("1-decks") { 0.001 } else { -0.005 } },
                "insurance": { "value": "-23/311" }
            })
            .to_string(),
        ),
        markdown: None,
    }
    }).unwrap();
    let md = &site.headline_markdown;
    let six = md.find("**the usual game:** six decks").expect(md);
    let one = md.find("**seed question:** one deck").expect(md);
    assert!(six < one, "{md}");
    assert!(
        md.contains("| house edge | 0.5000 % (exactly 1/200) | insurance -23/311 |"),
        "{md}"
    );
    assert!(
        md.contains("| house edge | -0.1000 % (exactly -1/1000) |"),
        "{md}"
    );
    // The player's pages cite the player's section of RULES.md.
    let page = &site
        .pages
        .iter()
        .find(|(name, _)| name == "blackjack-player.html")
        .unwrap()
        .1;
    assert!(page.contains("RULES.md section 6)"), "{page}");
}

#[test]
fn a_row_naming_another_spec_s_table_is_refused() {
    let family = "description = \"Player, {decks} decks\"\ngame = \"blackjack\"\ncommand = \"player\"\noutputs = [\"json\"]\nsuffix = \"{decks}\"\neach = [{ decks = [1, 6] }]\n\n[headline]\ntable = \"blackjack-player-8\"\nvariant = \"v\"\nlabel = \"l\"\nfigure = \"/overall\"\n";
    let error = Spec::parse(Path::new("analysis/blackjack-player.toml"), family)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("line 8: headline.table = \"blackjack-player-8\": not a table of this spec; one of blackjack-player-1, blackjack-player-6"),
        "{error}"
    );
    let role = family.replace("table = \"blackjack-player-8\"", "role = \"main\"");
    let error = Spec::parse(Path::new("analysis/blackjack-player.toml"), &role)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("line 9: headline.role = \"main\": one of \"usual\""),
        "{error}"
    );
}

/// Each game's long-form CSV holds every outcome of its tables' JSON, a
/// row each, with the columns a data frame wants.
#[test]
fn each_game_has_a_long_form_csv_of_its_tables_figures() {
    let site = build_site(&specs(), "results", Profile::Full, &files).unwrap();
    assert_eq!(site.csv_files.len(), 1);
    let (name, csv) = &site.csv_files[0];
    assert_eq!(name, "klondike-tables.csv");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "table,document,distribution,outcome,count,trials,probability,value,ci95_low,ci95_high,published,z,p_value,verdict,method"
    );
    assert!(lines.contains(&"klondike-52-draw3,distribution,foundation-cards,52,30,1000,,0.03,0.005,0.05,,,,,monte-carlo"), "{csv}");
    assert!(
        lines.contains(&"klondike-52-draw1,mean,foundation-cards,,,,,7.5,7.3,7.7,,,,,monte-carlo"),
        "{csv}"
    );
    // Two outcomes and a mean per table.
    assert_eq!(lines.len(), 1 + 2 * 3);
    // The index page links it.
    assert!(site.pages[0].1.contains("<a href=\"klondike-tables.csv\">"));
}

/// Presentation keys (title, answers-table rows, findings) do not make a
/// spec's tables stale; a parameter, the trials or the outputs do.
#[test]
fn only_what_makes_the_tables_is_compared_with_the_provenance_record() {
    let spec = &specs()[0];
    assert!(spec.makes_same_tables_as(KLONDIKE));
    let presented = KLONDIKE
        .replace(
            "[headline]",
            "title = \"Klondike\"\n\n[[headline]]\nrole = \"seed\"",
        )
        .replace("finding = ", "# a comment\nfinding = ")
        .replace("trials = 10_000_000", "trials = 10000000");
    let reparsed = Spec::parse(Path::new("analysis/klondike-52.toml"), &presented).unwrap();
    assert!(reparsed[0].makes_same_tables_as(KLONDIKE));
    for changed in [
        KLONDIKE.replace("seed = 1", "seed = 2"),
        KLONDIKE.replace("[1, 3]", "[1]"),
        KLONDIKE.replace("\"svg\"]", "\"svg\", \"csv\"]"),
    ] {
        assert!(!spec.makes_same_tables_as(&changed), "{changed}");
    }
}

/// A table whose JSON names its kind but does not read as it is an error
/// naming the table, not a table left out of the long-form CSV.
#[test]
fn a_json_that_does_not_read_is_named_not_left_out_of_the_csv() {
    let broken = |spec: &Spec| {
        let mut json: serde_json::Value = serde_json::from_str(&files(spec).json.unwrap()).unwrap();
        if spec.name.ends_with('3') {
            json["trials"] = json!("a thousand");
        }
        TableFiles {
            json: Some(json.to_string()),
            markdown: None,
        }
    };
    let unread = build_site(&specs(), "results", Profile::Full, &broken).unwrap_err();
    assert_eq!(unread.table, "klondike-52-draw3");
    assert!(unread.error.0.contains("trials"), "{unread}");
    let not_json = |_: &Spec| TableFiles {
        json: Some("{ cut off".into()),
        markdown: None,
    };
    let unread = build_site(&specs(), "results", Profile::Full, &not_json).unwrap_err();
    assert_eq!(unread.table, "klondike-52-draw1");
}
