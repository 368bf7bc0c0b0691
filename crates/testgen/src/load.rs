//! Loading a model: the language a file is written in, the front-end options, and the
//! [`Model`] the job works on (system, name, identifying hash, initial-state convention).

use std::path::{Path, PathBuf};

pub use hypermut_ir::Language;
use hypermut_ir::{Diagnostic, Severity, System};
pub use hypermut_smv::Preprocessor;
use hypermut_smv::SmvOptions;
use hypermut_verilog::VerilogOptions;

use crate::convention::{apply as apply_convention, Convention};
use crate::error::{Error, Result};
use crate::filelist::{DesignFiles, ModelSource};
use crate::init::InitOption;
use crate::reset::ResetOption;

/// The language a model file is written in, by its extension ([`Language::of_file_name`]).
pub fn language_of(path: &Path) -> Result<Language> {
    if path.extension().is_some_and(|e| e == "f") {
        return Err(Error::FileListAsModel {
            path: path.to_path_buf(),
        });
    }
    Language::of_file_name(&path.to_string_lossy()).ok_or_else(|| Error::UnsupportedModelType {
        path: path.to_path_buf(),
        ext: path
            .extension()
            .map(|e| e.to_string_lossy().into_owned())
            .unwrap_or_default(),
    })
}

/// Front-end options: what shapes the system read from the files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrontendOptions {
    /// SMV: exactly these variables are inputs (replaces the `-- @input` pragmas).
    pub inputs: Option<Vec<String>>,
    /// SMV: exactly these variables or DEFINEs are outputs (replaces `-- @output`).
    pub outputs: Option<Vec<String>>,
    /// SMV: the external preprocessors the model goes through first, in order (`--pre`,
    /// NuSMV's `-pre`; [`SmvOptions::pre`]).
    pub pre: Vec<Preprocessor>,
    /// Verilog: the top module (default: of the modules nothing instantiates, the one with the
    /// deepest hierarchy, as yosys `hierarchy -auto-top` chooses).
    pub top: Option<String>,
    /// Verilog: folders searched for `` `include `` files.
    pub include_dirs: Vec<PathBuf>,
    /// Verilog: predefined macros as given, `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
    /// Verilog: every register, latch and memory word is an output too.
    pub observe_state: bool,
    /// Verilog: each `x`/`z` literal bit is a fresh input instead of 0.
    pub x_as_input: bool,
    /// The reset input held during the first cycles of every run, original and mutant
    /// (`--reset`; `docs/method.md` §6.1). By default a Verilog design's one 1-bit input
    /// named like a reset (`rst`, `rst_n`, …) is held for one cycle, with a note.
    pub reset: ResetOption,
    /// What registers without an initial value start with (`--init`): free power-up values
    /// (the default) or zero.
    pub init: InitOption,
}

impl FrontendOptions {
    /// The options that apply to a model in `language`: those of the other language are
    /// reset to their defaults (a table's models share one set of options).
    pub fn for_language(&self, language: Language) -> FrontendOptions {
        let default = FrontendOptions::default();
        match language {
            Language::Smv => FrontendOptions {
                top: default.top,
                include_dirs: default.include_dirs,
                defines: default.defines,
                observe_state: default.observe_state,
                x_as_input: default.x_as_input,
                ..self.clone()
            },
            Language::Verilog => FrontendOptions {
                inputs: default.inputs,
                outputs: default.outputs,
                pre: default.pre,
                ..self.clone()
            },
        }
    }

    /// The options the SMV front-end takes.
    pub fn smv(&self) -> SmvOptions {
        SmvOptions {
            inputs: self.inputs.clone(),
            outputs: self.outputs.clone(),
            pre: self.pre.clone(),
        }
    }

    /// The options the Verilog front-end takes.
    pub fn verilog(&self) -> VerilogOptions {
        VerilogOptions {
            top: self.top.clone(),
            include_dirs: self.include_dirs.clone(),
            defines: self.defines.iter().map(|d| parse_define(d)).collect(),
            observe_state: self.observe_state,
            x_as_input: self.x_as_input,
        }
    }
}

