//! `--json`: the results as a JSON document, written by hand (the crate uses no serialisation
//! library).

use super::*;

/// A JSON value, written by hand: the crate uses no serialisation library.
pub(crate) enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(&'static str, Json)>),
}

impl Json {
    fn str(s: impl Into<String>) -> Json {
        Json::Str(s.into())
    }

    fn opt<T>(v: Option<T>, f: impl FnOnce(T) -> Json) -> Json {
        v.map_or(Json::Null, f)
    }

    pub(crate) fn render(&self, depth: usize) -> String {
        let pad = "  ".repeat(depth + 1);
        let close = "  ".repeat(depth);
        match self {
            Json::Null => "null".into(),
            Json::Bool(b) => b.to_string(),
            Json::Num(x) if x.is_finite() => {
                if x.fract() == 0.0 && x.abs() < 1e15 {
                    format!("{}", *x as i64)
                } else {
                    format!("{x}")
                }
            }
            Json::Num(_) => "null".into(),
            Json::Str(s) => json_string(s),
            Json::Arr(v) if v.is_empty() => "[]".into(),
            Json::Arr(v) => {
                let items: Vec<String> = v
                    .iter()
                    .map(|x| format!("{pad}{}", x.render(depth + 1)))
                    .collect();
                format!("[\n{}\n{close}]", items.join(",\n"))
            }
            Json::Obj(v) if v.is_empty() => "{}".into(),
            Json::Obj(v) => {
                let items: Vec<String> = v
                    .iter()
                    .map(|(k, x)| format!("{pad}{}: {}", json_string(k), x.render(depth + 1)))
                    .collect();
                format!("{{\n{}\n{close}}}", items.join(",\n"))
            }
        }
    }
}

pub(crate) fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn measurement_json(m: &Result<Measurement, Failure>) -> Json {
    match m {
        Ok(m) => Json::Obj(vec![
            ("best_s", Json::Num(m.best_s)),
            (
                "times_s",
                Json::Arr(m.times_s.iter().map(|&t| Json::Num(t)).collect()),
            ),
            ("peak_kib", Json::opt(m.peak_kib, |k| Json::Num(k as f64))),
            ("stdout", Json::str(m.stdout.clone())),
        ]),
        Err(f) => Json::Obj(vec![
            ("error", Json::str(f.label())),
            ("summary", Json::str(f.summary())),
            ("details", Json::str(f.details())),
        ]),
    }
}

pub(crate) fn to_json(
    cli: &Cli,
    s: &Settings,
    accsim: Option<&Path>,
    results: &[ProgramResult],
    baseline: &Baseline,
) -> Json {
    // `accsim_run` is the base of a `check` comparison (null in `run` mode).
    let subject_key = match s.mode {
        Mode::Run => "accsim",
        Mode::Check => "accsim_check",
    };
    let programs = results
        .iter()
        .map(|r| {
            let gcc = r.gcc.as_ref().ok();
            let columns = r
                .columns
                .iter()
                .map(|c| {
                    Json::Obj(vec![
                        ("threads", Json::opt(c.threads, |t| Json::Num(t.into()))),
                        ("accsim_run", Json::opt(c.base.as_ref(), measurement_json)),
                        (subject_key, measurement_json(&c.subject)),
                        ("ratio", Json::opt(gcc.and_then(|g| c.ratio(g)), Json::Num)),
                        (
                            "memory_ratio",
                            Json::opt(c.memory_ratio(r.data_bytes()), Json::Num),
                        ),
                        (
                            "baseline_peak_kib",
                            Json::opt(baseline.peak_kib(c.threads), |k| Json::Num(k as f64)),
                        ),
                        (
                            "net_memory_ratio",
                            Json::opt(c.net_memory_ratio(r.data_bytes(), baseline), Json::Num),
                        ),
                    ])
                })
                .collect();
            let (verdict, label) = r.verdict(s, baseline);
            Json::Obj(vec![
                ("program", Json::str(r.program.kernel.name)),
                ("suite", Json::str(r.program.suite.dir())),
                ("file", Json::str(r.file.display().to_string())),
                ("n", Json::Num(r.n as f64)),
                ("data_bytes", Json::Num(r.data_bytes() as f64)),
                ("target_ratio", Json::Num(target(s.mode, r.program.suite))),
                (
                    "target_memory_ratio",
                    if s.mode == Mode::Check {
                        Json::Num(CHECK_MEMORY_TARGET)
                    } else {
                        Json::Null
                    },
                ),
                ("gcc_o2", measurement_json(&r.gcc)),
                ("columns", Json::Arr(columns)),
                ("result", Json::str(label)),
                ("judged", Json::Bool(verdict != Verdict::Ok)),
            ])
        })
        .collect();
    Json::Obj(vec![
        ("mode", Json::str(s.mode.name())),
        ("size", Json::str(s.size.name())),
        ("repeat", Json::Num(cli.repeat.into())),
        ("self_test", Json::Bool(cli.self_test)),
        (
            "accsim",
            Json::opt(accsim, |p| Json::str(p.display().to_string())),
        ),
        ("cc", Json::str(format!("{} -O2 -std=gnu11 -w -lm", cli.cc))),
        (
            "baseline",
            Json::Arr(
                baseline
                    .columns
                    .iter()
                    .map(|(t, m)| {
                        Json::Obj(vec![
                            ("threads", Json::opt(*t, |t| Json::Num(t.into()))),
                            ("source", Json::str(BASELINE_SOURCE)),
                            ("measurement", measurement_json(m)),
                        ])
                    })
                    .collect(),
            ),
        ),
        ("programs", Json::Arr(programs)),
    ])
}
