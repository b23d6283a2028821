//! SAN, UCI and LAN: fixtures, round trips and properties.

use proptest::prelude::*;
use tabia_notation::{
    CastlingSide, Role,
    san::{self, Lan, LanPlus, Pieces, San, SanPlus, Suffix, Uci},
};

use crate::{expect_file, fen::square, fixtures};

/// Each token of `ok/*.san` parses with its annotation and is written canonically as recorded
/// in `*.out` (`token -> canonical [nag]`); the canonical form parses back to the same move.
#[test]
fn ok_fixtures() {
    for path in fixtures("san", "ok", "san") {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut out = String::new();
        for token in text.split_whitespace() {
            let (mv, nag, used) = san::annotated_prefix(token.as_bytes())
                .unwrap_or_else(|e| panic!("{}: {token}: {e}", path.display()));
            assert_eq!(used, token.len(), "{token}");
            let written = mv.to_string();
            assert_eq!(written.parse::<SanPlus>().as_ref(), Ok(&mv), "{written}");
            out.push_str(&format!("{token} -> {written}"));
            if let Some(nag) = nag {
                out.push_str(&format!(" {nag}"));
            }
            out.push('\n');
        }
        expect_file(&path, "out", &out);
    }
}

/// Each line of `err/*.san` fails with the message recorded in `*.err` (one message per line of
/// input, the caret under the offending part).
#[test]
fn err_fixtures() {
    for path in fixtures("san", "err", "san") {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut out = String::new();
        for line in text.lines() {
            let err = SanPlus::from_ascii(line.as_bytes()).expect_err(line);
            out.push_str(&format!("{err}\n"));
        }
        expect_file(&path, "err", &out);
    }
}

fn role(roles: &'static [Role]) -> impl Strategy<Value = Role> {
    proptest::sample::select(roles)
}

fn san_move() -> impl Strategy<Value = San> {
    let piece = (
        role(&[
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ]),
        proptest::option::of(0u8..8),
        proptest::option::of(0u8..8),
        any::<bool>(),
        square(),
    )
        .prop_map(|(role, file, rank, capture, to)| San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion: None,
        });
    let pawn = (
        proptest::option::of(0u8..8),
        square(),
        proptest::option::of(role(&[
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ])),
    )
        .prop_map(|(file, to, promotion)| San::Normal {
            role: Role::Pawn,
            file,
            rank: None,
            capture: file.is_some(),
            to,
            promotion,
        });
    prop_oneof![
        4 => piece,
        4 => pawn,
        1 => Just(San::Castle(CastlingSide::KingSide)),
        1 => Just(San::Castle(CastlingSide::QueenSide)),
        1 => Just(San::Null),
    ]
}

fn san_plus() -> impl Strategy<Value = SanPlus> {
    let suffix = proptest::option::of(prop_oneof![Just(Suffix::Check), Just(Suffix::Checkmate)]);
    (san_move(), suffix).prop_map(|(san, suffix)| SanPlus { san, suffix })
}

