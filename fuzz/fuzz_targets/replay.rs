//! Replay: a position (first line, lenient FEN) and moves in any notation (the other tokens)
//! are played through the rules. No panic; every legal move's canonical SAN names the same
//! move; every FEN the position writes parses and sets up the same position again. The same
//! bytes read as PGN: every game is replayed (variations too) and checked.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tabia_notation::{fen::Fen, pgn::PgnReader};
use tabia_position::{EpRule, Position, check_game, replay};

fuzz_target!(|data: &[u8]| {
    for game in PgnReader::new(data).games().take(64).flatten() {
        let mut plies = 0;
        if replay(&game, |_| plies += 1).is_ok() {
            assert!(plies >= game.mainline.moves.len());
        }
        if let Err(err) = check_game(&game) {
            let _ = err.to_string();
        }
    }
    let (first, rest) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let mut pos = match Fen::from_ascii_lenient(first) {
        Ok(fen) => match Position::from_fen(&fen) {
            Ok(pos) => pos,
            Err(err) => {
                let _ = err.to_string();
                Position::new()
            }
        },
        Err(_) => Position::new(),
    };
    for token in rest
        .split(u8::is_ascii_whitespace)
        .filter(|t| !t.is_empty())
        .take(256)
    {
        match pos.parse_move_ascii(token) {
            Ok(m) => {
                let san = pos.san(m).to_string();
                assert_eq!(pos.parse_move(&san).ok(), Some(m.clone()), "{san} in {pos}");
                pos.play_unchecked(m);
                for ep in [EpRule::Always, EpRule::Legal] {
                    let text = pos.fen(ep);
                    let fen = Fen::from_ascii(text.as_bytes())
                        .unwrap_or_else(|e| panic!("own FEN does not parse: {e}"));
                    let again = Position::from_fen(&fen)
                        .unwrap_or_else(|e| panic!("own FEN {text} is not legal: {e}"));
                    assert_eq!(again.fen(ep), text);
                }
            }
            Err(err) => {
                let _ = err.to_string();
            }
        }
    }
});
