//! The table's exact value for small shoes: every card sequence the play
//! asks for, shoe-deep, through the same play function and the same
//! [`Dealing`] as the simulation, so the cut-card effect comes out as an
//! exact fraction.
//!
//! Shoe after shoe, the long-run mean net per round is the mean net of a
//! shoe over its mean number of rounds (the renewal-reward theorem), and
//! that is what a simulation's total net over total rounds estimates. Both
//! expectations are computed here from the round-start states of a shoe:
//! the cards left (and, for a fixed number of rounds per shoe, the rounds
//! dealt), memoised. From each state every card sequence of one round is
//! walked by replaying the play function on a script and branching on the
//! next card whenever it asks for one beyond the script; a sequence of `k`
//! cards from `n` has probability `prod(counts) / (n (n-1) .. (n-k+1))`,
//! summed in integers per end state and combined in exact fractions. A
//! round that runs out of cards continues from the shuffled discards, as at
//! the table, and ends the shoe.
//!
//! The work grows with the shoe's sequences, so this is for test shoes of
//! a few dozen cards (a full deck's two rounds are far beyond it); the
//! sums are checked and overflow is an error, never a wrong answer.

use ahash::AHashMap;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

use super::shoe::Dealing;
use super::simulation::TableSimulation;
use crate::error::{Error, Result};
use crate::games::blackjack::N_VALUES;
use crate::games::blackjack::player::round::{Cards, RoundPlayer};

/// A table's exact long-run value.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactTable {
    /// The expected net result of a shoe, in units.
    pub net_per_shoe: BigRational,
    /// The expected number of rounds a shoe deals.
    pub rounds_per_shoe: BigRational,
}

impl ExactTable {
    /// The long-run mean net result per round, in units:
    /// `net_per_shoe / rounds_per_shoe`.
    pub fn per_round(&self) -> BigRational {
        &self.net_per_shoe / &self.rounds_per_shoe
    }
}

/// The exact long-run value of `simulation`'s table (see the module doc).
///
/// Errors (naming `shoe`) if an integer sum would overflow: the shoe is too
/// large for exact enumeration.
pub fn exact_table_value(simulation: &TableSimulation) -> Result<ExactTable> {
    let mut full = [0u32; N_VALUES];
    for &value in simulation.shoe_card_values() {
        full[usize::from(value - 1)] += 1;
    }
    let mut walker = ShoeWalker {
        player: simulation.player(),
        dealing: simulation.dealing(),
        full,
        memo: AHashMap::new(),
    };
    let (net_tenths, rounds) = walker.value(full, 0)?;
    Ok(ExactTable {
        net_per_shoe: net_tenths / BigRational::from_integer(BigInt::from(10)),
        rounds_per_shoe: rounds,
    })
}

/// Cards given in order; `None` once they are used up (the walk then
/// branches on the next card).
struct Script<'a> {
    cards: &'a [u8],
    position: usize,
}

impl Cards for Script<'_> {
    fn next(&mut self) -> Option<u8> {
        let card = self.cards.get(self.position).copied();
        self.position += 1;
        card
    }
}

/// What the rest of a shoe is worth from a round's start: expected net in
/// tenths and expected rounds.
type Value = (BigRational, BigRational);

struct ShoeWalker<'a> {
    player: &'a RoundPlayer,
    dealing: Dealing,
    full: [u32; N_VALUES],
    /// By cards left and rounds dealt.
    memo: AHashMap<([u32; N_VALUES], u32), Value>,
}

/// The sequences of one round from a state that end the same way: summed
/// numerators of their probabilities (over the falling factorial of their
/// length), and of the probabilities times the net.
#[derive(Default)]
struct Ends {
    weight: i128,
    net: i128,
}

fn overflow() -> Error {
    Error::invalid(
        "shoe",
        "this shoe",
        "too many cards for the exact table value (its sums pass 2^127): use a smaller shoe",
    )
}

fn falling(n: u32, k: u32) -> BigInt {
    (0..k).fold(BigInt::from(1), |product, i| product * BigInt::from(n - i))
}

