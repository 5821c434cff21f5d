#!/usr/bin/env python3
"""ci/k8s/nightly-mpijob.yaml is a Kubeflow MPI Operator MPIJob that runs the nightly gate:
its shape, the GPUs per worker, the ranks each `fabricgate run` asks for (workers x slots, then
one per worker), the environment it sets (NVLS off on every pod), a launcher script that bash
parses, and only suites and `fabricgate run` options that exist (against the built CLI).
Usage: check_mpijob.py SOURCE_DIR FABRICGATE_CLI. Exit 0 when it holds, 1 with the problems
listed, 77 (skip) without PyYAML. It cannot run the job: there is no Kubernetes cluster in CI."""
import pathlib
import re
import shlex
import subprocess
import sys

try:
    import yaml
except ImportError:
    print("PyYAML missing (apt-get install python3-yaml)")
    sys.exit(77)

source, cli = pathlib.Path(sys.argv[1]), sys.argv[2]
manifest = source / "ci/k8s/nightly-mpijob.yaml"
problems = []


def check(ok, what):
    if not ok:
        problems.append(what)


def env_of(container):
    return {e["name"]: e.get("value") for e in container.get("env", [])}


job = yaml.safe_load(manifest.read_text())
check(job.get("apiVersion") == "kubeflow.org/v2beta1", "apiVersion is not kubeflow.org/v2beta1")
check(job.get("kind") == "MPIJob", "kind is not MPIJob")
spec = job["spec"]
check(spec.get("mpiImplementation") == "OpenMPI", "mpiImplementation is not OpenMPI (the bench is built with Open MPI)")
slots = spec["slotsPerWorker"]
replicas = spec["mpiReplicaSpecs"]
launcher_pod = replicas["Launcher"]["template"]["spec"]
worker_pod = replicas["Worker"]["template"]["spec"]
check(replicas["Launcher"]["replicas"] == 1, "more than one launcher")
workers = replicas["Worker"]["replicas"]
check(workers >= 2, "fewer than 2 workers: no multi-node job")
(launcher,) = launcher_pod["containers"]
(worker,) = worker_pod["containers"]

gpus = worker.get("resources", {}).get("limits", {}).get("nvidia.com/gpu")
check(gpus == slots, f"worker GPUs {gpus} != slotsPerWorker {slots}: one rank per GPU needs them equal")
check("nvidia.com/gpu" not in launcher.get("resources", {}).get("limits", {}), "the launcher asks for GPUs it does not use")
for name, c in (("launcher", launcher), ("worker", worker)):
    env = env_of(c)
    check(env.get("NCCL_NVLS_ENABLE") == "0", f"{name} does not set NCCL_NVLS_ENABLE=0")
    check("NCCL_SOCKET_IFNAME" in env, f"{name} does not set NCCL_SOCKET_IFNAME")
check(worker.get("command", [""])[0].endswith("sshd"), "workers do not run sshd (the operator's mpirun reaches them by ssh)")
check(launcher_pod.get("restartPolicy") == "Never", "the launcher restarts: a failed gate would run again")
check(spec.get("runPolicy", {}).get("backoffLimit") == 0, "runPolicy.backoffLimit is not 0")

check(launcher["command"] == ["/bin/bash", "-c"], "launcher command is not /bin/bash -c")
script = launcher["args"][0]
parsed = subprocess.run(["bash", "-n"], input=script, text=True, capture_output=True)
check(parsed.returncode == 0, f"launcher script does not parse: {parsed.stderr.strip()}")

# Each `fabricgate run ...` command, continuation lines joined.
joined = script.replace("\\\n", " ")
runs = [shlex.split(line.split("||")[0]) for line in joined.splitlines() if line.strip().startswith("fabricgate run")]
check(len(runs) == 2, f"expected 2 fabricgate runs (nightly, node pairs), found {len(runs)}")


def option(argv, name):
    return argv[argv.index(name) + 1] if name in argv else None


help_text = subprocess.run([cli, "run", "--help"], text=True, capture_output=True).stdout
for argv in runs:
    for word in argv:
        if word.startswith("--"):
            check(re.search(r"(^|\s)" + re.escape(word) + r"\b", help_text) is not None, f"fabricgate run has no option {word}")
    suite = option(argv, "--suite")
    check((source / "suites" / f"{suite}.json").exists(), f"suite {suite} is not in suites/")
    check(option(argv, "--launcher") == "mpirun", f"{suite}: launcher is not mpirun")
if len(runs) == 2:
    main, pairs = runs
    check(option(main, "--suite") == "nightly", "the first run is not the nightly suite")
    check(option(main, "--ranks") == str(workers * slots), f"nightly --ranks {option(main, '--ranks')} != workers x slots = {workers * slots}")
    check(option(main, "--hostfile") == "/etc/mpi/hostfile", "nightly does not use the operator's hostfile /etc/mpi/hostfile")
    check(option(pairs, "--suite") == "multinode-pairs", "the second run is not multinode-pairs")
    check(option(pairs, "--ranks") == str(workers), f"node pairs --ranks {option(pairs, '--ranks')} != workers = {workers}")
    check("slots=1" in script and option(pairs, "--hostfile") != "/etc/mpi/hostfile",
          "node pairs must run one rank per worker (a hostfile with slots=1)")
check(re.search(r'exit "\$status"\s*$', script) is not None, "the launcher does not exit with the gate's status")

for p in problems:
    print(f"{manifest}: {p}")
print(f"{len(problems)} problems")
sys.exit(1 if problems else 0)
