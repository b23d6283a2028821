use super::uci::uci;
use super::*;

fn normal(role: Role, file: Option<u8>, rank: Option<u8>, capture: bool, to: Square) -> San {
    San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion: None,
    }
}

/// Moves given by their squares read back from what is written of them, and a piece
/// move takes no promotion in any form (the fuzzer's `Nb1c3b` read as a knight promoting
/// to a bishop, written `Nb1-c3=B`, which did not read back).
#[test]
fn long_moves_read_back_and_pieces_do_not_promote() {
    for text in [
        "e2e4", "d7d8r", "e7xd8=Q", "Ng1-f3", "Ng1f3", "Qh4xe1", "e2-e4", "b7b8=N",
    ] {
        let (mv, used) = long_prefix(text.as_bytes()).expect(text);
        assert_eq!(used, text.len(), "{text}");
        let written = mv.to_string();
        assert_eq!(
            long_prefix(written.as_bytes()).map(|(m, _)| m),
            Ok(mv),
            "{text}"
        );
    }
    for text in ["Nb1c3b", "Nb1-c3=B", "Nb1c3=B", "Qd1d8q", "Ke1e2(Q)"] {
        let read = long_prefix(text.as_bytes()).map(|(_, used)| used);
        assert_ne!(read, Ok(text.len()), "{text} read as a whole move");
    }
}

#[test]
fn piece_move_rule() {
    let cases: [(&str, San); 7] = [
        ("Nf3", normal(Role::Knight, None, None, false, Square::F3)),
        (
            "Nbd7",
            normal(Role::Knight, Some(1), None, false, Square::D7),
        ),
        ("R1e2", normal(Role::Rook, None, Some(0), false, Square::E2)),
        (
            "Qh4xe1",
            normal(Role::Queen, Some(7), Some(3), true, Square::E1),
        ),
        ("Kxa1", normal(Role::King, None, None, true, Square::A1)),
        (
            "Bfxe5",
            normal(Role::Bishop, Some(5), None, true, Square::E5),
        ),
        ("Rdd1", normal(Role::Rook, Some(3), None, false, Square::D1)),
    ];
    for (text, want) in cases {
        assert_eq!(piece_move(text.as_bytes()), Ok((&b""[..], want)), "{text}");
        assert_eq!(want.to_string(), text);
    }
    assert_eq!(
        piece_move(b"Nd7+"),
        Ok((
            &b"+"[..],
            normal(Role::Knight, None, None, false, Square::D7)
        ))
    );
    assert!(piece_move(b"Nx").is_err());
    assert!(piece_move(b"N").is_err());
    assert!(piece_move(b"Nd").is_err());
}

#[test]
fn pawn_move_rule() {
    assert_eq!(
        pawn_move(b"e4"),
        Ok((&b""[..], normal(Role::Pawn, None, None, false, Square::E4)))
    );
    assert_eq!(
        pawn_move(b"exd5 "),
        Ok((
            &b" "[..],
            normal(Role::Pawn, Some(4), None, true, Square::D5)
        ))
    );
    let promo = San::Normal {
        role: Role::Pawn,
        file: Some(4),
        rank: None,
        capture: true,
        to: Square::D8,
        promotion: Some(Role::Knight),
    };
    assert_eq!(pawn_move(b"exd8=N"), Ok((&b""[..], promo)));
    assert_eq!(pawn_move(b"exd8N"), Ok((&b""[..], promo)));
    assert!(pawn_move(b"e9").is_err());
    assert!(pawn_move(b"exe").is_err());
    assert!(pawn_move(b"e8=").is_err());
    assert!(pawn_move(b"e8=P").is_err());
}

#[test]
fn promotion_rule() {
    assert_eq!(promotion(b"=Q+"), Ok((&b"+"[..], Some(Role::Queen))));
    assert_eq!(promotion(b"R"), Ok((&b""[..], Some(Role::Rook))));
    assert_eq!(promotion(b"+"), Ok((&b"+"[..], None)));
    assert!(promotion(b"=x").is_err());
}

