//! No module imports a module that imports it back, in any crate.
//!
//! This test builds the module dependency graph of every crate under `crates/*/src` and fails
//! on every strongly connected component with two or more modules, listing the lines that make
//! each edge. It uses only `std`, so it also runs standalone:
//!
//! ```text
//! rustc --edition 2021 --test tests/module_graph.rs -o /tmp/module_graph && /tmp/module_graph
//! ```
//!
//! How the graph is built, per crate:
//!
//! * Modules come from the file layout (`lib.rs` or `main.rs`, `foo.rs`, `foo/mod.rs`,
//!   `foo/bar.rs`) and from inline `mod name { .. }` blocks, which count as part of their file.
//! * An edge A → B means that code in A's file names an item that B's file defines, through a
//!   `use` declaration (nested braces, `pub`/`pub(crate)` re-exports, `self`/`super`/`crate`
//!   prefixes, paths starting with a child module) or through a path written inline in code
//!   (`crate::a::Item`, `super::x::f()`, `child::g()`). Re-exports are followed to the module
//!   that defines the item: with `pub use graph::Aig` in `lib.rs`, `use crate::Aig` is an edge
//!   to `graph`, not to the crate root. Naming a module itself (`use crate::graph;`) is an edge
//!   to that module.
//! * Declaring `mod child;` is not an edge; a re-export `pub use child::X` is an edge from the
//!   parent to the child, so it makes a cycle only when the child names something the parent
//!   itself defines.
//! * Test code imports nothing: files named `tests.rs` or `*_tests.rs`, files under a `tests/`
//!   folder, modules declared `#[cfg(test)]`, inline `mod tests { .. }` and other
//!   `#[cfg(test)]` items are not importers (their items can still be imported).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// Crates (directory names under `crates/`) that are not checked.
const SKIP: &[&str] = &[];

