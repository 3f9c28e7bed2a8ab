#include "galley_icu.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/ubidi.h>
#include <unicode/ubrk.h>
#include <unicode/uloc.h>
#include <unicode/uscript.h>
#include <unicode/uchar.h>
#include <unicode/utf16.h>
#include <unicode/uversion.h>

#define GALLEY_LOCALE_CACHE 8

typedef struct {
  char locale[48];
  UBreakIterator *iterator;
} galley_cached_iterator;

/// One thread's line iterators, on the heap: a thread-specific key closes them when the thread
/// ends (a plain __thread array leaked up to 8 ICU iterators per thread that ever broke lines,
/// and thread pools come and go).
typedef struct {
  galley_cached_iterator slots[GALLEY_LOCALE_CACHE];
  int next;
} galley_iterator_cache;

static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;
static int cache_key_ok = 0;

static void cache_destroy(void *p) {
  galley_iterator_cache *c = p;
  for (int i = 0; i < GALLEY_LOCALE_CACHE; i++) {
    if (c->slots[i].iterator) ubrk_close(c->slots[i].iterator);
  }
  free(c);
}

static void cache_key_create(void) { cache_key_ok = pthread_key_create(&cache_key, cache_destroy) == 0; }

static galley_iterator_cache *thread_cache(void) {
  pthread_once(&cache_once, cache_key_create);
  if (!cache_key_ok) return NULL;
  galley_iterator_cache *c = pthread_getspecific(cache_key);
  if (!c) {
    c = calloc(1, sizeof *c);
    if (!c) return NULL;
    if (pthread_setspecific(cache_key, c) != 0) {
      free(c);
      return NULL;
    }
  }
  return c;
}

/// The calling thread's line iterator for `locale`, opened on first use. With no cache (out of
/// memory), the iterator is opened for one use and `*owned` is set: the caller closes it.
static UBreakIterator *line_iterator(const char *locale, UErrorCode *status, int *owned) {
  *owned = 0;
  galley_iterator_cache *cache = thread_cache();
  if (cache) {
    for (int i = 0; i < GALLEY_LOCALE_CACHE; i++) {
      galley_cached_iterator *slot = &cache->slots[i];
      if (slot->iterator && strncmp(slot->locale, locale, sizeof slot->locale) == 0) {
        return slot->iterator;
      }
    }
  }
  UBreakIterator *it = ubrk_open(UBRK_LINE, locale, NULL, 0, status);
  if (U_FAILURE(*status)) return NULL;
  if (!cache) {
    *owned = 1;
    return it;
  }
  galley_cached_iterator *slot = &cache->slots[cache->next];
  cache->next = (cache->next + 1) % GALLEY_LOCALE_CACHE;
  if (slot->iterator) ubrk_close(slot->iterator);
  strncpy(slot->locale, locale, sizeof slot->locale - 1);
  slot->locale[sizeof slot->locale - 1] = 0;
  slot->iterator = it;
  return it;
}

int32_t galley_line_breaks_utf16(const uint16_t *text, int32_t length, const char *locale,
                                 int32_t *offsets, uint8_t *hard, int32_t capacity) {
  UErrorCode status = U_ZERO_ERROR;
  int owned = 0;
  UBreakIterator *it = line_iterator(locale ? locale : "", &status, &owned);
  if (!it) return -1;
  ubrk_setText(it, (const UChar *)text, length, &status);
  if (U_FAILURE(status)) {
    if (owned) ubrk_close(it);
    return -1;
  }
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
  if (owned) ubrk_close(it);
  return count;
}

int32_t galley_line_break_class(uint32_t codepoint) {
  return u_getIntPropertyValue((UChar32)codepoint, UCHAR_LINE_BREAK);
}

int32_t galley_char_type(uint32_t codepoint) { return (int32_t)u_charType((UChar32)codepoint); }

int32_t galley_joining_type(uint32_t codepoint) {
  return u_getIntPropertyValue((UChar32)codepoint, UCHAR_JOINING_TYPE);
}

int32_t galley_is_default_ignorable(uint32_t codepoint) {
  return u_hasBinaryProperty((UChar32)codepoint, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) ? 1 : 0;
}

int32_t galley_is_white_space(uint32_t codepoint) {
  return u_hasBinaryProperty((UChar32)codepoint, UCHAR_WHITE_SPACE) ? 1 : 0;
}

int32_t galley_is_wide(uint32_t codepoint) {
  int32_t w = u_getIntPropertyValue((UChar32)codepoint, UCHAR_EAST_ASIAN_WIDTH);
  return (w == U_EA_WIDE || w == U_EA_FULLWIDTH) ? 1 : 0;
}

int32_t galley_hangul_syllable_type(uint32_t codepoint) {
  return u_getIntPropertyValue((UChar32)codepoint, UCHAR_HANGUL_SYLLABLE_TYPE);
}

