//! The charts as data: what each kind of chart shows, built by the caller
//! and drawn by the `render_*` function of its kind. Plain data, checked
//! when rendered, not when built.

/// How large a chart is drawn: for screens and web pages, or at a
/// journal's column width, where its text prints at 8-9 pt.
///
/// Layouts are computed in SVG user units; a preset for print sets the
/// SVG's `width` and `height` in inches, so that the PDF comes out at that
/// size and the PNG at [`crate::report::convert::PNG_DPI`] of it. Every
/// preset keeps the same font sizes in user units (14 for tick labels and
/// legends, 12 for small labels) and narrows the layout instead, so that
/// text keeps its printed size: at two thirds of a point per unit, small
/// labels print at 8 pt and tick labels at 9.3 pt.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FigureSize {
    /// 900 units (CSS pixels) wide: web pages, slides.
    #[default]
    Screen,
    /// A journal's single column, 3.5 inches wide.
    Single,
    /// A journal's full page width (two columns), 7 inches wide.
    Double,
}

impl FigureSize {
    /// The names `parse` takes, for messages.
    pub const NAMES: &'static str = "screen, single or double";

    /// Parses `screen`, `single` or `double`.
    pub fn parse(text: &str) -> Option<FigureSize> {
        match text {
            "screen" => Some(FigureSize::Screen),
            "single" => Some(FigureSize::Single),
            "double" => Some(FigureSize::Double),
            _ => None,
        }
    }

    /// The name [`FigureSize::parse`] takes.
    pub fn name(self) -> &'static str {
        match self {
            FigureSize::Screen => "screen",
            FigureSize::Single => "single",
            FigureSize::Double => "double",
        }
    }

    /// The printed width in inches; `None` for the screen, which is sized
    /// in pixels.
    pub fn inches(self) -> Option<f64> {
        match self {
            FigureSize::Screen => None,
            FigureSize::Single => Some(3.5),
            FigureSize::Double => Some(7.0),
        }
    }

    /// The layout's width in user units: 900 on screen; in print, the
    /// width in points at two thirds of a point per unit (3.5 in = 252 pt
    /// is 378 units).
    pub fn width(self) -> u32 {
        match self.inches() {
            None => 900,
            Some(inches) => (inches * 72.0 * 1.5).round() as u32,
        }
    }

    /// The height of a chart of one plot (bars, stacked bars), in user
    /// units: a little over half the width, and never so short that the
    /// plot is crowded out by its title, legend and axes.
    pub fn plot_height(self) -> u32 {
        match self {
            FigureSize::Screen => 500,
            FigureSize::Single => 340,
            FigureSize::Double => 460,
        }
    }
}

/// One series of bars (or markers) over the chart's categories.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend entry, e.g. `deckodds, uniform shuffle (1,000,000 games)`.
    pub name: String,
    /// Probabilities in `[0, 1]`, one per category.
    pub values: Vec<f64>,
    /// Optional 95% intervals `(low, high)`, one per category, drawn as
    /// error bars.
    pub intervals: Option<Vec<(f64, f64)>>,
}

/// A bar chart: the first series as bars, any further series overlaid as
/// markers (a short line across the bar plus a symbol) so that they stay
/// visible on top.
#[derive(Clone, Debug, PartialEq)]
pub struct BarChart {
    /// The title above the chart.
    pub title: String,
    /// The line under the title in regular type: the parameters and the
    /// method (`draw 1, passes 1; Monte Carlo, 10,000,000 games, seed
    /// 1`), wrapped when long; empty for none.
    pub caption: String,
    /// How large the chart is drawn.
    pub size: FigureSize,
    /// The x axis description, e.g. `cards left`.
    pub x_label: String,
    /// The y axis description, e.g. `percent of games`.
    pub y_label: String,
    /// Category labels along the x axis, e.g. `0`, `2`, ..., `52`.
    pub categories: Vec<String>,
    /// The series; the first is drawn as bars.
    pub series: Vec<Series>,
    /// A logarithmic y axis (powers of ten of percent), so that outcomes
    /// a hundred or a million times rarer than the commonest still show;
    /// else linear from 0.
    pub log_y: bool,
    /// A line under the title, e.g. `P(win) = 0.70 % [0.67, 0.74]`; empty
    /// for none.
    pub annotation: String,
}

