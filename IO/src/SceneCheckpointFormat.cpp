// The scene checkpoint file NSDYNSCP: encoding, and decoding that trusts nothing (every count
// bounded by the bytes left before anything is allocated, then the checksum and the values).
#include "SceneCheckpointFormat.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <tuple>

#include "Fnv.hpp"
#include "nsdyn/Error.hpp"

namespace nsdyn::io::scenecp {

using detail::bitsOf;
using detail::doubleOf;
using detail::Fnv;

// splitmix64's finaliser: the per-body hashes are summed, so each is mixed first.
std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

std::string hex(std::uint64_t v) {
  char s[24];
  std::snprintf(s, sizeof s, "%016llx", static_cast<unsigned long long>(v));
  return s;
}

std::string number(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

bool unitQuaternion(const double* r) {
  const double n = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
  return std::fabs(n - 1.0) <= kUnitTolerance;
}

double quaternionNorm(const double* r) {
  return std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
}

// The sub-key (shapes and features, 22 bits) of the same contact seen from the other body.
std::uint64_t swapSides(std::uint64_t sub) {
  const std::uint64_t shapeA = (sub >> 16) & 0x3F, shapeB = (sub >> 10) & 0x3F;
  const std::uint64_t featureA = (sub >> 5) & 0x1F, featureB = sub & 0x1F;
  return (shapeB << 16) | (shapeA << 10) | (featureB << 5) | featureA;
}

std::uint64_t digestOf(const SceneFingerprint& fp, std::uint64_t basis) {
  Fnv h(basis);
  h.add64(fp.items.size());
  for (const auto& [name, hash] : fp.items) {
    h.addString(name);
    h.add64(hash);
  }
  return h.h;
}

// ---------------------------------------------------------------- the records

void Bytes::f64(double v) {
  u64(bitsOf(v));
}

std::string encode(const Content& c) {
  Bytes b;
  b.out.reserve(kHeaderBytes + 64 + 40 * c.items.items.size() + kBodyBytes * c.bodies.size() +
                kMemoryBytes * c.memory.size() + kTrailerBytes);
  b.out.append(kMagic, 8);
  b.u32(kFormat);
  b.u32(0);
  b.u64(c.fingerprint);
  b.u64(c.items.items.size());
  for (const auto& [name, hash] : c.items.items) {
    b.str(name);
    b.u64(hash);
  }
  b.u64(static_cast<std::uint64_t>(c.steps));
  b.f64(c.time);
  b.u64(c.bodies.size());
  for (const BodyRecord& r : c.bodies) {
    b.u64(static_cast<std::uint64_t>(r.id));
    b.u64(r.hash);
    for (double x : r.q) b.f64(x);
    for (double x : r.v) b.f64(x);
  }
  b.u64(c.memory.size());
  for (const MemoryRecord& m : c.memory) {
    b.u64(static_cast<std::uint64_t>(m.idA));
    b.u64(static_cast<std::uint64_t>(m.idB));
    b.u64(m.sub);
    b.f64(m.normal);
    for (double x : m.tangential) b.f64(x);
  }
  b.u64(c.hasRun ? 1 : 0);
  if (c.hasRun) {
    const SceneRunRecord& run = c.run;
    b.u64(run.outputs.size());
    for (const SceneRunRecord::Output& o : run.outputs) {
      b.str(o.name);
      b.u64(o.columns);
      b.str(o.spool);
      b.u64(o.spooled);
      b.u64(o.rows.size());
      for (const std::vector<double>& row : o.rows)
        for (double x : row) b.f64(x);
      for (double x : o.sums) b.f64(x);
      b.u64(o.pendingNext ? 1 : 0);
    }
    b.u64(run.values.size());
    for (double x : run.values) b.f64(x);
    b.str(run.message);
  }
  Fnv sum;
  sum.add(b.out.data(), b.out.size());
  b.u64(sum.h);
  return std::move(b.out);
}

namespace {

std::uint32_t u32At(const std::string& d, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i)
    v |= static_cast<std::uint32_t>(static_cast<unsigned char>(d[at + static_cast<std::size_t>(i)]))
         << (8 * i);
  return v;
}
std::uint64_t u64At(const std::string& d, std::size_t at) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(d[at + static_cast<std::size_t>(i)]))
         << (8 * i);
  return v;
}