impl ShoeWalker<'_> {
    fn value(&mut self, left: [u32; N_VALUES], rounds: u32) -> Result<Value> {
        let total: u32 = self.full.iter().sum();
        let n_left: u32 = left.iter().sum();
        if !self.dealing.deals_another(total - n_left, rounds) {
            return Ok((BigRational::zero(), BigRational::zero()));
        }
        // A cut card's state is the cards left alone; a fixed number of
        // rounds also needs the rounds dealt.
        let key_rounds = match self.dealing {
            Dealing::CutCard { .. } => 0,
            Dealing::RoundsPerShoe { .. } => rounds,
        };
        if let Some(value) = self.memo.get(&(left, key_rounds)) {
            return Ok(value.clone());
        }
        let mut round = RoundWalk {
            player: self.player,
            prefix: Vec::new(),
            left,
            discards: std::array::from_fn(|i| self.full[i] - left[i]),
            from_discards: 0,
            ends: AHashMap::new(),
            reshuffled: Vec::new(),
        };
        round.explore(1, BigRational::from_integer(BigInt::from(1)))?;
        let mut net = BigRational::zero();
        let mut expected_rounds = BigRational::zero();
        let RoundWalk {
            ends, reshuffled, ..
        } = round;
        for (end, sums) in ends {
            let k = n_left - end.iter().sum::<u32>();
            let denominator = falling(n_left, k);
            let probability = BigRational::new(BigInt::from(sums.weight), denominator.clone());
            let (rest_net, rest_rounds) = self.value(end, rounds + 1)?;
            net += BigRational::new(BigInt::from(sums.net), denominator) + &probability * rest_net;
            expected_rounds += &probability * (BigRational::from_integer(1.into()) + rest_rounds);
        }
        // A round finished from the discards ends the shoe.
        for (probability, round_net) in reshuffled {
            net += &probability * BigRational::from_integer(BigInt::from(round_net));
            expected_rounds += probability;
        }
        let value = (net, expected_rounds);
        self.memo.insert((left, key_rounds), value.clone());
        Ok(value)
    }
}

/// Every card sequence of one round from a state.
struct RoundWalk<'a> {
    player: &'a RoundPlayer,
    prefix: Vec<u8>,
    /// The shoe's cards not yet dealt (less the prefix's).
    left: [u32; N_VALUES],
    /// The discards (the shoe's earlier rounds), less any the prefix took
    /// from them.
    discards: [u32; N_VALUES],
    /// Cards of the prefix dealt from the discards.
    from_discards: u32,
    /// Sequences dealt from the shoe alone, by the cards left after them.
    ends: AHashMap<[u32; N_VALUES], Ends>,
    /// Sequences that went on from the discards: probability and net.
    reshuffled: Vec<(BigRational, i32)>,
}

