//! The simulated risk of a trip (issue 46): [`TripSimulation`], whose
//! trial is one trip to the table with a finite bankroll, betting a ramp
//! round after round, shoe after shoe, for a fixed number of rounds; it
//! counts the trips that lose the whole bankroll.
//!
//! Beside the closed-form risk of ruin of
//! [`super::simulation::BettingSummary::risk_of_ruin`] (an infinite
//! session, the normal approximation), this is the risk of a real
//! session: finite, round by round, with the table's own results. For a
//! long trip and a bankroll of many bets the two agree (a test holds them
//! to it).

use super::simulation::{RoundSink, TableSimulation, TripState};
use crate::engine::Simulation;
use crate::error::{Error, Result};
use crate::rng::GameRng;
use crate::stats::{Interval, wilson_interval};

/// The largest bankroll a trip may start with, in units: its tenths fit
/// an `i64` with room for any trip's swings.
pub const MAX_BANKROLL: u64 = 1_000_000_000_000;

/// A trip: how long, and with how much.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TripPlan {
    /// Rounds dealt in the trip (observed: rounds wonging sits out count,
    /// as time at the table).
    pub rounds: u64,
    /// The bankroll at the start, in units.
    pub bankroll: u64,
}

impl TripPlan {
    /// A trip of `rounds` rounds from `bankroll` units; errors (naming
    /// `trip_rounds` or `bankroll`) unless both are at least 1 and the
    /// bankroll at most [`MAX_BANKROLL`].
    pub fn new(rounds: u64, bankroll: u64) -> Result<TripPlan> {
        if rounds == 0 {
            return Err(Error::invalid(
                "trip_rounds",
                rounds,
                "must be a whole number of at least 1",
            ));
        }
        if !(1..=MAX_BANKROLL).contains(&bankroll) {
            return Err(Error::invalid(
                "bankroll",
                bankroll,
                format!("must be a whole number of units in 1..={MAX_BANKROLL}"),
            ));
        }
        Ok(TripPlan { rounds, bankroll })
    }
}

/// The trips of a table that bets by a ramp (see the module doc).
///
/// A trip starts from a fresh shuffle with the whole bankroll; each round
/// played adds its money (bet x net) to the bankroll; the trip is ruined,
/// and ends, as soon as the bankroll is 0 or less (the player cannot cover
/// a bet; bets are never cut to what is left, the assumption of the closed
/// form too). Otherwise it ends after its rounds, in mid-shoe if need be.
/// Two bins: trips that ended with money (0) and ruined trips (1). A trip
/// depends only on its generator, so the counts do not depend on threads
/// or shards.
#[derive(Clone, Debug)]
pub struct TripSimulation<'a> {
    table: &'a TableSimulation,
    trip: TripPlan,
}

/// The bin of the trips that lost the bankroll.
pub const RUINED: usize = 1;

impl<'a> TripSimulation<'a> {
    /// Trips of `trip` at `table`; errors (naming `bet_ramp`) if the table
    /// does not bet by a ramp.
    pub fn new(table: &'a TableSimulation, trip: TripPlan) -> Result<TripSimulation<'a>> {
        if table.betting().is_none() {
            return Err(Error::invalid(
                "bet_ramp",
                "none",
                "a trip's risk is of betting a ramp: give one",
            ));
        }
        Ok(TripSimulation { table, trip })
    }

    /// Trips per chunk of a run: about as many rounds as a chunk of a
    /// table run, at least one trip.
    pub fn trips_per_chunk(&self) -> u64 {
        (super::simulation::ROUNDS_PER_CHUNK / self.trip.rounds).max(1)
    }
}

impl Simulation for TripSimulation<'_> {
    /// The shoe's cards, as a table run's.
    type Scratch = Vec<u8>;

    fn n_bins(&self) -> usize {
        2
    }

    fn new_scratch(&self) -> Vec<u8> {
        self.table.new_scratch()
    }

    fn trial(&self, rng: &mut GameRng, cards: &mut Vec<u8>, counts: &mut [u64]) {
        // In tenths of a unit, as round results are; MAX_BANKROLL keeps it
        // far from i64's ends (a round moves it by at most 8 x 10,000
        // units).
        let mut trip = TripState {
            bankroll: self.trip.bankroll as i64 * 10,
            rounds_left: self.trip.rounds,
            ruined: false,
        };
        while trip.rounds_left > 0 && !trip.ruined {
            self.table
                .deal_shoe(rng, cards, &mut RoundSink::Trip(&mut trip));
        }
        let ruined = trip.ruined;
        counts[usize::from(ruined)] += 1;
    }
}

