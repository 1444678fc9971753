// Checkpoints in nsdyn's own format (format 4, doc/robustness.md). The model
// is rebuilt from its file at restart; the file holds the state that evolves
// during a run, taken through the Kernel's public accessors, and the model's
// fingerprint. The reader trusts nothing: every count is bounded by the bytes
// left, bools are 0 or 1, enums and ints are range-checked, then the checksum.
//
// Binary encoding: "NSDYNCKP", u32 format (4), u32 0, the records, u64
// FNV-1a of the records. Records: integers and counts as 8-byte little-endian,
// doubles as their 8-byte IEEE pattern, bools as one byte, strings as a count
// and the bytes. XML encoding: the same records as <tag>text</tag>, one a
// line, inside <nsdyn-checkpoint format="4">, then <checksum> (the FNV-1a of
// the records' binary encoding).
#include "nsdyn/io/Checkpoint.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "Fnv.hpp"
#include "nsdyn/Kernel.hpp"
#include "nsdyn/io/PartFile.hpp"

namespace nsdyn::io {
namespace {

constexpr char kMagic[8] = {'N', 'S', 'D', 'Y', 'N', 'C', 'K', 'P'};
// 3: nsdyn's own encodings (format 2 was a Boost.Serialization archive, no longer read),
// the model fingerprint; 4: the rows and VTK frames already in the output spool files are
// not copied into the checkpoint, only their count and the spool's path
constexpr std::uint32_t kFormat = 4;
constexpr const char* kXmlRoot = "nsdyn-checkpoint";

using detail::bitsOf;
using detail::doubleOf;
// format 4's checksum and fingerprints: nsdyn's FNV-1a variant (Fnv.hpp), as written so far
using Fnv = detail::LegacyFnv;

// A record decoding failed: what, at which byte (turned into an nsdyn::Error by the caller).
struct Bad {
  std::size_t at;
  std::string what;
};

// ---- writer: the binary records, and their XML rendering when asked -----------------------
class Writer {
 public:
  static constexpr bool kReading = false;
  explicit Writer(bool asXml) : xml_(asXml) {}

  void u64(const char* tag, std::uint64_t& v) {
    put64(v);
    text(tag, std::to_string(v));
  }
  void integer(const char* tag, long long& v, long long, long long) {
    put64(static_cast<std::uint64_t>(v));
    text(tag, std::to_string(v));
  }
  void real(const char* tag, double& v) {
    put64(bitsOf(v));
    if (!xml_) return;
    char buf[40];
    if (std::isnan(v))
      std::snprintf(buf, sizeof buf, "nan");
    else
      std::snprintf(buf, sizeof buf, "%.17g", v);
    text(tag, buf);
  }
  void boolean(const char* tag, bool& v) {
    records.push_back(v ? 1 : 0);
    text(tag, v ? "1" : "0");
  }
  void str(const char* tag, std::string& s) {
    put64(s.size());
    records += s;
    if (!xml_) return;
    std::string e;
    for (unsigned char c : s) {
      if (c == '<')
        e += "&lt;";
      else if (c == '>')
        e += "&gt;";
      else if (c == '&')
        e += "&amp;";
      else if (c < 0x20 || c >= 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "&#x%02x;", c);
        e += buf;
      } else
        e += static_cast<char>(c);
    }
    text(tag, e);
  }
  std::size_t count(const char* tag, std::size_t n, std::size_t) {
    std::uint64_t v = n;
    u64(tag, v);
    return n;
  }

  std::string records;  // the binary encoding
  std::string xml;

 private:
  void put64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) records.push_back(static_cast<char>(v >> (8 * i)));
  }
  void text(const char* tag, const std::string& value) {
    if (!xml_) return;
    xml += "<";
    xml += tag;
    xml += ">";
    xml += value;
    xml += "</";
    xml += tag;
    xml += ">\n";
  }
  bool xml_;
};

// ---- readers: bounded, every value checked; the checksum over the binary records -----------
class Reader {
 public:
  static constexpr bool kReading = true;
  Reader(const std::string& data, std::size_t begin, std::size_t end, bool xml)
      : d_(data), pos_(begin), end_(end), xml_(xml) {}

