#!/usr/bin/env python3
"""Runs a composite action's steps (action.yml) the way the Actions runner does, on this machine.

For each step: its `if:` is evaluated (the expression subset below), `${{ }}` in `env:`, `with:`
and `working-directory:` is substituted, a `run:` script runs under `bash --noprofile --norc -eo
pipefail` with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ACTION_PATH, GITHUB_WORKSPACE and
RUNNER_TEMP set, and its outputs are read back (name=value and name<<DELIM lines). The one `uses:`
step allowed, actions/upload-artifact, is not uploaded: its name and paths are recorded, as the
runner would resolve them against the workspace. An expression outside the subset is an error, so
the action cannot use syntax this driver would misread.

Expression subset: literals 'text', true, false; contexts inputs.*, steps.<id>.outputs.*,
steps.<id>.outcome, github.*, runner.temp; operators == != && || ! and parentheses; functions
always(), success(), failure().
"""
import json
import os
import re
import shutil
import subprocess
import tempfile

import yaml

TOKEN = re.compile(r"\s*(?:(\|\||&&|==|!=|!|\(|\))|'((?:[^']|'')*)'|([A-Za-z_][\w.-]*\(\))|([A-Za-z_][\w.-]*))")


class ExpressionError(Exception):
    pass


class Evaluator:
    def __init__(self, contexts, failed):
        self.contexts = contexts
        self.failed = failed

    def evaluate(self, text):
        self.tokens = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise ExpressionError("cannot read %r at %d" % (text, pos))
            self.tokens.append(m.groups())
            pos = m.end()
            while pos < len(text) and text[pos].isspace():
                pos += 1
        self.i = 0
        value = self.disjunction()
        if self.i != len(self.tokens):
            raise ExpressionError("trailing tokens in %r" % text)
        return value

    def peek(self):
        return self.tokens[self.i][0] if self.i < len(self.tokens) else None

    def disjunction(self):
        left = self.conjunction()
        while self.peek() == "||":
            self.i += 1
            right = self.conjunction()
            left = left if truthy(left) else right
        return left

    def conjunction(self):
        left = self.comparison()
        while self.peek() == "&&":
            self.i += 1
            right = self.comparison()
            left = right if truthy(left) else left
        return left

    def comparison(self):
        left = self.unary()
        while self.peek() in ("==", "!="):
            op = self.peek()
            self.i += 1
            right = self.unary()
            same = as_text(left).lower() == as_text(right).lower()  # Actions compares strings case-insensitively
            left = same if op == "==" else not same
        return left

    def unary(self):
        if self.peek() == "!":
            self.i += 1
            return not truthy(self.unary())
        if self.peek() == "(":
            self.i += 1
            value = self.disjunction()
            if self.peek() != ")":
                raise ExpressionError("missing )")
            self.i += 1
            return value
        if self.i >= len(self.tokens):
            raise ExpressionError("expression ends early")
        op, literal, call, name = self.tokens[self.i]
        self.i += 1
        if literal is not None:
            return literal.replace("''", "'")
        if call is not None:
            if call == "always()":
                return True
            if call == "success()":
                return not self.failed
            if call == "failure()":
                return self.failed
            raise ExpressionError("function %s is outside the driver's subset" % call)
        if name in ("true", "false"):
            return name == "true"
        return self.lookup(name)

    def lookup(self, name):
        parts = name.split(".")
        if parts[0] not in ("inputs", "steps", "github", "runner"):
            raise ExpressionError("context %s is outside the driver's subset" % parts[0])
        value = self.contexts
        for part in parts:
            if not isinstance(value, dict):
                return ""
            if parts[0] == "inputs" and value is self.contexts["inputs"] and part not in value:
                raise ExpressionError("inputs.%s is not a declared input" % part)
            value = value.get(part, "")
        return value


def truthy(value):
    return bool(value) and value != "0"


def as_text(value):
    if value is True:
        return "true"
    if value is False:
        return "false"
    return "" if value is None else str(value)


def substitute(text, evaluator):
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: as_text(evaluator.evaluate(m.group(1))), str(text))


def read_outputs(path):
    outputs = {}
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            body = []
            i += 1
            while i < len(lines) and lines[i] != delimiter:
                body.append(lines[i])
                i += 1
            outputs[name] = "\n".join(body)
        elif "=" in line:
            name, value = line.split("=", 1)
            outputs[name] = value
        i += 1
    return outputs


