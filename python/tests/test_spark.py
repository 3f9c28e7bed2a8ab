"""galley.spark under a real local[2] Spark (PySpark from PyPI, Java 17): every row against the CLI."""

import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
# (Spark's Python workers are new processes: they find the package through PYTHONPATH.)
os.environ["PYTHONPATH"] = os.pathsep.join(
    [str(ROOT / "python")] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])

# (Spark binds to loopback only: these tests talk to no other address.)
os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")

import galley  # noqa: E402

CORPUS = ROOT / "Corpus" / "corpus.jsonl"


def cli(records_path: Path, *args: str) -> list:
    binary = galley.library_path().parent / "galley"
    run = subprocess.run(
        [str(binary), "measure", str(records_path), "--quiet", *args], cwd=ROOT,
        capture_output=True, text=True, check=False)
    return [json.loads(line) for line in run.stdout.split("\n") if line]


class SparkTests(unittest.TestCase):
    spark = None

    @classmethod
    def setUpClass(cls):
        from pyspark.sql import SparkSession

        cls.spark = (
            SparkSession.builder.master("local[2]").appName("galley-test")
            .config("spark.ui.enabled", "false").getOrCreate())
        cls.spark.sparkContext.setLogLevel("ERROR")
        cls.dir = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.spark.stop()
        cls.dir.cleanup()

    def frame(self, records: list, name: str):
        """The records as a file (what the CLI reads) and as a DataFrame (what Spark reads)."""
        path = Path(self.dir.name) / name
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
        return path, self.spark.read.json(str(path)).repartition(3)

    def test_the_corpus_and_bad_records_row_by_row(self):
        from galley import spark as gs

        records = []
        for line in CORPUS.read_text(encoding="utf-8").split("\n"):
            if not line:
                continue
            r = json.loads(line)
            # (A Spark column has one type: "normal" line heights are the null default.)
            if r.get("lineHeight") == "normal":
                del r["lineHeight"]
            records.append(r)
        records += [
            {"id": "bad-width", "text": "hi", "width": -5, "size": 17},
            {"id": "no-text", "width": 100, "size": 17},
            {"id": "bad-enum", "text": "hi", "width": 100, "size": 17, "whiteSpace": "wrap"},
            {"id": "tofu", "text": "민지 안녕", "width": 300, "size": 17, "fonts": ["NotoSans-Regular.ttf"]},
        ]
        path, df = self.frame(records, "cases.jsonl")
        out = gs.measure(df).collect()
        expected = {r["id"]: r for r in cli(path)}
        self.assertEqual(len(out), len(records))
        self.assertEqual(len(expected), len(records))
        for row in out:
            e = expected[row["id"]]
            if "error" in e:
                self.assertEqual(row["error"], e["error"], row["id"])
                self.assertIsNone(row["lines"])
                continue
            self.assertIsNone(row["error"], row["id"])
            self.assertEqual(row["lines"], e["lines"], row["id"])
            self.assertEqual(row["height"], e["height"], row["id"])
            self.assertEqual(row["widest"], e["widest"], row["id"])
            self.assertEqual(row["truncated"], e.get("truncated", False), row["id"])
            self.assertEqual(row["missingGlyphs"], e["missingGlyphs"], row["id"])
            self.assertEqual(row["text"], [r for r in records if r["id"] == row["id"]][0]["text"])
        self.assertEqual({r["id"]: r["missingGlyphs"] for r in out}["tofu"], 4)
        self.assertIn("width", {r["id"]: r["error"] for r in out}["bad-width"])

    def test_bubbles_row_by_row(self):
        from galley import spark as gs

        texts = [json.loads(line)["text"] for line in CORPUS.read_text(encoding="utf-8").split("\n")[:300] if line]
        records = [
            {"id": f"b{i}", "text": t, "containerWidth": [320, 375, 390, 430][i % 4],
             "senderName": "Ana" if i % 3 == 0 else None, "timestamp": "12:30" if i % 2 else None}
            for i, t in enumerate(texts)
        ]
        records = [{k: v for k, v in r.items() if v is not None} for r in records]
        records.append({"id": "bad-cell", "text": "hi"})  # no containerWidth
        path, df = self.frame(records, "bubbles.jsonl")
        out = {r["id"]: r for r in gs.measure(df, template="bubble").collect()}
        expected = cli(path, "--template", "bubble")
        self.assertEqual(len(out), len(expected))
        for e in expected:
            row = out[e["id"]]
            if "error" in e:
                self.assertEqual(row["error"], e["error"])
                continue
            for field in ["width", "height", "lines", "textHeight", "truncated", "missingGlyphs"]:
                self.assertEqual(row[field], e[field], (e["id"], field))

    def test_the_transcript_as_spark_reads_it(self):
        """spark.read.json infers the style's lineHeight, which mixes "normal" and numbers, as
        strings: every bubble of Examples/transcript.jsonl still measures as the CLI does."""
        from galley import spark as gs

        path = ROOT / "Examples" / "transcript.jsonl"
        expected = cli(path, "--template", "bubble")
        # Inferred, and read with the schema of bubbles.
        for df in [self.spark.read.json(str(path)),
                   self.spark.read.schema(gs.schema("bubble")).json(str(path))]:
            out = {r["id"]: r for r in gs.measure(df, template="bubble").collect()}
            self.assertEqual(len(out), 200)
            for e in expected:
                row = out[e["id"]]
                self.assertIsNone(row["error"], (e["id"], row["error"]))
                self.assertEqual((row["width"], row["height"]), (e["width"], e["height"]), e["id"])
        self.assertEqual(
            [f.name for f in gs.schema("text").fields][:3], ["id", "text", "width"])
        with self.assertRaises(ValueError):
            gs.schema("card")

    def test_numeric_strings_at_any_depth(self):
        """A text case's own lineHeight mixing "normal" and numbers is a string column too (and
        is one in gs.schema("text")): its numeric values measure as numbers, as the CLI reads
        the file; a string that is not a JSON number stays a string and names the field."""
        from galley import spark as gs

        records = [
            {"id": "n1", "text": "Line heights " * 8, "width": 120, "size": 17, "lineHeight": 20.5},
            {"id": "n2", "text": "Line heights " * 8, "width": 120, "size": 17, "lineHeight": "normal"},
            {"id": "n3", "text": "Line heights " * 8, "width": 120, "size": 17, "lineHeight": 31},
        ]
        path, _ = self.frame(records, "heights.jsonl")
        expected = {r["id"]: r for r in cli(path)}
        for df in [self.spark.read.json(str(path)),
                   self.spark.read.schema(gs.schema("text")).json(str(path))]:
            out = {r["id"]: r for r in gs.measure(df).collect()}
            for key, e in expected.items():
                self.assertIsNone(out[key]["error"], (key, out[key]["error"]))
                self.assertEqual((out[key]["lines"], out[key]["height"]), (e["lines"], e["height"]), key)
        self.assertNotEqual(expected["n1"]["height"], expected["n2"]["height"])
        bad = self.spark.createDataFrame(
            [("x", "hi", 100.0, "20.")], "id string, text string, width double, lineHeight string")
        self.assertIn("lineHeight", gs.measure(bad).collect()[0]["error"])

    def test_json_lines_as_they_are(self):
        """measure_json over spark.read.text of a JSON Lines file: each row's results as the CLI
        gives them (with --template, for records naming none), ids included; a null value and
        a line that is not JSON are error rows; a line break inside a value stays one record."""
        from galley import spark as gs

        path = ROOT / "Examples" / "transcript.jsonl"
        expected = cli(path, "--template", "bubble")
        out = gs.measure_json(self.spark.read.text(str(path)), template="bubble").collect()
        self.assertEqual(len(out), 200)
        for row, e in zip(sorted(out, key=lambda r: r["id"]), sorted(expected, key=lambda r: r["id"])):
            self.assertEqual(row["id"], e["id"])
            self.assertIsNone(row["error"], row["id"])
            self.assertEqual((row["width"], row["height"], row["lines"], row["textHeight"]),
                             (e["width"], e["height"], e["lines"], e["textHeight"]), row["id"])
            self.assertIsNone(row["widest"])
        cases = self.spark.createDataFrame(
            [('{"id": "t", "text": "Hello world", "width": 120}',), (None,), ("not json",),
             ('{"id": "n",\n "text": "Hello world", "width": 120}',)], "value string")
        rows = {r["value"]: r for r in gs.measure_json(cases).collect()}
        self.assertEqual(rows['{"id": "t", "text": "Hello world", "width": 120}']["lines"], 1)
        self.assertIsNone(rows[None]["lines"])
        self.assertIn("object", rows[None]["error"])
        self.assertIn("invalid JSON", rows["not json"]["error"])
        self.assertEqual(rows['{"id": "n",\n "text": "Hello world", "width": 120}']["id"], "n")
        with self.assertRaises(ValueError):
            gs.measure_json(cases, template="card")

    def test_columns_that_are_no_field_are_kept_beside_the_results(self):
        from pyspark.sql import functions as F

        from galley import spark as gs

        records = [{"id": f"k{i}", "template": "bubble", "text": "hello " * (i + 1),
                    "containerWidth": 240} for i in range(30)]
        path, df = self.frame(records, "kept.jsonl")
        expected = {r["id"]: r for r in cli(path)}
        df = df.withColumn("conversation", F.concat(F.lit("c"), F.col("id")))
        # (Written into the records, the column is an unknown field of every one.)
        self.assertEqual([r.error for r in gs.measure(df).select("error").distinct().collect()],
                         ['unknown field "conversation"'])
        rows = gs.measure(df, fields=["id", "template", "text", "containerWidth"]).collect()
        self.assertEqual(sorted(row.id for row in rows), sorted(expected))
        for row in rows:
            want = expected[row.id]
            self.assertEqual(row.conversation, "c" + row.id)
            self.assertEqual((row.width, row.height, row.lines, row.error),
                             (want["width"], want["height"], want["lines"], None))
        with self.assertRaisesRegex(ValueError, "txt"):
            gs.measure(df, fields=["id", "txt"])

    def test_missing_fonts_fail_on_the_driver_before_any_job(self):
        from galley import spark as gs

        _, df = self.frame([{"id": "a", "text": "hi", "width": 100}], "one.jsonl")
        with self.assertRaises(galley.GalleyError) as e:
            gs.measure(df, fonts_dir="/no/such/fonts")
        self.assertIn("/no/such/fonts", str(e.exception))

    def test_the_zero_code_path_pipes_through_the_command_line(self):
        binary = galley.library_path().parent / "galley"
        lines = [json.dumps({"id": f"p{i}", "text": "hello world " * (i + 1), "width": 120}) for i in range(20)]
        piped = self.spark.sparkContext.parallelize(lines, 2).pipe(
            f"{binary} measure --quiet -", env={"GALLEY_FONTS": str(ROOT / "fonts")}).collect()
        self.assertEqual([json.loads(p)["id"] for p in piped], [f"p{i}" for i in range(20)])


