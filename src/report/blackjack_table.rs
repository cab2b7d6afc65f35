//! `blackjack table` and `table compare`: rounds at the table, as a
//! report (RULES.md section 6, "At the table"; docs/CONTRACTS.md,
//! "blackjack table").

use super::Format;
use super::RenderOptions;
use super::player::{
    TitledGrid, csv_text, decimal_text, document_text, lay_out, params_json, rules_text,
};
use super::table::{Grid, interval95, thousands};
use crate::compare::{self, MeanAgreement as Agreement};
use crate::contract::blackjack::{
    BankrollFigures, RampRow, TableBetting, TableIndexPlay, TableIndexPlays, TableInsurance,
    TripFigures,
};
use crate::contract::blackjack::{
    CountOutcome, CutCardEffect, CutCardEffectDocument, CutCardRun, LabelMap, MeanAgreement,
    Params, PublishedCheck, RateCheck, RoundsPerShoe, TableCompareDocument, TableDifference,
    TableDistribution, TableDocument, TableOutcomes, TableValue, TrueCountRow, finite,
};
use crate::contract::{self, Tag};
use crate::games::blackjack::Soft17;
use crate::games::blackjack::player::{PlayerParams, PlayerRules, value_letter};
use crate::games::blackjack::table::{
    BettingSummary, ClaimCheck, CountSystem, Dealing, IndexPlays, TableSummary, TripRisk,
    TrueCountMethod,
};
use crate::games::registry::{BLACKJACK_CUT_CARD_REPORT, BLACKJACK_TABLE_REPORT};

/// What a table run reports.
#[derive(Clone, Debug)]
pub struct TableReport<'a> {
    /// The rules (split model cdz: the one the table's split hands play).
    pub params: &'a PlayerParams,
    /// When the dealer shuffled.
    pub dealing: Dealing,
    /// The strategy's name: `cd`, `basic` or `chart FILE`.
    pub strategy: String,
    /// The counting system, if any.
    pub count: Option<&'a CountSystem>,
    /// How its true count was computed.
    pub true_count_method: TrueCountMethod,
    /// The run's seed.
    pub seed: u64,
    /// What the counts say.
    pub summary: &'a TableSummary,
    /// With a bet ramp, the money.
    pub betting: Option<&'a BettingReport>,
    /// The index plays made, and where they came from (the file's name, or
    /// `generated`).
    pub index_plays: Option<(&'a IndexPlays, String)>,
    /// `table compare`'s comparison.
    pub comparison: Option<TableComparison>,
}

/// The money of a bet-ramp run: its figures, and with a bankroll the
/// Kelly scaling, the closed-form risk of ruin and the simulated trips.
#[derive(Clone, Debug)]
pub struct BettingReport {
    /// What the betting counts say.
    pub summary: BettingSummary,
    /// `--bankroll`, in units.
    pub bankroll: Option<u64>,
    /// The simulated trips (`--trip-rounds`).
    pub trip: Option<TripRisk>,
}

/// The labels of a ramp's rows: `<=1`, `2`, .., `>=5` (a one-row ramp's
/// count stands for every count).
fn ramp_labels(summary: &BettingSummary) -> Vec<String> {
    let rows: Vec<(i32, u32)> = summary.ramp.rows().collect();
    let last = rows.len() - 1;
    rows.iter()
        .enumerate()
        .map(|(index, (tc, _))| match (index == 0, index == last) {
            (true, true) => "all".to_string(),
            (true, false) => format!("<={tc}"),
            (false, true) => format!(">={tc}"),
            _ => tc.to_string(),
        })
        .collect()
}

/// The `"betting"` block of a report.
fn betting_json(report: &BettingReport) -> TableBetting {
    let summary = &report.summary;
    let rows = ramp_labels(summary)
        .into_iter()
        .zip(summary.ramp.bets())
        .zip(&summary.rounds_by_row)
        .map(|((true_count, &bet), &rounds)| RampRow {
            true_count,
            bet,
            rounds,
        })
        .collect();
    let sd = finite(summary.standard_deviation);
    TableBetting {
        ramp: summary.ramp.text(),
        rows,
        wong_in: summary.wonging.enter_at,
        wong_out: summary.wonging.leave_below,
        rounds_observed: summary.rounds_observed,
        rounds_played: summary.rounds_played,
        average_bet: summary.average_bet(),
        initial_bet: summary.initial_bet,
        win_rate: summary.win_rate,
        win_rate_standard_error: finite(summary.standard_error),
        win_rate_ci95: summary.ci95.map(finite),
        win_rate_per_100: summary.win_rate_per_100(),
        sd,
        sd_per_100: finite(summary.standard_deviation_per_100()),
        di: finite(summary.desirability_index()),
        score: summary.score().and_then(finite),
        n0: summary.n0().and_then(finite),
        bankroll: report.bankroll.map(|bankroll| {
            let kelly = summary.kelly(bankroll);
            BankrollFigures {
                bankroll,
                kelly_multiplier: kelly.as_ref().map(|kelly| kelly.multiplier),
                kelly_bets: kelly.map(|kelly| kelly.bets).unwrap_or_default(),
                risk_of_ruin: summary.risk_of_ruin(bankroll),
                trip: report.trip.map(|trip| {
                    let interval = trip.interval95();
                    TripFigures {
                        rounds: trip.trip.rounds,
                        trips: trip.trips,
                        ruined: trip.ruined,
                        risk: trip.proportion(),
                        ci95: [interval.low, interval.high],
                    }
                }),
            }
        }),
    }
}