/// `NAME=VALUE` → (NAME, VALUE); `NAME` → (NAME, "1"), as simulators do for `+define+NAME`.
fn parse_define(text: &str) -> (String, String) {
    match text.split_once('=') {
        Some((n, v)) => (n.to_string(), v.to_string()),
        None => (text.to_string(), "1".to_string()),
    }
}

/// What the front-end read: the system and its notes (warnings with their locations).
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The transition system (with the reset held and the initial values of
    /// [`FrontendOptions::reset`] and [`FrontendOptions::init`]).
    pub system: System,
    /// The front-end's warnings and notes.
    pub diagnostics: Vec<Diagnostic>,
    /// The initial-state convention applied to the system.
    pub convention: Convention,
}

/// Reads the model made of `paths` (an SMV model is one file; a Verilog design may be
/// several, read in order) with the front-end their extensions name. Several SMV files, or
/// files of both languages, are refused. A model without outputs gets a warning: no mutant
/// of it can be killed. The initial-state convention of `options` (`reset`, `init`) is then
/// applied to the system ([`crate::convention::apply`]).
pub fn load(paths: &[PathBuf], options: &FrontendOptions) -> Result<Loaded> {
    let mut loaded = load_files(paths, options)?;
    let language = match paths.first() {
        Some(p) => language_of(p)?,
        None => return Err(Error::NoModel),
    };
    let (convention, notes) =
        apply_convention(&mut loaded.system, language, &options.reset, options.init)?;
    loaded.convention = convention;
    loaded.diagnostics.extend(notes);
    if loaded.system.outputs.is_empty() {
        loaded
            .diagnostics
            .push(Diagnostic::new(Severity::Warning, NO_OUTPUTS_WARNING));
    }
    Ok(loaded)
}

/// What a model without outputs is told.
pub const NO_OUTPUTS_WARNING: &str = "the model has no outputs, so no mutant can be killed \
    (tests observe outputs only): mark outputs with `-- @output` or --outputs (SMV), or make \
    registers observable with --observe-state (Verilog)";

/// [`load`] without the checks of the loaded system.
fn load_files(paths: &[PathBuf], options: &FrontendOptions) -> Result<Loaded> {
    let first = paths.first().ok_or(Error::NoModel)?;
    let languages = paths
        .iter()
        .map(|p| language_of(p))
        .collect::<Result<Vec<Language>>>()?;
    let smv = paths
        .iter()
        .zip(&languages)
        .find(|(_, l)| **l == Language::Smv);
    if let (Some((smv, _)), true) = (smv, paths.len() > 1) {
        return Err(
            match paths
                .iter()
                .zip(&languages)
                .find(|(_, l)| **l == Language::Verilog)
            {
                Some((verilog, _)) => Error::MixedLanguages {
                    smv: smv.clone(),
                    verilog: verilog.clone(),
                },
                None => Error::SeveralSmvFiles {
                    files: paths.to_vec(),
                },
            },
        );
    }
    match language_of(first)? {
        Language::Smv => {
            for (option, given) in [
                ("--top", options.top.is_some()),
                ("--include", !options.include_dirs.is_empty()),
                ("--define", !options.defines.is_empty()),
                ("--observe-state", options.observe_state),
                ("--x-as-input", options.x_as_input),
            ] {
                if given {
                    return Err(Error::VerilogOnlyOption {
                        option,
                        path: first.clone(),
                    });
                }
            }
            let loaded = hypermut_smv::load_smv_with(first, &options.smv())?;
            Ok(Loaded {
                system: loaded.system,
                diagnostics: loaded.diagnostics,
                convention: Convention::default(),
            })
        }
        Language::Verilog => {
            for (option, given) in [
                ("--inputs", options.inputs.is_some()),
                ("--outputs", options.outputs.is_some()),
                ("--pre", !options.pre.is_empty()),
            ] {
                if given {
                    return Err(Error::SmvOnlyOption {
                        option,
                        path: first.clone(),
                    });
                }
            }
            let loaded = hypermut_verilog::load_verilog(paths, &options.verilog())?;
            Ok(Loaded {
                system: loaded.system,
                diagnostics: loaded.diagnostics,
                convention: Convention::default(),
            })
        }
    }
}

