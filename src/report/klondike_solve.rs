//! Rendering of `klondike solve` (RULES.md section 7): which deals can be
//! won with every card seen, beside the fixed policy of section 4 on the
//! same deals. JSON is the `klondike-solve` document; the other formats
//! lead with the winnable fraction and show the verdict x policy table,
//! then (for given deals) one row per deal.

use std::fmt::Write as _;

use super::table::{Grid, latex_tabular, markdown_table, tabled_text, thousands};
use super::{Format, RenderOptions};
use crate::contract::klondike_solve::{
    KlondikeSolveDocument, KlondikeSolveKind, NodeBucket, PolicyByVerdict, PolicyCounts,
    PolicyResult, PolicySummary, SolveParams, SolveSummary, SolvedDealEntry, VerdictName,
    WinnableFraction,
};
use crate::contract::{self, Kind, Tag};
use crate::games::klondike::free_play::FreePlayRules;
use crate::games::klondike::solve::sample::{
    DealSummary, NODE_BUCKETS, SolveCounts, VERDICTS, node_bucket_range, verdict_index,
    verdict_name,
};
use crate::games::klondike::solve::{SolveBudget, Verdict};

/// The fixed policy's rules, which every deal is also played by: the
/// exercise's (RULES.md section 4).
const POLICY_DRAW: u8 = 1;
const POLICY_PASSES: u8 = 1;

/// What a `klondike solve` run found, as the command hands it over.
pub struct SolveRun<'a> {
    /// The rules solved.
    pub rules: FreePlayRules,
    /// The solver's budget per deal.
    pub budget: SolveBudget,
    /// Random deals: the master seed and the deals counted.
    pub seed: Option<u64>,
    pub trials: Option<u64>,
    /// The deals this process solved, with their numbers, in order.
    pub deals: &'a [(u64, DealSummary)],
    /// The counts over every deal of the run.
    pub counts: &'a SolveCounts,
}

fn verdict_entry(verdict: Verdict) -> VerdictName {
    match verdict {
        Verdict::Won => VerdictName::Won,
        Verdict::Lost => VerdictName::Lost,
        Verdict::Undecided => VerdictName::Undecided,
    }
}

fn policy_entry(went_out: bool) -> PolicyResult {
    if went_out {
        PolicyResult::WentOut
    } else {
        PolicyResult::Stuck
    }
}

/// The `klondike-solve` document of `run`, with the precision and shard
/// blocks of `options`.
pub fn solve_document(run: &SolveRun, options: &RenderOptions) -> KlondikeSolveDocument {
    let counts = run.counts;
    let winnable = counts.winnable();
    let policy_counts = |verdict: Verdict| {
        let [went_out, stuck] = counts.cross[verdict_index(verdict)];
        PolicyCounts { went_out, stuck }
    };
    let went_out = counts.policy_went_out();
    KlondikeSolveDocument {
        schema: Tag::new(),
        game: KlondikeSolveKind::NAME.into(),
        params: SolveParams {
            draw: run.rules.draw,
            passes: run.rules.passes.to_string(),
            max_nodes: run.budget.max_nodes,
            max_seconds: run.budget.max_time.map(|t| t.as_secs_f64()),
        },
        seed: run.seed,
        trials: run.trials,
        deals: run
            .deals
            .iter()
            .map(|(index, deal)| SolvedDealEntry {
                index: *index,
                verdict: verdict_entry(deal.verdict),
                moves: deal.moves as u64,
                nodes: deal.nodes,
                seconds: deal.seconds,
                policy: policy_entry(deal.policy_went_out),
            })
            .collect(),
        summary: SolveSummary {
            deals: counts.deals,
            won: counts.with_verdict(Verdict::Won),
            lost: counts.with_verdict(Verdict::Lost),
            undecided: counts.with_verdict(Verdict::Undecided),
            winnable: WinnableFraction {
                estimate: winnable.estimate,
                ci95: [winnable.ci95.low, winnable.ci95.high],
                bounds: [winnable.bounds.0, winnable.bounds.1],
            },
            policy: PolicySummary {
                draw: POLICY_DRAW,
                passes: POLICY_PASSES,
                went_out,
                stuck: counts.deals - went_out,
                by_verdict: PolicyByVerdict {
                    won: policy_counts(Verdict::Won),
                    lost: policy_counts(Verdict::Lost),
                    undecided: policy_counts(Verdict::Undecided),
                },
            },
            nodes: (0..NODE_BUCKETS)
                .map(|bucket| {
                    let (min, max) = node_bucket_range(bucket);
                    NodeBucket {
                        min,
                        max,
                        deals: counts.nodes[bucket],
                    }
                })
                .collect(),
        },
        precision: options.blocks.precision.clone(),
        shard: options.blocks.shard.clone(),
    }
}

