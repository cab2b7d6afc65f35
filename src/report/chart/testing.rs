//! Helpers of the charts' tests (compiled for tests only): reading texts,
//! fills and attributes back out of an SVG, and asserting refusals.

/// Every `<text>` element's attributes and contents, the contents
/// trimmed (the backend puts them on lines of their own), with XML
/// entities left as written.
fn text_elements(svg: &str) -> Vec<(&str, &str)> {
    svg.split("<text")
        .skip(1)
        .filter_map(|element| {
            let (attributes, rest) = element.split_once('>')?;
            let (content, _) = rest.split_once("</text>")?;
            Some((attributes, content.trim()))
        })
        .collect()
}

/// The contents of every `<text>` element (see [`text_elements`]).
/// Shared with the tests of `figures`.
pub(crate) fn texts(svg: &str) -> Vec<&str> {
    text_elements(svg)
        .into_iter()
        .map(|(_, content)| content)
        .collect()
}

/// The message with which `render` refuses `chart` after `change`.
pub(super) fn refusal<T: Clone>(
    render: impl Fn(&T) -> crate::error::Result<String>,
    chart: &T,
    change: impl FnOnce(&mut T),
) -> String {
    let mut chart = chart.clone();
    change(&mut chart);
    render(&chart).unwrap_err().to_string()
}

/// Asserts that `svg` shows every one of `expected` as a text.
pub(super) fn assert_shows(svg: &str, expected: &[&str]) {
    let shown = texts(svg);
    for text in expected {
        assert!(shown.contains(text), "{text} in {shown:?}");
    }
}

/// The fill colours of the `<name ...>` elements of `svg` (`rect`,
/// `circle`), in document order.
pub(super) fn fills<'s>(svg: &'s str, name: &str) -> Vec<&'s str> {
    svg.split(&format!("<{name} "))
        .skip(1)
        .filter_map(|element| attribute(element.split_once('>')?.0, "fill"))
        .collect()
}

/// The value of attribute `name` among an element's `attributes`.
pub(super) fn attribute<'s>(attributes: &'s str, name: &str) -> Option<&'s str> {
    let (_, rest) = attributes.split_once(&format!(" {name}=\""))?;
    Some(rest.split_once('"')?.0)
}

/// Asserts that `render` draws `chart` to the same bytes twice.
pub(super) fn assert_deterministic<T>(
    render: impl Fn(&T) -> crate::error::Result<String>,
    chart: &T,
) {
    assert_eq!(render(chart).unwrap(), render(chart).unwrap());
}

pub(super) fn has_text(svg: &str, text: &str) -> bool {
    texts(svg).contains(&text)
}

/// The category labels under the x axis: the texts hung from their top
/// at `font_size` pixels (the y tick labels are anchored at their end).
pub(super) fn x_tick_labels(svg: &str, font_size: u32) -> Vec<&str> {
    let attributes = format!(
        r#"dy="0.76em" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="{font_size}""#
    );
    text_elements(svg)
        .into_iter()
        .filter(|(element, _)| element.contains(&attributes))
        .map(|(_, content)| content)
        .collect()
}
