//! The canonical name of a `Variant` tag's value: one spelling for each variant, so that
//! `Standard`, `normal` and a game with no `Variant` tag count (and select) as one.

use std::borrow::Cow;

/// The canonical name of the variant a `Variant` tag names (`None`: no tag): compared without
/// case, spaces, `-`, `_` and `'`, with the usual other names of each variant folded into one:
/// `standard` (also `Normal`, `Chess`, `From Position`, no tag), `chess960` (`Fischerandom`,
/// `Chess 960`, `FRC`, …), `antichess` (`Giveaway`, `Suicide`), `crazyhouse`, `atomic`,
/// `horde`, `kingofthehill`, `racingkings`, `threecheck`; any other name squeezed so.
///
/// ```
/// use tabia_notation::pgn::variant_name;
///
/// assert_eq!(variant_name(Some("Standard")), "standard");
/// assert_eq!(variant_name(Some("normal")), "standard");
/// assert_eq!(variant_name(None), "standard");
/// assert_eq!(variant_name(Some("fischerandom")), "chess960");
/// assert_eq!(variant_name(Some("King of the Hill")), "kingofthehill");
/// assert_eq!(variant_name(Some("Seirawan")), "seirawan");
/// ```
pub fn variant_name(tag: Option<&str>) -> Cow<'static, str> {
    let Some(tag) = tag else {
        return Cow::Borrowed("standard");
    };
    let squeezed: String = tag
        .chars()
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '\'' | '\t'))
        .flat_map(char::to_lowercase)
        .collect();
    let canonical = match squeezed.as_str() {
        "" | "standard" | "chess" | "normal" | "classical" | "fromposition" | "frompos"
        | "position" => "standard",
        "chess960"
        | "960"
        | "fischerandom"
        | "fischerrandom"
        | "frc"
        | "chess960(fischerrandom)" => "chess960",
        "antichess" | "giveaway" | "suicide" | "anti" => "antichess",
        "crazyhouse" | "zh" => "crazyhouse",
        "kingofthehill" | "koth" => "kingofthehill",
        "threecheck" | "3check" => "threecheck",
        _ => return Cow::Owned(squeezed),
    };
    Cow::Borrowed(canonical)
}
