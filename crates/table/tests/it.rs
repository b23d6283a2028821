//! Tables written from the fixtures and read back with the `parquet`/`arrow` crates: every
//! column checked on games with clocks and evaluations, Chess960 and set-up starts, bad games;
//! counts add up; CSV, hive partitions and nested moves checked the same way.

#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use std::{fs, path::Path};

use arrow_array::{
    Array, ArrayRef, RecordBatch,
    cast::AsArray,
    types::{
        Date32Type, Int16Type, Int32Type, Int64Type, Time32MillisecondType, UInt8Type, UInt64Type,
    },
};
use arrow_select::concat::concat_batches;
use parquet::{arrow::arrow_reader::ParquetRecordBatchReaderBuilder, file::reader::FileReader};
use tabia_notation::pgn::PgnReader;
use tabia_table::{
    Columns, FileFormat, GameRecord, Partition, ReadOptions, Rows, SCHEMA_VERSION, TableOptions,
    TableWriter, Written, games_schema,
};

/// The fixtures: lichess games with clocks and evaluations, Chess960 and set-up starts, and
/// games that cannot be read (syntax errors, illegal moves, a bad FEN, an unknown variant).
fn fixture_pgn() -> Vec<u8> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let mut bytes = Vec::new();
    for file in [
        "pgn/ok/clocks-evals.pgn",
        "position/ok/chess960-and-setup.pgn",
        "pgn/err/garbage.pgn",
        "position/err/illegal.pgn",
    ] {
        bytes.extend(fs::read(root.join(file)).expect("fixture"));
        bytes.extend(b"\n\n");
    }
    bytes
}

/// Every game of the fixtures, read.
fn records(read: ReadOptions) -> Vec<GameRecord> {
    let bytes = fixture_pgn();
    PgnReader::new(&bytes[..])
        .raw_games()
        .enumerate()
        .map(|(i, raw)| GameRecord::read(&raw.expect("splits"), i as u64 + 1, read))
        .collect()
}

/// Writes the fixtures' games in batches of `batch` games.
fn write(out: &Path, options: TableOptions, batch: usize) -> Written {
    let mut writer = TableWriter::create(out, options).expect("created");
    for chunk in records(options.read_options()).chunks(batch) {
        let mut rows = Rows::default();
        for record in chunk {
            rows.push("fixtures.pgn", record);
        }
        writer
            .write(
                rows.finish(options.columns, options.moves)
                    .expect("columns"),
            )
            .expect("written");
    }
    writer.finish().expect("closed")
}

fn read_parquet(path: &Path) -> RecordBatch {
    let file = fs::File::open(path).expect("parquet file");
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).expect("parquet");
    let schema = builder.schema().clone();
    let batches: Vec<RecordBatch> = builder
        .build()
        .expect("reader")
        .map(|b| b.expect("batch"))
        .collect();
    concat_batches(&schema, &batches).expect("same schema")
}

fn col<'a>(batch: &'a RecordBatch, name: &str) -> &'a ArrayRef {
    batch
        .column_by_name(name)
        .unwrap_or_else(|| panic!("no column {name}"))
}

fn string(batch: &RecordBatch, name: &str, row: usize) -> Option<String> {
    let c = col(batch, name).as_string::<i32>();
    (!c.is_null(row)).then(|| c.value(row).to_owned())
}

fn strings(batch: &RecordBatch, name: &str, row: usize) -> Vec<String> {
    let list = col(batch, name).as_list::<i32>().value(row);
    let s = list.as_string::<i32>();
    (0..s.len()).map(|i| s.value(i).to_owned()).collect()
}

fn tags(batch: &RecordBatch, row: usize) -> Vec<(String, String)> {
    let entries = col(batch, "tags").as_map().value(row);
    let (k, v) = (
        entries.column(0).as_string::<i32>(),
        entries.column(1).as_string::<i32>(),
    );
    (0..k.len())
        .map(|i| (k.value(i).to_owned(), v.value(i).to_owned()))
        .collect()
}

fn opt<T: arrow_array::ArrowPrimitiveType>(
    batch: &RecordBatch,
    name: &str,
    row: usize,
) -> Option<T::Native> {
    let c = col(batch, name).as_primitive::<T>();
    (!c.is_null(row)).then(|| c.value(row))
}

