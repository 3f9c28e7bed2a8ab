#include <png.h>

/* PNG_FORMAT_RGBA is a compound macro that Swift does not import. */
static const unsigned int galley_png_format_rgba = PNG_FORMAT_RGBA;
