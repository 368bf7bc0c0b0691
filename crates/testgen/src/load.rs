//! Loading a model: the language a file is written in, the front-end options, and the
//! [`Model`] the job works on (system, name, identifying hash).

use std::path::{Path, PathBuf};

pub use hypermut_ir::Language;
use hypermut_ir::{Diagnostic, System};
use hypermut_smv::SmvOptions;
use hypermut_verilog::VerilogOptions;

use crate::error::{Error, Result};

/// The language a model file is written in, by its extension ([`Language::of_file_name`]).
pub fn language_of(path: &Path) -> Result<Language> {
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
    /// Verilog: the top module (default: the unique module nothing instantiates).
    pub top: Option<String>,
    /// Verilog: folders searched for `` `include `` files.
    pub include_dirs: Vec<PathBuf>,
    /// Verilog: predefined macros as given, `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
    /// Verilog: every register, latch and memory word is an output too.
    pub observe_state: bool,
    /// Verilog: each `x`/`z` literal bit is a fresh input instead of 0.
    pub x_as_input: bool,
}

impl FrontendOptions {
    /// The options the SMV front-end takes.
    pub fn smv(&self) -> SmvOptions {
        SmvOptions {
            inputs: self.inputs.clone(),
            outputs: self.outputs.clone(),
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
    /// The transition system.
    pub system: System,
    /// The front-end's warnings and notes.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads the model made of `paths` (an SMV model is one file; a Verilog design may be
/// several) with the front-end their extension names.
pub fn load(paths: &[PathBuf], options: &FrontendOptions) -> Result<Loaded> {
    let first = paths.first().ok_or(Error::NoModel)?;
    match language_of(first)? {
        Language::Smv => {
            if paths.len() > 1 {
                return Err(Error::VerilogOnlyOption {
                    option: "--lib-file",
                    path: first.clone(),
                });
            }
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
            })
        }
        Language::Verilog => {
            for (option, given) in [
                ("--inputs", options.inputs.is_some()),
                ("--outputs", options.outputs.is_some()),
            ] {
                if given {
                    return Err(Error::SmvOnlyOption {
                        option,
                        path: first.clone(),
                    });
                }
            }
            for p in &paths[1..] {
                language_of(p)?;
            }
            let loaded = hypermut_verilog::load_verilog(paths, &options.verilog())?;
            Ok(Loaded {
                system: loaded.system,
                diagnostics: loaded.diagnostics,
            })
        }
    }
}

/// A loaded model as the job sees it.
#[derive(Clone, Debug)]
pub struct Model {
    /// The transition system.
    pub system: System,
    /// The model's path as given (first file), shown in results.
    pub name: String,
    /// Identifies the model: a hash of its sources and of the front-end options (see
    /// [`model_hash`]).
    pub hash: String,
    /// The language of the model.
    pub language: Language,
    /// The front-end options it was read with.
    pub options: FrontendOptions,
}

impl Model {
    /// Loads the model made of `paths`; also returns the front-end's diagnostics.
    pub fn load(paths: &[PathBuf], options: &FrontendOptions) -> Result<(Model, Vec<Diagnostic>)> {
        let loaded = load(paths, options)?;
        let first = paths.first().ok_or(Error::NoModel)?;
        let model = Model::new(loaded.system, first, options)?;
        Ok((model, loaded.diagnostics))
    }

    /// The model for a system read from `path` with `options`.
    pub fn new(system: System, path: &Path, options: &FrontendOptions) -> Result<Model> {
        let hash = model_hash(&system, options);
        Ok(Model {
            system,
            name: path.display().to_string(),
            hash,
            language: language_of(path)?,
            options: options.clone(),
        })
    }

    /// For an SMV model, the front-end options a mutant's edited source is re-read with
    /// (NuSMV's static checks: types, constant ranges, exhaustive `case`, no circular
    /// definitions); `None` for Verilog designs.
    pub fn smv_recheck(&self) -> Option<SmvOptions> {
        (self.language == Language::Smv).then(|| self.options.smv())
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
    text_hash(&all)
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
        assert!(matches!(
            e,
            Error::VerilogOnlyOption {
                option: "--lib-file",
                ..
            }
        ));
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
}
