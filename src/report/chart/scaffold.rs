//! What every chart kind's entry point is built on: [`render_with`] (a
//! white SVG document of a given size, drawn by a closure) and the
//! validation of labels and values, so that every kind refuses bad input
//! in the same words.

use plotters::prelude::*;

use super::layout::{Area, Drawn};
use crate::error::{Error, Result};

/// Draws `draw` into a fresh SVG document of `size` pixels on a white
/// ground, its `<title>` and `<desc>` first (what screen readers say and
/// pages index); an error is reported against the chart titled `title`.
pub(super) fn render_with(
    size: (u32, u32),
    (title, desc): (&str, &str),
    draw: impl FnOnce(&Area<'_>) -> Drawn,
) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let drawn: Drawn = (|| {
            root.fill(&WHITE)?;
            draw(&root)?;
            root.present()?;
            Ok(())
        })();
        // Drawing into a string has no way to fail on validated input;
        // should plotters report something anyway, the user hears it
        // against the chart.
        drawn.map_err(|e| Error::invalid("chart", title, format!("cannot be drawn: {e}")))?;
    }
    // Right after the opening tag, as SVG wants them.
    let head = format!(
        "\n<title>{}</title>\n<desc>{}</desc>",
        xml_text(title),
        xml_text(desc)
    );
    let at = svg.find('>').map_or(svg.len(), |end| end + 1);
    svg.insert_str(at, &head);
    Ok(svg)
}

/// `text` with XML's special characters escaped, for element content.
fn xml_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

// ---------------------------------------------------------------------------
// Validation shared by the chart kinds.

/// Refuses `count` zero: `chart {missing}: needs at least one {item}`.
fn at_least_one(count: usize, missing: &str, item: &str) -> Result<()> {
    if count == 0 {
        return Err(Error::invalid(
            "chart",
            missing,
            format!("needs at least one {item}"),
        ));
    }
    Ok(())
}

/// The rows of a chart over one set of categories (a bar chart's series,
/// a stacked chart's segments): each one's name, values and, if any,
/// intervals.
type Rows<'r> = [(&'r str, &'r [f64], Option<&'r [(f64, f64)]>)];

/// Checks a chart of `rows` over `categories`: at least one category and
/// one row (`kind` names them, plural then singular: `("segments",
/// "segment")`), and every row by [`validate_values`], named `segment
/// "bust"`.
pub(super) fn validate_rows(
    categories: &[String],
    kind: (&str, &str),
    rows: &Rows<'_>,
) -> Result<()> {
    let (plural, singular) = kind;
    at_least_one(categories.len(), "without categories", "category")?;
    at_least_one(rows.len(), &format!("without {plural}"), singular)?;
    for &(name, values, intervals) in rows {
        let name = format!("{singular} \"{name}\"");
        validate_values(&name, categories, values, intervals)?;
    }
    Ok(())
}

/// Checks a chart of `panels`: at least one panel, and in each panel, in
/// order, at least one outcome (`outline` gives a panel's heading and its
/// number of outcomes; `kind` names them, plural then singular), then
/// whatever `check` checks, which is given the name errors call the panel
/// by: `panel "heading"`, or `panel 3` when it has no heading.
pub(super) fn validate_panels<P>(
    panels: &[P],
    outline: impl Fn(&P) -> (&str, usize),
    (plural, singular): (&str, &str),
    check: impl Fn(&str, &P) -> Result<()>,
) -> Result<()> {
    at_least_one(panels.len(), "without panels", "panel")?;
    for (index, panel) in panels.iter().enumerate() {
        let (title, outcomes) = outline(panel);
        let name = match title {
            "" => format!("panel {}", index + 1),
            title => format!("panel \"{title}\""),
        };
        at_least_one(outcomes, &format!("{name} without {plural}"), singular)?;
        check(&name, panel)?;
    }
    Ok(())
}

/// Checks one set of values, named `name` in errors (`series "x"`,
/// `segment "y"`, `panel "z"`): a value per category, each a probability,
/// and if given an interval per category with `0 <= low <= high <= 1`.
pub(super) fn validate_values(
    name: &str,
    categories: &[String],
    values: &[f64],
    intervals: Option<&[(f64, f64)]>,
) -> Result<()> {
    let n = categories.len();
    let probability = |x: f64| (0.0..=1.0).contains(&x);
    if values.len() != n {
        return Err(Error::invalid(
            "chart",
            format!("{name} has {} values for {n} categories", values.len()),
            "needs one value per category",
        ));
    }
    if let Some((value, category)) = values
        .iter()
        .zip(categories)
        .find(|(v, _)| !probability(**v))
    {
        return Err(Error::invalid(
            "chart",
            format!("{name}, category \"{category}\": value {value}"),
            "must be a probability in [0, 1]",
        ));
    }
    if let Some(intervals) = intervals {
        if intervals.len() != n {
            return Err(Error::invalid(
                "chart",
                format!(
                    "{name} has {} intervals for {n} categories",
                    intervals.len()
                ),
                "needs one interval per category",
            ));
        }
        if let Some(((low, high), category)) = intervals
            .iter()
            .zip(categories)
            .find(|((low, high), _)| !(probability(*low) && probability(*high) && low <= high))
        {
            return Err(Error::invalid(
                "chart",
                format!("{name}, category \"{category}\": interval [{low}, {high}]"),
                "must satisfy 0 <= low <= high <= 1",
            ));
        }
    }
    Ok(())
}