// ----------------------------------------------------------------------------------------------
// Lexer
// ----------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    /// `::`
    PathSep,
    Punct(char),
    /// A string, character or number literal.
    Literal,
    Lifetime,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    line: usize,
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_continue(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Splits Rust source into tokens, dropping comments and whitespace.
fn tokenize(src: &str) -> Vec<Token> {
    let cs: Vec<char> = src.chars().collect();
    let at = |k: usize| cs.get(k).copied();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        let start_line = line;
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == Some('/') {
            while i < cs.len() && cs[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == Some('*') {
            let mut depth = 0usize;
            while i < cs.len() {
                if cs[i] == '/' && at(i + 1) == Some('*') {
                    depth += 1;
                    i += 2;
                } else if cs[i] == '*' && at(i + 1) == Some('/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if cs[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if let Some(end) = raw_string_end(&cs, i) {
            line += cs[i..end].iter().filter(|&&ch| ch == '\n').count();
            out.push(Token {
                tok: Tok::Literal,
                line: start_line,
            });
            i = end;
        } else if (c == 'b' || c == 'c') && (at(i + 1) == Some('"') || at(i + 1) == Some('\'')) {
            // `b"…"`, `c"…"`, `b'…'`: the literal itself is lexed at the quote.
            i += 1;
        } else if c == 'r' && at(i + 1) == Some('#') && at(i + 2).is_some_and(is_ident_start) {
            let mut e = i + 2;
            while e < cs.len() && is_ident_continue(cs[e]) {
                e += 1;
            }
            out.push(Token {
                tok: Tok::Ident(cs[i + 2..e].iter().collect()),
                line,
            });
            i = e;
        } else if c == '"' {
            i += 1;
            while i < cs.len() && cs[i] != '"' {
                if cs[i] == '\\' {
                    i += 1;
                }
                if at(i) == Some('\n') {
                    line += 1;
                }
                i += 1;
            }
            i += 1;
            out.push(Token {
                tok: Tok::Literal,
                line: start_line,
            });
        } else if c == '\'' {
            if at(i + 1) == Some('\\') {
                i += 3;
                while i < cs.len() && cs[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push(Token {
                    tok: Tok::Literal,
                    line,
                });
            } else if at(i + 2) == Some('\'') {
                i += 3;
                out.push(Token {
                    tok: Tok::Literal,
                    line,
                });
            } else {
                i += 1;
                while i < cs.len() && is_ident_continue(cs[i]) {
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Lifetime,
                    line,
                });
            }
        } else if c.is_ascii_digit() {
            while i < cs.len()
                && (is_ident_continue(cs[i])
                    || (cs[i] == '.' && at(i + 1).is_some_and(|d| d.is_ascii_digit())))
            {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Literal,
                line,
            });
        } else if is_ident_start(c) {
            let s = i;
            while i < cs.len() && is_ident_continue(cs[i]) {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(cs[s..i].iter().collect()),
                line,
            });
        } else if c == ':' && at(i + 1) == Some(':') {
            out.push(Token {
                tok: Tok::PathSep,
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                tok: Tok::Punct(c),
                line,
            });
            i += 1;
        }
    }
    out
}

/// If a raw string literal (`r"…"`, `r#"…"#`, `br"…"`, `cr#"…"#`) starts at `i`, the index
/// just past it.
fn raw_string_end(cs: &[char], i: usize) -> Option<usize> {
    let mut j = i;
    if matches!(cs[j], 'b' | 'c') && cs.get(j + 1) == Some(&'r') {
        j += 1;
    }
    if cs[j] != 'r' {
        return None;
    }
    let mut k = j + 1;
    let mut hashes = 0;
    while cs.get(k) == Some(&'#') {
        hashes += 1;
        k += 1;
    }
    if cs.get(k) != Some(&'"') {
        return None;
    }
    k += 1;
    while k < cs.len() {
        if cs[k] == '"' && (0..hashes).all(|h| cs.get(k + 1 + h) == Some(&'#')) {
            return Some(k + 1 + hashes);
        }
        k += 1;
    }
    Some(cs.len())
}

// ----------------------------------------------------------------------------------------------
// Module tree and references
// ----------------------------------------------------------------------------------------------

#[derive(Clone, Debug, Default)]
struct Module {
    /// Path from the crate root (empty for the root).
    path: Vec<String>,
    parent: Option<usize>,
    /// The module of the file this module is written in (itself unless inline).
    owner: usize,
    /// File path relative to the crate's `src/`.
    file: String,
    children: BTreeMap<String, usize>,
    /// Names of the items defined here (not modules, not imports).
    defs: BTreeSet<String>,
    /// Test code: imports nothing.
    test: bool,
    /// Children declared `#[cfg(test)] mod name;`.
    cfg_test_children: BTreeSet<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum RefKind {
    /// `use path;` / `use path as name;`: binds `name` (none for `as _`).
    Named(Option<String>),
    /// `use path::*;`
    Glob,
    /// A path written in code, outside `use`.
    Inline,
}

#[derive(Clone, Debug)]
struct Reference {
    /// The (possibly inline) module whose code holds the reference.
    module: usize,
    segs: Vec<String>,
    kind: RefKind,
    /// At module level (so a `use` binds a name other modules can reach).
    item_level: bool,
    /// Inside `#[cfg(test)]` code.
    test: bool,
    line: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Module(usize),
    /// An item defined in the module.
    Item(usize),
}

/// One line that makes an edge.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Evidence {
    file: String,
    line: usize,
    text: String,
    path: String,
}

#[derive(Debug, Default)]
struct CrateGraph {
    modules: Vec<Module>,
    by_path: HashMap<Vec<String>, usize>,
    refs: Vec<Reference>,
    /// Item-level references per module, for name lookup.
    item_refs: Vec<Vec<usize>>,
    lines: BTreeMap<String, Vec<String>>,
}

/// The module path of a file given relative to `src/`, or `None` for files outside the
/// library's (or binary's) module tree.
fn file_module_path(rel: &str, has_lib: bool) -> Option<Vec<String>> {
    let stem = rel.strip_suffix(".rs")?;
    let mut parts: Vec<String> = stem.split('/').map(str::to_string).collect();
    if parts.first().is_some_and(|p| p == "bin") && parts.len() > 1 {
        return None;
    }
    match parts.last().map(String::as_str) {
        Some("lib") if parts.len() == 1 => parts.clear(),
        Some("main") if parts.len() == 1 => {
            if has_lib {
                return None;
            }
            parts.clear();
        }
        Some("mod") => {
            parts.pop();
        }
        _ => {}
    }
    Some(parts)
}

fn is_test_name(name: &str) -> bool {
    name == "tests" || name.ends_with("_tests")
}

const KEYWORDS_NOT_PATH_START: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "dyn", "else", "enum", "extern", "fn",
    "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
    "return", "static", "struct", "trait", "type", "unsafe", "use", "where", "while", "Self",
];

impl CrateGraph {
    /// Builds the graph of one crate from its files (paths relative to `src/`, `/`-separated).
    fn build(files: &[(String, String)]) -> CrateGraph {
        let has_lib = files.iter().any(|(p, _)| p == "lib.rs");
        let mut g = CrateGraph::default();
        let mut laid_out: Vec<(Vec<String>, &str, &str)> = files
            .iter()
            .filter_map(|(p, s)| Some((file_module_path(p, has_lib)?, p.as_str(), s.as_str())))
            .collect();
        laid_out.sort_by(|a, b| (a.0.len(), &a.0).cmp(&(b.0.len(), &b.0)));
        if !laid_out.iter().any(|(m, _, _)| m.is_empty()) {
            g.add_module(Vec::new(), None, "lib.rs");
        }
        let mut file_modules = Vec::new();
        for (path, file, src) in &laid_out {
            let id = g.add_module(path.clone(), None, file);
            let name_is_test = file
                .split('/')
                .any(|part| part == "tests" || is_test_name(part.trim_end_matches(".rs")));
            g.modules[id].test |= name_is_test;
            g.lines
                .insert(file.to_string(), src.lines().map(str::to_string).collect());
            file_modules.push((id, *src));
        }
        for (id, src) in file_modules {
            g.parse_file(id, src);
        }
        for m in 0..g.modules.len() {
            if let Some(p) = g.modules[m].parent {
                let name = g.modules[m].path.last().cloned().unwrap_or_default();
                let inherited = g.modules[p].test || g.modules[p].cfg_test_children.contains(&name);
                g.modules[m].test |= inherited;
            }
        }
        g.item_refs = vec![Vec::new(); g.modules.len()];
        for (k, r) in g.refs.iter().enumerate() {
            if r.item_level {
                g.item_refs[r.module].push(k);
            }
        }
        g
    }

    /// Adds (or finds) the module at `path`, creating missing ancestors; `owner` is the file's
    /// module for inline modules.
    fn add_module(&mut self, path: Vec<String>, owner: Option<usize>, file: &str) -> usize {
        if let Some(&id) = self.by_path.get(&path) {
            return id;
        }
        let parent = if path.is_empty() {
            None
        } else {
            let parent_path = path[..path.len() - 1].to_vec();
            Some(match self.by_path.get(&parent_path) {
                Some(&p) => p,
                None => self.add_module(parent_path, None, file),
            })
        };
        let id = self.modules.len();
        self.modules.push(Module {
            path: path.clone(),
            parent,
            owner: owner.unwrap_or(id),
            file: file.to_string(),
            ..Module::default()
        });
        if let (Some(p), Some(name)) = (parent, path.last()) {
            self.modules[p].children.insert(name.clone(), id);
        }
        self.by_path.insert(path, id);
        id
    }

    /// Records the items, inline modules and references of one file.
    fn parse_file(&mut self, file_module: usize, src: &str) {
        struct Frame {
            module: Option<usize>,
            test: bool,
        }
        let toks = tokenize(src);
        let file = self.modules[file_module].file.clone();
        let ident = |k: usize| match toks.get(k) {
            Some(Token {
                tok: Tok::Ident(s), ..
            }) => Some(s.as_str()),
            _ => None,
        };
        let tok = |k: usize| toks.get(k).map(|t| &t.tok);
        let mut frames = vec![Frame {
            module: Some(file_module),
            test: false,
        }];
        let mut modules = vec![file_module];
        let mut pending_test = false;
        let mut i = 0;
        while i < toks.len() {
            let top = frames.last().expect("the file frame is never popped");
            let item_level = top.module.is_some();
            let frame_test = top.test;
            let cur = *modules.last().expect("the file module is never popped");
            match &toks[i].tok {
                Tok::Punct('#') => {
                    let mut k = i + 1;
                    if tok(k) == Some(&Tok::Punct('!')) {
                        k += 1;
                    }
                    if tok(k) != Some(&Tok::Punct('[')) {
                        i += 1;
                        continue;
                    }
                    let start = k;
                    let mut depth = 0usize;
                    while k < toks.len() {
                        match toks[k].tok {
                            Tok::Punct('[') => depth += 1,
                            Tok::Punct(']') => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        k += 1;
                    }
                    let attr: Vec<&Tok> = toks[start..k.min(toks.len())]
                        .iter()
                        .map(|t| &t.tok)
                        .collect();
                    let cfg_test = attr.len() == 5
                        && matches!(attr[1], Tok::Ident(s) if s == "cfg")
                        && matches!(attr[3], Tok::Ident(s) if s == "test");
                    if cfg_test && tok(i + 1) == Some(&Tok::Punct('!')) {
                        self.modules[cur].test = true;
                    }
                    pending_test |= cfg_test;
                    i = k + 1;
                }
                Tok::Ident(kw) if kw == "use" => {
                    let line = toks[i].line;
                    let mut k = i + 1;
                    let mut leaves = Vec::new();
                    parse_use_tree(&toks, &mut k, Vec::new(), &mut leaves);
                    for (segs, kind, leaf_line) in leaves {
                        self.refs.push(Reference {
                            module: cur,
                            segs,
                            kind,
                            item_level,
                            test: frame_test || pending_test,
                            line: leaf_line.max(line),
                        });
                    }
                    while k < toks.len() && toks[k].tok != Tok::Punct(';') {
                        k += 1;
                    }
                    pending_test = false;
                    i = k + 1;
                }
                Tok::Ident(kw) if kw == "mod" && item_level && ident(i + 1).is_some() => {
                    let name = ident(i + 1).unwrap_or_default().to_string();
                    if tok(i + 2) == Some(&Tok::Punct('{')) {
                        let mut path = self.modules[cur].path.clone();
                        path.push(name.clone());
                        let id = self.add_module(path, Some(file_module), &file);
                        let test = frame_test || pending_test || is_test_name(&name);
                        self.modules[id].test |= test;
                        frames.push(Frame {
                            module: Some(id),
                            test,
                        });
                        modules.push(id);
                        i += 3;
                    } else {
                        if pending_test {
                            self.modules[cur].cfg_test_children.insert(name);
                        }
                        i += 2;
                    }
                    pending_test = false;
                }
                Tok::Ident(kw)
                    if item_level
                        && matches!(
                            kw.as_str(),
                            "fn" | "struct"
                                | "enum"
                                | "union"
                                | "trait"
                                | "type"
                                | "const"
                                | "static"
                        )
                        && !(kw == "const" && i > 0 && toks[i - 1].tok == Tok::Punct('*')) =>
                {
                    let mut k = i + 1;
                    if kw == "static" && ident(k) == Some("mut") {
                        k += 1;
                    }
                    match ident(k) {
                        Some("fn" | "unsafe" | "async" | "extern" | "_" | "mut") | None => {}
                        Some(name) => {
                            self.modules[cur].defs.insert(name.to_string());
                        }
                    }
                    i += 1;
                }
                Tok::Ident(kw)
                    if kw == "macro_rules"
                        && item_level
                        && tok(i + 1) == Some(&Tok::Punct('!')) =>
                {
                    if let Some(name) = ident(i + 2) {
                        self.modules[cur].defs.insert(name.to_string());
                    }
                    i += 3;
                }
                Tok::Punct('{') => {
                    frames.push(Frame {
                        module: None,
                        test: frame_test || pending_test,
                    });
                    pending_test = false;
                    i += 1;
                }
                Tok::Punct('}') => {
                    if frames.len() > 1 && frames.pop().is_some_and(|f| f.module.is_some()) {
                        modules.pop();
                    }
                    pending_test = false;
                    i += 1;
                }
                Tok::Punct(';') => {
                    pending_test = false;
                    i += 1;
                }
                Tok::Ident(first)
                    if tok(i + 1) == Some(&Tok::PathSep)
                        && !KEYWORDS_NOT_PATH_START.contains(&first.as_str())
                        && !(i > 0
                            && matches!(toks[i - 1].tok, Tok::PathSep | Tok::Punct('.'))) =>
                {
                    let line = toks[i].line;
                    let mut segs = vec![first.clone()];
                    let mut k = i + 1;
                    while tok(k) == Some(&Tok::PathSep) {
                        match ident(k + 1) {
                            Some(s) => {
                                segs.push(s.to_string());
                                k += 2;
                            }
                            None => break,
                        }
                    }
                    self.refs.push(Reference {
                        module: cur,
                        segs,
                        kind: RefKind::Inline,
                        item_level: false,
                        test: frame_test,
                        line,
                    });
                    i = k;
                }
                _ => i += 1,
            }
        }
    }

    fn is_test(&self, m: usize) -> bool {
        self.modules[m].test
    }

    fn name(&self, m: usize) -> String {
        if self.modules[m].path.is_empty() {
            "crate".to_string()
        } else {
            self.modules[m].path.join("::")
        }
    }

    /// Resolves `segs`, written in module `cur`, to the module it names or to the module that
    /// defines the item it names; `None` for paths outside the crate.
    fn resolve(
        &self,
        cur: usize,
        segs: &[String],
        seen: &mut BTreeSet<(usize, String)>,
    ) -> Option<Target> {
        let first = segs.first()?;
        let (mut m, rest) = match first.as_str() {
            "crate" => (0, &segs[1..]),
            "self" => (cur, &segs[1..]),
            "super" => {
                let mut m = cur;
                let mut k = 0;
                while segs.get(k).is_some_and(|s| s == "super") {
                    m = self.modules[m].parent?;
                    k += 1;
                }
                (m, &segs[k..])
            }
            _ => match self.modules[cur].children.get(first) {
                Some(&c) => (c, &segs[1..]),
                None => match self.lookup(cur, first, seen)? {
                    Target::Module(c) => (c, &segs[1..]),
                    item => return Some(item),
                },
            },
        };
        for seg in rest {
            if seg == "self" {
                continue;
            }
            if let Some(&c) = self.modules[m].children.get(seg) {
                m = c;
                continue;
            }
            match self.lookup(m, seg, seen) {
                Some(Target::Module(c)) => m = c,
                Some(item) => return Some(item),
                None => return Some(Target::Item(m)),
            }
        }
        Some(Target::Module(m))
    }

    /// What `name` means inside module `m`: an item it defines, a child module, or whatever
    /// one of its module-level imports binds to that name.
    fn lookup(&self, m: usize, name: &str, seen: &mut BTreeSet<(usize, String)>) -> Option<Target> {
        if !seen.insert((m, name.to_string())) {
            return None;
        }
        let module = &self.modules[m];
        if module.defs.contains(name) {
            return Some(Target::Item(m));
        }
        if let Some(&c) = module.children.get(name) {
            return Some(Target::Module(c));
        }
        for &k in &self.item_refs[m] {
            let r = &self.refs[k];
            if r.kind == RefKind::Named(Some(name.to_string())) {
                if let Some(t) = self.resolve(m, &r.segs, seen) {
                    return Some(t);
                }
            }
        }
        for &k in &self.item_refs[m] {
            let r = &self.refs[k];
            if r.kind == RefKind::Glob {
                if let Some(Target::Module(g)) = self.resolve(m, &r.segs, seen) {
                    if let Some(t) = self.lookup(g, name, seen) {
                        return Some(t);
                    }
                }
            }
        }
        None
    }

    /// The file-level edges `(from, to)` with the lines that make them.
    fn edges(&self) -> BTreeMap<(usize, usize), BTreeSet<Evidence>> {
        let mut edges: BTreeMap<(usize, usize), BTreeSet<Evidence>> = BTreeMap::new();
        for r in &self.refs {
            if r.test || self.is_test(r.module) {
                continue;
            }
            let first = r.segs[0].as_str();
            if r.kind == RefKind::Inline
                && !matches!(first, "crate" | "super" | "self")
                && !self.modules[r.module].children.contains_key(first)
            {
                continue;
            }
            let target = match self.resolve(r.module, &r.segs, &mut BTreeSet::new()) {
                Some(Target::Module(t) | Target::Item(t)) => t,
                None => continue,
            };
            let from = self.modules[r.module].owner;
            let to = self.modules[target].owner;
            if from == to {
                continue;
            }
            let file = self.modules[from].file.clone();
            let text = self
                .lines
                .get(&file)
                .and_then(|ls| ls.get(r.line - 1))
                .map(|l| l.trim().to_string())
                .unwrap_or_default();
            let mut path = r.segs.join("::");
            if r.kind == RefKind::Glob {
                path.push_str("::*");
            }
            edges.entry((from, to)).or_default().insert(Evidence {
                file,
                line: r.line,
                text,
                path,
            });
        }
        edges
    }

    /// Strongly connected components with at least two modules, each sorted, in a fixed order.
    fn cycles(&self) -> Vec<Vec<usize>> {
        let edges = self.edges();
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); self.modules.len()];
        for &(a, b) in edges.keys() {
            succ[a].push(b);
        }
        let mut sccs: Vec<Vec<usize>> = strongly_connected(&succ)
            .into_iter()
            .filter(|c| c.len() >= 2)
            .collect();
        for c in &mut sccs {
            c.sort_by_key(|&m| self.modules[m].path.clone());
        }
        sccs.sort_by_key(|c| self.modules[c[0]].path.clone());
        sccs
    }

    /// A report of every cycle (empty when there is none).
    fn report(&self, crate_dir: &str) -> String {
        let edges = self.edges();
        let mut out = String::new();
        for scc in self.cycles() {
            let names: Vec<String> = scc.iter().map(|&m| self.name(m)).collect();
            let _ = writeln!(
                out,
                "crate `{crate_dir}`: modules {{{}}} import each other",
                names.join(", ")
            );
            for (&(a, b), evidence) in &edges {
                if !scc.contains(&a) || !scc.contains(&b) {
                    continue;
                }
                let _ = writeln!(out, "  {} -> {}", self.name(a), self.name(b));
                let mut by_line: BTreeMap<(&str, usize, &str), Vec<&str>> = BTreeMap::new();
                for e in evidence {
                    by_line
                        .entry((&e.file, e.line, &e.text))
                        .or_default()
                        .push(&e.path);
                }
                for ((file, line, text), paths) in by_line {
                    let _ = writeln!(
                        out,
                        "    {crate_dir}/src/{file}:{line}: {text}    [{}]",
                        paths.join(", ")
                    );
                }
            }
        }
        out
    }
}

