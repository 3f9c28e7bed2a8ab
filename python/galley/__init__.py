"""Galley's exact text and cell sizes through its C ABI (libGalleyC.so), loaded with ctypes."""

from __future__ import annotations

import ctypes
import json
import os
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional

__all__ = ["Engine", "Prepared", "GalleyError", "RESULT_COLUMNS", "fonts_path", "library_path",
           "version"]


#: The cell templates a record may be measured as (docs/CELLS.md).
TEMPLATES = ("bubble", "productCard")


def _check_template(template: Optional[str]) -> None:
    """A ValueError for a template name that is not one of ``TEMPLATES`` (None is none)."""
    if template is not None and template not in TEMPLATES:
        raise ValueError(f"template must be one of {', '.join(TEMPLATES)} (got {template!r})")


#: The result columns of ``Engine.measure_arrow`` (and of ``galley.spark.measure_json``), with
#: their Spark SQL types: the record's ``id`` and every result field of text cases and cells,
#: null where a record's kind has none; ``error`` set for a record that cannot be measured.
RESULT_COLUMNS = [
    ("id", "string"), ("lines", "int"), ("height", "double"), ("widest", "double"),
    ("width", "double"), ("textHeight", "double"), ("truncated", "boolean"),
    ("missingGlyphs", "int"), ("error", "string"),
]

#: The fields of records and of their nested objects (styles, paddings, sizes) that hold
#: numbers. An Arrow or Spark column has one type: a field that mixes "normal" and numbers (a
#: style's ``lineHeight``) is a string column, and its values that are JSON numbers are read
#: as those numbers.
_NUMERIC_FIELDS = (
    "size", "lineHeight", "letterSpacing", "lineSpacing", "minimumLineHeight",
    "maximumLineHeight", "tabSize", "maxLines", "top", "leading", "bottom", "trailing", "width",
    "height",
)


def _result_arrays(out: bytes, columns: List[tuple], count: int) -> List[Any]:
    """The library's JSON Lines for `count` records → an Arrow array per result column of
    `columns` (name, Spark SQL type), row for row, through PyArrow's JSON reader: an error
    record's row has only its error and id; ``truncated`` is false where not written."""
    import io

    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.json as pj

    types = {"int": pa.int32(), "double": pa.float64(), "boolean": pa.bool_(), "string": pa.string()}
    schema = pa.schema([(name, types[kind]) for name, kind in columns])
    if not out:  # (no records: PyArrow's reader takes no empty text)
        results = schema.empty_table()
    else:
        results = pj.read_json(
            io.BytesIO(out),
            parse_options=pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore"),
            read_options=pj.ReadOptions(use_threads=False, block_size=len(out) + 1))
    if results.num_rows != count:  # (never: one result per record)
        raise RuntimeError(f"galley: {results.num_rows} results for {count} records")
    errors = results.column("error").combine_chunks()
    measured = pc.is_null(errors)
    arrays = []
    for name, _ in columns:
        value = results.column(name).combine_chunks()
        if name == "truncated":  # (written only when true)
            value = pc.fill_null(value, False)
        if name not in ("error", "id") and errors.null_count < len(errors):
            value = pc.if_else(measured, value, pa.nulls(len(value), value.type))
        arrays.append(value)
    return arrays


class GalleyError(Exception):
    """The library cannot be loaded, or an engine or prepared text cannot be made."""


#: Where a wheel keeps its own copies: the library (with the Swift runtime linked in, and the
#: system libraries it needs beside it) and the bundled fonts with their licenses.
_PACKAGED_LIBRARY = Path(__file__).resolve().parent / "lib" / "libGalleyC.so"
_PACKAGED_FONTS = Path(__file__).resolve().parent / "fonts"


def fonts_path() -> Optional[Path]:
    """The fonts an engine uses when given none: $GALLEY_FONTS, else the wheel's bundled fonts,
    else None (the library's own search: the checkout's fonts/)."""
    env = os.environ.get("GALLEY_FONTS")
    if env:
        return Path(env)
    if (_PACKAGED_FONTS / "NotoSans-Regular.ttf").exists():
        return _PACKAGED_FONTS
    return None


