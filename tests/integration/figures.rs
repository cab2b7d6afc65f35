//! The figures' files: every committed chart converts to a picture with
//! something in it, and the PDF and PNG that `reproduce` writes beside an
//! SVG are the same bytes run after run and thread count after thread
//! count.

use std::fs;
use std::path::Path;

use deckodds::report::convert::{svg_to_pdf, svg_to_png};

use crate::support::deckodds;

/// A small Klondike run whose chart has a log axis (its tail) and a win.
const SPEC: &str = r#"description = "a small Klondike run"
game = "klondike"
command = "mc"
outputs = ["json", "svg"]

[monte-carlo]
trials = 20_000
quick-trials = 4_000
seed = 3
"#;

/// The PNG's width, height and the share of its pixels that are not white.
fn decode(png: &[u8]) -> (u32, u32, f64) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().expect("a readable PNG");
    let mut pixels = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut pixels).expect("a readable PNG");
    let pixels = &pixels[..frame.buffer_size()];
    let channels = frame.color_type.samples();
    let inked = pixels
        .chunks_exact(channels)
        .filter(|pixel| pixel.iter().take(3).any(|&c| c < 0xF0))
        .count();
    let total = (frame.width * frame.height) as f64;
    (frame.width, frame.height, inked as f64 / total)
}

#[test]
fn every_committed_chart_rasterises_to_a_picture() {
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("results");
    let mut names: Vec<_> = fs::read_dir(&results)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "svg"))
        .collect();
    names.sort();
    assert!(names.len() >= 10, "only {} charts in results/", names.len());
    for path in &names {
        let svg = fs::read_to_string(path).unwrap();
        let png = svg_to_png(&svg).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let (width, height, inked) = decode(&png);
        // Something drawn, and not a picture all ink either.
        assert!(
            width >= 100 && height >= 100,
            "{}: {width} x {height}",
            path.display()
        );
        assert!(
            (0.005..0.9).contains(&inked),
            "{}: {:.1} % of the pixels inked",
            path.display(),
            inked * 100.0
        );
        let pdf = svg_to_pdf(&svg).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            pdf.starts_with(b"%PDF-") && pdf.len() > 1000,
            "{}",
            path.display()
        );
    }
}

/// Runs `reproduce --quick` of [`SPEC`] with `threads` into a fresh folder;
/// returns the folder and the chart's PDF and PNG.
fn pictures(threads: &str) -> (tempfile::TempDir, Vec<u8>, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("small.toml");
    fs::write(&spec, SPEC).unwrap();
    let results = dir.path().join("out");
    let output = deckodds()
        .arg("reproduce")
        .arg(&spec)
        .args(["--quick", "--quiet", "--threads", threads, "--results"])
        .arg(&results)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let pdf = fs::read(results.join("small.pdf")).unwrap();
    let png = fs::read(results.join("small.png")).unwrap();
    (dir, pdf, png)
}

#[test]
fn pdf_and_png_are_the_same_over_runs_and_threads() {
    let (dir, pdf, png) = pictures("1");
    let (_, pdf_again, png_again) = pictures("1");
    let (_, pdf_two, png_two) = pictures("2");
    assert!(pdf == pdf_again && png == png_again, "two runs differ");
    assert!(
        pdf == pdf_two && png == png_two,
        "one and two threads differ"
    );

    // The files are the SVG's conversions, and the provenance records them.
    let results = dir.path().join("out");
    let svg = fs::read_to_string(results.join("small.svg")).unwrap();
    assert!(svg_to_pdf(&svg).unwrap() == pdf && svg_to_png(&svg).unwrap() == png);
    let provenance: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(results.join("small.provenance.json")).unwrap())
            .unwrap();
    for name in ["small.svg", "small.pdf", "small.png"] {
        assert!(
            provenance["files"][name].is_string(),
            "{name} in {provenance}"
        );
    }

    // --check verifies them: a PNG changed by hand fails it, by name.
    let check = |expect_success: bool| {
        let output = deckodds()
            .arg("reproduce")
            .arg(dir.path().join("small.toml"))
            .args(["--check", "--quiet", "--results"])
            .arg(&results)
            .output()
            .unwrap();
        assert_eq!(
            output.status.success(),
            expect_success,
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    check(true);
    let mut changed = png.clone();
    let last = changed.len() - 20;
    changed[last] ^= 1;
    fs::write(results.join("small.png"), &changed).unwrap();
    let message = check(false);
    assert!(message.contains("small.png"), "{message}");
}