#[test]
fn games_and_moves_read_back_column_by_column() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.parquet");
    let options = TableOptions {
        moves: true,
        ..TableOptions::default()
    };
    let written = write(&out, options, 5);
    let expected = records(options.read_options());
    let games = read_parquet(&out);
    let moves = read_parquet(&dir.path().join("games.moves.parquet"));

    // Counts add up: one row per game read, bad ones included; one move row per ply.
    assert_eq!(games.num_rows(), expected.len());
    assert_eq!(written.games, expected.len() as u64);
    let bad = expected.iter().filter(|r| !r.errors.is_empty()).count();
    assert!(bad >= 8, "the fixtures' bad games: {bad}");
    let with_errors = (0..games.num_rows())
        .filter(|&r| !strings(&games, "errors", r).is_empty())
        .count();
    assert_eq!(with_errors, bad);
    let plies: i64 = (0..games.num_rows())
        .filter_map(|r| opt::<Int32Type>(&games, "ply_count", r))
        .map(i64::from)
        .sum();
    assert_eq!(moves.num_rows() as i64, plies);
    assert_eq!(written.moves, plies as u64);

    // The schema: the lichess columns first, with their types; UTCTime as Parquet TIME(MILLIS).
    let names: Vec<&str> = games
        .schema_ref()
        .fields()
        .iter()
        .map(|f| f.name().as_str())
        .collect::<Vec<_>>()
        .into_iter()
        .collect();
    let ours: Vec<String> = games_schema(Columns::default())
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(names, ours);
    assert_eq!(&names[..4], ["Event", "Site", "White", "Black"]);

    // Game 1: a lichess game with clocks and evaluations.
    let r = 0;
    assert_eq!(
        string(&games, "Event", r).as_deref(),
        Some("Rated Blitz game")
    );
    assert_eq!(
        string(&games, "Site", r).as_deref(),
        Some("https://lichess.org/abcd1234")
    );
    assert_eq!(string(&games, "White", r).as_deref(), Some("alice"));
    assert_eq!(string(&games, "Black", r).as_deref(), Some("bob"));
    assert_eq!(string(&games, "Result", r).as_deref(), Some("1-0"));
    assert_eq!(string(&games, "WhiteTitle", r).as_deref(), Some("FM"));
    assert_eq!(string(&games, "BlackTitle", r), None);
    assert_eq!(opt::<Int16Type>(&games, "WhiteElo", r), Some(1850));
    assert_eq!(opt::<Int16Type>(&games, "BlackElo", r), Some(1790));
    assert_eq!(opt::<Int16Type>(&games, "WhiteRatingDiff", r), Some(6));
    assert_eq!(opt::<Int16Type>(&games, "BlackRatingDiff", r), Some(-6));
    assert_eq!(opt::<Date32Type>(&games, "UTCDate", r), Some(19_737));
    assert_eq!(
        opt::<Time32MillisecondType>(&games, "UTCTime", r),
        Some((12 * 3600 + 34 * 60 + 56) * 1000)
    );
    assert_eq!(string(&games, "ECO", r).as_deref(), Some("C20"));
    assert_eq!(
        string(&games, "Opening", r).as_deref(),
        Some("King's Pawn Game")
    );
    assert_eq!(string(&games, "Termination", r).as_deref(), Some("Normal"));
    assert_eq!(string(&games, "TimeControl", r).as_deref(), Some("180+2"));
    let movetext = string(&games, "movetext", r).unwrap();
    assert!(
        movetext.starts_with("1. e4 { [%eval 0.17] [%clk 0:03:00] } 1... e5"),
        "{movetext}"
    );
    assert!(movetext.ends_with("[%csl Re8] } 1-0"), "{movetext}");
    assert_eq!(string(&games, "file", r).as_deref(), Some("fixtures.pgn"));
    assert_eq!(opt::<Int64Type>(&games, "game", r), Some(1));
    assert_eq!(opt::<Int64Type>(&games, "offset", r), Some(0));
    assert_eq!(opt::<Int64Type>(&games, "line", r), Some(1));
    assert_eq!(string(&games, "Date", r).as_deref(), Some("2024.01.15"));
    assert_eq!(string(&games, "Round", r).as_deref(), Some("-"));
    assert_eq!(string(&games, "Variant", r), None);
    assert_eq!(string(&games, "FEN", r), None);
    assert_eq!(opt::<Int32Type>(&games, "ply_count", r), Some(7));
    let opening = expected[0].opening.expect("named by position");
    assert_eq!(
        string(&games, "eco_by_position", r).as_deref(),
        Some(opening.eco())
    );
    assert_eq!(
        string(&games, "opening_by_position", r).as_deref(),
        Some(opening.name())
    );
    assert_eq!(tags(&games, r), []);
    assert_eq!(strings(&games, "errors", r), Vec::<String>::new());
    assert_eq!(strings(&games, "warnings", r), Vec::<String>::new());

    // Its moves.
    assert_eq!(string(&moves, "file", 0).as_deref(), Some("fixtures.pgn"));
    let game_col = col(&moves, "game").as_primitive::<Int64Type>();
    let first: Vec<usize> = (0..moves.num_rows())
        .filter(|&i| game_col.value(i) == 1)
        .collect();
    assert_eq!(first, (0..7).collect::<Vec<_>>());
    let ply = |i| opt::<Int32Type>(&moves, "ply", i);
    assert_eq!((ply(0), ply(6)), (Some(1), Some(7)));
    assert_eq!(string(&moves, "san", 2).as_deref(), Some("Qh5"));
    assert_eq!(string(&moves, "uci", 2).as_deref(), Some("d1h5"));
    assert_eq!(
        opt::<Int64Type>(&moves, "clock_ms", 2),
        Some(2 * 60_000 + 58_300)
    );
    assert_eq!(opt::<Int64Type>(&moves, "emt_ms", 2), None);
    assert_eq!(opt::<Int32Type>(&moves, "eval_cp", 4), Some(-30));
    assert_eq!(opt::<Int32Type>(&moves, "eval_mate", 4), None);
    assert_eq!(opt::<Int32Type>(&moves, "eval_mate", 5), Some(1));
    assert_eq!(opt::<Int32Type>(&moves, "eval_cp", 5), None);
    let nags = col(&moves, "nags").as_list::<i32>();
    assert_eq!(
        nags.value(5).as_primitive::<UInt8Type>().values().to_vec(),
        [4]
    );
    assert_eq!(nags.value(0).len(), 0);
    assert_eq!(string(&moves, "comment", 6).as_deref(), Some("Checkmate."));
    assert_eq!(string(&moves, "comment", 0), None);
    let zobrist = |i| opt::<UInt64Type>(&moves, "zobrist", i);
    assert_eq!(zobrist(6), opt::<UInt64Type>(&games, "final_zobrist", 0));
    assert_eq!(zobrist(6), expected[0].moves[6].zobrist.into());

    // Game 2: an Elo that does not read is null, its raw text kept in `tags` with the others.
    assert_eq!(opt::<Int16Type>(&games, "WhiteElo", 1), None);
    assert_eq!(opt::<Int16Type>(&games, "BlackElo", 1), Some(2000));
    assert_eq!(
        tags(&games, 1),
        [
            ("WhiteElo".to_owned(), "?".to_owned()),
            ("Annotator".to_owned(), "engine".to_owned())
        ]
    );
    assert_eq!(opt::<Int64Type>(&moves, "emt_ms", 9), Some(5_000));
    assert_eq!(opt::<Int32Type>(&moves, "eval_mate", 10), Some(-3));

    // Chess960 and set-up starts: Variant and FEN kept, no opening by position.
    let chess960 = (0..games.num_rows())
        .find(|&r| string(&games, "Variant", r).as_deref() == Some("Chess960"))
        .expect("a Chess960 game");
    assert!(string(&games, "FEN", chess960).is_some());
    assert_eq!(string(&games, "eco_by_position", chess960), None);
    assert!(opt::<Int32Type>(&games, "ply_count", chess960).is_some());

    // Every game as expected, every tag in a column or in `tags`, none lost.
    for (r, record) in expected.iter().enumerate() {
        assert_eq!(opt::<Int64Type>(&games, "game", r), Some(r as i64 + 1));
        let errors = strings(&games, "errors", r);
        let wanted: Vec<String> = record.errors.iter().map(ToString::to_string).collect();
        assert_eq!(errors, wanted);
        let warnings: Vec<String> = record.warnings.iter().map(ToString::to_string).collect();
        assert_eq!(strings(&games, "warnings", r), warnings);
        let in_map = tags(&games, r);
        for (name, value) in &record.tags {
            let in_column = games
                .column_by_name(name)
                .filter(|c| c.data_type() == &arrow_schema::DataType::Utf8)
                .is_some_and(|_| string(&games, name, r).as_ref() == Some(value));
            let typed = games.column_by_name(name).is_some_and(|c| !c.is_null(r));
            assert!(
                in_column || typed || in_map.contains(&(name.clone(), value.clone())),
                "game {}: tag {name} = {value:?} lost",
                r + 1
            );
        }
        assert_eq!(
            opt::<Int32Type>(&games, "ply_count", r),
            record.plies.map(|p| p as i32)
        );
    }
    let errors: Vec<String> = (0..games.num_rows())
        .flat_map(|r| strings(&games, "errors", r))
        .collect();
    assert!(
        errors
            .iter()
            .any(|e| e.ends_with("illegal move 4... Nc6 (ply 8): no black knight can go to c6")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("unexpected token in movetext")),
        "{errors:?}"
    );

    // The metadata names the schema version and the table.
    let reader =
        parquet::file::reader::SerializedFileReader::new(fs::File::open(&out).unwrap()).unwrap();
    let kv = reader
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .cloned()
        .unwrap_or_default();
    let get = |k: &str| kv.iter().find(|e| e.key == k).and_then(|e| e.value.clone());
    assert_eq!(get("schema_version").as_deref(), Some(SCHEMA_VERSION));
    assert_eq!(get("tabia.table").as_deref(), Some("games"));
    let compression = reader.metadata().row_group(0).column(0).compression();
    assert!(
        matches!(compression, parquet::basic::Compression::ZSTD(_)),
        "{compression:?}"
    );
}