def library_path() -> Path:
    """Where libGalleyC.so is: $GALLEY_LIBRARY, else the wheel's own copy, else the checkout's
    .build/release or .build/debug."""
    env = os.environ.get("GALLEY_LIBRARY")
    if env:
        return Path(env)
    if _PACKAGED_LIBRARY.exists():
        return _PACKAGED_LIBRARY
    here = Path(__file__).resolve()
    for root in [here.parents[2], Path.cwd()]:
        for config in ["release", "debug"]:
            candidate = root / ".build" / config / "libGalleyC.so"
            if candidate.exists():
                return candidate
    raise GalleyError(
        "libGalleyC.so not found: build it with `swift build -c release --product GalleyC` in the "
        "Galley checkout, or set GALLEY_LIBRARY to its path"
    )


_lib: Optional[ctypes.CDLL] = None


def _library() -> ctypes.CDLL:
    global _lib
    if _lib is None:
        path = library_path()
        try:
            lib = ctypes.CDLL(str(path))
        except OSError as e:
            raise GalleyError(f"cannot load {path}: {e}") from e
        lib.galley_engine_create_with_options.argtypes = [
            ctypes.c_char_p, ctypes.c_uint32, ctypes.POINTER(ctypes.c_void_p)]
        lib.galley_engine_create_with_options.restype = ctypes.c_void_p
        lib.galley_engine_destroy.argtypes = [ctypes.c_void_p]
        lib.galley_measure_jsonl.argtypes = [
            ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)]
        lib.galley_measure_jsonl.restype = ctypes.c_void_p
        lib.galley_measure_jsonl_template.argtypes = [
            ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
            ctypes.POINTER(ctypes.c_size_t)]
        lib.galley_measure_jsonl_template.restype = ctypes.c_void_p
        lib.galley_measure_arrow.argtypes = [
            ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p,
            ctypes.c_int64, ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_void_p)]
        lib.galley_measure_arrow.restype = ctypes.c_void_p
        lib.galley_free.argtypes = [ctypes.c_void_p]
        lib.galley_version.restype = ctypes.c_char_p
        lib.galley_prepare.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
        lib.galley_prepare.restype = ctypes.c_void_p
        lib.galley_prepared_layout.argtypes = [
            ctypes.c_void_p, ctypes.c_double, ctypes.POINTER(ctypes.c_int32),
            ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_double)]
        lib.galley_prepared_layout.restype = ctypes.c_int32
        lib.galley_prepared_destroy.argtypes = [ctypes.c_void_p]
        _lib = lib
    return _lib


def _take_string(pointer: Optional[int]) -> str:
    """The library's string at `pointer`, freed."""
    if not pointer:
        return ""
    lib = _library()
    try:
        return ctypes.string_at(pointer).decode("utf-8")
    finally:
        lib.galley_free(pointer)


def version() -> str:
    """Galley's and its libraries' versions, and the shaping mode."""
    return _library().galley_version().decode("utf-8")


def _json_line(record: Any, default: Any = None) -> str:
    """A record as one line of JSON for the library. Non-ASCII text goes as it is, except a
    string holding a lone surrogate (JavaScript cuts strings inside emoji): that record is
    written with escapes, which the library reads as U+FFFD, as a browser draws it (with a
    warning), instead of the whole batch failing to encode."""
    text = json.dumps(record, ensure_ascii=False, default=default)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(record, ensure_ascii=True, default=default)
    return text


def _unwritable(record: Any, line: int) -> Optional[Dict[str, Any]]:
    """The error record of a record JSON cannot hold (a bytes or set value, a key that is not
    a string), as `galley measure` would write one: its id if it has one, its line, the field
    and why. None for a record that can be written."""
    try:
        _json_line(record)
        return None
    except (TypeError, ValueError) as e:
        reason = str(e)
    if not isinstance(record, dict):
        return {"line": line, "error": f"a record is a JSON object, not {type(record).__name__}"}
    out: Dict[str, Any] = {}
    if isinstance(record.get("id"), str):
        out["id"] = record["id"]
    out["line"] = line
    for key, value in record.items():
        if not isinstance(key, str):
            out["error"] = f"field names are strings, not {type(key).__name__} ({key!r})"
            break
        try:
            _json_line(value)
        except (TypeError, ValueError):
            out["error"] = f'field "{key}" holds a {type(value).__name__} value, which JSON cannot hold'
            break
    else:
        out["error"] = f"the record cannot be written as JSON: {reason}"
    return out


