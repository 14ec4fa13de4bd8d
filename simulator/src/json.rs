//! The one JSON writer of accsim's outputs: the findings of `accsim check --format json|sarif`,
//! the Chrome trace of `accsim run --trace`, and the results of `accsim-bench --json`. Values
//! are serialised by serde_json; a [`Style`] says how the document is laid out and how its
//! numbers are written, so that each output keeps its own established form:
//!
//! - findings: compact, serde_json's own number and string forms ([`Style::COMPACT`]);
//! - trace: one compact event per line, times in µs with three decimals ([`Style::TRACE`]);
//! - bench: two-space indentation, integral numbers without a fraction, others in Rust's
//!   shortest form, control characters as `\u00XX` ([`Style::BENCH`]).
//!
//! [`Json`] is a JSON value whose object keys keep the order they were given in (serde_json's
//! own `Value` sorts them), for documents laid out for people.

use std::io;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::ser::{CharEscape, CompactFormatter, Formatter, PrettyFormatter};

use accsim_core::diag::SourceMap;
use accsim_core::dialect::cray::{queue_name, AUTO_ASYNC_QUEUE};
use accsim_core::exec::events::{Record, RecordKind};

/// How numbers that are not integers are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Floats {
    /// serde_json's own (shortest round-trip, exponent for very small or large values).
    Serde,
    /// Integral values below 10¹⁵ as integers, others in Rust's shortest form (`{}`).
    Plain,
    /// Always this many decimals (`{:.3}`).
    Fixed(usize),
}

/// The layout of a document (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Two-space indentation, one member per line.
    pub pretty: bool,
    pub floats: Floats,
    /// Backspace and form feed as `\u0008`/`\u000c` instead of `\b`/`\f`.
    pub unicode_controls: bool,
}

impl Style {
    pub const COMPACT: Style = Style { pretty: false, floats: Floats::Serde, unicode_controls: false };
    pub const TRACE: Style = Style { pretty: false, floats: Floats::Fixed(3), unicode_controls: false };
    pub const BENCH: Style = Style { pretty: true, floats: Floats::Plain, unicode_controls: true };
}

/// `value` as JSON text in `style`.
pub fn write<T: Serialize + ?Sized>(value: &T, style: Style) -> String {
    let mut out = Vec::new();
    let written = if style.pretty {
        let f = Styled { inner: PrettyFormatter::with_indent(b"  "), style };
        value.serialize(&mut serde_json::Serializer::with_formatter(&mut out, f))
    } else {
        let f = Styled { inner: CompactFormatter, style };
        value.serialize(&mut serde_json::Serializer::with_formatter(&mut out, f))
    };
    // Serialising into memory fails only for a map key that is not a string, which no value
    // here has; serde_json writes valid UTF-8.
    match written {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(e) => format!("{{\"error\":{}}}", serde_json::Value::String(e.to_string())),
    }
}

/// A JSON value whose object members keep their order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// A number; a value that is not finite is written `null`.
    Num(f64),
    Int(i64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(&'static str, Json)>),
}

impl Json {
    pub fn str(s: impl Into<String>) -> Json {
        Json::Str(s.into())
    }

    /// `null` for `None`, else `f` of the value.
    pub fn opt<T>(v: Option<T>, f: impl FnOnce(T) -> Json) -> Json {
        v.map_or(Json::Null, f)
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => s.serialize_unit(),
            Json::Bool(b) => s.serialize_bool(*b),
            Json::Num(x) => s.serialize_f64(*x),
            Json::Int(x) => s.serialize_i64(*x),
            Json::Str(v) => s.serialize_str(v),
            Json::Arr(v) => {
                let mut seq = s.serialize_seq(Some(v.len()))?;
                for x in v {
                    seq.serialize_element(x)?;
                }
                seq.end()
            }
            Json::Obj(v) => {
                let mut map = s.serialize_map(Some(v.len()))?;
                for (k, x) in v {
                    map.serialize_entry(k, x)?;
                }
                map.end()
            }
        }
    }
}

/// A serde_json formatter: `inner`'s layout, the style's numbers and escapes.
struct Styled<F> {
    inner: F,
    style: Style,
}

impl<F: Formatter> Formatter for Styled<F> {
    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f64) -> io::Result<()> {
        match self.style.floats {
            Floats::Serde => CompactFormatter.write_f64(w, value),
            Floats::Plain if value.fract() == 0.0 && value.abs() < 1e15 => write!(w, "{}", value as i64),
            Floats::Plain => write!(w, "{value}"),
            Floats::Fixed(digits) => write!(w, "{value:.digits$}"),
        }
    }

    fn write_char_escape<W: ?Sized + io::Write>(&mut self, w: &mut W, escape: CharEscape) -> io::Result<()> {
        match escape {
            CharEscape::Backspace if self.style.unicode_controls => w.write_all(b"\\u0008"),
            CharEscape::FormFeed if self.style.unicode_controls => w.write_all(b"\\u000c"),
            other => CompactFormatter.write_char_escape(w, other),
        }
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.inner.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.inner.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.inner.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.inner.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.inner.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.inner.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.inner.begin_object_key(w, first)
    }
    fn end_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.inner.end_object_key(w)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.inner.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.inner.end_object_value(w)
    }
}

/// The trace track of Cray's implicit auto-async queue (`queue auto`; the host is track 1 and
/// queue `n` track `n + 2`).
const AUTO_ASYNC_TRACK: i64 = 0;

