//! Which Klondike deals can be won (`klondike solve --format json`,
//! RULES.md section 7): the verdict on each deal solved, and over the
//! deals the winnable fraction with the undecided ones counted both ways,
//! beside what the fixed policy of section 4 made of the same deals.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::report::PrecisionBlock;
use super::shard::ShardBlock;
use super::{Document, Tag};
use crate::contract_kind;

contract_kind!(
    KlondikeSolveKind,
    "klondike-solve",
    "which Klondike deals can be won with every card seen: each deal's verdict, the winnable fraction with the undecided deals counted both ways, and the fixed policy's results on the same deals (klondike solve)"
);

/// `klondike solve`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KlondikeSolveDocument {
    /// `deckodds.klondike-solve/v1`.
    pub schema: Tag<KlondikeSolveKind>,
    /// Always `klondike-solve`.
    pub game: String,
    /// The rules solved and the solver's budget.
    pub params: SolveParams,
    /// The master seed of random deals (`--trials`); absent for given
    /// deals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The random deals counted in `summary` (`--trials`, or as many as
    /// `--until-halfwidth` took); absent for given deals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trials: Option<u64>,
    /// The deals this process solved, in order. Given deals (`--deal`,
    /// `--deals`): all of them. Random deals: those solved in this run;
    /// deals restored from a checkpoint or merged from count files are
    /// counted in `summary` but not listed (so a merge lists none).
    pub deals: Vec<SolvedDealEntry>,
    /// The counts over every deal of the run.
    pub summary: SolveSummary,
    /// `--until-halfwidth`: the target and where the run stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<PrecisionBlock>,
    /// A part's count file (`--shard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardBlock>,
}

/// The rules solved and the solver's budget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SolveParams {
    /// Cards turned from the stock at a time: 1 or 3.
    pub draw: u8,
    /// Passes through the stock: a number of at least 1, or `unlimited`.
    #[schemars(pattern(r"^([1-9][0-9]*|unlimited)$"))]
    pub passes: String,
    /// The most states the solver expands per deal.
    pub max_nodes: u64,
    /// The most seconds it spends per deal, if set (verdicts then depend
    /// on the machine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_seconds: Option<f64>,
}

/// A verdict on a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum VerdictName {
    /// Some sequence of moves wins it (found, and listed in the record).
    Won,
    /// No sequence wins it: every state was searched.
    Lost,
    /// The budget ran out first.
    Undecided,
}

/// What the fixed policy (RULES.md section 4: draw 1, one pass) made of
/// a deal. The text formats show it only when the rules solved are the
/// policy's (draw 1, one pass); the JSON always carries it, with its
/// rules in `summary.policy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PolicyResult {
    /// All 52 cards reached the foundations.
    WentOut,
    /// It stopped with cards left.
    Stuck,
}

/// One deal solved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SolvedDealEntry {
    /// Its number: the game number of a random deal in the run (from 0),
    /// the position among given deals (from 0).
    pub index: u64,
    pub verdict: VerdictName,
    /// Moves of the win found, 0 unless won: cards moved (a run moved
    /// together is one move), stock turns not included. "Moves" means
    /// this in every output of deckodds' Klondike: the record of the win
    /// numbers these moves and ends `Moves: N`.
    pub moves: u64,
    /// Stock turns of the win found, 0 unless won (a turn that first
    /// turns the waste over into a new stock is one turn). Absent from
    /// documents written before it existed (read as 0), whose `moves`
    /// still count the stock turns in.
    #[serde(rename = "stock-turns", default)]
    pub stock_turns: u64,
    /// States the search expanded.
    pub nodes: u64,
    /// Wall-clock seconds the search took (differs from run to run).
    pub seconds: f64,
    /// The fixed policy on the same deal.
    pub policy: PolicyResult,
}

