//! `--json`: the results as a JSON document (the crate's one JSON writer, `accsim::json`).

use accsim::json::Json;

use super::*;

pub(crate) fn measurement_json(m: &Result<Measurement, Failure>) -> Json {
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
                            Json::opt(baseline.peak_kib(&r.headers, c.threads), |k| Json::Num(k as f64)),
                        ),
                        (
                            "net_memory_ratio",
                            Json::opt(c.net_memory_ratio(r.data_bytes(), baseline, &r.headers), Json::Num),
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
                    .map(|c| {
                        Json::Obj(vec![
                            ("threads", Json::opt(c.threads, |t| Json::Num(t.into()))),
                            ("source", Json::str(baseline_source(&c.headers))),
                            ("measurement", measurement_json(&c.m)),
                        ])
                    })
                    .collect(),
            ),
        ),
        ("programs", Json::Arr(programs)),
    ])
}