/// Parses a `use` tree starting at `toks[*k]` (after `use` or `{`), appending its leaves as
/// `(segments, kind, line)`.
fn parse_use_tree(
    toks: &[Token],
    k: &mut usize,
    mut prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, RefKind, usize)>,
) {
    loop {
        let Some(t) = toks.get(*k) else { return };
        match &t.tok {
            Tok::PathSep => *k += 1,
            Tok::Punct('*') => {
                *k += 1;
                out.push((prefix, RefKind::Glob, t.line));
                return;
            }
            Tok::Punct('{') => {
                *k += 1;
                while let Some(t) = toks.get(*k) {
                    match t.tok {
                        Tok::Punct('}') => {
                            *k += 1;
                            return;
                        }
                        Tok::Punct(',') => *k += 1,
                        _ => {
                            let before = *k;
                            parse_use_tree(toks, k, prefix.clone(), out);
                            if *k == before {
                                *k += 1;
                            }
                        }
                    }
                }
                return;
            }
            Tok::Ident(s) => {
                prefix.push(s.clone());
                *k += 1;
                if toks.get(*k).map(|t| &t.tok) == Some(&Tok::PathSep) {
                    *k += 1;
                    continue;
                }
                let mut bound = if s == "self" {
                    prefix.len().checked_sub(2).map(|p| prefix[p].clone())
                } else {
                    Some(s.clone())
                };
                if matches!(toks.get(*k).map(|t| &t.tok), Some(Tok::Ident(a)) if a == "as") {
                    bound = match toks.get(*k + 1).map(|t| &t.tok) {
                        Some(Tok::Ident(alias)) if alias != "_" => Some(alias.clone()),
                        _ => None,
                    };
                    *k += 2;
                }
                out.push((prefix, RefKind::Named(bound), t.line));
                return;
            }
            _ => return,
        }
    }
}

