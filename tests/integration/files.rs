//! Output files (issue 18, "no path that loses a user's data"): what
//! `--out` and every other output option do to what their path names
//! (devices and FIFOs written in place, links kept, any legal name), `-`
//! as standard output, and the checks before a run: two outputs on one
//! file, an output over an input, a missing or unwritable directory, an
//! unknown extension, a chart from a command that draws none.

use std::fs;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

use crate::support::deckodds;

/// A run that would take hours if it started: the checks below must stop
/// it before it does.
const ENDLESS: &str = "klondike mc --trials 1e12";

/// Runs deckodds in `dir` with the words of `line` as arguments.
fn run_in(dir: &Path, line: &str) -> Output {
    deckodds()
        .current_dir(dir)
        .args(line.split_whitespace())
        .output()
        .unwrap()
}

/// Asserts that `output` is a refusal before any work: exit status 2 and
/// stderr exactly one line, `error: ` then text containing each of
/// `expected` (so no progress, throughput or "wrote" line: the run did
/// not start), and nothing on stdout.
fn assert_refused(output: &Output, expected: &[&str], what: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{what}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
    assert!(stderr.starts_with("error: "), "{what}: {stderr}");
    for text in expected {
        assert!(
            stderr.contains(text),
            "{what}: expected {text:?} in {stderr}"
        );
    }
    assert!(output.stdout.is_empty(), "{what}");
}

/// The names in `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Makes a FIFO at `path` with mkfifo(1).
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

/// Runs deckodds with the words of `line`, writing into the FIFO
/// `fifo`, which a thread reads; returns the run's output and what the
/// thread read. Fails (rather than hangs) if the FIFO was replaced or
/// never opened.
fn run_into_fifo(dir: &Path, fifo: &Path, line: &str) -> (Output, Vec<u8>) {
    let (sender, receiver) = mpsc::channel();
    let path = fifo.to_path_buf();
    std::thread::spawn(move || sender.send(fs::read(path).unwrap()));
    let output = run_in(dir, line);
    let kind = fs::symlink_metadata(fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "{line}: the FIFO was replaced by {kind:?}");
    let read = receiver
        .recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("{line}: the FIFO was never written: {output:?}"));
    (output, read)
}

