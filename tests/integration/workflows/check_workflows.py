#!/usr/bin/env python3
"""Static checks of the GitHub Actions files (.github/workflows/*.yml, docs/examples/*.yml, action.yml).

Usage: check_workflows.py REPO_ROOT FABRICGATE_BINARY
Checks that every file parses as YAML with the expected top-level shape; that every ci/... path a
`run:` script names exists (and, when it is a #! script, is executable); that every `fabricgate
SUBCOMMAND` a script or a referenced ci/ script calls is a subcommand of the built binary; that
`uses: ./` points at an action; that every `with:` given to this action (./ or OWNER/fabricgate@ref)
is one of its inputs; that expressions refer to declared inputs and step ids; and that
no run script interpolates ${{ inputs.* }} or ${{ github.event.* }} (script injection: those go
through env). Exit 0 all good, 1 problems found (listed), 77 PyYAML missing.
"""
import glob
import os
import re
import subprocess
import sys

try:
    import yaml
except ImportError:
    print("PyYAML is not installed (apt-get install python3-yaml)")
    sys.exit(77)

CI_PATH = re.compile(r"(?<![\w./-])(ci/[\w./-]+)")
# fabricgate invocations: a path ending in /fabricgate, $FABRICGATE / $fabricgate, or the bare word
# at a command position (not in `echo fabricgate ...` prose).
FABRICGATE_CALL = re.compile(
    r"""(?:[\w./$"{}-]*/fabricgate|\$\{?(?:FABRICGATE|fabricgate)\}?|(?:^|[;&|(]|\bexec)[ \t]*fabricgate)"""
    r"""["']?[ \t]+([a-z][a-z-]*)""", re.M)
# The subcommand at the head of an argument array later passed to fabricgate: args=(run --suite ...).
ARGS_ARRAY = re.compile(r"\bargs=\(([a-z][a-z-]*)\b")
UNSAFE = re.compile(r"\$\{\{\s*(inputs\.|github\.event\.|github\.head_ref)")


def subcommands(binary):
    text = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=60).stdout
    names, inside = set(), False
    for line in text.splitlines():
        if line.strip().lower().rstrip(":") == "subcommands":
            inside = True
            continue
        if inside:
            m = re.match(r"\s+([a-z][a-z-]*)\b", line)
            if m:
                names.add(m.group(1))
            elif line.strip():
                inside = False
    return names


def run_steps(doc):
    """(where, step) for every step of every job, or of a composite action."""
    if "runs" in doc:
        for i, step in enumerate(doc["runs"].get("steps", [])):
            yield "runs.steps[%d]" % i, step
    for job_name, job in (doc.get("jobs") or {}).items():
        for i, step in enumerate(job.get("steps", [])):
            yield "jobs.%s.steps[%d]" % (job_name, i), step


def main():
    root, binary = sys.argv[1], sys.argv[2]
    known = subcommands(binary)
    problems = []
    if not {"run", "compare", "report", "publish"} <= known:
        problems.append("could not read the subcommands from `%s --help` (found %s)" % (binary, sorted(known)))
    files = (sorted(glob.glob(os.path.join(root, ".github/workflows/*.yml")))
             + sorted(glob.glob(os.path.join(root, "docs/examples/*.yml"))) + [os.path.join(root, "action.yml")])
    with open(os.path.join(root, "action.yml"), encoding="utf-8") as f:
        action_inputs = set((yaml.safe_load(f).get("inputs") or {}).keys())
    referenced_ci = set()
    for path in files:
        rel = os.path.relpath(path, root)
        try:
            with open(path, encoding="utf-8") as f:
                doc = yaml.safe_load(f)
        except (OSError, yaml.YAMLError) as e:
            problems.append("%s: does not parse: %s" % (rel, e))
            continue
        if not isinstance(doc, dict):
            problems.append("%s: expected a mapping at the top" % rel)
            continue
        is_action = rel == "action.yml"
        if is_action:
            if doc.get("runs", {}).get("using") != "composite":
                problems.append("%s: expected runs.using: composite" % rel)
            declared_inputs = set((doc.get("inputs") or {}).keys())
        else:
            # YAML 1.1 reads the key `on` as True.
            if "jobs" not in doc or ("on" not in doc and True not in doc):
                problems.append("%s: a workflow needs `on` and `jobs`" % rel)
            on = doc.get("on", doc.get(True)) or {}
            dispatch = on.get("workflow_dispatch") if isinstance(on, dict) else None
            declared_inputs = set(((dispatch or {}).get("inputs") or {}).keys())
        text = open(path, encoding="utf-8").read()
        for name in re.findall(r"\$\{\{[^}]*\binputs\.([\w-]+)", text):
            if name not in declared_inputs:
                problems.append("%s: ${{ inputs.%s }} is not a declared input" % (rel, name))
        step_ids = {step.get("id") for _, step in run_steps(doc) if isinstance(step, dict)}
        for name in re.findall(r"\bsteps\.([\w-]+)\.outputs", text):
            if name not in step_ids:
                problems.append("%s: steps.%s is not a step id" % (rel, name))
        for where, step in run_steps(doc):
            if not isinstance(step, dict):
                problems.append("%s: %s is not a mapping" % (rel, where))
                continue
            uses = step.get("uses", "")
            if uses.startswith("./") and not os.path.isfile(os.path.join(root, uses, "action.yml")):
                problems.append("%s: %s uses %s, which has no action.yml" % (rel, where, uses))
            # This action, used from here (./) or from another repository (OWNER/fabricgate@ref):
            # every `with:` key must be one of its inputs.
            if uses == "./" or re.match(r"^[\w.-]+/fabricgate@", uses):
                for key in (step.get("with") or {}):
                    if key not in action_inputs:
                        problems.append("%s: %s passes `%s`, not an input of action.yml" % (rel, where, key))
            if rel.startswith("docs/examples/") and uses.startswith("./"):
                problems.append("%s: %s uses ./ — an example must use the action from another repository" % (rel, where))
            script = step.get("run")
            if script is None:
                continue
            if is_action and "shell" not in step:
                problems.append("%s: %s: composite run steps need `shell`" % (rel, where))
            if UNSAFE.search(script):
                problems.append("%s: %s interpolates inputs/event data into the script; pass it through env" % (rel, where))
            for ci in CI_PATH.findall(script):
                referenced_ci.add(ci)
                full = os.path.join(root, ci)
                if not os.path.exists(full):
                    problems.append("%s: %s calls %s, which does not exist" % (rel, where, ci))
                elif open(full, "rb").read(2) == b"#!" and not os.access(full, os.X_OK):
                    problems.append("%s: %s names the script %s, which is not executable" % (rel, where, ci))
            calls = FABRICGATE_CALL.findall(script)
            if re.search(r"(?i)fabricgate\"?\s+\"\$\{args\[@\]\}\"", script):
                calls += ARGS_ARRAY.findall(script)
            for sub in calls:
                if sub not in known:
                    problems.append("%s: %s calls `fabricgate %s`, not a subcommand" % (rel, where, sub))
    for ci in sorted(referenced_ci):
        full = os.path.join(root, ci)
        if os.path.isfile(full):
            for sub in FABRICGATE_CALL.findall(open(full, encoding="utf-8", errors="replace").read()):
                if sub not in known:
                    problems.append("%s: calls `fabricgate %s`, not a subcommand" % (ci, sub))
    for p in problems:
        print(p)
    print("checked %d files, %d ci/ references, subcommands %s: %d problems"
          % (len(files), len(referenced_ci), ",".join(sorted(known)), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
