//! Small text helpers shared by the games' notation and renderings.

use std::fmt;

/// Writes `items` separated by single spaces, or `empty` when there are none (`1 1 2 5`,
/// `pass`, `-`). Every list-like notation of the games is written this way.
pub(crate) fn write_spaced<T: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    items: impl IntoIterator<Item = T>,
    empty: &str,
) -> fmt::Result {
    let mut items = items.into_iter();
    let Some(first) = items.next() else {
        return f.write_str(empty);
    };
    write!(f, "{first}")?;
    for item in items {
        write!(f, " {item}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct List(Vec<i8>, &'static str);

    impl fmt::Display for List {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write_spaced(f, &self.0, self.1)
        }
    }

    #[test]
    fn items_are_spaced_and_an_empty_list_has_its_placeholder() {
        assert_eq!(List(vec![10, -1, 9], "pass").to_string(), "10 -1 9");
        assert_eq!(List(vec![7], "pass").to_string(), "7");
        assert_eq!(List(vec![], "pass").to_string(), "pass");
        assert_eq!(List(vec![], "").to_string(), "");
    }
}
