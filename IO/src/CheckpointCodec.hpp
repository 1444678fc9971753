// The two archives of CheckpointFormat.cpp's transfer(): Writer makes the binary records and,
// when asked, their XML rendering; Reader reads either back, bounded, every value checked, the
// checksum summed over the binary records. Private to IO (CheckpointFormat.cpp only).
#pragma once

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "CheckpointFormat.hpp"

namespace nsdyn::io::ckpt {

using detail::bitsOf;
using detail::doubleOf;

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

}  // namespace nsdyn::io::ckpt
