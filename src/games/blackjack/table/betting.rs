//! Betting by the count (issue 46): a bet ramp (units by true count),
//! table limits, and wonging (back-counting in, leaving the shoe), the
//! values the table simulator bets by. Nothing here deals or plays: the
//! simulator asks [`BettingPlan::bet`] for each round's bet.
//!
//! The figures a ramp's run reports (win rate, standard deviation, DI,
//! N0, SCORE, Kelly scaling, risk of ruin) are computed from the run's
//! counts by [`super::simulation::BettingSummary`]; their definitions and
//! sources are there.

use crate::error::{Error, Result};

/// The largest bet a ramp or a table limit may name, in units: large
/// enough for any spread (1 to 10,000), small enough that a shoe's money
/// squared (in tenths of a unit) stays inside the 64-bit sums of the tally
/// (a shoe of 64 decks deals under 2,000 rounds; 2,000 x 8 units x 10
/// tenths x 10,000 is 1.6 x 10^9, squared 2.6 x 10^18 < 2^64).
pub const MAX_BET: u32 = 10_000;

/// The most rows a ramp may have: one per true count over a range of 64
/// counts (true counts past +-30 are all but never dealt).
pub const MAX_RAMP_ROWS: usize = 64;

/// The true counts a ramp's rows may name.
const RAMP_COUNTS: std::ops::RangeInclusive<i32> = -50..=50;

/// Bets in units by true count.
///
/// Rows are consecutive true counts `lowest, lowest + 1, ..`, one bet
/// each: the first row's bet is the bet at its count *and below*, the
/// last row's at its count *and above*. Guarantee (checked by
/// [`BetRamp::new`], so by every parser): 1 to [`MAX_RAMP_ROWS`] rows,
/// counts in -50..=50, every bet in `1..=MAX_BET` (a round is either
/// played with a bet of at least one unit, or not played at all, which is
/// wonging's business, not the ramp's). Bets need not increase.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BetRamp {
    lowest: i32,
    bets: Vec<u32>,
}

/// What the inline and CSV forms allow, for refusals.
const RAMP_FORM: &str = "a ramp is TC:BET rows for consecutive true counts, the first meaning \
     that count and below, the last that count and above (e.g. <=1:1,2:2,3:4,4:8,>=5:12), every \
     bet a whole number of units in 1..=10000";

impl BetRamp {
    /// The ramp whose first row is true count `lowest` and whose bets are
    /// `bets`, one per count from there. Errors (naming `bet_ramp`) as the
    /// type's guarantee says.
    pub fn new(lowest: i32, bets: Vec<u32>) -> Result<BetRamp> {
        let text = || ramp_text(lowest, &bets);
        if bets.is_empty() || bets.len() > MAX_RAMP_ROWS {
            return Err(Error::invalid(
                "bet_ramp",
                text(),
                format!("a ramp has 1 to {MAX_RAMP_ROWS} rows"),
            ));
        }
        let highest = lowest + bets.len() as i32 - 1;
        if !RAMP_COUNTS.contains(&lowest) || !RAMP_COUNTS.contains(&highest) {
            return Err(Error::invalid(
                "bet_ramp",
                text(),
                "its true counts must be in -50..=50",
            ));
        }
        if let Some(bad) = bets.iter().find(|&&bet| !(1..=MAX_BET).contains(&bet)) {
            return Err(Error::invalid(
                "bet_ramp",
                text(),
                format!("a bet of {bad} units; every bet must be 1..={MAX_BET} units"),
            ));
        }
        Ok(BetRamp { lowest, bets })
    }

