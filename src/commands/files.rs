//! The one place that writes a file, and the checks a run makes on the
//! files it will write before it starts.
//!
//! Guarantees of [`write_atomically`] and [`write_durably`]:
//!
//! - a regular file (or a path that does not exist yet) is replaced
//!   atomically: the bytes go to a temporary file in the same directory
//!   (tempfile's short random name, so any legal file name works, 255
//!   bytes included), which is then renamed over it, so the file is
//!   always whole, old or new, and a failed write leaves no partial file;
//! - a symbolic link stays a link: the file it points to is written as
//!   above (or in place, if that is not a regular file);
//! - anything else that exists (a character device such as /dev/null, a
//!   FIFO, a terminal) is written in place, never replaced: a rename would
//!   put a regular file where the device was;
//! - [`write_durably`] (checkpoints, the one file whose loss costs hours)
//!   also syncs the file to disk before the rename and the directory after
//!   it, so that a crash of the machine leaves the old checkpoint or the
//!   new one, never an empty file.
//!
//! `-` as a path means standard output (see [`Destination`]).

use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// How temporary files start: a dot hides them, and the name says whose
/// they are should a killed run leave one behind.
const TEMPORARY_PREFIX: &str = ".deckodds-";

/// Where one output goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Destination {
    /// Standard output: the path `-`.
    Stdout,
    /// A file (or a device, or a FIFO) named by a path.
    File(PathBuf),
}

impl Destination {
    /// The destination a path names: `-` is standard output.
    pub(super) fn of(path: &Path) -> Destination {
        if path.as_os_str() == "-" {
            Destination::Stdout
        } else {
            Destination::File(path.to_path_buf())
        }
    }
}

/// How much a write must survive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Durability {
    /// Whole or absent to every reader, but possibly lost in a crash of the
    /// machine soon after: an output, which the run can make again.
    Atomic,
    /// Also on disk before the write returns: a checkpoint.
    Synced,
}

/// Writes `bytes` to `path`: a regular file is replaced atomically, a
/// device or FIFO written in place (see the module documentation).
pub(super) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write(path, bytes, Durability::Atomic)
}

/// As [`write_atomically`], and on disk (file and directory synced) when
/// it returns: for checkpoints.
pub(super) fn write_durably(path: &Path, bytes: &[u8]) -> Result<()> {
    write(path, bytes, Durability::Synced)
}

/// Writes `bytes` to standard output. A closed pipe (`deckodds ... |
/// head`) is a normal end, not an error.
pub(super) fn write_stdout(bytes: &[u8]) -> Result<()> {
    let mut stdout = io::stdout().lock();
    match stdout.write_all(bytes).and_then(|_| stdout.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Error::Io {
            path: PathBuf::from("<stdout>"),
            source: e,
        }),
        _ => Ok(()),
    }
}

fn write(path: &Path, bytes: &[u8], durability: Durability) -> Result<()> {
    let io_error = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    // The kernel follows the links (also /proc's, such as /dev/stdout,
    // whose targets are not paths).
    match fs::metadata(path) {
        Ok(metadata) if metadata.is_dir() => Err(io_error(io::Error::new(
            io::ErrorKind::IsADirectory,
            "is a directory",
        ))),
        Ok(metadata) if metadata.is_file() => {
            let target = fs::canonicalize(path).map_err(io_error)?;
            replace(&target, bytes, Some(metadata.permissions()), durability).map_err(io_error)
        }
        Ok(_) => write_in_place(path, bytes).map_err(io_error),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            // A new file, or a link to one not there yet: create it where
            // the links lead, so that they stay links.
            let target = follow_links(path).map_err(io_error)?;
            replace(&target, bytes, None, durability).map_err(io_error)
        }
        Err(e) => Err(io_error(e)),
    }
}

/// Writes into an existing file that is not a regular one (a device, a
/// FIFO), which a rename would replace.
fn write_in_place(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).open(path)?;
    file.write_all(bytes)?;
    file.flush()
}