/// `--out` onto a character device writes into it and leaves it a device:
/// /dev/null takes the table; /dev/full refuses it with an I/O error
/// naming the path and exit status 1. A FIFO is written in place (its
/// reader gets the whole report) and stays a FIFO; so is any other output
/// option's path (`--save-wins`). A symbolic link stays a link, and the
/// regular file it points to is replaced; a link to a FIFO writes into
/// the FIFO.
#[test]
fn special_files_are_written_in_place_and_links_kept() {
    let is_char_device = |path: &str| fs::metadata(path).unwrap().file_type().is_char_device();
    let dir = tempfile::tempdir().unwrap();
    // A FIFO, as --out and as --save-wins. It comes first: should a FIFO
    // be replaced, the test stops before it could replace the system's
    // /dev/null and /dev/full (tests may run as root).
    let fifo = dir.path().join("report.fifo");
    mkfifo(&fifo);
    let (output, read) = run_into_fifo(
        dir.path(),
        &fifo,
        "--quiet blackjack exact --format json --out report.fifo",
    );
    assert!(output.status.success(), "{output:?}");
    let report: Value = serde_json::from_slice(&read).unwrap();
    assert_eq!(report["game"], "blackjack-dealer");
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
    let (output, read) = run_into_fifo(
        dir.path(),
        &fifo,
        "--quiet roll-call mc --trials 20000 --save-wins 2 report.fifo --out table.md",
    );
    assert!(output.status.success(), "{output:?}");
    let deals = String::from_utf8(read).unwrap();
    assert!(deals.starts_with("# Roll-Call "), "{deals}");
    assert_eq!(deals.lines().count(), 3, "{deals}");
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());

    // Character devices.
    let output = run_in(dir.path(), "blackjack exact --format json --out /dev/null");
    assert!(output.status.success(), "{output:?}");
    assert!(is_char_device("/dev/null"));

    let output = run_in(dir.path(), "blackjack exact --format json --out /dev/full");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: /dev/full: "), "{stderr}");
    assert!(is_char_device("/dev/full"));

    // A link to a regular file: the link stays, the file is replaced.
    let target = dir.path().join("table.csv");
    fs::write(&target, "old\n").unwrap();
    std::os::unix::fs::symlink("table.csv", dir.path().join("link.csv")).unwrap();
    let output = run_in(dir.path(), "--quiet blackjack exact --out link.csv");
    assert!(output.status.success(), "{output:?}");
    let link = fs::symlink_metadata(dir.path().join("link.csv")).unwrap();
    assert!(link.file_type().is_symlink());
    assert_eq!(
        fs::read_link(dir.path().join("link.csv")).unwrap(),
        Path::new("table.csv")
    );
    let csv = fs::read_to_string(&target).unwrap();
    assert!(csv.starts_with("key,upcard,outcome,probability,"), "{csv}");

    // A link to a FIFO: written into the FIFO.
    std::os::unix::fs::symlink("report.fifo", dir.path().join("to-fifo.json")).unwrap();
    let (output, read) = run_into_fifo(
        dir.path(),
        &fifo,
        "--quiet blackjack exact --out to-fifo.json",
    );
    assert!(output.status.success(), "{output:?}");
    assert!(serde_json::from_slice::<Value>(&read).is_ok());
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(
        fs::symlink_metadata(dir.path().join("to-fifo.json"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // Nothing was left behind: no temporary file, no file named after a
    // device.
    assert_eq!(
        entries(dir.path()),
        [
            "link.csv",
            "report.fifo",
            "table.csv",
            "table.md",
            "to-fifo.json"
        ]
    );
}

/// A file name of 255 bytes, the most Linux file systems allow, is
/// written (the temporary file's name is short whatever the target's).
#[test]
fn a_255_byte_file_name_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let name = format!("{}.json", "n".repeat(250));
    assert_eq!(name.len(), 255);
    let output = run_in(dir.path(), &format!("--quiet blackjack exact --out {name}"));
    assert!(output.status.success(), "{output:?}");
    let report: Value = serde_json::from_slice(&fs::read(dir.path().join(&name)).unwrap()).unwrap();
    assert_eq!(report["method"], "exact");
    assert_eq!(entries(dir.path()), [name]);
}

/// `--out -` is standard output, in the format `--format` names (else the
/// terminal table), and makes no file named `-`; so is `-` for other
/// output options. `.txt` is the terminal table in a file.
#[test]
fn a_dash_is_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let stdout = |line: &str| {
        let output = run_in(dir.path(), line);
        assert!(output.status.success(), "{line}: {output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let table = stdout("--quiet blackjack exact");
    assert_eq!(stdout("--quiet blackjack exact --out -"), table);
    let json = stdout("--quiet blackjack exact --out - --format json");
    let report: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(report["game"], "blackjack-dealer");
    // The report to a file and the deals to standard output.
    let deals = stdout("--quiet roll-call mc --trials 20000 --save-wins 2 - --out table.txt");
    assert!(deals.starts_with("# Roll-Call "), "{deals}");
    let record = stdout("--quiet klondike record --games 1 --out -");
    assert!(record.starts_with("=== Game 1 of 1"), "{record}");
    assert_eq!(entries(dir.path()), ["table.txt"]);
    // .txt holds what the terminal shows.
    let roll_call = stdout("--quiet roll-call mc --trials 20000");
    assert_eq!(
        fs::read_to_string(dir.path().join("table.txt")).unwrap(),
        roll_call
    );
}

/// A real checkpoint of `args` in `dir/name`: the run is stopped by the
/// test hook after its first chunk.
fn checkpoint_of(dir: &Path, name: &str, args: &str) -> PathBuf {
    let path = dir.join(name);
    let output = deckodds()
        .current_dir(dir)
        .env("DECKODDS_INTERRUPT_AFTER_CHUNKS", "1")
        .args(args.split_whitespace())
        .args(["--quiet", "--checkpoint", name])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(130), "{output:?}");
    assert!(path.exists());
    path
}

/// Two outputs of one run on one file, or an output over a file the run
/// reads, are refused before the run (exit 2, one line naming both
/// options and the path), whatever the spelling of the path; no file is
/// made and none changed. `--resume F` with `--checkpoint F` is the one
/// pair allowed: the run saves where it resumed from.
#[test]
fn two_outputs_on_one_file_are_refused_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("sub")).unwrap();
    let checkpoint = checkpoint_of(dir.path(), "run.json", ENDLESS);
    let saved = fs::read(&checkpoint).unwrap();
    fs::write(dir.path().join("table.csv"), "upcard,bust\n").unwrap();
    let before = entries(dir.path());
    let endless = |rest: &str| format!("{ENDLESS} {rest}");
    let cases: Vec<(String, Vec<&str>)> = vec![
        (
            endless("--out t.md --out sub/../t.md"),
            vec!["--out sub/../t.md", "the same file as --out t.md"],
        ),
        (
            endless("--out c.json --checkpoint c.json"),
            vec!["--out c.json", "the same file as --checkpoint c.json"],
        ),
        (
            endless("--out run.json --resume run.json"),
            vec!["--out run.json", "--resume run.json"],
        ),
        (
            format!("{ENDLESS} --resume run.json --checkpoint run.json --out ./run.json"),
            vec!["--out ./run.json", "the same file as --checkpoint run.json"],
        ),
        (
            "roll-call mc --trials 1e12 --save-wins 3 w.txt --out ./w.txt".into(),
            vec!["--out ./w.txt", "the same file as --save-wins w.txt"],
        ),
        (
            "prisoners-patience mc --trials 1e12 --save-wins 3 - --out -".into(),
            vec!["--out -", "standard output, as --save-wins -"],
        ),
        (
            "prisoners-patience mc --trials 1e12 --save-wins 3 -".into(),
            vec![
                "--save-wins -",
                "standard output already carries the report",
            ],
        ),
        (
            "idiots-delight compare --published sas --trials 1e12 --chart c.svg --out c.svg".into(),
            vec!["--out c.svg", "the same file as --chart c.svg"],
        ),
        (
            "blackjack compare --published table.csv --hands 1000 --out ./table.csv".into(),
            vec![
                "--out ./table.csv",
                "--published table.csv",
                "which the run reads",
            ],
        ),
        (
            "merge run.json --out run.json --format json".into(),
            vec!["--out run.json", "merge run.json", "which the run reads"],
        ),
        (
            format!("{ENDLESS} --checkpoint -"),
            vec!["--checkpoint -", "a checkpoint must be a file"],
        ),
    ];
    for (line, expected) in &cases {
        assert_refused(&run_in(dir.path(), line), expected, line);
        assert_eq!(entries(dir.path()), before, "{line}");
        assert_eq!(fs::read(&checkpoint).unwrap(), saved, "{line}");
    }
    // The checkpoint resumed in place is the pair allowed: the run goes
    // on (here to the test hook's stop) and saves there again.
    let output = deckodds()
        .current_dir(dir.path())
        .env("DECKODDS_INTERRUPT_AFTER_CHUNKS", "1")
        .args(
            format!("{ENDLESS} --quiet --resume run.json --checkpoint run.json").split_whitespace(),
        )
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(130), "{output:?}");
    assert_ne!(fs::read(&checkpoint).unwrap(), saved);
}

