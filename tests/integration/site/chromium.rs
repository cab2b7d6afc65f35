//! Headless Chromium driven over the DevTools protocol: one browser for
//! every page, each page loaded once with its two widths side by side,
//! checked from the rendered document and screenshotted in that same
//! load. (Starting a browser per screenshot cost about 2.5 s a page, most
//! of the test's time.)
//!
//! The protocol runs over a pipe (`--remote-debugging-pipe`: JSON
//! messages, each ended by a NUL byte, commands read from the browser's
//! file descriptor 3 and answers and events written to its 4), so there is
//! no port to find and no WebSocket to speak.

use std::collections::VecDeque;
use std::fs::{self, File};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde::Deserialize;
use serde_json::{Value, json};

/// The widths every page is rendered at, in CSS pixels: a desktop window
/// and a phone. (A headless window is at least 500 wide, so the narrow
/// width is a frame's.)
pub const WIDTHS: [u64; 2] = [1280, 390];

/// How long one answer or one page load may take before the browser is
/// taken to be stuck.
const PATIENCE: Duration = Duration::from_secs(120);

/// The page a page under test is loaded in: the page at each of
/// [`WIDTHS`] side by side, the screenshot's viewport just wider than both.
const HARNESS: &str = r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>harness</title>
<style>body{margin:0;display:flex;gap:16px;background:#888}iframe{border:0;height:1600px;background:#fff}</style></head><body>
<iframe data-width="1280" style="width:1280px" src="PAGE"></iframe><iframe data-width="390" style="width:390px" src="PAGE"></iframe></body></html>
"#;

/// The harness's viewport: both frames and the gap between them.
const VIEWPORT: (u64, u64) = (1700, 1600);

/// What each frame of the harness rendered, read once the harness (and so
/// every frame, with its images) has loaded.
const INSPECT: &str = r##"[].map.call(document.querySelectorAll('iframe'), function (frame) {
  var width = Number(frame.getAttribute('data-width'));
  var w = frame.contentWindow, d = frame.contentDocument;
  if (!d || !d.documentElement) {
    return { width: width, error: 'not loaded (no such file, or not readable)' };
  }
  return {
    width: width, inner: w.innerWidth, scroll: d.documentElement.scrollWidth,
    broken: [].slice.call(d.images).filter(function (img) {
      return !img.complete || img.naturalWidth === 0;
    }).map(function (img) { return img.getAttribute('src'); }),
    missing: [].slice.call(d.querySelectorAll('a[href^="#"]')).filter(function (a) {
      return !d.getElementById(a.getAttribute('href').slice(1));
    }).map(function (a) { return a.getAttribute('href'); }),
    headline_rows: d.querySelectorAll('table.headline tbody tr').length,
    values_cut: [].slice.call(d.querySelectorAll('table.headline td.value')).filter(function (td) {
      var box = td.getBoundingClientRect();
      return box.left < 0 || box.right > w.innerWidth + 0.5 || box.width === 0;
    }).map(function (td) { return td.textContent; }),
    unhinted: [].slice.call(d.querySelectorAll('div.scroll')).filter(function (div) {
      if (div.scrollWidth <= div.clientWidth + 1) { return false; }
      var hint = div.previousElementSibling;
      return !(hint && hint.classList.contains('hint') && hint.offsetParent !== null
        && w.getComputedStyle(hint).display !== 'none');
    }).map(function (div) {
      var th = div.querySelector('th');
      return th ? th.textContent : '(a table)';
    }),
    markdown: (d.body ? d.body.innerText : '').split('\n').filter(function (line) {
      return /^\s*#/.test(line) || line.indexOf('**') >= 0;
    }),
    title: d.title, lang: d.documentElement.lang
  };
})"##;

/// What Chromium rendered of one page at one width.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Rendered {
    /// The page's file name.
    pub page: String,
    /// The frame's width in CSS pixels, one of [`WIDTHS`].
    pub width: u64,
    /// Why the page could not be read, if it could not.
    pub error: Option<String>,
    /// The page's viewport width (`innerWidth`).
    pub inner: u64,
    /// The document's width (`scrollWidth`): more than `inner` is a
    /// horizontal overflow.
    pub scroll: u64,
    /// The `src` of each image that did not load.
    pub broken: Vec<String>,
    /// Each `#anchor` link whose id is not in the page.
    pub missing: Vec<String>,
    /// Rows of the headline table (`table.headline tbody tr`).
    pub headline_rows: u64,
    /// The text of each value cell of the headline table whose box is not
    /// wholly inside the viewport (left of it, right of it, or not shown).
    pub values_cut: Vec<String>,
    /// Each scrolling wrapper whose table is cut off (wider than the
    /// wrapper) with no visible hint before it that it scrolls: its first
    /// header cell.
    pub unhinted: Vec<String>,
    /// Each line of the rendered text that is Markdown syntax: starting
    /// with `#`, or holding `**`.
    pub markdown: Vec<String>,
    /// The document's title.
    pub title: String,
    /// The document's `lang`.
    pub lang: String,
}