/// Replaces (or creates) the regular file `target` with `bytes` through a
/// temporary file beside it. `permissions` are the replaced file's, which
/// the new one keeps; a new file gets the usual 0666 less the umask.
fn replace(
    target: &Path,
    bytes: &[u8],
    permissions: Option<Permissions>,
    durability: Durability,
) -> io::Result<()> {
    let directory = directory_of(target);
    let mut temporary = tempfile::Builder::new()
        .prefix(TEMPORARY_PREFIX)
        .permissions(Permissions::from_mode(0o666))
        .tempfile_in(directory)?;
    if let Some(permissions) = permissions {
        temporary.as_file().set_permissions(permissions)?;
    }
    temporary.write_all(bytes)?;
    if durability == Durability::Synced {
        temporary.as_file().sync_all()?;
    }
    // On failure the temporary file is dropped, which deletes it.
    temporary.persist(target).map_err(|e| e.error)?;
    if durability == Durability::Synced {
        // The rename is an entry of the directory: on disk only once the
        // directory is.
        File::open(directory)?.sync_all()?;
    }
    Ok(())
}

/// The directory that holds `path` (`.` for a bare file name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// Where `path` leads through symbolic links, for a path whose end does
/// not exist (a new file, or a dangling link): each link's target read
/// relative to the link's directory, at most 40 links (Linux's limit).
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&current) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target = fs::read_link(&current)?;
                // An absolute target replaces the directory in `join`.
                current = directory_of(&current).join(target);
            }
            // Not a link, or nothing there (or a part of the path is
            // not a directory, which the write then reports).
            Ok(_) | Err(_) => return Ok(current),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Removes the checkpoint a completed run saved to `path`: the regular
/// file it names (through any symbolic links, which stay, as they were
/// before the run). A device or FIFO is not the run's to remove. Returns
/// whether a file was removed.
pub(super) fn remove_checkpoint(path: &Path) -> Result<bool> {
    let io_error = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    match fs::metadata(path) {
        Ok(metadata) if metadata.is_file() => {
            let target = fs::canonicalize(path).map_err(io_error)?;
            fs::remove_file(target).map_err(io_error)?;
            Ok(true)
        }
        Ok(_) => Ok(false),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(io_error(e)),
    }
}

// ---------------------------------------------------------------------------
// Reading a user's files.

/// The UTF-8 byte-order mark, which some editors (Notepad, Excel's "CSV
/// UTF-8") put at the start of a text file.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// The text of a file the user gives a command (a chart, a claim, deals,
/// a published table, a count file, a checkpoint): the one way every such
/// file is read. Read as bytes; a UTF-8 byte-order mark at its start is
/// skipped; bytes that are not UTF-8 are refused as bad input (exit 2)
/// naming the file, the line and byte where they start, and `holds`, what
/// the file must hold ("a strategy chart (CSV)"). A file that cannot be
/// read at all is an I/O error naming it.
pub(super) fn read_user_text(path: &Path, holds: &str) -> Result<String> {
    let bytes = fs::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    user_text(bytes, holds).map_err(|message| Error::BadInputFile {
        path: path.to_path_buf(),
        message,
    })
}

/// [`read_user_text`]'s check of a file's `bytes`: the text without its
/// byte-order mark, or what is wrong, in one line.
fn user_text(mut bytes: Vec<u8>, holds: &str) -> std::result::Result<String, String> {
    if bytes.starts_with(BYTE_ORDER_MARK) {
        bytes.drain(..BYTE_ORDER_MARK.len());
    }
    String::from_utf8(bytes).map_err(|error| {
        let valid = &error.as_bytes()[..error.utf8_error().valid_up_to()];
        let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
        let column = 1 + valid.iter().rev().take_while(|&&b| b != b'\n').count();
        format!(
            "is not UTF-8 text (line {line}, byte {column} is not UTF-8): it must be {holds}, as plain text in UTF-8 (or ASCII)"
        )
    })
}

// ---------------------------------------------------------------------------
// Checks before a run.

/// A file a run will write or read, and the option that names it.
#[derive(Clone, Debug)]
pub(super) struct NamedPath {
    /// The option as the user gives it (`--out`, `--save-wins`).
    pub option: &'static str,
    /// The path as given.
    pub path: PathBuf,
}

/// The files a command line writes and reads, for [`check_before_run`].
#[derive(Clone, Debug, Default)]
pub(super) struct Plan {
    /// What the run writes.
    pub outputs: Vec<NamedPath>,
    /// Files the run reads, which no output may replace.
    pub inputs: Vec<NamedPath>,
    /// Whether the command prints its report on standard output (it has
    /// no `--out`), which then is no place for another output.
    pub report_on_stdout: bool,
}

