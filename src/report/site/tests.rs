use super::*;

fn row(variant: &str, figure: HeadlineValue) -> HeadlineRow {
    HeadlineRow {
        game: "Klondike".into(),
        role: HeadlineRole::Variant,
        variant: variant.into(),
        label: "P(win)".into(),
        figure,
        mean: Some("7.98 cards".into()),
        note: None,
        method: "Monte Carlo, 10,000,000 trials".into(),
        link: "klondike-52.html#klondike-52".into(),
        markdown_file: Some("klondike-52.md".into()),
        table: "klondike-52".into(),
    }
}

fn index() -> IndexPage {
    IndexPage {
        folder: "results".into(),
        games: vec![GameSection {
            heading: "Klondike".into(),
            rules_sections: vec![4, 7],
            headlines: vec![
                row(
                    "draw 1",
                    HeadlineValue::Estimate {
                        value: 0.0437,
                        low: 0.0436,
                        high: 0.0438,
                    },
                ),
                row(
                    "draw <3>",
                    HeadlineValue::Exact {
                        fraction: "8/103".into(),
                        value: 8.0 / 103.0,
                    },
                ),
            ],
            findings: vec![Finding {
                text: "Draw 3 & pass 3 differs: p = 1.2e-5".into(),
                link: "klondike-52-draw3.html#klondike-52-draw3".into(),
            }],
            families: vec![FamilyLink {
                page: "klondike-52.html".into(),
                family: "klondike-52".into(),
                tables: 1,
            }],
            csv: Some("klondike-tables.csv".into()),
        }],
    }
}

#[test]
fn percentages_keep_four_significant_digits() {
    assert_eq!(percent(0.5), "50.00");
    assert_eq!(percent(0.0437), "4.370");
    assert_eq!(percent(0.000_041_23), "0.004123");
    assert_eq!(percent(0.0), "0");
    assert_eq!(percent(-0.004_028_7), "-0.4029");
}

#[test]
fn the_front_page_is_a_page_with_one_headline_row_per_variant() {
    let html = index_html(&index());
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    assert!(html.contains("<title>Card-game odds: results</title>"));
    assert!(html.contains("<meta name=\"viewport\""));
    let headline = html.split("class=\"headline\"").nth(1).unwrap();
    let body = headline.split("<tbody>").nth(1).unwrap();
    let body = body.split("</tbody>").next().unwrap();
    assert_eq!(body.matches("<tr>").count(), 2);
    assert!(body.contains("<th scope=\"row\">draw &lt;3&gt;</th>"));
    // Each cell says its column, for the narrow layout.
    assert!(body.contains(
        "<td data-label=\"value (95 % interval or exact)\" class=\"value\">4.370 % [4.360, 4.380]</td>"
    ));
    assert!(body.contains("7.767 % (exactly 8/103)"));
    assert!(html.contains("Draw 3 &amp; pass 3 differs: p = 1.2e-5"));
    assert!(html.contains("(RULES.md sections 4 and 7)"));
    assert!(html.contains("<a href=\"klondike-tables.csv\">klondike-tables.csv</a>"));
    // On a narrow screen the rows are blocks of labelled cells.
    assert!(html.contains("@media (max-width:45rem)"));
    // Nothing from another host.
    assert!(!html.contains("http://") && !html.contains("https://"));
    // Every table header cell has a scope.
    assert_eq!(html.matches("<th>").count(), 0);
}

#[test]
fn the_readme_table_has_the_same_rows_linked_into_the_folder() {
    let md = headline_markdown(&index(), "results");
    let lines: Vec<&str> = md.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[2].starts_with("| Klondike | draw 1 | P(win) | 4.370 % [4.360, 4.380] |"));
    assert!(lines[3].ends_with("[klondike-52](results/klondike-52.md) |"));
}

#[test]
fn markdown_tables_come_back_as_cells_and_html_with_scopes() {
    let md = "**blackjack-dealer** (exact); decks=2\n\n| upcard | bust | 21 \\| 22 |\n| :-- | --: | --: |\n| 2 | 35.33 | — |\n\nmean 3\n";
    let blocks = markdown_blocks(md);
    assert_eq!(
        blocks,
        vec![
            Block::Paragraph("blackjack-dealer (exact); decks=2".into()),
            Block::Table {
                head: vec!["upcard".into(), "bust".into(), "21 | 22".into()],
                rows: vec![vec!["2".into(), "35.33".into(), "—".into()]],
            },
            Block::Paragraph("mean 3".into()),
        ]
    );
    let html = blocks[1].html();
    assert!(html.starts_with("<div class=\"scroll\"><table>"));
    assert!(html.contains("<th scope=\"col\">21 | 22</th>"));
    assert!(html.contains("<tr><th scope=\"row\">2</th><td>35.33</td><td>—</td></tr>"));
}