class ShipmentTests(unittest.TestCase):
    def test_a_worker_reads_the_shipment_once_not_on_every_batch(self):
        # (Its digest reads the whole zip, fonts included: on every batch it cost a tenth of
        # the measuring.)
        from pyspark import SparkFiles

        from galley import spark as gs

        archive = gs._shipment(None)
        reads = []
        unpacked, get, saved = gs._unpacked, SparkFiles.get, os.environ.get("GALLEY_LIBRARY")

        def counted(path):
            reads.append(path)
            return unpacked(path)

        gs._unpacked, SparkFiles.get = counted, staticmethod(lambda name: str(archive.parent / name))
        try:
            engines = [gs._engine(None, None, archive.name) for _ in range(3)]
        finally:
            gs._unpacked, SparkFiles.get = unpacked, get
            if saved is None:
                os.environ.pop("GALLEY_LIBRARY", None)
            else:
                os.environ["GALLEY_LIBRARY"] = saved
        self.assertEqual(len(reads), 1)
        self.assertIs(engines[0], engines[2])
        self.assertEqual(engines[0].measure({"id": "a", "text": "hi", "width": 100})["lines"], 1)


class BatchTests(unittest.TestCase):
    def rows(self, arrays):
        from galley import spark as gs

        names = [name for name, _ in gs.CELL_COLUMNS]
        return [dict(zip(names, values)) for values in zip(*[a.to_pylist() for a in arrays])]

    def check(self, rows, expected):
        from galley import spark as gs

        self.assertEqual(len(rows), len(expected))
        for row, want in zip(rows, expected):
            for name, _ in gs.CELL_COLUMNS:
                if name == "truncated":
                    self.assertEqual(row[name], want.get(name, False) if "error" not in want else None)
                elif name in want:
                    self.assertEqual(row[name], want[name])
                else:
                    self.assertIsNone(row[name], (name, row))

    def test_a_batch_is_read_where_arrow_keeps_it(self):
        # (Spark's batch is a slice of the arrays its values lie in: the library reads them in
        # place, from the slice's offset, and an error row keeps only its error.)
        import pyarrow as pa

        from galley import spark as gs

        engine = galley.Engine()
        records = [{"id": f"b{i}", "template": "bubble", "text": "hello " * (i + 1),
                    "containerWidth": 200 + i} for i in range(6)]
        records[3] = {"id": "bad", "template": "bubble", "text": 5, "containerWidth": 200}
        lines = [json.dumps(r) for r in records]
        fields = pa.RecordBatch.from_pylist([dict(r, text=str(r["text"])) for r in records])
        for first, count in ((2, 3), (0, 2), (4, 0)):
            expected = [json.loads(line) for line in
                        engine.measure_jsonl("".join(l + "\n" for l in lines[first:first + count])).splitlines()]
            self.check(self.rows(gs._sized(pa.array(lines).slice(first, count), gs.CELL_COLUMNS, engine)),
                       expected)
            # (The same rows as columns: the text of "bad" is a string there, so it measures.)
            rows = self.rows(gs._sized(fields.slice(first, count), gs.CELL_COLUMNS, engine))
            self.assertEqual([r["error"] for r in rows], [None] * count)
            for row, want in zip(rows, expected):
                if "error" not in want:
                    self.assertEqual((row["width"], row["height"]), (want["width"], want["height"]))


if __name__ == "__main__":
    unittest.main()