/// One segment of every bar of a [`StackedBarChart`], e.g. "the dealer
/// busts".
#[derive(Clone, Debug, PartialEq)]
pub struct Segment {
    /// The legend entry, e.g. `bust`.
    pub name: String,
    /// Probabilities in `[0, 1]`, one per category.
    pub values: Vec<f64>,
}

/// A stacked bar chart: one bar per category (a dealer's upcard, say), each
/// split into the segments, stacked from the bottom in the given order, so
/// that every bar reaches 100%.
#[derive(Clone, Debug, PartialEq)]
pub struct StackedBarChart {
    /// The title above the chart.
    pub title: String,
    /// The line under the title in regular type: the parameters and the
    /// method (`draw 1, passes 1; Monte Carlo, 10,000,000 games, seed
    /// 1`), wrapped when long; empty for none.
    pub caption: String,
    /// How large the chart is drawn.
    pub size: FigureSize,
    /// The x axis description, e.g. `dealer's upcard`.
    pub x_label: String,
    /// The y axis description, e.g. `percent of hands`.
    pub y_label: String,
    /// Category labels along the x axis, one bar each, e.g. `2`, ..., `A`.
    pub categories: Vec<String>,
    /// The segments, from the bottom of the stack to its top.
    pub segments: Vec<Segment>,
}

/// One outcome of a [`ZPanel`].
#[derive(Clone, Debug, PartialEq)]
pub struct ZPoint {
    /// The outcome label under the x axis, e.g. `17` or `bust`.
    pub label: String,
    /// The outcome's z-score; `None` where it is undefined or was not
    /// tested. Such an outcome keeps its place on the x axis but gets no
    /// point.
    pub z: Option<f64>,
    /// True when the outcome was pooled with others for the chi-square test
    /// (too small an expected count), so its own z-score deserves less
    /// weight; it is drawn hollow.
    pub pooled: bool,
}

/// One compared distribution of a [`ZScorePlot`]: its outcomes in order.
#[derive(Clone, Debug, PartialEq)]
pub struct ZPanel {
    /// The heading above the panel, e.g. `K=1: χ² = 1146315.32, df 52, p <
    /// 0.0001: disagree`; empty for none. A heading too long for the panel
    /// is split after its first `": "`.
    pub title: String,
    /// The outcomes, in x order.
    pub points: Vec<ZPoint>,
}

/// The z-scores of a comparison: per outcome, `(observed - expected) /
/// standard error`, with one panel per compared distribution (each with its
/// own symmetric y range), and reference lines at 0, ±2 and, if given, the
/// critical value.
#[derive(Clone, Debug, PartialEq)]
pub struct ZScorePlot {
    /// The title above the plot.
    pub title: String,
    /// The line under the title in regular type: the parameters and the
    /// method (`draw 1, passes 1; Monte Carlo, 10,000,000 games, seed
    /// 1`), wrapped when long; empty for none.
    pub caption: String,
    /// How large the chart is drawn.
    pub size: FigureSize,
    /// The x axis description, e.g. `outcome`.
    pub x_label: String,
    /// The y axis description, e.g. `z = (observed - expected) / standard
    /// error`.
    pub y_label: String,
    /// The critical `|z|`, if the comparison has one: drawn as a reference
    /// line, and points beyond it are drawn as vermillion triangles.
    pub critical: Option<CriticalValue>,
    /// The panels, laid out in reading order.
    pub panels: Vec<ZPanel>,
}

/// A critical `|z|` of a [`ZScorePlot`].
#[derive(Clone, Debug, PartialEq)]
pub struct CriticalValue {
    /// The critical `|z|`, finite and positive.
    pub z: f64,
    /// How it was chosen, for the legend, e.g. `Bonferroni over 83 cells,
    /// level 0.05`; empty for nothing.
    pub description: String,
}