/// `count` of `total` as a percentage with `decimals` places (`-` of
/// nothing).
fn percent_of(count: u64, total: u64, decimals: usize) -> String {
    if total == 0 {
        return "-".into();
    }
    percent(count as f64 / total as f64, decimals)
}

fn percent(p: f64, decimals: usize) -> String {
    format!("{:.*}%", decimals, 100.0 * p)
}

/// The lines a text rendering leads with: the rules, the winnable
/// fraction, the undecided deals, and the policy beside it.
fn headline(run: &SolveRun, decimals: usize) -> Vec<String> {
    let counts = run.counts;
    let w = counts.winnable();
    let undecided = counts.with_verdict(Verdict::Undecided);
    let deals = counts.deals;
    let mut lines = vec![format!(
        "Klondike with every card seen (RULES.md section 7): draw {}, passes {}, at most {} states a deal{}",
        run.rules.draw,
        run.rules.passes,
        thousands(run.budget.max_nodes),
        match run.budget.max_time {
            Some(time) => format!(" and {} s", time.as_secs_f64()),
            None => String::new(),
        }
    )];
    lines.push(match (run.seed, run.trials) {
        (Some(seed), Some(trials)) => format!("{} random deals, seed {seed}", thousands(trials)),
        _ => format!("{} given deal{}", thousands(deals), plural(deals)),
    });
    lines.push(format!(
        "winnable: {} [{}, {}] (won / decided; 95% interval counting the undecided both ways)",
        w.estimate
            .map_or_else(|| "-".to_string(), |p| percent(p, decimals)),
        percent(w.ci95.low, decimals),
        percent(w.ci95.high, decimals)
    ));
    lines.push(format!(
        "undecided: {} of {} deal{} (budget spent): between {} and {} are winnable",
        thousands(undecided),
        thousands(deals),
        plural(deals),
        percent(w.bounds.0, decimals),
        percent(w.bounds.1, decimals)
    ));
    let went_out = counts.policy_went_out();
    lines.push(format!(
        "the fixed policy (RULES.md section 4: draw {POLICY_DRAW}, one pass) goes out on {} of deals; {} are winnable",
        percent_of(went_out, deals, decimals),
        percent_of(counts.with_verdict(Verdict::Won), deals, decimals)
    ));
    lines.extend(time_line(run.deals));
    lines
}

/// The solve time per deal over the deals this process solved (the only
/// ones whose time it knows): median, mean, 90th percentile (nearest
/// rank), longest, and the sum. It is the one line a rerun does not
/// repeat; `None` without deals.
fn time_line(deals: &[(u64, DealSummary)]) -> Option<String> {
    let mut seconds: Vec<f64> = deals.iter().map(|(_, deal)| deal.seconds).collect();
    if seconds.is_empty() {
        return None;
    }
    seconds.sort_by(f64::total_cmp);
    let n = seconds.len();
    let rank = |q: f64| seconds[((q * n as f64).ceil() as usize).clamp(1, n) - 1];
    let total: f64 = seconds.iter().sum();
    Some(format!(
        "solve time a deal: median {}, mean {}, 90th percentile {}, longest {}; {} in all for {} deal{}",
        duration(rank(0.5)),
        duration(total / n as f64),
        duration(rank(0.9)),
        duration(seconds[n - 1]),
        duration(total),
        thousands(n as u64),
        plural(n as u64)
    ))
}

