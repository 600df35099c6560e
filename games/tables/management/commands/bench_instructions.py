"""Instructions a decision costs the server, counted by callgrind: see bench/instructions.py."""

import json
import shutil
import subprocess
import sys
import tempfile
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Count the instructions of a decision's five views, of do_act and of their floor."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--warm", type=int, default=40, help="decisions played first")
        parser.add_argument("--decisions", type=int, default=20, help="decisions counted")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: Any, **options: Any) -> None:
        from bench import instructions, servers

        for tool in ("valgrind", "callgrind_control"):
            if shutil.which(tool) is None:
                raise CommandError(f"{tool} is not installed (Debian package valgrind)")
        warm = max(0, min(options["warm"], 1000))
        decisions = max(1, min(options["decisions"], 1000))
        result: dict = {"warm": warm, "seed": options["seed"]}
        folder = Path(tempfile.mkdtemp(prefix="kilforth-instructions-"))
        backend = servers.Backend()
        try:
            backend.migrate()
            for phase in instructions.PHASES:
                out = folder / f"callgrind.{phase}"
                done = subprocess.run(
                    [
                        "valgrind",
                        "--tool=callgrind",
                        "--instr-atstart=no",
                        f"--callgrind-out-file={out}",
                        sys.executable,
                        "-m",
                        "bench.instructions",
                        phase,
                        f"--warm={warm}",
                        f"--decisions={decisions}",
                        f"--seed={options['seed']}",
                    ],
                    cwd=servers.ROOT,
                    env=backend.env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    check=True,
                    timeout=1800,
                )
                result["decisions"] = json.loads(done.stdout)["decisions"]
                result[phase] = instructions.totals(out)
        finally:
            backend.close()
            shutil.rmtree(folder, ignore_errors=True)
        for line in instructions.lines(result):
            self.stdout.write(line)