/// `mv` in SAN spelled the plain way, a character at a time, with `pieces`' letters: what the
/// writers' spellings are held to.
fn spelled(mv: &SanPlus, pieces: &Pieces) -> String {
    let letter = |role: Role| pieces.char(role);
    let square = |sq: tabia_notation::Square| format!("{}{}", sq.file_char(), sq.rank_char());
    let mut out = match mv.san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            let mut out = String::new();
            if role != Role::Pawn {
                out.push(letter(role));
            }
            out.extend(file.map(|f| char::from(b'a' + f)));
            out.extend(rank.map(|r| char::from(b'1' + r)));
            if capture {
                out.push('x');
            }
            out.push_str(&square(to));
            if let Some(promotion) = promotion {
                out.push('=');
                out.push(letter(promotion));
            }
            out
        }
        San::Castle(CastlingSide::KingSide) => "O-O".to_owned(),
        San::Castle(CastlingSide::QueenSide) => "O-O-O".to_owned(),
        other => other.to_string(),
    };
    out.extend(mv.suffix.map(Suffix::char));
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_language_spells_as_written_by_hand(mv in san_plus(), language in 0..=Pieces::LANGUAGES.len()) {
        let pieces = match Pieces::LANGUAGES.get(language) {
            Some((code, _)) => Pieces::language(code).expect("a language"),
            None => Pieces::FIGURINE,
        };
        prop_assert_eq!(pieces.san(&mv), spelled(&mv, &pieces));
        prop_assert_eq!(mv.to_string(), spelled(&mv, &Pieces::ENGLISH));
    }

    #[test]
    fn san_write_then_parse_is_identity(mv in san_plus()) {
        let text = mv.to_string();
        prop_assert_eq!(text.parse::<SanPlus>(), Ok(mv));
        prop_assert_eq!(SanPlus::prefix(format!("{text} 1-0").as_bytes()), Ok((mv, text.len())));
    }

    #[test]
    fn ascii_spells_as_written_by_hand(mv in san_plus(), file in proptest::option::of(0u8..8), rank in proptest::option::of(0u8..8)) {
        // Against the spelling by hand, not `Display` (which writes `ascii`'s bytes); with
        // both disambiguations and a promotion too: the longest move a `San` can hold.
        let widened = match mv.san {
            San::Normal { role, capture, to, promotion, .. } => SanPlus {
                san: San::Normal { role, file, rank, capture, to, promotion: promotion.or(Some(Role::Queen)) },
                suffix: mv.suffix,
            },
            _ => mv,
        };
        for mv in [mv, widened] {
            match mv.ascii() {
                Some((bytes, len)) => {
                    let text = spelled(&mv, &Pieces::ENGLISH);
                    prop_assert_eq!(&bytes[..len], text.as_bytes());
                }
                None => {
                    let spelled_otherwise = matches!(mv.san, San::Null | San::Put { .. } | San::Long { .. });
                    prop_assert!(spelled_otherwise);
                }
            }
        }
    }

    #[test]
    fn san_parse_write_parse(text in "[NBRQKa-h1-8xO0=Z+#!?-]{1,8}") {
        if let Ok((mv, _, used)) = san::annotated_prefix(text.as_bytes()) {
            prop_assert!(used <= text.len());
            let written = mv.to_string();
            prop_assert_eq!(written.parse::<SanPlus>(), Ok(mv));
        }
    }

    #[test]
    fn uci_and_lan_round_trip(from in square(), to in square(), promo in proptest::option::of(0usize..5), capture: bool) {
        let promotion = promo.map(|i| [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King][i]);
        let uci = Uci::Normal { from, to, promotion };
        prop_assert_eq!(uci.to_string().parse::<Uci>(), Ok(uci));
        let lan = Lan::Normal { role: Role::Pawn, from, capture, to, promotion };
        prop_assert_eq!(lan.to_string().parse::<Lan>(), Ok(lan));
    }

    #[test]
    fn uci_and_lan_parse_write_parse(text in "[a-hNBRQKnbrqk1-8x=O0Z+#-]{2,8}") {
        if let Ok(mv) = text.parse::<LanPlus>() {
            prop_assert_eq!(mv.to_string().parse::<LanPlus>(), Ok(mv));
        }
        if let Ok(mv) = text.parse::<Uci>() {
            prop_assert_eq!(mv.to_string().parse::<Uci>(), Ok(mv));
        }
    }

    #[test]
    fn never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..12)) {
        let _ = san::annotated_prefix(&bytes);
        let _ = Uci::from_ascii(&bytes);
        let _ = Lan::from_ascii(&bytes);
    }
}

/// `ok/*.uci` and `ok/*.lan` tokens are written canonically as recorded in `*.out`;
/// `err/*.uci` and `err/*.lan` lines fail with the messages recorded in `*.err`.
#[test]
fn uci_and_lan_fixtures() {
    fn canonical(ext: &str, token: &str) -> Result<String, tabia_notation::Error> {
        match ext {
            "uci" => token.parse::<Uci>().map(|mv| mv.to_string()),
            _ => token.parse::<LanPlus>().map(|mv| mv.to_string()),
        }
    }
    for ext in ["uci", "lan"] {
        for path in fixtures("san", "ok", ext) {
            let text = std::fs::read_to_string(&path).unwrap();
            let mut out = String::new();
            for token in text.split_whitespace() {
                let written = canonical(ext, token)
                    .unwrap_or_else(|e| panic!("{}: {token}: {e}", path.display()));
                assert_eq!(canonical(ext, &written).as_ref(), Ok(&written));
                out.push_str(&format!("{token} -> {written}\n"));
            }
            expect_file(&path, "out", &out);
        }
        for path in fixtures("san", "err", ext) {
            let text = std::fs::read_to_string(&path).unwrap();
            let mut out = String::new();
            for line in text.lines() {
                let err = canonical(ext, line).expect_err(line);
                out.push_str(&format!("{err}\n"));
            }
            expect_file(&path, "err", &out);
        }
    }
}