  void u64(const char* tag, std::uint64_t& v) {
    v = xml_ ? xmlUnsigned(tag) : get64(tag);
    sum.add64(v);
  }
  void integer(const char* tag, long long& v, long long lo, long long hi) {
    const std::size_t at = pos_;
    if (xml_) {
      const std::string t = field(tag);
      errno = 0;
      char* e = nullptr;
      v = std::strtoll(t.c_str(), &e, 10);
      if (t.empty() || *e || errno)
        fail(at, "<" + std::string(tag) + "> '" + t + "': not an integer");
    } else {
      v = static_cast<long long>(get64(tag));
    }
    if (v < lo || v > hi)
      fail(at, std::string(tag) + " " + std::to_string(v) + " out of [" + std::to_string(lo) +
                   ", " + std::to_string(hi) + "]");
    sum.add64(static_cast<std::uint64_t>(v));
  }
  void real(const char* tag, double& v) {
    if (xml_) {
      const std::size_t at = pos_;
      const std::string t = field(tag);
      char* e = nullptr;
      v = std::strtod(t.c_str(), &e);
      if (t.empty() || *e) fail(at, "<" + std::string(tag) + "> '" + t + "': not a number");
      if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();
    } else {
      v = doubleOf(get64(tag));
    }
    sum.add64(bitsOf(v));
  }
  void boolean(const char* tag, bool& v) {
    const std::size_t at = pos_;
    unsigned char b = 2;
    if (xml_) {
      const std::string t = field(tag);
      if (t == "0" || t == "1") b = static_cast<unsigned char>(t[0] - '0');
    } else {
      if (end_ - pos_ < 1) fail(at, std::string("end of file where ") + tag + " was expected");
      b = static_cast<unsigned char>(d_[pos_++]);
    }
    if (b > 1) fail(at, std::string(tag) + ": a bool that is neither 0 nor 1");
    v = b == 1;
    sum.add(&b, 1);
  }
  void str(const char* tag, std::string& s) {
    if (xml_) {
      const std::size_t at = pos_;
      const std::string t = field(tag);
      s.clear();
      for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i] != '&') {
          s += t[i];
          continue;
        }
        const std::size_t semi = t.find(';', i);
        if (semi == std::string::npos || semi - i > 6)
          fail(at, std::string(tag) + ": bad & escape");
        const std::string ent = t.substr(i + 1, semi - i - 1);
        if (ent == "lt")
          s += '<';
        else if (ent == "gt")
          s += '>';
        else if (ent == "amp")
          s += '&';
        else if (ent.size() == 4 && ent[0] == '#' && ent[1] == 'x' &&
                 std::isxdigit(static_cast<unsigned char>(ent[2])) &&
                 std::isxdigit(static_cast<unsigned char>(ent[3])))
          s += static_cast<char>(std::strtoul(ent.c_str() + 2, nullptr, 16));
        else
          fail(at, std::string(tag) + ": unknown escape &" + ent + ";");
        i = semi;
      }
    } else {
      const std::size_t at = pos_;
      const std::uint64_t n = get64(tag);
      if (n > end_ - pos_)
        fail(at, std::string(tag) + ": a string of " + std::to_string(n) + " bytes, " +
                     std::to_string(end_ - pos_) + " left in the file");
      s.assign(d_, pos_, static_cast<std::size_t>(n));
      pos_ += static_cast<std::size_t>(n);
    }
    sum.addString(s);
  }
  // A count of elements of at least @p minBytes bytes each (binary encoding; an XML
  // element takes at least 7): refused when they cannot fit in the bytes left.
  std::size_t count(const char* tag, std::size_t, std::size_t minBytes) {
    const std::size_t at = pos_;
    std::uint64_t n = 0;
    u64(tag, n);
    const std::size_t per = xml_ ? 7 : std::max<std::size_t>(minBytes, 1);
    if (n > (end_ - pos_) / per)
      fail(at, std::string(tag) + ": a count of " + std::to_string(n) + " elements, but only " +
                   std::to_string(end_ - pos_) + " bytes left in the file");
    return static_cast<std::size_t>(n);
  }

  [[noreturn]] void fail(std::size_t at, const std::string& what) const { throw Bad{at, what}; }
  std::size_t position() const { return pos_; }
  void skipSpace() {
    while (pos_ < end_ && std::isspace(static_cast<unsigned char>(d_[pos_]))) ++pos_;
  }
  // Consume @p literal (after white space in XML), or fail.
  void expect(const std::string& literal, const std::string& what) {
    if (xml_) skipSpace();
    if (end_ - pos_ < literal.size() || d_.compare(pos_, literal.size(), literal) != 0)
      fail(pos_, "expected " + what);
    pos_ += literal.size();
  }

  Fnv sum;

 private:
  std::uint64_t get64(const char* tag) {
    if (end_ - pos_ < 8) fail(pos_, std::string("end of file where ") + tag + " was expected");
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i)
      v |= static_cast<std::uint64_t>(static_cast<unsigned char>(d_[pos_ + i])) << (8 * i);
    pos_ += 8;
    return v;
  }
  std::uint64_t xmlUnsigned(const char* tag) {
    const std::size_t at = pos_;
    const std::string t = field(tag);
    errno = 0;
    char* e = nullptr;
    const unsigned long long v = std::strtoull(t.c_str(), &e, 10);
    if (t.empty() || t[0] == '-' || *e || errno)
      fail(at, "<" + std::string(tag) + "> '" + t + "': not a count");
    return v;
  }
  // <tag>text</tag>: the raw text (no '<' inside)
  std::string field(const char* tag) {
    const std::string open = std::string("<") + tag + ">";
    expect(open, open);
    const std::size_t lt = d_.find('<', pos_);
    if (lt == std::string::npos || lt >= end_) fail(pos_, "end of file inside " + open);
    std::string t = d_.substr(pos_, lt - pos_);
    pos_ = lt;
    const std::string close = std::string("</") + tag + ">";
    if (end_ - pos_ < close.size() || d_.compare(pos_, close.size(), close) != 0)
      fail(pos_, "expected " + close);
    pos_ += close.size();
    return t;
  }

  const std::string& d_;
  std::size_t pos_, end_;
  bool xml_;
};