#[test]
fn batching_does_not_change_the_tables() {
    let dir = tempfile::tempdir().unwrap();
    let options = TableOptions {
        moves: true,
        ..TableOptions::default()
    };
    let (a, b) = (dir.path().join("a.parquet"), dir.path().join("b.parquet"));
    write(&a, options, 1);
    write(&b, options, 100);
    assert_eq!(read_parquet(&a), read_parquet(&b));
    assert_eq!(
        read_parquet(&dir.path().join("a.moves.parquet")),
        read_parquet(&dir.path().join("b.moves.parquet"))
    );
}

/// The row groups of each file, as numbers of rows.
fn row_groups(path: &Path) -> Vec<i64> {
    let reader =
        parquet::file::reader::SerializedFileReader::new(fs::File::open(path).unwrap()).unwrap();
    reader
        .metadata()
        .row_groups()
        .iter()
        .map(|g| g.num_rows())
        .collect()
}

#[test]
fn pieces_pushed_into_one_encoding_make_one_row_group() {
    let dir = tempfile::tempdir().unwrap();
    for (partition, row_group_rows) in [
        (Partition::None, 1 << 20),
        (Partition::None, 7),
        (Partition::YearMonth, 1 << 20),
    ] {
        let options = TableOptions {
            moves: true,
            partition,
            row_group_rows,
            ..TableOptions::default()
        };
        let name = format!("{partition:?}-{row_group_rows}");
        let (one, pieces) = (dir.path().join(&name), dir.path().join(format!("{name}-p")));
        let (one, pieces) = match partition {
            Partition::None => (
                one.with_extension("parquet"),
                pieces.with_extension("parquet"),
            ),
            _ => (one, pieces),
        };
        // The same games as one batch, and as one encoding fed a game at a time.
        let whole = write(&one, options, usize::MAX);
        let mut writer = TableWriter::create(&pieces, options).unwrap();
        let mut encoding = writer.encoder().start();
        for record in records(options.read_options()) {
            let mut rows = Rows::default();
            rows.push("fixtures.pgn", &record);
            encoding
                .push(&rows.finish(options.columns, options.moves).unwrap())
                .unwrap();
        }
        writer.write_encoded(encoding.finish().unwrap()).unwrap();
        let pieced = writer.finish().unwrap();
        assert_eq!(
            (pieced.games, pieced.moves),
            (whole.games, whole.moves),
            "{name}"
        );
        let files = |out: &Path| match partition {
            Partition::None => vec![out.to_path_buf(), out.with_extension("moves.parquet")],
            _ => {
                let mut files = parquet_files(out);
                files.extend(parquet_files(&out.with_extension("moves")));
                files
            }
        };
        let (a, b) = (files(&one), files(&pieces));
        assert_eq!(a.len(), b.len(), "{name}");
        for (a, b) in a.iter().zip(&b) {
            assert_eq!(read_parquet(a), read_parquet(b), "{}", b.display());
            // One row group per table and partition, split at `row_group_rows` rows: the
            // same groups as the whole batch made.
            let groups = row_groups(b);
            assert_eq!(groups, row_groups(a), "{}", b.display());
            assert!(
                groups.iter().all(|&n| n as usize <= row_group_rows),
                "{groups:?}"
            );
            let full = groups
                .iter()
                .rev()
                .skip(1)
                .all(|&n| n as usize == row_group_rows);
            assert!(
                full,
                "only the last group of a file is not full: {groups:?}"
            );
        }
    }
}