/// Loads each of `pages` (file names in `folder`) at both [`WIDTHS`],
/// writes its screenshot as `shots/NAME.png` (both widths side by side,
/// for a person), and returns what each frame rendered: two per page, in
/// the order of `pages` then [`WIDTHS`].
///
/// Panics if Chromium cannot be started, stops answering, or writes no
/// screenshot: failures of the tool, not defects of the pages.
pub fn render(folder: &Path, pages: &[String], shots: &Path) -> Vec<Rendered> {
    fs::create_dir_all(shots).unwrap();
    let folder = fs::canonicalize(folder).unwrap();
    let shots = fs::canonicalize(shots).unwrap();
    // The browser's own files (harness, profile, log) in a folder of this
    // call's, so that two renders can run side by side.
    static CALLS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let work = shots.join(format!("browser-{call}"));
    fs::create_dir_all(&work).unwrap();
    let harness = work.join("harness.html");
    let mut browser = Browser::start(&work);
    let mut rendered = Vec::new();
    for page in pages {
        let url = file_url(&folder.join(page));
        fs::write(&harness, HARNESS.replace("PAGE", &url)).unwrap();
        browser.load(&file_url(&harness));
        let frames: Vec<Rendered> = serde_json::from_value(browser.evaluate(INSPECT))
            .unwrap_or_else(|e| panic!("{page}: an unexpected report from the page: {e}"));
        assert_eq!(
            frames.iter().map(|f| f.width).collect::<Vec<_>>(),
            WIDTHS,
            "{page}: a frame per width"
        );
        rendered.extend(frames.into_iter().map(|frame| Rendered {
            page: page.clone(),
            ..frame
        }));
        let png = shots.join(page.replace(".html", ".png"));
        fs::write(&png, browser.screenshot()).unwrap();
        assert!(
            fs::metadata(&png).unwrap().len() > 1000,
            "{page}: an empty screenshot"
        );
    }
    rendered
}

/// The defects of what was rendered, one line each, naming the page and
/// width: a frame that is not as wide as asked, a horizontal overflow, a
/// broken image, a link to a missing anchor, no `lang="en"`, no title,
/// not `headline_rows(page)` rows in the headline table, a headline value
/// not wholly in the viewport, a table cut off with no hint that it
/// scrolls, or a line of text that is Markdown syntax.
pub fn defects(rendered: &[Rendered], headline_rows: &dyn Fn(&str) -> u64) -> Vec<String> {
    let mut defects = Vec::new();
    for frame in rendered {
        let what = format!("{} at {} px", frame.page, frame.width);
        if let Some(error) = &frame.error {
            defects.push(format!("{what}: {error}"));
            continue;
        }
        if frame.inner != frame.width {
            defects.push(format!("{what}: the viewport is {} px wide", frame.inner));
        }
        if frame.scroll > frame.inner {
            defects.push(format!(
                "{what}: overflows horizontally ({} px > {} px)",
                frame.scroll, frame.inner
            ));
        }
        for src in &frame.broken {
            defects.push(format!("{what}: a broken image {src}"));
        }
        for href in &frame.missing {
            defects.push(format!("{what}: a link to a missing anchor {href}"));
        }
        if frame.lang != "en" {
            defects.push(format!("{what}: lang is {:?}, not \"en\"", frame.lang));
        }
        if frame.title.trim().is_empty() {
            defects.push(format!("{what}: no title"));
        }
        for value in &frame.values_cut {
            defects.push(format!(
                "{what}: a headline value not wholly in the viewport: {value}"
            ));
        }
        for table in &frame.unhinted {
            defects.push(format!(
                "{what}: a table cut off with no hint that it scrolls: {table}"
            ));
        }
        for line in &frame.markdown {
            defects.push(format!("{what}: Markdown in the text: {line}"));
        }
        let expected = headline_rows(&frame.page);
        if frame.headline_rows != expected {
            defects.push(format!(
                "{what}: {} headline rows, not {expected}",
                frame.headline_rows
            ));
        }
    }
    defects
}

