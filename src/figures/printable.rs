//! Text drawn into a figure is shown printable: a control character is written as its escape
//! (`\u{1b}`), as kpk's messages quote user input. XML allows no control character but tab, line
//! feed and carriage return, so an SVG with a user's title stays well-formed; a PNG shows the
//! same text.

use super::plot::LineChart;

impl LineChart {
    /// The chart with its title, axis labels and series labels shown printable.
    pub(crate) fn printable(&self) -> LineChart {
        let mut chart = self.clone();
        let texts = [&mut chart.title, &mut chart.x_label, &mut chart.y_label]
            .into_iter()
            .chain(chart.y2.as_mut().map(|(label, _)| label))
            .chain(chart.series.iter_mut().map(|s| &mut s.label));
        for text in texts {
            *text = kpk_probe::quote::escape_controls(text);
        }
        chart
    }
}
