/* Reads JSON Lines from the file argv[1], measures them through the C ABI and writes the
 * result to standard output; then checks the prepared-text functions and the error paths. */
#include <galley.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The Arrow C data interface's structs, as a producer other than PyArrow lays them out. */
struct ArrowSchema {
  const char *format, *name, *metadata;
  int64_t flags, n_children;
  struct ArrowSchema **children;
  struct ArrowSchema *dictionary;
  void (*release)(struct ArrowSchema *);
  void *private_data;
};
struct ArrowArray {
  int64_t length, null_count, offset, n_buffers, n_children;
  const void **buffers;
  struct ArrowArray **children;
  struct ArrowArray *dictionary;
  void (*release)(struct ArrowArray *);
  void *private_data;
};
static int released = 0;
static void release_schema(struct ArrowSchema *s) { released++; s->release = NULL; }
static void release_array(struct ArrowArray *a) { released++; a->release = NULL; }

/* Rows 1 and 2 of a struct array of id, text and width (a slice: offset 1) through
 * galley_measure_arrow, then a column of a type it does not read: each released once. */
static int measure_arrow(galley_engine *engine) {
  int32_t id_offsets[] = {0, 1, 2, 3}, text_offsets[] = {0, 3, 28, 30};
  double widths[] = {1, 40, 1000};
  const void *id_buffers[] = {NULL, id_offsets, "zab"};
  const void *text_buffers[] = {NULL, text_offsets, "zzzHello, wide world of texthi"};
  const void *width_buffers[] = {NULL, widths};
  const void *no_buffers[] = {NULL};
  struct ArrowArray id = {3, 0, 0, 3, 0, id_buffers, NULL, NULL, NULL, NULL};
  struct ArrowArray text = {3, 0, 0, 3, 0, text_buffers, NULL, NULL, NULL, NULL};
  struct ArrowArray width = {3, 0, 0, 2, 0, width_buffers, NULL, NULL, NULL, NULL};
  struct ArrowArray *columns[] = {&id, &text, &width};
  struct ArrowArray rows = {2, 0, 1, 1, 3, no_buffers, columns, NULL, release_array, NULL};
  struct ArrowSchema id_s = {"u", "id", NULL, 2, 0, NULL, NULL, NULL, NULL};
  struct ArrowSchema text_s = {"u", "text", NULL, 2, 0, NULL, NULL, NULL, NULL};
  struct ArrowSchema width_s = {"g", "width", NULL, 2, 0, NULL, NULL, NULL, NULL};
  struct ArrowSchema *fields[] = {&id_s, &text_s, &width_s};
  struct ArrowSchema schema = {"+s", "", NULL, 0, 3, fields, NULL, release_schema, NULL};
  size_t length = 0;
  char *error = NULL;
  char *out = galley_measure_arrow(engine, &schema, &rows, NULL, NULL, 1, &length, &error);
  if (!out || strstr(out, "\"z\"") || !strstr(out, "{\"id\": \"a\", \"lines\": ") ||
      strstr(out, "{\"id\": \"a\", \"lines\": 1,") ||
      !strstr(out, "{\"id\": \"b\", \"lines\": 1,") || length != strlen(out)) return 22;
  galley_free(out);
  if (released != 2 || rows.release || schema.release) return 23;
  width_s.format = "tdD"; /* a date: refused, and released all the same */
  rows.release = release_array;
  schema.release = release_schema;
  if (galley_measure_arrow(engine, &schema, &rows, NULL, NULL, 1, &length, &error) != NULL ||
      !error || !strstr(error, "tdD") || length != 0 || released != 4) return 24;
  galley_free(error);
  error = NULL;
  if (galley_measure_arrow(engine, NULL, NULL, NULL, NULL, 1, &length, &error) != NULL ||
      !error) return 25;
  galley_free(error);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) return 64;
  FILE *f = fopen(argv[1], "rb");
  if (!f) return 66;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *input = malloc((size_t)n + 1);
  if (fread(input, 1, (size_t)n, f) != (size_t)n) return 66;
  fclose(f);
  char *error = NULL;
  galley_engine *engine = galley_engine_create(NULL, &error);
  if (!engine) { fprintf(stderr, "engine: %s\n", error); return 1; }
  size_t length = 0;
  char *out = galley_measure_jsonl(engine, input, (size_t)n, &length);
  fwrite(out, 1, length, stdout);
  galley_free(out);
  /* Prepared text: one line at 1000 pt, more at 40. */
  galley_prepared *p = galley_prepare(engine, "{\"text\": \"Hello, wide world of text\", \"size\": 17}", &error);
  int32_t lines = 0; double height = 0, widest = 0;
  if (!p || galley_prepared_layout(p, 1000, &lines, &height, &widest) != 0 || lines != 1) return 2;
  if (galley_prepared_layout(p, 40, &lines, &height, &widest) != 0 || lines < 2) return 3;
  if (galley_prepared_layout(p, -1, &lines, &height, &widest) != -1) return 4;
  galley_prepared_destroy(p);
  /* Errors: a bad case, a missing fonts directory. */
  if (galley_prepare(engine, "[1, 2]", &error) != NULL || error == NULL) return 5;
  galley_free(error);
  error = NULL;
  if (galley_engine_create("/no/such/fonts", &error) != NULL || error == NULL) return 6;
  galley_free(error);
  if (strncmp(galley_version(), "galley ", 7) != 0) return 7;
  /* Every NULL the header names, and a length no buffer has: a message or NULL, never a trap. */
  error = NULL;
  if (galley_prepare(NULL, "{\"text\": \"x\"}", &error) != NULL || error == NULL) return 8;
  galley_free(error);
  error = NULL;
  if (galley_prepare(engine, NULL, &error) != NULL || error == NULL) return 9;
  galley_free(error);
  if (galley_prepare(NULL, NULL, NULL) != NULL) return 10;
  length = 99;
  if (galley_measure_jsonl(engine, input, (size_t)-1, &length) != NULL || length != 0) return 11;
  if (galley_measure_jsonl(NULL, input, (size_t)n, &length) != NULL) return 12;
  if (galley_measure_jsonl(engine, NULL, 0, NULL) != NULL) return 13;
  if (galley_prepared_layout(NULL, 100, &lines, &height, &widest) != -1) return 14;
  galley_prepared_destroy(NULL);
  galley_engine_destroy(NULL);
  galley_free(NULL);
  error = NULL;
  if (galley_engine_create_with_options(NULL, 2, &error) != NULL || error == NULL) return 15;
  galley_free(error);
  /* A font path outside the directory: refused alike whether or not the file exists, unless
   * the engine allows paths. */
  const char *outside = "{\"id\": \"o\", \"text\": \"x\", \"fonts\": [\"/etc/passwd\"], \"width\": 9}\n"
                        "{\"id\": \"p\", \"text\": \"x\", \"fonts\": [\"/no/such.ttf\"], \"width\": 9}\n";
  out = galley_measure_jsonl(engine, outside, strlen(outside), &length);
  if (!out || !strstr(out, "font /etc/passwd is outside the font directory") ||
      !strstr(out, "font /no/such.ttf is outside the font directory")) return 16;
  galley_free(out);
  galley_engine *anywhere = galley_engine_create_with_options(NULL, GALLEY_ANY_FONT_PATH, &error);
  if (!anywhere) return 17;
  out = galley_measure_jsonl(anywhere, outside, strlen(outside), &length);
  if (!out || !strstr(out, "invalid font passwd") || !strstr(out, "not found")) return 18;
  galley_free(out);
  galley_engine_destroy(anywhere);
  /* A default template, as `galley measure --template bubble`: a record naming none is a
   * bubble (its size: a width and lines), one naming a template keeps it; unknown: NULL. */
  const char *cells = "{\"id\": \"b\", \"text\": \"hi\", \"containerWidth\": 300}\n"
                      "{\"id\": \"c\", \"template\": \"productCard\", \"title\": \"Mug\", \"width\": 160}\n";
  out = galley_measure_jsonl_template(engine, cells, strlen(cells), "bubble", &length);
  if (!out || !strstr(out, "{\"id\": \"b\", \"width\": ") || !strstr(out, "{\"id\": \"c\", \"width\": 160")) return 19;
  galley_free(out);
  out = galley_measure_jsonl_template(engine, cells, strlen(cells), NULL, &length);
  if (!out || !strstr(out, "{\"id\": \"b\", \"line\": 1, \"error\"")) return 20;
  galley_free(out);
  if (galley_measure_jsonl_template(engine, cells, strlen(cells), "card", &length) != NULL ||
      length != 0) return 21;
  int arrow = measure_arrow(engine);
  if (arrow != 0) return arrow;
  galley_engine_destroy(engine);
  free(input);
  return 0;
}
