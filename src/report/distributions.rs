//! (stub, being written) Rendering of reports of distributions.

use super::{Format, RenderOptions, Report};

/// Renders `report` in `format`.
pub fn render(_report: &Report, _format: Format, _options: &RenderOptions) -> String {
    String::new()
}
