//! SVG charts of results:
//!
//! - [`BarChart`] ([`render_svg`]): one distribution as bars, any others (a
//!   published table, another shuffle) overlaid as markers on top, and 95%
//!   intervals as error bars;
//! - [`StackedBarChart`] ([`render_stacked_svg`]): several distributions
//!   over the same outcomes (the dealer's final hand for each upcard), one
//!   bar per distribution split into its outcomes;
//! - [`ZScorePlot`] ([`render_z_scores_svg`]): the per-outcome z-scores of
//!   a comparison, one panel per compared distribution, against reference
//!   lines at 0, ±2 and the critical value;
//! - [`PanelChart`] ([`render_panels_svg`]): small multiples, several
//!   distributions of one report (cards left for each K, passes, ...), one
//!   bar panel each with its own y scale, in a grid of two columns;
//! - [`MeanChart`] ([`render_means_svg`]): signed means over categories
//!   (the value per round by true count) as points with 95% error bars,
//!   against zero and a reference line, with the categories' frequencies
//!   as bars in a panel underneath.
//!
//! Like the rest of the report layer this only builds a string; the caller
//! decides where it goes. This module only declares the files and
//! re-exports what callers use. The files, bottom up (each imports only
//! files above it in this list, never one below):
//!
//! - `types`: the charts as data (the types above);
//! - `layout`: the picture's size, fonts and colours, text measurement,
//!   titles, legends (their keys and where the entries go), x labels;
//! - `frame`: the plotting frame of a chart or panel and the grid of
//!   panels;
//! - `marks`: bars, markers, points, lines, error bars, and the legend keys
//!   drawn with the same code as the marks they name (so legends and
//!   headers are drawn here);
//! - `scaffold`: what every kind's `render_*` is built on: `render_with` (a
//!   white SVG document of a given size, drawn by a closure) and the
//!   validation of labels and values;
//! - the kinds, each validated, laid out and drawn in a file of its own
//!   with its `render_*` entry point: `bars`, `stacked`, `zscores`,
//!   `panels` (which reuses the y scale of `bars`), `means` (likewise, for
//!   its frequencies);
//! - `testing` (tests only): reading an SVG back, shared by the kinds'
//!   tests and those of `report::figures`.
//!
//! Text is left to the viewer: no font file is read at build or run time,
//! and the layout estimates text widths generously (see `layout`).
//!
//! Colours are from the Okabe–Ito palette, which stays distinguishable under
//! the common colour-vision deficiencies; overlaid series also differ in
//! marker shape, so the chart reads in grey too.

mod bars;
mod frame;
mod layout;
mod marks;
mod means;
mod panels;
mod scaffold;
mod stacked;
#[cfg(test)]
pub(crate) mod testing;
mod types;
mod zscores;

pub use bars::render_svg;
pub use means::render_means_svg;
pub use panels::render_panels_svg;
pub use stacked::render_stacked_svg;
pub use types::{
    BarChart, BarPanel, CriticalValue, FigureSize, Frequencies, MeanChart, PanelChart,
    ReferenceLine, Segment, Series, StackedBarChart, ZPanel, ZPoint, ZScorePlot,
};
pub use zscores::render_z_scores_svg;