/// Output directories are checked before the run: missing, not a
/// directory, or not writable, for every output option; one line naming
/// the option and the path, exit 2, no work done.
#[test]
fn output_directories_are_checked_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("file"), "").unwrap();
    fs::create_dir(dir.path().join("d.json")).unwrap();
    let cases: [(String, &[&str]); 9] = [
        (
            endless("--out nodir/x.json"),
            &["error: --out nodir/x.json: the directory nodir does not exist"],
        ),
        (
            endless("--out file/x.json"),
            &["--out file/x.json: file is not a directory"],
        ),
        (
            endless("--out /proc/deckodds.json"),
            &["--out /proc/deckodds.json: the directory /proc is not writable"],
        ),
        (endless("--out d.json"), &["--out d.json: is a directory"]),
        (
            format!("{ENDLESS} --checkpoint nodir/run.json"),
            &["--checkpoint nodir/run.json: the directory nodir does not exist"],
        ),
        (
            "roll-call mc --trials 1e12 --save-wins 2 nodir/wins.txt".into(),
            &["--save-wins nodir/wins.txt: the directory nodir does not exist"],
        ),
        (
            "idiots-delight compare --published sas --trials 1e12 --chart nodir/c.svg".into(),
            &["--chart nodir/c.svg: the directory nodir does not exist"],
        ),
        (
            "klondike record --games 1000 --went-out --out nodir/r.txt".into(),
            &["--out nodir/r.txt: the directory nodir does not exist"],
        ),
        (
            "merge part-0.json --out nodir/m.json".into(),
            &["--out nodir/m.json: the directory nodir does not exist"],
        ),
    ];
    fn endless(rest: &str) -> String {
        format!("{ENDLESS} {rest}")
    }
    for (line, expected) in &cases {
        assert_refused(&run_in(dir.path(), line), expected, line);
        assert_eq!(entries(dir.path()), ["d.json", "file"], "{line}");
    }
}

