/* Galley's C ABI: exact text and cell sizes from C (and any language with a C FFI).
 *
 * Build: swift build -c release --product GalleyC  →  .build/release/libGalleyC.so
 * Link:  cc -I include app.c -L .build/release -lGalleyC -Wl,-rpath,$PWD/.build/release
 *
 * Ownership: every char* a function returns (results, error messages) is the caller's, freed
 * with galley_free; galley_version's string is static. Engines and prepared texts are freed
 * with their destroy functions.
 * Threads: an engine and a prepared text may be used by any number of threads at once.
 * Failures never crash the host: bad records become error records (as `galley measure` writes
 * them), bad arguments return NULL or -1 with a message where a char **error is given. */
#ifndef GALLEY_H
#define GALLEY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct galley_engine galley_engine;
typedef struct galley_prepared galley_prepared;

/* An engine over the fonts in fonts_dir (NULL: the bundled fonts/, or $GALLEY_FONTS). NULL when
 * the directory does not exist; *error (if error is not NULL) then holds why (galley_free it). */
galley_engine *galley_engine_create(const char *fonts_dir, char **error);

/* Options of galley_engine_create_with_options, or-ed together. */
enum {
    /* Records may name font files by absolute paths outside fonts_dir (by default a name must
     * stay inside it, and a refusal says the same whether or not the file exists). */
    GALLEY_ANY_FONT_PATH = 1
};

/* galley_engine_create with options (0: the defaults). NULL also for an unknown option. */
galley_engine *galley_engine_create_with_options(const char *fonts_dir, uint32_t options,
                                                 char **error);

/* Frees an engine (NULL is ignored). Prepared texts made with it stay valid. */
void galley_engine_destroy(galley_engine *engine);

/* JSON Lines in (text cases and cells, docs/CASE-FORMAT.md and docs/CELLS.md), JSON Lines out:
 * exactly the bytes `galley measure` writes for the same input, one line per input line, error
 * records included. Returns a NUL-terminated buffer (galley_free it); *out_length gets its
 * length in bytes. NULL (and *out_length 0) only when engine or jsonl is NULL or length is
 * above SSIZE_MAX. Limits as the command's: a text at most 4 MiB, a line at most 32 MiB. */
char *galley_measure_jsonl(galley_engine *engine, const char *jsonl, size_t length,
                           size_t *out_length);

/* galley_measure_jsonl with the template of the records that name none ("bubble" or
 * "productCard", as `galley measure --template`; NULL: none). NULL (and *out_length 0) also
 * for an unknown template name. */
char *galley_measure_jsonl_template(galley_engine *engine, const char *jsonl, size_t length,
                                    const char *template_name, size_t *out_length);

/* The Arrow C data interface's structs (arrow.apache.org/docs/format/CDataInterface.html). */
struct ArrowSchema;
struct ArrowArray;

/* Records from an Arrow array, measured as galley_measure_jsonl_template measures lines: each
 * row of a struct array (a record batch, as PyArrow and Spark export one) is the record of its
 * fields, written as Spark's to_json writes it (a null field left out, lists as arrays, maps of
 * string keys as objects); each value of a string array is one JSON record as it stands (a null
 * one: the record `null`). Fields of types JSON has no value for (dates, binary, dictionaries)
 * are refused. Limits as galley_measure_jsonl's, a row's record (as JSON) at most 32 MiB: a longer
 * one is an error record, found without writing it out (memory stays near the limit whatever a
 * row holds). numeric_fields: NULL, or names separated by commas of string fields written as
 * the number they hold when they hold a JSON number. Error records give row k the line
 * first_line + k. Takes the schema and the array: both are released (as an Arrow consumer
 * releases what it was given), whatever the outcome. Returns result lines as
 * galley_measure_jsonl; NULL (and *out_length 0) for a NULL argument, an unknown template or
 * an array that cannot be read as records, with *error (if error is not NULL) saying why. */
char *galley_measure_arrow(galley_engine *engine, struct ArrowSchema *schema,
                           struct ArrowArray *array, const char *template_name,
                           const char *numeric_fields, int64_t first_line, size_t *out_length,
                           char **error);

/* Frees what this library returned. */
void galley_free(void *pointer);

/* "galley 0.1.0; harfbuzz …; freetype …; icu …; shaping: accelerated" (static storage). */
const char *galley_version(void);

/* Shapes a text once, for layouts at many widths: case_json is a text case (its "width" is not
 * needed). NULL on an invalid case, a NULL engine or a NULL case_json; *error (if error is not
 * NULL) then says why (galley_free it). */
galley_prepared *galley_prepare(galley_engine *engine, const char *case_json, char **error);

/* Lines, height and widest line of a prepared text at width (points). 0, or -1 for an invalid
 * width or a NULL text. */
int32_t galley_prepared_layout(galley_prepared *prepared, double width, int32_t *lines,
                               double *height, double *widest);

/* Frees a prepared text (NULL is ignored). */
void galley_prepared_destroy(galley_prepared *prepared);

#ifdef __cplusplus
}
#endif
#endif
