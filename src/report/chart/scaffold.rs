//! What every chart kind's entry point is built on: [`render_with`] (a
//! white SVG document of a given size, drawn by a closure) and the
//! validation of labels and values, so that every kind refuses bad input
//! in the same words.

use plotters::prelude::*;

use super::layout::{Area, Drawn};
use super::types::FigureSize;
use crate::error::{Error, Result};

/// Draws `draw` into a fresh SVG document `size.width()` by `height` user
/// units on a white ground, its `<title>` and `<desc>` first (what screen
/// readers say and pages index); an error is reported against the chart
/// titled `title`. A size for print states the document's width and height
/// in inches (the view box stays in user units); every number in the
/// document is written without float noise ([`tidy_numbers`]).
pub(super) fn render_with(
    size: FigureSize,
    height: u32,
    (title, desc): (&str, &str),
    draw: impl FnOnce(&Area<'_>) -> Drawn,
) -> Result<String> {
    let width = size.width();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
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
    let mut svg = tidy_numbers(&svg);
    if let Some(inches) = size.inches() {
        let pixels = format!("width=\"{width}\" height=\"{height}\"");
        let tall = inches * f64::from(height) / f64::from(width);
        let printed = format!("width=\"{inches}in\" height=\"{tall:.3}in\"");
        svg = svg.replacen(&pixels, &printed, 1);
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

/// `svg` with every number inside a tag (an attribute: a font size of
/// `13.000000000000002`, a coordinate of `12.3456789`) of more than three
/// decimals rounded to three, trailing zeros removed: a thousandth of a
/// user unit is far below what any viewer shows, and the file says what
/// was meant. Text between tags (labels, `p = 0.0001`) is left as written.
pub(super) fn tidy_numbers(svg: &str) -> String {
    let mut tidy = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(open) = rest.find('<') {
        let (text, from) = rest.split_at(open);
        tidy.push_str(text);
        let close = from.find('>').map_or(from.len(), |at| at + 1);
        tidy_tag(&from[..close], &mut tidy);
        rest = &from[close..];
    }
    tidy.push_str(rest);
    tidy
}

/// Appends `tag` to `tidy` with its long decimals rounded (see
/// [`tidy_numbers`]).
fn tidy_tag(tag: &str, tidy: &mut String) {
    let mut rest = tag;
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
        let (before, from) = rest.split_at(start);
        tidy.push_str(before);
        let end = from
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(from.len());
        let number = &from[..end];
        let long = number
            .split_once('.')
            .is_some_and(|(_, decimals)| decimals.len() > 3 && !decimals.contains('.'));
        match number.parse::<f64>() {
            Ok(value) if long => {
                let rounded = format!("{value:.3}");
                tidy.push_str(rounded.trim_end_matches('0').trim_end_matches('.'));
            }
            _ => tidy.push_str(number),
        }
        rest = &from[end..];
    }
    tidy.push_str(rest);
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

#[cfg(test)]
mod tests {
    use super::tidy_numbers;

    #[test]
    fn long_decimals_in_tags_are_rounded_and_text_is_not() {
        let svg =
            r#"<text x="12.3456789" font-size="13.000000000000002" y="7.5">p = 0.00012345</text>"#;
        assert_eq!(
            tidy_numbers(svg),
            r#"<text x="12.346" font-size="13" y="7.5">p = 0.00012345</text>"#
        );
        let path = r##"<path d="M1.0000001,2 L3.25,4.99999999" fill="#0072B2"/>"##;
        assert_eq!(
            tidy_numbers(path),
            r##"<path d="M1,2 L3.25,5" fill="#0072B2"/>"##
        );
    }
}
