//! The one JSON helper the engine's callers share (the browser module's
//! answers, the game-file dumper): a string quoted and escaped.

/// `text` as a JSON string: quotes, backslashes and control characters
/// escaped, everything else as it is (JSON text is UTF-8).
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn quotes_and_escapes() {
        assert_eq!(super::quote("a\"b\\c\n帅"), "\"a\\\"b\\\\c\\u000a帅\"");
    }
}