int32_t galley_is_jamo(uint32_t codepoint) {
  int32_t type = u_getIntPropertyValue((UChar32)codepoint, UCHAR_HANGUL_SYLLABLE_TYPE);
  if (type == U_HST_LEADING_JAMO || type == U_HST_VOWEL_JAMO || type == U_HST_TRAILING_JAMO) {
    return 1;
  }
  return ublock_getCode((UChar32)codepoint) == UBLOCK_HANGUL_COMPATIBILITY_JAMO ? 1 : 0;
}

int32_t galley_script(uint32_t codepoint) {
  UErrorCode status = U_ZERO_ERROR;
  UScriptCode script = uscript_getScript((UChar32)codepoint, &status);
  return U_SUCCESS(status) ? (int32_t)script : USCRIPT_INVALID_CODE;
}

int32_t galley_is_regional_indicator(uint32_t codepoint) {
  return u_hasBinaryProperty((UChar32)codepoint, UCHAR_REGIONAL_INDICATOR) ? 1 : 0;
}

int32_t galley_is_emoji_presentation(uint32_t codepoint) {
  return u_hasBinaryProperty((UChar32)codepoint, UCHAR_EMOJI_PRESENTATION) ? 1 : 0;
}

int32_t galley_is_extended_pictographic(uint32_t codepoint) {
  return u_hasBinaryProperty((UChar32)codepoint, UCHAR_EXTENDED_PICTOGRAPHIC) ? 1 : 0;
}

int32_t galley_is_emoji_modifier(uint32_t codepoint) {
  return u_hasBinaryProperty((UChar32)codepoint, UCHAR_EMOJI_MODIFIER) ? 1 : 0;
}

int32_t galley_is_emoji_modifier_base(uint32_t codepoint) {
  return u_hasBinaryProperty((UChar32)codepoint, UCHAR_EMOJI_MODIFIER_BASE) ? 1 : 0;
}

int32_t galley_pair_breaks(uint32_t first, uint32_t second) {
  UErrorCode status = U_ZERO_ERROR;
  int owned = 0;
  UBreakIterator *it = line_iterator("en", &status, &owned);
  if (!it) return -1;
  UChar buf[4];
  int32_t n = 0;
  UBool error = 0;
  U16_APPEND((UChar *)buf, n, 4, (UChar32)first, error);
  int32_t split = n;
  U16_APPEND((UChar *)buf, n, 4, (UChar32)second, error);
  int32_t result = -1;
  if (!error) {
    ubrk_setText(it, buf, n, &status);
    if (U_SUCCESS(status)) result = ubrk_isBoundary(it, split) ? 1 : 0;
    ubrk_setText(it, NULL, 0, &status);
  }
  if (owned) ubrk_close(it);
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

const char *galley_icu_version(void) {
  static char text[U_MAX_VERSION_STRING_LENGTH];
  UVersionInfo v;
  u_getVersion(v);
  u_versionToString(v, text);
  return text;
}

const char *galley_iso_language(int32_t index) {
  const char *const *list = uloc_getISOLanguages();
  for (int32_t i = 0; list && list[i]; i++) {
    if (i == index) return list[i];
  }
  return NULL;
}

int32_t galley_paired_bracket_type(uint32_t codepoint) {
  return u_getIntPropertyValue((UChar32)codepoint, UCHAR_BIDI_PAIRED_BRACKET_TYPE);
}

int32_t galley_paired_brackets(uint32_t *out, int32_t capacity) {
  // Paired brackets are opening or closing punctuation (an invariant of the property): only
  // those code points are asked their type. (ScriptRunsTests holds the result equal to asking
  // every code point.)
  int32_t n = 0;
  for (UChar32 c = 0; c < 0x10000; c++) {
    int8_t category = u_charType(c);
    if (category != U_START_PUNCTUATION && category != U_END_PUNCTUATION) continue;
    int32_t type = u_getIntPropertyValue(c, UCHAR_BIDI_PAIRED_BRACKET_TYPE);
    if (type == 0) continue;
    if (n + 2 <= capacity) {
      out[n] = (uint32_t)c;
      out[n + 1] = (uint32_t)type;
    }
    n += 2;
  }
  return n;
}

uint32_t galley_paired_bracket(uint32_t codepoint) {
  return (uint32_t)u_getBidiPairedBracket((UChar32)codepoint);
}

int32_t galley_is_east_asian(uint32_t codepoint) {
  int32_t w = u_getIntPropertyValue((UChar32)codepoint, UCHAR_EAST_ASIAN_WIDTH);
  return (w == U_EA_WIDE || w == U_EA_FULLWIDTH || w == U_EA_HALFWIDTH) ? 1 : 0;
}

int32_t galley_script_code(const char *name) {
  return u_getPropertyValueEnum(UCHAR_SCRIPT, name);
}
