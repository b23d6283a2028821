//! CSV (RFC 4180): a header row, fields separated by commas, a field quoted when it holds a
//! comma, a quote or a line break (quotes doubled), lines ended by CRLF. Nulls are empty
//! fields; dates are `YYYY-MM-DD`, times `HH:MM:SS`; maps and lists are JSON text.

use std::io;

use arrow_array::{
    Array, ArrayRef, RecordBatch,
    cast::AsArray,
    types::{Date32Type, Int16Type, Int32Type, Int64Type, Time32SecondType, UInt8Type, UInt64Type},
};
use arrow_schema::{DataType, Schema, TimeUnit};

/// The header row of a CSV file of `schema`: the column names.
pub(crate) fn header(schema: &Schema, out: &mut Vec<u8>) {
    let mut line = String::new();
    for (i, field) in schema.fields().iter().enumerate() {
        if i > 0 {
            line.push(',');
        }
        push_field(&mut line, field.name());
    }
    line.push_str("\r\n");
    out.extend_from_slice(line.as_bytes());
}

/// The rows of `batch`, one CSV line each, appended to `out`.
pub(crate) fn rows(batch: &RecordBatch, out: &mut Vec<u8>) -> io::Result<()> {
    let mut line = String::new();
    let mut cell = String::new();
    for row in 0..batch.num_rows() {
        line.clear();
        for (i, column) in batch.columns().iter().enumerate() {
            if i > 0 {
                line.push(',');
            }
            cell.clear();
            format_cell(&mut cell, column, row)?;
            push_field(&mut line, &cell);
        }
        line.push_str("\r\n");
        out.extend_from_slice(line.as_bytes());
    }
    Ok(())
}

/// Appends `text` as one field, quoted when it must be.
fn push_field(line: &mut String, text: &str) {
    if text.contains([',', '"', '\r', '\n']) {
        line.push('"');
        line.push_str(&text.replace('"', "\"\""));
        line.push('"');
    } else {
        line.push_str(text);
    }
}

/// The text of one cell (empty for a null).
fn format_cell(out: &mut String, column: &ArrayRef, row: usize) -> io::Result<()> {
    use std::fmt::Write as _;
    if column.is_null(row) {
        return Ok(());
    }
    match column.data_type() {
        DataType::Utf8 => out.push_str(column.as_string::<i32>().value(row)),
        DataType::Int16 => {
            let _ = write!(out, "{}", column.as_primitive::<Int16Type>().value(row));
        }
        DataType::Int32 => {
            let _ = write!(out, "{}", column.as_primitive::<Int32Type>().value(row));
        }
        DataType::Int64 => {
            let _ = write!(out, "{}", column.as_primitive::<Int64Type>().value(row));
        }
        DataType::Boolean => out.push_str(if column.as_boolean().value(row) {
            "true"
        } else {
            "false"
        }),
        DataType::UInt8 => {
            let _ = write!(out, "{}", column.as_primitive::<UInt8Type>().value(row));
        }
        DataType::FixedSizeList(item, _) if item.data_type() == &DataType::UInt64 => {
            let list = column.as_fixed_size_list().value(row);
            let values = list.as_primitive::<UInt64Type>();
            let values: Vec<serde_json::Value> =
                values.values().iter().map(|&v| v.into()).collect();
            out.push_str(&serde_json::Value::Array(values).to_string());
        }
        DataType::UInt64 => {
            let _ = write!(out, "{}", column.as_primitive::<UInt64Type>().value(row));
        }
        DataType::Date32 => {
            let (y, m, d) = civil_from_days(column.as_primitive::<Date32Type>().value(row));
            let _ = write!(out, "{y:04}-{m:02}-{d:02}");
        }
        DataType::Time32(TimeUnit::Second) => {
            let s = column.as_primitive::<Time32SecondType>().value(row);
            let _ = write!(out, "{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
        }
        DataType::Map(..) => {
            let map = column.as_map();
            let entries = map.value(row);
            let keys = entries.column(0).as_string::<i32>();
            let values = entries.column(1).as_string::<i32>();
            let object: serde_json::Map<String, serde_json::Value> = (0..keys.len())
                .map(|i| {
                    let value = if values.is_null(i) {
                        serde_json::Value::Null
                    } else {
                        values.value(i).into()
                    };
                    (keys.value(i).to_owned(), value)
                })
                .collect();
            out.push_str(&serde_json::Value::Object(object).to_string());
        }
        DataType::List(item) => {
            let list = column.as_list::<i32>().value(row);
            let values: Vec<serde_json::Value> = match item.data_type() {
                DataType::Utf8 => {
                    let strings = list.as_string::<i32>();
                    (0..strings.len())
                        .map(|i| strings.value(i).into())
                        .collect()
                }
                DataType::UInt8 => {
                    let bytes = list.as_primitive::<UInt8Type>();
                    (0..bytes.len()).map(|i| bytes.value(i).into()).collect()
                }
                other => return Err(unsupported(other)),
            };
            out.push_str(&serde_json::Value::Array(values).to_string());
        }
        other => return Err(unsupported(other)),
    }
    Ok(())
}

fn unsupported(data_type: &DataType) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("a {data_type} column cannot be written as CSV"),
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's
/// civil_from_days).
pub(crate) fn civil_from_days(days: i32) -> (i32, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i32::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_when_they_must_be() {
        let mut line = String::new();
        for text in ["plain", "a,b", "say \"hi\"", "two\nlines", ""] {
            push_field(&mut line, text);
            line.push('|');
        }
        assert_eq!(line, "plain|\"a,b\"|\"say \"\"hi\"\"\"|\"two\nlines\"||");
    }

    #[test]
    fn days_round_trip() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_737), (2024, 1, 15));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        for days in (-800_000..800_000).step_by(997) {
            let (y, m, d) = civil_from_days(days);
            let text = format!("{y:04}.{m:02}.{d:02}");
            if (0..=9999).contains(&y) {
                assert_eq!(crate::rows::parse_date(&text), Some(days), "{text}");
            }
        }
    }
}