/// A line ending in two spaces ends a line of its paragraph (the report
/// renderers' heading lines), on the page a `<br>`; other lines run on.
#[test]
fn hard_line_breaks_stay_lines_on_the_page() {
    let md = "Overall value per round: -0.0087%  \nInsurance: -0.0588  \nrun on\nthe same line\n";
    let blocks = markdown_blocks(md);
    assert_eq!(
        blocks,
        vec![Block::Paragraph(
            "Overall value per round: -0.0087%\nInsurance: -0.0588\nrun on the same line".into()
        )]
    );
    assert_eq!(
        blocks[0].html(),
        "<p>Overall value per round: -0.0087%<br>\nInsurance: -0.0588<br>\nrun on the same line</p>\n"
    );
}

#[test]
fn a_family_page_links_its_files_and_picks_tables_without_script() {
    let table = |name: &str, decks: &str| TableSection {
        name: name.into(),
        description: "Dealer".into(),
        method: "exact".into(),
        files: vec![("md".into(), format!("{name}.md"))],
        figure: Some((format!("{name}.svg"), "Dealer outcomes".into())),
        blocks: vec![],
        shown_whole_at: None,
        choice: vec![("decks".into(), decks.into())],
    };
    let family = FamilyPage {
        family: "grid".into(),
        title: "Blackjack dealer's outcomes on a grid".into(),
        game_heading: "Blackjack".into(),
        rules_section: 5,
        spec_path: "analysis/grid.toml".into(),
        sections: vec![PageSection {
            heading: None,
            summary_of: None,
            tables: vec![table("grid-1", "1"), table("grid-2", "2")],
        }],
        selector: Some(Selector {
            axes: vec![("decks".into(), vec!["1".into(), "2".into()])],
        }),
    };
    let html = family_html(&family);
    // The title is the family's in words; the slug is named in the text.
    assert!(html.contains("<title>Blackjack dealer&#39;s outcomes on a grid</title>"));
    assert!(html.contains("<code>grid</code>"));
    assert!(html.contains("<section id=\"grid-2\" data-choice=\"decks=2\">"));
    assert!(html.contains("<li><a href=\"#grid-2\">decks 2</a></li>"));
    assert!(html.contains("<img src=\"grid-1.svg\" alt=\"Dealer outcomes\""));
    assert!(html.contains("<a href=\"grid-1.md\">md</a>"));
    assert!(html.contains("<select name=\"decks\"><option>1</option><option>2</option></select>"));
}

#[test]
fn the_usual_game_and_seed_questions_are_marked_in_both_tables() {
    let mut page = index();
    page.games[0].headlines[0].role = HeadlineRole::Usual;
    page.games[0].headlines[1].role = HeadlineRole::Seed;
    page.games[0].headlines[1].note = Some("of 10 deals: 8 won".into());
    let html = index_html(&page);
    assert!(
        html.contains("<th scope=\"row\"><span class=\"role\">the usual game:</span> draw 1</th>")
    );
    assert!(html.contains("<span class=\"role\">seed question:</span> draw &lt;3&gt;"));
    assert!(html.contains("of 10 deals: 8 won; 7.98 cards"));
    let md = headline_markdown(&page, "results");
    assert!(
        md.contains("| Klondike | **the usual game:** draw 1 |"),
        "{md}"
    );
    assert!(
        md.contains("| Klondike | **seed question:** draw <3> |"),
        "{md}"
    );
}

#[test]
fn a_negated_figure_is_a_house_edge_from_the_players_expectation() {
    let exact = HeadlineValue::Exact {
        fraction: "-1/250".into(),
        value: -0.004,
    };
    assert_eq!(exact.negated().text(), "0.4000 % (exactly 1/250)");
    let estimate = HeadlineValue::Estimate {
        value: -0.0042,
        low: -0.0045,
        high: -0.0040,
    };
    assert_eq!(estimate.negated().text(), "0.4200 % [0.4000, 0.4500]");
}

/// Headings and lists come back as HTML, and no Markdown syntax is left
/// in the text; a wide table says that it scrolls, a narrow one does not.
#[test]
fn headings_lists_and_wide_tables_come_back_without_markdown() {
    let md = "## Basic strategy (6 decks, **H17**)\n\nDealer's upcard across.\n\n- **S** stand\n- H hit,\n  else stand\n\n| a | b | c | d | e | f |\n|---|---|---|---|---|---|\n| 1 | 2 | 3 | 4 | 5 | a cell of forty characters, or near it |\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
    let blocks = markdown_blocks(md);
    assert_eq!(
        blocks[0],
        Block::Heading("Basic strategy (6 decks, H17)".into())
    );
    assert_eq!(
        blocks[2],
        Block::List(vec!["S stand".into(), "H hit, else stand".into()])
    );
    let html: String = blocks.iter().map(Block::html).collect();
    assert!(html.starts_with("<h4>Basic strategy (6 decks, H17)</h4>"));
    assert!(html.contains("<ul>\n<li>S stand</li>\n<li>H hit, else stand</li>\n</ul>"));
    assert!(!html.contains("##") && !html.contains("**"));
    assert_eq!(html.matches("<p class=\"hint\">").count(), 1, "{html}");
    assert!(html.contains("<p class=\"hint\">6 columns: where the table is cut off at the right, scroll it sideways.</p>\n<div class=\"scroll\">"));
}
