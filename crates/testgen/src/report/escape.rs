//! Text in HTML and paths in links: escaping, percent-encoding, and the path from the
//! report's folder to a file of the results directory.

use std::path::{Component, Path, PathBuf};

/// `text` with the five characters HTML gives a meaning (`& < > " '`) escaped, safe in
/// element content and in quoted attribute values alike.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A relative path as the `href` of a link: its components joined by `/`, every byte other
/// than an unreserved URL character (letters, digits, `-._~`) percent-encoded.
pub fn href(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .map(|c| match c {
            Component::ParentDir => "..".to_string(),
            Component::CurDir => ".".to_string(),
            other => percent(&other.as_os_str().to_string_lossy()),
        })
        .collect();
    parts.join("/")
}

fn percent(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for b in segment.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The path that leads from folder `from` to `to`, both absolute and without `.` or `..`
/// (e.g. canonical paths): `..` for every component of `from` past their common start, then
/// the rest of `to`.
pub fn relative(from: &Path, to: &Path) -> PathBuf {
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..a.len() {
        out.push("..");
    }
    for c in &b[common..] {
        out.push(c.as_os_str());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Undoes [`html`], written apart from it: the entities it may produce, in one pass.
    fn unescape(s: &str) -> String {
        let mut out = String::new();
        let mut rest = s;
        while let Some(k) = rest.find('&') {
            out.push_str(&rest[..k]);
            let semi = rest[k..].find(';').expect("an entity ends with ;") + k;
            out.push(match &rest[k..=semi] {
                "&amp;" => '&',
                "&lt;" => '<',
                "&gt;" => '>',
                "&quot;" => '"',
                "&#39;" => '\'',
                e => panic!("unexpected entity {e}"),
            });
            rest = &rest[semi + 1..];
        }
        out.push_str(rest);
        out
    }

    #[test]
    fn html_escaping_leaves_no_markup_and_round_trips() {
        for text in [
            "a < b & c > d",
            "x := \"q\" | 'r';",
            "&amp; is already escaped",
            "ünïcødé → ok",
            "<script>alert(1)</script>",
            "",
        ] {
            let e = html(text);
            assert!(!e.contains(['<', '>', '"', '\'']), "{e}");
            assert_eq!(unescape(&e), text);
        }
        assert_eq!(html("a<&\"'>"), "a&lt;&amp;&quot;&#39;&gt;");
    }

    #[test]
    fn hrefs_percent_encode_what_is_not_plain() {
        assert_eq!(
            href(Path::new("../out dir/tests/mutant-3.json")),
            "../out%20dir/tests/mutant-3.json"
        );
        assert_eq!(href(Path::new("a#b/c?d%e")), "a%23b/c%3Fd%25e");
        assert_eq!(href(Path::new("é.vcd")), "%C3%A9.vcd");
    }

    #[test]
    fn relative_paths_between_folders() {
        let cases = [
            ("/w/out", "/w/out/tests/m.json", "tests/m.json"),
            ("/w/report", "/w/out/tests/m.json", "../out/tests/m.json"),
            ("/a/b/c", "/x/y", "../../../x/y"),
            ("/", "/x/y", "x/y"),
        ];
        for (from, to, want) in cases {
            let got = relative(Path::new(from), Path::new(to));
            assert_eq!(got, Path::new(want), "{from} → {to}");
            // Following the relative path from `from` leads to `to`.
            let mut walked: Vec<&str> = from.split('/').filter(|s| !s.is_empty()).collect();
            for part in want.split('/') {
                match part {
                    ".." => {
                        walked.pop();
                    }
                    p => walked.push(p),
                }
            }
            assert_eq!(format!("/{}", walked.join("/")), to);
        }
    }
}