// ---- the records of a checkpoint ------------------------------------------------------------
// State of one system: the vectors of DynamicalSystem::checkpointState(), in
// its order (mechanical systems q, v, p, forces; first order x, r).
struct SystemState {
  std::string name, className;
  std::vector<SiconosVector> vectors;
};
// y and λ of one interaction at each level.
struct InteractionState {
  std::string name;
  std::vector<SiconosVector> y, lambda;
};
// A unitary relation of an index set: interaction (file order) and first row.
struct IndexEntry {
  std::uint64_t interaction = 0, position = 0;
};
// Rows of one output so far, with its running sums: the first `spooled` rows are in the
// spool file `spool` (a streaming Recorder), the next ones here.
struct TableState {
  std::string name;
  std::vector<std::string> columns;
  std::string spool;
  std::uint64_t spooled = 0;
  std::vector<std::vector<double>> rows;
  std::vector<double> sums;
  bool pendingNext = false;
};
// Everything a checkpoint holds, in file order.
struct Payload {
  std::string model;
  ModelFingerprint fingerprint;
  long step = 0;
  double time = 0.0;
  std::vector<SystemState> systems;
  std::vector<InteractionState> interactions;
  std::vector<IndexEntry> indexSet1, indexSet2;
  std::vector<StepStatistics> statistics;
  std::string frameSpool;  // the first spooledFrames VTK frames, then `frames`
  std::uint64_t spooledFrames = 0;
  std::vector<TableState> tables;
  std::vector<VtkFrame> frames;
  RunTotals totals;
};

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

// ---- model fingerprint --------------------------------------------------------------------
void canonical(const pugi::xml_node& n, Fnv& h) {
  h.addString(n.name());
  std::vector<std::pair<std::string, std::string>> attrs;
  for (const pugi::xml_attribute& a : n.attributes()) attrs.emplace_back(a.name(), a.value());
  std::sort(attrs.begin(), attrs.end());
  h.add64(attrs.size());
  for (const auto& [k, v] : attrs) {
    h.addString(k);
    h.addString(v);
  }
  for (const pugi::xml_node& c : n.children()) {
    if (c.type() == pugi::node_element) {
      canonical(c, h);
    } else if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
      // text with its white space collapsed
      std::istringstream words(c.value());
      std::string w, all;
      while (words >> w) all += (all.empty() ? "" : " ") + w;
      if (!all.empty()) h.addString("#" + all);
    }
  }
  h.addString("/");
}

