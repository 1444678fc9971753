// The scene checkpoint file NSDYNSCP (nsdyn/io/SceneCheckpoint.hpp has its byte layout): its
// records in memory, their encoding and the decoding that checks what the file alone shows.
// Private to IO (SceneCheckpoint.cpp saves and loads engines with it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "Fnv.hpp"
#include "nsdyn/io/SceneCheckpoint.hpp"

namespace nsdyn::io::scenecp {

constexpr char kMagic[8] = {'N', 'S', 'D', 'Y', 'N', 'S', 'C', 'P'};
// 1: the checksum and fingerprints with nsdyn's FNV-1a variant (LegacyFnv), no run record;
// 2: the standard FNV-1a 64, then the run record of `nsdyn run` (SceneRunRecord) if any
constexpr std::uint32_t kFormat = 2;
constexpr std::uint32_t kOldestFormat = 1;
constexpr std::size_t kHeaderBytes = 16;                 // magic, format, reserved
constexpr std::size_t kTrailerBytes = 8;                 // checksum
constexpr std::size_t kItemBytes = 16;                   // at least: name length, hash
constexpr std::size_t kBodyBytes = 8 + 8 + 13 * 8;       // id, hash, q, v
constexpr std::size_t kMemoryBytes = 8 + 8 + 8 + 4 * 8;  // idA, idB, sub, normal, tangential
constexpr std::uint64_t kSubMask = (std::uint64_t(1) << 22) - 1;  // shapes and features of a key
constexpr std::uint64_t kBodyMask = (std::uint64_t(1) << 21) - 1;
constexpr double kUnitTolerance = 1e-9;
constexpr std::size_t kListed = 4;        // differing bodies named in a message
constexpr std::size_t kOutputBytes = 48;  // at least: name, columns, spool, spooled, rows, pending

/// The offset basis of the checksum and the fingerprints of a file of @p format.
inline std::uint64_t basisOf(std::uint32_t format) {
  return format < 2 ? detail::kLegacyFnvBasis : detail::kFnvOffsetBasis;
}
/// SceneFingerprint::digest() from the offset basis @p basis.
std::uint64_t digestOf(const SceneFingerprint& fp, std::uint64_t basis);

/// splitmix64's finaliser: the per-body hashes are summed, so each is mixed first.
std::uint64_t mix(std::uint64_t x);
std::string hex(std::uint64_t v);
/// 17 significant digits.
std::string number(double x);
bool unitQuaternion(const double* r);
double quaternionNorm(const double* r);
/// The sub-key (shapes and features, 22 bits) of the same contact seen from the other body.
std::uint64_t swapSides(std::uint64_t sub);

struct BodyRecord {
  std::int64_t id = 0;
  std::uint64_t hash = 0;
  double q[7] = {};
  double v[6] = {};
};

struct MemoryRecord {
  std::int64_t idA = 0, idB = 0;
  std::uint64_t sub = 0;
  double normal = 0.0;
  double tangential[3] = {};
};

/// A whole file's content.
struct Content {
  std::uint32_t format = kFormat;
  std::uint64_t fingerprint = 0;
  SceneFingerprint items;
  std::int64_t steps = 0;
  double time = 0.0;
  std::vector<BodyRecord> bodies;
  std::vector<MemoryRecord> memory;
  bool hasRun = false;  // format 2: a run record follows the memory
  SceneRunRecord run;
};

/// Little-endian bytes.
class Bytes {
 public:
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
  }
  void f64(double v);
  void str(const std::string& s) {
    u64(s.size());
    out += s;
  }
  std::string out;
};

// A record decoding failed: at which byte, what (turned into an nsdyn::Error by decode()).
struct Bad {
  std::size_t at;
  std::string what;
};

class Reader {
 public:
  Reader(const std::string& data, std::size_t begin, std::size_t end)
      : d_(data), pos_(begin), end_(end) {}

  std::uint64_t u64(const char* what) {
    if (end_ - pos_ < 8)
      throw Bad{pos_, std::string("end of the records where ") + what + " was expected"};
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v |= static_cast<std::uint64_t>(static_cast<unsigned char>(d_[pos_ + i])) << (8 * i);
    pos_ += 8;
    return v;
  }
  std::int64_t i64(const char* what) { return static_cast<std::int64_t>(u64(what)); }
  double f64(const char* what) { return detail::doubleOf(u64(what)); }
  std::string str(const char* what) {
    const std::size_t at = pos_;
    const std::uint64_t n = u64(what);
    if (n > end_ - pos_)
      throw Bad{at, std::string(what) + ": a string of " + std::to_string(n) + " bytes, " +
                        std::to_string(end_ - pos_) + " left"};
    std::string s = d_.substr(pos_, static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
    return s;
  }
  // A count of elements of at least @p per bytes each: refused when they cannot fit in the
  // bytes left (before anything is allocated).
  std::size_t count(const char* what, std::size_t per) {
    const std::size_t at = pos_;
    const std::uint64_t n = u64(what);
    if (n > (end_ - pos_) / per)
      throw Bad{at, std::string(what) + ": a count of " + std::to_string(n) + " records of " +
                        std::to_string(per) + " bytes, but only " + std::to_string(end_ - pos_) +
                        " bytes left"};
    return static_cast<std::size_t>(n);
  }
  std::size_t position() const { return pos_; }

 private:
  const std::string& d_;
  std::size_t pos_, end_;
};

/// The file's bytes, checksum included.
std::string encode(const Content& c);
/// Decode and check what the file alone shows (nsdyn::Error naming @p where).
Content decode(const std::string& data, const std::string& where, bool verifyChecksum);
/// The bytes of @p path (nsdyn::Error naming @p where).
std::string readFile(const std::string& path, const std::string& where);

}  // namespace nsdyn::io::scenecp
