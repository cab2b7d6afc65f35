//! Rendering of a power study (`idiots-delight power`): how many games it
//! takes to detect a biased shuffle.

use super::{Format, RenderOptions};
use crate::contract::blackjack::{Params, finite};
use crate::contract::power::{PowerDocument, PowerReference, ReplicateCheck};
use crate::contract::{self, Tag};
use crate::games::idiots_delight::power::PowerStudy;

/// The `power` document of `study`, with the shard block of `options`.
pub fn power_document(
    study: &PowerStudy,
    game: &str,
    params: &Params,
    options: &RenderOptions,
) -> PowerDocument {
    let plan = &study.plan;
    PowerDocument {
        schema: Tag::new(),
        game: game.into(),
        params: params.clone(),
        seed: plan.seed,
        trials: plan.n_trials,
        level: plan.level,
        reference: PowerReference {
            chi_square: finite(study.reference.chi_square),
            degrees_of_freedom: study.reference.degrees_of_freedom as u64,
            p_value: study.reference.p_value,
            max_abs_z: study.reference.max_abs_z,
            total_variation: study.reference.total_variation,
        },
        lambda_per_game: study.lambda_per_game,
        games_for_power_50: study.games_50,
        games_for_power_90: study.games_90,
        replicate_check: study.replicate_check.as_ref().map(|check| ReplicateCheck {
            replicates: check.replicates,
            rejections: check.rejections,
            games_each: check.games,
            predicted_rejection_rate: check.predicted,
        }),
        shard: options.blocks.shard.clone(),
    }
}

/// Renders `study` in `format`: JSON (`game`, `params`, `seed`, `trials`,
/// `level`, the `reference` test, `lambda_per_game`, the games for 50% and
/// 90% power, and the `replicate_check`, then a part's `shard` block: a
/// [`PowerDocument`]); CSV, the same figures as one row under a header
/// ([`POWER_CSV_COLUMNS`]; a figure the study has not got is an empty
/// cell); or for every other format a few lines of text. `game` and `params` are the
/// report's, as the command names them. The text ends with a newline.
pub fn render_power(
    study: &PowerStudy,
    game: &str,
    params: &Params,
    format: Format,
    options: &RenderOptions,
) -> String {
    let plan = &study.plan;
    if format == Format::Json {
        return format!(
            "{}\n",
            contract::write(&power_document(study, game, params, options))
        );
    }
    if format == Format::Csv {
        return power_csv(study, game);
    }
    let mut text = format!(
        "Idiot's Delight {}: detecting the {} shuffle against uniform (chi-square, level {})\n",
        plan.game.deck_name(),
        plan.shuffle.name(),
        plan.level
    );
    text.push_str(&format!(
        "reference runs: {} games each (uniform seed {}, {} seed {}): chi-square {:.1} on {} df, p = {:.3e}, max |z| {}, TVD {:.5}\n",
        plan.n_trials,
        plan.seed,
        plan.shuffle.name(),
        plan.seed.wrapping_add(1),
        study.reference.chi_square,
        study.reference.degrees_of_freedom,
        study.reference.p_value,
        study
            .reference
            .max_abs_z
            .map_or_else(|| "—".to_string(), |z| format!("{z:.2}")),
        study.reference.total_variation
    ));
    match (study.games_50, study.games_90) {
        (Some(g50), Some(g90)) => text.push_str(&format!(
            "noncentrality per game {:.3e}: 50% power at {g50} games, 90% power at {g90} games\n",
            study.lambda_per_game
        )),
        _ => text.push_str(&format!(
            "no bias detectable from reference runs of {} games: it takes more than that to see one\n",
            plan.n_trials
        )),
    }
    if let Some(check) = &study.replicate_check {
        text.push_str(&format!(
            "check: {} of {} independent samples of {} games, each tested against the uniform reference run, were rejected ({:.0}%; {:.0}% predicted)\n",
            check.rejections,
            check.replicates,
            check.games,
            100.0 * check.rejections as f64 / check.replicates as f64,
            100.0 * check.predicted
        ));
    }
    if format == Format::Md {
        // Each line its own, as Markdown writes a hard line break.
        return text.replace('\n', "  \n");
    }
    text
}

/// The columns of the power study's CSV, in order.
pub const POWER_CSV_COLUMNS: [&str; 17] = [
    "game",
    "deck",
    "shuffle",
    "level",
    "seed",
    "trials",
    "chi_square",
    "degrees_of_freedom",
    "p_value",
    "max_abs_z",
    "total_variation",
    "lambda_per_game",
    "games_for_power_50",
    "games_for_power_90",
    "replicates",
    "rejections",
    "predicted_rejection_rate",
];

/// The study's figures as a CSV of one row (full precision, as the JSON).
fn power_csv(study: &PowerStudy, game: &str) -> String {
    let plan = &study.plan;
    let reference = &study.reference;
    let check = study.replicate_check.as_ref();
    let cell = |x: Option<String>| x.unwrap_or_default();
    let row = [
        game.to_string(),
        plan.game.deck_name(),
        plan.shuffle.name().to_string(),
        plan.level.to_string(),
        plan.seed.to_string(),
        plan.n_trials.to_string(),
        reference.chi_square.to_string(),
        reference.degrees_of_freedom.to_string(),
        reference.p_value.to_string(),
        cell(reference.max_abs_z.map(|z| z.to_string())),
        reference.total_variation.to_string(),
        study.lambda_per_game.to_string(),
        cell(study.games_50.map(|g| g.to_string())),
        cell(study.games_90.map(|g| g.to_string())),
        cell(check.map(|c| c.replicates.to_string())),
        cell(check.map(|c| c.rejections.to_string())),
        cell(check.map(|c| c.predicted.to_string())),
    ];
    format!("{}\n{}\n", POWER_CSV_COLUMNS.join(","), row.join(","))
}