/// The counts over every deal of the run, and the winnable fraction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SolveSummary {
    /// Deals counted: won + lost + undecided.
    pub deals: u64,
    pub won: u64,
    pub lost: u64,
    pub undecided: u64,
    /// The winnable fraction.
    pub winnable: WinnableFraction,
    /// The fixed policy on the same deals, by verdict.
    pub policy: PolicySummary,
    /// States expanded per deal: deals by bucket of powers of two.
    pub nodes: Vec<NodeBucket>,
}

/// The winnable fraction, the undecided deals shown rather than guessed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WinnableFraction {
    /// Won / (won + lost): the fraction if the undecided deals are
    /// winnable as often as the decided ones; `null` when none was
    /// decided. Always within `bounds`.
    pub estimate: Option<f64>,
    /// A 95% interval allowing for the undecided deals whatever they are:
    /// the Wilson lower end of won / deals and the Wilson upper end of
    /// (won + undecided) / deals.
    pub ci95: [f64; 2],
    /// The undecided deals counted as lost, then as won: [won / deals,
    /// (won + undecided) / deals].
    pub bounds: [f64; 2],
}

/// What the fixed policy made of the deals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PolicySummary {
    /// Its rules: draw 1, one pass (RULES.md section 4), whatever the
    /// rules solved.
    pub draw: u8,
    pub passes: u8,
    /// Deals on which it went out.
    pub went_out: u64,
    /// Deals on which it stopped with cards left.
    pub stuck: u64,
    /// Its results on the deals of each verdict.
    pub by_verdict: PolicyByVerdict,
}

/// The fixed policy's results split by the solver's verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PolicyByVerdict {
    pub won: PolicyCounts,
    pub lost: PolicyCounts,
    pub undecided: PolicyCounts,
}

/// Deals on which the policy went out, and on which it did not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PolicyCounts {
    pub went_out: u64,
    pub stuck: u64,
}

/// Deals whose search expanded `min..=max` states.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NodeBucket {
    pub min: u64,
    /// `null` for the last bucket, which has no upper end.
    pub max: Option<u64>,
    pub deals: u64,
}

impl Document for KlondikeSolveDocument {
    type Kind = KlondikeSolveKind;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::blackjack::tests::round_trips_and_refuses_unknown_fields;

    #[test]
    fn a_solve_document_round_trips_and_refuses_unknown_fields() {
        let counts = PolicyCounts {
            went_out: 1,
            stuck: 2,
        };
        let document = KlondikeSolveDocument {
            schema: Tag::new(),
            game: "klondike-solve".into(),
            params: SolveParams {
                draw: 3,
                passes: "unlimited".into(),
                max_nodes: 1000,
                max_seconds: Some(2.5),
            },
            seed: Some(3),
            trials: Some(9),
            deals: vec![SolvedDealEntry {
                index: 4,
                verdict: VerdictName::Won,
                moves: 120,
                stock_turns: 40,
                nodes: 77,
                seconds: 0.01,
                policy: PolicyResult::Stuck,
            }],
            summary: SolveSummary {
                deals: 9,
                won: 3,
                lost: 3,
                undecided: 3,
                winnable: WinnableFraction {
                    estimate: Some(0.5),
                    ci95: [0.1, 0.9],
                    bounds: [0.33, 0.67],
                },
                policy: PolicySummary {
                    draw: 1,
                    passes: 1,
                    went_out: 3,
                    stuck: 6,
                    by_verdict: PolicyByVerdict {
                        won: counts.clone(),
                        lost: counts.clone(),
                        undecided: counts,
                    },
                },
                nodes: vec![NodeBucket {
                    min: 64,
                    max: Some(127),
                    deals: 9,
                }],
            },
            precision: None,
            shard: None,
        };
        round_trips_and_refuses_unknown_fields(&document, "", ".");
        round_trips_and_refuses_unknown_fields(&document, "/params", "params");
        round_trips_and_refuses_unknown_fields(&document, "/summary/policy", "summary.policy");
        round_trips_and_refuses_unknown_fields(&document, "/deals/0", "deals[0]");
    }
}