/// A loaded model as the job sees it.
#[derive(Clone, Debug)]
pub struct Model {
    /// The transition system.
    pub system: System,
    /// The model as given: its path, or for a design of several files all of them as the
    /// command line names them (`a.v b.v`, `-f rtl.f`); shown in results.
    pub name: String,
    /// Identifies the model: a hash of its sources and of the front-end options (see
    /// [`model_hash`]).
    pub hash: String,
    /// The language of the model.
    pub language: Language,
    /// The front-end options it was read with.
    pub options: FrontendOptions,
    /// How every run starts: the reset held and the initial values (`docs/method.md` §6.1).
    pub convention: Convention,
}

impl Model {
    /// Loads the model made of `paths`; also returns the front-end's diagnostics. A model of
    /// several files is named after all of them, and its hash also covers where each source
    /// file ends ([`files_hash`]). A convention other than free power-up values without reset
    /// is part of the hash too ([`convention_hash`]).
    pub fn load(paths: &[PathBuf], options: &FrontendOptions) -> Result<(Model, Vec<Diagnostic>)> {
        let loaded = load(paths, options)?;
        let first = paths.first().ok_or(Error::NoModel)?;
        let mut model = Model::new(loaded.system, first, options)?;
        if paths.len() > 1 {
            model.name = paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(" ");
            model.hash = files_hash(&model.system, options);
        }
        model.hash = convention_hash(&model.hash, &loaded.convention);
        model.convention = loaded.convention;
        Ok((model, loaded.diagnostics))
    }

    /// The initial-state convention its tests assume, in words (the `initial_state` of a
    /// test file, `docs/formats.md` §2.1).
    pub fn initial_state(&self) -> String {
        self.convention.describe()
    }

    /// Loads the model a command line names: files and file lists (`-f`) in order
    /// ([`DesignFiles::expand`]); the include folders and macros of the lists are added to
    /// `options`. The model is named as the command line names it (`a.v b.v`, `-f rtl.f`).
    pub fn load_sources(
        sources: &[ModelSource],
        options: &FrontendOptions,
    ) -> Result<(Model, Vec<Diagnostic>)> {
        let design = DesignFiles::expand(sources)?;
        let mut options = options.clone();
        options.include_dirs.extend(design.include_dirs);
        options.defines.extend(design.defines);
        let (mut model, diagnostics) = Model::load(&design.files, &options)?;
        model.name = sources
            .iter()
            .map(ModelSource::describe)
            .collect::<Vec<_>>()
            .join(" ");
        Ok((model, diagnostics))
    }

    /// The model for a system read from `path` with `options`, taken as it is (convention:
    /// free power-up values, no reset held).
    pub fn new(system: System, path: &Path, options: &FrontendOptions) -> Result<Model> {
        let hash = model_hash(&system, options);
        Ok(Model {
            system,
            name: path.display().to_string(),
            hash,
            language: language_of(path)?,
            options: options.clone(),
            convention: Convention::default(),
        })
    }

    /// For an SMV model, the front-end options a mutant's edited source is re-read with
    /// (NuSMV's static checks: types, constant ranges, exhaustive `case`, no circular
    /// definitions); `None` for Verilog designs. Without preprocessors: the source of a
    /// mutant of a preprocessed model is already preprocessed text.
    pub fn smv_recheck(&self) -> Option<SmvOptions> {
        (self.language == Language::Smv).then(|| SmvOptions {
            pre: Vec::new(),
            ..self.options.smv()
        })
    }
}

/// FNV-1a 64-bit hash, as hex, of the model's sources and of the front-end options that
/// shape the system (identifies the model a test or a results directory belongs to).
pub fn model_hash(sys: &System, options: &FrontendOptions) -> String {
    let described = format!(
        "{:?}|{:?}|{:?}|{:?}|{:?}|{}|{}",
        options.inputs,
        options.outputs,
        options.top,
        options.include_dirs,
        options.defines,
        options.observe_state,
        options.x_as_input
    );
    let mut all = String::new();
    for f in sys.sources.files() {
        all.push_str(&f.text);
    }
    all.push_str(&described);
    // Only when set, so that the hashes of models read without preprocessor stay as they were.
    if !options.pre.is_empty() {
        let names: Vec<&str> = options.pre.iter().map(|p| p.name()).collect();
        all.push_str(&format!("|pre: {}", names.join(" ")));
    }
    text_hash(&all)
}

