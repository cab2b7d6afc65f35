//! Rendering of `klondike solve` (RULES.md section 7): which deals can be
//! won with every card seen, beside the fixed policy of section 4 on the
//! same deals. JSON is the `klondike-solve` document; the other formats
//! answer one given deal alone (its verdict, and its line of play or the
//! proof that it is lost), and lead a run of several with the winnable
//! fraction and its interval, then the verdicts' table and (for given
//! deals) one row per deal. The policy's results appear in the text only
//! when the rules solved are the policy's own (draw 1, one pass): beside
//! another stock rule they answer another question.

use std::fmt::Write as _;

use super::table::{Grid, latex_tabular, markdown_table, tabled_text_fitted, thousands};
use super::{Format, RenderOptions};
use crate::cards::Card;
use crate::contract::klondike_solve::{
    KlondikeSolveDocument, KlondikeSolveKind, NodeBucket, PolicyByVerdict, PolicyCounts,
    PolicyResult, PolicySummary, SolveParams, SolveSummary, SolvedDealEntry, VerdictName,
    WinnableFraction,
};
use crate::contract::{self, Kind, Tag};
use crate::games::klondike::free_play::{FreePlayRules, Passes};
use crate::games::klondike::published::published_for;
use crate::games::klondike::solve::sample::{
    DealSummary, NODE_BUCKETS, POLICY_RULES, SolveCounts, VERDICTS, node_bucket_range,
    verdict_index, verdict_name,
};
use crate::games::klondike::solve::{SolveBudget, Verdict};

/// The fixed policy's passes through the stock, as the JSON states them:
/// one ([`POLICY_RULES`]).
const POLICY_PASSES: u8 = match POLICY_RULES.passes {
    Passes::Limited(n) => n,
    Passes::Unlimited => 0,
};

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
    /// One given deal (`--deal`, or a file of one): what the text formats
    /// say of it alone, in place of fractions over deals. `deals` then
    /// holds that deal.
    pub single: Option<SingleDeal<'a>>,
}

/// What the text formats show of one deal besides its summary: the line
/// of play that wins it, or the proof that none does.
pub struct SingleDeal<'a> {
    /// A won deal's record (`klondike record`'s format), replayed by the
    /// rules checker.
    pub record: Option<&'a str>,
    /// A lost deal's cards that never reach their foundation whatever is
    /// played, as the bound shows at the deal itself
    /// (`solve::never_home_at_deal`); empty when the proof is the
    /// search's exhaustion.
    pub never_home: &'a [Card],
}

/// Whether the policy's results belong in the text: the rules solved are
/// its own, so that they answer the same game (what the policy leaves on
/// the table of it).
fn policy_shown(run: &SolveRun) -> bool {
    run.rules == POLICY_RULES
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
                stock_turns: deal.stock_turns as u64,
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
                draw: POLICY_RULES.draw,
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
    let mut lines = vec![rules_line(run)];
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
    let published: Vec<String> = published_for(&run.rules)
        .map(|estimate| {
            format!(
                "{}% ± {}% ({})",
                estimate.percent, estimate.half_width, estimate.source
            )
        })
        .collect();
    if !published.is_empty() {
        lines.push(format!(
            "published, with 95% intervals: {}",
            published.join("; ")
        ));
    }
    if policy_shown(run) {
        lines.push(format!(
            "the fixed policy (RULES.md section 4, the same stock rule) goes out on {} of deals; {} are winnable",
            percent_of(counts.policy_went_out(), deals, decimals),
            percent_of(counts.with_verdict(Verdict::Won), deals, decimals)
        ));
    }
    lines.extend(time_line(run.deals));
    lines
}

/// The first line of every text rendering: the rules solved and the
/// solver's budget.
fn rules_line(run: &SolveRun) -> String {
    format!(
        "Klondike with every card seen (RULES.md section 7): draw {}, passes {}, at most {} states a deal{}",
        run.rules.draw,
        run.rules.passes,
        thousands(run.budget.max_nodes),
        match run.budget.max_time {
            Some(time) => format!(" and {} s", time.as_secs_f64()),
            None => String::new(),
        }
    )
}