// Items of @p n: its own attributes and text, then each element child under
// LABEL/NAME (its name attribute, else its tag); children are split further
// down to depth 3 (model/systems/ball).
void collect(const pugi::xml_node& n, const std::string& label, int depth, ModelFingerprint& fp) {
  Fnv own;
  own.addString(n.name());
  std::vector<std::pair<std::string, std::string>> attrs;
  for (const pugi::xml_attribute& a : n.attributes()) attrs.emplace_back(a.name(), a.value());
  std::sort(attrs.begin(), attrs.end());
  for (const auto& [k, v] : attrs) {
    own.addString(k);
    own.addString(v);
  }
  std::vector<std::string> seen;
  std::vector<std::pair<std::string, pugi::xml_node>> children;
  for (const pugi::xml_node& c : n.children()) {
    if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
      std::istringstream words(c.value());
      std::string w;
      while (words >> w) own.addString(w);
    }
    if (c.type() != pugi::node_element) continue;
    std::string name = c.attribute("name") ? c.attribute("name").value() : c.name();
    const std::string base = name;
    for (int k = 2; std::find(seen.begin(), seen.end(), name) != seen.end(); ++k)
      name = base + "#" + std::to_string(k);
    seen.push_back(name);
    children.emplace_back(label.empty() ? name : label + "/" + name, c);
  }
  fp.items.emplace_back(label.empty() ? "root" : label, own.h);
  for (const auto& [l, c] : children) {
    if (depth < 2 && c.first_child().type() == pugi::node_element) {
      collect(c, l, depth + 1, fp);
    } else {
      Fnv h;
      canonical(c, h);
      fp.items.emplace_back(l, h.h);
    }
  }
}

// Items of @p a missing from @p b, or with another hash.
std::vector<std::string> differences(const ModelFingerprint& a, const ModelFingerprint& b) {
  std::vector<std::string> out;
  for (const auto& item : a.items) {
    auto it = std::find_if(b.items.begin(), b.items.end(),
                           [&](const auto& x) { return x.first == item.first; });
    if (it == b.items.end())
      out.push_back(item.first + " (not in the checkpoint's model)");
    else if (it->second != item.second)
      out.push_back(item.first);
  }
  for (const auto& item : b.items)
    if (std::none_of(a.items.begin(), a.items.end(),
                     [&](const auto& x) { return x.first == item.first; }))
      out.push_back(item.first + " (only in the checkpoint's model)");
  return out;
}

std::uint64_t interactionIndex(const LoadedModel& run, const Interaction& inter) {
  for (std::size_t i = 0; i < run.interactions.size(); ++i)
    if (run.interactions[i].second.get() == &inter) return i;
  throw Error("checkpoint", "an interaction of the model file", inter.name());
}

std::vector<IndexEntry> indexSet(const LoadedModel& run, unsigned level) {
  std::vector<IndexEntry> out;
  for (const auto& ur : run.model->nonSmoothDynamicalSystem()->topology().indexSet(level))
    out.push_back({interactionIndex(run, ur->interaction()), ur->relativePosition()});
  return out;
}

}  // namespace

std::uint64_t ModelFingerprint::digest() const {
  Fnv h;
  for (const auto& [label, hash] : items) {
    h.addString(label);
    h.add64(hash);
  }
  return h.h;
}