/// The records of a CSV file `tabia table` wrote, whose lines end in CRLF as RFC 4180 says.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    assert!(
        text.is_empty() || (text.ends_with("\r\n") && !text.replace("\r\n", "").contains('\r')),
        "CRLF line ends"
    );
    tabia_testkit::csv_records(text)
}

#[test]
fn csv_has_the_same_rows() {
    let dir = tempfile::tempdir().unwrap();
    let options = TableOptions {
        format: FileFormat::Csv,
        moves: true,
        ..TableOptions::default()
    };
    let out = dir.path().join("games.csv");
    write(&out, options, 4);
    let rows = parse_csv(&fs::read_to_string(&out).unwrap());
    let expected = records(options.read_options());
    let header: Vec<String> = games_schema(Columns::default())
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(rows[0], header);
    assert_eq!(
        rows.len(),
        expected.len() + 1,
        "a header, then one row per game"
    );
    let at = |row: usize, name: &str| -> &str {
        let i = header.iter().position(|h| h == name).unwrap();
        &rows[row + 1][i]
    };
    assert_eq!(at(0, "Event"), "Rated Blitz game");
    assert_eq!(at(0, "WhiteElo"), "1850");
    assert_eq!(at(0, "BlackRatingDiff"), "-6");
    assert_eq!(at(0, "UTCDate"), "2024-01-15");
    assert_eq!(at(0, "UTCTime"), "12:34:56");
    assert_eq!(at(0, "ply_count"), "7");
    assert_eq!(at(0, "tags"), "{}");
    assert_eq!(at(0, "errors"), "[]");
    assert!(at(0, "movetext").starts_with("1. e4 { [%eval 0.17]"));
    assert_eq!(at(1, "WhiteElo"), "");
    assert_eq!(at(1, "tags"), r#"{"Annotator":"engine","WhiteElo":"?"}"#);
    for (r, record) in expected.iter().enumerate() {
        let errors: Vec<String> = serde_json::from_str(at(r, "errors")).unwrap();
        let wanted: Vec<String> = record.errors.iter().map(ToString::to_string).collect();
        assert_eq!(errors, wanted);
        assert_eq!(at(r, "game"), (r + 1).to_string());
    }
    let moves = parse_csv(&fs::read_to_string(dir.path().join("games.moves.csv")).unwrap());
    let plies: u32 = expected.iter().filter_map(|r| r.plies).sum();
    assert_eq!(moves.len() as u32, plies + 1);
    assert_eq!(moves[0][..4], ["file", "game", "ply", "san"]);
    assert_eq!(moves[6][10], "[4]", "the NAGs of 3... Nf6??");
}

#[test]
fn hive_partitions_by_year_and_month() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games");
    let options = TableOptions {
        partition: Partition::YearMonth,
        moves: true,
        ..TableOptions::default()
    };
    let written = write(&out, options, 3);
    let expected = records(options.read_options());
    let jan = out.join("year=2024/month=01/part-0.parquet");
    let feb = out.join("year=2024/month=02/part-0.parquet");
    assert_eq!(
        string(&read_parquet(&jan), "White", 0).as_deref(),
        Some("alice")
    );
    assert_eq!(
        string(&read_parquet(&feb), "White", 0).as_deref(),
        Some("carol")
    );
    // Every file sits in the folder of its games' dates; together they hold every game.
    let files = parquet_files(&out);
    assert_eq!(
        files.len(),
        written.files.iter().filter(|f| f.starts_with(&out)).count()
    );
    let mut rows = 0;
    for file in &files {
        let batch = read_parquet(file);
        rows += batch.num_rows();
        let folder = file
            .parent()
            .unwrap()
            .strip_prefix(&out)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for r in 0..batch.num_rows() {
            // (The fixtures' games with a UTCDate have the same Date.)
            let date = string(&batch, "Date", r).unwrap_or_default();
            let year = date
                .get(..4)
                .filter(|y| y.bytes().all(|b| b.is_ascii_digit()));
            let month = date
                .get(5..7)
                .filter(|m| m.bytes().all(|b| b.is_ascii_digit()));
            let want = format!(
                "year={}/month={}",
                year.unwrap_or("__HIVE_DEFAULT_PARTITION__"),
                month
                    .filter(|_| year.is_some())
                    .unwrap_or("__HIVE_DEFAULT_PARTITION__")
            );
            assert_eq!(folder, want, "{date:?}");
        }
    }
    assert_eq!(rows, expected.len());
    let moves: usize = parquet_files(&dir.path().join("games.moves"))
        .iter()
        .map(|f| read_parquet(f).num_rows())
        .sum();
    assert_eq!(
        moves as u32,
        expected.iter().filter_map(|r| r.plies).sum::<u32>()
    );
    // A second run into the same folder adds part files, never overwrites.
    write(&out, options, 3);
    assert!(out.join("year=2024/month=01/part-1.parquet").exists());
    assert_eq!(parquet_files(&out).len(), 2 * files.len());
}

