#ifndef GALLEY_ICU_H
#define GALLEY_ICU_H
// Plain-named wrappers over ICU's version-suffixed C API. No ICU types appear here, so that the
// Swift module importing this header never sees ICU's headers (see TOOLCHAIN.md).
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Line-break opportunities of UTF-16 text by UAX #14 as tailored by ICU for `locale`
/// (e.g. "ko", "ja@lb=normal"). Writes up to `capacity` UTF-16 offsets (each > 0, ascending, the
/// last being `length`) into `offsets`, and for each one 1 when it is a mandatory (hard) break,
/// else 0. Returns the number of offsets, or a negative value on an ICU error. Thread-safe:
/// iterators are cached per thread and per locale.
int32_t galley_line_breaks_utf16(const uint16_t *text, int32_t length, const char *locale,
                                 int32_t *offsets, uint8_t *hard, int32_t capacity);

/// The UAX #14 line-break class of a code point (ICU's ULineBreak value).
int32_t galley_line_break_class(uint32_t codepoint);

/// The Unicode general category of a code point (ICU's UCharCategory value).
int32_t galley_char_type(uint32_t codepoint);

/// The Unicode joining type of a code point (ICU's UJoiningType value: 0 non-joining, 1 join
/// causing, 2 dual joining, 3 left joining, 4 right joining, 5 transparent).
int32_t galley_joining_type(uint32_t codepoint);

/// Whether a code point has Unicode's Default_Ignorable_Code_Point property (1) or not (0).
int32_t galley_is_default_ignorable(uint32_t codepoint);

/// Whether a code point has Unicode's White_Space property (1) or not (0).
int32_t galley_is_white_space(uint32_t codepoint);

/// Whether a code point's East_Asian_Width is Wide or Fullwidth (1) or not (0).
int32_t galley_is_wide(uint32_t codepoint);

/// A code point's Hangul_Syllable_Type (ICU's UHangulSyllableType value: 0 not applicable,
/// 1 leading jamo, 2 vowel jamo, 3 trailing jamo, 4 LV syllable, 5 LVT syllable).
int32_t galley_hangul_syllable_type(uint32_t codepoint);

/// Whether a code point is a Hangul jamo (1) or not (0): a conjoining one (Hangul_Syllable_Type
/// L, V or T) or one of the Hangul Compatibility Jamo block.
int32_t galley_is_jamo(uint32_t codepoint);

/// A code point's Script property (ICU's UScriptCode value: 0 Common, 1 Inherited, 25 Latin…).
int32_t galley_script(uint32_t codepoint);

/// Whether a code point has Unicode's Regional_Indicator property (1) or not (0).
int32_t galley_is_regional_indicator(uint32_t codepoint);

/// Whether a code point has Unicode's Emoji_Presentation property (1) or not (0).
int32_t galley_is_emoji_presentation(uint32_t codepoint);

/// Whether a code point has Unicode's Extended_Pictographic property (1) or not (0).
int32_t galley_is_extended_pictographic(uint32_t codepoint);

/// Whether a code point has Unicode's Emoji_Modifier property (a skin tone) (1) or not (0).
int32_t galley_is_emoji_modifier(uint32_t codepoint);

/// Whether a code point has Unicode's Emoji_Modifier_Base property (takes a skin tone) (1) or
/// not (0).
int32_t galley_is_emoji_modifier_base(uint32_t codepoint);

/// Whether ICU's line iterator for "en" reports a break between the two code points when they
/// stand alone as a two-character string. Returns 1, 0, or a negative error.
int32_t galley_pair_breaks(uint32_t first, uint32_t second);

/// Bidi embedding levels for UTF-16 text. `direction`: 0 LTR, 1 RTL, -1 auto (first strong).
/// Writes one level per UTF-16 unit into `levels`; returns the paragraph level (0/1) or a
/// negative ICU error code.
int32_t galley_bidi_levels(const uint16_t *text, int32_t length, int32_t direction,
                           uint8_t *levels);

/// The `index`th ISO 639 language code ICU knows (two letters, or three where there is no
/// two-letter code), or NULL past the end. Static storage.
const char *galley_iso_language(int32_t index);

/// ICU's own version, as "72.1" etc. (static storage; written once per call, the same text).
const char *galley_icu_version(void);

/// The Unicode version ICU implements, as "15.0" etc. (static storage).
const char *galley_unicode_version(void);

/// The Bidi_Paired_Bracket_Type of a code point: 0 none, 1 open, 2 close.
int32_t galley_paired_bracket_type(uint32_t codepoint);

/// The code points of the Basic Multilingual Plane that have a Bidi_Paired_Bracket_Type: code
/// point, type (1 open, 2 close) for each, written while `capacity` (in values) allows;
/// returns how many values they all take.
int32_t galley_paired_brackets(uint32_t *out, int32_t capacity);

/// The Bidi_Paired_Bracket of a code point (itself when it has none).
uint32_t galley_paired_bracket(uint32_t codepoint);

/// Whether a code point's East_Asian_Width is wide, fullwidth or halfwidth.
int32_t galley_is_east_asian(uint32_t codepoint);

/// ICU's script code (UScriptCode) of an ISO 15924 short name, -1 when ICU has none.
int32_t galley_script_code(const char *name);

#ifdef __cplusplus
}
#endif
#endif
