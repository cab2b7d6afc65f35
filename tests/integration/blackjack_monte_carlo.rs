//! Monte Carlo against the exact engine has the power to catch a wrong
//! rule. (Its agreement with the exact table, and its independence of the
//! threads: games.rs.)

use deckodds::compare::{Verdict, goodness_of_fit};
use deckodds::engine::NoProgress;
use deckodds::games::blackjack::dealer::dealer_distributions;
use deckodds::games::blackjack::{DealerParams, Soft17, dealer_monte_carlo};

#[test]
fn monte_carlo_detects_the_wrong_soft_17_rule() {
    // The comparison must have power: H17 hands against the S17 table
    // disagree decisively for the upcards where soft 17s are common.
    let s17 = dealer_distributions(&DealerParams::default()).unwrap();
    let h17_params = DealerParams {
        soft17: Soft17::Hit,
        ..DealerParams::default()
    };
    let h17 = dealer_monte_carlo(&h17_params, 1_000_000, 5, &NoProgress).unwrap();
    let ace = goodness_of_fit(&s17[9], &h17[9], 0.001).unwrap();
    assert_eq!(ace.verdict, Verdict::Disagree, "p = {}", ace.p_value);
    assert!(
        ace.max_abs_z.is_some_and(|z| z > 10.0),
        "max |z| = {:?}",
        ace.max_abs_z
    );
}
