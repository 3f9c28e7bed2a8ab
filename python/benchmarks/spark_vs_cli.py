"""Spark local[2] end to end (JSON Lines read with their schema, measured, Parquet written)
against `galley measure --jobs 2` on the same file, alternated, in one run:

    python3 python/benchmarks/spark_vs_cli.py CASES.jsonl [ROUNDS]

Prints the seconds of each and their ratio (the goal: Spark within 2× of the command line).
"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT / "python")] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])

import galley  # noqa: E402
from galley import spark as gs  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402


def main() -> None:
    cases = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    binary = galley.library_path().parent / "galley"
    spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", "2").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    out = tempfile.mkdtemp()
    n = sum(1 for line in open(cases, encoding="utf-8") if line.strip())
    # (A job over an archive knows its schema: inferring it is not part of the timing.)
    schema = spark.read.json(cases).schema
    for r in range(rounds):
        t = time.time()
        subprocess.run([str(binary), "measure", "--jobs", "2", "--quiet", cases, "-o", f"{out}/cli.jsonl"],
                       check=False)
        cli = time.time() - t
        t = time.time()
        df = spark.read.schema(schema).json(cases)
        gs.measure(df).write.mode("overwrite").parquet(f"{out}/spark.parquet")
        sp = time.time() - t
        print(f"round {r + 1}: {n} cases: galley measure --jobs 2 {cli:.2f} s ({n / cli:,.0f}/s); "
              f"Spark local[2] {sp:.2f} s ({n / sp:,.0f}/s); Spark / CLI {sp / cli:.2f}")
    spark.stop()


if __name__ == "__main__":
    main()