    /// Reads the inline form: `TC:BET` rows, comma-separated, for
    /// consecutive increasing true counts, `<=` allowed before the first
    /// count and `>=` before the last (they say what the ends mean
    /// anyway): `<=1:1,2:2,3:4,4:8,>=5:12`, or `1:1,2:2,3:4,4:8,5:12`.
    /// Spaces around items are allowed. Errors name `bet_ramp`, the value
    /// and what is allowed: a gap between counts, a count given twice or
    /// out of order, a bet below 1 unit or above [`MAX_BET`], a malformed
    /// row.
    pub fn parse(text: &str) -> Result<BetRamp> {
        let refuse = |why: String| Error::invalid("bet_ramp", text, format!("{why}; {RAMP_FORM}"));
        let items: Vec<&str> = text.split(',').collect();
        let last = items.len() - 1;
        let rows = items
            .iter()
            .enumerate()
            .map(|(index, item)| parse_row(item, index == 0, index == last, ':'))
            .collect::<std::result::Result<Vec<_>, String>>()
            .map_err(refuse)?;
        ramp_of_rows(&rows).map_err(refuse)
    }

    /// Reads the CSV form: one `true_count,bet` row a line, in increasing
    /// consecutive counts (`<=` and `>=` allowed on the first and last
    /// counts), an optional header line `true_count,bet`, blank lines and
    /// lines starting with `#` skipped. Errors give the line number and
    /// what is wrong, in one line (the caller names the file).
    pub fn parse_csv(text: &str) -> std::result::Result<BetRamp, String> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(index, line)| (index + 1, line.trim()))
            .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
            .filter(|(_, line)| !line.replace(' ', "").eq_ignore_ascii_case("true_count,bet"))
            .collect();
        if lines.is_empty() {
            return Err(format!("no rows; {RAMP_FORM}"));
        }
        let last = lines.len() - 1;
        let mut rows = Vec::with_capacity(lines.len());
        for (index, &(number, line)) in lines.iter().enumerate() {
            let row = parse_row(line, index == 0, index == last, ',')
                .map_err(|why| format!("line {number}: {why}"))?;
            rows.push(row);
            ramp_of_rows(&rows).map_err(|why| format!("line {number}: {why}"))?;
        }
        ramp_of_rows(&rows).map_err(|why| format!("{why}; {RAMP_FORM}"))
    }

    /// The bet at true count `tc`, in units.
    #[inline]
    pub fn bet(&self, tc: i32) -> u32 {
        self.bets[self.row(tc)]
    }

    /// The row that holds `tc`: 0 for the first count and below, the last
    /// for the last count and above.
    #[inline]
    pub fn row(&self, tc: i32) -> usize {
        let last = self.bets.len() as i64 - 1;
        (i64::from(tc) - i64::from(self.lowest)).clamp(0, last) as usize
    }

    /// The rows as `(true count, bet)`, lowest count first.
    pub fn rows(&self) -> impl Iterator<Item = (i32, u32)> + '_ {
        (self.lowest..).zip(self.bets.iter().copied())
    }

    /// The bets, one per row.
    pub fn bets(&self) -> &[u32] {
        &self.bets
    }

    /// The ramp with every bet held within `limits` (a bet below the
    /// table's minimum is raised to it, one above its maximum cut to it).
    pub fn clamped(&self, limits: BetLimits) -> BetRamp {
        BetRamp {
            lowest: self.lowest,
            bets: self
                .bets
                .iter()
                .map(|&bet| bet.clamp(limits.min, limits.max))
                .collect(),
        }
    }

    /// The inline form [`BetRamp::parse`] reads back:
    /// `<=1:1,2:2,3:4,4:8,>=5:12`.
    pub fn text(&self) -> String {
        ramp_text(self.lowest, &self.bets)
    }
}