def drive(action_dir, inputs, workspace, env=None, github=None):
    """Runs action_dir/action.yml's steps with `inputs` in `workspace`. Returns a dict: steps
    [{name, id, ran, outcome, exit_code, output}], outputs (the action's), artifacts [{name,
    paths, missing}], summary (the job summary text), failed."""
    with open(os.path.join(action_dir, "action.yml"), encoding="utf-8") as f:
        action = yaml.safe_load(f)
    declared = action.get("inputs") or {}
    unknown = set(inputs) - set(declared)
    if unknown:
        raise ExpressionError("not inputs of the action: %s" % sorted(unknown))
    values = {name: str(spec.get("default", "")) for name, spec in declared.items()}
    values.update({k: str(v) for k, v in inputs.items()})
    runner_temp = tempfile.mkdtemp(prefix="runner-temp-")
    summary_file = os.path.join(runner_temp, "step-summary.md")
    open(summary_file, "w").close()
    gh = {"action_path": action_dir, "workspace": workspace, "repository": "example/caller",
          "sha": "0" * 40, "action_repository": "", "action_ref": "", "event": {}}
    gh.update(github or {})
    contexts = {"inputs": values, "steps": {}, "github": gh, "runner": {"temp": runner_temp}}
    result = {"steps": [], "artifacts": [], "outputs": {}, "failed": False}
    for index, step in enumerate(action["runs"]["steps"]):
        evaluator = Evaluator(contexts, result["failed"])
        condition = step.get("if", "success()")
        condition = re.sub(r"^\$\{\{(.*)\}\}$", r"\1", str(condition).strip())
        # An `if:` without a status function means success() && (it).
        if not re.search(r"\b(always|success|failure|cancelled)\(\)", condition):
            condition = "success() && (%s)" % condition
        record = {"name": step.get("name", "step %d" % index), "id": step.get("id"), "ran": False}
        result["steps"].append(record)
        if not truthy(evaluator.evaluate(condition)):
            record["outcome"] = "skipped"
            if step.get("id"):
                contexts["steps"][step["id"]] = {"outputs": {}, "outcome": "skipped"}
            continue
        record["ran"] = True
        if "uses" in step:
            if not step["uses"].startswith("actions/upload-artifact@"):
                raise ExpressionError("step %s uses %s, which the driver cannot run" % (record["name"], step["uses"]))
            spec = {k: substitute(v, evaluator) for k, v in (step.get("with") or {}).items()}
            paths = [p.strip() for p in spec.get("path", "").split("\n") if p.strip()]
            result["artifacts"].append({
                "name": spec.get("name", ""), "paths": paths,
                "missing": [p for p in paths if not os.path.exists(os.path.join(workspace, p))]})
            record["outcome"] = "success"
            continue
        step_env = dict(os.environ)
        step_env.update(env or {})
        output_file = os.path.join(runner_temp, "output-%d" % index)
        open(output_file, "w").close()
        step_env.update({
            "GITHUB_ACTION_PATH": action_dir, "GITHUB_WORKSPACE": workspace, "RUNNER_TEMP": runner_temp,
            "GITHUB_OUTPUT": output_file, "GITHUB_STEP_SUMMARY": summary_file,
            "GITHUB_RUN_ID": "1", "GITHUB_RUN_ATTEMPT": str(index + 1),
            "GITHUB_REPOSITORY": gh["repository"], "GITHUB_SHA": gh["sha"], "CI": "true"})
        for name, value in (step.get("env") or {}).items():
            step_env[name] = substitute(value, evaluator)
        cwd = substitute(step.get("working-directory", workspace), evaluator)
        script = os.path.join(runner_temp, "step-%d.sh" % index)
        with open(script, "w", encoding="utf-8") as f:
            f.write(step["run"])
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], cwd=cwd,
                              env=step_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        record["exit_code"] = proc.returncode
        record["output"] = proc.stdout
        record["outcome"] = "success" if proc.returncode == 0 else "failure"
        if proc.returncode != 0:
            result["failed"] = True
        if step.get("id"):
            contexts["steps"][step["id"]] = {"outputs": read_outputs(output_file), "outcome": record["outcome"]}
    final = Evaluator(contexts, result["failed"])
    for name, spec in (action.get("outputs") or {}).items():
        result["outputs"][name] = substitute(spec.get("value", ""), final)
    result["summary"] = open(summary_file, encoding="utf-8").read()
    # The runner's temp directory ends with the job, as on GitHub: /tmp as the test found it.
    shutil.rmtree(runner_temp, ignore_errors=True)
    return result


if __name__ == "__main__":
    import sys
    if len(sys.argv) != 4:
        print("usage: drive_action.py ACTION_DIR WORKSPACE INPUTS_JSON")
        sys.exit(2)
    print(json.dumps(drive(sys.argv[1], json.loads(sys.argv[3]), sys.argv[2]), indent=2))
