//! Finds the outside tools a few integration tests need (pdflatex, GNU
//! parallel, mpirun, groff, chromium, script) and sets a cfg for each one
//! present, so that a test
//! whose tool is missing is marked `ignored` in the test summary, with the
//! reason, instead of passing without having run.
//!
//! CI installs the tools and sets `DECKODDS_LATEX`, `DECKODDS_PARALLEL`,
//! `DECKODDS_MPI`, `DECKODDS_GROFF`, `DECKODDS_CHROMIUM` and
//! `DECKODDS_SCRIPT` to `required`: then the cfg is set whether or not the
//! tool was found, so the test runs and a missing tool fails it.
//!
//! Nothing here affects the library or the binary: the cfgs are read only
//! by tests.

use std::env;
use std::process::Command;

/// (cfg name, program, environment variable that makes it required).
const TOOLS: [(&str, &str, &str); 6] = [
    ("deckodds_has_pdflatex", "pdflatex", "DECKODDS_LATEX"),
    ("deckodds_has_parallel", "parallel", "DECKODDS_PARALLEL"),
    ("deckodds_has_mpirun", "mpirun", "DECKODDS_MPI"),
    ("deckodds_has_groff", "groff", "DECKODDS_GROFF"),
    ("deckodds_has_chromium", "chromium", "DECKODDS_CHROMIUM"),
    // util-linux's `script`: a pseudo-terminal for the terminal-width test.
    ("deckodds_has_script", "script", "DECKODDS_SCRIPT"),
];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    // A tool installed later lands in a directory on PATH: watching those
    // directories (cheap: they are flat) re-runs this when one changes.
    println!("cargo::rerun-if-env-changed=PATH");
    if let Some(path) = env::var_os("PATH") {
        for dir in env::split_paths(&path).filter(|dir| dir.is_absolute() && dir.is_dir()) {
            println!("cargo::rerun-if-changed={}", dir.display());
        }
    }
    for (cfg, program, required_by) in TOOLS {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        println!("cargo::rerun-if-env-changed={required_by}");
        let required = env::var_os(required_by).is_some_and(|value| value == "required");
        if required || runs(program) {
            println!("cargo::rustc-cfg={cfg}");
        }
    }
}

/// Whether `program --version` runs and succeeds.
fn runs(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success())
}
