//! A markdown table, as the lab's pages write them: a header line, the
//! columns' alignment (`|---|---:|`), then a line a row. One writer, so a
//! page says what its columns and rows are and nothing of pipes.

use std::fmt;

/// How a column's cells align: text left, numbers right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Align {
    Left,
    Right,
}

/// A table's header, its columns' alignment and its rows of cells.
#[derive(Clone, Debug, Default)]
pub struct Table {
    columns: Vec<(String, Align)>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table of no columns yet: `Table::new().left("variant").right("nodes")`.
    pub fn new() -> Table {
        Table::default()
    }

    /// Adds a column of text, aligned left.
    pub fn left(mut self, name: impl Into<String>) -> Table {
        self.columns.push((name.into(), Align::Left));
        self
    }

    /// Adds a column of numbers, aligned right.
    pub fn right(mut self, name: impl Into<String>) -> Table {
        self.columns.push((name.into(), Align::Right));
        self
    }

    /// Adds a row: one cell a column.
    pub fn push<C: ToString>(&mut self, cells: impl IntoIterator<Item = C>) {
        let row: Vec<String> = cells.into_iter().map(|cell| cell.to_string()).collect();
        assert_eq!(row.len(), self.columns.len(), "a row of {:?} in a table of {:?}", row, self.columns);
        self.rows.push(row);
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

/// `| a | b |`: one line of cells, each between spaces (an empty one too).
fn line(f: &mut fmt::Formatter<'_>, cells: impl Iterator<Item = impl fmt::Display>) -> fmt::Result {
    f.write_str("|")?;
    for cell in cells {
        write!(f, " {cell} |")?;
    }
    f.write_str("\n")
}

impl fmt::Display for Table {
    /// The header, the alignment line and the rows, each line ended.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        line(f, self.columns.iter().map(|(name, _)| name))?;
        f.write_str("|")?;
        for (_, align) in &self.columns {
            f.write_str(match align {
                Align::Left => "---|",
                Align::Right => "---:|",
            })?;
        }
        f.write_str("\n")?;
        for row in &self.rows {
            line(f, row.iter())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_is_its_header_its_alignment_and_a_line_a_row() {
        let mut table = Table::new().left("variant").right("nodes");
        assert!(table.is_empty());
        table.push(["a", "10"]);
        table.push([String::from("b"), 2.to_string()]);
        table.push(["", "-"]);
        assert_eq!(table.to_string(), "| variant | nodes |\n|---|---:|\n| a | 10 |\n| b | 2 |\n|  | - |\n");
    }

    #[test]
    #[should_panic(expected = "a row of")]
    fn a_row_has_a_cell_a_column() {
        Table::new().left("variant").right(String::from("nodes")).push(["a"]);
    }
}
