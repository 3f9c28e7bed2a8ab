"""Galley's sizes over a Spark DataFrame: records in, results beside them.

    from galley import spark as gs
    sized = gs.measure(messages_df, template="bubble")

Each row is a record of the case or cell format (docs/CASE-FORMAT.md, docs/CELLS.md) built from
the row's columns; a null column is a field left out (its default). Spark columns have one type:
a field that mixes "normal" and numbers (``lineHeight``) is a string column, whose numeric
values are read as numbers. The output has every input column plus the result columns
(``TEXT_COLUMNS`` for text cases, ``CELL_COLUMNS`` for cells); a record that cannot be measured
keeps its row, with ``error`` set to the message ``galley measure`` writes for it. Nothing
raises for bad data: a Spark task never fails on a record.

The rows go to Python in Arrow batches (``mapInArrow``), where one engine per Python worker
measures a batch in one call into the library: it reads each row's fields where Arrow keeps
them and writes the row's record as Spark's ``to_json`` would, and PyArrow reads its results. No
row becomes a Python object, and no JSON is written in the JVM.

By default the driver ships the executors everything of Galley's (``measure(ship=True)``); see
docs/SPARK.md. The driver checks the library and the fonts before any job (``galley.GalleyError``
there, not a task failure on every executor).

The zero-code path, for a cluster that has the ``galley`` binary at the same path on every node:
``rdd.pipe("/opt/galley/galley measure --quiet -", env={"GALLEY_FONTS": "/opt/galley/fonts"})``
over an RDD of JSON Lines strings gives the same result lines, in order (PySpark starts the
command with an empty environment; an error's ``line`` counts from its partition's start).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Optional

import galley

__all__ = ["measure", "measure_json", "schema", "TEXT_COLUMNS", "CELL_COLUMNS", "JSON_COLUMNS"]

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


#: The columns ``measure_json`` adds: the record's ``id`` and every result field of text cases
#: and cells (those a record's kind does not have are null): ``galley.RESULT_COLUMNS``.
JSON_COLUMNS = galley.RESULT_COLUMNS


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


def _record_fields(df: Any, fields: Optional[List[str]]) -> List[str]:
    """The columns a row's record is written from: ``fields`` (each a column of ``df``: checked
    on the driver, before any job), else every column."""
    if fields is None:
        return list(df.columns)
    if not fields:
        raise ValueError("fields names no column: a record needs at least one field")
    missing = [name for name in fields if name not in df.columns]
    if missing:
        raise ValueError(f"fields that are no column of the DataFrame: {missing} (columns: {df.columns})")
    return list(fields)


def _readable(data_type: Any) -> Any:
    """``data_type`` with the types the library does not read from Arrow (dates, timestamps,
    binary and others JSON has no value for) made strings, at any depth, and map keys made
    strings: a column of such a type is cast to it before it travels (a date becomes its text,
    as ``to_json`` writes one)."""
    from pyspark.sql import types

    if isinstance(data_type, types.StructType):
        return types.StructType([types.StructField(f.name, _readable(f.dataType), f.nullable)
                                 for f in data_type.fields])
    if isinstance(data_type, types.ArrayType):
        return types.ArrayType(_readable(data_type.elementType), data_type.containsNull)
    if isinstance(data_type, types.MapType):
        return types.MapType(types.StringType(), _readable(data_type.valueType),
                             data_type.valueContainsNull)
    read = (types.StringType, types.BooleanType, types.NullType, types.ByteType, types.ShortType,
            types.IntegerType, types.LongType, types.FloatType, types.DoubleType, types.DecimalType)
    return data_type if isinstance(data_type, read) else types.StringType()


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


def _engine(fonts_dir: Optional[str], library: Optional[str], shipped: Optional[str]) -> Any:
    """This Python worker's engine for a job's fonts, made on its first batch and kept while
    the worker lives (Spark reuses workers across tasks and jobs): fonts load once, and the
    shipment is read (its digest) once, not on every batch."""
    memo = (fonts_dir, library, shipped)
    if memo in _WORKER_ENGINES:
        return _WORKER_ENGINES[memo]
    if shipped is not None:
        from pyspark import SparkFiles  # only on executors that got the shipment

        home = _unpacked(SparkFiles.get(shipped))
        os.environ["GALLEY_LIBRARY"] = str(home / "galley" / "lib" / "libGalleyC.so")
        fonts_dir = str(home / "galley" / "fonts")
    elif library is not None and not os.environ.get("GALLEY_LIBRARY"):
        os.environ["GALLEY_LIBRARY"] = library
    key = (os.environ.get("GALLEY_LIBRARY"), fonts_dir)
    if key not in _ENGINES:
        import galley

        _ENGINES[key] = galley.Engine(fonts_dir=fonts_dir)
    _WORKER_ENGINES[memo] = _ENGINES[key]
    return _ENGINES[key]


_ENGINES: Dict[tuple, Any] = {}
#: The engine for each job's arguments (the UDF's own), once found: later batches skip the
#: shipment's digest and the environment.
_WORKER_ENGINES: Dict[tuple, Any] = {}


def _sized(records: Any, columns: List[tuple], engine: Any, template: Optional[str] = None,
           numeric: Any = ()) -> List[Any]:
    """One Arrow array of records (a struct array, each row the record of its fields, or a
    string array of JSON records) → its results, an array per result column, row for row. The
    library reads the records where Arrow keeps them and its JSON Lines come back through
    PyArrow's reader: no row becomes a Python object."""
    out = engine._measure_arrow(records, template, numeric)
    return galley._result_arrays(out, columns, len(records))


