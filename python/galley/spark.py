"""Galley's sizes over a Spark DataFrame: one engine per partition, records in, results out.

    from galley import spark as gs
    sized = gs.measure(messages_df, template="bubble")

Each row is a record of the case or cell format (docs/CASE-FORMAT.md, docs/CELLS.md) built from
the row's columns; a null column is a field left out (its default). Spark columns have one type:
give ``lineHeight`` as a number column and leave it null for "normal". The output has every input
column plus the result columns (``TEXT_COLUMNS`` for text cases, ``CELL_COLUMNS`` for cells);
a record that cannot be measured keeps its row, with ``error`` set to the message ``galley
measure`` writes for it. Nothing raises for bad data: a Spark task never fails on a record.

The executors load ``libGalleyC.so`` (``GALLEY_LIBRARY``, or the path the driver resolved, or a
copy shipped with ``ship_library=True`` through ``SparkContext.addFile``) and need what it links:
the Swift runtime, HarfBuzz, FreeType, ICU and libpng (the machine set-up of the README), and the
fonts (``fonts_dir``; by default the checkout's bundled ``fonts/``).

The zero-code path, for a cluster that has the ``galley`` binary at the same path on every node:
``rdd.pipe("/opt/galley/galley measure --quiet -", env={"GALLEY_FONTS": "/opt/galley/fonts"})``
over an RDD of JSON Lines strings gives the same result lines, in order (PySpark starts the
command with an empty environment; an error's ``line`` counts from its partition's start).

The driver checks the library and the fonts before any job (``galley.GalleyError`` there, not a
task failure on every executor). Nested fields Spark inferred as strings because they mix
``"normal"`` and numbers (a style's ``lineHeight``) are read as numbers where they are numeric.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import galley

__all__ = ["measure", "schema", "TEXT_COLUMNS", "CELL_COLUMNS"]

#: The columns ``measure`` adds to text cases, with their Spark SQL types.
TEXT_COLUMNS = [
    ("lines", "int"), ("height", "double"), ("widest", "double"), ("truncated", "boolean"),
    ("missingGlyphs", "int"), ("error", "string"),
]
#: The columns ``measure`` adds to cells (a product card's ``width`` column is replaced).
CELL_COLUMNS = [
    ("width", "double"), ("height", "double"), ("lines", "int"), ("textHeight", "double"),
    ("truncated", "boolean"), ("missingGlyphs", "int"), ("error", "string"),
]


#: The style fields (docs/CASE-FORMAT.md) with their Spark SQL types. ``lineHeight`` is
#: ``"normal"`` or a number: a string column, read back as a number where it is one.
_STYLE_FIELDS = [
    ("fonts", "array<string>"), ("size", "double"), ("lineHeight", "string"),
    ("whiteSpace", "string"), ("wordBreak", "string"), ("overflowWrap", "string"),
    ("lang", "string"), ("direction", "string"), ("maxLines", "bigint"), ("truncation", "string"),
    ("letterSpacing", "double"), ("tabSize", "bigint"), ("features", "map<string,double>"),
    ("profile", "string"), ("minimumLineHeight", "double"), ("maximumLineHeight", "double"),
    ("lineSpacing", "double"),
]
_STYLE = "struct<" + ",".join(f"{n}:{t}" for n, t in _STYLE_FIELDS) + ">"
_INSETS = "struct<top:double,leading:double,bottom:double,trailing:double>"
_CELL_COMMON = [
    ("id", "string"), ("template", "string"), ("padding", _INSETS), ("scale", "double"),
    ("textScale", "double"), ("category", "string"), ("estimatedHeight", "double"),
    ("estimatedWidth", "double"),
]
#: The fields of each kind of record (docs/CASE-FORMAT.md, docs/CELLS.md) as Spark SQL types.
_SCHEMAS = {
    "text": [("id", "string"), ("text", "string"), ("width", "double")] + _STYLE_FIELDS,
    "bubble": _CELL_COMMON + [
        ("text", "string"), ("style", _STYLE), ("containerWidth", "double"),
        ("maxWidthFraction", "double"), ("maxWidth", "double"),
        ("minSize", "struct<width:double,height:double>"), ("sender", "string"),
        ("senderName", "string"), ("nameStyle", _STYLE), ("timestamp", "string"),
        ("timestampStyle", _STYLE), ("replyText", "string"), ("replyName", "string"),
        ("replyStyle", _STYLE)],
    "productCard": _CELL_COMMON + [
        ("width", "double"), ("title", "string"), ("titleStyle", _STYLE),
        ("imageAspectRatio", "double"), ("price", "string"), ("priceStyle", _STYLE),
        ("originalPrice", "string"), ("originalPriceStyle", _STYLE), ("badge", "string"),
        ("badgeStyle", _STYLE), ("spacing", "double")],
}


def schema(kind: str) -> Any:
    """The Spark schema of a kind of record (``"text"``, ``"bubble"`` or ``"productCard"``), to
    read such JSON with the types the formats give (``spark.read.schema(schema("bubble"))
    .json(…)``): no field inferred as a type its records do not all share."""
    from pyspark.sql import types

    if kind not in _SCHEMAS:
        raise ValueError(f"schema takes text, bubble or productCard (got {kind!r})")
    ddl = ",".join(f"{n} {t}" for n, t in _SCHEMAS[kind])
    # (PySpark 4 reads DDL itself; 3.x through its parser, which needs a running session.)
    if hasattr(types.StructType, "fromDDL"):
        return types.StructType.fromDDL(ddl)
    return types._parse_datatype_string(ddl)


def _record(row: Dict[str, Any], template: Optional[str]) -> str:
    """The JSON record of a row: null columns left out; the template column filled in."""
    record = {k: v for k, v in row.items() if v is not None}
    if template is not None and "template" not in record:
        record["template"] = template
    # Spark infers one type per column: a nested field that mixes "normal" and numbers (a
    # style's lineHeight) arrives as strings. A numeric string there is read as its number.
    for key, value in list(record.items()):
        if isinstance(value, dict):
            record[key] = {
                k: _number_if_numeric(v) if k in _NUMERIC_FIELDS else v for k, v in value.items()}
    # (A value JSON cannot hold, such as a date, becomes its text: the reader then names the
    # field whose type is wrong instead of the task failing here. A lone surrogate goes as an
    # escape, read as U+FFFD.)
    return galley._json_line(record, default=str)


#: The fields of nested objects (styles, paddings, sizes) that hold numbers.
_NUMERIC_FIELDS = {
    "size", "lineHeight", "letterSpacing", "lineSpacing", "minimumLineHeight",
    "maximumLineHeight", "tabSize", "maxLines", "top", "leading", "bottom", "trailing", "width",
    "height",
}


def _number_if_numeric(value: Any) -> Any:
    """A string that is a plain decimal number ("20.5") as that number; anything else as is."""
    if isinstance(value, str) and value and value.strip() == value:
        try:
            number = float(value)
        except ValueError:
            return value
        if number == number and abs(number) != float("inf"):
            return int(number) if number.is_integer() and "." not in value and "e" not in value.lower() else number
    return value


def _typed(value: Any, kind: str) -> Any:
    """A result value as its column's Spark type (JSON writes 281 for 281.0)."""
    if value is None:
        return None
    if kind == "double":
        return float(value)
    if kind == "int":
        return int(value)
    if kind == "boolean":
        return bool(value)
    return str(value)


