//! The data contract: every JSON document deckodds writes, or writes and
//! reads back, as a Rust type. Plain `serde` data with no computation, so
//! every layer may import it.
//!
//! Guarantees, tested in this module and in `tests/integration/contract.rs`:
//! - every document starts with `"schema": "deckodds.<kind>/v1"`, written
//!   by its [`Tag`] field, and a document whose `schema` is another kind's
//!   or another version's is refused when read;
//! - reading ([`read`]) refuses an unknown field or a value of the wrong
//!   type with one line naming the field by its path (`rows[2].cells[0].z:
//!   invalid type: string "x", expected f64`): the document structs carry
//!   `#[serde(deny_unknown_fields)]`;
//! - the JSON Schema of every kind ([`schema_for`], `deckodds schema
//!   <kind>`, committed under `schema/`) is derived from the same types, so
//!   the schema, the writer and the reader cannot drift apart.
//!
//! Adding a field is a compatible change (`v1` stays, old readers of the
//! published files are told of the field by its schema); renaming or
//! removing one, or changing its meaning, is a new version.

// The documents: what the commands print, the files deckodds writes and
// reads back itself, and the analysis specs.
pub mod blackjack;
pub mod blackjack_counts;
pub mod checkpoint;
pub mod comparison;
pub mod indices;
mod kinds;
pub mod klondike_solve;
pub mod power;
pub mod provenance;
pub mod report;
pub mod shard;
pub mod spec;

// The list of kinds names every document type, which each name this
// module's items: it lives in its own file, so that no import goes round
// in a circle.
pub use kinds::kinds;

use std::fmt;
use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A kind of document: its name in `deckodds.<kind>/v1` and in `deckodds
/// schema <kind>`.
pub trait Kind {
    /// The kind's name, e.g. `report`.
    const NAME: &'static str;
    /// The full schema identifier, e.g. `deckodds.report/v1`.
    const ID: &'static str;
    /// One line on what a document of this kind is, for `deckodds schema`'s
    /// list of kinds and the schema's description.
    const ABOUT: &'static str;
}

/// Declares a document kind: a unit type implementing [`Kind`].
///
/// `kind!(ReportKind, "report", "a game's distributions");` gives
/// `ReportKind` with `ID` `deckodds.report/v1`.
#[macro_export]
macro_rules! contract_kind {
    ($name:ident, $kind:literal, $about:literal) => {
        #[doc = concat!("The `deckodds.", $kind, "/v1` document kind: ", $about, ".")]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;

        impl $crate::contract::Kind for $name {
            const NAME: &'static str = $kind;
            const ID: &'static str = concat!("deckodds.", $kind, "/v1");
            const ABOUT: &'static str = $about;
        }
    };
}

/// The `"schema"` field of a document of kind `K`: written as `K::ID`,
/// and read only if it is exactly `K::ID`. Put it first in the struct, so
/// that it is the document's first key.
pub struct Tag<K>(PhantomData<K>);

impl<K> Tag<K> {
    /// The tag (there is only one value).
    pub const fn new() -> Tag<K> {
        Tag(PhantomData)
    }
}

impl<K> Default for Tag<K> {
    fn default() -> Tag<K> {
        Tag::new()
    }
}

impl<K> Clone for Tag<K> {
    fn clone(&self) -> Tag<K> {
        *self
    }
}

impl<K> Copy for Tag<K> {}

impl<K> PartialEq for Tag<K> {
    fn eq(&self, _: &Tag<K>) -> bool {
        true
    }
}

impl<K> Eq for Tag<K> {}

impl<K: Kind> fmt::Debug for Tag<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(K::ID)
    }
}

impl<K: Kind> Serialize for Tag<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(K::ID)
    }
}

impl<'de, K: Kind> Deserialize<'de> for Tag<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Tag<K>, D::Error> {
        let found = String::deserialize(deserializer)?;
        if found == K::ID {
            Ok(Tag::new())
        } else {
            Err(serde::de::Error::custom(format!(
                "is \"{found}\", expected \"{}\"",
                K::ID
            )))
        }
    }
}

impl<K: Kind> JsonSchema for Tag<K> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("Tag_{}", K::NAME.replace('-', "_")).into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": format!("Always \"{}\": the kind and version of this document.", K::ID),
            "type": "string",
            "const": K::ID,
        })
    }
}

/// A document of the contract: a type whose first field is its [`Tag`].
pub trait Document: Serialize + DeserializeOwned + JsonSchema {
    /// Its kind.
    type Kind: Kind;
}

/// Why a document was refused: one line, naming the field by its path
/// where serde knows it (`rows[2].cells[0].z: invalid type: ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError(pub String);

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reads a document of type `D` from JSON text, refusing unknown fields
/// and wrong types with the path of the field at fault.
pub fn read<D: Document>(text: &str) -> Result<D, ReadError> {
    let deserializer = &mut serde_json::Deserializer::from_str(text);
    let document = serde_path_to_error::deserialize(deserializer).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        // serde_json's message ends with " at line L column C"; the
        // path says more, but the line helps in a long file.
        if path == "." || path.is_empty() {
            ReadError(format!("{}: {inner}", D::Kind::ID))
        } else {
            ReadError(format!("{} field {path}: {inner}", D::Kind::ID))
        }
    })?;
    Ok(document)
}