/// One panel of a [`PanelChart`]: one distribution's outcomes as bars.
#[derive(Clone, Debug, PartialEq)]
pub struct BarPanel {
    /// The heading above the panel, e.g. `cards left, K = 1`; empty for
    /// none. A heading too long for the panel is split after its first
    /// `": "`, else set smaller.
    pub title: String,
    /// Category labels along the x axis, e.g. `0`, `1`, ..., `52`.
    pub categories: Vec<String>,
    /// Probabilities in `[0, 1]`, one per category, drawn as bars.
    pub values: Vec<f64>,
    /// Optional 95% intervals `(low, high)`, one per category, drawn as
    /// error bars.
    pub intervals: Option<Vec<(f64, f64)>>,
    /// A logarithmic y axis for this panel (as [`BarChart::log_y`]).
    pub log_y: bool,
}

/// Small multiples: several distributions of one report, each as a bar
/// chart in a panel of its own, with its own y scale, under one title and
/// one legend.
#[derive(Clone, Debug, PartialEq)]
pub struct PanelChart {
    /// The title above the panels.
    pub title: String,
    /// The line under the title in regular type: the parameters and the
    /// method (`draw 1, passes 1; Monte Carlo, 10,000,000 games, seed
    /// 1`), wrapped when long; empty for none.
    pub caption: String,
    /// How large the chart is drawn.
    pub size: FigureSize,
    /// Every panel's y axis description, e.g. `percent of games`.
    pub y_label: String,
    /// The legend entry of the bars, e.g. `estimate from 10,000,000
    /// games` or `exact probability`.
    pub bars_name: String,
    /// The panels, laid out in reading order.
    pub panels: Vec<BarPanel>,
}

/// Means with their 95% intervals over categories (the value per round of
/// blackjack by true count, say): one point per category with its error
/// bar, against a zero line and, if given, a reference line; and, if
/// given, how often each category occurs, as bars in a panel underneath.
/// Values are in the chart's own units (the caller scales them, e.g. to
/// percent), and may be of either sign.
#[derive(Clone, Debug, PartialEq)]
pub struct MeanChart {
    /// The title above the chart.
    pub title: String,
    /// The line under the title in regular type: the parameters and the
    /// method (`draw 1, passes 1; Monte Carlo, 10,000,000 games, seed
    /// 1`), wrapped when long; empty for none.
    pub caption: String,
    /// How large the chart is drawn.
    pub size: FigureSize,
    /// The x axis description, e.g. `true count`.
    pub x_label: String,
    /// The y axis description of the means, e.g. `value per round (% of
    /// the bet)`.
    pub y_label: String,
    /// Category labels along the x axis, e.g. `≤-10`, `-9`, ..., `≥+10`.
    pub categories: Vec<String>,
    /// One mean per category; `None` where there is none (too few
    /// observations). Such a category keeps its place on the x axis but
    /// gets no point.
    pub means: Vec<Option<f64>>,
    /// One 95% interval `(low, high)` per category, in the means' units,
    /// drawn as an error bar; `None` for none. An interval needs its mean
    /// and contains it.
    pub intervals: Vec<Option<(f64, f64)>>,
    /// A horizontal line to set the means against, e.g. the mean of all
    /// observations.
    pub reference: Option<ReferenceLine>,
    /// How often each category occurs, drawn as bars in a panel under the
    /// means so that the reader sees where the observations are.
    pub frequencies: Option<Frequencies>,
}

/// The reference line of a [`MeanChart`].
#[derive(Clone, Debug, PartialEq)]
pub struct ReferenceLine {
    /// Where the line is, in the means' units; finite.
    pub value: f64,
    /// The legend entry, e.g. `all rounds: -0.41 %`.
    pub name: String,
}

/// The frequencies of a [`MeanChart`]'s categories, drawn as bars in
/// percent.
#[derive(Clone, Debug, PartialEq)]
pub struct Frequencies {
    /// The y axis description of the bars, e.g. `percent of rounds`.
    pub y_label: String,
    /// The fraction of all observations in each category, in `[0, 1]`, one
    /// per category.
    pub values: Vec<f64>,
}
