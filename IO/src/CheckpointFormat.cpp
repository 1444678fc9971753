// Encoding and decoding of format-4 checkpoints (Checkpoint.cpp's top comment has the byte
// layout): one transfer() of the records for both directions, the header, the checksum and the
// checks of a decoded file.
#include "CheckpointFormat.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "CheckpointCodec.hpp"

namespace nsdyn::io::ckpt {
namespace {

constexpr char kMagic[8] = {'N', 'S', 'D', 'Y', 'N', 'C', 'K', 'P'};
// 3: nsdyn's own encodings (format 2 was a Boost.Serialization archive, no longer read),
// the model fingerprint; 4: the rows and VTK frames already in the output spool files are
// not copied into the checkpoint, only their count and the spool's path
constexpr std::uint32_t kFormat = 4;
constexpr const char* kXmlRoot = "nsdyn-checkpoint";

constexpr long long kLongMax = std::numeric_limits<long>::max();
constexpr long long kLongMin = std::numeric_limits<long>::min();
constexpr long long kIntMax = std::numeric_limits<int>::max();
constexpr long long kIntMin = std::numeric_limits<int>::min();

template <class Ar, class T, class F>
void seq(Ar& ar, const char* tag, std::vector<T>& v, std::size_t minBytes, F each) {
  const std::size_t n = ar.count(tag, v.size(), minBytes);
  if constexpr (Ar::kReading) {
    v.clear();
    for (std::size_t i = 0; i < n; ++i) {
      T x{};
      each(x);
      v.push_back(std::move(x));
    }
  } else {
    for (T& x : v) each(x);
  }
}

template <class Ar>
void longField(Ar& ar, const char* tag, long& v, long long lo = kLongMin, long long hi = kLongMax) {
  long long x = v;
  ar.integer(tag, x, lo, hi);
  v = static_cast<long>(x);
}
template <class Ar>
void intField(Ar& ar, const char* tag, int& v) {
  long long x = v;
  ar.integer(tag, x, kIntMin, kIntMax);
  v = static_cast<int>(x);
}
template <class Ar>
void sizeField(Ar& ar, const char* tag, std::size_t& v) {
  std::uint64_t x = v;
  ar.u64(tag, x);
  v = static_cast<std::size_t>(x);
}
template <class Ar>
void doubles(Ar& ar, const char* tag, std::vector<double>& v) {
  seq(ar, tag, v, 8, [&](double& x) { ar.real("x", x); });
}
template <class Ar>
void vectors(Ar& ar, const char* tag, std::vector<SiconosVector>& v) {
  seq(ar, tag, v, 8, [&](SiconosVector& x) {
    std::vector<double> values;
    if constexpr (!Ar::kReading) values = x.toStdVector();
    doubles(ar, "size", values);
    if constexpr (Ar::kReading) x = SiconosVector(values);
  });
}

template <class Ar>
void transfer(Ar& ar, Payload& p) {
  ar.str("model", p.model);
  seq(ar, "fingerprint", p.fingerprint.items, 16, [&](std::pair<std::string, std::uint64_t>& it) {
    ar.str("item", it.first);
    ar.u64("hash", it.second);
  });
  longField(ar, "step", p.step, 0);
  ar.real("time", p.time);
  seq(ar, "systems", p.systems, 24, [&](SystemState& s) {
    ar.str("name", s.name);
    ar.str("class", s.className);
    vectors(ar, "vectors", s.vectors);
  });
  seq(ar, "interactions", p.interactions, 24, [&](InteractionState& s) {
    ar.str("name", s.name);
    vectors(ar, "y", s.y);
    vectors(ar, "lambda", s.lambda);
  });
  for (auto* set : {&p.indexSet1, &p.indexSet2})
    seq(ar, set == &p.indexSet1 ? "indexSet1" : "indexSet2", *set, 16, [&](IndexEntry& e) {
      ar.u64("interaction", e.interaction);
      ar.u64("position", e.position);
    });
  seq(ar, "statistics", p.statistics, 64, [&](StepStatistics& s) {
    longField(ar, "step", s.step);
    ar.real("time", s.time);
    sizeField(ar, "active", s.activeRelations);
    sizeField(ar, "size", s.problemSize);
    ar.boolean("solved", s.solved);
    long long status = s.status;
    ar.integer("status", status, NSD_OK, NSD_BAD_INPUT);
    s.status = static_cast<NsdStatus>(status);
    intField(ar, "iterations", s.iterations);
    ar.real("residual", s.residual);
    ar.real("seconds", s.seconds);
    ar.str("solver", s.solver);
    ar.str("message", s.message);
    intField(ar, "newtonIterations", s.newtonIterations);
    ar.boolean("newtonConverged", s.newtonConverged);
    intField(ar, "projectionIterations", s.projectionIterations);
  });
  // the VTK frames' spool before the tables: the records after the last table stay
  // pendingNext, the frames and the totals (format 3's tail)
  ar.str("frameSpool", p.frameSpool);
  ar.u64("spooledFrames", p.spooledFrames);
  seq(ar, "tables", p.tables, 49, [&](TableState& t) {
    ar.str("name", t.name);
    seq(ar, "columns", t.columns, 8, [&](std::string& c) { ar.str("column", c); });
    ar.str("spool", t.spool);
    ar.u64("spooledRows", t.spooled);
    seq(ar, "rows", t.rows, 8, [&](std::vector<double>& r) { doubles(ar, "row", r); });
    doubles(ar, "sums", t.sums);
    ar.boolean("pendingNext", t.pendingNext);
  });
  seq(ar, "frames", p.frames, 48, [&](VtkFrame& f) {
    longField(ar, "step", f.step);
    ar.real("time", f.time);
    doubles(ar, "points", f.points);
    doubles(ar, "orientations", f.orientations);
    doubles(ar, "velocities", f.velocities);
    doubles(ar, "angularVelocities", f.angularVelocities);
  });
  RunTotals& t = p.totals;
  longField(ar, "steps", t.steps);
  longField(ar, "activeSteps", t.activeSteps);
  longField(ar, "activations", t.activations);
  longField(ar, "solverCalls", t.solverCalls);
  longField(ar, "failedSolves", t.failedSolves);
  longField(ar, "totalIterations", t.totalIterations);
  intField(ar, "maxIterations", t.maxIterations);
  ar.real("maxResidual", t.maxResidual);
  longField(ar, "lastActive", t.lastActive);
  ar.real("solverSeconds", t.solverSeconds);
  longField(ar, "newtonSteps", t.newtonSteps);
  longField(ar, "newtonIterations", t.newtonIterations);
  intField(ar, "maxNewtonIterations", t.maxNewtonIterations);
  longField(ar, "newtonFailures", t.newtonFailures);
  longField(ar, "projections", t.projections);
  intField(ar, "maxProjections", t.maxProjections);
}

}  // namespace

std::string encode(Payload& p, ArchiveFormat format) {
  const bool xml = format == ArchiveFormat::Xml;
  Writer w(xml);
  transfer(w, p);
  Fnv sum;
  sum.add(w.records.data(), w.records.size());
  if (xml)
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<" + std::string(kXmlRoot) + " format=\"" +
           std::to_string(kFormat) + "\">\n" + w.xml + "<checksum>" + std::to_string(sum.h) +
           "</checksum>\n</" + kXmlRoot + ">\n";
  std::string out(kMagic, 8);
  for (std::uint64_t v : {std::uint64_t{kFormat}, std::uint64_t{0}})
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
  out += w.records;
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(sum.h >> (8 * i)));
  return out;
}