class Prepared:
    """A text shaped once, laid out at any width."""

    def __init__(self, handle: int) -> None:
        self._handle: Optional[int] = handle

    def layout(self, width: float) -> Dict[str, Any]:
        """Lines, height and widest line at `width` points."""
        if not self._handle:
            raise GalleyError("this prepared text was closed")
        lines = ctypes.c_int32()
        height = ctypes.c_double()
        widest = ctypes.c_double()
        status = _library().galley_prepared_layout(
            self._handle, float(width), ctypes.byref(lines), ctypes.byref(height), ctypes.byref(widest))
        if status != 0:
            raise ValueError(f"width must be a finite number > 0 (got {width})")
        return {"lines": lines.value, "height": height.value, "widest": widest.value}

    def close(self) -> None:
        if self._handle:
            _library().galley_prepared_destroy(self._handle)
            self._handle = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass


class Engine:
    """Fonts and a typesetter: measures records as `galley measure` does. Thread-safe."""

    def __init__(self, fonts_dir: Optional[str] = None, any_font_path: bool = False) -> None:
        """`fonts_dir`: where font names resolve (None: the bundled fonts). A record may name
        a font by a path outside it only with `any_font_path` (GALLEY_ANY_FONT_PATH)."""
        lib = _library()
        error = ctypes.c_void_p()
        if fonts_dir is None and fonts_path() is not None:
            fonts_dir = str(fonts_path())
        handle = lib.galley_engine_create_with_options(
            fonts_dir.encode("utf-8") if fonts_dir is not None else None,
            1 if any_font_path else 0, ctypes.byref(error))
        if not handle:
            raise GalleyError(_take_string(error.value) or "cannot make an engine")
        self._handle: Optional[int] = handle

    def _measure_bytes(self, jsonl: bytes, template: Optional[str] = None) -> str:
        """The library's JSON Lines for the JSON Lines `jsonl`."""
        if not self._handle:
            raise GalleyError("this engine was closed")
        _check_template(template)
        length = ctypes.c_size_t()
        out = _library().galley_measure_jsonl_template(
            self._handle, jsonl, len(jsonl), template.encode() if template else None,
            ctypes.byref(length))
        if not out:
            raise GalleyError("galley_measure_jsonl returned nothing")
        try:
            return ctypes.string_at(out, length.value).decode("utf-8")
        finally:
            _library().galley_free(out)

    def _measure_arrow(self, data: Any, template: Optional[str] = None,
                       numeric_fields: Iterable[str] = (), first_line: int = 1) -> bytes:
        """The library's JSON Lines for the rows of a PyArrow record batch or struct array (each
        row the record of its fields, as Spark's ``to_json`` writes it) or the values of a
        string array (each a JSON record), read where PyArrow keeps them: the Arrow C data
        interface, no row a Python object. String fields named in ``numeric_fields`` are read
        as the number they hold, when they hold one."""
        if not self._handle:
            raise GalleyError("this engine was closed")
        _check_template(template)
        # (ArrowArray and ArrowSchema: 80 and 72 bytes, which PyArrow fills and the library
        # releases.)
        array = ctypes.create_string_buffer(80)
        schema = ctypes.create_string_buffer(72)
        data._export_to_c(ctypes.addressof(array), ctypes.addressof(schema))
        length = ctypes.c_size_t()
        error = ctypes.c_void_p()
        out = _library().galley_measure_arrow(
            self._handle, ctypes.addressof(schema), ctypes.addressof(array),
            template.encode() if template else None,
            ",".join(numeric_fields).encode() or None, first_line, ctypes.byref(length),
            ctypes.byref(error))
        if not out:
            raise GalleyError(_take_string(error.value) or "galley_measure_arrow returned nothing")
        try:
            return ctypes.string_at(out, length.value)
        finally:
            _library().galley_free(out)

    def measure_arrow(self, data: Any, template: Optional[str] = None) -> Any:
        """The results of the records in PyArrow data, row for row, as a ``pyarrow.Table`` of
        ``RESULT_COLUMNS``: a table, record batch or struct array (each row the record of its
        columns, a null one a field left out; nested structs, lists and maps of string keys as
        JSON objects and arrays), or a string array (each value a JSON record). A Parquet
        archive is measured as it is read (``pyarrow.parquet.read_table``), with no JSON in
        between. ``template`` as in ``measure_jsonl``. A numeric field held as strings (a
        ``lineHeight`` mixing "normal" and numbers) is read as a number where it holds one.
        A column of a type JSON has no value for (a date, binary, a dictionary) raises
        ``GalleyError``: cast it first. An error's ``line`` (in ``measure_jsonl``'s records)
        counts rows from 1 across the whole table."""
        import pyarrow as pa

        if isinstance(data, pa.Table):
            parts = data.to_batches()
        elif isinstance(data, pa.ChunkedArray):
            parts = data.chunks
        else:
            parts = [data]
        columns = []
        line = 1
        for part in parts:
            out = self._measure_arrow(part, template, _NUMERIC_FIELDS, first_line=line)
            columns.append(_result_arrays(out, RESULT_COLUMNS, len(part)))
            line += len(part)
        names = [name for name, _ in RESULT_COLUMNS]
        if not columns:  # (a table of no batches: no rows, the columns all the same)
            columns.append(_result_arrays(b"", RESULT_COLUMNS, 0))
        return pa.Table.from_batches(
            [pa.RecordBatch.from_arrays(arrays, names=names) for arrays in columns])

    def measure_jsonl(self, jsonl: str, template: Optional[str] = None) -> str:
        """JSON Lines in, JSON Lines out: the bytes `galley measure` writes (with `template`,
        what `galley measure --template` writes: records that name no template are cells of
        that one)."""
        return self._measure_bytes(jsonl.encode("utf-8"), template)

    def measure(self, record: Dict[str, Any]) -> Dict[str, Any]:
        """One text case or cell → its result (or error record) as a dict."""
        return next(self.measure_many([record]))

    def measure_many(self, records: Iterable[Dict[str, Any]], batch: int = 1024) -> Iterator[Dict[str, Any]]:
        """Results in input order, one per record, `batch` records per call into the library.
        A record that cannot be measured gives its error record, whose `line` is the record's
        place in the whole input (1 for the first); one JSON cannot hold (a bytes value, say)
        gives one too, and the others are measured."""
        chunk: List[str] = []
        # Each result of the chunk: the record's place in the input, and the error record made
        # here for one that could not be written (None: the library's result).
        places: List[tuple] = []
        position = 0
        for record in records:
            position += 1
            failed = _unwritable(record, position) if not isinstance(record, dict) else None
            if failed is None:
                try:
                    chunk.append(_json_line(record))
                except (TypeError, ValueError):
                    failed = _unwritable(record, position)
            places.append((position, failed))
            if len(places) >= batch:
                yield from self._results(chunk, places)
                chunk, places = [], []
        if places:
            yield from self._results(chunk, places)

    def _results(self, chunk: List[str], places: List[tuple]) -> Iterator[Dict[str, Any]]:
        """The results of one chunk in input order, error records numbered by input place."""
        measured = iter(self._parse(self.measure_jsonl("\n".join(chunk) + "\n")) if chunk else ())
        for position, failed in places:
            if failed is not None:
                yield failed
                continue
            result = next(measured)
            if "line" in result:
                result["line"] = position
            yield result

    @staticmethod
    def _parse(text: str) -> Iterator[Dict[str, Any]]:
        # (Lines end at LF only: a JSON string may hold U+2028, which splitlines would cut at.)
        for line in text.split("\n"):
            if line:
                yield json.loads(line)

    def prepare(self, text: str, **style: Any) -> Prepared:
        """`text` shaped once in a style given as text-case fields (size, fonts, lang, …)."""
        if not self._handle:
            raise GalleyError("this engine was closed")
        case = dict(style)
        case["text"] = text
        error = ctypes.c_void_p()
        handle = _library().galley_prepare(
            self._handle, json.dumps(case, ensure_ascii=False).encode("utf-8"), ctypes.byref(error))
        if not handle:
            raise ValueError(_take_string(error.value) or "invalid text case")
        return Prepared(handle)

    def close(self) -> None:
        if self._handle:
            _library().galley_engine_destroy(self._handle)
            self._handle = None

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass
