//! The MPI job (cargo feature `mpi`): a test binary of its own, built only
//! with the feature (`required-features` in Cargo.toml), so that CI's MPI
//! step compiles the library and the binary with MPI and this file, not
//! the whole integration suite a second time. Everything else, including
//! what `--mpi` says in a build without the feature, is in
//! `tests/integration/`.

#[allow(dead_code)]
#[path = "integration/support.rs"]
mod support;

use support::{require_tool, run_into};

/// `--mpi`: the ranks of an MPI job each run their part, rank 0 sums the
/// counts and writes exactly the one run's output: three ranks of a
/// Klondike run, two of a comparison that samples twice. Ignored, with the
/// reason, where build.rs found no mpirun.
#[test]
#[cfg_attr(
    not(deckodds_has_mpirun),
    ignore = "needs mpirun (Debian: openmpi-bin, libopenmpi-dev, libclang-dev)"
)]
fn mpi_ranks_sum_into_the_one_run() {
    require_tool("mpirun", "openmpi-bin");
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("klondike mc --trials 300000 --seed 7", 3),
        ("roll-call compare --with order --trials 200000 --seed 5", 2),
    ];
    for (args, ranks) in cases {
        let one_run = run_into(&dir.path().join("one.json"), args);
        let out = dir.path().join("ranks.json");
        let output = std::process::Command::new("mpirun")
            .args(["--oversubscribe", "-n", &ranks.to_string()])
            .arg(assert_cmd::cargo::cargo_bin!("deckodds"))
            .args(args.split_whitespace())
            .args(["--mpi", "--quiet", "--threads", "1"])
            .arg("--out")
            .arg(&out)
            // mpirun refuses root unless told twice (CI runs as root).
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{args}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(std::fs::read(&out).unwrap() == one_run, "{args}");
    }
}
