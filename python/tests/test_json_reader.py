"""Galley's JSON reader against Python's (strict: no NaN, no repeated keys, numbers finite) on
mutated records: every line is accepted or rejected by both alike (`galley measure` writes an
`invalid JSON …`, `invalid UTF-8` or `empty line` error record exactly where Python refuses)."""

import json
import random
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

import galley  # noqa: E402

CORPUS = ROOT / "Corpus" / "corpus.jsonl"
TOKENS = ['"', "\\", "\\u", "\\ud800", "\\udc00", "\\ud83d\\ude00", "{", "}", "[", "]", ",", ":",
          " ", "\t", "1e400", "-0", "01", "1.", ".5", "+1", "NaN", "true", "null", "tru", '"id"',
          "\u2028", "\x01", "\x7f", "é", "😀", "1e-400", "123456789012345678901234567890",
          "0.1e1", "-", "E5", '"a":1']


def mutated(seed: int, count: int) -> list:
    rng = random.Random(seed)
    base = [line for line in CORPUS.read_text(encoding="utf-8").split("\n") if line]
    out = []
    for _ in range(count):
        b = rng.choice(base).encode("utf-8")
        for _ in range(rng.randint(1, 3)):
            op = rng.random()
            pos = rng.randint(0, len(b))
            if op < 0.5:
                b = b[:pos] + rng.choice(TOKENS).encode("utf-8") + b[pos:]
            elif op < 0.7:
                b = b[:pos] + b[pos + rng.randint(1, 4):]
            elif op < 0.8:
                b = b[:pos]
            elif b:
                p = rng.randrange(len(b))
                b = b[:p] + bytes([rng.randrange(256)]) + b[p + 1:]
        out.append(b.replace(b"\n", b" ").replace(b"\r", b" "))
    return out


def python_verdict(line: bytes) -> str:
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return "utf8"
    if text.strip(" \t") == "":
        return "empty"

    def no_constants(_):
        raise ValueError("NaN or Infinity")

    def unique(pairs):
        keys = [k for k, _ in pairs]
        if len(keys) != len(set(keys)):
            raise ValueError("repeated key")
        return dict(pairs)

    def finite(x):
        if isinstance(x, float):
            return x == x and abs(x) != float("inf")
        if isinstance(x, dict):
            return all(finite(v) for v in x.values())
        if isinstance(x, list):
            return all(finite(v) for v in x)
        return True

    try:
        value = json.loads(text, parse_constant=no_constants, object_pairs_hook=unique)
    except (ValueError, RecursionError):
        return "invalid"
    return "ok" if isinstance(value, dict) and finite(value) else "invalid"


class JSONReaderTests(unittest.TestCase):
    def test_mutated_records_are_judged_as_python_judges_them(self):
        lines = mutated(seed=7, count=10_000)
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "lines.jsonl"
            path.write_bytes(b"\n".join(lines) + b"\n")
            run = subprocess.run(
                [str(galley.library_path().parent / "galley"), "measure", str(path), "--quiet"],
                capture_output=True, check=False)
        results = [json.loads(r) for r in run.stdout.decode("utf-8").split("\n") if r]
        self.assertEqual(len(results), len(lines))
        differ = []
        for k, (line, result) in enumerate(zip(lines, results)):
            error = result.get("error", "")
            ours = ("utf8" if error == "invalid UTF-8" else "empty" if error == "empty line"
                    else "invalid" if error.startswith("invalid JSON") else "ok")
            if ours != python_verdict(line):
                differ.append((k + 1, error, line[:120]))
        self.assertEqual(differ, [])
        # Both kinds occur: the mutations make bad and good lines.
        self.assertGreater(sum(1 for r in results if "error" not in r), 300)
        self.assertGreater(sum(1 for r in results if r.get("error", "").startswith("invalid JSON")), 1000)


if __name__ == "__main__":
    unittest.main()
