use super::*;

#[test]
fn a_batch_of_many_partitions_keeps_few_row_groups_open() {
    let pgn: String = (0..12)
        .map(|i| format!("[Date \"{}.01.01\"]\n\n1. e4 e5 *\n\n", 2000 + i % 6))
        .collect();
    let options = TableOptions {
        partition: Partition::Year,
        ..TableOptions::default()
    };
    let columns = options.columns;
    let table = |name, schema| TableEncoder::new(name, schema, options).unwrap();
    let encoder = Encoder {
        games: table("games", games_schema(columns)),
        moves: Some(table("moves", moves_schema(columns))),
        options,
    };
    let read = TableOptions {
        moves: true,
        ..options
    }
    .read_options();
    let mut rows = crate::Rows::default();
    let reader = tabia_notation::pgn::PgnReader::new(pgn.as_bytes());
    for (i, raw) in reader.raw_games().enumerate() {
        let record = crate::GameRecord::read(&raw.unwrap(), i as u64 + 1, read);
        rows.push("y.pgn", &record);
    }
    let tables = rows.finish(columns, true).unwrap();
    let mut encoding = encoder.start();
    encoding.push(&tables).unwrap();
    assert_eq!(encoding.games.open_groups(), MAX_OPEN_GROUPS);
    assert_eq!(
        encoding.moves.as_ref().unwrap().open_groups(),
        MAX_OPEN_GROUPS
    );
    let encoded = encoding.finish().unwrap();
    // Six years, each one row group of its two games.
    assert_eq!(encoded.games.len(), 6);
    for part in &encoded.games {
        assert_eq!(part.rows, 2);
        assert!(matches!(&part.data, PartData::Parquet(groups) if groups.len() == 1));
    }
}

#[test]
fn moves_next_to_games() {
    assert_eq!(
        moves_path(Path::new("out/games.parquet")),
        Path::new("out/games.moves.parquet")
    );
    assert_eq!(moves_path(Path::new("games")), Path::new("games.moves"));
    assert_eq!(moves_path(Path::new("g.csv")), Path::new("g.moves.csv"));
}

#[test]
fn names() {
    assert_eq!("year,month".parse(), Ok(Partition::YearMonth));
    assert_eq!("csv".parse(), Ok(FileFormat::Csv));
    assert_eq!(
        "month".parse::<Partition>().unwrap_err().to_string(),
        "unknown partitioning `month` (expected year or year,month)"
    );
    assert_eq!(
        "xls".parse::<FileFormat>().unwrap_err().to_string(),
        "unknown format `xls` (expected parquet or csv)"
    );
    for format in [FileFormat::Parquet, FileFormat::Csv] {
        assert_eq!(format.to_string().parse(), Ok(format));
    }
}
