//! The keys an event table repeats within one event. serde_json keeps the last of a
//! repeated key without a word, so a table that says `"Scope": "core"` and then
//! `"Scope": "thread"` would silently mean the second; the table's text is read once
//! more here, keeping only the key names of each event object.
use std::collections::BTreeSet;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// For each element of a top-level JSON array, the keys its object gives more than once
/// (in the file's order, each once); empty for anything else or text that is not JSON.
pub(super) fn repeated_keys(text: &str) -> Vec<Vec<String>> {
    serde_json::from_str::<Elements>(text).map(|elements| elements.0).unwrap_or_default()
}

/// A visitor's scalar cases: a number, string, boolean or null has no keys.
macro_rules! scalars {
    ($value:ident) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<$value, E> {
            Ok($value(Vec::new()))
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<$value, E> {
            Ok($value(Vec::new()))
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<$value, E> {
            Ok($value(Vec::new()))
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<$value, E> {
            Ok($value(Vec::new()))
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<$value, E> {
            Ok($value(Vec::new()))
        }
        fn visit_unit<E: de::Error>(self) -> Result<$value, E> {
            Ok($value(Vec::new()))
        }
    };
}

/// The repeated keys of each array element.
struct Elements(Vec<Vec<String>>);

/// The repeated keys of one value (none unless it is an object).
struct Repeats(Vec<String>);

impl<'de> Deserialize<'de> for Elements {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ArrayVisitor;
        impl<'de> Visitor<'de> for ArrayVisitor {
            type Value = Elements;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Elements, A::Error> {
                let mut elements = Vec::new();
                while let Some(Repeats(keys)) = seq.next_element()? {
                    elements.push(keys);
                }
                Ok(Elements(elements))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Elements, A::Error> {
                IgnoredAny.visit_map(map).map(|_| Elements(Vec::new()))
            }
            scalars!(Elements);
        }
        deserializer.deserialize_any(ArrayVisitor)
    }
}

impl<'de> Deserialize<'de> for Repeats {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjectVisitor;
        impl<'de> Visitor<'de> for ObjectVisitor {
            type Value = Repeats;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Repeats, A::Error> {
                let (mut seen, mut repeated) = (BTreeSet::new(), Vec::new());
                while let Some(key) = map.next_key::<String>()? {
                    map.next_value::<IgnoredAny>()?;
                    if !seen.insert(key.clone()) && !repeated.contains(&key) {
                        repeated.push(key);
                    }
                }
                Ok(Repeats(repeated))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Repeats, A::Error> {
                IgnoredAny.visit_seq(seq).map(|_| Repeats(Vec::new()))
            }
            scalars!(Repeats);
        }
        deserializer.deserialize_any(ObjectVisitor)
    }
}
