//! Plots as SVG text, for `lab report`'s page, the book's figures and
//! `lab tune`'s paths.
//!
//! plotters draws each plot's frame, axes, captions, lines and bands into a
//! string. Each data point is a [`Mark`] placed by the chart's own
//! coordinates, which carries its numbers in `data-*` attributes: a reader
//! hovering over it sees them (its `<title>`), and a test reads back what
//! was plotted ([`read_marks`]).

use std::fmt::Write;

use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Every plot's width in pixels.
pub const WIDTH: u32 = 900;

/// The axes' labels, the same size on a plot of any height (plotters
/// scales its default with the canvas).
pub const LABELS: (&str, u32) = ("sans-serif", 12);

/// A gain, or a claim that holds.
pub const GAIN: RGBColor = RGBColor(46, 125, 50);
/// A loss, or a claim that does not hold.
pub const LOSS: RGBColor = RGBColor(198, 40, 40);
/// Undecided, or neither way.
pub const GREY: RGBColor = RGBColor(120, 120, 120);
/// A fit, prunelab beside another engine, a tuned value.
pub const BLUE: RGBColor = RGBColor(21, 101, 192);
/// Another engine beside prunelab.
pub const ORANGE: RGBColor = RGBColor(230, 120, 0);

/// A data point as drawn: its name, its numbers and its shapes (SVG
/// elements in the canvas's pixels).
pub struct Mark {
    attributes: Vec<(String, String)>,
    shapes: String,
}

impl Mark {
    /// A mark named `label` (`data-label`).
    pub fn new(label: &str) -> Mark {
        Mark { attributes: vec![("label".into(), label.into())], shapes: String::new() }
    }

    /// Carries `value` as `data-NAME`, written so that it reads back as the
    /// same `f64`.
    pub fn value(self, name: &str, value: f64) -> Mark {
        self.text(name, &value.to_string())
    }

    /// Carries `text` as `data-NAME`.
    pub fn text(mut self, name: &str, text: &str) -> Mark {
        self.attributes.push((name.into(), text.into()));
        self
    }

    pub fn circle(mut self, (x, y): (i32, i32), radius: u32, colour: RGBColor, filled: bool) -> Mark {
        let fill = if filled { css(colour) } else { "white".to_string() };
        write!(
            self.shapes,
            r#"<circle cx="{x}" cy="{y}" r="{radius}" fill="{fill}" stroke="{}" stroke-width="1.5"/>"#,
            css(colour)
        )
        .unwrap();
        self
    }

    pub fn line(mut self, (x1, y1): (i32, i32), (x2, y2): (i32, i32), colour: RGBColor, width: u32) -> Mark {
        write!(
            self.shapes,
            r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{}" stroke-width="{width}"/>"#,
            css(colour)
        )
        .unwrap();
        self
    }

    /// A rectangle between two corners, `opacity` from 0 to 1.
    pub fn rect(mut self, (x1, y1): (i32, i32), (x2, y2): (i32, i32), colour: RGBColor, opacity: f64) -> Mark {
        let (x, y, width, height) = (x1.min(x2), y1.min(y2), (x1 - x2).abs().max(1), (y1 - y2).abs().max(1));
        write!(
            self.shapes,
            r#"<rect x="{x}" y="{y}" width="{width}" height="{height}" fill="{}" fill-opacity="{opacity}"/>"#,
            css(colour)
        )
        .unwrap();
        self
    }

    fn svg(&self) -> String {
        let attributes: String =
            self.attributes.iter().map(|(name, value)| format!(r#" data-{name}="{}""#, escape(value))).collect();
        let title: Vec<String> = self.attributes.iter().map(|(name, value)| format!("{name} {value}")).collect();
        format!("<g class=\"mark\"{attributes}><title>{}</title>{}</g>\n", escape(&title.join(", ")), self.shapes)
    }
}

/// `rgb(46,125,50)`.
fn css(colour: RGBColor) -> String {
    format!("rgb({},{},{})", colour.0, colour.1, colour.2)
}

/// Text made safe inside an XML attribute or element.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// An SVG of `size`: `plot` draws on its canvas with plotters and returns
/// the marks of its data points, which go on top.
pub fn draw(
    size: (u32, u32),
    plot: impl for<'a> FnOnce(&DrawingArea<SVGBackend<'a>, Shift>) -> Result<Vec<Mark>>,
) -> Result<String> {
    let mut text = String::new();
    let marks = {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        root.fill(&WHITE)?;
        let marks = plot(&root)?;
        root.present()?;
        marks
    };
    let group: String = marks.iter().map(Mark::svg).collect();
    let end = text.rfind("</svg>").unwrap_or(text.len());
    text.insert_str(end, &format!("<g class=\"marks\">\n{group}</g>\n"));
    Ok(text)
}

/// What a symbol of a figure stands for, in its key.
#[derive(Clone, Copy)]
pub enum Key {
    /// A data point, filled or hollow.
    Point(RGBColor, bool),
    /// An interval: a bar through a point.
    Interval(RGBColor),
    /// An interval on a vertical axis: an upright bar with caps.
    Bar(RGBColor),
    /// A line, as a fit's.
    Line(RGBColor),
    /// A shaded area, as a band or a claimed range.
    Shade(RGBColor),
}

/// Rows of a key, each entry a symbol and its words, laid out from the left
/// and wrapped at the plot's width.
pub fn key_rows(entries: &[(Key, String)]) -> Vec<Vec<(Key, String)>> {
    let width = |text: &str| key_entry_width(text);
    let mut rows: Vec<Vec<(Key, String)>> = vec![Vec::new()];
    let mut used = 0;
    for (key, text) in entries {
        let needed = width(text);
        if used + needed > WIDTH as i32 - 24 && !rows.last().unwrap().is_empty() {
            rows.push(Vec::new());
            used = 0;
        }
        rows.last_mut().unwrap().push((*key, text.clone()));
        used += needed;
    }
    rows
}

/// An entry's width in a key: 28 pixels for the symbol, about 5.5 a
/// character at the labels' size, and a gap.
fn key_entry_width(text: &str) -> i32 {
    28 + (text.chars().count() as i32 * 11) / 2 + 20
}

/// The height in pixels of a key of `entries`.
pub fn key_height(entries: &[(Key, String)]) -> u32 {
    18 * key_rows(entries).len() as u32 + 8
}

/// Draws a key of `entries` on `area` (a strip below the plot, as tall as
/// [`key_height`]).
pub fn draw_key<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, entries: &[(Key, String)]) -> Result<()>
where
    DB::ErrorType: 'static,
{
    for (row, items) in key_rows(entries).iter().enumerate() {
        let y = 12 + 18 * row as i32;
        let mut x = 24;
        for (key, text) in items {
            match *key {
                Key::Point(colour, filled) => {
                    let style = if filled { colour.filled() } else { colour.stroke_width(2) };
                    area.draw(&Circle::new((x + 10, y), 4, style))?;
                }
                Key::Interval(colour) => {
                    area.draw(&PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(2)))?;
                    area.draw(&Circle::new((x + 10, y), 4, colour.filled()))?;
                }
                Key::Bar(colour) => {
                    area.draw(&PathElement::new([(x + 10, y - 7), (x + 10, y + 7)], colour))?;
                    area.draw(&PathElement::new([(x + 7, y - 7), (x + 13, y - 7)], colour))?;
                    area.draw(&PathElement::new([(x + 7, y + 7), (x + 13, y + 7)], colour))?;
                }
                Key::Line(colour) => area.draw(&PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(2)))?,
                Key::Shade(colour) => {
                    area.draw(&Rectangle::new([(x, y - 6), (x + 20, y + 6)], colour.mix(0.2).filled()))?
                }
            }
            area.draw(&Text::new(text.clone(), (x + 28, y - 6), LABELS))?;
            x += key_entry_width(text);
        }
    }
    Ok(())
}

