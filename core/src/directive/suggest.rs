//! "Did you mean …?" suggestions for misspelt directive, clause and operator names.

/// The closest candidate to `word` by optimal-string-alignment distance (transpositions count
/// as one edit), compared case-insensitively (directives are case sensitive, §2.1, so `COPY`
/// gets a suggestion). `None` when nothing is within about a third of the candidate's length.
pub(crate) fn did_you_mean(word: &str, candidates: &[&str]) -> Option<String> {
    let lower = word.to_lowercase();
    let (best, distance) = candidates
        .iter()
        .map(|c| (*c, strsim::osa_distance(&lower, c)))
        .min_by_key(|(_, d)| *d)?;
    let limit = (best.chars().count().max(word.chars().count()) / 3).max(1);
    if distance > limit {
        return None;
    }
    if distance == 0 {
        return Some(format!("did you mean `{best}`? (names are case sensitive)"));
    }
    Some(format!("did you mean `{best}`?"))
}