ModelFingerprint modelFingerprint(const LoadedModel& run) {
  ModelFingerprint fp;
  // the loaded values of the time grid: parameters evaluated
  for (const auto& [label, value] :
       {std::pair<const char*, double>{"t0", run.t0}, {"T", run.T}, {"h", run.h}})
    fp.items.emplace_back(label, bitsOf(value));
  fp.items.emplace_back("steps", static_cast<std::uint64_t>(run.steps));
  Fnv type;
  type.addString(run.simulationType);
  fp.items.emplace_back("simulation type", type.h);
  // the model file, canonical (comments, layout and attribute order ignored)
  pugi::xml_document doc;
  if (!run.file.empty() && run.file != "<string>" &&
      doc.load_file(run.file.c_str(), pugi::parse_default & ~pugi::parse_comments)) {
    const pugi::xml_node root = doc.document_element();
    collect(root, "", 0, fp);
  }
  return fp;
}

void saveCheckpoint(const std::string& path, ArchiveFormat format, const LoadedModel& run,
                    const Recorder& recorder, const RunTotals& totals) {
  saveCheckpoint(path, format, run, recorder, totals, modelFingerprint(run));
}

void saveCheckpoint(const std::string& path, ArchiveFormat format, const LoadedModel& run,
                    const Recorder& recorder, const RunTotals& totals,
                    const ModelFingerprint& fingerprint) {
  if (run.simulationType == "EventDriven")
    throw Error("checkpoint", "a time-stepping run", run.simulationType + " run");
  const Simulation& sim = *run.simulation;
  Payload p;
  p.model = run.name;
  p.fingerprint = fingerprint;
  p.step = sim.currentStep();
  p.time = sim.startingTime();
  for (const auto& [name, ds] : run.systems) {
    SystemState s{name, ds->className(), {}};
    for (const SiconosVector* v : ds->checkpointState()) s.vectors.push_back(*v);
    p.systems.push_back(std::move(s));
  }
  for (const auto& [name, inter] : run.interactions) {
    InteractionState s{name, {}, {}};
    for (unsigned l = 0; l < Interaction::kLevels; ++l) {
      s.y.push_back(inter->y(l));
      s.lambda.push_back(inter->lambda(l));
    }
    p.interactions.push_back(std::move(s));
  }
  p.indexSet1 = indexSet(run, 1);
  p.indexSet2 = indexSet(run, 2);
  p.statistics = sim.statistics();
  // the spooled rows are on disk already (each batch is written whole): their count and
  // the spool's path only, so a checkpoint stays small however long the run
  for (std::size_t o = 0; o < recorder.tables().size(); ++o) {
    const Table& t = recorder.tables()[o];
    p.tables.push_back({t.name, t.columns, t.spool, t.spooledRows, t.rows,
                        const_cast<Recorder&>(recorder).sumsMutable()[o],
                        const_cast<Recorder&>(recorder).pendingNextMutable()[o] != 0});
  }
  p.frameSpool = recorder.frameSpoolPath();
  p.spooledFrames = recorder.spooledFrames();
  p.frames = recorder.frames();
  p.totals = totals;
  const std::string bytes = encode(p, format);

  // written under a temporary name, renamed when complete (WriteError on failure: the
  // previous checkpoint stays as it was)
  PartFile file(path, "checkpoint", "wb");
  file.write(bytes.data(), bytes.size());
  file.commit();
}

void checkCheckpointData(const std::string& data, const std::string& path, bool verifyChecksum) {
  Payload p;
  decode(data, path, p, verifyChecksum);
}

long loadCheckpoint(const std::string& path, LoadedModel& run, Recorder& recorder,
                    RunTotals& totals, const RestartOptions& options) {
  if (run.simulationType == "EventDriven")
    throw Error("checkpoint", "a time-stepping run", run.simulationType + " run");
  return loadCheckpointData(readFile(path), path, run, recorder, totals, options);
}