/// What a trip run's counts say.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TripRisk {
    /// The trip.
    pub trip: TripPlan,
    /// Trips made.
    pub trips: u64,
    /// Trips that lost the bankroll.
    pub ruined: u64,
}

impl TripRisk {
    /// The risk of the trips counted in `tally` (the trip run's two bins).
    ///
    /// # Panics
    ///
    /// If `tally` is not two counts (a caller's bug: it is a trip run's).
    pub fn from_tally(trip: TripPlan, tally: &[u64]) -> TripRisk {
        assert_eq!(tally.len(), 2, "a trip run's tally has two counts");
        TripRisk {
            trip,
            trips: tally[0] + tally[RUINED],
            ruined: tally[RUINED],
        }
    }

    /// The share of trips ruined.
    pub fn proportion(&self) -> f64 {
        self.ruined as f64 / self.trips.max(1) as f64
    }

    /// Its 95% Wilson interval.
    pub fn interval95(&self) -> Interval {
        wilson_interval(self.ruined, self.trips, crate::stats::Z95)
    }

    /// The proportion's standard error, `sqrt(p (1 - p) / trips)`.
    pub fn standard_error(&self) -> f64 {
        let p = self.proportion();
        (p * (1.0 - p) / self.trips.max(1) as f64).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::NoProgress;
    use crate::engine::montecarlo::{RunPlan, run};
    use crate::games::blackjack::Decks;
    use crate::games::blackjack::player::{PlayerParams, PlayerRules, SplitModel, solve_float};
    use crate::games::blackjack::table::betting::{BetRamp, BettingPlan, Wonging};
    use crate::games::blackjack::table::simulation::BettingSummary;
    use crate::games::blackjack::table::{CountSystem, Dealing};

    #[test]
    fn the_closed_form_risk_of_ruin_agrees_with_simulated_long_trips() {
        // One deck to 75%, hi-lo, one unit only at a true count of +2 or
        // more (in at +2, out below it): a win rate of about 3 % a round
        // played, WR / SD about 0.028. A bankroll of 45 units makes the
        // closed form's risk about 10 %; trips of 60,000 rounds dealt
        // (some 14,000 played, ten times (SD / WR)^2) leave a risk of ruin
        // after the trip of well under 0.1 %, so both say the same.
        let rules = PlayerRules {
            decks: Decks::Finite(1),
            ..PlayerRules::default()
        };
        let table = solve_float(
            &PlayerParams::full_shoe(rules, SplitModel::Cdz),
            &NoProgress,
        )
        .unwrap();
        let plan = BettingPlan {
            ramp: BetRamp::parse("0:1").unwrap(),
            wonging: Wonging {
                enter_at: Some(2),
                leave_below: Some(2),
            },
        };
        let betting = TableSimulation::with_table(
            &table,
            Dealing::cut_card(0.75, 52).unwrap(),
            Some(CountSystem::parse("hi-lo").unwrap().tags),
        )
        .unwrap()
        .with_betting(plan.clone())
        .unwrap();
        let shoes = betting.shoes_for_rounds(8_000_000);
        let tally = run(&betting, &RunPlan::new(shoes, 12, 0), &NoProgress);
        let money = BettingSummary::from_tally(&betting.layout(), &tally, &plan).unwrap();
        let bankroll = 45;
        let closed = money.risk_of_ruin(bankroll);
        assert!((0.05..0.2).contains(&closed), "{closed}");
        // The closed form's own error, from the win rate's (the SD's is
        // far smaller): d ln RoR = ln RoR x dWR / WR.
        let closed_error = closed * closed.ln().abs() * money.standard_error / money.win_rate;
        let trip = TripPlan::new(60_000, bankroll).unwrap();
        let trips = TripSimulation::new(&betting, trip).unwrap();
        let plan = RunPlan {
            n_trials: 1_000,
            seed: 12,
            stream: 1,
            chunk_size: trips.trips_per_chunk(),
        };
        let risk = TripRisk::from_tally(trip, &run(&trips, &plan, &NoProgress));
        assert_eq!(risk.trips, 1_000);
        let z = (risk.proportion() - closed) / risk.standard_error().hypot(closed_error);
        assert!(
            z.abs() < 5.0,
            "simulated {} against closed form {closed} (z {z})",
            risk.proportion()
        );
    }
}