/// An axis's tick: `50`, `-2.5`, no `.0` on a whole number.
pub fn tick(value: &f64) -> String {
    let rounded = (value * 1000.0).round() / 1000.0;
    if rounded == rounded.trunc() {
        format!("{}", rounded as i64)
    } else {
        format!("{rounded}")
    }
}

/// A range that holds every value and `also` (0 on an axis of changes),
/// widened by a tenth on each side, and at least `min_span` wide.
pub fn padded_range(values: impl IntoIterator<Item = f64>, also: f64, min_span: f64) -> std::ops::Range<f64> {
    let (low, high) = values
        .into_iter()
        .filter(|value| value.is_finite())
        .fold((also, also), |(low, high), value| (low.min(value), high.max(value)));
    let margin = ((high - low) * 0.1).max(min_span / 2.0);
    (low - margin)..(high + margin)
}

/// The marks of an SVG, each as its `data-*` attributes (name without
/// `data-`, value unescaped), in order.
#[cfg(test)]
pub fn read_marks(svg: &str) -> Vec<std::collections::BTreeMap<String, String>> {
    let unescape =
        |text: &str| text.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    svg.split("<g class=\"mark\"")
        .skip(1)
        .map(|rest| {
            let head = &rest[..rest.find('>').unwrap()];
            head.split("\" ")
                .filter_map(|pair| {
                    let (name, value) = pair.trim().split_once("=\"")?;
                    Some((name.strip_prefix("data-")?.to_string(), unescape(value.trim_end_matches('"'))))
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_carry_their_numbers_exactly_and_their_names_escaped() {
        let svg = draw((200, 100), |root| {
            let chart = ChartBuilder::on(root).build_cartesian_2d(0.0..1.0, 0.0..1.0)?;
            let at = chart.backend_coord(&(0.5, 0.5));
            Ok(vec![Mark::new("a \"b\" <c> & d")
                .value("value", 0.1 + 0.2)
                .text("verdict", "holds")
                .circle(at, 3, GAIN, true)])
        })
        .unwrap();
        assert!(svg.trim_end().ends_with("</svg>"), "{svg}");
        let marks = read_marks(&svg);
        assert_eq!(marks.len(), 1);
        assert_eq!(marks[0]["label"], "a \"b\" <c> & d");
        assert_eq!(marks[0]["value"].parse::<f64>().unwrap(), 0.1 + 0.2);
        assert_eq!(marks[0]["verdict"], "holds");
        assert_eq!(padded_range([2.0, 4.0], 0.0, 0.5), -0.4..4.4);
        assert_eq!(padded_range([2.0, f64::INFINITY], 3.0, 2.0), 1.0..4.0);
        assert_eq!([-200.0, 0.0, 50.0, -2.5, 0.1 + 0.2].map(|value| tick(&value)), ["-200", "0", "50", "-2.5", "0.3"]);
    }

    #[test]
    fn a_key_wraps_at_the_plots_width() {
        let entry = |words: usize| (Key::Line(GREY), vec!["word"; words].join(" "));
        assert_eq!(key_rows(&[entry(2), entry(3)]).len(), 1);
        // Each 48 + 54 · 5.5 = 345 pixels: two fit a row of 876.
        let wide: Vec<(Key, String)> = (0..5).map(|_| entry(11)).collect();
        assert_eq!(key_rows(&wide).iter().map(Vec::len).collect::<Vec<_>>(), [2, 2, 1]);
        assert_eq!(key_height(&wide), 18 * 3 + 8);
    }
}
