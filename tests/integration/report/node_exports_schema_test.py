#!/usr/bin/env python3
"""`fabricgate nodes --format nvsentinel` and the node-condition patch of `--format kubernetes`
validated against the schemas their projects publish (tests/data/schemas, sources in its README):
NVIDIA NVSentinel's HealthEvent CRD (its openAPIV3Schema, made strict: a field the CRD does not
know would be pruned by the API server, so it is an error here) and Kubernetes' NodeCondition.
Run with the real binary on the committed Slurm run whose node fgsnode2 is blamed (NODE-MISMATCH,
severity drain), on a copy whose finding detail carries control characters and a workflow
command, and on a copy where the node's name is no Kubernetes node name. The validators must also
refuse a broken event and a broken condition.

Usage: node_exports_schema_test.py FABRICGATE REPO_ROOT
Exit 0 passed, 1 failed (each listed), 77 skipped (python3-jsonschema or python3-yaml missing).
"""
import copy
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

try:
    import jsonschema
    import yaml
except ImportError as e:
    print("SKIP: %s (ci/bootstrap installs python3-jsonschema and python3-yaml)" % e)
    sys.exit(77)

problems = []
RFC3339_UTC = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")
DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
# What the API server accepts as a condition reason (metav1.Condition; node conditions follow it).
CONDITION_REASON = re.compile(r"^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$")


def check(ok, what):
    if not ok:
        problems.append(what)
    return ok


def strict(schema):
    """The CRD schema with additionalProperties false wherever it lists properties and allows no
    map: the API server prunes unknown fields silently, a consumer would never see them."""
    if isinstance(schema, dict):
        if "properties" in schema and "additionalProperties" not in schema:
            schema["additionalProperties"] = False
        for v in schema.values():
            strict(v)
    elif isinstance(schema, list):
        for v in schema:
            strict(v)
    return schema


def nodes(fg, run, fmt):
    return subprocess.run([fg, "nodes", run, "--format", fmt, "--store", "none"],
                          capture_output=True, text=True, timeout=120)


def check_events(name, out, crd, validator, expect_nodes):
    try:
        doc = json.loads(out)
    except ValueError as e:
        check(False, "%s: nvsentinel output is no JSON: %s" % (name, e))
        return None
    check(doc.get("apiVersion") == "v1" and doc.get("kind") == "List",
          "%s: not a v1 List: %r" % (name, {k: doc.get(k) for k in ("apiVersion", "kind")}))
    group = crd["spec"]["group"]
    version = crd["spec"]["versions"][0]["name"]
    items = doc.get("items", [])
    check(sorted(i["spec"]["nodeName"] for i in items) == sorted(expect_nodes),
          "%s: events for %r, expected %r" % (name, [i["spec"]["nodeName"] for i in items], expect_nodes))
    for item in items:
        check(item["apiVersion"] == group + "/" + version, "%s: apiVersion %r" % (name, item["apiVersion"]))
        check(item["kind"] == crd["spec"]["names"]["kind"], "%s: kind %r" % (name, item["kind"]))
        check(DNS_SUBDOMAIN.match(item["metadata"]["name"]) and len(item["metadata"]["name"]) <= 253,
              "%s: metadata.name %r is no DNS-1123 subdomain" % (name, item["metadata"]["name"]))
        errors = list(validator.iter_errors(item))
        check(not errors, "%s: not a valid HealthEvent: %s" % (name, "; ".join(e.message for e in errors[:5])))
        check(RFC3339_UTC.match(item["spec"]["detectedAt"]), "%s: detectedAt %r" % (name, item["spec"]["detectedAt"]))
    return items


def condition_patches(name, out, cond_validator):
    patches = {}
    for line in out.splitlines():
        if not line.startswith("kubectl patch node "):
            continue
        argv = shlex.split(line)
        if not check(len(argv) == 8 and argv[4:7] == ["--subresource=status", "--type=strategic", "--patch"],
                     "%s: patch line shape: %r" % (name, argv)):
            continue
        patch = json.loads(argv[7])
        check(list(patch) == ["status"] and list(patch["status"]) == ["conditions"],
              "%s: the patch touches more than status.conditions: %r" % (name, patch))
        for c in patch["status"]["conditions"]:
            errors = list(cond_validator.iter_errors(c))
            check(not errors, "%s: not a valid NodeCondition: %s" % (name, "; ".join(e.message for e in errors[:5])))
            check(c["status"] in ("True", "False", "Unknown"), "%s: status %r" % (name, c["status"]))
            check(CONDITION_REASON.match(c["reason"]), "%s: reason %r" % (name, c["reason"]))
            for t in ("lastHeartbeatTime", "lastTransitionTime"):
                check(RFC3339_UTC.match(c[t]), "%s: %s %r" % (name, t, c[t]))
        patches[argv[3]] = patch
    return patches


