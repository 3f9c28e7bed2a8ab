"""Spark against `galley measure --jobs N` on the same records, alternated, in one run:

    python3 python/benchmarks/spark_vs_cli.py CASES.jsonl [ROUNDS] [MASTER]

MASTER is `local[2]` by default, or a cluster's `spark://host:port` (its cores in all are
taken as N). Each round times the command line (JSON Lines in, JSON Lines out), Spark end to
end (JSON Lines read with their schema, measured, Parquet written), Spark's measuring alone
(rows cached in memory, results consumed by the `noop` sink) and the JSON Lines as they are
(`spark.read.text`, `measure_json`, Parquet written), and prints rows/s and
each Spark figure over the command line's: the same cores, so the ratio is per core. The
last line is the median ratio over the rounds after the first (the machine may be shared).
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
    master = sys.argv[3] if len(sys.argv) > 3 else "local[2]"
    binary = galley.library_path().parent / "galley"
    spark = (SparkSession.builder.master(master).config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", "2").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    cores = spark.sparkContext.defaultParallelism
    out = tempfile.mkdtemp()
    n = sum(1 for line in open(cases, encoding="utf-8") if line.strip())
    # (A job over an archive knows its schema: inferring it is not part of the timing.)
    schema = spark.read.json(cases).schema
    cached = spark.read.schema(schema).json(cases).repartition(cores).cache()
    cached.count()
    ratios = []
    for r in range(rounds):
        t = time.time()
        subprocess.run([str(binary), "measure", "--jobs", str(cores), "--quiet", cases,
                        "-o", f"{out}/cli.jsonl"], check=False, stderr=subprocess.DEVNULL)
        cli = n / (time.time() - t)
        t = time.time()
        df = spark.read.schema(schema).json(cases)
        gs.measure(df).write.mode("overwrite").parquet(f"{out}/spark.parquet")
        end_to_end = n / (time.time() - t)
        t = time.time()
        gs.measure(cached).write.format("noop").mode("overwrite").save()
        measuring = n / (time.time() - t)
        t = time.time()
        lines = spark.read.text(cases).where("trim(value) != ''")
        gs.measure_json(lines).write.mode("overwrite").parquet(f"{out}/spark-json.parquet")
        as_they_are = n / (time.time() - t)
        print(f"round {r + 1}: {n} rows, {cores} cores: galley measure {cli:,.0f}/s; "
              f"Spark {master} end to end {end_to_end:,.0f}/s ({end_to_end / cli:.2f}x), "
              f"measuring {measuring:,.0f}/s ({measuring / cli:.2f}x), "
              f"JSON Lines as they are {as_they_are:,.0f}/s ({as_they_are / cli:.2f}x)", flush=True)
        if r > 0:  # (the first round starts the JVM's compiler and the Python workers)
            ratios.append((end_to_end / cli, measuring / cli, as_they_are / cli))
    if ratios:
        middle = len(ratios) // 2
        ordered = [sorted(r[k] for r in ratios) for k in range(3)]
        shown = [f"{o[middle]:.2f}x ({o[0]:.2f}-{o[-1]:.2f})" for o in ordered]
        print(f"median (range) of rounds 2-{rounds}: end to end {shown[0]}, measuring {shown[1]}, "
              f"JSON Lines as they are {shown[2]} the command line per core")
    spark.stop()


if __name__ == "__main__":
    main()
