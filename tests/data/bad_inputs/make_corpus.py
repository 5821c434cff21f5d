#!/usr/bin/env python3
"""Regenerates the bad-input corpus and manifest.json from the good documents in good/.

Why a generator: each bad file is "the good document with one thing wrong", so a reader can see
what is wrong from the mutation below, and the corpus stays consistent when the schema moves.
The generated files are committed; tests never run this script.

Manifest placeholders (expanded by tests/integration/bad_inputs): {data} = a private copy of
this folder, {bench} = the built fabricgate-bench, {scratch} = a per-row scratch folder.
"""
import copy
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
GOOD_RUN = json.load(open(os.path.join(HERE, "good/run/run.json")))
GOOD_BASELINE = json.load(open(os.path.join(HERE, "good/baseline.json")))
GOOD_SUITE = json.load(open(os.path.join(HERE, "good/suite.json")))
ENTRY = next(iter(GOOD_BASELINE["entries"]))          # the one key both documents share
ENTRY_PTR = "/entries/" + ENTRY.replace("~", "~0").replace("/", "~1")
ROWS = []


def write_bytes(rel, data):
    path = os.path.join(HERE, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def write_json(rel, doc):
    write_bytes(rel, (json.dumps(doc, indent=1, allow_nan=True) + "\n").encode())


def row(name, args, messages, exit_code=2, preexisting=(), allow_new=(), note=""):
    ROWS.append({"name": name, "args": args, "expect_exit": exit_code,
                 "expect_message": list(messages), "preexisting": list(preexisting),
                 "allow_new": list(allow_new), "checks": note})


def mutate(doc, fn):
    d = copy.deepcopy(doc)
    fn(d)
    return d


def set_bench(field, value):
    return lambda d: d["benchmarks"][0].__setitem__(field, value)


# ---- runs: gated with `compare RUN --baseline good` (and a few through report / baseline) ----
def compare_run(name, messages, note, exit_code=2, extra=()):
    row("runs-" + name, ["compare", "{data}/runs/" + name, "--baseline", "{data}/good/baseline.json",
                         *extra], messages, exit_code, note=note)


def bad_run_json(name, doc, pointer, note):
    write_json("runs/%s/run.json" % name, doc)
    compare_run(name, ["runs/%s/run.json" % name, pointer], note)


def bad_run_bytes(name, data, messages, note):
    write_bytes("runs/%s/run.json" % name, data)
    compare_run(name, ["runs/%s/run.json" % name, *messages], note)


good_text = json.dumps(GOOD_RUN, indent=1).encode()
bad_run_bytes("truncated", good_text[: len(good_text) // 2], ["not valid JSON"], "truncated mid-document")
bad_run_bytes("empty", b"", ["not valid JSON"], "zero-byte file")
bad_run_bytes("trailing_comma", b'{"schema": "fabricgate.run/1", "run_id": "x",}', ["not valid JSON"],
              "malformed: trailing comma")
bad_run_bytes("nan_literal", good_text.replace(b'"time_us": ', b'"time_us": NaN, "x": ', 1),
              ["not valid JSON"], "NaN is not JSON")
bad_run_bytes("infinity_literal", good_text.replace(b'"warmup_us": ', b'"warmup_us": Infinity, "y": ', 1),
              ["not valid JSON"], "Infinity is not JSON")
bad_run_bytes("overflow_number", good_text.replace(b'"warmup_us": ', b'"warmup_us": 1e999, "y": ', 1),
              ["not valid JSON"], "1e999 overflows a double")
bad_run_bytes("non_utf8", good_text.replace(b'"suite": "cpu"', b'"suite": "cpu\xff\xfe"', 1),
              ["not valid JSON"], "invalid UTF-8 byte inside a string")
bad_run_bytes("duplicate_key", good_text.replace(b'"complete": true', b'"complete": true, "complete": false', 1),
              ["duplicate object key"], "same key twice")
bad_run_bytes("not_object", b"[1, 2, 3]\n", ["a JSON object"], "top level is an array")
bad_run_bytes("deep_nesting", b"[" * 100000 + b"]" * 100000, ["a JSON object"],
              "10^5 nested arrays: must not overflow the stack")
bad_run_json("wrong_schema", mutate(GOOD_RUN, lambda d: d.__setitem__("schema", "fabricgate.run/2")),
             "/schema", "schema version 2")
bad_run_json("missing_schema", mutate(GOOD_RUN, lambda d: d.pop("schema")), "/schema", "no schema field")
bad_run_json("missing_run_id", mutate(GOOD_RUN, lambda d: d.pop("run_id")), "/run_id", "required field")
bad_run_json("missing_benchmarks", mutate(GOOD_RUN, lambda d: d.pop("benchmarks")), "/benchmarks",
             "required field")
bad_run_json("missing_launch", mutate(GOOD_RUN, lambda d: d.pop("launch")), "/launch", "required object")
bad_run_json("complete_string", mutate(GOOD_RUN, lambda d: d.__setitem__("complete", "yes")), "/complete",
             "bool field given a string")
bad_run_json("platform_traversal", mutate(GOOD_RUN, lambda d: d.__setitem__("platform", "../../etc")),
             "/platform", "platform key would climb out of baselines/")
bad_run_json("run_id_traversal", mutate(GOOD_RUN, lambda d: d.__setitem__("run_id", "../x")), "/run_id",
             "run id would climb out of results/")
bad_run_json("key_dotdot", mutate(GOOD_RUN, set_bench("key", "coll/../../etc/passwd")), "/benchmarks/0/key",
             "benchmark key with ..")
bad_run_json("busbw_absurd", mutate(GOOD_RUN, set_bench("busbw_GBps", 1e9)), "/benchmarks/0/busbw_GBps",
             "1e9 GB/s is not a fabric")
bad_run_json("time_negative", mutate(GOOD_RUN, set_bench("time_us", -5.0)), "/benchmarks/0/time_us",
             "negative time")
bad_run_json("time_zero", mutate(GOOD_RUN, set_bench("time_us", 0)), "/benchmarks/0/time_us",
             "zero time for an ok result")
bad_run_json("time_absurd", mutate(GOOD_RUN, set_bench("time_us", 1e300)), "/benchmarks/0/time_us",
             "10^300 us")
bad_run_json("sample_negative",
             mutate(GOOD_RUN, lambda d: d["benchmarks"][0]["samples"]["time_us"].__setitem__(0, -1.0)),
             "/benchmarks/0/samples/time_us/0", "one negative sample")
bad_run_json("samples_short",
             mutate(GOOD_RUN, lambda d: d["benchmarks"][0]["samples"]["time_us"].pop()),
             "/benchmarks/0/samples/time_us", "fewer samples than repetitions")
bad_run_json("bytes_negative", mutate(GOOD_RUN, set_bench("bytes", -1)), "/benchmarks/0/bytes", "negative size")
bad_run_json("bytes_u64_max", mutate(GOOD_RUN, set_bench("bytes", 18446744073709551615)),
             "/benchmarks/0/bytes", "2^64-1 must not wrap to -1 or pass")
bad_run_json("bytes_fraction", mutate(GOOD_RUN, set_bench("bytes", 1024.5)), "/benchmarks/0/bytes",
             "fractional size")
bad_run_json("nranks_zero", mutate(GOOD_RUN, set_bench("nranks", 0)), "/benchmarks/0/nranks", "zero ranks")
bad_run_json("status_unknown", mutate(GOOD_RUN, set_bench("status", "great")), "/benchmarks/0/status",
             "unknown status")
bad_run_json("choice_negative", mutate(GOOD_RUN, set_bench("choice", {"algo": {"Ring": -3}})),
             "/benchmarks/0/choice/algo/Ring", "negative count")
bad_run_json("choice_key_tilde", mutate(GOOD_RUN, set_bench("choice", {"algo": {"R~ing": "many"}})),
             "/benchmarks/0/choice/algo", "object key that is not a valid JSON-pointer token")
bad_run_json("duplicate_benchmark_key",
             mutate(GOOD_RUN, lambda d: d["benchmarks"].append(copy.deepcopy(d["benchmarks"][0]))),
             "/benchmarks/1/key", "same benchmark key twice")
bad_run_json("identity_not_object",
             mutate(GOOD_RUN, lambda d: d["fingerprint"].__setitem__("identity", "cpu")),
             "/fingerprint/identity", "identity must be an object")

# A run from another machine (identity differs) is refused unless --force.
other = mutate(GOOD_RUN, lambda d: d["fingerprint"]["identity"].update({"gpu_count": 8, "gpu_model": "NVIDIA H200"}))
write_json("runs/other_identity/run.json", other)
compare_run("other_identity", ["/fingerprint/identity", "gpu_count"], "identity differs from the baseline")
row("runs-other_identity-forced", ["compare", "{data}/runs/other_identity", "--baseline",
                                   "{data}/good/baseline.json", "--force", "--store", "sqlite:{scratch}/fabricgate.sqlite"],
    ["forced"], 0, allow_new=["{scratch}"], note="--force compares anyway (same numbers: pass); recorded in a scratch store")

# Crashed runs keep only records.jsonl; corruption before the last line is an error.
records = open(os.path.join(HERE, "good/run/records.jsonl"), "rb").read().splitlines(keepends=True)
write_bytes("runs/records_garbage_middle/records.jsonl", records[0] + b"{\"type\": \"benchm\x00 garbage\n" + b"".join(records[1:]))
compare_run("records_garbage_middle", ["records.jsonl line 2", "not valid JSON"], "garbage line mid-file")
bad_line = json.loads(records[1])
bad_line["time_us"] = -2.0
write_bytes("runs/records_bad_value_middle/records.jsonl",
            records[0] + json.dumps(bad_line).encode() + b"\n" + b"".join(records[1:]))
compare_run("records_bad_value_middle", ["records.jsonl line 2", "/time_us"], "valid JSON, bad value")

# report and baseline commands read runs through the same loader; their outputs must survive.
row("report-truncated-out", ["report", "{data}/runs/truncated", "--baseline", "{data}/good/baseline.json",
                             "--format", "markdown", "--out", "{data}/out/report.md"],
    ["runs/truncated/run.json", "not valid JSON"], preexisting=["out/report.md"],
    note="report of a bad run leaves an existing report untouched")
row("compare-bad-run-out", ["compare", "{data}/runs/busbw_absurd", "--baseline", "{data}/good/baseline.json",
                            "--format", "junit", "--out", "{data}/out/junit.xml"],
    ["/benchmarks/0/busbw_GBps"], preexisting=["out/junit.xml"], note="existing junit untouched")
row("baseline-create-bad-run", ["baseline", "create", "--from", "{data}/good/run", "--from",
                                "{data}/runs/time_negative", "--from", "{data}/good/run3",
                                "--out", "{data}/out/baseline.json"],
    ["runs/time_negative/run.json", "/benchmarks/0/time_us"], preexisting=["out/baseline.json"],
    note="one bad run among three: existing baseline untouched")
row("baseline-create-records-garbage", ["baseline", "create", "--from", "{data}/runs/records_garbage_middle",
                                        "--from", "{data}/good/run2", "--from", "{data}/good/run3",
                                        "--out", "{data}/out/baseline.json"],
    ["records.jsonl line 2"], preexisting=["out/baseline.json"], note="crashed + corrupt run")
row("baseline-update-bad-run", ["baseline", "update", "--baseline", "{data}/out/baseline.json", "--from",
                                "{data}/runs/platform_traversal", "--from", "{data}/good/run2", "--from",
                                "{data}/good/run3"],
    ["/platform"], preexisting=["out/baseline.json"], note="update with a bad run: baseline untouched")

# ---- baselines: `compare good/run --baseline FILE` ----
def bad_baseline(name, doc_or_bytes, messages, note):
    rel = "baselines/%s.json" % name
    if isinstance(doc_or_bytes, bytes):
        write_bytes(rel, doc_or_bytes)
    else:
        write_json(rel, doc_or_bytes)
    row("baselines-" + name, ["compare", "{data}/good/run", "--baseline", "{data}/" + rel],
        [rel, *messages], note=note)


base_text = json.dumps(GOOD_BASELINE, indent=1).encode()
bad_baseline("truncated", base_text[: len(base_text) * 2 // 3], ["not valid JSON"], "truncated")
bad_baseline("non_utf8", base_text.replace(b'"created_at": "', b'"created_at": "\xc3\x28', 1),
             ["not valid JSON"], "invalid UTF-8 sequence")
bad_baseline("wrong_schema", mutate(GOOD_BASELINE, lambda d: d.__setitem__("schema", "fabricgate.baseline/0")),
             ["/schema"], "schema version 0")
bad_baseline("missing_entries", mutate(GOOD_BASELINE, lambda d: d.pop("entries")), ["/entries"], "required")
bad_baseline("platform_traversal",
             mutate(GOOD_BASELINE, lambda d: d.__setitem__("platform", "../cpu-intel-xeon-c2")),
             ["/platform"], "path traversal in the platform key")
bad_baseline("duplicate_entry", base_text.replace(b'"entries": {', b'"entries": {"' + ENTRY.encode() + b'": {},', 1),
             ["duplicate object key"], "same entry twice")
bad_baseline("median_negative",
             mutate(GOOD_BASELINE, lambda d: d["entries"][ENTRY]["time_us"].__setitem__("median", -1.0)),
             [ENTRY_PTR + "/time_us/median"], "negative median")
bad_baseline("median_overflow", base_text.replace(b'"median": ', b'"median": 1e400, "z": ', 1),
             ["not valid JSON"], "1e400 overflows")
bad_baseline("tolerance_negative",
             mutate(GOOD_BASELINE, lambda d: d["tolerance_policy"]["size_classes"][0].__setitem__("tolerance", -0.1)),
             ["/tolerance_policy/size_classes/0/tolerance"], "negative tolerance")
bad_baseline("size_classes_unbounded_first",
             mutate(GOOD_BASELINE, lambda d: d["tolerance_policy"]["size_classes"][0].__setitem__("below_bytes", None)),
             ["/tolerance_policy/size_classes/0/below_bytes"], "only the last class may be unbounded")
bad_baseline("other_identity",
             mutate(GOOD_BASELINE, lambda d: d["identity"].update({"gpu_count": 8, "gpu_model": "NVIDIA H200"})),
             ["/fingerprint/identity", "gpu_count"], "baseline of another machine, same platform key")

# An existing corrupt baseline is not silently replaced by `baseline create --out`.
row("baseline-create-over-corrupt", ["baseline", "create", "--from", "{data}/good/run", "--from",
                                     "{data}/good/run2", "--from", "{data}/good/run3",
                                     "--out", "{data}/baselines/truncated.json"],
    ["baselines/truncated.json", "not valid JSON"], preexisting=["baselines/truncated.json"],
    note="refuses to overwrite a baseline it cannot read")

# ---- suites: `run --suite FILE` with the real bench, direct launch, no gate ----
def run_suite(name, messages, note, exit_code=2, launch=("--launcher", "direct", "--ranks", "1")):
    row("suites-" + name, ["run", "--suite", "{data}/suites/%s.json" % name, "--bench", "{bench}",
                           "--no-compare", *launch, "--platform", "badin-test",
                           "--results-dir", "{scratch}/results", "--lock", "{scratch}/runner.lock",
                           "--lock-timeout", "5", "--timeout", "60"],
        messages, exit_code, allow_new=["{scratch}"], note=note)


def bad_suite(name, doc_or_bytes, messages, note, **kw):
    rel = "suites/%s.json" % name
    if isinstance(doc_or_bytes, bytes):
        write_bytes(rel, doc_or_bytes)
    else:
        write_json(rel, doc_or_bytes)
    run_suite(name, messages, note, **kw)


def env(value):
    return mutate(GOOD_SUITE, lambda d: d.__setitem__("env", {"NCCL_DEBUG": value}))


suite_text = json.dumps(GOOD_SUITE, indent=1).encode()
bad_suite("truncated", suite_text[:40], ["suites/truncated.json", "not valid JSON"], "truncated")
bad_suite("non_utf8", suite_text.replace(b'"badin"', b'"bad\x80in"', 1), ["suites/non_utf8.json", "not valid JSON"],
          "lone continuation byte")
bad_suite("wrong_schema", mutate(GOOD_SUITE, lambda d: d.__setitem__("schema", "fabricgate.suite/9")),
          ["suites/wrong_schema.json", "/schema"], "schema version 9")
bad_suite("name_traversal", mutate(GOOD_SUITE, lambda d: d.__setitem__("name", "../../tmp/x")),
          ["suites/name_traversal.json", "/name"], "suite name becomes a path component")
bad_suite("env_command_substitution", env("$(touch /tmp/fabricgate-pwned)"),
          ["suites/env_command_substitution.json", "/env/NCCL_DEBUG"], "$(...) in an env value")
bad_suite("env_backticks", env("`id`"), ["suites/env_backticks.json", "/env/NCCL_DEBUG"], "backticks")
bad_suite("env_semicolon", env("INFO; rm -rf ~"), ["suites/env_semicolon.json", "/env/NCCL_DEBUG"], "; in a value")
bad_suite("env_bad_name", mutate(GOOD_SUITE, lambda d: d.__setitem__("env", {"LD_PRELOAD=x;": "1"})),
          ["suites/env_bad_name.json", "/env/LD_PRELOAD=x;"], "name with = and ;")
bad_suite("ranks_zero", mutate(GOOD_SUITE, lambda d: d.__setitem__("ranks", 0)),
          ["suites/ranks_zero.json", "/ranks"], "zero ranks")
bad_suite("benchmarks_empty", mutate(GOOD_SUITE, lambda d: d.__setitem__("benchmarks", [])),
          ["suites/benchmarks_empty.json", "/benchmarks"], "nothing to run")
bad_suite("unknown_family", mutate(GOOD_SUITE, lambda d: d["benchmarks"][0].__setitem__("family", "warp")),
          ["/benchmarks/0/family"], "unknown family (checked by the bench)")
bad_suite("bad_dtype", mutate(GOOD_SUITE, lambda d: d["benchmarks"].__setitem__(
          0, {"family": "coll", "backend": "mpi", "dtypes": ["float33"], "sizes": {"list": [8]}})),
          ["/benchmarks/0/dtypes/0"], "unknown dtype (2 ranks: the bench checks P01 first)",
          launch=("--ranks", "2"))
bad_suite("bad_size_string", mutate(GOOD_SUITE, lambda d: d["benchmarks"][0]["sizes"].__setitem__("list", ["16Q"])),
          ["/benchmarks/0/sizes/list/0"], "unknown size suffix")
bad_suite("size_absurd", mutate(GOOD_SUITE, lambda d: d["benchmarks"][0].__setitem__(
          "sizes", {"min": 8, "max": "1024P", "factor": 2})), ["/benchmarks/0/sizes/max"], "1024 PiB")

# Controls: the good inputs pass, so the harness itself is not what fails above.
row("good-compare", ["compare", "{data}/good/run", "--baseline", "{data}/good/baseline.json",
                     "--store", "sqlite:{scratch}/fabricgate.sqlite"], ["PASS"], 0,
    allow_new=["{scratch}"], note="control (the run is recorded in a scratch store)")

row("good-baseline-create", ["baseline", "create", "--from", "{data}/good/run", "--from", "{data}/good/run2",
                             "--from", "{data}/good/run3", "--out", "{scratch}/baseline.json"], ["wrote"], 0,
    allow_new=["{scratch}"], note="control")

manifest = {"schema": "fabricgate.bad_inputs/1",
            "about": "Generated by make_corpus.py; one row per command run by tests/integration/bad_inputs. "
                     "expect_message: substrings of stdout+stderr. preexisting: files (relative to the "
                     "corpus copy) that must be byte-identical afterwards. allow_new: where new files may "
                     "appear. skip_reason: a known bug (reported, not papered over).",
            "rows": ROWS}
if os.path.exists(os.path.join(HERE, "skips.json")):  # known bugs, kept out of the generated rows
    skips = json.load(open(os.path.join(HERE, "skips.json")))
    for r in ROWS:
        if r["name"] in skips:
            r["skip_reason"] = skips[r["name"]]
write_bytes("manifest.json", (json.dumps(manifest, indent=1) + "\n").encode())
print(len(ROWS), "rows")