def measure(
    df: Any, fonts_dir: Optional[str] = None, template: Optional[str] = None,
    ship: bool = True, ship_library: bool = False, fields: Optional[List[str]] = None,
) -> Any:
    """``df`` with the result columns added: text cases (``TEXT_COLUMNS``), or cells
    (``CELL_COLUMNS``) when ``template`` is given or the records have a ``template`` field, each
    row's results beside it. The rows travel to Python in Arrow batches, where one engine per
    Python worker measures a batch in one call, reading each row's record from its columns (as
    Spark's ``to_json`` would write it: a null column is a field left out).

    A record is made of every column, or of the columns ``fields`` names: the others (a
    conversation's id, a date) are then kept beside the results without being read, where
    among the record's fields they would be unknown fields, an error for every row. A column of
    a type JSON has no value for (a date, a timestamp, binary) is read as its text.

    An input column that has a result column's name (a product card's ``width``, say) is read as
    a field and replaced by the result's value. Needs PyArrow and pandas on the driver and the
    executors (``pip install "galley[spark]"``).

    With ``ship`` (the default), the driver sends the executors everything of Galley's they
    need: the package, its library (a wheel's, with what it links) and the fonts
    (``fonts_dir``, else the bundled ones), so that the executors need PySpark, PyArrow and
    pandas and nothing of Galley's. ``ship=False``: the executors have the package and
    ``GALLEY_LIBRARY`` (or the driver's library path) themselves. (``ship_library`` is the
    older name of ``ship``.)
    """
    galley._check_template(template)
    names = _record_fields(df, fields)
    cells = template is not None or "template" in names
    return _with_results(df, names, CELL_COLUMNS if cells else TEXT_COLUMNS, fonts_dir,
                         ship or ship_library, template, galley._NUMERIC_FIELDS)


def measure_json(
    df: Any, column: str = "value", template: Optional[str] = None,
    fonts_dir: Optional[str] = None, ship: bool = True,
) -> Any:
    """``df`` with the results of the JSON record in its string column ``column`` (one record
    per row, as ``galley measure`` reads a line; ``spark.read.text`` of a JSON Lines archive
    gives such a column, ``value``) beside each row: ``JSON_COLUMNS``, the record's ``id`` and
    every result field (null where the record's kind has none). ``template``: records that name
    no template are cells of this one (``galley measure --template``).

    The records go to the library as they are: no schema to give or infer, and Spark neither
    parses nor writes JSON. A value is one record whatever it holds (line breaks between its
    tokens included); a null value is the record ``null``, an error row. Shipping as in
    ``measure``.
    """
    from pyspark.sql import types

    # (On the driver, before any job: a bad name fails here, not in every task.)
    galley._check_template(template)
    kinds = {f.name: f.dataType for f in df.schema.fields}
    if not isinstance(kinds.get(column), types.StringType):
        raise ValueError(f"measure_json needs a string column {column!r} (columns: {df.columns})")
    return _with_results(df, column, JSON_COLUMNS, fonts_dir, ship, template, ())


def _with_results(
    df: Any, records: Any, result_columns: List[tuple], fonts_dir: Optional[str], ship: bool,
    template: Optional[str], numeric: Any,
) -> Any:
    """``df`` with ``result_columns`` measured from each row's record: the struct of the
    columns ``records`` names (a list), or the JSON text in the column ``records`` names (a
    string). An input column of a result's name is replaced by it."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import (
        BooleanType, DoubleType, IntegerType, StringType, StructField, StructType)

    spark_types = {"int": IntegerType(), "double": DoubleType(), "boolean": BooleanType(),
                   "string": StringType()}
    results = [name for name, _ in result_columns]
    kept = [f for f in df.schema.fields if f.name not in results]
    # On the driver, before any job: a library that cannot load or fonts that are not there
    # raise one GalleyError here, not a task failure (and its Java stack) on every executor.
    galley.Engine(fonts_dir=fonts_dir).close()
    shipped = None
    library = None
    if ship:
        archive = _shipment(fonts_dir)
        # (A zip on the executors' Python path: the package is imported from it, and the
        # native parts are unpacked from the same file.)
        df.sparkSession.sparkContext.addPyFile(str(archive))
        shipped = archive.name
    else:
        library = str(galley.library_path())

    # What travels: the kept columns, then each record field the library reads that is not
    # one of them as it is (a result's name, a type cast to one it reads), by position.
    inputs = [F.col(f"`{f.name}`") for f in kept]
    place = {f.name: k for k, f in enumerate(kept)}
    kinds = {f.name: f.dataType for f in df.schema.fields}
    names = records if isinstance(records, list) else [records]
    sources = []
    for name in names:
        readable = _readable(kinds[name])
        if name in place and readable == kinds[name]:
            sources.append(place[name])
        else:
            sources.append(len(inputs))
            inputs.append(F.col(f"`{name}`").cast(readable).alias(f"_galley_{len(inputs)}"))
    as_text = not isinstance(records, list)
    result_fields = [StructField(name, spark_types[t], True) for name, t in result_columns]
    out_type = StructType(kept + result_fields)
    out_names = [f.name for f in kept] + results

    def sized(batches: Any) -> Any:
        import pyarrow as pa

        engine = _engine(fonts_dir, library, shipped)
        for batch in batches:
            if as_text:
                array = batch.column(sources[0])
            else:
                array = pa.StructArray.from_arrays([batch.column(k) for k in sources], names=names)
            measured = _sized(array, result_columns, engine, template, numeric)
            yield pa.RecordBatch.from_arrays(
                [batch.column(k) for k in range(len(kept))] + measured, names=out_names)

    # (The other columns travel beside the records and come back as they were.)
    return df.select(*inputs).mapInArrow(sized, out_type)
