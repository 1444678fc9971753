// FNV-1a 64-bit hashing of bytes, the checksum and fingerprint of nsdyn's checkpoint files
// (Checkpoint.cpp, SceneCheckpoint.cpp), and the bit conversions of doubles they use.
// Private to IO.
//
// Fnv is the standard FNV-1a 64 (offset basis 14695981039346656037, prime 1099511628211):
// scene checkpoints from format 2 on. LegacyFnv is the same loop from the offset basis
// 1469598103934665603 (a digit short of the standard one), which nsdyn used before: the model
// checkpoint NSDYNCKP format 4 still uses it (doc/robustness.md calls it "nsdyn's FNV-1a
// variant"), and scene checkpoints of format 1 are read with it.
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

constexpr std::uint64_t kFnvOffsetBasis = 14695981039346656037ULL;  // FNV-1a 64, standard
constexpr std::uint64_t kFnvPrime = 1099511628211ULL;
constexpr std::uint64_t kLegacyFnvBasis = 1469598103934665603ULL;  // nsdyn's, before

struct Fnv {
  explicit Fnv(std::uint64_t basis = kFnvOffsetBasis) : h(basis) {}
  std::uint64_t h;
  void add(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
      h ^= p[i];
      h *= kFnvPrime;
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

/// nsdyn's FNV-1a variant (offset basis kLegacyFnvBasis): checkpoints NSDYNCKP format 4 and
/// the scene checkpoints of format 1.
struct LegacyFnv : Fnv {
  LegacyFnv() : Fnv(kLegacyFnvBasis) {}
};

}  // namespace nsdyn::io::detail

#endif
