use super::*;

fn row(variant: &str, figure: HeadlineValue) -> HeadlineRow {
    HeadlineRow {
        game: "Klondike".into(),
        variant: variant.into(),
        label: "P(win)".into(),
        figure,
        mean: Some("7.98 cards".into()),
        method: "Monte Carlo, 10,000,000 trials".into(),
        link: "klondike-52.html#klondike-52".into(),
        table: "klondike-52".into(),
    }
}

fn index() -> IndexPage {
    IndexPage {
        folder: "results".into(),
        games: vec![GameSection {
            heading: "Klondike".into(),
            rules_section: 4,
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
    assert!(body.contains("4.370 % [4.360, 4.380]"));
    assert!(body.contains("7.767 % (exactly 8/103)"));
    assert!(html.contains("Draw 3 &amp; pass 3 differs: p = 1.2e-5"));
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
    assert!(lines[3].ends_with("[klondike-52](results/klondike-52.html#klondike-52) |"));
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
    assert!(html.contains("<section id=\"grid-2\" data-choice=\"decks=2\">"));
    assert!(html.contains("<li><a href=\"#grid-2\">decks 2</a></li>"));
    assert!(html.contains("<img src=\"grid-1.svg\" alt=\"Dealer outcomes\""));
    assert!(html.contains("<a href=\"grid-1.md\">md</a>"));
    assert!(html.contains("<select name=\"decks\"><option>1</option><option>2</option></select>"));
}