/// The inline form of rows from `lowest` with `bets`.
fn ramp_text(lowest: i32, bets: &[u32]) -> String {
    let last = bets.len().saturating_sub(1);
    (lowest..)
        .zip(bets)
        .enumerate()
        .map(|(index, (tc, bet))| {
            let end = match (index == 0, index == last) {
                (true, false) => "<=",
                (false, true) => ">=",
                _ => "",
            };
            format!("{end}{tc}:{bet}")
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// One row `TC<separator>BET`, with `<=` allowed on the first and `>=` on
/// the last.
fn parse_row(
    item: &str,
    first: bool,
    last: bool,
    separator: char,
) -> std::result::Result<(i32, i64), String> {
    let item = item.trim();
    let Some((count, bet)) = item.split_once(separator) else {
        return Err(format!("{item:?} is not TC{separator}BET"));
    };
    let mut count = count.trim();
    if let Some(rest) = count.strip_prefix("<=") {
        if !first {
            return Err(format!(
                "{item:?}: only the first row may be <= (count and below)"
            ));
        }
        count = rest.trim();
    } else if let Some(rest) = count.strip_prefix(">=") {
        if !last {
            return Err(format!(
                "{item:?}: only the last row may be >= (count and above)"
            ));
        }
        count = rest.trim();
    }
    let count: i32 = count
        .trim_start_matches('+')
        .parse()
        .map_err(|_| format!("{item:?}: the true count {count:?} is not a whole number"))?;
    let bet = bet.trim();
    let bet: i64 = bet
        .parse()
        .map_err(|_| format!("{item:?}: the bet {bet:?} is not a whole number of units"))?;
    Ok((count, bet))
}

/// The ramp of parsed rows, or what is wrong with them.
fn ramp_of_rows(rows: &[(i32, i64)]) -> std::result::Result<BetRamp, String> {
    for pair in rows.windows(2) {
        let ((before, _), (count, _)) = (pair[0], pair[1]);
        if count <= before {
            return Err(format!(
                "true count {count} after {before}: counts must increase, each once (no overlap)"
            ));
        }
        if count > before + 1 {
            return Err(format!(
                "a gap: no bet for true count{} {}",
                if count > before + 2 { "s" } else { "" },
                if count > before + 2 {
                    format!("{}..={}", before + 1, count - 1)
                } else {
                    (before + 1).to_string()
                }
            ));
        }
    }
    if let Some(&(count, bet)) = rows.iter().find(|(_, bet)| *bet < 1) {
        return Err(format!(
            "the bet at true count {count} is {bet}: a played round bets at least 1 unit \
             (to sit rounds out use --wong-in or --wong-out)"
        ));
    }
    if let Some(&(count, bet)) = rows.iter().find(|(_, bet)| *bet > i64::from(MAX_BET)) {
        return Err(format!(
            "the bet at true count {count} is {bet}: at most {MAX_BET} units"
        ));
    }
    let lowest = rows.first().map_or(0, |row| row.0);
    let bets = rows.iter().map(|&(_, bet)| bet as u32).collect();
    BetRamp::new(lowest, bets).map_err(|error| match error {
        Error::InvalidValue { allowed, .. } => allowed,
        other => other.to_string(),
    })
}

/// A table's minimum and maximum bets, in units: a ramp's bets are held
/// within them ([`BetRamp::clamped`]). Guarantee: `1 <= min <= max <=
/// MAX_BET`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BetLimits {
    /// The smallest bet the table takes.
    pub min: u32,
    /// The largest.
    pub max: u32,
}

impl BetLimits {
    /// No limit beyond the ramp's own range: 1 to [`MAX_BET`].
    pub const NONE: BetLimits = BetLimits {
        min: 1,
        max: MAX_BET,
    };

    /// The limits `min` and `max` (each as given, or none); errors (naming
    /// `min_bet` or `max_bet`) unless `1 <= min <= max <= MAX_BET`.
    pub fn new(min: Option<u32>, max: Option<u32>) -> Result<BetLimits> {
        let limits = BetLimits {
            min: min.unwrap_or(1),
            max: max.unwrap_or(MAX_BET),
        };
        for (name, value) in [("min_bet", limits.min), ("max_bet", limits.max)] {
            if !(1..=MAX_BET).contains(&value) {
                return Err(Error::invalid(
                    name,
                    value,
                    format!("must be a whole number of units in 1..={MAX_BET}"),
                ));
            }
        }
        if limits.min > limits.max {
            return Err(Error::invalid(
                "min_bet",
                limits.min,
                format!("must be at most the maximum bet, {}", limits.max),
            ));
        }
        Ok(limits)
    }
}

/// Back-counting: when in a shoe the player sits down and gets up.
///
/// Rounds the player sits out are still dealt (to the other players: the
/// simulator plays the hand with no bet, so the shoe's cards go exactly as
/// they would with the player in), and count as rounds observed, not
/// played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wonging {
    /// Watch from the shuffle and play only from the first round whose
    /// true count is at least this (`None`: play from the shuffle).
    pub enter_at: Option<i32>,
    /// Leave the shoe at the first round whose true count is below this,
    /// and play none of the rest of it (`None`: stay to the shuffle).
    pub leave_below: Option<i32>,
}

/// What a counter bets: the ramp (already held within the table's limits)
/// and when they play.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BettingPlan {
    /// Bets by true count.
    pub ramp: BetRamp,
    /// When in the shoe the counter plays.
    pub wonging: Wonging,
}