fn file_url(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// A headless Chromium and the one tab the pages are loaded in.
struct Browser {
    child: Child,
    commands: ChildStdin,
    /// Messages from the browser, read by a thread (so that a stuck
    /// browser fails the test after [`PATIENCE`] instead of hanging it).
    messages: Receiver<Value>,
    /// Events that arrived while an answer was awaited.
    events: VecDeque<Value>,
    next_id: u64,
    /// The tab's session, which page-level commands go to.
    session: Option<String>,
    /// Chromium's stderr, for the failure messages.
    log: PathBuf,
    /// Its profile, removed once it has gone.
    profile: PathBuf,
}

impl Browser {
    /// Starts Chromium with a fresh profile in `work`, and opens a tab of
    /// the harness's viewport.
    fn start(work: &Path) -> Browser {
        let profile = work.join("profile");
        let _ = fs::remove_dir_all(&profile);
        let log = work.join("chromium.log");
        // The shell puts the pipe's two ends on descriptors 3 and 4, where
        // `--remote-debugging-pipe` looks for them, and becomes Chromium.
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("exec chromium \"$@\" 3<&0 4>&1 </dev/null >/dev/null")
            .arg("chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--allow-file-access-from-files",
                "--no-first-run",
                "--remote-debugging-pipe",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(File::create(&log).unwrap())
            .spawn()
            .expect("chromium starts");
        let commands = child.stdin.take().unwrap();
        let mut answers = BufReader::new(child.stdout.take().unwrap());
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut message = Vec::new();
            while answers.read_until(0, &mut message).is_ok_and(|n| n > 0) {
                message.pop_if(|&mut byte| byte == 0);
                let Ok(value) = serde_json::from_slice(&message) else {
                    break;
                };
                if sender.send(value).is_err() {
                    break;
                }
                message.clear();
            }
        });
        let mut browser = Browser {
            child,
            commands,
            messages,
            events: VecDeque::new(),
            next_id: 0,
            session: None,
            log,
            profile,
        };
        let target = browser.call("Target.createTarget", json!({ "url": "about:blank" }));
        let attached = browser.call(
            "Target.attachToTarget",
            json!({ "targetId": target["targetId"], "flatten": true }),
        );
        browser.session = Some(attached["sessionId"].as_str().unwrap().to_string());
        browser.call("Page.enable", json!({}));
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": VIEWPORT.0, "height": VIEWPORT.1, "deviceScaleFactor": 1, "mobile": false }),
        );
        browser
    }

    /// The next message, or a failure naming Chromium's log.
    fn receive(&mut self, waiting_for: &str, deadline: Instant) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.messages.recv_timeout(left) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => panic!(
                "chromium: no {waiting_for} in {} s; its log: {}",
                PATIENCE.as_secs(),
                self.log.display()
            ),
            Err(RecvTimeoutError::Disconnected) => panic!(
                "chromium stopped while waiting for {waiting_for}: {}",
                fs::read_to_string(&self.log).unwrap_or_default()
            ),
        }
    }

    /// Sends a command (to the tab, once there is one) and returns its
    /// result.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut command = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = &self.session {
            command["sessionId"] = json!(session);
        }
        let mut bytes = serde_json::to_vec(&command).unwrap();
        bytes.push(0);
        self.commands
            .write_all(&bytes)
            .and_then(|()| self.commands.flush())
            .unwrap_or_else(|e| panic!("chromium: {method}: {e}"));
        let deadline = Instant::now() + PATIENCE;
        loop {
            let message = self.receive(method, deadline);
            if message["id"] == id {
                assert!(
                    message.get("error").is_none(),
                    "chromium: {method}: {}",
                    message["error"]
                );
                return message["result"].clone();
            }
            if message.get("method").is_some() {
                self.events.push_back(message);
            }
        }
    }

    /// Navigates the tab to `url` and waits until it has loaded, frames
    /// and images included.
    fn load(&mut self, url: &str) {
        self.events.clear();
        let navigated = self.call("Page.navigate", json!({ "url": url }));
        assert!(
            navigated.get("errorText").is_none(),
            "chromium: {url}: {}",
            navigated["errorText"]
        );
        let deadline = Instant::now() + PATIENCE;
        loop {
            let event = match self.events.pop_front() {
                Some(event) => event,
                None => self.receive("load event", deadline),
            };
            if event["method"] == "Page.loadEventFired"
                && event["sessionId"].as_str() == self.session.as_deref()
            {
                return;
            }
        }
    }

    /// The value of a JavaScript expression evaluated in the tab.
    fn evaluate(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true }),
        );
        assert!(
            result.get("exceptionDetails").is_none(),
            "chromium: the script failed: {}",
            result["exceptionDetails"]
        );
        result["result"]["value"].clone()
    }

    /// A PNG of the tab's viewport.
    fn screenshot(&mut self) -> Vec<u8> {
        let shot = self.call(
            "Page.captureScreenshot",
            json!({ "format": "png", "optimizeForSpeed": true }),
        );
        base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap_or_default())
            .expect("a screenshot in base64")
    }
}

impl Drop for Browser {
    /// Closes the browser (killing it if it has not gone in a few
    /// seconds), and removes its profile.
    fn drop(&mut self) {
        self.session = None;
        let close = json!({ "id": 0, "method": "Browser.close" });
        let mut bytes = serde_json::to_vec(&close).unwrap_or_default();
        bytes.push(0);
        let _ = self.commands.write_all(&bytes);
        let _ = self.commands.flush();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline && !matches!(self.child.try_wait(), Ok(Some(_))) {
            std::thread::sleep(Duration::from_millis(50));
        }
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        let _ = fs::remove_dir_all(&self.profile);
    }
}
