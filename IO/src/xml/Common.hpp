/// @file Common.hpp
/// @brief What every part of the XML loader shares (internal, not installed): limits of
///        model files, the pugixml node, text helpers, line numbers of a parsed text.
///        The loader is one class over several files, one per model family: Reader (typed
///        readers of attributes and element data, file:line errors), Loader (the model
///        families; see Loader.hpp for which file builds what).
#ifndef NSDYN_IO_XML_COMMON_HPP
#define NSDYN_IO_XML_COMMON_HPP

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <pugixml.hpp>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/BoxShape.hpp"
#include "nsdyn/CapsuleShape.hpp"
#include "nsdyn/ConvexHullShape.hpp"
#include "nsdyn/CylinderShape.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/Kernel.hpp"
#include "nsdyn/SceneGenerators.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/io/Expression.hpp"
#include "nsdyn/io/XmlLoader.hpp"
#include "nsdyn/nsd_options.h"
#include "nsdyn/nsd_solvers.h"

#pragma GCC visibility push(hidden)

namespace nsdyn::io::xml {

/// Most time steps a model file may ask for: a count a 64-bit integer holds and a double
/// counts exactly (h = 1e-65 is a unit mistake or hostile input). Programs cap runs far
/// lower (`nsdyn run`: 1e8 steps, --max-steps to raise it).
constexpr double kMaxSteps = 1e15;
/// Largest integer attribute (counts, steps): a double holds it exactly. Attributes kept in
/// an int are at most INT_MAX (intAttribute), some lower (threads, group counts).
constexpr long kMaxInteger = 1000000000000000L;
/// Most points of a <ConvexHullShape> (Qhull keeps the hull's vertices; each contact query
/// reads them all).
constexpr std::size_t kMaxHullPoints = 100000;
/// Most rows of a nonsmooth law (`size`, `equalities`, `complementarities`): its
/// interaction's vectors are allocated from it (size="1e12" took 24 GB before the Kernel
/// compared it with the relation).
constexpr long kMaxLawRows = 1000000;

using Node = pugi::xml_node;
using Vec3 = Shape::Vec3;

std::string join(const std::vector<std::string>& items, const char* sep = ", ");
/// "RxC".
std::string shape(std::size_t rows, std::size_t cols);
/// @p s without leading and trailing blanks.
std::string trim(const std::string& s);
// Entries of a vector or matrix text: rows separated by ';', entries by ','
// when the text has a comma outside parentheses, else by blanks; separators
// inside parentheses (function arguments) belong to the entry. Blank rows are
// skipped.
std::vector<std::vector<std::string>> splitEntries(const std::string& text);
/// The file name of @p path without its folder and extension.
std::string stem(const std::string& path);
/// t in a message: the shortest of 12 significant digits (0.06, not 0.059999999999999998).
std::string timeText(double t, int digits = 12);
/// A number with 17 significant digits.
std::string numberText(double x);
Vec3 vec3(const SiconosVector& v);
std::string vec3Text(const Vec3& v);
Shape::Quat toQuat(const SiconosVector& q);
/// The shape elements of a body (<SphereShape>, <BoxShape>, ...).
const std::vector<std::string>& shapeElements();
bool isShape(const Node& c);

// Attributes and child elements an element may have.
struct Allowed {
  std::vector<std::string> attributes;
  std::vector<std::string> children;
  bool text = false;  // character data allowed
};

// A user function defined in the file, with its largest argument index.
struct DefinedFunction {
  long line = 0;
  std::size_t maxQ = 0, maxV = 0;
  bool usesQ = false, usesV = false;
};

// Line numbers of byte offsets of a text, kept apart from it (the text is parsed in place,
// which overwrites some of its bytes): one bit per byte marks the newlines, with the count
// before every 512 bytes; 0.14 byte per byte of text.
class LineIndex {
 public:
  explicit LineIndex(const std::string& text) : size_(text.size()), bits_((size_ + 63) / 64, 0) {
    for (std::size_t i = 0; i < size_; ++i)
      if (text[i] == '\n') bits_[i / 64] |= std::uint64_t(1) << (i % 64);
    before_.resize(bits_.size() / 8 + 1, 0);
    std::uint64_t count = 0;
    for (std::size_t w = 0; w < bits_.size(); ++w) {
      if (w % 8 == 0) before_[w / 8] = count;
      count += static_cast<std::uint64_t>(__builtin_popcountll(bits_[w]));
    }
  }
  /// 1 + the newlines before @p offset.
  long line(std::size_t offset) const {
    const std::size_t end = std::min(size_, offset), w = end / 64;
    std::uint64_t count = before_[w / 8];
    for (std::size_t k = w / 8 * 8; k < w; ++k)
      count += static_cast<std::uint64_t>(__builtin_popcountll(bits_[k]));
    if (end % 64 != 0)
      count += static_cast<std::uint64_t>(
          __builtin_popcountll(bits_[w] & ((std::uint64_t(1) << (end % 64)) - 1)));
    return 1 + static_cast<long>(count);
  }

 private:
  std::size_t size_;
  std::vector<std::uint64_t> bits_;
  std::vector<std::uint64_t> before_;
};

}  // namespace nsdyn::io::xml

#pragma GCC visibility pop

#endif