/// `seconds` for people: microseconds, milliseconds or seconds, three
/// significant figures (whole seconds from 1,000 s).
fn duration(seconds: f64) -> String {
    let (value, unit) = if seconds < 1e-3 {
        (seconds * 1e6, "µs")
    } else if seconds < 1.0 {
        (seconds * 1e3, "ms")
    } else {
        (seconds, "s")
    };
    let decimals = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("{value:.decimals$} {unit}")
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The verdict x policy table: deals of each verdict, and on how many of
/// them the policy went out.
fn cross_grid(counts: &SolveCounts, decimals: usize) -> Grid {
    let mut rows: Vec<Vec<String>> = VERDICTS
        .iter()
        .zip(counts.cross)
        .map(|((_, name), [went_out, stuck])| {
            let deals = went_out + stuck;
            vec![
                name.to_string(),
                thousands(deals),
                percent_of(deals, counts.deals, decimals),
                thousands(went_out),
                thousands(stuck),
            ]
        })
        .collect();
    let went_out = counts.policy_went_out();
    rows.push(vec![
        "all".into(),
        thousands(counts.deals),
        percent_of(counts.deals, counts.deals, decimals),
        thousands(went_out),
        thousands(counts.deals - went_out),
    ]);
    Grid {
        head: vec![
            "verdict".into(),
            "deals".into(),
            "share".into(),
            "policy went out".into(),
            "policy stuck".into(),
        ],
        rows,
    }
}

/// One row per deal solved (given deals only: a random run's deals are
/// in its JSON).
fn deals_grid(deals: &[(u64, DealSummary)]) -> Grid {
    Grid {
        head: vec![
            "deal".into(),
            "verdict".into(),
            "moves".into(),
            "nodes".into(),
            "seconds".into(),
            "policy".into(),
        ],
        rows: deals
            .iter()
            .map(|(index, deal)| {
                vec![
                    index.to_string(),
                    verdict_name(deal.verdict).into(),
                    deal.moves.to_string(),
                    thousands(deal.nodes),
                    format!("{:.3}", deal.seconds),
                    if deal.policy_went_out {
                        "went out"
                    } else {
                        "stuck"
                    }
                    .into(),
                ]
            })
            .collect(),
    }
}

/// Renders `run` in `format`: JSON (the [`KlondikeSolveDocument`]), or
/// the headline and tables. Ends with a newline.
pub fn render_solve(run: &SolveRun, format: Format, options: &RenderOptions) -> String {
    let decimals = options.percent_decimals;
    let given = run.trials.is_none();
    let cross = cross_grid(run.counts, decimals);
    let deals = deals_grid(run.deals);
    let mut text = String::new();
    match format {
        Format::Json => {
            let _ = writeln!(text, "{}", contract::write(&solve_document(run, options)));
        }
        Format::Table => {
            for line in headline(run, decimals) {
                let _ = writeln!(text, "{line}");
            }
            let _ = writeln!(text, "\n{}", tabled_text(&cross));
            if given {
                let _ = writeln!(text, "\n{}", tabled_text(&deals));
            }
        }
        Format::Md => {
            for line in headline(run, decimals) {
                let _ = writeln!(text, "{line}  ");
            }
            let _ = write!(text, "\n{}", markdown_table(&cross));
            if given {
                let _ = write!(text, "\n{}", markdown_table(&deals));
            }
        }
        Format::Latex => {
            let _ = write!(text, "{}", latex_tabular(&cross, None));
        }
        Format::Csv => text = csv(run),
    }
    text
}

/// The counts in long form, one row per verdict x policy cell (full
/// precision, no headline).
fn csv(run: &SolveRun) -> String {
    let mut text = String::from("draw,passes,max_nodes,verdict,policy,deals,trials\n");
    let passes = run.rules.passes.to_string();
    for ((_, name), row) in VERDICTS.iter().zip(run.counts.cross) {
        for (policy, count) in ["went-out", "stuck"].iter().zip(row) {
            let _ = writeln!(
                text,
                "{},{passes},{},{name},{policy},{count},{}",
                run.rules.draw, run.budget.max_nodes, run.counts.deals
            );
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::klondike::free_play::{Layout, Passes};
    use crate::games::klondike::solve::sample::{CROSS_BINS, N_BINS, cross_bin};

    fn counts() -> SolveCounts {
        let mut tally = [0u64; N_BINS];
        tally[cross_bin(Verdict::Won, true)] = 7;
        tally[cross_bin(Verdict::Won, false)] = 70;
        tally[cross_bin(Verdict::Lost, false)] = 20;
        tally[cross_bin(Verdict::Undecided, false)] = 3;
        tally[CROSS_BINS + 10] = 100;
        SolveCounts::of(&tally).unwrap()
    }

    fn run(counts: &SolveCounts) -> SolveRun<'_> {
        SolveRun {
            rules: FreePlayRules::new(3, Passes::Unlimited, Layout::FULL).unwrap(),
            budget: SolveBudget {
                max_nodes: 5000,
                max_time: None,
            },
            seed: Some(3),
            trials: Some(100),
            deals: &[],
            counts,
        }
    }

    #[test]
    fn the_document_adds_up_and_reads_back() {
        let counts = counts();
        let document = solve_document(&run(&counts), &RenderOptions::default());
        let summary = &document.summary;
        assert_eq!(
            summary.won + summary.lost + summary.undecided,
            summary.deals
        );
        assert_eq!(
            summary.policy.went_out + summary.policy.stuck,
            summary.deals
        );
        let by = &summary.policy.by_verdict;
        assert_eq!((by.won.went_out, by.won.stuck), (7, 70));
        assert_eq!(
            summary.nodes.iter().map(|b| b.deals).sum::<u64>(),
            summary.deals
        );
        assert_eq!(summary.nodes[10].min, 512);
        assert_eq!(document.params.passes, "unlimited");
        let text = render_solve(&run(&counts), Format::Json, &RenderOptions::default());
        assert_eq!(
            contract::read::<KlondikeSolveDocument>(&text).unwrap(),
            document
        );
    }

    #[test]
    fn the_text_leads_with_the_winnable_fraction_and_the_policy() {
        let counts = counts();
        let text = render_solve(&run(&counts), Format::Table, &RenderOptions::default());
        // 77 won of 97 decided; 3 undecided of 100.
        assert!(
            text.contains(&format!("winnable: {:.2}%", 7700.0 / 97.0)),
            "{text}"
        );
        assert!(text.contains("undecided: 3 of 100 deals"), "{text}");
        assert!(text.contains("between 77.00% and 80.00%"), "{text}");
        assert!(text.contains("goes out on 7.00% of deals"), "{text}");
        assert!(!text.contains("solve time"), "no deals, no times: {text}");
        let csv = render_solve(&run(&counts), Format::Csv, &RenderOptions::default());
        let cells: u64 = csv
            .lines()
            .skip(1)
            .map(|line| line.split(',').nth(5).unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(cells, 100);
    }

    #[test]
    fn the_time_line_gives_median_mean_tail_and_sum() {
        let deal = |seconds: f64| DealSummary {
            verdict: Verdict::Won,
            moves: 100,
            nodes: 10,
            seconds,
            policy_went_out: false,
        };
        // Ten deals: 1 ms to 9 ms and one of 2.011 s (2.056 s in all).
        let mut deals: Vec<(u64, DealSummary)> =
            (1..=9).map(|i| (i, deal(i as f64 * 1e-3))).collect();
        deals.push((0, deal(2.011)));
        let line = time_line(&deals).unwrap();
        assert_eq!(
            line,
            "solve time a deal: median 5.00 ms, mean 206 ms, 90th percentile 9.00 ms, \
             longest 2.01 s; 2.06 s in all for 10 deals"
        );
        assert_eq!(time_line(&[]), None);
        assert_eq!(duration(0.000_184), "184 µs");
        assert_eq!(duration(1234.5), "1234 s");
    }
}