long loadCheckpointData(const std::string& data, const std::string& path, LoadedModel& run,
                        Recorder& recorder, RunTotals& totals, const RestartOptions& options) {
  if (run.simulationType == "EventDriven")
    throw Error("checkpoint", "a time-stepping run", run.simulationType + " run");
  Payload p;
  decode(data, path, p, true);

  // the checkpoint must describe this model
  const std::string where = "checkpoint " + path;
  if (p.model != run.name)
    throw Error(where, "a checkpoint of model '" + run.name + "'", "model '" + p.model + "'");
  {
    const ModelFingerprint now = options.fingerprint ? *options.fingerprint : modelFingerprint(run);
    if (now.digest() != p.fingerprint.digest()) {
      const std::vector<std::string> diff = differences(now, p.fingerprint);
      std::string list;
      for (std::size_t i = 0; i < diff.size() && i < 12; ++i) list += (i ? ", " : "") + diff[i];
      if (diff.size() > 12) list += ", ... (" + std::to_string(diff.size()) + " in all)";
      if (!options.force)
        throw Error(where, "the model file that wrote it",
                    "a model file that differs from the one that wrote the checkpoint (" + list +
                        "); --force-restart restarts anyway");
      if (options.differences) *options.differences = diff;
    }
  }
  if (p.systems.size() != run.systems.size() || p.interactions.size() != run.interactions.size())
    throw Error(where,
                std::to_string(run.systems.size()) + " systems and " +
                    std::to_string(run.interactions.size()) + " interactions",
                std::to_string(p.systems.size()) + " and " + std::to_string(p.interactions.size()));
  if (p.step < 0 || p.step > run.steps)
    throw Error(where, "a step in [0, " + std::to_string(run.steps) + "]", std::to_string(p.step));
  for (std::size_t i = 0; i < p.systems.size(); ++i) {
    const SystemState& s = p.systems[i];
    const auto& ds = run.systems[i].second;
    const std::vector<SiconosVector*> live = ds->checkpointState();
    if (s.name != run.systems[i].first || s.className != ds->className() ||
        s.vectors.size() != live.size())
      throw Error(
          where,
          "system '" + run.systems[i].first + "' (" + ds->className() + ", " +
              std::to_string(live.size()) + " state vectors)",
          "'" + s.name + "' (" + s.className + ", " + std::to_string(s.vectors.size()) + ")");
    for (std::size_t k = 0; k < live.size(); ++k)
      if (s.vectors[k].size() != live[k]->size())
        throw Error(where,
                    "state vector " + std::to_string(k) + " of " + s.name + " of size " +
                        std::to_string(live[k]->size()),
                    "size " + std::to_string(s.vectors[k].size()));
  }
  for (std::size_t i = 0; i < p.interactions.size(); ++i) {
    const InteractionState& s = p.interactions[i];
    const auto& inter = run.interactions[i].second;
    bool ok = s.name == run.interactions[i].first && s.y.size() == Interaction::kLevels &&
              s.lambda.size() == Interaction::kLevels;
    for (unsigned l = 0; ok && l < Interaction::kLevels; ++l)
      ok = s.y[l].size() == inter->size() && s.lambda[l].size() == inter->size();
    if (!ok)
      throw Error(where,
                  "interaction '" + run.interactions[i].first + "' of size " +
                      std::to_string(inter->size()),
                  "'" + s.name + "'");
  }
  if (p.tables.size() != recorder.tables().size())
    throw Error(where, std::to_string(recorder.tables().size()) + " outputs",
                std::to_string(p.tables.size()));
  for (std::size_t o = 0; o < p.tables.size(); ++o) {
    const Table& t = recorder.tables()[o];
    if (p.tables[o].name != t.name || p.tables[o].columns != t.columns ||
        p.tables[o].sums.size() != t.columns.size())
      throw Error(where, "output '" + t.name + "' with columns as in the model file",
                  "output '" + p.tables[o].name + "'");
    for (const auto& row : p.tables[o].rows)
      if (row.size() != t.columns.size())
        throw Error(where, "rows of " + std::to_string(t.columns.size()) + " values",
                    std::to_string(row.size()));
    // a row at most per step (and row 0) so far: bounds the spooled count before any
    // spool is read
    const std::uint64_t bound = static_cast<std::uint64_t>(p.step) + 1;
    if (p.tables[o].spooled > bound || p.tables[o].rows.size() > bound - p.tables[o].spooled)
      throw Error(where, "at most " + std::to_string(bound) + " rows of output '" + t.name + "'",
                  std::to_string(p.tables[o].spooled) + " spooled and " +
                      std::to_string(p.tables[o].rows.size()) + " in the file");
  }
  if (p.spooledFrames > static_cast<std::uint64_t>(p.step) + 1)
    throw Error(where, "at most " + std::to_string(p.step + 1) + " VTK frames",
                std::to_string(p.spooledFrames) + " spooled");
  // the spool files of the rows and frames not in the checkpoint: there, with enough rows
  try {
    for (std::size_t o = 0; o < p.tables.size(); ++o)
      checkSpool(p.tables[o].spool, p.tables[o].columns.size(),
                 static_cast<std::size_t>(p.tables[o].spooled),
                 "output '" + p.tables[o].name + "'");
    checkSpool(p.frameSpool, vtkFrameWidth(recorder.spec().vtk),
               static_cast<std::size_t>(p.spooledFrames), "the VTK frames");
  } catch (const Error& e) {
    throw Error(where + ": " + e.what());
  }
  const std::size_t bodies = recorder.spec().vtk.bodies.size();
  for (const VtkFrame& f : p.frames)
    if (f.points.size() != 3 * bodies || f.orientations.size() != 4 * bodies ||
        f.velocities.size() != 3 * bodies || f.angularVelocities.size() != 3 * bodies)
      throw Error(where, "VTK frames of " + std::to_string(bodies) + " bodies",
                  std::to_string(f.points.size() / 3));
  auto indexSetOf = [&](const std::vector<IndexEntry>& entries) {
    IndexSet set;
    const IndexSet& all = run.model->nonSmoothDynamicalSystem()->topology().indexSet(0);
    for (const IndexEntry& e : entries) {
      SP::UnitaryRelation found;
      for (const auto& ur : all)
        if (e.interaction < run.interactions.size() &&
            &ur->interaction() == run.interactions[e.interaction].second.get() &&
            ur->relativePosition() == e.position)
          found = ur;
      if (!found)
        throw Error(
            where, "index sets of the model's relations",
            "interaction " + std::to_string(e.interaction) + " row " + std::to_string(e.position));
      set.push_back(found);
    }
    return set;
  };
  IndexSet set1 = indexSetOf(p.indexSet1), set2 = indexSetOf(p.indexSet2);

  // the spooled rows first (file work that may still fail), rows written after the
  // checkpoint dropped: the recorder's spools become the checkpoint's first rows
  for (std::size_t o = 0; o < p.tables.size(); ++o) {
    recorder.tablesMutable()[o].rows = std::move(p.tables[o].rows);
    recorder.resumeRows(o, p.tables[o].spool, static_cast<std::size_t>(p.tables[o].spooled));
  }
  recorder.framesMutable() = std::move(p.frames);
  recorder.resumeFrames(p.frameSpool, static_cast<std::size_t>(p.spooledFrames));

  // restore: states (memories = current values, as after nextStep()), then outputs
  for (std::size_t i = 0; i < p.systems.size(); ++i) {
    const auto& ds = run.systems[i].second;
    const std::vector<SiconosVector*> live = ds->checkpointState();
    for (std::size_t k = 0; k < live.size(); ++k) *live[k] = p.systems[i].vectors[k];
    ds->swapInMemory();
  }
  for (std::size_t i = 0; i < p.interactions.size(); ++i) {
    Interaction& inter = *run.interactions[i].second;
    for (unsigned l = 0; l < Interaction::kLevels; ++l)
      inter.lambdaMutable(l) = p.interactions[i].lambda[l];
    // the relation's cached Jacobian at the restored state, then the saved outputs as they were
    inter.computeOutput(p.time);
    for (unsigned l = 0; l < Interaction::kLevels; ++l) inter.yMutable(l) = p.interactions[i].y[l];
    inter.swapInMemory();
  }
  Topology& topology = run.model->nonSmoothDynamicalSystem()->topologyMutable();
  topology.setIndexSet(1, std::move(set1));
  topology.setIndexSet(2, std::move(set2));
  run.simulation->restoreProgress(p.step, std::move(p.statistics));

  for (std::size_t o = 0; o < p.tables.size(); ++o) {
    recorder.sumsMutable()[o] = p.tables[o].sums;
    recorder.pendingNextMutable()[o] = p.tables[o].pendingNext ? 1 : 0;
  }
  totals = p.totals;
  return p.step;
}

}  // namespace nsdyn::io