def _shipment(fonts_dir: Optional[str]) -> Path:
    """One zip of what an executor needs, made once per driver process for a set of fonts: the
    package's modules (imported from the zip: ``addPyFile``), its library with the libraries a
    wheel keeps beside it (``galley.libs``), and the fonts. Executors unpack the native parts
    once, into a directory named by the zip's digest."""
    key = (str(galley.library_path()), fonts_dir)
    if key in _SHIPMENTS:
        return _SHIPMENTS[key]
    package = Path(galley.__file__).resolve().parent
    library = galley.library_path().resolve()
    fonts = Path(fonts_dir) if fonts_dir else (galley.fonts_path() or _checkout_fonts())
    beside = library.parent.parent.parent / "galley.libs"  # a wheel's grafted libraries
    # (Named by what it holds: Spark takes one file per name for the whole session.)
    name = hashlib.sha1(repr(key).encode()).hexdigest()[:12]
    out = Path(tempfile.mkdtemp(prefix="galley-ship-")) / f"galley-shipment-{name}.zip"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for module in sorted(package.glob("*.py")):
            z.write(module, f"galley/{module.name}")
        z.write(library, "galley/lib/libGalleyC.so")
        if beside.is_dir() and library.parent.name == "lib":
            for lib in sorted(beside.iterdir()):
                z.write(lib, f"galley.libs/{lib.name}")
        for font in sorted(fonts.rglob("*")):
            if font.is_file():
                z.write(font, f"galley/fonts/{font.relative_to(fonts)}")
    _SHIPMENTS[key] = out
    return out


_SHIPMENTS: Dict[tuple, Path] = {}


def _checkout_fonts() -> Path:
    """The checkout's fonts/, for a package used from the checkout."""
    return Path(galley.__file__).resolve().parents[2] / "fonts"