/// The lines that answer for one deal: the rules, the verdict with its
/// line of play's length or its proof, what the search cost, and the
/// policy on the same deal when it plays the same rules.
fn single_lines(run: &SolveRun, deal: &DealSummary, single: &SingleDeal) -> Vec<String> {
    let searched = format!(
        "{} state{} searched in {}",
        thousands(deal.nodes),
        plural(deal.nodes),
        duration(deal.seconds)
    );
    let mut lines = vec![rules_line(run)];
    match deal.verdict {
        Verdict::Won => lines.push(format!(
            "won: this deal can be won; the line of play below wins it in {} move{} and {} stock turn{} (a move takes cards from one place to another; turning the stock is not a move), replayed and checked against the rules ({searched})",
            deal.moves,
            plural(deal.moves as u64),
            deal.stock_turns,
            plural(deal.stock_turns as u64)
        )),
        Verdict::Lost => {
            lines.push("lost: no sequence of moves wins this deal".to_string());
            lines.push(match single.never_home {
                [] => format!(
                    "proof: the search went through every position the deal leads to and found no win ({searched}); the moves and positions it leaves out are proved to lose no win (RULES.md section 7)"
                ),
                cards => {
                    let names: Vec<String> = cards.iter().map(Card::to_string).collect();
                    format!(
                        "proof, at the deal itself: whatever is played, {} never reach{} {} foundation{} (RULES.md section 7: what can ever become a pile's top, leave its place or go home; {searched})",
                        names.join(" "),
                        if cards.len() == 1 { "es" } else { "" },
                        if cards.len() == 1 { "its" } else { "their" },
                        plural(cards.len() as u64)
                    )
                }
            });
        }
        Verdict::Undecided => {
            let stopped_by = if deal.nodes >= run.budget.max_nodes {
                format!(
                    "its budget of {} states (--max-nodes)",
                    thousands(run.budget.max_nodes)
                )
            } else {
                match run.budget.max_time {
                    Some(time) => format!("its time limit of {} s (--max-seconds)", time.as_secs_f64()),
                    None => "its budget".to_string(),
                }
            };
            lines.push(format!(
                "undecided: the search stopped at {stopped_by} before it found a win or proved there is none ({searched}); a larger budget may decide it"
            ));
        }
    }
    if policy_shown(run) {
        lines.push(format!(
            "the fixed policy (RULES.md section 4, the same stock rule) {} on this deal",
            if deal.policy_went_out {
                "goes out"
            } else {
                "does not go out"
            }
        ));
    }
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
/// The verdicts' table: deals of each verdict and, with `policy`, on how
/// many of them the policy went out.
fn cross_grid(counts: &SolveCounts, decimals: usize, policy: bool) -> Grid {
    let row = |name: &str, [went_out, stuck]: [u64; 2]| {
        let deals = went_out + stuck;
        let mut cells = vec![
            name.to_string(),
            thousands(deals),
            percent_of(deals, counts.deals, decimals),
        ];
        if policy {
            cells.extend([thousands(went_out), thousands(stuck)]);
        }
        cells
    };
    let mut rows: Vec<Vec<String>> = VERDICTS
        .iter()
        .zip(counts.cross)
        .map(|((_, name), cell)| row(name, cell))
        .collect();
    let went_out = counts.policy_went_out();
    rows.push(row("all", [went_out, counts.deals - went_out]));
    let mut head = vec!["verdict".into(), "deals".into(), "share".into()];
    if policy {
        head.extend(["policy went out".into(), "policy stuck".into()]);
    }
    Grid { head, rows }
}

/// One row per deal solved (given deals only: a random run's deals are
/// in its JSON): the moves and stock turns of a win, counted as its
/// record counts them; with `policy`, what the policy did.
fn deals_grid(deals: &[(u64, DealSummary)], policy: bool) -> Grid {
    let mut head: Vec<String> = [
        "deal",
        "verdict",
        "moves",
        "stock turns",
        "nodes",
        "seconds",
    ]
    .map(String::from)
    .to_vec();
    if policy {
        head.push("policy".into());
    }
    Grid {
        head,
        rows: deals
            .iter()
            .map(|(index, deal)| {
                let mut cells = vec![
                    index.to_string(),
                    verdict_name(deal.verdict).into(),
                    deal.moves.to_string(),
                    deal.stock_turns.to_string(),
                    thousands(deal.nodes),
                    format!("{:.3}", deal.seconds),
                ];
                if policy {
                    cells.push(
                        if deal.policy_went_out {
                            "went out"
                        } else {
                            "stuck"
                        }
                        .into(),
                    );
                }
                cells
            })
            .collect(),
    }
}

/// Renders `run` in `format`: JSON (the [`KlondikeSolveDocument`]), or
/// the headline and tables. Ends with a newline.
pub fn render_solve(run: &SolveRun, format: Format, options: &RenderOptions) -> String {
    let decimals = options.percent_decimals;
    let given = run.trials.is_none();
    let policy = policy_shown(run);
    let cross = cross_grid(run.counts, decimals, policy);
    let deals = deals_grid(run.deals, policy);
    let mut text = String::new();
    let single = match (&run.single, run.deals) {
        (Some(single), [(_, deal)]) => Some((single, deal)),
        _ => None,
    };
    match (format, single) {
        (Format::Json, _) => {
            let _ = writeln!(text, "{}", contract::write(&solve_document(run, options)));
        }
        (Format::Table | Format::Md, Some((single, deal))) => {
            let end = if format == Format::Md { "  " } else { "" };
            for line in single_lines(run, deal, single) {
                let _ = writeln!(text, "{line}{end}");
            }
            if let Some(record) = single.record {
                let _ = write!(text, "\n{record}");
            }
        }
        (Format::Latex, Some(_)) => {
            let _ = write!(text, "{}", latex_tabular(&deals, None));
        }
        (Format::Table, None) => {
            for line in headline(run, decimals) {
                let _ = writeln!(text, "{line}");
            }
            let _ = writeln!(text, "\n{}", tabled_text_fitted(&cross, options.width));
            if given {
                let _ = writeln!(text, "\n{}", tabled_text_fitted(&deals, options.width));
            }
        }
        (Format::Md, None) => {
            for line in headline(run, decimals) {
                let _ = writeln!(text, "{line}  ");
            }
            let _ = write!(text, "\n{}", markdown_table(&cross));
            if given {
                let _ = write!(text, "\n{}", markdown_table(&deals));
            }
        }
        (Format::Latex, None) => {
            let _ = write!(text, "{}", latex_tabular(&cross, None));
        }
        (Format::Csv, _) => text = csv(run),
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

/// The header of [`render_verdicts_csv`].
pub const VERDICTS_HEADER: &str = "deal,verdict,states,seconds,moves,stock_turns";

/// Each deal's verdict as CSV, a row a deal in the order given, under
/// [`VERDICTS_HEADER`]: the deal's number, `won`, `lost` or `undecided`,
/// the states the solver expanded, the seconds it took (to the
/// microsecond), and the moves and stock turns of the win found (0 for a
/// deal not won), counted as every Klondike output counts them.
pub fn render_verdicts_csv(deals: &[(u64, DealSummary)]) -> String {
    let mut text = format!("{VERDICTS_HEADER}\n");
    for (index, deal) in deals {
        let _ = writeln!(
            text,
            "{index},{},{},{:.6},{},{}",
            verdict_name(deal.verdict),
            deal.nodes,
            deal.seconds,
            deal.moves,
            deal.stock_turns
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::klondike::free_play::Layout;
    use crate::games::klondike::solve::sample::{CROSS_BINS, N_BINS, add_to_tally, cross_bin};

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
            single: None,
        }
    }

    /// The same run under the policy's own stock rule.
    fn policy_run(counts: &SolveCounts) -> SolveRun<'_> {
        SolveRun {
            rules: POLICY_RULES,
            ..run(counts)
        }
    }

    fn deal(verdict: Verdict, seconds: f64) -> DealSummary {
        let won = verdict == Verdict::Won;
        DealSummary {
            verdict,
            moves: if won { 100 } else { 0 },
            stock_turns: if won { 31 } else { 0 },
            nodes: 10,
            seconds,
            policy_went_out: false,
        }
    }

    /// The text of one given deal of `verdict` under `rules`.
    fn single_text(
        rules: FreePlayRules,
        verdict: Verdict,
        (record, never_home): (Option<&str>, &[Card]),
        format: Format,
    ) -> String {
        let single = SingleDeal { record, never_home };
        let deals = [(0, deal(verdict, 0.002))];
        let mut tally = [0u64; N_BINS];
        add_to_tally(&deals[0].1, &mut tally);
        let counts = SolveCounts::of(&tally).unwrap();
        let run = SolveRun {
            rules,
            seed: None,
            trials: None,
            deals: &deals,
            single: Some(single),
            ..run(&counts)
        };
        render_solve(&run, format, &RenderOptions::default())
    }

    #[test]
    fn one_deal_is_answered_alone_with_its_line_of_play_or_proof() {
        let thoughtful = FreePlayRules::THOUGHTFUL;
        let record = "Klondike free play ...: a won game\nMoves: 100; stock turns: 31\n";
        let won = single_text(thoughtful, Verdict::Won, (Some(record), &[]), Format::Table);
        assert!(
            won.contains("won: this deal can be won; the line of play below wins it in 100 moves and 31 stock turns"),
            "{won}"
        );
        assert!(won.ends_with(&format!("\n\n{record}")), "{won}");
        // No fraction over one deal, no interval, no policy of other rules.
        for absent in ["winnable", "[", "%", "policy", "undecided"] {
            assert!(!won.contains(absent), "{absent} in {won}");
        }
        let cards = [Card::new(1, 0), Card::new(2, 3)];
        let lost = single_text(thoughtful, Verdict::Lost, (None, &cards), Format::Md);
        assert!(
            lost.contains("lost: no sequence of moves wins this deal  \n"),
            "{lost}"
        );
        assert!(
            lost.contains(
                "proof, at the deal itself: whatever is played, AC 2S never reach their foundations"
            ),
            "{lost}"
        );
        let searched = single_text(thoughtful, Verdict::Lost, (None, &[]), Format::Table);
        assert!(
            searched.contains("proof: the search went through every position the deal leads to and found no win (10 states searched in 2.00 ms)"),
            "{searched}"
        );
        let undecided = single_text(thoughtful, Verdict::Undecided, (None, &[]), Format::Table);
        // 10 states of a budget of 5,000: the time ran out (none set here).
        assert!(
            undecided.contains("undecided: the search stopped at its budget"),
            "{undecided}"
        );
        // Under the policy's own rules, its game on the deal follows.
        let beside = single_text(POLICY_RULES, Verdict::Lost, (None, &[]), Format::Table);
        assert!(
            beside.ends_with("the fixed policy (RULES.md section 4, the same stock rule) does not go out on this deal\n"),
            "{beside}"
        );
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
        // The policy plays draw 1, one pass: not beside a draw-3 solve.
        assert!(!text.contains("policy"), "{text}");
        assert!(!text.contains("solve time"), "no deals, no times: {text}");
        let beside = render_solve(
            &policy_run(&counts),
            Format::Table,
            &RenderOptions::default(),
        );
        assert!(
            beside.contains("the fixed policy (RULES.md section 4, the same stock rule) goes out on 7.00% of deals"),
            "{beside}"
        );
        assert!(beside.contains("policy went out"), "{beside}");
        let csv = render_solve(&run(&counts), Format::Csv, &RenderOptions::default());
        let cells: u64 = csv
            .lines()
            .skip(1)
            .map(|line| line.split(',').nth(5).unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(cells, 100);
    }

    #[test]
    fn the_verdicts_csv_has_a_row_a_deal_in_order() {
        let deals = [
            (7, deal(Verdict::Won, 0.25)),
            (3, deal(Verdict::Lost, 1e-7)),
            (12, deal(Verdict::Undecided, 12.5)),
        ];
        assert_eq!(
            render_verdicts_csv(&deals),
            "deal,verdict,states,seconds,moves,stock_turns\n\
             7,won,10,0.250000,100,31\n\
             3,lost,10,0.000000,0,0\n\
             12,undecided,10,12.500000,0,0\n"
        );
        assert_eq!(render_verdicts_csv(&[]), format!("{VERDICTS_HEADER}\n"));
    }

    #[test]
    fn the_time_line_gives_median_mean_tail_and_sum() {
        let deal = |seconds: f64| deal(Verdict::Won, seconds);
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