// Decode @p data into @p p; nsdyn::Error naming @p path and what is wrong.
void decode(const std::string& data, const std::string& path, Payload& p, bool verifyChecksum) {
  const std::string where = "checkpoint " + path;
  const bool binary = data.size() >= 8 && data.compare(0, 8, kMagic, 8) == 0;
  const bool xml = !binary && data.compare(0, 5, "<?xml") == 0;
  const std::string head = data.substr(0, std::min<std::size_t>(data.size(), 200));
  if (!binary && (head.find("serialization::archive") != std::string::npos ||
                  head.find("boost_serialization") != std::string::npos))
    throw Error(where, "an nsdyn checkpoint of format " + std::to_string(kFormat),
                "a Boost.Serialization archive of an older nsdyn (format 2), which this version "
                "no longer reads: rerun from the start, or finish that run with the nsdyn that "
                "wrote it");
  if (!binary && !(xml && head.find("<" + std::string(kXmlRoot)) != std::string::npos))
    throw Error(where, "an nsdyn checkpoint",
                "a file that is not one (neither the NSDYNCKP header nor a <nsdyn-checkpoint> "
                "element)");
  std::uint64_t stored = 0;
  try {
    if (binary) {
      if (data.size() < 24) throw Bad{data.size(), "a file shorter than the header and checksum"};
      std::uint32_t format = 0;
      for (int i = 0; i < 4; ++i)
        format |= static_cast<std::uint32_t>(static_cast<unsigned char>(data[8 + i])) << (8 * i);
      if (format != kFormat)
        throw Error(where, "format " + std::to_string(kFormat), "format " + std::to_string(format));
      Reader r(data, 16, data.size() - 8, false);
      transfer(r, p);
      if (r.position() != data.size() - 8)
        throw Bad{r.position(),
                  std::to_string(data.size() - 8 - r.position()) + " bytes after the last record"};
      for (int i = 0; i < 8; ++i)
        stored |= static_cast<std::uint64_t>(static_cast<unsigned char>(data[data.size() - 8 + i]))
                  << (8 * i);
      if (verifyChecksum && stored != r.sum.h)
        throw Error(where, "a matching checksum", "a corrupted file (checksum differs)");
    } else {
      Reader r(data, 0, data.size(), true);
      const std::size_t decl = data.find("?>");
      if (decl == std::string::npos) throw Bad{0, "an unterminated XML declaration"};
      r.expect(data.substr(0, decl + 2), "the XML declaration");
      const std::string root = "<" + std::string(kXmlRoot) + " format=\"";
      r.expect(root, root + "N\">");
      r.expect(std::to_string(kFormat) + "\">",
               "format " + std::to_string(kFormat) + " in " + root);
      transfer(r, p);
      std::uint64_t sum = r.sum.h;
      r.u64("checksum", stored);
      r.expect("</" + std::string(kXmlRoot) + ">", "</" + std::string(kXmlRoot) + ">");
      r.skipSpace();
      if (r.position() != data.size()) throw Bad{r.position(), "text after </nsdyn-checkpoint>"};
      if (verifyChecksum && stored != sum)
        throw Error(where, "a matching checksum", "a corrupted file (checksum differs)");
    }
  } catch (const Bad& b) {
    throw Error(
        where, "a complete nsdyn checkpoint",
        "a truncated or corrupted file (byte " + std::to_string(b.at) + ": " + b.what + ")");
  }
  if (!std::isfinite(p.time))
    throw Error(where, "a finite time", "a truncated or corrupted file (time is not finite)");
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("checkpoint " + path, "a readable file", std::strerror(errno));
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) throw Error("checkpoint " + path, "a readable file", "a read error");
  return s.str();
}

}  // namespace nsdyn::io::ckpt
