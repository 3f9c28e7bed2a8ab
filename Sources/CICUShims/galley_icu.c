#include "galley_icu.h"

#include <string.h>
#include <unicode/ubidi.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/utf16.h>
#include <unicode/uversion.h>

#define GALLEY_LOCALE_CACHE 8

typedef struct {
  char locale[48];
  UBreakIterator *iterator;
} galley_cached_iterator;

static __thread galley_cached_iterator cache[GALLEY_LOCALE_CACHE];
static __thread int cache_next = 0;

static UBreakIterator *line_iterator(const char *locale, UErrorCode *status) {
  for (int i = 0; i < GALLEY_LOCALE_CACHE; i++) {
    if (cache[i].iterator && strncmp(cache[i].locale, locale, sizeof cache[i].locale) == 0) {
      return cache[i].iterator;
    }
  }
  UBreakIterator *it = ubrk_open(UBRK_LINE, locale, NULL, 0, status);
  if (U_FAILURE(*status)) return NULL;
  galley_cached_iterator *slot = &cache[cache_next];
  cache_next = (cache_next + 1) % GALLEY_LOCALE_CACHE;
  if (slot->iterator) ubrk_close(slot->iterator);
  strncpy(slot->locale, locale, sizeof slot->locale - 1);
  slot->locale[sizeof slot->locale - 1] = 0;
  slot->iterator = it;
  return it;
}

int32_t galley_line_breaks_utf16(const uint16_t *text, int32_t length, const char *locale,
                                 int32_t *offsets, uint8_t *hard, int32_t capacity) {
  UErrorCode status = U_ZERO_ERROR;
  UBreakIterator *it = line_iterator(locale ? locale : "", &status);
  if (!it) return -1;
  ubrk_setText(it, (const UChar *)text, length, &status);
  if (U_FAILURE(status)) return -1;
  int32_t count = 0;
  for (int32_t pos = ubrk_first(it); pos != UBRK_DONE; pos = ubrk_next(it)) {
    if (pos == 0) continue;
    if (count >= capacity) break;
    offsets[count] = pos;
    int32_t rule = ubrk_getRuleStatus(it);
    hard[count] = (rule >= UBRK_LINE_HARD && rule < UBRK_LINE_HARD_LIMIT) ? 1 : 0;
    count++;
  }
  // Leave no pointer to the caller's buffer in the cached iterator.
  ubrk_setText(it, NULL, 0, &status);
  return count;
}

int32_t galley_line_break_class(uint32_t codepoint) {
  return u_getIntPropertyValue((UChar32)codepoint, UCHAR_LINE_BREAK);
}

int32_t galley_char_type(uint32_t codepoint) { return (int32_t)u_charType((UChar32)codepoint); }

int32_t galley_pair_breaks(uint32_t first, uint32_t second) {
  UErrorCode status = U_ZERO_ERROR;
  UBreakIterator *it = line_iterator("en", &status);
  if (!it) return -1;
  UChar buf[4];
  int32_t n = 0;
  UBool error = 0;
  U16_APPEND((UChar *)buf, n, 4, (UChar32)first, error);
  int32_t split = n;
  U16_APPEND((UChar *)buf, n, 4, (UChar32)second, error);
  if (error) return -1;
  ubrk_setText(it, buf, n, &status);
  if (U_FAILURE(status)) return -1;
  int32_t result = ubrk_isBoundary(it, split) ? 1 : 0;
  ubrk_setText(it, NULL, 0, &status);
  return result;
}

int32_t galley_bidi_levels(const uint16_t *text, int32_t length, int32_t direction,
                           uint8_t *levels) {
  UErrorCode status = U_ZERO_ERROR;
  UBiDi *bidi = ubidi_openSized(length, 0, &status);
  if (U_FAILURE(status)) return -(int32_t)status;
  UBiDiLevel para = direction == 0 ? 0 : direction == 1 ? 1 : UBIDI_DEFAULT_LTR;
  ubidi_setPara(bidi, (const UChar *)text, length, para, NULL, &status);
  if (U_FAILURE(status)) {
    ubidi_close(bidi);
    return -(int32_t)status;
  }
  const UBiDiLevel *got = ubidi_getLevels(bidi, &status);
  if (U_FAILURE(status)) {
    ubidi_close(bidi);
    return -(int32_t)status;
  }
  memcpy(levels, got, (size_t)length);
  int32_t result = ubidi_getParaLevel(bidi);
  ubidi_close(bidi);
  return result;
}

const char *galley_unicode_version(void) {
  static char text[U_MAX_VERSION_STRING_LENGTH];
  UVersionInfo v;
  u_getUnicodeVersion(v);
  u_versionToString(v, text);
  return text;
}