/// The `"schema"` of a JSON document, `deckodds.<kind>/v1`, without
/// reading the rest: how a reader of several kinds picks the type to read
/// a document with. `Ok(None)` for a JSON object without one (a file
/// written before the contract existed); an error for text that is not a
/// JSON object, or whose `schema` is not a string.
pub fn schema_id(text: &str) -> Result<Option<String>, ReadError> {
    /// Only the tag; every other field is left for the document's type.
    #[derive(Deserialize)]
    struct Peek {
        #[serde(default)]
        schema: Option<String>,
    }
    let deserializer = &mut serde_json::Deserializer::from_str(text);
    let peek: Peek = serde_path_to_error::deserialize(deserializer).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        if path == "." || path.is_empty() {
            ReadError(format!("not a deckodds document: {inner}"))
        } else {
            ReadError(format!("field {path}: {inner}"))
        }
    })?;
    Ok(peek.schema)
}

/// Writes a document as pretty JSON (two-space indent, a final newline is
/// the caller's), the form every file of results/ has.
pub fn write<D: Document>(document: &D) -> String {
    // Serialising the contract's types cannot fail: their maps have string
    // keys, and their floats are `Option<f64>` where they can be
    // non-finite (serde_json writes a non-finite f64 as `null`).
    serde_json::to_string_pretty(document).unwrap_or_else(|_| "null".to_string())
}

/// The JSON Schema of a document type, as `deckodds schema <kind>` prints
/// it.
pub fn schema_of<D: Document>() -> schemars::Schema {
    let mut schema = schemars::schema_for!(D);
    schema.insert("$id".into(), D::Kind::ID.into());
    schema.insert(
        "description".into(),
        format!("deckodds {}: {}.", D::Kind::ID, D::Kind::ABOUT).into(),
    );
    schema
}

/// One kind of document, as `deckodds schema` lists it.
#[derive(Clone, Copy, Debug)]
pub struct KindEntry {
    /// Its name, `deckodds schema <name>`.
    pub name: &'static str,
    /// `deckodds.<name>/v1`.
    pub id: &'static str,
    /// One line on what it is.
    pub about: &'static str,
    /// Its JSON Schema.
    pub schema: fn() -> schemars::Schema,
}

impl KindEntry {
    /// The entry of document type `D`.
    pub fn of<D: Document>() -> KindEntry {
        KindEntry {
            name: D::Kind::NAME,
            id: D::Kind::ID,
            about: D::Kind::ABOUT,
            schema: schema_of::<D>,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    contract_kind!(ToyKind, "toy", "a document for the tests");

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Toy {
        schema: Tag<ToyKind>,
        rows: Vec<Row>,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Row {
        key: String,
        z: Option<f64>,
    }

    impl Document for Toy {
        type Kind = ToyKind;
    }

    fn toy() -> Toy {
        Toy {
            schema: Tag::new(),
            rows: vec![Row {
                key: "upcard=2".into(),
                z: Some(1.5),
            }],
        }
    }

    #[test]
    fn a_document_starts_with_its_schema_and_reads_back_equal() {
        let text = write(&toy());
        assert!(
            text.starts_with("{\n  \"schema\": \"deckodds.toy/v1\",\n"),
            "{text}"
        );
        assert_eq!(read::<Toy>(&text), Ok(toy()));
    }

    #[test]
    fn an_unknown_field_is_refused_naming_it_and_its_path() {
        let text = r#"{"schema": "deckodds.toy/v1", "rows": [{"key": "k", "z": null, "zz": 1}]}"#;
        let error = read::<Toy>(text).unwrap_err().0;
        assert!(
            error.starts_with("deckodds.toy/v1 field rows[0]"),
            "{error}"
        );
        assert!(error.contains("unknown field `zz`"), "{error}");
        assert!(!error.contains('\n'), "{error}");
    }

    #[test]
    fn a_wrong_type_is_refused_naming_the_field() {
        let text = r#"{"schema": "deckodds.toy/v1", "rows": [{"key": "k", "z": "x"}]}"#;
        let error = read::<Toy>(text).unwrap_err().0;
        assert!(
            error.starts_with("deckodds.toy/v1 field rows[0].z: invalid type: string \"x\""),
            "{error}"
        );
    }

    #[test]
    fn another_kind_or_version_is_refused() {
        for schema in ["deckodds.toy/v2", "deckodds.report/v1", ""] {
            let text = format!(r#"{{"schema": "{schema}", "rows": []}}"#);
            let error = read::<Toy>(&text).unwrap_err().0;
            assert!(
                error.starts_with("deckodds.toy/v1 field schema: is \""),
                "{error}"
            );
        }
        let error = read::<Toy>(r#"{"rows": []}"#).unwrap_err().0;
        assert!(error.contains("missing field `schema`"), "{error}");
    }

    #[test]
    fn the_schema_id_is_read_alone_and_its_absence_is_told() {
        let text = write(&toy());
        assert_eq!(schema_id(&text), Ok(Some("deckodds.toy/v1".to_string())));
        assert_eq!(schema_id(r#"{"rows": 1}"#), Ok(None));
        let error = schema_id(r#"{"schema": 2}"#).unwrap_err().0;
        assert!(error.starts_with("field schema: invalid type"), "{error}");
        let error = schema_id("\"text\"").unwrap_err().0;
        assert!(error.starts_with("not a deckodds document: "), "{error}");
    }

    #[test]
    fn every_kind_has_a_schema_with_its_id() {
        for kind in kinds() {
            let schema = serde_json::to_value((kind.schema)()).unwrap();
            assert_eq!(schema["$id"], kind.id, "{}", kind.name);
            assert_eq!(kind.id, format!("deckodds.{}/v1", kind.name));
        }
    }

    #[test]
    fn the_schema_pins_the_tag_and_refuses_unknown_fields() {
        let schema = serde_json::to_value(schema_of::<Toy>()).unwrap();
        assert_eq!(schema["$id"], "deckodds.toy/v1");
        let text = serde_json::to_string(&schema).unwrap();
        assert!(text.contains(r#""const":"deckodds.toy/v1""#), "{text}");
        assert!(text.contains(r#""additionalProperties":false"#), "{text}");
    }
}
