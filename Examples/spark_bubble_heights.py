"""Bubble heights of generated chat messages at four phone widths, with Spark, to Parquet.

    python3 Examples/spark_bubble_heights.py [MESSAGES] [OUT_DIR] [--master URL]

MESSAGES (default 1,000,000) messages are made from the conformance corpus's texts (a sentence
or two of them joined, in every script the corpus has), each sized as a bubble at container
widths 320, 375, 390 and 430 (4 × MESSAGES rows), by `galley.spark.measure` under `local[*]`
or the cluster at `--master` (spark://HOST:PORT: the executors need nothing of Galley's);
the result (id, width, text length, containerWidth, bubble width and height, lines) goes to
OUT_DIR (default /tmp/galley-bubble-heights.parquet). Needs PySpark (`pip install pyspark`), a
Java 17 runtime and the built library (`swift build -c release --product GalleyC`).
"""

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT / "python")] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])

from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402

from galley import spark as gs  # noqa: E402


def main() -> None:
    argv = sys.argv[1:]
    master = "local[*]"
    if "--master" in argv:
        k = argv.index("--master")
        master = argv[k + 1]
        del argv[k:k + 2]
    n = int(argv[0]) if argv else 1_000_000
    out = argv[1] if len(argv) > 1 else "/tmp/galley-bubble-heights.parquet"
    corpus = ROOT / "Corpus" / "corpus.jsonl"
    texts = [json.loads(line)["text"] for line in corpus.read_text(encoding="utf-8").split("\n") if line]
    spark = SparkSession.builder.master(master).appName("galley-bubble-heights").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    k = len(texts)
    bc = spark.sparkContext.broadcast(texts)

    def message(i: int) -> tuple:
        t = bc.value
        # One text, or two of different scripts joined: messages that are not in the corpus.
        text = t[i % k] if i % 3 else t[i % k] + " " + t[(i * 7919) % k]
        return (f"m{i}", text)

    messages = spark.sparkContext.range(n, numSlices=max(2, n // 50_000)).map(message).toDF(["id", "text"])
    widths = spark.createDataFrame([(w,) for w in [320, 375, 390, 430]], ["containerWidth"])
    rows = messages.crossJoin(widths).withColumn("id", F.concat_ws("@", "id", "containerWidth"))
    start = time.time()
    sized = gs.measure(rows, template="bubble")
    sized.select(
        "id", "containerWidth", F.length("text").alias("characters"), "width", "height", "lines",
        "error").write.mode("overwrite").parquet(out)
    seconds = time.time() - start
    written = spark.read.parquet(out)
    total = written.count()
    errors = written.filter(F.col("error").isNotNull()).count()
    print(f"{total} bubbles ({n} messages × 4 widths) in {seconds:.1f} s "
          f"({total / seconds:,.0f}/s), {errors} errors → {out}")
    written.groupBy("containerWidth").agg(
        F.avg("height").alias("mean height"), F.max("height").alias("tallest")).orderBy(
        "containerWidth").show()
    spark.stop()


if __name__ == "__main__":
    main()