#[test]
fn partitions_are_cut_into_part_files_of_part_games() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games");
    let options = TableOptions {
        partition: Partition::YearMonth,
        moves: true,
        part_games: 2,
        ..TableOptions::default()
    };
    // A game a batch: every part file takes exactly two games, but a partition's last.
    write(&out, options, 1);
    let expected = records(options.read_options());
    let files = parquet_files(&out);
    let mut games = 0;
    let mut last_in_folder = std::collections::BTreeMap::new();
    for file in &files {
        let batch = read_parquet(file);
        games += batch.num_rows();
        assert!(batch.num_rows() <= 2, "{}", file.display());
        let folder = file.parent().unwrap().to_path_buf();
        let part = file.file_name().unwrap().to_string_lossy().into_owned();
        last_in_folder.insert(folder.clone(), (part.clone(), batch.num_rows()));
        // The moves part of the same name holds the moves of the same games.
        let moves_file = dir
            .path()
            .join("games.moves")
            .join(folder.strip_prefix(&out).unwrap())
            .join(&part);
        let game_numbers = |b: &RecordBatch| -> std::collections::BTreeSet<i64> {
            let col = col(b, "game").as_primitive::<Int64Type>();
            (0..b.num_rows()).map(|r| col.value(r)).collect()
        };
        let with_moves: std::collections::BTreeSet<i64> = {
            let plies = col(&batch, "ply_count").as_primitive::<Int32Type>();
            let numbers = col(&batch, "game").as_primitive::<Int64Type>();
            (0..batch.num_rows())
                .filter(|&r| plies.is_valid(r) && plies.value(r) > 0)
                .map(|r| numbers.value(r))
                .collect()
        };
        if with_moves.is_empty() {
            continue;
        }
        assert_eq!(
            game_numbers(&read_parquet(&moves_file)),
            with_moves,
            "{}",
            moves_file.display()
        );
    }
    assert_eq!(games, expected.len(), "every game in one part");
    // Full parts but a partition's last: as many files as two games a file need.
    for file in &files {
        let folder = file.parent().unwrap().to_path_buf();
        let part = file.file_name().unwrap().to_string_lossy().into_owned();
        if last_in_folder[&folder].0 != part {
            assert_eq!(read_parquet(file).num_rows(), 2, "{}", file.display());
        }
    }
    assert!(
        files.len() > last_in_folder.len(),
        "some partition has more than one part"
    );
}

