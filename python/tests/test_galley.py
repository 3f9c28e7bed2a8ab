"""The Python package against the command line (unittest; pytest runs it too)."""

import json
import subprocess
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

import galley  # noqa: E402

CORPUS = ROOT / "Corpus" / "corpus.jsonl"


def galley_binary() -> Path:
    lib = galley.library_path()
    return lib.parent / "galley"


class EngineTests(unittest.TestCase):
    def test_corpus_equals_the_command_line(self):
        engine = galley.Engine()
        records = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").split("\n") if line]
        ours = list(engine.measure_many(records, batch=700))
        cli = subprocess.run(
            [str(galley_binary()), "measure", str(CORPUS), "--quiet"], cwd=ROOT,
            capture_output=True, text=True, check=False)
        self.assertEqual(cli.returncode, 0, cli.stderr)
        theirs = [json.loads(line) for line in cli.stdout.split("\n") if line]
        self.assertEqual(len(ours), 3000)
        self.assertEqual(ours, theirs)
        # The raw bytes too.
        self.assertEqual(engine.measure_jsonl(CORPUS.read_text(encoding="utf-8")), cli.stdout)

    def test_bad_records_are_error_records(self):
        engine = galley.Engine()
        result = engine.measure({"id": "x", "text": "hi", "width": -5})
        self.assertEqual(result["id"], "x")
        self.assertIn("width", result["error"])
        self.assertIn("error", json.loads(engine.measure_jsonl("{oops\n")))

    def test_prepared_text_at_many_widths(self):
        engine = galley.Engine()
        p = engine.prepare("Hello, wide world of text", size=17)
        self.assertEqual(p.layout(1000)["lines"], 1)
        self.assertGreater(p.layout(40)["lines"], 1)
        with self.assertRaises(ValueError):
            p.layout(-1)
        with self.assertRaises(ValueError):
            engine.prepare("x", size="big")
        p.close()

    def test_a_missing_fonts_directory_is_a_clear_error(self):
        with self.assertRaises(galley.GalleyError) as e:
            galley.Engine(fonts_dir="/no/such/fonts")
        self.assertIn("/no/such/fonts", str(e.exception))

    def test_font_paths_stay_inside_the_fonts_directory_unless_allowed(self):
        outside = str(ROOT / "fonts" / "NotoSans-Regular.ttf")
        record = {"id": "p", "text": "Hello", "fonts": [outside], "width": 200}
        # Inside the bundled directory however spelt; a copy elsewhere is outside.
        self.assertNotIn("error", galley.Engine().measure(record))
        elsewhere = dict(record, fonts=["/etc/passwd"])
        missing = dict(record, fonts=["/no/such.ttf"])
        engine = galley.Engine()
        a, b = engine.measure(elsewhere)["error"], engine.measure(missing)["error"]
        self.assertIn("outside the font directory", a)
        self.assertEqual(a.replace("/etc/passwd", "P"), b.replace("/no/such.ttf", "P"))
        anywhere = galley.Engine(any_font_path=True)
        self.assertIn("invalid font passwd", anywhere.measure(elsewhere)["error"])

    def test_no_record_is_lost(self):
        """A lone surrogate (a string JavaScript cut inside an emoji), a bytes or a set value:
        each record gets its own result, the others in its batch are measured, and an error's
        line is the record's place in the whole input."""
        engine = galley.Engine()
        records = [{"id": f"r{i}", "text": "hello", "width": 100} for i in range(1500)]
        records[3] = {"id": "cut", "text": "cut \ud83d", "width": 100}
        records[4] = {"id": "bytes", "text": b"raw", "width": 100}
        records[5] = {"id": "set", "text": "x", "width": 100, "features": {"liga"}}
        records[1400] = {"id": "late", "text": "x", "width": -1}
        out = list(engine.measure_many(records, batch=1024))
        self.assertEqual(len(out), 1500)
        self.assertEqual([r.get("id") for r in out], [r["id"] for r in records])
        self.assertNotIn("error", out[3])
        self.assertEqual(out[3], engine.measure({"id": "cut", "text": "cut \ufffd", "width": 100}))
        self.assertEqual(out[4], {"id": "bytes", "line": 5,
                                  "error": 'field "text" holds a bytes value, which JSON cannot hold'})
        self.assertEqual(out[5]["line"], 6)
        self.assertIn('"features"', out[5]["error"])
        self.assertEqual(out[1400]["line"], 1401, "counted from the start of the input")
        self.assertTrue(all("error" not in r for k, r in enumerate(out) if k not in (4, 5, 1400)))
        self.assertEqual(engine.measure({"id": "b", "text": b"x", "width": 9})["line"], 1)

    def test_a_default_template(self):
        """measure_jsonl(template=) is `galley measure --template`, byte for byte."""
        path = ROOT / "Examples" / "transcript.jsonl"
        binary = galley.library_path().parent / "galley"
        run = subprocess.run([str(binary), "measure", str(path), "--quiet", "--template", "bubble"],
                             capture_output=True, text=True, check=False)
        records = "".join(
            json.dumps({k: v for k, v in json.loads(l).items() if k != "template"}) + "\n"
            for l in path.read_text(encoding="utf-8").split("\n") if l)
        engine = galley.Engine()
        self.assertEqual(engine.measure_jsonl(records, template="bubble"), run.stdout)
        with self.assertRaises(ValueError):
            engine.measure_jsonl(records, template="card")

    def test_version(self):
        self.assertTrue(galley.version().startswith("galley "))


if __name__ == "__main__":
    unittest.main()