/// Where a counter stands in a shoe: watching for the count to enter,
/// playing, or gone for the rest of the shoe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// Back-counting: not yet played this shoe.
    Watching,
    /// Playing.
    Playing,
    /// Left the shoe: no more rounds until the shuffle.
    Left,
}

impl BettingPlan {
    /// Where the counter stands at a shuffle: watching with a wong-in
    /// count, else playing.
    #[inline]
    pub fn seat_at_shuffle(&self) -> Seat {
        if self.wonging.enter_at.is_some() {
            Seat::Watching
        } else {
            Seat::Playing
        }
    }

    /// The seat for a round dealt at true count `tc`, from the seat the
    /// last round left: a watcher sits down once the count reaches the
    /// wong-in count; a player leaves (for good, this shoe) once it falls
    /// below the wong-out count, possibly in the round they sat down.
    #[inline]
    pub fn seat_for_round(&self, seat: Seat, tc: i32) -> Seat {
        let seat = match (seat, self.wonging.enter_at) {
            (Seat::Watching, Some(enter)) if tc >= enter => Seat::Playing,
            (seat, _) => seat,
        };
        match (seat, self.wonging.leave_below) {
            (Seat::Playing, Some(leave)) if tc < leave => Seat::Left,
            (seat, _) => seat,
        }
    }