// Format 2's run record (SceneRunRecord), every count bounded by the bytes left.
void decodeRun(Reader& r, Content& c) {
  const std::size_t at = r.position();
  const std::uint64_t flag = r.u64("the run record flag");
  if (flag > 1) throw Bad{at, "a run record flag of " + std::to_string(flag) + " (0 or 1)"};
  c.hasRun = flag == 1;
  if (!c.hasRun) return;
  const std::size_t outputs = r.count("outputs", kOutputBytes);
  c.run.outputs.resize(outputs);
  for (SceneRunRecord::Output& o : c.run.outputs) {
    o.name = r.str("an output's name");
    const std::size_t columns = r.count("an output's columns", 8);  // its sums at least
    if (columns == 0) throw Bad{r.position() - 8, "an output of 0 columns"};
    o.columns = columns;
    o.spool = r.str("an output's spool file");
    o.spooled = r.u64("an output's spooled rows");
    const std::size_t rows = r.count("an output's rows", 8 * columns);
    o.rows.assign(rows, std::vector<double>(columns));
    for (std::vector<double>& row : o.rows)
      for (double& x : row) x = r.f64("a row's value");
    o.sums.resize(columns);
    for (double& x : o.sums) x = r.f64("an output's running sum");
    const std::size_t p = r.position();
    const std::uint64_t pending = r.u64("an output's pending row flag");
    if (pending > 1) throw Bad{p, "a pending row flag of " + std::to_string(pending) + " (0 or 1)"};
    o.pendingNext = pending == 1;
  }
  const std::size_t values = r.count("the run's values", 8);
  c.run.values.resize(values);
  for (double& x : c.run.values) x = r.f64("a run value");
  c.run.message = r.str("the run's failure message");
}

// The run record's values that the file alone shows: named outputs, at most a row per step
// and row 0 (spooled and in the file), no spooled rows without a spool file.
template <class Bad>
void checkRun(const Content& c, const Bad& bad) {
  if (!c.hasRun) return;
  const std::uint64_t bound = static_cast<std::uint64_t>(c.steps) + 1;
  for (std::size_t k = 0; k < c.run.outputs.size(); ++k) {
    const SceneRunRecord::Output& o = c.run.outputs[k];
    const std::string output = "output " + std::to_string(k) + " ('" + o.name + "')";
    if (o.name.empty()) bad("named outputs in the run record", output + ": an empty name");
    if (o.spooled > bound || o.rows.size() > bound - o.spooled)
      bad("at most " + std::to_string(bound) + " rows (one a step and row 0) after " +
              std::to_string(c.steps) + " steps",
          output + ": " + std::to_string(o.spooled) + " spooled and " +
              std::to_string(o.rows.size()) + " in the file");
    if (o.spooled > 0 && o.spool.empty())
      bad("a spool file for spooled rows",
          output + ": " + std::to_string(o.spooled) + " spooled rows and no spool file");
  }
  for (std::size_t k = 0; k < c.run.values.size(); ++k)
    if (!std::isfinite(c.run.values[k]))
      bad("finite run values", "value " + std::to_string(k) + ": " + number(c.run.values[k]));
}

}  // namespace

