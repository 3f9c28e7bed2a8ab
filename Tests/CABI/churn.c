/* Makes and frees engines, prepared texts and results over and over, on every path (errors
 * included), for the leak checker: CABITests runs it under valgrind memcheck, which must find
 * no byte definitely lost.
 *
 *   churn ENGINES PREPARED   (e.g. 10000 10000) */
#include <galley.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int engines = argc > 1 ? atoi(argv[1]) : 10000;
  int prepared = argc > 2 ? atoi(argv[2]) : 10000;
  int failures = 0;
  /* Engines: made and destroyed; every 500th measures a record (fonts loaded, then freed). */
  for (int i = 0; i < engines; i++) {
    char *error = NULL;
    galley_engine *e = galley_engine_create(NULL, &error);
    if (!e) { fprintf(stderr, "engine %d: %s\n", i, error ? error : "?"); galley_free(error); return 1; }
    if (i % 500 == 0) {
      const char *line = "{\"id\":\"a\",\"text\":\"Hello \xec\x84\xb8\xea\xb3\x84\",\"width\":120}\n";
      size_t n = 0;
      char *out = galley_measure_jsonl(e, line, strlen(line), &n);
      if (!out || !strstr(out, "\"lines\"")) failures++;
      galley_free(out);
    }
    galley_engine_destroy(e);
    /* A directory that does not exist: an error string to free. */
    if (i % 100 == 0) {
      char *why = NULL;
      galley_engine *bad = galley_engine_create("/no/such/fonts", &why);
      if (bad || !why) failures++;
      galley_free(why);
    }
  }
  /* Prepared texts on one engine: made, laid out, destroyed; bad cases give errors to free. */
  galley_engine *e = galley_engine_create(NULL, NULL);
  if (!e) return 1;
  for (int i = 0; i < prepared; i++) {
    char json[160];
    snprintf(json, sizeof json, "{\"text\":\"message %d, a few words long\",\"size\":17}", i);
    char *error = NULL;
    galley_prepared *p = galley_prepare(e, json, &error);
    if (!p) { failures++; galley_free(error); continue; }
    int32_t lines = 0;
    double height = 0, widest = 0;
    if (galley_prepared_layout(p, 80 + i % 200, &lines, &height, &widest) != 0 || lines < 1) failures++;
    galley_prepared_destroy(p);
    if (i % 10 == 0) {
      char *why = NULL;
      if (galley_prepare(e, i % 20 ? "{\"text\":7}" : "{oops", &why) || !why) failures++;
      galley_free(why);
      size_t n = 0;
      char *out = galley_measure_jsonl(e, "{\"id\":\"x\",\"width\":-1}\n", 23, &n);
      if (!out || !strstr(out, "\"error\"")) failures++;
      galley_free(out);
    }
  }
  galley_engine_destroy(e);
  if (failures) { fprintf(stderr, "%d checks failed\n", failures); return 1; }
  printf("ok %d engines, %d prepared texts\n", engines, prepared);
  return 0;
}