/// An unknown `--out` extension (or none) is refused before the run,
/// listing the known ones; with `--format` any name is taken. A command
/// that writes text only refuses other formats.
#[test]
fn unknown_extensions_are_refused_and_format_takes_any_name() {
    let dir = tempfile::tempdir().unwrap();
    let known = ".md .csv .json .tex .txt (the terminal table) or .svg .pdf .png (the chart)";
    for (line, expected) in [
        (
            format!("{ENDLESS} --out x.xyz"),
            vec!["--out x.xyz: unknown extension .xyz: name the file", known],
        ),
        (
            format!("{ENDLESS} --out results"),
            vec!["--out results: no extension to tell the format", known],
        ),
        (
            format!("{ENDLESS} --out x.md --out y.xyz"),
            vec!["--out y.xyz: unknown extension .xyz"],
        ),
        (
            format!("{ENDLESS} --format html --out x.html"),
            vec!["--format html: must be one of table, md, csv, json, latex, svg, pdf, png"],
        ),
        (
            "klondike record --out game.json".to_string(),
            vec!["--out game.json: klondike record writes readable text only: name the file .txt"],
        ),
        (
            "idiots-delight compare --published sas --trials 1e12 --chart c.png".to_string(),
            vec!["--chart c.png: the chart is SVG: name the file .svg"],
        ),
        (
            "klondike record --out game.log".to_string(),
            vec!["--out game.log: klondike record writes readable text only"],
        ),
        (
            "prisoners-patience solve --suits 1 --deal 5,9,7,8,A,2,3,4,6,10,J,Q,K --format json"
                .to_string(),
            vec!["--format json: prisoners-patience solve --deal writes readable text only"],
        ),
    ] {
        assert_refused(&run_in(dir.path(), &line), &expected, &line);
    }
    assert!(entries(dir.path()).is_empty());
    let output = run_in(
        dir.path(),
        "--quiet blackjack exact --format json --out dealer.xyz",
    );
    assert!(output.status.success(), "{output:?}");
    let report: Value =
        serde_json::from_slice(&fs::read(dir.path().join("dealer.xyz")).unwrap()).unwrap();
    assert_eq!(report["game"], "blackjack-dealer");
    // solve --deal writes its line of play to a .txt file.
    let deal = "5,9,7,8,A,2,3,4,6,10,J,Q,K";
    let printed = run_in(
        dir.path(),
        &format!("--quiet prisoners-patience solve --suits 1 --deal {deal}"),
    );
    let written = run_in(
        dir.path(),
        &format!("--quiet prisoners-patience solve --suits 1 --deal {deal} --out line.txt"),
    );
    assert!(
        written.status.success() && written.stdout.is_empty(),
        "{written:?}"
    );
    assert_eq!(
        fs::read(dir.path().join("line.txt")).unwrap(),
        printed.stdout
    );
}

/// Whether `svg` is a whole SVG document: it opens with `<svg` (or an XML
/// declaration) and closes with `</svg>`.
fn is_svg(svg: &str) -> bool {
    (svg.starts_with("<svg") || svg.starts_with("<?xml")) && svg.trim_end().ends_with("</svg>")
}