// Decode and check what the file alone shows (nsdyn::Error naming @p where).
Content decode(const std::string& data, const std::string& where, bool verifyChecksum) {
  if (data.size() < 8 || data.compare(0, 8, kMagic, 8) != 0) {
    std::string found;
    if (data.compare(0, 8, "NSDYNCKP") == 0)
      found = "a checkpoint of a model run (NSDYNCKP: nsdyn run --restart reads it)";
    else if (data.compare(0, 8, "NSDYNDCP") == 0)
      found =
          "a checkpoint of the removed DistributedScene (NSDYNDCP, before issue 22: no longer "
          "read; "
          "restart the run from its model file)";
    else if (data.empty())
      found = "an empty file";
    else
      found =
          "a file that is not one (no NSDYNSCP header; " + std::to_string(data.size()) + " bytes)";
    throw Error(where, "a scene checkpoint", found);
  }
  if (data.size() < kHeaderBytes + kTrailerBytes)
    throw Error(where, "a complete scene checkpoint",
                "a truncated file (" + std::to_string(data.size()) + " bytes, fewer than the " +
                    std::to_string(kHeaderBytes + kTrailerBytes) + " of the header and checksum)");
  Content c;
  c.format = u32At(data, 8);
  if (c.format < kOldestFormat || c.format > kFormat)
    throw Error(where,
                "scene checkpoint format " + std::to_string(kOldestFormat) + " to " +
                    std::to_string(kFormat),
                "format " + std::to_string(c.format) +
                    " (written by another version of nsdyn, or damaged)");
  const std::size_t end = data.size() - kTrailerBytes;
  try {
    if (u32At(data, 12) != 0) throw Bad{12, "the reserved field is not 0"};
    Reader r(data, kHeaderBytes, end);
    c.fingerprint = r.u64("the fingerprint");
    const std::size_t items = r.count("fingerprint items", kItemBytes);
    for (std::size_t i = 0; i < items; ++i) {
      std::string name = r.str("a fingerprint item's name");
      const std::uint64_t hash = r.u64("a fingerprint item's hash");
      c.items.items.emplace_back(std::move(name), hash);
    }
    c.steps = r.i64("the step count");
    c.time = r.f64("the time");
    const std::size_t nb = r.count("bodies", kBodyBytes);
    c.bodies.resize(nb);  // bounded by the bytes left
    for (BodyRecord& b : c.bodies) {
      b.id = r.i64("a body id");
      b.hash = r.u64("a body hash");
      for (double& x : b.q) x = r.f64("a body position");
      for (double& x : b.v) x = r.f64("a body velocity");
    }
    const std::size_t nm = r.count("contact memory entries", kMemoryBytes);
    c.memory.resize(nm);
    for (MemoryRecord& m : c.memory) {
      m.idA = r.i64("a contact's first body id");
      m.idB = r.i64("a contact's second body id");
      m.sub = r.u64("a contact's shapes and features");
      m.normal = r.f64("a contact's normal impulse");
      for (double& x : m.tangential) x = r.f64("a contact's tangential impulse");
    }
    if (c.format >= 2) decodeRun(r, c);
    if (r.position() != end)
      throw Bad{r.position(), std::to_string(end - r.position()) + " bytes after the last record"};
  } catch (const Bad& b) {
    throw Error(
        where, "a complete scene checkpoint",
        "a truncated or corrupted file (byte " + std::to_string(b.at) + ": " + b.what + ")");
  }
  Fnv sum(basisOf(c.format));
  sum.add(data.data(), end);
  const std::uint64_t stored = u64At(data, end);
  if (verifyChecksum && stored != sum.h)
    throw Error(
        where, "a matching checksum",
        "a corrupted file (checksum " + hex(stored) + " stored, " + hex(sum.h) + " computed)");

  // the values
  const auto bad = [&](const std::string& expected, const std::string& found) {
    throw Error(where, expected, found + " (a corrupted file)");
  };
  const std::uint64_t digest = digestOf(c.items, basisOf(c.format));
  if (digest != c.fingerprint)
    bad("a fingerprint equal to the digest of its items",
        "fingerprint " + hex(c.fingerprint) + ", digest " + hex(digest));
  // the body items of the fingerprint are those of the records: the count, and the sum of the
  // mixed body hashes (the engine's fingerprint is compared with the items at load)
  const auto item = [&](const char* name) -> const std::uint64_t* {
    for (const auto& [n, h] : c.items.items)
      if (n == name) return &h;
    return nullptr;
  };
  const std::uint64_t* count = item("body count");
  const std::uint64_t* bodiesItem = item("bodies");
  if (!count || !bodiesItem)
    bad("the fingerprint items 'body count' and 'bodies'",
        std::to_string(c.items.items.size()) + " items without them");
  if (*count != c.bodies.size())
    bad("as many body records as the fingerprint's body count (" + std::to_string(*count) + ")",
        std::to_string(c.bodies.size()) + " body records");
  std::uint64_t hashes = 0;
  for (const BodyRecord& b : c.bodies) hashes += mix(b.hash);
  if (hashes != *bodiesItem)
    bad("body hashes whose sum is the fingerprint's 'bodies' item (" + hex(*bodiesItem) + ")",
        "a sum of " + hex(hashes) + " (a body's hash changed: its mass, inertia, loads or shapes)");
  if (c.steps < 0) bad("a step count >= 0", std::to_string(c.steps));
  if (!std::isfinite(c.time)) bad("a finite time", number(c.time));
  for (std::size_t k = 0; k < c.bodies.size(); ++k) {
    const BodyRecord& b = c.bodies[k];
    const std::string body =
        "body record " + std::to_string(k) + " (id " + std::to_string(b.id) + ")";
    if (b.id < 0) bad("body ids >= 0", body);
    if (k > 0 && b.id <= c.bodies[k - 1].id)
      bad("body ids strictly increasing", body + " after id " + std::to_string(c.bodies[k - 1].id));
    for (double x : b.q)
      if (!std::isfinite(x)) bad("a finite position and orientation", body + ": " + number(x));
    for (double x : b.v)
      if (!std::isfinite(x)) bad("a finite velocity", body + ": " + number(x));
    if (!unitQuaternion(b.q + 3))
      bad("a unit quaternion (within 1e-9)", body + ": norm " + number(quaternionNorm(b.q + 3)));
  }
  const auto hasBody = [&](std::int64_t id) {
    const auto it = std::lower_bound(c.bodies.begin(), c.bodies.end(), id,
                                     [](const BodyRecord& b, std::int64_t x) { return b.id < x; });
    return it != c.bodies.end() && it->id == id;
  };
  for (std::size_t k = 0; k < c.memory.size(); ++k) {
    const MemoryRecord& m = c.memory[k];
    const std::string entry = "contact memory entry " + std::to_string(k) + " (bodies " +
                              std::to_string(m.idA) + ", " + std::to_string(m.idB) + ")";
    if (!(m.idA < m.idB)) bad("the lower body id first", entry);
    if (m.sub > kSubMask)
      bad("shapes and features below 2^22", entry + ": " + std::to_string(m.sub));
    if (k > 0) {
      const MemoryRecord& p = c.memory[k - 1];
      if (!(std::tie(p.idA, p.idB, p.sub) < std::tie(m.idA, m.idB, m.sub)))
        bad("contact memory entries sorted and distinct", entry + " not after the previous one");
    }
    if (!hasBody(m.idA) || !hasBody(m.idB)) bad("contacts between bodies of the checkpoint", entry);
    if (!std::isfinite(m.normal)) bad("finite impulses", entry + ": " + number(m.normal));
    for (double x : m.tangential)
      if (!std::isfinite(x)) bad("finite impulses", entry + ": " + number(x));
  }
  checkRun(c, bad);
  return c;
}

std::string readFile(const std::string& path, const std::string& where) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(where, "a readable file",
                std::string(errno ? std::strerror(errno) : "it cannot be opened"));
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) throw Error(where, "a readable file", "a read error");
  return s.str();
}

}  // namespace nsdyn::io::scenecp
