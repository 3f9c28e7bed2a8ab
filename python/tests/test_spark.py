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


class ArrowRecordTests(unittest.TestCase):
    """The library reads a batch's rows as records (galley_measure_arrow): each row gives what
    the JSON record of its fields, written by hand here, gives."""

    TEXT = "Affinity\tAVA office fjord " * 6

    def expected(self, engine, records):
        return engine.measure_jsonl("".join(json.dumps(r) + "\n" for r in records)).splitlines()

    def test_every_type_a_record_holds(self):
        import decimal

        import pyarrow as pa

        engine = galley.Engine()
        batch = pa.RecordBatch.from_arrays([
            pa.array(["a", "b", "c", "d"]),
            pa.array([self.TEXT] * 4, pa.large_string()),
            pa.array([decimal.Decimal("150.25"), decimal.Decimal("90.5"), decimal.Decimal("300"),
                      decimal.Decimal("-1")], pa.decimal128(10, 2)),
            pa.array([13.5, 17, None, 11.25], pa.float32()),
            pa.array([2, None, 0, 1], pa.int8()),
            pa.array([["Inter-Regular.otf"], None, ["NotoSansCJK-Regular.ttc#1", "Inter-Regular.otf"],
                      []], pa.large_list(pa.string())),
            pa.array([[("kern", 0)], [("liga", 0), ("kern", 1)], None, [("kern", 1)]],
                     pa.map_(pa.string(), pa.int64())),
            pa.array([{"lineHeight": "20.5", "note": {"deep": [1, None]}}, {"lineHeight": "normal"},
                      None, {"lineHeight": None}],
                     pa.struct([("lineHeight", pa.string()),
                                ("note", pa.struct([("deep", pa.list_(pa.int64()))]))])),
            pa.array([True, False, None, True]),
            pa.array([2, None, 16, 1], pa.uint16()),
            pa.nulls(4),
        ], names=["id", "text", "width", "size", "maxLines", "fonts", "features", "tags", "approx",
                  "tabSize", "note"])
        written = [
            {"id": "a", "text": self.TEXT, "width": 150.25, "size": 13.5, "maxLines": 2,
             "fonts": ["Inter-Regular.otf"], "features": {"kern": 0},
             "tags": {"lineHeight": "20.5", "note": {"deep": [1, None]}}, "approx": True,
             "tabSize": 2},
            {"id": "b", "text": self.TEXT, "width": 90.5, "size": 17,
             "features": {"liga": 0, "kern": 1}, "tags": {"lineHeight": "normal"}, "approx": False},
            {"id": "c", "text": self.TEXT, "width": 300, "maxLines": 0,
             "fonts": ["NotoSansCJK-Regular.ttc#1", "Inter-Regular.otf"], "tabSize": 16},
            {"id": "d", "text": self.TEXT, "width": -1, "size": 11.25, "maxLines": 1, "fonts": [],
             "features": {"kern": 1}, "tags": {}, "approx": True, "tabSize": 1},
        ]
        want = self.expected(engine, written)
        self.assertEqual(engine._measure_arrow(batch).decode().splitlines(), want)
        # (The rows differ where a field was misread: the widths, sizes and limits matter.)
        self.assertEqual(len(set(json.loads(w).get("height") for w in want[:3])), 3)
        self.assertIn("error", json.loads(want[3]))
        # A slice is read from its offset, in a struct array as in a batch.
        self.assertEqual(engine._measure_arrow(batch.slice(1, 2), first_line=2).decode().splitlines(),
                         self.expected(engine, written)[1:3])
        struct = pa.StructArray.from_arrays(batch.columns, names=batch.schema.names).slice(2)
        self.assertEqual(engine._measure_arrow(struct, first_line=3).decode().splitlines(),
                         self.expected(engine, written)[2:])

    def test_numbers_read_back_as_the_same_double(self):
        import pyarrow as pa

        engine = galley.Engine()
        widths = [0.1, 1 / 3, 123.456789012345678, 1e-7 + 100, 2.0 ** -20 + 50, 1e20]
        batch = pa.RecordBatch.from_pydict({"text": [self.TEXT] * len(widths), "width": widths})
        self.assertEqual(engine._measure_arrow(batch).decode().splitlines(),
                         self.expected(engine, [{"text": self.TEXT, "width": w} for w in widths]))
        nan = pa.RecordBatch.from_pydict({"text": ["x", "x"], "width": [float("nan"), float("inf")]})
        errors = [json.loads(l)["error"] for l in engine._measure_arrow(nan).decode().splitlines()]
        self.assertEqual(errors, ['field "width" must be a number'] * 2)

    def test_numeric_strings_of_named_fields(self):
        import pyarrow as pa

        engine = galley.Engine()
        batch = pa.RecordBatch.from_pydict({
            "text": [self.TEXT] * 4, "width": [120.0] * 4,
            "lineHeight": ["20.5", "normal", "2e1", " 20"]})
        out = [json.loads(l) for l in
               engine._measure_arrow(batch, numeric_fields=["lineHeight"]).decode().splitlines()]
        self.assertEqual(out[0]["height"], out[0]["lines"] * 20.5)
        self.assertEqual(out[2]["height"], out[2]["lines"] * 20)
        self.assertNotIn("error", out[1])
        self.assertIn("lineHeight", out[3]["error"])  # (not a JSON number as it stands)
        unnamed = [json.loads(l) for l in engine._measure_arrow(batch).decode().splitlines()]
        self.assertIn("lineHeight", unnamed[0]["error"])

    def test_json_records_as_they_are(self):
        import pyarrow as pa

        engine = galley.Engine()
        values = ['{"id": "t", "text": "Hello world", "width": 120}', None, "not json",
                  '{"id": "n",\n "text": "Hello world", "width": 120}']
        out = [json.loads(l) for l in
               engine._measure_arrow(pa.array(values), first_line=5).decode().splitlines()]
        self.assertEqual([o.get("id") for o in out], ["t", None, None, "n"])
        self.assertEqual([o.get("line") for o in out], [None, 6, 7, None])
        self.assertIn("object", out[1]["error"])

    def test_what_cannot_be_read_is_refused_and_released(self):
        import gc

        import pyarrow as pa

        engine = galley.Engine()
        before = pa.total_allocated_bytes()
        for bad, why in [
            (pa.RecordBatch.from_pydict({"text": ["x"], "sent": pa.array([1], pa.date32())}), '"sent"'),
            (pa.RecordBatch.from_pydict({"text": pa.array(["x"]).dictionary_encode()}), "dictionary"),
            (pa.array([1, 2]), "struct array"),
        ]:
            with self.assertRaisesRegex(galley.GalleyError, why):
                engine._measure_arrow(bad)
            del bad
        batch = pa.RecordBatch.from_pydict({"text": [self.TEXT * 100] * 100, "width": [100.0] * 100})
        engine._measure_arrow(batch)
        del batch
        gc.collect()
        # (What PyArrow lent is released: nothing it allocated stays.)
        self.assertEqual(pa.total_allocated_bytes(), before)
        with self.assertRaisesRegex(ValueError, "template"):
            engine._measure_arrow(pa.array(["{}"]), template="card")

    def test_a_parquet_archive_measured_as_it_is_read(self):
        """Engine.measure_arrow over a table read from Parquet (a style's lineHeight mixing
        "normal" and numbers held as strings there): each row as the CLI gives its line, and an
        error's line counts rows across the table's batches."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        path = ROOT / "Examples" / "transcript.jsonl"
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
        for r in records:
            for style in (v for k, v in r.items() if k.endswith("tyle") and isinstance(v, dict)):
                if "lineHeight" in style:
                    style["lineHeight"] = str(style["lineHeight"])
        expected = cli(path, "--template", "bubble")
        with tempfile.TemporaryDirectory() as d:
            # (The type of an array of dicts has every key of every row; from_pylist takes the
            # first row's.)
            pq.write_table(pa.Table.from_struct_array(pa.array(records)), f"{d}/t.parquet",
                           row_group_size=64)
            table = pq.read_table(f"{d}/t.parquet")
        self.assertGreater(len(table.to_batches()), 1)
        out = galley.Engine().measure_arrow(table, template="bubble").to_pylist()
        self.assertEqual(len(out), len(expected))
        for row, want in zip(out, expected):
            self.assertIsNone(row["error"], row["id"])
            self.assertEqual((row["id"], row["width"], row["height"], row["lines"], row["textHeight"]),
                             (want["id"], want["width"], want["height"], want["lines"], want["textHeight"]))
        bad = pa.Table.from_batches([
            pa.RecordBatch.from_pydict({"text": ["a", "b"], "width": [10.0, 10.0]}),
            pa.RecordBatch.from_pydict({"text": ["c", "d"], "width": [10.0, -1.0]})])
        rows = galley.Engine().measure_arrow(bad).to_pylist()
        self.assertEqual([r["lines"] for r in rows], [1, 1, 1, None])
        self.assertIn("width", rows[3]["error"])
        self.assertEqual(json.loads(galley.Engine()._measure_arrow(
            bad.to_batches()[1], first_line=3).decode().splitlines()[1])["line"], 4)
        self.assertEqual(galley.Engine().measure_arrow(bad.slice(0, 0)).num_rows, 0)

    def test_a_record_longer_than_a_line_is_cut_as_a_line(self):
        import resource

        import pyarrow as pa

        engine = galley.Engine()
        batch = pa.RecordBatch.from_pydict({"id": ["long"], "text": ["a" * (33 << 20)], "width": [1.0]})
        out = json.loads(engine._measure_arrow(batch).decode())
        self.assertEqual(out["id"], "long")
        self.assertIn("longer than the limit", out["error"])
        # A string of control characters, six bytes each once escaped: its record's length is
        # counted to the byte, and the record is not written out to find it (written, it would
        # take six times the row).
        n = 40 << 20
        batch = pa.RecordBatch.from_pydict({"id": ["ctl"], "text": ["\x01" * n], "width": [1.0]})
        value = '{"id": "v", "text": "' + "a" * n + '", "width": 1}'
        values = pa.array([value])
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        out = json.loads(engine._measure_arrow(batch).decode())
        grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
        length = len('{"id":"ctl","text":"') + 6 * n + len('","width":1.0}')
        self.assertEqual((out["id"], out["error"]), (
            "ctl", f"record of {length} bytes is longer than the limit of {32 << 20} bytes"))
        self.assertLess(grown_mib, 120)
        out = json.loads(engine._measure_arrow(values).decode())
        self.assertEqual(out["id"], "v")
        self.assertIn(f"record of {len(value)} bytes", out["error"])
        # Strings long enough that their escapes could pass the limit, and do not: written
        # whole (a text past its own limit says so; a long label is measured around).
        near = pa.RecordBatch.from_pydict({
            "id": ["big", "note"], "text": ["a" * (6 << 20), "hi"], "width": [100.0, 100.0],
            "note": [None, "n" * (10 << 20)]})
        out = [json.loads(l) for l in engine._measure_arrow(near).decode().splitlines()]
        self.assertEqual(out[0]["error"], f"text of {6 << 20} bytes is too long (the limit is 4194304 bytes)")
        self.assertEqual((out[1]["id"], out[1]["lines"], out[1].get("error")), ("note", 1, None))


if __name__ == "__main__":
    unittest.main()