/// `--out FILE.pdf` and `--out FILE.png` are the chart converted, at the
/// size `--figure` asks: a single column is 3.5 in, so 252 pt of PDF and
/// 525 pixels of PNG at 150 dpi; the same run twice gives the same bytes.
/// `--log-y` puts the bars on a log axis. Bad sizes and both scales at
/// once are refused before the run.
#[test]
fn pdf_and_png_outputs_are_the_chart_at_its_printed_size() {
    let dir = tempfile::tempdir().unwrap();
    let line = "--quiet roll-call mc --trials 20000 --figure single --out rc.pdf --out rc.png --out rc.svg";
    let output = run_in(dir.path(), line);
    assert!(output.status.success(), "{output:?}");
    let pdf = fs::read(dir.path().join("rc.pdf")).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    let pdf_text = String::from_utf8_lossy(&pdf);
    assert!(
        pdf_text.contains("/MediaBox [0 0 252 "),
        "{}",
        &pdf_text[..400]
    );
    let png = fs::read(dir.path().join("rc.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    // The IHDR chunk: width then height, big-endian, from byte 16.
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    assert_eq!(width, 525);
    let svg = fs::read_to_string(dir.path().join("rc.svg")).unwrap();
    assert!(svg.starts_with("<svg width=\"3.5in\""), "{}", &svg[..80]);
    let again = tempfile::tempdir().unwrap();
    assert!(run_in(again.path(), line).status.success());
    assert!(fs::read(again.path().join("rc.pdf")).unwrap() == pdf);
    assert!(fs::read(again.path().join("rc.png")).unwrap() == png);

    // Idiot's Delight's 52 cards go on a log axis by themselves (their
    // rarest outcomes are far under 1 % of the commonest), unless
    // --linear-y.
    for (flag, log) in [("", true), ("--log-y", true), ("--linear-y", false)] {
        let line = format!("--quiet idiots-delight mc --trials 100000 {flag} --format svg");
        let output = run_in(dir.path(), &line);
        assert!(output.status.success(), "{line}: {output:?}");
        let svg = String::from_utf8(output.stdout).unwrap();
        assert_eq!(svg.contains("(log scale)"), log, "{line}");
    }

    let before = entries(dir.path());
    for (line, expected) in [
        (
            "klondike mc --trials 1000 --figure triple --out k.pdf",
            "triple",
        ),
        (
            "klondike mc --trials 1000 --log-y --linear-y --out k.png",
            "--linear-y",
        ),
    ] {
        let output = run_in(dir.path(), line);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{line}: {stderr}");
        assert!(stderr.contains(expected), "{line}: {stderr}");
    }
    assert_eq!(entries(dir.path()), before);
}

/// `--out FILE.svg` draws the report's chart, the one `reproduce` draws
/// from the same report's JSON (byte for byte), on an exact table, a
/// game's Monte Carlo and a comparison, alone or beside other outputs;
/// `--format svg --out -` draws it on standard output. A command with no
/// chart refuses .svg before the run.
#[test]
fn svg_outputs_draw_the_chart() {
    let dir = tempfile::tempdir().unwrap();
    // (name, command line, exit status: a comparison that finds the two
    // rules differ exits 1 after writing all its outputs).
    for (name, args, status) in [
        ("dealer", "blackjack exact --decks 1", 0),
        ("idiots", "idiots-delight mc --trials 20000 --seed 3", 0),
        (
            "roll-call",
            "roll-call compare --ranks 5 --copies 1 --trials 20000",
            0,
        ),
        (
            "prisoners",
            "prisoners-patience compare --with rules --trials 20000",
            1,
        ),
    ] {
        let svg = format!("{name}.svg");
        let json = format!("{name}.json");
        let output = run_in(
            dir.path(),
            &format!("--quiet {args} --out {svg} --out {json}"),
        );
        assert_eq!(output.status.code(), Some(status), "{args}: {output:?}");
        let drawn = fs::read_to_string(dir.path().join(&svg)).unwrap();
        assert!(is_svg(&drawn), "{args}: {}", &drawn[..drawn.len().min(200)]);
        let report = fs::read_to_string(dir.path().join(&json)).unwrap();
        assert_eq!(
            drawn,
            deckodds::report::figures::svg_for_report(&report, Default::default()).unwrap(),
            "{args}"
        );
    }
    let output = run_in(
        dir.path(),
        "--quiet klondike mc --trials 5000 --format svg --out -",
    );
    assert!(output.status.success(), "{output:?}");
    assert!(is_svg(&String::from_utf8(output.stdout).unwrap()));
    let before = entries(dir.path());
    for (line, expected) in [
        (
            "klondike record --games 1000 --went-out --out game.svg",
            "--out game.svg: klondike record writes readable text only",
        ),
        (
            "blackjack eor --out eor.svg",
            "--out eor.svg: blackjack eor draws no chart",
        ),
        (
            "idiots-delight power --trials 1e12 --format svg",
            "--format svg: idiots-delight power draws no chart",
        ),
    ] {
        assert_refused(&run_in(dir.path(), line), &[expected], line);
    }
    assert_eq!(entries(dir.path()), before);
}