/// The trace track (`tid`) of the host (`None`) or an activity queue. A queue `n ≥ 0` is track
/// `n + 2`; the negative async-values, `acc_async_noval` (-1: `async` without an argument) and
/// `acc_async_sync` (-2), are tracks of their own below 0 (§2.13.1), so that none shares the
/// host's track 1 or the auto-async track 0.
fn trace_track(queue: Option<i64>) -> i64 {
    match queue {
        None => 1,
        Some(AUTO_ASYNC_QUEUE) => AUTO_ASYNC_TRACK,
        Some(q) if q < 0 => q - 1,
        Some(q) => q + 2,
    }
}

/// The name of a trace track ([`trace_track`]), as the queue's async-value is written (§2.13.1).
fn track_name(tid: i64) -> String {
    match tid {
        1 => "host".to_string(),
        AUTO_ASYNC_TRACK => format!("queue {}", queue_name(AUTO_ASYNC_QUEUE)),
        -2 => "queue acc_async_noval (async without a value)".to_string(),
        -3 => "queue acc_async_sync".to_string(),
        t if t < 0 => format!("queue {}", t + 1),
        t => format!("queue {}", t - 2),
    }
}

/// A Chrome trace (chrome://tracing, Perfetto) of the timeline: the host thread and each
/// activity queue as tracks, one event per line, times in µs of the model clock
/// ([`accsim_core::exec::events`]).
pub fn chrome_trace(records: &[Record], map: &SourceMap) -> String {
    let mut lines = Vec::with_capacity(records.len() + 2);
    let mut tracks = std::collections::BTreeSet::new();
    for r in records {
        let tid = trace_track(r.queue);
        tracks.insert(tid);
        let (name, cat) = match &r.kind {
            RecordKind::Alloc { var, .. } => (format!("alloc {var}"), "alloc"),
            RecordKind::Free { var, .. } => (format!("free {var}"), "alloc"),
            RecordKind::Upload { var, .. } => (format!("upload {var}"), "transfer"),
            RecordKind::Download { var, .. } => (format!("download {var}"), "transfer"),
            RecordKind::Launch { kernel, .. } => (format!("kernel {kernel}"), "kernel"),
            RecordKind::Wait { .. } => ("wait".to_string(), "wait"),
        };
        let event = Json::Obj(vec![
            ("name", Json::Str(name)),
            ("cat", Json::str(cat)),
            ("ph", Json::str("X")),
            ("ts", Json::Num(r.start_ns as f64 / 1000.0)),
            ("dur", Json::Num(r.dur_ns as f64 / 1000.0)),
            ("pid", Json::Int(1)),
            ("tid", Json::Int(tid)),
            ("args", Json::Obj(vec![("source", Json::Str(map.describe(r.loc)))])),
        ]);
        lines.push(write(&event, Style::TRACE));
    }
    for tid in tracks {
        let label = track_name(tid);
        let meta = Json::Obj(vec![
            ("name", Json::str("thread_name")),
            ("ph", Json::str("M")),
            ("pid", Json::Int(1)),
            ("tid", Json::Int(tid)),
            ("args", Json::Obj(vec![("name", Json::Str(label))])),
        ]);
        lines.push(write(&meta, Style::TRACE));
    }
    format!("{{\"traceEvents\":[\n{}\n]}}\n", lines.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_queue_has_its_own_trace_track() {
        let queues = [None, Some(AUTO_ASYNC_QUEUE), Some(-1), Some(-2), Some(0), Some(1), Some(7)];
        let tracks: Vec<i64> = queues.iter().map(|q| trace_track(*q)).collect();
        let distinct: std::collections::BTreeSet<i64> = tracks.iter().copied().collect();
        assert_eq!(distinct.len(), queues.len(), "{tracks:?}");
        assert_eq!(track_name(trace_track(Some(-1))), "queue acc_async_noval (async without a value)");
        assert_eq!(track_name(trace_track(None)), "host");
        assert_eq!(track_name(trace_track(Some(3))), "queue 3");
        assert_eq!(track_name(trace_track(Some(-5))), "queue -5");
    }

    #[test]
    fn bench_style_writes_integral_numbers_as_integers_and_nan_as_null() {
        let j = Json::Obj(vec![("a", Json::Num(2.0)), ("b", Json::Num(0.5)), ("c", Json::Num(f64::NAN)), ("d", Json::Arr(vec![]))]);
        assert_eq!(write(&j, Style::BENCH), "{\n  \"a\": 2,\n  \"b\": 0.5,\n  \"c\": null,\n  \"d\": []\n}");
        assert_eq!(write(&Json::Num(1.25e-5), Style::BENCH), "0.0000125");
    }

    #[test]
    fn strings_are_escaped_per_style() {
        let s = Json::str("a\"b\\c\nd\u{1}\u{8}");
        assert_eq!(write(&s, Style::BENCH), r#""a\"b\\c\nd\u0001\u0008""#);
        assert_eq!(write(&s, Style::COMPACT), r#""a\"b\\c\nd\u0001\b""#);
    }

    #[test]
    fn trace_times_have_three_decimals_and_members_keep_their_order() {
        let j = Json::Obj(vec![("z", Json::Num(1.0)), ("a", Json::Int(3))]);
        assert_eq!(write(&j, Style::TRACE), r#"{"z":1.000,"a":3}"#);
    }

    #[test]
    fn compact_style_is_serde_jsons_own() {
        let v = serde_json::json!({"b": [1, 2.5, "x\u{c}"], "a": null});
        assert_eq!(write(&v, Style::COMPACT), v.to_string());
    }
}
