// FNV-1a 64-bit hashing of bytes, the checksum and fingerprint of nsdyn's checkpoint files
// (Checkpoint.cpp, SceneCheckpoint.cpp), and the bit conversions of doubles they use.
// Private to IO.
#ifndef NSDYN_IO_FNV_HPP
#define NSDYN_IO_FNV_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace nsdyn::io::detail {

inline std::uint64_t bitsOf(double v) {
  std::uint64_t u = 0;
  std::memcpy(&u, &v, 8);
  return u;
}

inline double doubleOf(std::uint64_t u) {
  double v = 0.0;
  std::memcpy(&v, &u, 8);
  return v;
}

struct Fnv {
  std::uint64_t h = 1469598103934665603ULL;
  void add(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
      h ^= p[i];
      h *= 1099511628211ULL;
    }
  }
  void add64(std::uint64_t v) {
    unsigned char b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(v >> (8 * i));
    add(b, 8);
  }
  void addDouble(double v) { add64(bitsOf(v)); }
  void addString(const std::string& s) {
    add64(s.size());
    add(s.data(), s.size());
  }
};

}  // namespace nsdyn::io::detail

#endif
