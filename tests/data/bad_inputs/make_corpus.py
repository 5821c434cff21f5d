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


def row(name, args, messages, exit_code=2, preexisting=(), allow_new=(), note="", workflow_commands=False):
    r = {"name": name, "args": args, "expect_exit": exit_code, "expect_message": list(messages),
         "preexisting": list(preexisting), "allow_new": list(allow_new), "checks": note}
    if workflow_commands:  # the annotations format: its own "::error" lines are the point
        r["workflow_commands"] = True
    ROWS.append(r)


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
bad_run_bytes("deep_nesting", b"[" * 100000 + b"]" * 100000, ["nested at most 64 levels"],
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
write_json("runs/bytes_2p63/run.json", mutate(GOOD_RUN, set_bench("bytes", 2**63)))
compare_run("bytes_2p63", ["/benchmarks/0/bytes", "found 9223372036854775808"], "2^63 printed as unsigned")
write_json("runs/nranks_u64_max/run.json", mutate(GOOD_RUN, set_bench("nranks", 18446744073709551615)))
compare_run("nranks_u64_max", ["/benchmarks/0/nranks", "found 18446744073709551615"], "2^64-1 printed as unsigned")
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

# Hostile nesting inside otherwise valid documents: one depth limit at parse time, every input.
DEEP = 60000
deep_text = "[" * DEEP + "]" * DEEP  # Python's own encoder cannot nest this deep
run_deep = json.dumps(mutate(GOOD_RUN, set_bench("params", {"x": "@DEEP@"})), indent=1).replace('"@DEEP@"', deep_text)
write_bytes("runs/deep_params/run.json", run_deep.encode())
compare_run("deep_params", ["runs/deep_params/run.json", "nested at most 64 levels"], "60,000-deep params array (SIGSEGV before)")
run_deep_id = json.dumps(mutate(GOOD_RUN, lambda d: d["fingerprint"]["identity"].__setitem__("gpu_topology", "@DEEP@")),
                         indent=1).replace('"@DEEP@"', deep_text)
write_bytes("runs/deep_identity/run.json", run_deep_id.encode())
compare_run("deep_identity", ["runs/deep_identity/run.json", "nested at most 64 levels"], "deep value inside identity")
write_bytes("runs/records_deep/records.jsonl", records[0] + b'{"type":"benchmark","params":' + deep_text.encode() + b"}\n" +
            b"".join(records[1:]))
compare_run("records_deep", ["records.jsonl line 2", "nested at most 64 levels"], "deep line in records.jsonl")
# A deep run among good ones under results/<platform>/: history and the HTML trend skip it.
write_json("results/cpu-intel-xeon-c2/good-run/run.json", GOOD_RUN)
write_bytes("results/cpu-intel-xeon-c2/deep-run/run.json", run_deep.encode())
row("history-skips-deep-run", ["history", ENTRY, "--results", "{data}/results"],
    ["skipped", "deep-run/run.json", "nested at most 64 levels"], 0, note="scan warns and goes on")
row("report-html-skips-deep-run", ["report", "{data}/results/cpu-intel-xeon-c2/good-run", "--baseline",
                                   "{data}/good/baseline.json", "--format", "html", "--out", "{scratch}/r.html"],
    ["deep-run/run.json", "nested at most 64 levels"], 0, allow_new=["{scratch}"], note="trend scan skips it")

# Platform mix-ups: refused unless --force-platform, saying what differs.
OTHER_PLATFORM = "cpu-amd-epyc-9b14-c4"
for i, src in enumerate(["run", "run2", "run3"]):
    doc = json.load(open(os.path.join(HERE, "good/%s/run.json" % src)))
    doc["platform"] = OTHER_PLATFORM
    write_json("runs/other_platform%s/run.json" % ("" if i == 0 else str(i + 1)), doc)
compare_run("other_platform", ["runs/other_platform/run.json", "/platform", OTHER_PLATFORM, "cpu-intel-xeon-c2",
                               "--force-platform"], "run of another platform vs this baseline")
row("runs-other_platform-forced", ["compare", "{data}/runs/other_platform", "--baseline", "{data}/good/baseline.json",
                                   "--force-platform"], ["PASS"], 0, note="forced: compared")
row("baseline-update-other-platform", ["baseline", "update", "--baseline", "{data}/out/baseline.json", "--from",
                                       "{data}/runs/other_platform", "--from", "{data}/runs/other_platform2",
                                       "--from", "{data}/runs/other_platform3"],
    ["/platform", OTHER_PLATFORM, "--force-platform"], preexisting=["out/baseline.json"],
    note="update must not merge another platform's runs")
os.makedirs(os.path.join(HERE, "baselines_dir/baselines"), exist_ok=True)
write_json("baselines_dir/baselines/%s.json" % OTHER_PLATFORM, mutate(GOOD_BASELINE, lambda d: d.__setitem__("platform", OTHER_PLATFORM)))
row("baseline-create-into-other-platform-file", ["baseline", "create", "--from", "{data}/good/run", "--from",
                                                 "{data}/good/run2", "--from", "{data}/good/run3", "--out",
                                                 "{data}/baselines_dir/baselines/%s.json" % OTHER_PLATFORM],
    ["/platform", OTHER_PLATFORM, "--force-platform"], preexisting=["baselines_dir/baselines/%s.json" % OTHER_PLATFORM],
    note="create --out into the file of another platform")

# Output injection: data never becomes a workflow command, a terminal escape, or a 10 MB line.
INJECT = "boom\n::error file=x,line=1::injected\x1b[2J\x1b]0;title\x07\r::warning::cr"
write_json("runs/message_injection/run.json",
           mutate(GOOD_RUN, lambda d: d["benchmarks"][0].update({"status": "error", "message": INJECT})))
for fmt in ["console", "markdown", "junit"]:
    row("runs-message_injection-" + fmt, ["compare", "{data}/runs/message_injection", "--baseline",
                                           "{data}/good/baseline.json", "--format", fmt], ["injected"], 1,
        note="run message with newline + ::error, ESC, BEL, CR (gate fails: errored benchmark)")
row("report-annotations-injection", ["report", "{data}/runs/message_injection", "--baseline",
                                     "{data}/good/baseline.json", "--format", "annotations"],
    ["::error title=", "boom%0A::error file=x,line=1::injected\\x1b[2J"], 1, note="annotations escape data per GitHub (%0A); exit is the gate's", workflow_commands=True)
row("report-html-injection", ["report", "{data}/runs/message_injection", "--baseline", "{data}/good/baseline.json",
                              "--format", "html", "--no-history"], ["injected"], 1, note="HTML to stdout; exit is the gate's")
bad_baseline("key_injection", mutate(GOOD_BASELINE, lambda d: d["entries"].__setitem__(
    "coll/x\n::error file=a::owned", copy.deepcopy(d["entries"][ENTRY]))), ["/entries/", "a key of letters"],
    "baseline key with newline + workflow command (keys checked on every load path)")
bad_baseline("key_space", mutate(GOOD_BASELINE, lambda d: d["entries"].__setitem__(
    "coll/has space", copy.deepcopy(d["entries"][ENTRY]))), ["/entries/coll~1has space"], "key grammar")
bad_run_json("key_escape", mutate(GOOD_RUN, set_bench("key", "coll/\x1b[31mred")), "/benchmarks/0/key",
             "ESC in a run key")
HUGE = 1 << 19  # 512 KiB strings: far above the 4 KiB shown; kept small enough to copy per row
bad_run_json("key_huge", mutate(GOOD_RUN, set_bench("key", "coll/" + "k" * HUGE)), "/benchmarks/0/key", "huge key")
write_json("runs/message_huge/run.json",
           mutate(GOOD_RUN, lambda d: d["benchmarks"][0].update({"status": "error", "message": "m" * HUGE})))
row("runs-message_huge", ["compare", "{data}/runs/message_huge", "--baseline", "{data}/good/baseline.json"],
    ["more bytes)"], 1, note="huge run message is cut in the console")

# records.jsonl: real line numbers, and only a cut (unterminated) last line counts as truncated.
write_bytes("runs/records_duplicate/records.jsonl", records[0] + records[1] + records[1] + b"".join(records[2:]))
compare_run("records_duplicate", ["records.jsonl", "line 3/key", "also at line 2"], "same key on lines 2 and 3")
last_complete_corrupt = b"".join(records) + b'{"type": "benchmark", "key": \n'
write_bytes("runs/records_corrupt_last/records.jsonl", last_complete_corrupt)
compare_run("records_corrupt_last", ["records.jsonl line %d" % (len(records) + 1), "not valid JSON"],
            "a complete (newline-terminated) but corrupt last line is an error")
# A crashed run's directory is results/<platform>/<run_id>/: the platform comes from the path.
write_bytes("results/cpu-intel-xeon-c2/cut-last/records.jsonl", b"".join(records) + b'{"type": "benchmark", "key": "co')
row("runs-records_cut_last", ["compare", "{data}/results/cpu-intel-xeon-c2/cut-last", "--baseline",
                              "{data}/good/baseline.json"],
    ["warning", "line %d was cut short" % (len(records) + 1)], 3, note="cut last line: warning, incomplete run (exit 3)")

# Output paths the user names: exit 2 naming the path, before anything is read or written.
row("compare-out-under-file", ["compare", "{data}/good/run", "--baseline", "{data}/good/baseline.json",
                               "--format", "junit", "--out", "{data}/good/baseline.json/junit.xml"],
    ["good/baseline.json", "is a file"], note="--out below a regular file")
row("report-out-is-directory", ["report", "{data}/good/run", "--baseline", "{data}/good/baseline.json",
                                "--format", "markdown", "--out", "{data}/good"], ["found a directory"],
    note="--out names a directory")

# The whole suite is validated by the harness before the lock, the fingerprint and the launch.
bad_suite("ranks_huge", mutate(GOOD_SUITE, lambda d: d.__setitem__("ranks", 65536)),
          ["suites/ranks_huge.json", "/ranks", "[1, 4096]"], "65536 processes")
bad_suite("size_zero", mutate(GOOD_SUITE, lambda d: d["benchmarks"][0]["sizes"].__setitem__("list", [0])),
          ["suites/size_zero.json", "/benchmarks/0/sizes/list/0", "found 0"], "0 bytes measures nothing")
bad_suite("size_2p63", mutate(GOOD_SUITE, lambda d: d["benchmarks"][0]["sizes"].__setitem__("list", [2**63])),
          ["/benchmarks/0/sizes/list/0", "found 9223372036854775808"], "2^63 bytes")
bad_suite("repetitions_zero", mutate(GOOD_SUITE, lambda d: d["benchmarks"][0].__setitem__("repetitions", 0)),
          ["/benchmarks/0/repetitions", "[1, 1000]"], "no repetitions")
bad_suite("timeout_negative", mutate(GOOD_SUITE, lambda d: d.setdefault("defaults", {}).__setitem__("timeout_s", -1)),
          ["/defaults/timeout_s"], "negative timeout")
bad_suite("dtypes_empty", mutate(GOOD_SUITE, lambda d: d["benchmarks"][0].__setitem__("dtypes", [])),
          ["/benchmarks/0/dtypes", "non-empty"], "empty dtype list")
write_bytes("suites/suite_deep.json", json.dumps(mutate(GOOD_SUITE, lambda d: d.__setitem__("x", "@DEEP@")),
                                                 indent=1).replace('"@DEEP@"', deep_text).encode())
run_suite("suite_deep", ["suites/suite_deep.json", "nested at most 64"], "60,000-deep value in a suite")
for name, value in [("minus_five", "-5"), ("million", "1000000"), ("4097", "4097")]:
    row("suites-cli_ranks_" + name, ["run", "--suite", "{data}/good/suite.json", "--bench", "{bench}", "--no-compare",
                                     "--launcher", "direct", "--ranks", value, "--platform", "badin-test",
                                     "--results-dir", "{scratch}/results", "--lock", "{scratch}/runner.lock",
                                     "--lock-timeout", "5", "--timeout", "60"],
        ["--ranks", "[1, 4096]", "found " + value], allow_new=["{scratch}"],
        note="--ranks %s is refused before the lock, not replaced" % value)
row("suites-results_dir_under_file", ["run", "--suite", "{data}/good/suite.json", "--bench", "{bench}", "--no-compare",
                                      "--launcher", "direct", "--ranks", "1", "--platform", "badin-test",
                                      "--results-dir", "{data}/good/baseline.json/results", "--lock",
                                      "{scratch}/runner.lock", "--lock-timeout", "5", "--timeout", "60"],
    ["good/baseline.json", "--results-dir"], allow_new=["{scratch}"], note="results dir below a regular file: exit 2")
row("run-launcher-started-nothing", ["run", "--suite", "{data}/good/suite.json", "--bench", "/bin/true",
                                     "--no-compare", "--launcher", "direct", "--ranks", "1", "--platform", "badin-test",
                                     "--results-dir", "{scratch}/results", "--lock", "{scratch}/runner.lock",
                                     "--lock-timeout", "5", "--timeout", "60"],
    ["infrastructure failure", "launcher direct", "started no fabricgate-bench"], 3, allow_new=["{scratch}"],
    note="a launch that starts nothing and exits 0 is the launcher's failure (exit 3), not run.json's")

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