def _unpacked(archive: str) -> Path:
    """On an executor: the native parts of the shipment (library, its libraries, fonts),
    unpacked once per machine into a directory named by the archive's digest."""
    digest = hashlib.sha1()
    with open(archive, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    home = Path(tempfile.gettempdir()) / f"galley-{digest.hexdigest()[:16]}"
    if (home / "galley" / "lib" / "libGalleyC.so").exists():
        return home
    # (Unpacked beside, then renamed into place: a second executor never sees half of it.)
    partial = Path(tempfile.mkdtemp(prefix=home.name + ".", dir=home.parent))
    with zipfile.ZipFile(archive) as z:
        for name in z.namelist():
            if not name.endswith(".py"):
                z.extract(name, partial)
    os.chmod(partial / "galley" / "lib" / "libGalleyC.so", 0o755)
    try:
        os.rename(partial, home)
    except OSError:
        shutil.rmtree(partial, ignore_errors=True)  # another executor was first
    return home


def _sized_batches(
    batches: Iterator[Any], columns: List[tuple], kept: List[str], fonts_dir: Optional[str],
    template: Optional[str], library: Optional[str], shipped: Optional[str],
) -> Iterator[Any]:
    """One partition: Arrow record batches in, the same rows with their result columns out."""
    import pyarrow as pa

    if shipped is not None:
        from pyspark import SparkFiles  # only on executors that got the shipment

        home = _unpacked(SparkFiles.get(shipped))
        os.environ["GALLEY_LIBRARY"] = str(home / "galley" / "lib" / "libGalleyC.so")
        fonts_dir = str(home / "galley" / "fonts")
    elif library is not None and not os.environ.get("GALLEY_LIBRARY"):
        os.environ["GALLEY_LIBRARY"] = library
    import galley

    arrow_types = {"int": pa.int32(), "double": pa.float64(), "boolean": pa.bool_(),
                   "string": pa.string()}
    names = [name for name, _ in columns]
    engine = galley.Engine(fonts_dir=fonts_dir)
    try:
        for batch in batches:
            if batch.num_rows == 0:
                continue
            rows = batch.to_pylist()
            text = "\n".join(_record(r, template) for r in rows) + "\n"
            out = [line for line in engine.measure_jsonl(text).split("\n") if line]
            if len(out) != len(rows):  # (never: one result per record; said loudly if ever)
                raise RuntimeError(f"galley: {len(out)} results for {len(rows)} records")
            values: List[List[Any]] = [[] for _ in columns]
            for line in out:
                result = json.loads(line)
                failed = "error" in result
                for k, (name, kind) in enumerate(columns):
                    if name == "error":
                        values[k].append(result.get("error"))
                    elif failed:
                        values[k].append(None)
                    elif name == "truncated":
                        values[k].append(bool(result.get("truncated", False)))
                    else:
                        values[k].append(_typed(result.get(name), kind))
            arrays = [batch.column(batch.schema.get_field_index(n)) for n in kept]
            arrays += [pa.array(v, type=arrow_types[kind]) for v, (_, kind) in zip(values, columns)]
            yield pa.RecordBatch.from_arrays(arrays, names=kept + names)
    finally:
        engine.close()


def measure(
    df: Any, fonts_dir: Optional[str] = None, template: Optional[str] = None,
    ship: bool = True, ship_library: bool = False,
) -> Any:
    """``df`` with the result columns added: text cases (``TEXT_COLUMNS``), or cells
    (``CELL_COLUMNS``) when ``template`` is given or ``df`` has a ``template`` column, measured by
    one engine per partition (``mapInArrow``: rows travel as Arrow batches), rows in their order.

    An input column that has a result column's name (a product card's ``width``, say) is read as
    a field and replaced by the result's value. Needs PyArrow on the driver and the executors
    (``pip install pyspark pyarrow``).

    With ``ship`` (the default), the driver sends the executors everything of Galley's they
    need: the package, its library (a wheel's, with what it links) and the fonts
    (``fonts_dir``, else the bundled ones), so that the executors need PySpark, PyArrow and
    pandas and nothing of Galley's. ``ship=False``: the executors have the package and
    ``GALLEY_LIBRARY`` (or the driver's library path) themselves. (``ship_library`` is the
    older name of ``ship``.)
    """
    from pyspark.sql.types import (
        BooleanType, DoubleType, IntegerType, StringType, StructField, StructType)

    import galley

    spark_types = {"int": IntegerType(), "double": DoubleType(), "boolean": BooleanType(),
                   "string": StringType()}
    result_columns = CELL_COLUMNS if template is not None or "template" in df.columns else TEXT_COLUMNS
    results = [name for name, _ in result_columns]
    kept = [f for f in df.schema.fields if f.name not in results]
    schema = StructType(
        kept + [StructField(name, spark_types[t], True) for name, t in result_columns])
    # On the driver, before any job: a library that cannot load or fonts that are not there
    # raise one GalleyError here, not a task failure (and its Java stack) on every executor.
    galley.Engine(fonts_dir=fonts_dir).close()
    path = galley.library_path()
    shipped = None
    library = None
    if ship or ship_library:
        archive = _shipment(fonts_dir)
        # (A zip on the executors' Python path: the package is imported from it, and the
        # native parts are unpacked from the same file.)
        df.sparkSession.sparkContext.addPyFile(str(archive))
        shipped = archive.name
    else:
        library = str(path)
    kept_names = [f.name for f in kept]

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        return _sized_batches(batches, result_columns, kept_names, fonts_dir, template, library, shipped)

    return df.mapInArrow(run, schema)