def main():
    fg, root = sys.argv[1], sys.argv[2]
    crd = yaml.safe_load(open(os.path.join(root, "tests/data/schemas/nvsentinel.nvidia.com_healthevents.yaml")))
    event_schema = strict(copy.deepcopy(crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]))
    validator = jsonschema.Draft7Validator(event_schema)
    cond_schema = json.load(open(os.path.join(root, "tests/data/schemas/kubernetes-nodecondition.json")))
    cond_validator = jsonschema.Draft7Validator(cond_schema)
    slurm = os.path.join(root, "tests/data/slurm/20261201T091826Z-slurm-cpu-default")

    with tempfile.TemporaryDirectory(prefix="fabricgate-node-exports-") as work:
        run = json.load(open(os.path.join(slurm, "run.json")))
        hostile = copy.deepcopy(run)
        hostile["nodes"][2]["facts"]["driver"] = "470.00.00\n::error file=a.cpp::pwned\x1b]0;owned\x07\r'$(id)"
        not_k8s = copy.deepcopy(run)
        for n in not_k8s["nodes"]:
            if n.get("name") == "fgsnode2" or n.get("hostname") == "fgsnode2":
                n["hostname"] = "FGS_Node2"
                n["name"] = "FGS_Node2"
        cases = [("slurm run", slurm, ["fgsnode2"])]
        for label, doc, expect in (("hostile detail", hostile, ["fgsnode2"]), ("no Kubernetes name", not_k8s, [])):
            path = os.path.join(work, label.replace(" ", "-") + ".json")
            json.dump(doc, open(path, "w"))
            cases.append((label, path, expect))

        for name, run_path, expect in cases:
            ev = nodes(fg, run_path, "nvsentinel")
            if not check(ev.returncode == 1, "%s: nvsentinel exit %d, expected 1: %s" % (name, ev.returncode, ev.stderr[-400:])):
                continue
            items = check_events(name, ev.stdout, crd, validator, expect)
            k8s = nodes(fg, run_path, "kubernetes")
            check(k8s.returncode == 1, "%s: kubernetes exit %d" % (name, k8s.returncode))
            check(not any(ch in k8s.stdout + ev.stdout for ch in "\x1b\x07\r"),
                  "%s: a raw control character in the output" % name)
            patches = condition_patches(name, k8s.stdout, cond_validator)
            check(sorted(patches) == sorted(expect), "%s: condition patches for %r, expected %r" % (name, sorted(patches), expect))
            if not items:
                continue
            spec = items[0]["spec"]
            check(spec["isFatal"] is True and spec["recommendedAction"] == "CONTACT_SUPPORT"
                  and spec["errorCodes"] == ["NODE-MISMATCH"] and spec["metadata"]["severity"] == "drain",
                  "%s: a drain finding must be a fatal event: %r" % (name, spec))
            cond = patches["fgsnode2"]["status"]["conditions"][0]
            check(cond["type"] == "FabricgateDegraded" and cond["reason"] == "NodeMismatch"
                  and "severity drain" in cond["message"], "%s: condition %r" % (name, cond))
            check(spec["detectedAt"] == cond["lastTransitionTime"] == "2026-12-01T09:18:26Z",
                  "%s: the event and the condition are not dated by the run's start" % name)
            if name == "hostile detail":
                check("\x1b]0;owned\x07" in spec["message"], "hostile detail: the event's message lost the detail")
                check("$(id)" not in k8s.stdout and "::error" not in cond["message"],
                      "hostile detail: the patch line carries shell or workflow text: %r" % cond["message"])

            # The validators can fail.
            bad = copy.deepcopy(items[0])
            bad["spec"]["isFatal"] = "yes"
            check(any(True for _ in validator.iter_errors(bad)), "%s: the CRD schema accepted isFatal \"yes\"" % name)
            bad = copy.deepcopy(items[0])
            bad["spec"]["recommendedAction"] = "DRAIN"
            check(any(True for _ in validator.iter_errors(bad)), "%s: the CRD schema accepted an unknown action" % name)
            bad = copy.deepcopy(items[0])
            bad["spec"]["severity"] = "drain"
            check(any(True for _ in validator.iter_errors(bad)), "%s: the strict schema accepted an unknown field" % name)
            bad = dict(cond, severity="drain")
            check(any(True for _ in cond_validator.iter_errors(bad)), "%s: NodeCondition accepted an unknown field" % name)

    for p in problems:
        print("FAIL:", p)
    print("%d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