    /// The bet off the top: the ramp's bet at a shoe's first round (true
    /// count 0, no card seen), or `None` when wonging sits that round out.
    pub fn initial_bet(&self) -> Option<u32> {
        match self.seat_for_round(self.seat_at_shuffle(), 0) {
            Seat::Playing => Some(self.ramp.bet(0)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ramp(text: &str) -> BetRamp {
        BetRamp::parse(text).unwrap()
    }

    #[test]
    fn a_ramp_bets_its_ends_beyond_them() {
        let spread = ramp("<=1:1,2:2,3:4,4:8,>=5:12");
        assert_eq!(spread, ramp("1:1, 2:2, 3:4, 4:8, 5:12"));
        assert_eq!(spread, ramp("1:1,2:2,+3:4,4:8,>=5:12"));
        for (tc, bet) in [
            (-30, 1),
            (0, 1),
            (1, 1),
            (2, 2),
            (3, 4),
            (4, 8),
            (5, 12),
            (40, 12),
        ] {
            assert_eq!(spread.bet(tc), bet, "{tc}");
        }
        assert_eq!(spread.row(i32::MIN), 0);
        assert_eq!(spread.row(i32::MAX), 4);
        assert_eq!(spread.text(), "<=1:1,2:2,3:4,4:8,>=5:12");
        let flat = ramp("0:5");
        assert_eq!(flat.bet(-9), 5);
        assert_eq!(flat.text(), "0:5");
        let negative = ramp("<=-2:1,-1:1,0:2");
        assert_eq!((negative.bet(-5), negative.bet(0)), (1, 2));
    }

    #[test]
    fn bad_ramps_are_refused_naming_the_value_and_the_form() {
        let refusal = |text: &str| BetRamp::parse(text).unwrap_err().to_string();
        let cases = [
            ("1:1,3:4", "a gap: no bet for true count 2"),
            ("1:1,5:4", "a gap: no bet for true counts 2..=4"),
            ("1:1,1:2", "true count 1 after 1: counts must increase"),
            ("1:1,2:2,2:3", "true count 2 after 2"),
            ("3:1,2:2", "true count 2 after 3"),
            (
                "1:1,2:-2",
                "the bet at true count 2 is -2: a played round bets at least 1",
            ),
            ("1:0,2:2", "the bet at true count 1 is 0"),
            ("1:1,2:20000", "is 20000: at most 10000 units"),
            ("1:1,>=2:2,3:4", "only the last row may be >="),
            ("1:1,<=2:2", "only the first row may be <="),
            ("1-1", "\"1-1\" is not TC:BET"),
            ("x:1", "the true count \"x\" is not a whole number"),
            ("1:1.5", "the bet \"1.5\" is not a whole number"),
            ("", "\"\" is not TC:BET"),
            ("60:1", "its true counts must be in -50..=50"),
        ];
        for (text, reason) in cases {
            let message = refusal(text);
            assert!(
                message.starts_with(&format!("bet_ramp {text}: ")),
                "{message}"
            );
            assert!(message.contains(reason), "{text}: {message}");
            assert!(
                message.contains("e.g. <=1:1,2:2,3:4,4:8,>=5:12"),
                "{message}"
            );
        }
        let long: Vec<String> = (-40..30).map(|tc| format!("{tc}:1")).collect();
        assert!(refusal(&long.join(",")).contains("1 to 64 rows"));
    }

    #[test]
    fn a_csv_ramp_reads_as_the_inline_one_and_names_bad_lines() {
        let csv = "# a 1-12 spread\ntrue_count,bet\n<=1,1\n2,2\n\n3,4\n4,8\n>=5,12\n";
        assert_eq!(
            BetRamp::parse_csv(csv).unwrap(),
            ramp("<=1:1,2:2,3:4,4:8,>=5:12")
        );
        assert_eq!(
            BetRamp::parse_csv("true_count,bet\n1,1\n3,2\n").unwrap_err(),
            "line 3: a gap: no bet for true count 2"
        );
        assert!(
            BetRamp::parse_csv("1,1\n2,0\n")
                .unwrap_err()
                .starts_with("line 2: the bet at true count 2 is 0")
        );
        assert!(
            BetRamp::parse_csv("1;1\n")
                .unwrap_err()
                .starts_with("line 1: \"1;1\"")
        );
        assert!(
            BetRamp::parse_csv("# nothing\n")
                .unwrap_err()
                .starts_with("no rows")
        );
    }

    #[test]
    fn limits_hold_the_ramp_and_are_checked() {
        let limits = BetLimits::new(Some(2), Some(8)).unwrap();
        assert_eq!(
            ramp("<=1:1,2:2,3:4,4:8,>=5:12").clamped(limits),
            ramp("<=1:2,2:2,3:4,4:8,>=5:8")
        );
        assert_eq!(BetLimits::new(None, None).unwrap(), BetLimits::NONE);
        let refusal = |min, max| BetLimits::new(min, max).unwrap_err().to_string();
        assert_eq!(
            refusal(Some(5), Some(4)),
            "min_bet 5: must be at most the maximum bet, 4"
        );
        assert!(refusal(Some(0), None).starts_with("min_bet 0: must be"));
        assert!(refusal(None, Some(10_001)).starts_with("max_bet 10001: must be"));
    }

    #[test]
    fn wonging_sits_down_at_its_count_and_leaves_for_good() {
        let plan = |enter_at, leave_below| BettingPlan {
            ramp: ramp("<=1:1,>=2:4"),
            wonging: Wonging {
                enter_at,
                leave_below,
            },
        };
        let seats = |plan: &BettingPlan, counts: &[i32]| {
            let mut seat = plan.seat_at_shuffle();
            counts
                .iter()
                .map(|&tc| {
                    seat = plan.seat_for_round(seat, tc);
                    seat
                })
                .collect::<Vec<_>>()
        };
        use Seat::{Left, Playing, Watching};
        let counts = [0, 1, 2, 1, -1, 3];
        assert_eq!(seats(&plan(None, None), &counts), [Playing; 6]);
        assert_eq!(
            seats(&plan(Some(2), None), &counts),
            [Watching, Watching, Playing, Playing, Playing, Playing]
        );
        assert_eq!(
            seats(&plan(None, Some(0)), &counts),
            [Playing, Playing, Playing, Playing, Left, Left]
        );
        assert_eq!(
            seats(&plan(Some(1), Some(1)), &counts),
            [Watching, Playing, Playing, Playing, Left, Left]
        );
        // Entering and leaving at once: in at +2, out below +3.
        assert_eq!(seats(&plan(Some(2), Some(3)), &[2, 5]), [Left, Left]);
        assert_eq!(plan(None, None).initial_bet(), Some(1));
        assert_eq!(plan(Some(1), None).initial_bet(), None);
        assert_eq!(plan(Some(0), None).initial_bet(), Some(1));
        assert_eq!(plan(None, Some(1)).initial_bet(), None);
    }

    proptest! {
        /// Any valid ramp reads back from its inline and CSV forms, and
        /// bets each row's bet at its count.
        #[test]
        fn ramps_round_trip(lowest in -50i32..=0, bets in prop::collection::vec(1u32..=MAX_BET, 1..=40)) {
            let made = BetRamp::new(lowest, bets.clone()).unwrap();
            prop_assert_eq!(&BetRamp::parse(&made.text()).unwrap(), &made);
            let csv: String = made.text().split(',').map(|row| row.replace(':', ",") + "\n").collect();
            prop_assert_eq!(&BetRamp::parse_csv(&csv).unwrap(), &made);
            for (tc, bet) in made.rows() {
                prop_assert_eq!(made.bet(tc), bet);
            }
            prop_assert_eq!(made.bet(lowest - 1), bets[0]);
            prop_assert_eq!(made.bet(lowest + bets.len() as i32), *bets.last().unwrap());
        }

        /// Any text is a ramp or a one-line refusal naming `bet_ramp`.
        #[test]
        fn any_text_parses_or_is_refused_in_one_line(text in "[-+<>=:,0-9 x\\n]{0,30}") {
            match BetRamp::parse(&text) {
                Ok(parsed) => prop_assert!(parsed.bets().iter().all(|&bet| (1..=MAX_BET).contains(&bet))),
                Err(error) => {
                    let message = error.to_string();
                    prop_assert!(!message.contains('\n'));
                    prop_assert!(message.starts_with("bet_ramp "));
                }
            }
        }

        /// A gap, an overlap or a bet below one unit anywhere is refused.
        #[test]
        fn gaps_overlaps_and_non_positive_bets_are_refused(
            lowest in -10i32..=5,
            bets in prop::collection::vec(1i64..=50, 2..=8),
            at in 0usize..8,
            flaw in 0u8..3,
        ) {
            let at = at % bets.len();
            let mut rows: Vec<(i32, i64)> = (lowest..).zip(bets).collect();
            match flaw {
                0 if at > 0 => rows[at].0 += 1 + (at as i32 % 3),
                0 | 1 => rows[at.max(1)].0 = rows[at.max(1) - 1].0,
                _ => rows[at].1 = -(rows[at].1 % 3),
            }
            let text: Vec<String> = rows.iter().map(|(tc, bet)| format!("{tc}:{bet}")).collect();
            prop_assert!(BetRamp::parse(&text.join(",")).is_err(), "{:?}", text);
        }
    }
}