/// The betting figures for people, a row each.
fn betting_rows(report: &BettingReport, decimals: usize) -> Vec<Vec<String>> {
    let summary = &report.summary;
    let number = |x: Option<f64>, places: usize| {
        x.map(|x| decimal_text(x, places))
            .unwrap_or_else(|| "—".into())
    };
    let wonging = match (summary.wonging.enter_at, summary.wonging.leave_below) {
        (None, None) => "none: every round played".to_string(),
        (enter, leave) => [
            enter.map(|tc| format!("in at true count {tc} or more")),
            leave.map(|tc| format!("out below {tc} for the rest of the shoe")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", "),
    };
    let mut rows = vec![
        vec![
            "ramp (units by true count)".into(),
            summary.ramp.text(),
            String::new(),
        ],
        vec!["wonging".into(), wonging, String::new()],
        vec![
            "rounds played / observed".into(),
            format!(
                "{} / {}",
                thousands(summary.rounds_played),
                thousands(summary.rounds_observed)
            ),
            percent(summary.played_share(), decimals),
        ],
        vec![
            "average bet (units)".into(),
            decimal_text(summary.average_bet(), 4),
            String::new(),
        ],
        vec![
            "initial bet, off the top (units)".into(),
            summary
                .initial_bet
                .map_or_else(|| "not played".to_string(), |bet| bet.to_string()),
            String::new(),
        ],
        vec![
            "win rate per round (units)".into(),
            decimal_text(summary.win_rate, 5),
            format!(
                "[{}, {}]",
                decimal_text(summary.ci95[0], 5),
                decimal_text(summary.ci95[1], 5)
            ),
        ],
        vec![
            "win rate per 100 rounds (units)".into(),
            decimal_text(summary.win_rate_per_100(), 3),
            String::new(),
        ],
        vec![
            "SD per round (units)".into(),
            decimal_text(summary.standard_deviation, 4),
            String::new(),
        ],
        vec![
            "SD per 100 rounds (units, 10 x SD)".into(),
            decimal_text(summary.standard_deviation_per_100(), 3),
            String::new(),
        ],
        vec![
            "DI (1000 WR / SD)".into(),
            decimal_text(summary.desirability_index(), 3),
            String::new(),
        ],
        vec![
            "SCORE (10^6 (WR / SD)^2)".into(),
            number(summary.score(), 3),
            String::new(),
        ],
        vec![
            "N0 ((SD / WR)^2, rounds)".into(),
            number(summary.n0(), 0),
            String::new(),
        ],
    ];
    if let Some(bankroll) = report.bankroll {
        let kelly = summary.kelly(bankroll);
        rows.push(vec![
            format!(
                "Kelly multiplier for {} units (B WR / SD^2)",
                thousands(bankroll)
            ),
            number(kelly.as_ref().map(|kelly| kelly.multiplier), 4),
            String::new(),
        ]);
        if let Some(kelly) = kelly {
            let bets: Vec<String> = ramp_labels(summary)
                .iter()
                .zip(&kelly.bets)
                .map(|(label, bet)| format!("{label}:{}", decimal_text(*bet, 2)))
                .collect();
            rows.push(vec![
                "Kelly ramp (units)".into(),
                bets.join(","),
                String::new(),
            ]);
        }
        rows.push(vec![
            "risk of ruin, closed form (%)".into(),
            decimal_text(100.0 * summary.risk_of_ruin(bankroll), decimals),
            String::new(),
        ]);
        if let Some(trip) = report.trip {
            let interval = trip.interval95();
            rows.push(vec![
                format!(
                    "trip risk, {} trips of {} rounds (%)",
                    thousands(trip.trips),
                    thousands(trip.trip.rounds)
                ),
                decimal_text(100.0 * trip.proportion(), decimals),
                interval_text([interval.low, interval.high], decimals),
            ]);
        }
    }
    rows
}

/// `table compare`: the mean against the exact value off the top, or a
/// published claim against both.
#[derive(Clone, Debug)]
pub struct TableComparison {
    /// The mean against the exact value of a round off the top.
    pub agreement: Agreement,
    /// What the difference is: `None` when the two must agree (a fixed
    /// number of rounds per shoe, the exact engine's decisions), else its
    /// name (`cut-card effect`, `the chart's cost`, ...).
    pub difference: Option<&'static str>,
    /// A published claim checked, if any.
    pub claim: Option<ClaimCheck>,
}

impl TableComparison {
    /// Whether the command's verdict is agreement: the mean agrees when it
    /// must; a claim is consistent with either reference.
    pub fn agrees(&self) -> bool {
        match &self.claim {
            Some(claim) => claim.consistent_with_exact() || claim.consistent_with_simulation(),
            None => self.difference.is_some() || self.agreement.agrees,
        }
    }
}

/// The normal quantile of a 95% interval.
const Z_95: f64 = 1.959_963_984_540_054;

fn ci95(mean: f64, standard_error: f64) -> [f64; 2] {
    [mean - Z_95 * standard_error, mean + Z_95 * standard_error]
}

/// The `"params"`: the rules, then the dealing, the strategy and the
/// count.
fn params(report: &TableReport) -> Params {
    let mut json = params_json(report.params);
    match report.dealing {
        Dealing::CutCard { cut, cards } => {
            json.insert("shoe_cards".into(), cards.into());
            json.insert(
                "penetration".into(),
                (f64::from(cut) / f64::from(cards)).into(),
            );
            json.insert("cut_card_after".into(), cut.into());
        }
        Dealing::RoundsPerShoe { rounds } => {
            json.insert("rounds_per_shoe".into(), rounds.into());
        }
    }
    json.insert("strategy".into(), report.strategy.clone().into());
    if let Some(count) = report.count {
        json.insert("count".into(), count.name.clone().into());
        json.insert("count_tags".into(), count.tags_text().into());
        // Only when not the default, so that a run without the options
        // writes the document it always has.
        let method = report.true_count_method;
        if method != TrueCountMethod::default() {
            json.insert("true_count".into(), method.rounding.name().into());
            json.insert("deck_estimation".into(), method.decks.name().into());
        }
    }
    json
}

/// A count distribution as the other reports write them: each outcome's
/// count, share and 95% Wilson interval.
fn table_distribution(key: &str, labels: &[String], counts: &[u64]) -> TableDistribution {
    let total: u64 = counts.iter().sum();
    let outcomes = labels
        .iter()
        .zip(counts)
        .map(|(label, &count)| {
            let interval = interval95(count, total);
            CountOutcome {
                outcome: label.clone(),
                count,
                estimate: if total == 0 {
                    0.0
                } else {
                    count as f64 / total as f64
                },
                ci95: [interval.low, interval.high],
            }
        })
        .collect();
    TableDistribution {
        key: key.into(),
        outcomes,
    }
}

fn mean_agreement(agreement: &compare::MeanAgreement) -> MeanAgreement {
    MeanAgreement {
        exact: agreement.exact,
        mean: agreement.mean,
        standard_error: finite(agreement.standard_error),
        z: finite(agreement.z),
        p_value: finite(agreement.p_value),
        level: agreement.level,
        z_critical: agreement.z_critical,
        agrees: agreement.agrees,
    }
}

/// The figures of a table run that `blackjack table` and `table compare`
/// both write, in their order.
struct TableFigures {
    params: Params,
    value: TableValue,
    outcomes: TableOutcomes,
    events: LabelMap<u64>,
    rounds_per_shoe: RoundsPerShoe,
    by_true_count: Vec<TrueCountRow>,
    betting: Option<TableBetting>,
    index_plays: Option<TableIndexPlays>,
    insurance: Option<TableInsurance>,
    distributions: Vec<TableDistribution>,
}

/// The index plays as the document lists them.
fn index_plays_json((plays, source): &(&IndexPlays, String)) -> TableIndexPlays {
    TableIndexPlays {
        source: source.clone(),
        plays: plays
            .deviations()
            .iter()
            .map(|play| TableIndexPlay {
                section: play.decision.class.section().into(),
                row: play.decision.class.row(),
                upcard: value_letter(play.decision.upcard).into(),
                deviation: play.code().into(),
                direction: play.direction().into(),
                index: play.index,
            })
            .collect(),
    }
}

fn table_figures(report: &TableReport) -> TableFigures {
    let summary = report.summary;
    let net_labels: Vec<String> = (0..summary.net.len())
        .map(|bin| summary.net_label(bin))
        .collect();
    let rounds_labels: Vec<String> = (0..summary.rounds_per_shoe.len())
        .map(|rounds| rounds.to_string())
        .collect();
    TableFigures {
        params: params(report),
        value: TableValue {
            mean: summary.mean,
            ci95: summary.ci95.map(finite),
            sd: finite(summary.standard_deviation),
            standard_error: finite(summary.standard_error),
        },
        outcomes: TableOutcomes {
            win: summary.wins,
            loss: summary.losses,
            push: summary.pushes,
        },
        events: summary
            .events
            .iter()
            .map(|(name, rounds)| (name.replace(' ', "_"), *rounds))
            .collect(),
        rounds_per_shoe: RoundsPerShoe {
            mean: summary.mean_rounds_per_shoe(),
            reshuffled_shoes: summary.reshuffled_shoes,
        },
        by_true_count: summary
            .by_true_count
            .iter()
            .map(|row| TrueCountRow {
                true_count: row.label.clone(),
                rounds: row.rounds,
                frequency: row.rounds as f64 / summary.n_rounds as f64,
                mean: row.mean,
                sd: row.standard_deviation,
                ci95: row.ci95,
            })
            .collect(),
        betting: report.betting.map(betting_json),
        index_plays: report.index_plays.as_ref().map(index_plays_json),
        insurance: summary.insurance.as_ref().map(|insurance| TableInsurance {
            rounds: insurance.insured,
            won: insurance.won,
            net_per_round: insurance.per_round(summary.n_rounds),
        }),
        distributions: vec![
            table_distribution("net per round", &net_labels, &summary.net),
            table_distribution("rounds per shoe", &rounds_labels, &summary.rounds_per_shoe),
        ],
    }
}

/// The `blackjack-table` document of a run without a comparison.
pub fn table_document(report: &TableReport, options: &RenderOptions) -> TableDocument {
    let summary = report.summary;
    let figures = table_figures(report);
    TableDocument {
        schema: Tag::new(),
        game: BLACKJACK_TABLE_REPORT.into(),
        method: "monte-carlo".into(),
        params: figures.params,
        seed: report.seed,
        shoes: summary.n_shoes,
        rounds: summary.n_rounds,
        value: figures.value,
        house_edge_percent: summary.house_edge_percent(),
        outcomes: figures.outcomes,
        events: figures.events,
        rounds_per_shoe: figures.rounds_per_shoe,
        by_true_count: figures.by_true_count,
        betting: figures.betting,
        index_plays: figures.index_plays,
        insurance: figures.insurance,
        distributions: figures.distributions,
        shard: options.blocks.shard.clone(),
    }
}

/// The `blackjack-table-compare` document of a run and its comparison.
pub fn table_compare_document(
    report: &TableReport,
    comparison: &TableComparison,
    options: &RenderOptions,
) -> TableCompareDocument {
    let summary = report.summary;
    let figures = table_figures(report);
    let difference = summary.mean - comparison.agreement.exact;
    let claim = comparison.claim.as_ref().map(|claim| PublishedCheck {
        source: claim.claim.source.clone(),
        house_edge_percent: claim.claim.house_edge_percent,
        rounds: claim.claim.rounds,
        standard_error: finite(claim.standard_error),
        against_exact: mean_agreement(&claim.against_exact),
        against_simulation: mean_agreement(&claim.against_simulation),
        rates: claim
            .rates
            .iter()
            .map(|rate| RateCheck {
                rate: rate.name.into(),
                agreement: mean_agreement(&rate.agreement),
            })
            .collect(),
        consistent_with_exact: claim.consistent_with_exact(),
        consistent_with_simulation: claim.consistent_with_simulation(),
    });
    TableCompareDocument {
        schema: Tag::new(),
        game: BLACKJACK_TABLE_REPORT.into(),
        method: "monte-carlo".into(),
        params: figures.params,
        seed: report.seed,
        shoes: summary.n_shoes,
        rounds: summary.n_rounds,
        value: figures.value,
        house_edge_percent: summary.house_edge_percent(),
        outcomes: figures.outcomes,
        events: figures.events,
        rounds_per_shoe: figures.rounds_per_shoe,
        by_true_count: figures.by_true_count,
        betting: figures.betting,
        index_plays: figures.index_plays,
        insurance: figures.insurance,
        exact_off_the_top: comparison.agreement.exact,
        difference: TableDifference {
            what: comparison.difference.unwrap_or("none expected").into(),
            mean: difference,
            ci95: ci95(difference, summary.standard_error).map(finite),
        },
        agreement: mean_agreement(&comparison.agreement),
        claim,
        verdict: if comparison.agrees() {
            "agree"
        } else {
            "disagree"
        }
        .into(),
        distributions: figures.distributions,
        shard: options.blocks.shard.clone(),
    }
}

/// The dealing in words.
fn dealing_text(dealing: Dealing) -> String {
    dealing.describe()
}

/// `x %` with `decimals` places.
fn percent(value: f64, decimals: usize) -> String {
    format!("{} %", decimal_text(100.0 * value, decimals))
}

fn interval_text(interval: [f64; 2], decimals: usize) -> String {
    format!(
        "[{}, {}]",
        decimal_text(100.0 * interval[0], decimals),
        decimal_text(100.0 * interval[1], decimals)
    )
}

/// The scalar figures as `(name, value)`, for the CSV.
fn csv_rows(report: &TableReport) -> Vec<[String; 8]> {
    let summary = report.summary;
    let n = summary.n_rounds as f64;
    let empty = String::new;
    let mut rows = vec![[
        "kind".to_string(),
        "label".into(),
        "rounds".into(),
        "share".into(),
        "mean".into(),
        "standard_deviation".into(),
        "ci95_low".into(),
        "ci95_high".into(),
    ]];
    rows.push([
        "all".into(),
        "all rounds".into(),
        summary.n_rounds.to_string(),
        "1".into(),
        summary.mean.to_string(),
        summary.standard_deviation.to_string(),
        summary.ci95[0].to_string(),
        summary.ci95[1].to_string(),
    ]);
    let share_row = |kind: &str, label: &str, count: u64| {
        [
            kind.to_string(),
            label.to_string(),
            count.to_string(),
            (count as f64 / n).to_string(),
            empty(),
            empty(),
            empty(),
            empty(),
        ]
    };
    rows.push(share_row("outcome", "win", summary.wins));
    rows.push(share_row("outcome", "loss", summary.losses));
    rows.push(share_row("outcome", "push", summary.pushes));
    for (name, count) in &summary.events {
        rows.push(share_row("event", name, *count));
    }
    for row in &summary.by_true_count {
        let number = |x: Option<f64>| x.map(|x| x.to_string()).unwrap_or_default();
        rows.push([
            "true_count".into(),
            row.label.clone(),
            row.rounds.to_string(),
            (row.rounds as f64 / n).to_string(),
            number(row.mean),
            number(row.standard_deviation),
            number(row.ci95.map(|c| c[0])),
            number(row.ci95.map(|c| c[1])),
        ]);
    }
    for (bin, &count) in summary.net.iter().enumerate() {
        if count > 0 {
            rows.push(share_row("net", &summary.net_label(bin), count));
        }
    }
    if let Some(insurance) = &summary.insurance {
        // The bets' net per round dealt in the insured row's mean.
        let mut insured = share_row("insurance", "insured", insurance.insured);
        insured[4] = insurance.per_round(summary.n_rounds).to_string();
        rows.push(insured);
        rows.push(share_row("insurance", "won", insurance.won));
    }
    if let Some(betting) = report.betting {
        // The money figures: the label names the figure, the mean column
        // holds it (and the win rate's row its interval).
        let money = &betting.summary;
        let figure = |label: &str, value: Option<f64>| {
            let mut row = share_row("betting", label, money.rounds_played);
            row[3] = empty();
            row[4] = value.map(|x| x.to_string()).unwrap_or_default();
            row
        };
        let mut win_rate = figure("win_rate", Some(money.win_rate));
        win_rate[5] = money.standard_deviation.to_string();
        win_rate[6] = money.ci95[0].to_string();
        win_rate[7] = money.ci95[1].to_string();
        rows.push(win_rate);
        rows.push(figure("win_rate_per_100", Some(money.win_rate_per_100())));
        rows.push(figure("sd", Some(money.standard_deviation)));
        rows.push(figure(
            "sd_per_100",
            Some(money.standard_deviation_per_100()),
        ));
        rows.push(figure("average_bet", Some(money.average_bet())));
        rows.push(figure("initial_bet", money.initial_bet.map(f64::from)));
        rows.push(figure("di", Some(money.desirability_index())));
        rows.push(figure("score", money.score()));
        rows.push(figure("n0", money.n0()));
        if let Some(bankroll) = betting.bankroll {
            rows.push(figure(
                "kelly_multiplier",
                money.kelly(bankroll).map(|kelly| kelly.multiplier),
            ));
            rows.push(figure("risk_of_ruin", Some(money.risk_of_ruin(bankroll))));
        }
        if let Some(trip) = betting.trip {
            let interval = trip.interval95();
            let mut row = figure("trip_risk", Some(trip.proportion()));
            row[2] = trip.trips.to_string();
            row[6] = interval.low.to_string();
            row[7] = interval.high.to_string();
            rows.push(row);
        }
    }
    rows
}

/// Renders a table run (or comparison) in `format`.
///
/// - Json (docs/CONTRACTS.md, "blackjack table"): game, method, params,
///   seed, shoes, rounds, value (mean, ci95, sd, standard_error),
///   house_edge_percent, outcomes, events, rounds_per_shoe, by_true_count,
///   with `table compare` exact_off_the_top, difference, agreement, claim
///   and verdict, then distributions (net per round, rounds per shoe).
/// - Csv: one row per figure, `kind,label,rounds,share,mean,
///   standard_deviation,ci95_low,ci95_high` (kinds all, outcome, event,
///   true_count, net).
/// - Table, Md, Latex: the figures for people.
pub fn render_table_run(report: &TableReport, format: Format, options: &RenderOptions) -> String {
    let mut text = match format {
        Format::Json => match &report.comparison {
            None => document_text(&table_document(report, options)),
            Some(comparison) => document_text(&table_compare_document(report, comparison, options)),
        },
        Format::Csv => csv_text(&csv_rows(report)),
        Format::Table | Format::Md | Format::Latex => people_text(report, format, options),
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

fn people_text(report: &TableReport, format: Format, options: &RenderOptions) -> String {
    let decimals = options.percent_decimals;
    let summary = report.summary;
    let mut heading = vec![
        format!(
            "Blackjack at the table, Monte Carlo: {} rounds in {} shoes (seed {}); {}",
            thousands(summary.n_rounds),
            thousands(summary.n_shoes),
            report.seed,
            rules_text(report.params)
        ),
        format!(
            "Dealing: {}; strategy {}{}{}.",
            dealing_text(report.dealing),
            report.strategy,
            report
                .index_plays
                .as_ref()
                .map(|(plays, source)| format!(
                    " with {} index plays ({source})",
                    plays.deviations().len()
                ))
                .unwrap_or_default(),
            report
                .count
                .map(|count| format!("; counting {} ({})", count.name, count.tags_text()))
                .unwrap_or_default()
        ),
    ];
    if let Some(comparison) = &report.comparison {
        heading.push(verdict_line(comparison));
    }
    let mut tables = Vec::new();
    let mut rows = vec![
        vec![
            "value per round (%)".to_string(),
            decimal_text(100.0 * summary.mean, decimals),
            interval_text(summary.ci95, decimals),
        ],
        vec![
            "house edge (%)".to_string(),
            decimal_text(summary.house_edge_percent(), decimals),
            interval_text([-summary.ci95[1], -summary.ci95[0]], decimals),
        ],
        vec![
            "standard deviation per round (units)".to_string(),
            decimal_text(summary.standard_deviation, 4),
            String::new(),
        ],
        vec![
            "rounds per shoe".to_string(),
            decimal_text(summary.mean_rounds_per_shoe(), 2),
            String::new(),
        ],
    ];
    if let Some(comparison) = &report.comparison {
        let difference = summary.mean - comparison.agreement.exact;
        rows.push(vec![
            "exact value off the top (%)".to_string(),
            decimal_text(100.0 * comparison.agreement.exact, decimals),
            String::new(),
        ]);
        rows.push(vec![
            format!(
                "difference (%){}",
                comparison
                    .difference
                    .map(|what| format!(": {what}"))
                    .unwrap_or_default()
            ),
            decimal_text(100.0 * difference, decimals),
            interval_text(ci95(difference, summary.standard_error), decimals),
        ]);
    }
    tables.push(TitledGrid {
        title: "Value per round (95% intervals by shoe)".into(),
        grid: Grid {
            head: vec!["quantity".into(), "estimate".into(), "95% interval".into()],
            rows,
        },
    });
    let n = summary.n_rounds as f64;
    let mut frequencies = vec![
        vec![
            "won".to_string(),
            percent(summary.wins as f64 / n, decimals),
        ],
        vec!["lost".into(), percent(summary.losses as f64 / n, decimals)],
        vec![
            "pushed".into(),
            percent(summary.pushes as f64 / n, decimals),
        ],
    ];
    for (name, count) in &summary.events {
        frequencies.push(vec![
            (*name).to_string(),
            percent(*count as f64 / n, decimals),
        ]);
    }
    if let Some(insurance) = &summary.insurance {
        frequencies.push(vec![
            "insured".into(),
            percent(insurance.insured as f64 / n, decimals),
        ]);
        frequencies.push(vec![
            format!(
                "insurance won (of {} insured; net {} % a round)",
                thousands(insurance.insured),
                decimal_text(100.0 * insurance.per_round(summary.n_rounds), decimals)
            ),
            percent(insurance.won as f64 / n, decimals),
        ]);
    }
    tables.push(TitledGrid {
        title: "Rounds".into(),
        grid: Grid {
            head: vec!["what".into(), "share of rounds".into()],
            rows: frequencies,
        },
    });
    if !summary.by_true_count.is_empty() {
        let rows = summary
            .by_true_count
            .iter()
            .map(|row| {
                vec![
                    row.label.clone(),
                    percent(row.rounds as f64 / n, decimals),
                    row.mean
                        .map(|mean| decimal_text(100.0 * mean, decimals))
                        .unwrap_or_else(|| "—".into()),
                    row.ci95
                        .map(|ci| interval_text(ci, decimals))
                        .unwrap_or_else(|| "—".into()),
                ]
            })
            .collect();
        tables.push(TitledGrid {
            title: format!(
                "Value per round by true count ({}; {})",
                report.count.map_or("", |count| count.name.as_str()),
                report.true_count_method.describe()
            ),
            grid: Grid {
                head: vec![
                    "true count".into(),
                    "share of rounds".into(),
                    "value (%)".into(),
                    "95% interval".into(),
                ],
                rows,
            },
        });
    }
    if let Some(betting) = report.betting {
        tables.push(TitledGrid {
            title: "Betting by the count (units; rates per round played, 95% intervals by shoe)"
                .into(),
            grid: Grid {
                head: vec!["quantity".into(), "estimate".into(), "95% interval".into()],
                rows: betting_rows(betting, decimals),
            },
        });
    }
    if let Some(claim) = report.comparison.as_ref().and_then(|c| c.claim.as_ref()) {
        tables.push(claim_table(claim, decimals));
    }
    let mut closing = Vec::new();
    if summary.reshuffled_shoes > 0 {
        closing.push(format!(
            "{} shoes ran out of cards in their last round, which was finished from the shuffled discards.",
            thousands(summary.reshuffled_shoes)
        ));
    }
    if let Some(claim) = report.comparison.as_ref().and_then(|c| c.claim.as_ref()) {
        closing.push(format!(
            "The claim's standard error ({} % a round) is this table's standard deviation per round over the square root of the claim's {} rounds, taken as independent.",
            decimal_text(100.0 * claim.standard_error, decimals.max(4)),
            thousands(claim.claim.rounds)
        ));
        // A claimed house edge under 0.05 % is most often a fraction of the
        // bet written where a percentage belongs (0.0045 for 0.45 %); it
        // may be a true figure, so it is said, not refused.
        let claimed = claim.claim.house_edge_percent;
        if claimed != 0.0 && claimed.abs() < 0.05 {
            // As a percentage, to nine places (0.0045 is 0.45, not
            // 0.44999999999999996).
            let as_percent = (claimed * 1e11).round() / 1e9;
            closing.push(format!(
                "The claimed house edge, {claimed} %, is under 0.05 % of the bet: if the claim gives it as a fraction of the bet ({claimed} for {as_percent} %), write house-edge-percent = {as_percent} in the claim file."
            ));
        }
        // A claim made on more rounds than this run is sharper than the
        // run it is checked against: said plainly, with the way to match
        // it (not for a run short of the claim by the few rounds a whole
        // number of shoes leaves: 5 % more standard error at least).
        if claim.claim.rounds > summary.n_rounds
            && claim.standard_error > 0.0
            && summary.standard_error > 1.05 * claim.standard_error
        {
            closing.push(format!(
                "This run played {} rounds, the claim {}: this simulation's standard error ({} % a round) is {:.1} times the claim's, so its interval is that much wider and the check against it that much less sharp. For a check as sharp as the claim, play at least the claim's rounds: --trials {}.",
                thousands(summary.n_rounds),
                thousands(claim.claim.rounds),
                decimal_text(100.0 * summary.standard_error, decimals.max(4)),
                summary.standard_error / claim.standard_error,
                claim.claim.rounds
            ));
        }
    }
    lay_out(format, &heading, &tables, &closing, options.width)
}

fn verdict_line(comparison: &TableComparison) -> String {
    let agreement = &comparison.agreement;
    if let Some(claim) = &comparison.claim {
        let with = match (
            claim.consistent_with_exact(),
            claim.consistent_with_simulation(),
        ) {
            (true, true) => "consistent with both the exact value off the top and this simulation",
            (true, false) => {
                "consistent with the exact value off the top, not with this simulation"
            }
            (false, true) => {
                "consistent with this simulation, not with the exact value off the top"
            }
            (false, false) => {
                "consistent with neither the exact value off the top nor this simulation"
            }
        };
        return format!(
            "Verdict: {} (the claim is {with}).",
            if comparison.agrees() {
                "agree"
            } else {
                "disagree"
            }
        );
    }
    match comparison.difference {
        None => format!(
            "Verdict: {} (|z| = {:.2}; agreement when |z| <= {:.2}, level {}).",
            if agreement.agrees {
                "agree"
            } else {
                "disagree"
            },
            agreement.z.abs(),
            agreement.z_critical,
            agreement.level
        ),
        Some(what) => format!(
            "The difference from the exact value off the top is the {what} (z = {:.2}): no verdict, it is what the comparison measures.",
            agreement.z
        ),
    }
}

fn claim_table(claim: &ClaimCheck, decimals: usize) -> TitledGrid {
    let mark = |agrees: bool| if agrees { "consistent" } else { "inconsistent" };
    let mut rows = vec![
        vec![
            "house edge (%) vs exact off the top".to_string(),
            // As the claim file gives it (0.0045 stays 0.0045).
            claim.claim.house_edge_percent.to_string(),
            decimal_text(-100.0 * claim.against_exact.exact, decimals),
            format!("{:.2}", -claim.against_exact.z),
            mark(claim.against_exact.agrees).into(),
        ],
        vec![
            "house edge (%) vs this simulation".to_string(),
            claim.claim.house_edge_percent.to_string(),
            decimal_text(-100.0 * claim.against_simulation.exact, decimals),
            format!("{:.2}", -claim.against_simulation.z),
            mark(claim.against_simulation.agrees).into(),
        ],
    ];
    for rate in &claim.rates {
        rows.push(vec![
            format!("{} rate (%) vs this simulation", rate.name),
            decimal_text(100.0 * rate.agreement.mean, decimals),
            decimal_text(100.0 * rate.agreement.exact, decimals),
            format!("{:.2}", rate.agreement.z),
            mark(rate.agreement.agrees).into(),
        ]);
    }
    TitledGrid {
        title: format!(
            "The published claim ({} rounds{})",
            thousands(claim.claim.rounds),
            claim
                .claim
                .source
                .as_ref()
                .map(|source| format!("; {source}"))
                .unwrap_or_default()
        ),
        grid: Grid {
            head: vec![
                "figure".into(),
                "claimed".into(),
                "reference".into(),
                "z".into(),
                "verdict".into(),
            ],
            rows,
        },
    }
}

// ---------------------------------------------------------------------------
// `blackjack cut-card-effect`.

/// One rule set of the cut-card table.
#[derive(Clone, Debug)]
pub struct CutCardRow {
    /// The rules.
    pub rules: PlayerRules,
    /// The exact value of a round off the top (f64 solve), in units.
    pub exact: f64,
    /// The table with one round per shoe.
    pub one_round: TableSummary,
    /// The table dealt to the cut card.
    pub cut_card: TableSummary,
}

/// What `blackjack cut-card-effect` reports.
#[derive(Clone, Debug)]
pub struct CutCardReport<'a> {
    /// The cut card's penetration.
    pub penetration: f64,
    /// The seed (run `2 i` and `2 i + 1` of row `i` on their own streams).
    pub seed: u64,
    /// One row per rule set.
    pub rows: &'a [CutCardRow],
}

/// The house edge's 95% interval, in percent, from a summary.
fn house_edge_interval(summary: &TableSummary) -> [f64; 2] {
    [-100.0 * summary.ci95[1], -100.0 * summary.ci95[0]]
}

fn soft17_name(rules: &PlayerRules) -> &'static str {
    match rules.soft17 {
        Soft17::Stand => "S17",
        Soft17::Hit => "H17",
    }
}

/// The cut-card effect of a row in house-edge percentage points: the cut
/// card's house edge less the exact one, with the cut-card run's interval.
fn cut_card_effect(row: &CutCardRow) -> (f64, [f64; 2]) {
    let exact = -100.0 * row.exact;
    let interval = house_edge_interval(&row.cut_card);
    (
        row.cut_card.house_edge_percent() - exact,
        [interval[0] - exact, interval[1] - exact],
    )
}

/// The z-score of a run's mean against the exact value of a round.
fn z_against(summary: &TableSummary, exact: f64) -> f64 {
    (summary.mean - exact) / summary.standard_error
}

/// The `blackjack-cut-card-effect` document of `report`, with the shard
/// block of `options`.
pub fn cut_card_document(report: &CutCardReport, options: &RenderOptions) -> CutCardEffectDocument {
    let rows = report
        .rows
        .iter()
        .map(|row| {
            let run = |summary: &TableSummary| CutCardRun {
                house_edge_percent: summary.house_edge_percent(),
                ci95: house_edge_interval(summary).map(finite),
                rounds: summary.n_rounds,
                shoes: summary.n_shoes,
                rounds_per_shoe: summary.mean_rounds_per_shoe(),
                z_against_exact: finite(z_against(summary, row.exact)),
            };
            let (effect, interval) = cut_card_effect(row);
            contract::blackjack::CutCardRow {
                decks: row.rules.decks.to_string(),
                soft17: soft17_name(&row.rules).into(),
                exact_house_edge_percent: -100.0 * row.exact,
                one_round_per_shoe: run(&row.one_round),
                cut_card: run(&row.cut_card),
                cut_card_effect_percent: CutCardEffect {
                    estimate: effect,
                    ci95: interval.map(finite),
                },
            }
        })
        .collect();
    let mut params = Params::new();
    if let Some(first) = report.rows.first() {
        for (name, value) in first.rules.named() {
            if name != "decks" && name != "soft17" {
                params.insert(name.into(), value.into());
            }
        }
    }
    params.insert("penetration".into(), report.penetration.into());
    params.insert("strategy".into(), "cd".into());
    CutCardEffectDocument {
        schema: Tag::new(),
        game: BLACKJACK_CUT_CARD_REPORT.into(),
        method: "monte-carlo-vs-float".into(),
        params,
        seed: report.seed,
        rows,
        shard: options.blocks.shard.clone(),
    }
}

/// Renders the cut-card table in `format`.
///
/// - Json (docs/CONTRACTS.md, "blackjack cut-card-effect"): game, method,
///   params (penetration, strategy, the fixed rules), seed, trials, rows
///   (decks, soft17, exact_house_edge_percent, one_round_per_shoe and
///   cut_card each with house_edge_percent, ci95, rounds, shoes,
///   rounds_per_shoe and z against the exact value, cut_card_effect_percent
///   with its ci95).
/// - Csv: one row per rule set, the same figures in columns.
/// - Table, Md, Latex: the table for people.
pub fn render_cut_card_effect(
    report: &CutCardReport,
    format: Format,
    options: &RenderOptions,
) -> String {
    let decimals = options.percent_decimals;
    let z = z_against;
    let mut text = match format {
        Format::Json => document_text(&cut_card_document(report, options)),
        Format::Csv => {
            let mut records = vec![
                [
                    "decks",
                    "soft17",
                    "exact_house_edge_percent",
                    "one_round_house_edge_percent",
                    "one_round_ci95_low",
                    "one_round_ci95_high",
                    "one_round_z",
                    "cut_card_house_edge_percent",
                    "cut_card_ci95_low",
                    "cut_card_ci95_high",
                    "cut_card_rounds_per_shoe",
                    "cut_card_effect_percent",
                    "cut_card_effect_ci95_low",
                    "cut_card_effect_ci95_high",
                    "rounds_each",
                ]
                .map(String::from)
                .to_vec(),
            ];
            for row in report.rows {
                let one = house_edge_interval(&row.one_round);
                let cut = house_edge_interval(&row.cut_card);
                let (effect, interval) = cut_card_effect(row);
                records.push(vec![
                    row.rules.decks.to_string(),
                    soft17_name(&row.rules).into(),
                    (-100.0 * row.exact).to_string(),
                    row.one_round.house_edge_percent().to_string(),
                    one[0].to_string(),
                    one[1].to_string(),
                    z(&row.one_round, row.exact).to_string(),
                    row.cut_card.house_edge_percent().to_string(),
                    cut[0].to_string(),
                    cut[1].to_string(),
                    row.cut_card.mean_rounds_per_shoe().to_string(),
                    effect.to_string(),
                    interval[0].to_string(),
                    interval[1].to_string(),
                    row.cut_card.n_rounds.to_string(),
                ]);
            }
            csv_text(&records)
        }
        Format::Table | Format::Md | Format::Latex => {
            let rounds = report.rows.first().map_or(0, |row| row.one_round.n_rounds);
            let heading = vec![
                format!(
                    "The cut-card effect by decks: the house edge off the top (exact, f64 solve) beside about {} simulated rounds with one round per shoe and with a cut card at {:.0} % of the shoe (seed {}); composition-dependent play, peek, 3:2, double any two, DAS, up to 4 hands, no re-split aces, no surrender.",
                    thousands(rounds),
                    100.0 * report.penetration,
                    report.seed
                ),
                "House edges in percent of the bet, 95% intervals by shoe; the cut-card effect is the cut card's house edge less the exact one.".to_string(),
            ];
            let rows = report
                .rows
                .iter()
                .map(|row| {
                    let (effect, interval) = cut_card_effect(row);
                    vec![
                        row.rules.decks.to_string(),
                        soft17_name(&row.rules).to_string(),
                        decimal_text(-100.0 * row.exact, decimals),
                        format!(
                            "{} {}",
                            decimal_text(row.one_round.house_edge_percent(), decimals),
                            interval_text_percent(house_edge_interval(&row.one_round), decimals)
                        ),
                        format!(
                            "{} {}",
                            decimal_text(row.cut_card.house_edge_percent(), decimals),
                            interval_text_percent(house_edge_interval(&row.cut_card), decimals)
                        ),
                        decimal_text(row.cut_card.mean_rounds_per_shoe(), 1),
                        format!(
                            "{} {}",
                            decimal_text(effect, decimals),
                            interval_text_percent(interval, decimals)
                        ),
                    ]
                })
                .collect();
            let table = TitledGrid {
                title: "House edge (%) off the top, with one round per shoe, and to a cut card"
                    .into(),
                grid: Grid {
                    head: vec![
                        "decks".into(),
                        "dealer".into(),
                        "exact".into(),
                        "1 round per shoe".into(),
                        "cut card".into(),
                        "rounds per shoe".into(),
                        "cut-card effect".into(),
                    ],
                    rows,
                },
            };
            lay_out(format, &heading, &[table], &[], options.width)
        }
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// An interval already in percent: `[lo, hi]`.
fn interval_text_percent(interval: [f64; 2], decimals: usize) -> String {
    format!(
        "[{}, {}]",
        decimal_text(interval[0], decimals),
        decimal_text(interval[1], decimals)
    )
}
