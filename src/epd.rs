//! EPD (Extended Position Description) reading: a 4-field FEN followed by
//! operations `opcode operand...;`, as used by test suites (WAC, Arasan, ...).
//!
//! Tolerances, all seen in real suite files: clocks written after the four
//! FEN fields are taken as halfmove clock and fullmove number (so are the
//! `hmvc` and `fmvn` operations); a final operation without its `;` is kept
//! (zugts.epd ends lines with free text such as `CCC post by ...`), and final
//! text that cannot be an operation is kept as `trailing_text`; `bm` and `am`
//! list SAN moves separated by spaces, with `+`/`#` allowed.

use std::path::Path;

use anyhow::Context;
use cozy_chess::{Board, Move};

use crate::position::{parse_fen, shorten};
use crate::san::parse_san;

/// An operation: opcode and operands.
pub type Operation = (String, String);

/// One EPD line.
#[derive(Clone, Debug)]
pub struct EpdRecord {
    pub board: Board,
    /// The position as a full 6-field FEN (normalized as `parse_fen` does).
    pub fen: String,
    /// The `id` operation's operand, if any.
    pub id: Option<String>,
    /// The `bm` (best move) moves, in the order listed.
    pub best_moves: Vec<Move>,
    /// The `am` (avoid move) moves, in the order listed.
    pub avoid_moves: Vec<Move>,
    /// Every operation in line order as (opcode, operands); a single quoted
    /// operand is stored without its quotes, anything else as written.
    pub ops: Vec<Operation>,
    /// Text after the last `;` that cannot be an operation (its first word is
    /// not an opcode), e.g. zugts.epd's `1 Kb2! Kg8 2 Ka1!!, draw`.
    pub trailing_text: Option<String>,
    /// Repairs `parse_fen` made to the position (see `position`'s module doc).
    pub warnings: Vec<String>,
}

impl EpdRecord {
    /// The operands of the first operation named `opcode`.
    pub fn op(&self, opcode: &str) -> Option<&str> {
        find_op(&self.ops, opcode)
    }
}

/// The readable records of an EPD file plus the lines that could not be read.
#[derive(Clone, Debug, Default)]
pub struct EpdFile {
    pub records: Vec<EpdRecord>,
    /// (1-based line number, what is wrong with it).
    pub errors: Vec<(usize, String)>,
}

/// Parses one EPD line. Blank lines and `#` comments are the caller's to skip.
pub fn parse_epd_line(line: &str) -> Result<EpdRecord, String> {
    let line = line.trim();
    if line.is_empty() {
        return Err("empty EPD line".to_string());
    }
    let (fields, rest) = split_fields(line, 4);
    if fields.len() < 4 {
        return Err(format!(
            "EPD line has {} position fields; expected 4 (placement, side to move, castling, en passant)",
            fields.len()
        ));
    }
    // Clocks written FEN-style after the four fields (opcodes never start with a digit).
    let (clock_fields, after_clocks) = split_fields(rest, 2);
    let (clocks, operations) = if clock_fields.len() == 2 && clock_fields.iter().all(|f| is_number(f)) {
        (Some((clock_fields[0], clock_fields[1])), after_clocks)
    } else {
        (None, rest)
    };

    let (ops, trailing_text) = parse_operations(operations)?;
    let halfmove = find_op(&ops, "hmvc").or(clocks.map(|(half, _)| half)).unwrap_or("0");
    let fullmove = find_op(&ops, "fmvn").or(clocks.map(|(_, full)| full)).unwrap_or("1");
    let fen = format!("{} {halfmove} {fullmove}", fields.join(" "));
    let (board, warnings) = parse_fen(&fen).map_err(|error| format!("bad position: {error}"))?;

    let best_moves = parse_move_list(&board, &ops, "bm")?;
    let avoid_moves = parse_move_list(&board, &ops, "am")?;
    Ok(EpdRecord {
        fen: board.to_string(),
        board,
        id: find_op(&ops, "id").map(str::to_string),
        best_moves,
        avoid_moves,
        ops,
        trailing_text,
        warnings,
    })
}

/// Reads an EPD file; a line that fails is recorded in `errors` and skipped.
/// Fails only when the file itself cannot be read.
pub fn read_epd_file(path: &Path) -> anyhow::Result<EpdFile> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read EPD file {}", path.display()))?;
    // Suite comments carry names in any encoding; the positions are ASCII.
    let text = String::from_utf8_lossy(&bytes);
    let mut file = EpdFile::default();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_epd_line(line) {
            Ok(record) => file.records.push(record),
            Err(error) => file.errors.push((index + 1, error)),
        }
    }
    Ok(file)
}

/// The first `count` whitespace-separated fields of `text` and what follows them.
fn split_fields(text: &str, count: usize) -> (Vec<&str>, &str) {
    let mut fields = Vec::with_capacity(count);
    let mut rest = text.trim_start();
    while fields.len() < count && !rest.is_empty() {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        fields.push(&rest[..end]);
        rest = rest[end..].trim_start();
    }
    (fields, rest)
}

fn is_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

fn find_op<'a>(ops: &'a [Operation], opcode: &str) -> Option<&'a str> {
    ops.iter().find(|(name, _)| name == opcode).map(|(_, operands)| operands.as_str())
}

/// Splits `opcode operand...;` operations; `;` inside double quotes does not
/// end one. A final segment without `;` is an operation when it starts with an
/// opcode and free trailing text otherwise.
fn parse_operations(text: &str) -> Result<(Vec<Operation>, Option<String>), String> {
    let mut terminated = Vec::new();
    let mut current = String::new();
    let mut in_quotes = false;
    for c in text.chars() {
        match c {
            '"' => {
                in_quotes = !in_quotes;
                current.push(c);
            }
            ';' if !in_quotes => terminated.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    if in_quotes {
        return Err(format!("unterminated quoted string in operations '{}'", shorten(text.trim())));
    }

    let mut operations: Vec<Operation> = terminated
        .iter()
        .map(|operation| operation.trim())
        .filter(|operation| !operation.is_empty())
        .map(parse_operation)
        .collect::<Result<_, _>>()?;
    let unterminated = current.trim();
    let mut trailing_text = None;
    if !unterminated.is_empty() {
        match parse_operation(unterminated) {
            Ok(operation) => operations.push(operation),
            Err(_) => trailing_text = Some(unterminated.to_string()),
        }
    }
    Ok((operations, trailing_text))
}

/// One `opcode operands` operation, already trimmed and without its `;`.
fn parse_operation(operation: &str) -> Result<Operation, String> {
    let end = operation.find(char::is_whitespace).unwrap_or(operation.len());
    let (opcode, operands) = (&operation[..end], operation[end..].trim());
    let well_formed = opcode.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && opcode.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !well_formed {
        return Err(format!("bad opcode '{}' in operation '{}'", shorten(opcode), shorten(operation)));
    }
    let unquoted =
        operands.strip_prefix('"').and_then(|inner| inner.strip_suffix('"')).filter(|inner| !inner.contains('"'));
    Ok((opcode.to_string(), unquoted.unwrap_or(operands).to_string()))
}

/// The SAN moves of the first `opcode` operation (`bm` or `am`).
fn parse_move_list(board: &Board, ops: &[Operation], opcode: &str) -> Result<Vec<Move>, String> {
    let Some(operands) = find_op(ops, opcode) else {
        return Ok(Vec::new());
    };
    if operands.is_empty() {
        return Err(format!("{opcode} operation has no move"));
    }
    operands
        .split_whitespace()
        .map(|san| parse_san(board, san).map_err(|error| format!("{opcode} move '{san}' does not parse: {error}")))
        .collect()
}
