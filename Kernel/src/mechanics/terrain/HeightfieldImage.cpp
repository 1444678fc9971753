// HeightfieldShape::fromImage: the heights of a grey-level PNG image, read by libpng.
#include <png.h>

#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/Error.hpp"
#include "nsdyn/HeightfieldShape.hpp"

namespace nsdyn {

namespace {

// The largest image read (pixels along x and y): the limit of the XML heightfields.
constexpr png_uint_32 kMaxSide = 4096;

struct File {
  std::FILE* f = nullptr;
  ~File() {
    if (f) std::fclose(f);
  }
};

// libpng reports errors through a longjmp; the message is kept for the nsdyn::Error.
struct Reader {
  png_structp png = nullptr;
  png_infop info = nullptr;
  char message[256] = "";
  ~Reader() { png_destroy_read_struct(&png, info ? &info : nullptr, nullptr); }
};

void onError(png_structp png, png_const_charp text) {
  auto* r = static_cast<Reader*>(png_get_error_ptr(png));
  std::snprintf(r->message, sizeof r->message, "%s", text);
  png_longjmp(png, 1);
}
void onWarning(png_structp, png_const_charp) {}

}  // namespace

std::shared_ptr<const HeightfieldShape> HeightfieldShape::fromImage(const std::string& path,
                                                                    double dx, double dy,
                                                                    double heightScale,
                                                                    double zOffset) {
  requirePositive(path, "dx", dx);
  requirePositive(path, "dy", dy);
  if (!std::isfinite(heightScale))
    throw Error(path, "a finite height scale (m per full grey level)",
                "heightScale = " + std::to_string(heightScale));
  if (!std::isfinite(zOffset))
    throw Error(path, "a finite height offset", "zOffset = " + std::to_string(zOffset));
  File file;
  file.f = std::fopen(path.c_str(), "rb");
  if (!file.f) throw Error(path, "a readable PNG image", "no such file or not readable");
  unsigned char signature[8] = {0};
  if (std::fread(signature, 1, 8, file.f) != 8 || png_sig_cmp(signature, 0, 8) != 0)
    throw Error(path, "a PNG image (heightfield)", "not a PNG file (wrong signature)");

  Reader r;
  r.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &r, onError, onWarning);
  if (r.png) r.info = png_create_info_struct(r.png);
  if (!r.png || !r.info) throw Error(path, "memory for the PNG reader", "out of memory");
  std::vector<png_bytep> rows;
  std::vector<unsigned char> pixels;
  png_uint_32 width = 0, height = 0;
  int depth = 0, channels = 0;
  if (setjmp(png_jmpbuf(r.png))) throw Error(path, "a valid PNG image", r.message);
  png_init_io(r.png, file.f);
  png_set_sig_bytes(r.png, 8);
  png_read_info(r.png, r.info);
  width = png_get_image_width(r.png, r.info);
  height = png_get_image_height(r.png, r.info);
  if (width < 2 || height < 2 || width > kMaxSide || height > kMaxSide)
    throw Error(path, "an image of 2 x 2 to 4096 x 4096 pixels",
                std::to_string(width) + " x " + std::to_string(height));
  const int colour = png_get_color_type(r.png, r.info);
  // grey levels as they are (no gamma), 1-4 bit grey widened to 8, palettes expanded, alpha
  // dropped; colour images become grey by the luma weights of libpng
  if (colour == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(r.png);
  if (colour == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(r.png, r.info) < 8)
    png_set_expand_gray_1_2_4_to_8(r.png);
  if (colour & PNG_COLOR_MASK_ALPHA) png_set_strip_alpha(r.png);
  if (colour == PNG_COLOR_TYPE_RGB || colour == PNG_COLOR_TYPE_RGB_ALPHA ||
      colour == PNG_COLOR_TYPE_PALETTE)
    png_set_rgb_to_gray_fixed(r.png, 1, -1, -1);
  png_read_update_info(r.png, r.info);
  depth = png_get_bit_depth(r.png, r.info);
  channels = png_get_channels(r.png, r.info);
  if (channels != 1 || (depth != 8 && depth != 16))
    throw Error(path, "a grey-level PNG image of 8 or 16 bits",
                std::to_string(channels) + " channels of " + std::to_string(depth) + " bits");
  const std::size_t stride = png_get_rowbytes(r.png, r.info);
  pixels.resize(stride * height);
  rows.resize(height);
  for (png_uint_32 y = 0; y < height; ++y) rows[y] = pixels.data() + stride * y;
  png_read_image(r.png, rows.data());
  png_read_end(r.png, nullptr);

  // image row 0 is the far edge (+y): grid row j = height - 1 - row, column i = pixel x
  const double full = depth == 16 ? 65535.0 : 255.0;
  std::vector<double> heights(static_cast<std::size_t>(width) * height);
  for (png_uint_32 row = 0; row < height; ++row) {
    const std::size_t j = height - 1 - row;
    for (png_uint_32 x = 0; x < width; ++x) {
      double level = 0.0;
      if (depth == 16) {  // big-endian samples
        level = 256.0 * rows[row][2 * x] + rows[row][2 * x + 1];
      } else {
        level = rows[row][x];
      }
      heights[j * width + x] = zOffset + heightScale * level / full;
    }
  }
  return std::make_shared<const HeightfieldShape>(width, height, dx, dy, std::move(heights), path);
}

}  // namespace nsdyn