#[test]
fn part_files_keep_their_numbers_in_both_tables_when_many_partitions_are_open() {
    // Games of 12 years in turns, in batches of 12: more partitions in a batch than files kept
    // open (8), so files close and reopen as new parts all the time, within a batch too.
    let pgn: String = (0..60)
        .map(|i| {
            format!(
                "[Date \"{}.01.01\"]\n[Round \"{i}\"]\n\n1. e4 e5 2. Nf3 {}*\n\n",
                2000 + i % 12,
                if i % 5 == 0 { "" } else { "Nc6 " }
            )
        })
        .collect();
    let options = TableOptions {
        partition: Partition::Year,
        moves: true,
        ..TableOptions::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games");
    let mut writer = TableWriter::create(&out, options).unwrap();
    let records: Vec<GameRecord> = PgnReader::new(pgn.as_bytes())
        .raw_games()
        .enumerate()
        .map(|(i, raw)| GameRecord::read(&raw.unwrap(), i as u64 + 1, options.read_options()))
        .collect();
    for chunk in records.chunks(12) {
        let mut rows = Rows::default();
        for record in chunk {
            rows.push("years.pgn", record);
        }
        writer
            .write(rows.finish(options.columns, options.moves).unwrap())
            .unwrap();
    }
    writer.finish().unwrap();
    let games_files = parquet_files(&out);
    let moves_root = dir.path().join("games.moves");
    let moves_files = parquet_files(&moves_root);
    assert!(
        games_files.len() > 12,
        "parts reopened: {}",
        games_files.len()
    );
    assert_eq!(games_files.len(), moves_files.len());
    let mut games = 0;
    for file in &games_files {
        let batch = read_parquet(file);
        games += batch.num_rows();
        let twin = moves_root.join(file.strip_prefix(&out).unwrap());
        let moves = read_parquet(&twin);
        let numbers = col(&batch, "game").as_primitive::<Int64Type>();
        let plies = col(&batch, "ply_count").as_primitive::<Int32Type>();
        let want: u32 = (0..batch.num_rows()).map(|r| plies.value(r) as u32).sum();
        assert_eq!(moves.num_rows() as u32, want, "{}", twin.display());
        let move_games = col(&moves, "game").as_primitive::<Int64Type>();
        for r in 0..moves.num_rows() {
            assert!(
                (0..batch.num_rows()).any(|g| numbers.value(g) == move_games.value(r)),
                "{}: a move of a game the games' part does not hold",
                twin.display()
            );
        }
    }
    assert_eq!(games, 60);
}

/// The Parquet files under `dir`, sorted.
fn parquet_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "parquet") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn nested_moves_match_the_moves_table() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("nested.parquet");
    let options = TableOptions {
        columns: Columns {
            nested: true,
            fen: true,
            boards: true,
        },
        ..TableOptions::default()
    };
    write(&out, options, 7);
    let games = read_parquet(&out);
    let expected = records(options.read_options());
    let moves = col(&games, "moves").as_list::<i32>();
    for (r, record) in expected.iter().enumerate() {
        let list = moves.value(r);
        let list = list.as_struct();
        assert_eq!(list.len(), record.moves.len());
        let san = list.column_by_name("san").unwrap().as_string::<i32>();
        let fen = list.column_by_name("fen").unwrap().as_string::<i32>();
        for (i, m) in record.moves.iter().enumerate() {
            assert_eq!(san.value(i), m.san);
            assert_eq!(Some(fen.value(i)), m.fen.as_deref());
        }
    }
}

/// Every column of both tables is documented in `docs/schema.md`, with the schema version the
/// files carry.
#[test]
fn every_column_is_documented() {
    let doc =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/schema.md"))
            .unwrap();
    let columns = Columns {
        nested: false,
        fen: true,
        boards: true,
    };
    for schema in [games_schema(columns), tabia_table::moves_schema(columns)] {
        for field in schema.fields() {
            let name = field.name();
            assert!(
                doc.contains(&format!("`{name}`")),
                "column `{name}` not in docs/schema.md"
            );
        }
    }
    assert!(
        doc.contains(&format!("`schema_version` {SCHEMA_VERSION} ")),
        "docs/schema.md does not give schema version {SCHEMA_VERSION}"
    );
}