impl RoundWalk<'_> {
    /// Plays the prefix; if the play asks for more cards, branches on the
    /// next one. `weight` is the product of the counts the prefix's shoe
    /// cards were drawn from; `after_shoe` the probability of the cards it
    /// took from the discards given the shoe ran out (1 before).
    fn explore(&mut self, weight: i128, after_shoe: BigRational) -> Result<()> {
        let mut script = Script {
            cards: &self.prefix,
            position: 0,
        };
        if let Some(result) = self.player.play(&mut script) {
            if self.from_discards == 0 {
                let sums = self.ends.entry(self.left).or_default();
                sums.weight = sums.weight.checked_add(weight).ok_or_else(overflow)?;
                let net = weight
                    .checked_mul(i128::from(result.net))
                    .ok_or_else(overflow)?;
                sums.net = sums.net.checked_add(net).ok_or_else(overflow)?;
            } else {
                // The shoe ran out: the prefix's shoe cards were all of
                // them, so their probability is weight / n!.
                let n_shoe = self.prefix.len() as u32 - self.from_discards;
                let probability =
                    BigRational::new(BigInt::from(weight), falling(n_shoe, n_shoe)) * after_shoe;
                self.reshuffled.push((probability, result.net));
            }
            return Ok(());
        }
        let from_shoe = self.left.iter().any(|&count| count > 0);
        let pool_total: u32 = if from_shoe {
            self.left.iter().sum()
        } else {
            self.discards.iter().sum()
        };
        assert!(
            pool_total > 0,
            "the shoe and its discards hold a round's most cards"
        );
        for value in 1..=N_VALUES as u8 {
            let index = usize::from(value - 1);
            let count = if from_shoe {
                self.left[index]
            } else {
                self.discards[index]
            };
            if count == 0 {
                continue;
            }
            self.prefix.push(value);
            if from_shoe {
                self.left[index] -= 1;
                let weight = weight.checked_mul(i128::from(count)).ok_or_else(overflow)?;
                self.explore(weight, after_shoe.clone())?;
                self.left[index] += 1;
            } else {
                self.discards[index] -= 1;
                self.from_discards += 1;
                let probability =
                    &after_shoe * BigRational::new(BigInt::from(count), BigInt::from(pool_total));
                self.explore(weight, probability)?;
                self.from_discards -= 1;
                self.discards[index] += 1;
            }
            self.prefix.pop();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NoProgress;
    use crate::engine::montecarlo::{RunPlan, run};
    use crate::games::blackjack::Decks;
    use crate::games::blackjack::player::{
        PlayerParams, PlayerRules, SplitModel, solve_exact, solve_float,
    };
    use crate::games::blackjack::table::TableSummary;

    /// One deck less every 2..7 and two aces: two aces, four 8s, four 9s
    /// and sixteen tens (26 cards), whose rounds take from four cards to a
    /// dozen, so a cut card makes the number of rounds depend on them.
    fn small_shoe() -> PlayerParams {
        let mut removed: Vec<u8> = (2..=7).flat_map(|v| [v; 4]).collect();
        removed.extend([1, 1]);
        PlayerParams {
            rules: PlayerRules {
                decks: Decks::Finite(1),
                ..PlayerRules::default()
            },
            split_model: SplitModel::Cdz,
            removed,
        }
    }

    fn table(params: &PlayerParams, dealing: Dealing) -> TableSimulation {
        let solved = solve_float(params, &NoProgress).unwrap();
        TableSimulation::with_table(&solved, dealing, None).unwrap()
    }

    #[test]
    fn one_round_per_shoe_is_worth_the_solvers_overall_value_exactly() {
        let params = small_shoe();
        let solved = solve_exact(&params, &NoProgress).unwrap();
        let simulation =
            TableSimulation::with_table(&solved, Dealing::rounds_per_shoe(1, 26).unwrap(), None)
                .unwrap();
        let exact = exact_table_value(&simulation).unwrap();
        assert_eq!(exact.rounds_per_shoe, BigRational::from_integer(1.into()));
        assert_eq!(exact.per_round(), solved.overall);
    }

    /// The simulation's mean per round against the exact value, |z| < 5
    /// with the standard error by shoe.
    fn simulation_agrees(simulation: &TableSimulation, exact: &ExactTable, shoes: u64, seed: u64) {
        let counts = run(simulation, &RunPlan::new(shoes, seed, 0), &NoProgress);
        let summary = TableSummary::from_tally(&simulation.layout(), &counts).unwrap();
        let exact_mean = Number::to_f64(&exact.per_round());
        let z = (summary.mean - exact_mean) / summary.standard_error;
        assert!(
            z.abs() < 5.0,
            "{:?}: mean {} against exact {exact_mean} (se {}, z {z})",
            simulation.dealing(),
            summary.mean,
            summary.standard_error
        );
        let rounds = Number::to_f64(&exact.rounds_per_shoe);
        assert!(
            (summary.mean_rounds_per_shoe() - rounds).abs() < 0.01 * rounds,
            "rounds per shoe {} against exact {rounds}",
            summary.mean_rounds_per_shoe()
        );
    }

    use crate::games::blackjack::player::number::Number;

    #[test]
    fn a_cut_card_changes_the_value_per_round_and_the_simulation_finds_the_exact_change() {
        let params = small_shoe();
        let off_the_top = table(&params, Dealing::rounds_per_shoe(1, 26).unwrap());
        let off_the_top = exact_table_value(&off_the_top).unwrap().per_round();
        for (penetration, seed) in [(0.5, 1), (0.75, 2)] {
            let simulation = table(&params, Dealing::cut_card(penetration, 26).unwrap());
            let exact = exact_table_value(&simulation).unwrap();
            assert_ne!(exact.per_round(), off_the_top, "{penetration}");
            simulation_agrees(&simulation, &exact, 400_000, seed);
        }
        // A fixed number of rounds per shoe, with a fixed strategy, is
        // worth the value off the top in every round (the rounds' order is
        // exchangeable; only a stopping rule that reads the cards, as a
        // cut card does, changes it): exactly, while no round runs out.
        let simulation = table(&params, Dealing::rounds_per_shoe(2, 26).unwrap());
        let exact = exact_table_value(&simulation).unwrap();
        assert_eq!(exact.per_round(), off_the_top);
        simulation_agrees(&simulation, &exact, 400_000, 3);
        // More rounds than some shoes hold: the discards finish the round
        // and end the shoe.
        let simulation = table(&params, Dealing::rounds_per_shoe(4, 26).unwrap());
        let exact = exact_table_value(&simulation).unwrap();
        assert_ne!(exact.per_round(), off_the_top);
        simulation_agrees(&simulation, &exact, 400_000, 4);
    }
}