/// What an output path is, for telling two outputs on one file apart.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Identity {
    Stdout,
    /// An existing regular file: its device and inode (so that two paths
    /// to one file, through links or `..`, are one).
    Existing(u64, u64),
    /// A file to be created: its directory's canonical path and its name.
    New(PathBuf),
    /// A device, FIFO or socket, written in place: two outputs there lose
    /// nothing (one follows the other), so it collides with nothing.
    Special,
}

/// Checks that `directory`, given to `option`, is an existing directory;
/// else refuses it as bad input naming the option and the path, and
/// saying `what` goes there ("the man pages are written into it").
pub(super) fn existing_directory(option: &str, directory: &Path, what: &str) -> Result<()> {
    if directory.is_dir() {
        return Ok(());
    }
    Err(Error::invalid(
        option,
        directory.display(),
        format!("must be an existing directory ({what})"),
    ))
}

/// Checks, before any work, every file of `plan`, so that a run of hours
/// does not end in an error it could have had at once, nor one output
/// lost under another:
///
/// - each output's directory exists, is a directory and is writable (a
///   temporary file is made and removed there), and the output is not a
///   directory or a block device;
/// - no two outputs are one file (paths compared after resolving links and
///   the directory, as the file may not exist yet), `-` (standard output)
///   included, and none is standard output while the report goes there;
/// - no output is one of the files the run reads, but for `--checkpoint`
///   and `--resume`, which may name the same file (the run saves where it
///   resumed from).
///
/// Errors name the option and the path, and are bad input (exit 2).
pub(super) fn check_before_run(plan: &Plan) -> Result<()> {
    let mut seen: Vec<(&NamedPath, Identity)> = Vec::new();
    for output in &plan.outputs {
        let identity = destination_identity(output)?;
        if identity == Identity::Stdout && plan.report_on_stdout {
            return Err(Error::invalid(
                output.option,
                output.path.display(),
                "standard output already carries the report (no --out): give --out FILE, or name a file here",
            ));
        }
        if let Some((earlier, _)) = seen
            .iter()
            .find(|(_, other)| *other == identity && identity != Identity::Special)
        {
            let what = match identity {
                Identity::Stdout => "standard output, as",
                _ => "the same file as",
            };
            return Err(Error::invalid(
                output.option,
                output.path.display(),
                format!(
                    "{what} {} {}: give each output a file of its own",
                    earlier.option,
                    earlier.path.display()
                ),
            ));
        }
        seen.push((output, identity));
    }
    for input in &plan.inputs {
        let Ok(metadata) = fs::metadata(&input.path) else {
            // A missing input is its reader's error.
            continue;
        };
        let identity = Identity::Existing(metadata.dev(), metadata.ino());
        let clash = seen.iter().find(|(output, other)| {
            let resumed_in_place =
                matches!(output.option, "--checkpoint" | "--resume") && input.option == "--resume";
            *other == identity && !resumed_in_place
        });
        if let Some((output, _)) = clash {
            return Err(Error::invalid(
                output.option,
                output.path.display(),
                format!(
                    "the same file as {} {}, which the run reads: write the output elsewhere",
                    input.option,
                    input.path.display()
                ),
            ));
        }
    }
    Ok(())
}

/// Checks where `output` will be written and says what it is.
fn destination_identity(output: &NamedPath) -> Result<Identity> {
    let path = &output.path;
    let refuse = |allowed: String| Error::invalid(output.option, path.display(), allowed);
    if Destination::of(path) == Destination::Stdout {
        if matches!(output.option, "--checkpoint" | "--resume") {
            return Err(refuse(
                "a checkpoint must be a file, to resume from: name one".into(),
            ));
        }
        return Ok(Identity::Stdout);
    }
    if path.file_name().is_none() {
        return Err(refuse("must name a file".into()));
    }
    match fs::metadata(path) {
        Ok(metadata) if metadata.is_dir() => {
            Err(refuse("is a directory: name a file (in it, say)".into()))
        }
        Ok(metadata) if metadata.file_type().is_block_device() => Err(refuse(
            "is a block device, which deckodds does not write over: name a file".into(),
        )),
        Ok(metadata) if metadata.is_file() => {
            // Replaced through a temporary file beside the file the path
            // leads to.
            let target = fs::canonicalize(path).map_err(|e| refuse(e.to_string()))?;
            check_directory(directory_of(&target), &refuse)?;
            Ok(Identity::Existing(metadata.dev(), metadata.ino()))
        }
        Ok(_) => Ok(Identity::Special),
        Err(error) => {
            let target = follow_links(path).map_err(|e| refuse(e.to_string()))?;
            let directory = directory_of(&target);
            check_directory(directory, &refuse)?;
            if error.kind() != io::ErrorKind::NotFound {
                return Err(refuse(error.to_string()));
            }
            let canonical = fs::canonicalize(directory).map_err(|e| refuse(e.to_string()))?;
            let name = target
                .file_name()
                .ok_or_else(|| refuse("must name a file".into()))?;
            Ok(Identity::New(canonical.join(name)))
        }
    }
}