#[test]
fn castle_and_null_rules() {
    assert_eq!(
        castle(b"O-O"),
        Ok((&b""[..], San::Castle(CastlingSide::KingSide)))
    );
    assert_eq!(
        castle(b"0-0-0+"),
        Ok((&b"+"[..], San::Castle(CastlingSide::QueenSide)))
    );
    assert!(castle(b"O-0").is_err());
    assert_eq!(null(b"--"), Ok((&b""[..], San::Null)));
    assert_eq!(null(b"Z0"), Ok((&b""[..], San::Null)));
    assert!(null(b"-").is_err());
    let err = "Zz9".parse::<SanPlus>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid SAN move (expected a move such as `e4`, `Nf3` or `O-O`) at line 1, column 1\n  \
         | Zz9\n  | ^^"
    );
}

#[test]
fn check_mark_and_annotation_rules() {
    assert_eq!(check_mark(b"#!"), Ok((&b"!"[..], Some(Suffix::Checkmate))));
    assert_eq!(check_mark(b"!"), Ok((&b"!"[..], None)));
    for (text, n) in [
        ("!", 1),
        ("?", 2),
        ("!!", 3),
        ("??", 4),
        ("!?", 5),
        ("?!", 6),
    ] {
        assert_eq!(annotation(text.as_bytes()), Ok((&b""[..], Some(Nag(n)))));
    }
    assert_eq!(annotation(b"!!!"), Ok((&b"!"[..], Some(Nag(3)))));
}

#[test]
fn annotated_prefix_reads_all_parts() {
    let (mv, nag, used) = annotated_prefix(b"O-O#?! 1-0").unwrap();
    assert_eq!(mv.to_string(), "O-O#");
    assert_eq!((nag, used), (Some(Nag(6)), 6));
}

#[test]
fn errors_underline_the_move() {
    let err = SanPlus::from_ascii(b"Qxx4").unwrap_err();
    assert_eq!(err.span(), 0..3);
    assert_eq!(
        err.to_string(),
        "invalid SAN move (expected a target square such as `f3`) at line 1, column 1\n  | Qxx4\n  | ^^^"
    );
    assert_eq!(
        San::from_ascii(b"e4e5").unwrap_err().kind(),
        ErrorKind::TrailingInput
    );
    assert_eq!(
        San::from_ascii(b"").unwrap_err().kind(),
        ErrorKind::InvalidSan
    );
    assert_eq!(
        San::from_ascii(b"\xff").unwrap_err().kind(),
        ErrorKind::InvalidSan
    );
}

#[test]
fn uci_rule() {
    assert_eq!(
        uci(b"e2e4"),
        Ok((
            &b""[..],
            Uci::Normal {
                from: Square::E2,
                to: Square::E4,
                promotion: None
            }
        ))
    );
    assert_eq!(uci(b"0000 "), Ok((&b" "[..], Uci::Null)));
    assert_eq!(
        Uci::from_ascii(b"e2e9").unwrap_err().to_string(),
        "invalid UCI move (expected a move such as `e2e4`, `e7e8q` or `0000`) at line 1, column 1\n  | e2e9\n  | ^^^^"
    );
    assert_eq!(
        Uci::from_ascii(b"e7e8Q").unwrap_err().kind(),
        ErrorKind::TrailingInput
    );
}

#[test]
fn lan_rule() {
    for text in ["e2-e4", "Ng1-f3", "e7xd8=Q", "O-O", "O-O-O", "--", "Ke1xe2"] {
        let mv: Lan = text.parse().unwrap();
        assert_eq!(mv.to_string(), text);
    }
    assert_eq!("e2e4".parse::<Lan>().unwrap().to_string(), "e2-e4");
    assert_eq!("Qd1xd8#".parse::<LanPlus>().unwrap().to_string(), "Qd1xd8#");
    assert!("Ng1-f3=Q".parse::<Lan>().is_err());
    assert!("Xg1-f3".parse::<Lan>().is_err());
    assert!("Ng1-".parse::<Lan>().is_err());
}