/// The hash of a model of several design files: [`model_hash`] and the length of every
/// source file, so that text moved from one file into the next changes it too.
pub fn files_hash(sys: &System, options: &FrontendOptions) -> String {
    let mut described = model_hash(sys, options);
    for f in sys.sources.files() {
        described.push_str(&format!("|{}", f.text.len()));
    }
    text_hash(&described)
}

/// `hash` as it is for free power-up values without reset (the models of earlier versions);
/// otherwise the hash of `hash` and the convention's description.
pub fn convention_hash(hash: &str, convention: &Convention) -> String {
    if convention.is_free() {
        hash.to_string()
    } else {
        text_hash(&format!("{hash}|initial state: {}", convention.describe()))
    }
}

/// FNV-1a 64-bit hash of `text`, as hex.
pub fn text_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_by_extension() {
        for (name, want) in [
            ("m.smv", Some(Language::Smv)),
            ("model", Some(Language::Smv)),
            ("d.v", Some(Language::Verilog)),
            ("d.sv", Some(Language::Verilog)),
            ("d.vh", Some(Language::Verilog)),
            ("d.vl", Some(Language::Verilog)),
            ("d.vhd", None),
        ] {
            assert_eq!(language_of(Path::new(name)).ok(), want, "{name}");
        }
        assert_eq!(
            language_of(Path::new("rtl/d.f")).unwrap_err().to_string(),
            "rtl/d.f: a file list, not a model file: name it with `-f rtl/d.f`"
        );
        let e = language_of(Path::new("x.vhd")).unwrap_err().to_string();
        assert_eq!(
            e,
            "x.vhd: unsupported model type `.vhd` (expected NuSMV `.smv` or Verilog `.v`)"
        );
    }

    #[test]
    fn defines_and_hashes() {
        assert_eq!(parse_define("A=3"), ("A".into(), "3".into()));
        assert_eq!(parse_define("B"), ("B".into(), "1".into()));
        assert_eq!(text_hash(""), "cbf29ce484222325");
        assert_eq!(text_hash("a"), "af63dc4c8601ec8c");
        let sys = System::new("m");
        let plain = model_hash(&sys, &FrontendOptions::default());
        let other = model_hash(
            &sys,
            &FrontendOptions {
                observe_state: true,
                ..FrontendOptions::default()
            },
        );
        assert_ne!(plain, other);
    }

    #[test]
    fn options_of_the_other_language_are_refused() {
        let smv = [PathBuf::from("m.smv")];
        let e = load(
            &smv,
            &FrontendOptions {
                top: Some("t".into()),
                ..FrontendOptions::default()
            },
        )
        .unwrap_err();
        assert!(matches!(
            e,
            Error::VerilogOnlyOption {
                option: "--top",
                ..
            }
        ));
        let two = [PathBuf::from("m.smv"), PathBuf::from("n.smv")];
        let e = load(&two, &FrontendOptions::default()).unwrap_err();
        assert!(matches!(e, Error::SeveralSmvFiles { ref files } if files.len() == 2));
        assert_eq!(
            e.to_string(),
            "an SMV model is one file, but 2 were given (m.smv, n.smv); only a Verilog design may have several"
        );
        for mixed in [
            [PathBuf::from("d.v"), PathBuf::from("m.smv")],
            [PathBuf::from("m.smv"), PathBuf::from("d.v")],
        ] {
            let e = load(&mixed, &FrontendOptions::default()).unwrap_err();
            assert_eq!(
                e.to_string(),
                "m.smv is SMV but d.v is Verilog: a model is written in one language (an SMV model is one file)"
            );
        }
        let e = load(
            &[PathBuf::from("d.v"), PathBuf::from("x.vhd")],
            &FrontendOptions::default(),
        )
        .unwrap_err();
        assert!(matches!(e, Error::UnsupportedModelType { .. }), "{e}");
        let v = [PathBuf::from("d.v")];
        let e = load(
            &v,
            &FrontendOptions {
                inputs: Some(vec![]),
                ..FrontendOptions::default()
            },
        )
        .unwrap_err();
        assert!(matches!(
            e,
            Error::SmvOnlyOption {
                option: "--inputs",
                ..
            }
        ));
        assert!(matches!(
            load(&[], &FrontendOptions::default()),
            Err(Error::NoModel)
        ));
    }

    #[test]
    fn preprocessors_are_an_smv_option() {
        let pre = FrontendOptions {
            pre: vec![Preprocessor::Cpp],
            ..FrontendOptions::default()
        };
        assert_eq!(pre.smv().pre, [Preprocessor::Cpp]);
        let e = load(&[PathBuf::from("d.v")], &pre).unwrap_err();
        assert!(
            matches!(
                e,
                Error::SmvOnlyOption {
                    option: "--pre",
                    ..
                }
            ),
            "{e}"
        );
        let sys = System::new("m");
        assert_ne!(
            model_hash(&sys, &pre),
            model_hash(&sys, &FrontendOptions::default())
        );
        // A mutant's source is preprocessed text already: it is re-read without them.
        let m = Model::new(System::new("m"), Path::new("m.smv"), &pre).expect("model");
        assert_eq!(m.smv_recheck().map(|o| o.pre), Some(vec![]));
    }

    /// The bundled models of a folder with an extension.
    fn bundled(dir: &str, ext: &str) -> Vec<PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../models")
            .join(dir);
        let mut v: Vec<PathBuf> = std::fs::read_dir(&root)
            .expect("models folder")
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        v.sort();
        assert!(!v.is_empty(), "{}", root.display());
        v
    }

    fn with(reset: &str, init: InitOption) -> FrontendOptions {
        FrontendOptions {
            reset: reset.parse().expect("a reset option"),
            init,
            ..FrontendOptions::default()
        }
    }

    #[test]
    fn the_convention_changes_neither_mutants_nor_interface() {
        let mut models = bundled("verilog", "v");
        models.extend(bundled("smv", "smv"));
        for path in models {
            let verilog = path.extension().is_some_and(|e| e == "v");
            let paths = [path.clone()];
            let (plain, _) = Model::load(&paths, &with("none", InitOption::Free)).expect("loads");
            let want = hypermut_mutate::enumerate(&plain.system, &hypermut_mutate::Operator::ALL);
            // Every bundled Verilog design has a 1-bit `rst`; the SMV models hold nothing
            // unless told.
            let mut variants = vec![with("none", InitOption::Zero)];
            if verilog {
                variants.push(with("rst=0:3", InitOption::Free));
                variants.push(with("rst:2", InitOption::Zero));
            }
            variants.push(FrontendOptions::default());
            for options in variants {
                let (m, _) = Model::load(&paths, &options).expect("loads");
                let got = hypermut_mutate::enumerate(&m.system, &hypermut_mutate::Operator::ALL);
                assert_eq!(got, want, "{}: {options:?}", path.display());
                let inputs = |s: &System| -> Vec<String> {
                    s.vars_with_role(hypermut_ir::Role::Input)
                        .iter()
                        .map(|v| s.var(*v).name.clone())
                        .collect()
                };
                assert_eq!(inputs(&m.system), inputs(&plain.system));
                let outputs = |s: &System| -> Vec<String> {
                    s.outputs.iter().map(|o| o.name.clone()).collect()
                };
                assert_eq!(outputs(&m.system), outputs(&plain.system));
                assert_eq!(m.hash == plain.hash, m.convention.is_free(), "{options:?}");
            }
            // Without a convention the hash is that of earlier versions.
            assert_eq!(
                plain.hash,
                model_hash(&plain.system, &with("none", InitOption::Free))
            );
        }
    }

    #[test]
    fn a_verilog_reset_is_detected_and_a_bad_one_refused() {
        let arbiter = bundled("verilog", "v")
            .into_iter()
            .find(|p| p.ends_with("arbiter.v"))
            .expect("arbiter.v");
        let paths = [arbiter];
        let (m, diagnostics) = Model::load(&paths, &FrontendOptions::default()).expect("loads");
        assert_eq!(
            m.initial_state(),
            "reset: rst held at 1 for 1 cycle; other registers start with free values"
        );
        assert!(m.convention.detected);
        let note = diagnostics
            .iter()
            .find(|d| d.severity == Severity::Note && d.message.contains("holding reset"))
            .expect("a note");
        assert_eq!(
            note.to_string(),
            // gnt0, gnt1, served (3 bits), last, phase (3 bits) and tick: 10 register bits.
            "note: holding reset `rst` at 1 (the level from its effect on 10 register bits) for \
             the first cycle of every test (detected by name; --reset none to disable, --reset \
             NAME=LEVEL:CYCLES,... to choose)"
        );
        let (named, diagnostics) =
            Model::load(&paths, &with("rst=1:1", InitOption::Free)).expect("loads");
        assert!(!named.convention.detected);
        assert!(diagnostics
            .iter()
            .all(|d| !d.message.contains("holding reset")));
        assert_eq!(named.hash, m.hash, "the same convention, detected or named");
        for (reset, phrase) in [
            (
                "clk",
                "the model has no input `clk` (its inputs: rst, req0, req1)",
            ),
            ("grant0", "the model has no input `grant0`"),
        ] {
            let e = Model::load(&paths, &with(reset, InitOption::Free)).unwrap_err();
            assert!(matches!(e, Error::Reset(_)), "{e}");
            assert!(e.to_string().contains(phrase), "{e}");
        }
    }

    #[test]
    fn several_files_name_and_hash_the_whole_design() {
        let dir = tempfile::tempdir().expect("temp dir");
        let write = |name: &str, text: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, text).expect("write");
            p
        };
        let leaf = "module leaf(input a, output y);\n  assign y = ~a;\nendmodule\n";
        let top = "module top(input a, output y);\n  leaf u(a, y);\nendmodule\n";
        let a = write("top.v", top);
        let b = write("leaf.v", leaf);
        let opts = FrontendOptions::default();
        let (m, diagnostics) = Model::load(&[a.clone(), b.clone()], &opts).expect("loads");
        assert_eq!(m.system.name, "top");
        assert_eq!(m.name, format!("{} {}", a.display(), b.display()));
        assert!(
            diagnostics
                .iter()
                .any(|d| d.message.contains("top module `top` chosen automatically")),
            "{diagnostics:?}"
        );
        // The hash covers every file: changing the second one changes it.
        let before = m.hash.clone();
        write("leaf.v", &leaf.replace('~', "!"));
        let (changed, _) = Model::load(&[a.clone(), b.clone()], &opts).expect("loads");
        assert_ne!(changed.hash, before);
        // Moving text across the boundary of two files changes it too.
        let one = write("one.v", &format!("{top}{leaf}"));
        let (single, _) = Model::load(std::slice::from_ref(&one), &opts).expect("loads");
        write("leaf.v", leaf);
        let (again, _) = Model::load(&[a.clone(), b.clone()], &opts).expect("loads");
        assert_eq!(again.hash, before, "the same files give the same hash");
        assert_ne!(single.hash, again.hash);
        // A single file keeps its name and the plain model hash.
        assert_eq!(single.name, one.display().to_string());
        assert_eq!(single.hash, model_hash(&single.system, &opts));

        // Through a file list: named as the command line names it, same system.
        let list = write("design.f", "// the design\ntop.v\nleaf.v\n+define+UNUSED\n");
        let sources = [ModelSource::List(list.clone())];
        let (listed, _) = Model::load_sources(&sources, &opts).expect("loads");
        assert_eq!(listed.name, format!("-f {}", list.display()));
        assert_eq!(listed.system.name, "top");
        assert_eq!(listed.options.defines, ["UNUSED"]);
        assert_ne!(
            listed.hash, again.hash,
            "the list's macro is part of the options"
        );
        // A located error in the list is a located error of the job.
        let bad = write("bad.f", "top.v\n-y lib\n");
        let e = Model::load_sources(&[ModelSource::List(bad)], &opts).unwrap_err();
        assert!(e.is_located(), "{e}");
        assert!(
            e.to_string()
                .contains("bad.f:2:1: error: unsupported option `-y`"),
            "{e}"
        );
    }
}