/// Checks that `directory` exists, is a directory, and takes a new file.
fn check_directory(directory: &Path, refuse: &dyn Fn(String) -> Error) -> Result<()> {
    let shown = directory.display();
    match fs::metadata(directory) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(refuse(format!("the directory {shown} does not exist")));
        }
        Err(e) if e.kind() == io::ErrorKind::NotADirectory => {
            return Err(refuse(format!(
                "{shown} is not a directory (a part of it is a file)"
            )));
        }
        Err(e) => return Err(refuse(format!("the directory {shown}: {e}"))),
        Ok(metadata) if !metadata.is_dir() => {
            return Err(refuse(format!("{shown} is not a directory")));
        }
        Ok(_) => {}
    }
    // Permission bits do not tell (root, read-only mounts, ACLs): making a
    // file does.
    tempfile::Builder::new()
        .prefix(TEMPORARY_PREFIX)
        .tempfile_in(directory)
        .map(drop)
        .map_err(|e| refuse(format!("the directory {shown} is not writable ({e})")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_write_replaces_the_file_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("table.csv");
        write_atomically(&path, b"a,b\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "a,b\n");
        write_durably(&path, b"c\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "c\n");
        assert_eq!(entries(dir.path()), ["table.csv"]);
        let missing = dir.path().join("no-such-dir").join("x.csv");
        assert!(write_atomically(&missing, b"x").is_err());
        assert!(!missing.exists());
        assert_eq!(entries(dir.path()), ["table.csv"]);
    }

    #[test]
    fn a_replaced_file_keeps_its_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shared.md");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, Permissions::from_mode(0o640)).unwrap();
        write_atomically(&path, b"new").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        // A new file is readable by others unless the umask says otherwise,
        // as fs::write makes it (tempfile's own default is 0600).
        let fresh = dir.path().join("fresh.md");
        write_atomically(&fresh, b"x").unwrap();
        fs::write(dir.path().join("reference"), "x").unwrap();
        let mode_of = |name: &str| {
            fs::metadata(dir.path().join(name))
                .unwrap()
                .permissions()
                .mode()
                & 0o777
        };
        assert_eq!(mode_of("fresh.md"), mode_of("reference"));
    }

    #[test]
    fn a_dangling_link_is_written_through_and_stays_a_link() {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("sub/target.json", dir.path().join("link.json")).unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        write_atomically(&dir.path().join("link.json"), b"{}").unwrap();
        let link = fs::symlink_metadata(dir.path().join("link.json")).unwrap();
        assert!(link.file_type().is_symlink());
        assert_eq!(
            fs::read_to_string(dir.path().join("sub/target.json")).unwrap(),
            "{}"
        );
        assert!(remove_checkpoint(&dir.path().join("link.json")).unwrap());
        assert!(!dir.path().join("sub/target.json").exists());
        assert!(
            fs::symlink_metadata(dir.path().join("link.json"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }

    #[test]
    fn a_loop_of_links_is_an_error_not_a_hang() {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("b", dir.path().join("a")).unwrap();
        std::os::unix::fs::symlink("a", dir.path().join("b")).unwrap();
        assert!(write_atomically(&dir.path().join("a"), b"x").is_err());
    }

    #[test]
    fn a_device_is_written_in_place_and_never_removed() {
        let null = Path::new("/dev/null");
        write_atomically(null, b"nothing").unwrap();
        write_durably(null, b"nothing").unwrap();
        assert!(!remove_checkpoint(null).unwrap());
        assert!(fs::metadata(null).unwrap().file_type().is_char_device());
    }

    fn named(option: &'static str, path: &Path) -> NamedPath {
        NamedPath {
            option,
            path: path.to_path_buf(),
        }
    }

    #[test]
    fn two_paths_to_one_file_collide() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        let plan = |a: PathBuf, b: PathBuf| Plan {
            outputs: vec![named("--out", &a), named("--chart", &b)],
            ..Plan::default()
        };
        // A file not yet there, named two ways.
        let error = check_before_run(&plan(
            dir.path().join("x.svg"),
            dir.path().join("sub/../x.svg"),
        ))
        .unwrap_err()
        .to_string();
        assert!(error.starts_with("--chart "), "{error}");
        assert!(error.contains("the same file as --out "), "{error}");
        // An existing file and a link to it.
        fs::write(dir.path().join("y.svg"), "").unwrap();
        std::os::unix::fs::symlink("y.svg", dir.path().join("z.svg")).unwrap();
        assert!(
            check_before_run(&plan(dir.path().join("y.svg"), dir.path().join("z.svg"))).is_err()
        );
        // Different files, and a device twice, are fine.
        check_before_run(&plan(dir.path().join("y.svg"), dir.path().join("w.svg"))).unwrap();
        check_before_run(&plan("/dev/null".into(), "/dev/null".into())).unwrap();
        // Standard output twice is not.
        assert!(check_before_run(&plan("-".into(), "-".into())).is_err());
        // No probe is left behind.
        assert_eq!(entries(dir.path()), ["sub", "y.svg", "z.svg"]);
    }

    #[test]
    fn an_output_may_not_replace_an_input_but_a_checkpoint_may_be_resumed_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("run.ckpt");
        fs::write(&file, "{}").unwrap();
        let plan = |option| Plan {
            outputs: vec![named(option, &file)],
            inputs: vec![named("--resume", &file)],
            report_on_stdout: true,
        };
        check_before_run(&plan("--checkpoint")).unwrap();
        // `--resume F` alone saves to F too.
        check_before_run(&plan("--resume")).unwrap();
        let error = check_before_run(&plan("--out")).unwrap_err().to_string();
        assert!(error.contains("--resume"), "{error}");
    }

    #[test]
    fn directories_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("file"), "").unwrap();
        let check = |path: PathBuf| {
            check_before_run(&Plan {
                outputs: vec![named("--out", &path)],
                ..Plan::default()
            })
            .map_err(|e| e.to_string())
        };
        let error = check(dir.path().join("nodir/x.json")).unwrap_err();
        assert!(error.ends_with("nodir does not exist"), "{error}");
        let error = check(dir.path().join("file/x.json")).unwrap_err();
        assert!(error.contains("file is not a directory"), "{error}");
        let error = check(dir.path().to_path_buf()).unwrap_err();
        assert!(error.contains("is a directory"), "{error}");
        check(dir.path().join("x.json")).unwrap();
    }

    #[test]
    fn standard_output_is_for_one_output() {
        let plan = Plan {
            outputs: vec![named("--save-wins", Path::new("-"))],
            inputs: Vec::new(),
            report_on_stdout: true,
        };
        let error = check_before_run(&plan).unwrap_err().to_string();
        assert!(
            error.starts_with("--save-wins -: standard output already carries the report"),
            "{error}"
        );
        let plan = Plan {
            outputs: vec![named("--checkpoint", Path::new("-"))],
            ..Plan::default()
        };
        assert!(check_before_run(&plan).is_err());
    }

    #[test]
    fn user_text_skips_a_byte_order_mark_and_names_where_bytes_are_not_utf8() {
        assert_eq!(
            user_text(b"\xEF\xBB\xBFa,b\n".to_vec(), "x").unwrap(),
            "a,b\n"
        );
        assert_eq!(
            user_text(b"a\xEF\xBB\xBF".to_vec(), "x").unwrap(),
            "a\u{feff}"
        );
        let error = user_text(b"ok\nab\xFFc".to_vec(), "a chart").unwrap_err();
        assert_eq!(
            error,
            "is not UTF-8 text (line 2, byte 3 is not UTF-8): it must be a chart, as plain text in UTF-8 (or ASCII)"
        );
    }
}