/// Tarjan's algorithm.
fn strongly_connected(succ: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        succ: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State<'_>, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &s.succ[v] {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            s.out.push(comp);
        }
    }
    let n = succ.len();
    let mut s = State {
        succ,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}

// ----------------------------------------------------------------------------------------------
// The workspace check
// ----------------------------------------------------------------------------------------------

/// The workspace root: the nearest ancestor of the package directory (or of the current
/// directory, when compiled standalone) whose `Cargo.toml` has a `[workspace]` section.
fn workspace_root() -> PathBuf {
    let start = option_env!("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from))
        .or_else(|| std::env::current_dir().ok())
        .expect("no package or current directory");
    start
        .ancestors()
        .find(|d| {
            fs::read_to_string(d.join("Cargo.toml")).is_ok_and(|t| t.contains("[workspace]"))
                && d.join("crates").is_dir()
        })
        .map(Path::to_path_buf)
        .unwrap_or_else(|| start.join("../.."))
}

/// Every `.rs` file under `dir`, as (`/`-separated path relative to `base`, contents).
fn rust_files(base: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(base, &p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let rel = p.strip_prefix(base).expect("under base");
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let text =
                fs::read_to_string(&p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display()));
            out.push((rel.join("/"), text));
        }
    }
}

#[test]
fn no_module_imports_a_module_that_imports_it_back() {
    let root = workspace_root();
    let crates = root.join("crates");
    let mut dirs: Vec<PathBuf> = fs::read_dir(&crates)
        .unwrap_or_else(|e| panic!("reading {}: {e}", crates.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("src").is_dir())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no crates under {}", crates.display());
    let mut report = String::new();
    for dir in dirs {
        let name = dir
            .file_name()
            .expect("crate dir")
            .to_string_lossy()
            .into_owned();
        if SKIP.contains(&name.as_str()) {
            continue;
        }
        let src = dir.join("src");
        let mut files = Vec::new();
        rust_files(&src, &src, &mut files);
        report.push_str(&CrateGraph::build(&files).report(&format!("crates/{name}")));
    }
    assert!(
        report.is_empty(),
        "modules that import each other (directly or through others); break every cycle:\n{report}"
    );
}

// ----------------------------------------------------------------------------------------------
// Tests of the checker itself
// ----------------------------------------------------------------------------------------------

#[cfg(test)]
mod checker_tests {
    use super::*;

    fn graph(files: &[(&str, &str)]) -> CrateGraph {
        let files: Vec<(String, String)> = files
            .iter()
            .map(|(p, s)| (p.to_string(), s.to_string()))
            .collect();
        CrateGraph::build(&files)
    }

    /// The edges as `from -> to` strings.
    fn edges(files: &[(&str, &str)]) -> Vec<String> {
        let g = graph(files);
        g.edges()
            .keys()
            .map(|&(a, b)| format!("{} -> {}", g.name(a), g.name(b)))
            .collect()
    }

    fn cycles(files: &[(&str, &str)]) -> Vec<Vec<String>> {
        let g = graph(files);
        g.cycles()
            .iter()
            .map(|c| c.iter().map(|&m| g.name(m)).collect())
            .collect()
    }

    fn leaves(src: &str) -> Vec<(String, RefKind)> {
        let toks = tokenize(src);
        let mut k = 1;
        let mut out = Vec::new();
        parse_use_tree(&toks, &mut k, Vec::new(), &mut out);
        out.into_iter()
            .map(|(s, kind, _)| (s.join("::"), kind))
            .collect()
    }

    fn named(path: &str, bound: &str) -> (String, RefKind) {
        (path.to_string(), RefKind::Named(Some(bound.to_string())))
    }

    #[test]
    fn nested_use_trees_are_flattened() {
        assert_eq!(
            leaves("use a::{b::{c, d as e}, f::*, g::{self}, h as _};"),
            vec![
                named("a::b::c", "c"),
                named("a::b::d", "e"),
                ("a::f".to_string(), RefKind::Glob),
                named("a::g::self", "g"),
                ("a::h".to_string(), RefKind::Named(None)),
            ]
        );
        assert_eq!(leaves("use ::std::fmt;"), vec![named("std::fmt", "fmt")]);
        assert_eq!(
            leaves("use {a::b, c};"),
            vec![named("a::b", "b"), named("c", "c")]
        );
    }

    #[test]
    fn comments_strings_and_chars_are_not_code() {
        let toks = tokenize(
            "// use crate::a;\n/* use crate::b; /* nested */ */ let s = \"use crate::c;\";\n\
             let r = r#\"use crate::d; \"quoted\" \"#; let c = '\"'; let l: &'static str = \"\\\"\";\n\
             let b = b'{'; fn f<'a>(x: &'a u8) {}",
        );
        let idents: Vec<&str> = toks
            .iter()
            .filter_map(|t| match &t.tok {
                Tok::Ident(s) => Some(s.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(
            idents,
            [
                "let", "s", "let", "r", "let", "c", "let", "l", "str", "let", "b", "fn", "f", "x",
                "u8"
            ]
        );
        assert_eq!(toks.iter().filter(|t| t.tok == Tok::Punct('{')).count(), 1);
        assert_eq!(toks.last().map(|t| t.line), Some(4));
    }

    #[test]
    fn re_exports_are_followed_to_the_defining_module() {
        let files = [
            (
                "lib.rs",
                "mod graph; mod sim; pub use graph::{Aig, Lit as L};",
            ),
            ("graph.rs", "pub struct Aig; pub struct Lit;"),
            (
                "sim.rs",
                "use crate::{Aig, L}; fn f() -> crate::Aig { todo!() }",
            ),
        ];
        assert_eq!(edges(&files), ["crate -> graph", "sim -> graph"]);
        assert!(cycles(&files).is_empty());
    }

    #[test]
    fn a_child_importing_what_its_parent_defines_makes_a_cycle_only_with_a_re_export() {
        let only_mod = [
            ("lib.rs", "pub mod bmc; pub enum Verdict { Safe }"),
            ("bmc.rs", "pub(crate) use crate::Verdict; pub struct Bmc;"),
        ];
        assert!(cycles(&only_mod).is_empty());
        let re_export = [
            (
                "lib.rs",
                "pub mod bmc; pub use bmc::Bmc; pub enum Verdict { Safe }",
            ),
            ("bmc.rs", "use crate::Verdict::Safe; pub struct Bmc;"),
        ];
        assert_eq!(cycles(&re_export), [["crate", "bmc"]]);
        let report = graph(&re_export).report("crates/prove");
        assert!(
            report.contains("crates/prove/src/bmc.rs:1: use crate::Verdict::Safe;"),
            "{report}"
        );
        assert!(report.contains("crate -> bmc"), "{report}");
    }

    #[test]
    fn longer_cycles_are_one_component() {
        let files = [
            ("lib.rs", "mod a; mod b; mod c; mod d;"),
            ("a.rs", "use super::b::B; pub struct A;"),
            ("b.rs", "pub struct B; fn f() { crate::c::g() }"),
            ("c.rs", "pub fn g() { let _ = super::a::A; }"),
            ("d.rs", "use crate::a::A;"),
        ];
        assert_eq!(cycles(&files), [["a", "b", "c"]]);
    }

    #[test]
    fn file_layout_child_paths_and_inline_modules() {
        let files = [
            ("lib.rs", "pub mod blast;"),
            ("blast/mod.rs", "mod exprs; mod words; use exprs::lower; pub struct Ctx; mod inner { pub fn h() {} }"),
            ("blast/exprs.rs", "use super::words::{self}; pub fn lower() { words::w() }"),
            ("blast/words.rs", "pub fn w() { super::inner::h(); } pub fn v() { self::w() }"),
        ];
        assert_eq!(
            edges(&files),
            [
                "blast -> blast::exprs",
                "blast::exprs -> blast::words",
                "blast::words -> blast"
            ]
        );
        assert_eq!(cycles(&files), [["blast", "blast::exprs", "blast::words"]]);
    }

    #[test]
    fn test_code_imports_nothing() {
        let files = [
            ("lib.rs", "mod a; #[cfg(test)] mod support; pub use a::A; pub struct R;"),
            ("a.rs", "pub struct A;\n#[cfg(test)]\nmod tests { use crate::R; }\n#[cfg(test)] use crate::R as Q;\n#[cfg(test)] fn t() { crate::R; }"),
            ("a/tests.rs", "use crate::R;"),
            ("a/more_tests.rs", "use crate::R;"),
            ("tests/mod.rs", "use crate::R;"),
            ("support.rs", "use crate::R;"),
        ];
        assert_eq!(edges(&files), ["crate -> a"]);
    }

    #[test]
    fn glob_re_exports_and_definitions_are_found() {
        let files = [
            ("lib.rs", "mod ops; mod user; pub use ops::*;"),
            ("ops.rs", "pub const fn k() {} pub static mut N: u8 = 0; pub trait T {} impl T for u8 { fn m() {} }"),
            ("user.rs", "use crate::{k, N, T}; use crate::m;"),
        ];
        assert_eq!(
            edges(&files),
            ["crate -> ops", "user -> crate", "user -> ops"]
        );
    }
}
