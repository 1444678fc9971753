// XmlLoader: model files (pugixml) to a ready-to-run Model and Simulation.
// Every check is made here, element by element, so that each error names
// the file, the line and what was expected, before anything runs.
#include "nsdyn/io/XmlLoader.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <pugixml.hpp>
#include <set>
#include <sstream>
#include <unordered_map>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/BoxShape.hpp"
#include "nsdyn/CapsuleShape.hpp"
#include "nsdyn/ConvexHullShape.hpp"
#include "nsdyn/CylinderShape.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/Kernel.hpp"
#include "nsdyn/SceneGenerators.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/nsd_options.h"
#include "nsdyn/nsd_solvers.h"

namespace nsdyn::io {

SP::DynamicalSystem LoadedModel::system(const std::string& n) const {
  for (const auto& entry : systems)
    if (entry.first == n) return entry.second;
  return nullptr;
}

SP::Interaction LoadedModel::interaction(const std::string& n) const {
  for (const auto& entry : interactions)
    if (entry.first == n) return entry.second;
  return nullptr;
}

namespace {

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

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

std::string shape(std::size_t rows, std::size_t cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// Entries of a vector or matrix text: rows separated by ';', entries by ','
// when the text has a comma outside parentheses, else by blanks; separators
// inside parentheses (function arguments) belong to the entry. Blank rows are
// skipped.
std::vector<std::vector<std::string>> splitEntries(const std::string& text) {
  bool commas = false;
  int depth = 0;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')' && depth > 0) --depth;
    if (c == ',' && depth == 0) commas = true;
  }
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string rowText, entry;
  // the last entry of a row counts when it has characters (blanks too, as
  // getline gives them); a row of blanks only is skipped
  auto endRow = [&] {
    if (commas ? !entry.empty() : !trim(entry).empty()) row.push_back(trim(entry));
    if (!trim(rowText).empty()) rows.push_back(row);
    row.clear();
    rowText.clear();
    entry.clear();
  };
  depth = 0;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')' && depth > 0) --depth;
    if (depth == 0 && c == ';') {
      endRow();
      continue;
    }
    rowText += c;
    const bool blank = std::isspace(static_cast<unsigned char>(c)) != 0;
    if (depth == 0 && commas && c == ',') {
      row.push_back(trim(entry));
      entry.clear();
    } else if (depth == 0 && !commas && blank) {
      if (!entry.empty()) row.push_back(entry);
      entry.clear();
    } else if (commas || !blank || depth > 0) {
      entry += c;
    }
  }
  endRow();
  return rows;
}

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

class Loader {
 public:
  /// @p text is parsed in place: memory is the text once, its line index and what is kept.
  Loader(std::string text, const std::string& file, const FunctionRegistry& registry,
         const LoaderLimits& limits)
      : text_(std::move(text)), lines_(text_), file_(file), registry_(registry), limits_(limits) {}

  std::unique_ptr<LoadedModel> load() {
    pugi::xml_document doc;
    const pugi::xml_parse_result parsed = doc.load_buffer_inplace(
        text_.data(), text_.size(), pugi::parse_default | pugi::parse_ws_pcdata_single);
    if (!parsed)
      throw LoadError(file_, lineOf(parsed.offset),
                      std::string("malformed XML: ") + parsed.description());
    out_ = std::make_unique<LoadedModel>();
    out_->file = file_;
    Node root = doc.document_element();
    if (std::strcmp(root.name(), "nsdyn") != 0)
      fail(root, "expected the root element <nsdyn>, found <" + std::string(root.name()) + ">");
    check(root, {{"version", "name"},
                 {"parameters", "plugin", "functions", "model", "simulation", "outputs"}});
    if (root.attribute("version") && std::string(root.attribute("version").value()) != "1")
      fail(root, "expected version=\"1\", found version=\"" +
                     std::string(root.attribute("version").value()) + "\"");
    out_->name = root.attribute("name") ? root.attribute("name").value() : stem(file_);
    if (root.attribute("name")) validName(root, out_->name, true);

    if (Node n = single(root, "parameters", false)) parameters(n);
    for (Node p : root.children("plugin")) plugin(p);
    if (Node n = single(root, "functions", false)) functions(n);
    model(single(root, "model", true));
    simulation(single(root, "simulation", true));
    if (out_->scene) stepSizeCheck(single(root, "simulation", true));
    outputs(single(root, "outputs", false));
    return std::move(out_);
  }

 private:
  // ---- places and errors ---------------------------------------------------
  long lineOf(std::ptrdiff_t offset) const {
    return offset < 0 ? 1 : lines_.line(static_cast<std::size_t>(offset));
  }
  long lineOf(const Node& n) const { return lineOf(n.offset_debug()); }

  [[noreturn]] void fail(const Node& n, const std::string& message) const {
    throw LoadError(file_, lineOf(n), "<" + std::string(n.name()) + ">: " + message);
  }

  static std::string stem(const std::string& path) {
    std::string base =
        path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
    const auto dot = base.rfind('.');
    return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
  }

  // Unknown attributes and elements, and stray text, are errors.
  void check(const Node& n, const Allowed& allowed) const {
    for (pugi::xml_attribute a : n.attributes())
      if (std::find(allowed.attributes.begin(), allowed.attributes.end(), a.name()) ==
          allowed.attributes.end())
        fail(n, "unknown attribute '" + std::string(a.name()) + "' (expected " +
                    (allowed.attributes.empty() ? std::string("no attribute")
                                                : "one of: " + join(allowed.attributes)) +
                    ")");
    for (Node c : n.children()) {
      if (c.type() == pugi::node_element) {
        if (std::find(allowed.children.begin(), allowed.children.end(), c.name()) ==
            allowed.children.end())
          throw LoadError(file_, lineOf(c),
                          "unknown element <" + std::string(c.name()) + "> in <" + n.name() +
                              "> (expected " +
                              (allowed.children.empty() ? std::string("no element")
                                                        : "one of: " + join(allowed.children)) +
                              ")");
      } else if ((c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) && !allowed.text &&
                 !trim(c.value()).empty()) {
        fail(n, "expected no text, found '" + trim(c.value()).substr(0, 30) + "'");
      }
    }
  }

  // The child element @p name: at most one; fail if required and absent.
  Node single(const Node& parent, const char* name, bool required) const {
    Node found;
    for (Node c : parent.children(name)) {
      if (found)
        throw LoadError(
            file_, lineOf(c),
            "<" + std::string(name) + ">: expected one in <" + parent.name() + ">, found a second");
      found = c;
    }
    if (required && !found)
      fail(parent, "expected a child element <" + std::string(name) + ">, found none");
    return found;
  }

  std::string requiredAttribute(const Node& n, const char* name, const std::string& meaning) const {
    pugi::xml_attribute a = n.attribute(name);
    if (!a) fail(n, "expected attribute '" + std::string(name) + "' (" + meaning + "), found none");
    const std::string v = trim(a.value());
    if (v.empty())
      fail(n, "expected a value for attribute '" + std::string(name) + "' (" + meaning +
                  "), found an empty one");
    return v;
  }

  // ---- numbers ---------------------------------------------------------------
  Binding parameterBinding(const Reference& ref) const {
    if (ref.norm)
      throw ExpressionError("'" + ref.text() +
                            "': norm() reads a vector of the model, in outputs only");
    if (ref.field.empty() && !ref.hasIndex) {
      auto it = parameters_.find(ref.base);
      if (it != parameters_.end()) {
        Binding b;
        b.value = it->second;
        return b;
      }
    }
    throw ExpressionError("unknown name '" + ref.text() + "' (expected a number or a parameter" +
                          (parameters_.empty() ? std::string(")") : ": " + parameterNames() + ")"));
  }
  std::string parameterNames() const {
    std::vector<std::string> names;
    for (const auto& p : parameters_) names.push_back(p.first);
    return join(names);
  }

  double evaluate(const Node& n, const std::string& text, const std::string& what) const {
    // a plain decimal number (most entries of a large model) without compiling an expression
    if (!text.empty() && text.size() < 64 &&
        text.find_first_not_of("0123456789+-.eE") == std::string::npos) {
      char* end = nullptr;
      const double v = std::strtod(text.c_str(), &end);
      if (end == text.c_str() + text.size() && std::isfinite(v)) return v;
    }
    try {
      const Expression e =
          Expression::compile(text, [this](const Reference& r) { return parameterBinding(r); });
      const double v = e.evaluate();
      if (!std::isfinite(v))
        fail(n, what + ": expected a finite number, found '" + text + "' = " + std::to_string(v));
      return v;
    } catch (const ExpressionError& e) {
      fail(n, what + ": " + e.what());
    }
  }

  double number(const Node& n, const char* attr, std::optional<double> fallback,
                const std::string& meaning) const {
    if (!n.attribute(attr)) {
      if (fallback) return *fallback;
      fail(n, "expected attribute '" + std::string(attr) + "' (" + meaning + "), found none");
    }
    const std::string text = requiredAttribute(n, attr, meaning);
    return evaluate(n, text, "attribute '" + std::string(attr) + "'");
  }

  // An integer attribute in [minimum, maximum]; a value out of range is refused, never cast.
  long integer(const Node& n, const char* attr, std::optional<long> fallback, long minimum,
               const std::string& meaning, long maximum = kMaxInteger) const {
    if (!n.attribute(attr) && fallback) return *fallback;
    const double v = number(n, attr, std::nullopt, meaning);
    if (v != std::floor(v) || v < static_cast<double>(minimum))
      fail(n, "attribute '" + std::string(attr) +
                  "': expected an integer >= " + std::to_string(minimum) + " (" + meaning +
                  "), found " + trim(n.attribute(attr).value()));
    if (v > static_cast<double>(maximum))
      fail(n, "attribute '" + std::string(attr) + "': expected an integer in [" +
                  std::to_string(minimum) + ", " + std::to_string(maximum) + "] (" + meaning +
                  "), found " + trim(n.attribute(attr).value()) +
                  (trim(n.attribute(attr).value()) == numberText(v) ? "" : " = " + numberText(v)));
    return static_cast<long>(v);
  }
  // An integer attribute stored in an int: at most INT_MAX unless @p maximum is lower.
  int intAttribute(const Node& n, const char* attr, std::optional<long> fallback, long minimum,
                   const std::string& meaning, long maximum = INT_MAX) const {
    return static_cast<int>(
        integer(n, attr, fallback, minimum, meaning, std::min<long>(maximum, INT_MAX)));
  }

  bool boolean(const Node& n, const char* attr, bool fallback) const {
    if (!n.attribute(attr)) return fallback;
    const std::string v = trim(n.attribute(attr).value());
    if (v == "true" || v == "1") return true;
    if (v == "false" || v == "0") return false;
    fail(n, "attribute '" + std::string(attr) + "': expected true or false, found '" + v + "'");
  }

  std::string choice(const Node& n, const char* attr, const std::vector<std::string>& values,
                     const std::string& fallback) const {
    if (!n.attribute(attr)) return fallback;
    const std::string v = trim(n.attribute(attr).value());
    if (std::find(values.begin(), values.end(), v) == values.end())
      fail(n, "attribute '" + std::string(attr) + "': expected one of " + join(values) +
                  ", found '" + v + "'");
    return v;
  }

  SiconosVector vectorData(const Node& n, std::optional<std::size_t> size,
                           const std::string& meaning) const {
    check(n, {{"size"}, {}, true});
    const auto rows = splitEntries(n.text().get());
    std::vector<double> values;
    for (const auto& row : rows)
      for (const auto& entry : row)
        values.push_back(evaluate(n, entry, "entry " + std::to_string(values.size())));
    if (values.empty()) fail(n, "expected the entries of " + meaning + ", found none");
    if (n.attribute("size")) {
      const long declared = integer(n, "size", std::nullopt, 1, "number of entries");
      if (static_cast<std::size_t>(declared) != values.size())
        fail(n, "expected " + std::to_string(declared) + " entries (attribute size), found " +
                    std::to_string(values.size()));
    }
    if (size && values.size() != *size)
      fail(n, "expected " + meaning + " of size " + std::to_string(*size) + ", found " +
                  std::to_string(values.size()) + " entries");
    return SiconosVector(values);
  }

  SimpleMatrix matrixData(const Node& n, std::optional<std::size_t> rowsWanted,
                          std::optional<std::size_t> colsWanted, const std::string& meaning) const {
    check(n, {{"rows", "cols", "form"}, {}, true});
    const std::string form = choice(n, "form", {"full", "diagonal"}, "full");
    const auto text = splitEntries(n.text().get());
    if (text.empty()) fail(n, "expected the entries of " + meaning + ", found none");
    std::vector<std::vector<double>> values;
    for (const auto& row : text) {
      std::vector<double> r;
      for (const auto& entry : row)
        r.push_back(evaluate(
            n, entry,
            "row " + std::to_string(values.size()) + " entry " + std::to_string(r.size())));
      values.push_back(std::move(r));
    }
    SimpleMatrix M;
    if (form == "diagonal") {
      std::vector<double> d;
      for (const auto& r : values) d.insert(d.end(), r.begin(), r.end());
      M = SimpleMatrix::diagonal(SiconosVector(d));
    } else {
      std::size_t rows = values.size(), cols = values.front().size();
      if (rows == 1 && (n.attribute("rows") || n.attribute("cols"))) {
        // one line filled row by row, shaped by rows/cols
        const std::size_t count = cols;
        rows =
            n.attribute("rows")
                ? static_cast<std::size_t>(integer(n, "rows", std::nullopt, 1, "rows"))
                : count / static_cast<std::size_t>(integer(n, "cols", std::nullopt, 1, "columns"));
        cols = rows ? count / rows : 0;
        if (rows * cols != count)
          fail(n, "expected " + std::to_string(rows) + " rows of equal length, found " +
                      std::to_string(count) + " entries");
        std::vector<double> flat = values.front();
        values.assign(rows, std::vector<double>(cols));
        for (std::size_t i = 0; i < rows; ++i)
          for (std::size_t j = 0; j < cols; ++j) values[i][j] = flat[i * cols + j];
      }
      for (std::size_t i = 0; i < values.size(); ++i)
        if (values[i].size() != cols)
          fail(n, "expected every row of " + meaning + " with " + std::to_string(cols) +
                      " entries (as row 0), found " + std::to_string(values[i].size()) +
                      " in row " + std::to_string(i));
      M = SimpleMatrix(rows, cols);
      for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j) M(i, j) = values[i][j];
    }
    if (n.attribute("rows") &&
        M.rows() != static_cast<std::size_t>(integer(n, "rows", std::nullopt, 1, "rows")))
      fail(n, "expected " + std::string(n.attribute("rows").value()) +
                  " rows (attribute rows), found " + shape(M.rows(), M.cols()));
    if (n.attribute("cols") &&
        M.cols() != static_cast<std::size_t>(integer(n, "cols", std::nullopt, 1, "columns")))
      fail(n, "expected " + std::string(n.attribute("cols").value()) +
                  " columns (attribute cols), found " + shape(M.rows(), M.cols()));
    if ((rowsWanted && M.rows() != *rowsWanted) || (colsWanted && M.cols() != *colsWanted))
      fail(n, "expected " + meaning + " of size " +
                  (rowsWanted ? std::to_string(*rowsWanted) : std::string("?")) + "x" +
                  (colsWanted ? std::to_string(*colsWanted) : std::string("?")) + ", found " +
                  shape(M.rows(), M.cols()));
    return M;
  }

  // ---- parameters, plugins, functions --------------------------------------------
  void parameters(const Node& n) {
    check(n, {{}, {"parameter"}});
    for (Node p : n.children("parameter")) {
      check(p, {{"name", "value"}, {}});
      const std::string name = requiredAttribute(p, "name", "parameter name");
      validName(p, name);
      if (parameters_.count(name))
        fail(p, "expected a new parameter name, found '" + name + "' a second time");
      if (name == "t" || name == "k" || name == "h" || name == "pi")
        fail(p, "expected a parameter name other than t, k, h and pi (reserved), found '" + name +
                    "'");
      parameters_[name] = number(p, "value", std::nullopt,
                                 "value, a number or an expression of earlier parameters");
    }
  }

  // Names of letters, digits and '_' (not starting with a digit); file names
  // (the run, the outputs) may also have '-'.
  void validName(const Node& n, const std::string& name, bool fileName = false) const {
    bool ok =
        !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
    for (char c : name)
      ok =
          ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (fileName && c == '-'));
    if (!ok)
      fail(n, std::string("expected a name of letters, digits") + (fileName ? ", '-'" : "") +
                  " and '_' (not starting with a digit), found '" + name + "'");
  }

  void plugin(const Node& n) {
    check(n, {{"library"}, {}});
    if (!limits_.plugins) fail(n, "plugins are not allowed by this loader (LoaderLimits)");
    std::string path = requiredAttribute(n, "library", "path of a shared library");
    if (path[0] != '/' && file_.find('/') != std::string::npos)
      path = file_.substr(0, file_.find_last_of('/') + 1) + path;
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) fail(n, "expected a loadable shared library, found: " + std::string(::dlerror()));
    out_->plugins.emplace_back(handle, [](void* h) { ::dlclose(h); });
    using Entry = void (*)(FunctionRegistry*);
    auto entry = reinterpret_cast<Entry>(::dlsym(handle, NSDYN_PLUGIN_ENTRY_POINT));
    if (!entry)
      fail(n, "expected the library to export " NSDYN_PLUGIN_ENTRY_POINT
              "(nsdyn::io::FunctionRegistry*), found none in " +
                  path);
    entry(&registry_);
  }

  void functions(const Node& n) {
    check(n, {{}, {"function"}});
    for (Node f : n.children("function")) {
      check(f, {{"name", "args", "returns"}, {}, true});
      const std::string name = requiredAttribute(f, "name", "function name");
      validName(f, name);
      if (defined_.count(name))
        fail(f, "expected a new function name, found '" + name + "' a second time");
      const std::string args = choice(f, "args", {"t", "q", "q v t"}, "");
      if (args.empty()) requiredAttribute(f, "args", "t, q or \"q v t\"");
      const std::string returns = choice(f, "returns", {"vector", "matrix"}, "");
      if (returns.empty()) requiredAttribute(f, "returns", "vector or matrix");
      DefinedFunction info;
      info.line = lineOf(f);
      const bool hasQ = args != "t", hasT = args != "q";
      Resolver resolve = [&, hasQ, hasT](const Reference& r) {
        Binding b;
        if (r.field.empty() && r.hasIndex && hasQ &&
            (r.base == "q" || (r.base == "v" && args == "q v t"))) {
          b.kind = r.base == "q" ? Binding::Kind::Q : Binding::Kind::V;
          b.index = r.index;
          if (r.base == "q")
            info.maxQ = std::max(info.maxQ, r.index), info.usesQ = true;
          else
            info.maxV = std::max(info.maxV, r.index), info.usesV = true;
          return b;
        }
        if (r.base == "t" && r.field.empty() && !r.hasIndex && hasT) {
          b.kind = Binding::Kind::Time;
          return b;
        }
        if (!r.field.empty() || r.hasIndex || !parameters_.count(r.base))
          throw ExpressionError("unknown name '" + r.text() + "' (expected " +
                                (args == "t"   ? "t"
                                 : args == "q" ? "q[i]"
                                               : "q[i], v[i], t") +
                                " or a parameter)");
        return parameterBinding(r);
      };
      const auto text = splitEntries(f.text().get());
      if (text.empty()) fail(f, "expected the entries of the function, found none");
      std::vector<std::vector<Expression>> entries;
      for (const auto& row : text) {
        std::vector<Expression> r;
        for (const auto& e : row) {
          try {
            r.push_back(Expression::compile(e, resolve));
          } catch (const ExpressionError& err) {
            fail(f, err.what());
          }
        }
        entries.push_back(std::move(r));
      }
      if (returns == "matrix") {
        for (std::size_t i = 1; i < entries.size(); ++i)
          if (entries[i].size() != entries[0].size())
            fail(f, "expected every row with " + std::to_string(entries[0].size()) +
                        " entries (as row 0), found " + std::to_string(entries[i].size()) +
                        " in row " + std::to_string(i));
      }
      std::vector<Expression> flat;
      for (auto& r : entries) flat.insert(flat.end(), r.begin(), r.end());
      const std::size_t rows = entries.size(), cols = entries[0].size();
      auto vec = [flat](const Arguments& a) {
        SiconosVector out(flat.size());
        for (std::size_t i = 0; i < flat.size(); ++i) out(i) = flat[i].evaluate(a);
        return out;
      };
      auto mat = [flat, rows, cols](const Arguments& a) {
        SimpleMatrix out(rows, cols);
        for (std::size_t i = 0; i < rows; ++i)
          for (std::size_t j = 0; j < cols; ++j) out(i, j) = flat[i * cols + j].evaluate(a);
        return out;
      };
      const bool vector = returns == "vector";
      if (args == "t") {
        if (vector)
          registry_.add(name, FunctionRegistry::VectorOfTime([vec](double t) {
                          return vec({nullptr, nullptr, t});
                        }));
        else
          registry_.add(name, FunctionRegistry::MatrixOfTime([mat](double t) {
                          return mat({nullptr, nullptr, t});
                        }));
      } else if (args == "q") {
        if (vector)
          registry_.add(name, FunctionRegistry::VectorOfQ([vec](const SiconosVector& q) {
                          return vec({&q, nullptr, 0.0});
                        }));
        else
          registry_.add(name, FunctionRegistry::MatrixOfQ([mat](const SiconosVector& q) {
                          return mat({&q, nullptr, 0.0});
                        }));
      } else {
        if (vector)
          registry_.add(name, FunctionRegistry::VectorOfQVT(
                                  [vec](const SiconosVector& q, const SiconosVector& v, double t) {
                                    return vec({&q, &v, t});
                                  }));
        else
          registry_.add(name, FunctionRegistry::MatrixOfQVT(
                                  [mat](const SiconosVector& q, const SiconosVector& v, double t) {
                                    return mat({&q, &v, t});
                                  }));
      }
      defined_[name] = info;
    }
  }

  // The registered function named by attribute 'function' of @p n, with the
  // signature T; @p dof is the size of q (and v) it will be called with.
  template <class T>
  T function(const Node& n, std::size_t dof) const {
    const std::string name = requiredAttribute(n, "function", "name of a function");
    const FunctionRegistry::Function* f = registry_.find(name);
    if (!f) {
      const std::vector<std::string> names = registry_.names();
      fail(n, "reference to an undefined function '" + name +
                  "' (defined: " + (names.empty() ? "none" : join(names)) + ")");
    }
    if (!std::holds_alternative<T>(*f)) {
      FunctionRegistry::Function wanted = T();
      fail(n, "expected function '" + name + "' to be a " + FunctionRegistry::signature(wanted) +
                  ", found a " + FunctionRegistry::signature(*f));
    }
    auto d = defined_.find(name);
    if (d != defined_.end()) {
      if ((d->second.usesQ && d->second.maxQ >= dof) || (d->second.usesV && d->second.maxV >= dof))
        fail(n, "function '" + name + "' (line " + std::to_string(d->second.line) + ") reads q[" +
                    std::to_string(std::max(d->second.maxQ, d->second.maxV)) +
                    "]: expected indices below " + std::to_string(dof) + " (size of q here)");
    }
    return std::get<T>(*f);
  }

  // Evaluate a user function once at load, so that a wrong size is reported here.
  template <class F>
  auto probe(const Node& n, F&& call) const -> decltype(call()) {
    try {
      return call();
    } catch (const std::exception& e) {
      fail(n, std::string("function '") + n.attribute("function").value() +
                  "' failed when evaluated at the initial state: " + e.what());
    }
  }

  void checkVectorSize(const Node& n, const SiconosVector& v, std::size_t size,
                       const std::string& meaning) const {
    if (v.size() != size)
      fail(n, "expected " + meaning + " of size " + std::to_string(size) + ", found " +
                  std::to_string(v.size()) + " from function '" + n.attribute("function").value() +
                  "'");
  }
  void checkMatrixSize(const Node& n, const SimpleMatrix& M, std::size_t rows, std::size_t cols,
                       const std::string& meaning) const {
    if (M.rows() != rows || M.cols() != cols)
      fail(n, "expected " + meaning + " of size " + shape(rows, cols) + ", found " +
                  shape(M.rows(), M.cols()) + " from function '" + n.attribute("function").value() +
                  "'");
  }

  // ---- model -----------------------------------------------------------------
  // The system named @p name (out_->systems), nullptr if none; addSystem keeps the index.
  SP::DynamicalSystem systemNamed(const std::string& name) const {
    const auto at = systemIndex_.find(name);
    return at == systemIndex_.end() ? nullptr : out_->systems[at->second].second;
  }
  void addSystem(const std::string& name, const SP::DynamicalSystem& ds) {
    ds->setName(name);  // Kernel messages name it "NewtonEulerDS 'arm'", not "#0"
    systemIndex_.emplace(name, out_->systems.size());
    out_->systems.emplace_back(name, ds);
  }

  void model(const Node& n) {
    check(n, {{}, {"systems", "interactions", "scene"}});
    Node sceneNode = single(n, "scene", false);
    if (Node s = single(n, "systems", !sceneNode)) systems(s);
    if (Node i = single(n, "interactions", false)) {
      if (sceneNode)
        throw LoadError(
            file_, lineOf(i),
            "<interactions>: expected no interactions in a model with a <scene> (line " +
                std::to_string(lineOf(sceneNode)) +
                "): the contact manager and interactions in one problem are not supported yet");
      interactions(i);
    }
    if (sceneNode) scene(sceneNode);
  }

  void systems(const Node& n) {
    static const std::vector<std::string> kinds = {"LagrangianDS", "LagrangianLinearTIDS",
                                                   "NewtonEulerDS", "FirstOrderLinearDS",
                                                   "FirstOrderLinearTIDS"};
    check(n, {{}, kinds});
    for (Node s : n.children()) {
      if (s.type() != pugi::node_element) continue;
      const std::string name = requiredAttribute(s, "name", "system name");
      validName(s, name);
      if (systemNamed(name))
        fail(s, "expected a new system name, found '" + name + "' a second time");
      SP::DynamicalSystem ds;
      try {
        const std::string kind = s.name();
        if (kind == "LagrangianDS" || kind == "LagrangianLinearTIDS")
          ds = lagrangian(s);
        else if (kind == "NewtonEulerDS")
          ds = newtonEuler(s);
        else
          ds = firstOrder(s);
      } catch (const LoadError&) {
        throw;
      } catch (const nsdyn::Error& e) {
        fail(s, e.what());
      }
      // every system is simulated, linked to an interaction or not
      model_->nonSmoothDynamicalSystem()->insertDynamicalSystem(ds);
      addSystem(name, ds);
    }
    if (out_->systems.empty()) fail(n, "expected at least one system, found none");
  }

  SP::DynamicalSystem lagrangian(const Node& s) {
    const bool linear = std::strcmp(s.name(), "LagrangianLinearTIDS") == 0;
    if (linear)
      check(s, {{"name"}, {"q0", "v0", "mass", "K", "C", "fExt"}});
    else
      check(s, {{"name"}, {"q0", "v0", "mass", "fInt", "jacobianFIntq", "jacobianFIntv", "fExt"}});
    const SiconosVector q0 =
        vectorData(single(s, "q0", true), std::nullopt, "q0 (initial positions)");
    const std::size_t n = q0.size();
    SiconosVector v0(n);
    if (Node v = single(s, "v0", false))
      v0 = vectorData(v, n, "v0 (initial velocities, size of q0)");
    Node m = single(s, "mass", true);
    SP::LagrangianDS ds;
    if (linear) {
      const SimpleMatrix M = matrixData(m, n, n, "the mass matrix (n x n, n = size of q0)");
      checkMass(m, M, "the mass matrix");
      auto lin = std::make_shared<LagrangianLinearTIDS>(q0, v0, M);
      if (Node k = single(s, "K", false)) lin->setK(matrixData(k, n, n, "the stiffness K (n x n)"));
      if (Node c = single(s, "C", false)) lin->setC(matrixData(c, n, n, "the damping C (n x n)"));
      ds = lin;
    } else if (m.attribute("function")) {
      check(m, {{"function"}, {}});
      auto f = function<FunctionRegistry::MatrixOfQ>(m, n);
      const SimpleMatrix Mq0 = probe(m, [&] { return f(q0); });
      checkMatrixSize(m, Mq0, n, n, "the mass M(q) (n x n, n = size of q0)");
      checkMass(m, Mq0, "the mass M(q0)");
      ds = std::make_shared<LagrangianDS>(q0, v0, f);
    } else {
      const SimpleMatrix M = matrixData(m, n, n, "the mass matrix (n x n, n = size of q0)");
      checkMass(m, M, "the mass matrix");
      ds = std::make_shared<LagrangianDS>(q0, v0, M);
    }
    if (!linear) {
      if (Node f = single(s, "fInt", false)) {
        check(f, {{"function"}, {}});
        auto g = function<FunctionRegistry::VectorOfQVT>(f, n);
        checkVectorSize(f, probe(f, [&] { return g(q0, v0, 0.0); }), n, "F_int(q, v, t)");
        ds->setInternalForces(g);
      }
      for (const char* jac : {"jacobianFIntq", "jacobianFIntv"})
        if (Node f = single(s, jac, false)) {
          check(f, {{"function"}, {}});
          auto g = function<FunctionRegistry::MatrixOfQVT>(f, n);
          checkMatrixSize(f, probe(f, [&] { return g(q0, v0, 0.0); }), n, n,
                          std::string("the Jacobian ") + jac);
          if (jac[std::strlen(jac) - 1] == 'q')
            ds->setJacobianFIntq(g);
          else
            ds->setJacobianFIntv(g);
        }
    }
    if (Node f = single(s, "fExt", false)) {
      if (f.attribute("function")) {
        check(f, {{"function"}, {}});
        auto g = function<FunctionRegistry::VectorOfTime>(f, n);
        checkVectorSize(f, probe(f, [&] { return g(0.0); }), n, "F_ext(t)");
        ds->setFExt(g);
      } else {
        ds->setFExt(vectorData(f, n, "the external force (size of q0)"));
      }
    }
    return ds;
  }

  // ---- rigid bodies ---------------------------------------------------------------
  // A vector whose entries are expressions of t and the parameters: constant
  // (no entry reads t) or a function of t.
  struct TimeVector {
    SiconosVector constant;
    FunctionRegistry::VectorOfTime function;  // empty when constant
  };

  Binding timeBinding(const Reference& r) const {
    if (r.base == "t" && r.field.empty() && !r.hasIndex && !r.norm) {
      Binding b;
      b.kind = Binding::Kind::Time;
      return b;
    }
    try {
      return parameterBinding(r);
    } catch (const ExpressionError&) {
      throw ExpressionError(
          "unknown name '" + r.text() + "' (expected t or a parameter" +
          (parameters_.empty() ? std::string(")") : ": " + parameterNames() + ")"));
    }
  }

  // The entries of @p text (of element @p n, @p what for messages): @p size of them.
  TimeVector timeVector(const Node& n, const std::string& text, std::size_t size,
                        const std::string& what) const {
    const auto rows = splitEntries(text);
    std::vector<Expression> entries;
    for (const auto& row : rows)
      for (const auto& e : row) {
        try {
          entries.push_back(
              Expression::compile(e, [this](const Reference& r) { return timeBinding(r); }));
        } catch (const ExpressionError& err) {
          fail(n, what + ": entry " + std::to_string(entries.size()) + ": " + err.what());
        }
      }
    if (entries.size() != size)
      fail(n, what + ": expected " + std::to_string(size) + " entries, found " +
                  std::to_string(entries.size()));
    TimeVector out;
    bool constant = true;
    for (const Expression& e : entries) constant = constant && e.isConstant();
    // the values at t = 0 must be finite (a constant is checked once for all)
    SiconosVector at0(size);
    for (std::size_t i = 0; i < size; ++i) {
      at0(i) = entries[i].evaluate(Arguments{nullptr, nullptr, 0.0});
      if (constant && !std::isfinite(at0(i)))
        fail(n, what + ": entry " + std::to_string(i) + ": expected a finite number, found '" +
                    entries[i].text() + "' = " + std::to_string(at0(i)));
    }
    if (constant) {
      out.constant = at0;
    } else {
      out.function = [entries](double t) {
        SiconosVector v(entries.size());
        for (std::size_t i = 0; i < entries.size(); ++i)
          v(i) = entries[i].evaluate(Arguments{nullptr, nullptr, t});
        return v;
      };
    }
    return out;
  }

  // A vector given by an attribute (entries as in element text), @p size entries.
  SiconosVector vectorAttribute(const Node& n, const char* attr, std::size_t size,
                                const std::string& meaning) const {
    const std::string text = requiredAttribute(n, attr, meaning);
    std::vector<double> values;
    for (const auto& row : splitEntries(text))
      for (const auto& e : row)
        values.push_back(evaluate(
            n, e, "attribute '" + std::string(attr) + "' entry " + std::to_string(values.size())));
    if (values.size() != size)
      fail(n, "attribute '" + std::string(attr) + "': expected " + meaning + ", " +
                  std::to_string(size) + " entries, found " + std::to_string(values.size()));
    return SiconosVector(values);
  }

  // t in a message: the shortest of 12 significant digits (0.06, not 0.059999999999999998).
  static std::string timeText(double t, int digits = 12) {
    std::ostringstream s;
    s.precision(digits);
    s << t;
    return s.str();
  }
  static std::string numberText(double x) {
    std::ostringstream s;
    s.precision(17);
    s << x;
    return s.str();
  }

  // <fExt>/<mExt> of a body: 3 entries (expressions of t allowed) or a function of t. A
  // function of t is checked at each evaluation: a value that is not finite stops the run
  // with the body's name, the element's line, the entry, its value and t (it reached the
  // solver as "LAPACK error -8" or "body 1: v_free[3] = -nan").
  TimeVector bodyLoad(const Node& f, const std::string& meaning) const {
    TimeVector load;
    if (f.attribute("function")) {
      check(f, {{"function"}, {}});
      auto g = function<FunctionRegistry::VectorOfTime>(f, 0);
      checkVectorSize(f, probe(f, [&] { return g(0.0); }), 3, meaning);
      load = {SiconosVector(), g};
    } else {
      check(f, {{"size"}, {}, true});
      if (f.attribute("size") && integer(f, "size", std::nullopt, 1, "number of entries") != 3)
        fail(f, "attribute 'size': expected 3 (" + meaning + "), found " +
                    f.attribute("size").value());
      load = timeVector(f, f.text().get(), 3, meaning);
    }
    if (load.function) {
      const std::string where = file_ + ":" + std::to_string(lineOf(f)) + ": <" + f.name() +
                                "> of body '" + f.parent().attribute("name").value() + "'";
      const std::string text = f.attribute("function") ? std::string("function '") +
                                                             f.attribute("function").value() + "'"
                                                       : "'" + trim(f.text().get()) + "'";
      load.function = [inner = load.function, where, text](double t) {
        SiconosVector v = inner(t);
        for (std::size_t i = 0; i < v.size(); ++i)
          if (!std::isfinite(v(i)))
            throw nsdyn::Error(
                where, "finite values (" + text + ")",
                "entry " + std::to_string(i) + " = " + numberText(v(i)) + " at t = " + timeText(t));
        return v;
      };
    }
    return load;
  }

  // <inertia>: 3x3 (rows separated by ';', or 9 entries row by row), or 3 with form="diagonal".
  SimpleMatrix inertiaData(const Node& in) const {
    const std::string meaning =
        "the inertia (3x3, body frame: 9 entries, or 3 with form=\"diagonal\")";
    const auto rows = splitEntries(in.text().get());
    if (!in.attribute("rows") && !in.attribute("cols") && !in.attribute("form") &&
        rows.size() == 1 && rows.front().size() == 9) {
      check(in, {{}, {}, true});
      SimpleMatrix I(3, 3);
      for (std::size_t k = 0; k < 9; ++k)
        I(k / 3, k % 3) =
            evaluate(in, rows.front()[k],
                     "row " + std::to_string(k / 3) + " entry " + std::to_string(k % 3));
      return I;
    }
    return matrixData(in, 3, 3, meaning);
  }

  // The orientation of @p s: its <quaternion> (unit) or <axisAngle> child; the identity
  // when it has neither.
  SiconosVector orientationChildren(const Node& s) const {
    Node qn = single(s, "quaternion", false), an = single(s, "axisAngle", false);
    if (qn && an)
      throw LoadError(file_, lineOf(an),
                      "<axisAngle>: expected one orientation, found <quaternion> (line " +
                          std::to_string(lineOf(qn)) + ") too");
    SiconosVector quat{1.0, 0.0, 0.0, 0.0};
    if (qn) {
      quat = vectorData(qn, 4, "a unit quaternion q0 q1 q2 q3 (scalar first, body -> world)");
      const double norm = quat.norm2();
      if (!(norm > 0.0))
        fail(qn, "expected a unit quaternion q0 q1 q2 q3, found a zero quaternion (norm " +
                     numberText(norm) + ")");
      if (std::abs(norm - 1.0) > 1e-8)
        fail(qn, "expected a unit quaternion q0 q1 q2 q3 (|norm - 1| <= 1e-8), found norm " +
                     numberText(norm) + " (" + quat.toString() +
                     "); normalise it or give <axisAngle>");
    } else if (an) {
      check(an, {{"axis", "angle"}, {}});
      const SiconosVector axis =
          vectorAttribute(an, "axis", 3, "the rotation axis (body -> world)");
      const double angle = number(an, "angle", std::nullopt, "rotation angle in radians");
      if (!(axis.norm2() > 0.0))
        fail(an, "attribute 'axis': expected an axis of non-zero length, found " + axis.toString());
      const quaternion::Quat r = quaternion::fromAxisAngle({axis(0), axis(1), axis(2)}, angle);
      quat = SiconosVector{r[0], r[1], r[2], r[3]};
    }
    return quat;
  }

  SP::DynamicalSystem newtonEuler(const Node& s) {
    check(s, {{"name", "gyroscopic", "gyroscopic-scheme"},
              {"mass", "inertia", "position", "quaternion", "axisAngle", "velocity",
               "angularVelocity", "fExt", "mExt", "boundaryCondition"}});
    // mass: a number > 0
    Node mn = single(s, "mass", true);
    check(mn, {{}, {}, true});
    const std::string mtext = trim(mn.text().get());
    if (mtext.empty()) fail(mn, "expected the mass m > 0 of the body, found none");
    const double m = evaluate(mn, mtext, "the mass");
    if (!(m > 0.0))
      fail(mn, "expected the mass m > 0 of the body, found m = " + numberText(m) + " ('" + mtext +
                   "')");
    // inertia: 3x3 (body frame), symmetric positive definite
    Node in = single(s, "inertia", true);
    const SimpleMatrix I = inertiaData(in);
    double scale = 0.0;
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j) scale = std::max(scale, std::abs(I(i, j)));
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = i + 1; j < 3; ++j)
        if (std::abs(I(i, j) - I(j, i)) > 1e-12 * scale)
          fail(in, "expected a symmetric inertia matrix, found I(" + std::to_string(i) + "," +
                       std::to_string(j) + ") = " + numberText(I(i, j)) + " and I(" +
                       std::to_string(j) + "," + std::to_string(i) + ") = " + numberText(I(j, i)));
    const double m1 = I(0, 0);
    const double m2 = I(0, 0) * I(1, 1) - I(0, 1) * I(1, 0);
    const double m3 = I(0, 0) * (I(1, 1) * I(2, 2) - I(1, 2) * I(2, 1)) -
                      I(0, 1) * (I(1, 0) * I(2, 2) - I(1, 2) * I(2, 0)) +
                      I(0, 2) * (I(1, 0) * I(2, 1) - I(1, 1) * I(2, 0));
    if (!(m1 > 0.0) || !(m2 > 0.0) || !(m3 > 0.0))
      fail(
          in,
          "expected a positive definite inertia matrix (leading principal minors > 0), "
          "found minors " +
              numberText(m1) + ", " + numberText(m2) + ", " + numberText(m3) +
              (m1 <= 0.0 || I(1, 1) <= 0.0 || I(2, 2) <= 0.0 ? " (a diagonal entry is <= 0)" : ""));
    // position, orientation, velocities
    SiconosVector q0(7), v0(6);
    if (Node p = single(s, "position", false))
      q0.setSegment(0, vectorData(p, 3, "the position of the centre of mass (3, world frame)"));
    const SiconosVector quat = orientationChildren(s);
    q0.setSegment(3, quat);
    if (Node v = single(s, "velocity", false))
      v0.setSegment(0, vectorData(v, 3, "the velocity of the centre of mass (3, world frame)"));
    if (Node w = single(s, "angularVelocity", false))
      v0.setSegment(3, vectorData(w, 3, "the angular velocity (3, body frame)"));
    SP::NewtonEulerDS ds;
    try {
      ds = std::make_shared<NewtonEulerDS>(q0, v0, m, I);
    } catch (const nsdyn::Error& e) {
      fail(s, e.what());
    }
    ds->setGyroscopic(boolean(s, "gyroscopic", true));
    ds->setGyroscopicScheme(choice(s, "gyroscopic-scheme", {"trapezoidal", "energy-momentum"},
                                   "trapezoidal") == "energy-momentum"
                                ? NewtonEulerDS::GyroscopicScheme::EnergyMomentum
                                : NewtonEulerDS::GyroscopicScheme::Trapezoidal);
    if (Node f = single(s, "fExt", false)) {
      TimeVector load = bodyLoad(f, "the external force f_ext (3, world frame)");
      if (load.function)
        ds->setFExt(load.function);
      else
        ds->setFExt(load.constant);
    }
    if (Node f = single(s, "mExt", false)) {
      TimeVector load = bodyLoad(f, "the external moment m_ext (3, body frame)");
      if (load.function)
        ds->setMExt(load.function);
      else
        ds->setMExt(load.constant);
    }
    if (Node b = single(s, "boundaryCondition", false)) boundaryCondition(b, *ds);
    return ds;
  }

  // <boundaryCondition indices="0" values="2+cos(pi*t/2)"/>: prescribed velocity components.
  void boundaryCondition(const Node& b, NewtonEulerDS& ds) const {
    check(b, {{"indices", "values", "function"}, {}});
    const std::string meaning =
        "velocity indices 0-5 (0-2: linear velocity, world frame; 3-5: angular velocity, body "
        "frame)";
    std::vector<std::size_t> indices;
    for (const auto& row : splitEntries(requiredAttribute(b, "indices", meaning)))
      for (const auto& e : row) {
        const double v =
            evaluate(b, e, "attribute 'indices' entry " + std::to_string(indices.size()));
        if (v != std::floor(v) || v < 0.0 || v > 5.0)
          fail(b, "attribute 'indices': expected " + meaning + ", found " + e +
                      (v == std::floor(v) ? "" : " (not an integer)"));
        const auto index = static_cast<std::size_t>(v);
        if (std::find(indices.begin(), indices.end(), index) != indices.end())
          fail(b, "attribute 'indices': expected distinct indices, found " + e + " twice");
        indices.push_back(index);
      }
    if (indices.empty()) fail(b, "attribute 'indices': expected " + meaning + ", found none");
    if (b.attribute("values") && b.attribute("function"))
      fail(b, "expected either 'values' or 'function' (the prescribed velocities), found both");
    FunctionRegistry::VectorOfTime values;
    const std::string what = "the prescribed velocities (one per index, functions of t)";
    if (b.attribute("function")) {
      values = function<FunctionRegistry::VectorOfTime>(b, 0);
      checkVectorSize(b, probe(b, [&] { return values(0.0); }), indices.size(), what);
    } else {
      TimeVector v =
          timeVector(b, requiredAttribute(b, "values", what), indices.size(), "attribute 'values'");
      if (v.function)
        values = v.function;
      else
        values = [c = v.constant](double) { return c; };
    }
    try {
      ds.setBoundaryConditions(indices, values);
    } catch (const nsdyn::Error& e) {
      fail(b, e.what());
    }
  }

  SP::DynamicalSystem firstOrder(const Node& s) {
    const bool ti = std::strcmp(s.name(), "FirstOrderLinearTIDS") == 0;
    check(s, {{"name"}, {"x0", "A", "b"}});
    const SiconosVector x0 = vectorData(single(s, "x0", true), std::nullopt, "x0 (initial state)");
    const std::size_t n = x0.size();
    Node a = single(s, "A", true);
    SP::FirstOrderLinearDS ds;
    if (!ti && a.attribute("function")) {
      check(a, {{"function"}, {}});
      auto f = function<FunctionRegistry::MatrixOfTime>(a, n);
      checkMatrixSize(a, probe(a, [&] { return f(0.0); }), n, n, "A(t) (n x n, n = size of x0)");
      ds = std::make_shared<FirstOrderLinearDS>(x0, f);
    } else {
      const SimpleMatrix A = matrixData(a, n, n, "A (n x n, n = size of x0)");
      if (ti)
        ds = std::make_shared<FirstOrderLinearTIDS>(x0, A);
      else
        ds = std::make_shared<FirstOrderLinearDS>(x0, A);
    }
    if (Node b = single(s, "b", false)) {
      if (!ti && b.attribute("function")) {
        check(b, {{"function"}, {}});
        auto f = function<FunctionRegistry::VectorOfTime>(b, n);
        checkVectorSize(b, probe(b, [&] { return f(0.0); }), n, "b(t)");
        ds->setb(f);
      } else {
        ds->setb(vectorData(b, n, "b (size of x0)"));
      }
    }
    return ds;
  }

  // ---- interactions ---------------------------------------------------------------
  void interactions(const Node& n) {
    check(n, {{}, {"interaction"}});
    for (Node i : n.children("interaction")) interaction(i);
  }

  // A restitution coefficient: in [0, 1] (e > 1 creates energy at every impact).
  double restitution(const Node& l, const char* attr, std::optional<double> fallback,
                     const std::string& meaning) const {
    const double e = number(l, attr, fallback, meaning);
    if (!(e >= 0.0 && e <= 1.0))
      fail(l, "attribute '" + std::string(attr) + "': expected a " + meaning +
                  " in [0, 1], found " + numberText(e) + " ('" + l.attribute(attr).value() + "')");
    return e;
  }

  // A mass matrix: symmetric and positive definite (Cholesky), or the run fails at every
  // step (a negative mass makes every LCP of the run unsolvable). The value is named.
  void checkMass(const Node& m, const SimpleMatrix& M, const std::string& what) const {
    const std::size_t n = M.size(0);
    if (M.size(1) != n) return;  // sizes are checked where the matrix is read
    double scale = 0.0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) scale = std::max(scale, std::abs(M(i, j)));
    auto at = [](std::size_t i, std::size_t j) {
      return "M(" + std::to_string(i) + "," + std::to_string(j) + ")";
    };
    for (std::size_t i = 0; i < n; ++i)
      if (!(M(i, i) > 0.0))
        fail(m, "expected " + what + " positive definite, found " + at(i, i) + " = " +
                    numberText(M(i, i)) + " (a mass or inertia entry must be > 0)");
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j)
        if (!(std::abs(M(i, j) - M(j, i)) <= 1e-12 * scale))
          fail(m, "expected " + what + " symmetric, found " + at(i, j) + " = " +
                      numberText(M(i, j)) + " and " + at(j, i) + " = " + numberText(M(j, i)));
    // Cholesky on the lower triangle: a pivot <= 0 means not positive definite
    std::vector<double> L(n * n, 0.0);
    for (std::size_t j = 0; j < n; ++j) {
      double d = M(j, j);
      for (std::size_t k = 0; k < j; ++k) d -= L[j * n + k] * L[j * n + k];
      if (!(d > 1e-14 * scale))
        fail(m, "expected " + what + " positive definite, found a Cholesky pivot " + numberText(d) +
                    " at row " + std::to_string(j) + " (its leading " + std::to_string(j + 1) +
                    "x" + std::to_string(j + 1) + " block is singular or indefinite)");
      L[j * n + j] = std::sqrt(d);
      for (std::size_t i = j + 1; i < n; ++i) {
        double v = M(i, j);
        for (std::size_t k = 0; k < j; ++k) v -= L[i * n + k] * L[j * n + k];
        L[i * n + j] = v / L[j * n + j];
      }
    }
  }

  SP::NonSmoothLaw law(const Node& l) const {
    const std::string kind = l.name();
    try {
      if (kind == "NewtonImpactNSL") {
        check(l, {{"e", "size"}, {}});
        return std::make_shared<NewtonImpactNSL>(
            restitution(l, "e", std::nullopt, "restitution coefficient"),
            static_cast<std::size_t>(integer(l, "size", 1, 1, "rows", kMaxLawRows)));
      }
      if (kind == "NewtonImpactFrictionNSL") {
        check(l, {{"en", "et", "mu", "dim"}, {}});
        const double mu = number(l, "mu", std::nullopt, "friction coefficient");
        if (!(mu >= 0.0))
          fail(l, "attribute 'mu': expected a friction coefficient >= 0, found " + numberText(mu) +
                      " ('" + l.attribute("mu").value() + "')");
        return std::make_shared<NewtonImpactFrictionNSL>(
            restitution(l, "en", std::nullopt, "normal restitution"),
            restitution(l, "et", 0.0, "tangential restitution"), mu,
            static_cast<std::size_t>(
                integer(l, "dim", std::nullopt, 2, "contact dimension, 2 or 3", 3)));
      }
      if (kind == "ComplementarityConditionNSL") {
        check(l, {{"size"}, {}});
        return std::make_shared<ComplementarityConditionNSL>(
            static_cast<std::size_t>(integer(l, "size", 1, 1, "rows", kMaxLawRows)));
      }
      if (kind == "EqualityConditionNSL") {
        check(l, {{"size"}, {}});
        return std::make_shared<EqualityConditionNSL>(
            static_cast<std::size_t>(integer(l, "size", 1, 1, "rows", kMaxLawRows)));
      }
      if (kind == "MixedComplementarityConditionNSL") {
        check(l, {{"equalities", "complementarities"}, {}});
        return std::make_shared<MixedComplementarityConditionNSL>(
            static_cast<std::size_t>(
                integer(l, "equalities", std::nullopt, 0, "equality rows", kMaxLawRows)),
            static_cast<std::size_t>(integer(l, "complementarities", std::nullopt, 0,
                                             "complementarity rows", kMaxLawRows)));
      }
      check(l, {{"size", "lb", "ub"}, {}});
      return std::make_shared<RelayNSL>(
          static_cast<std::size_t>(integer(l, "size", 1, 1, "rows", kMaxLawRows)),
          number(l, "lb", -1.0, "lower bound"), number(l, "ub", 1.0, "upper bound"));
    } catch (const LoadError&) {
      throw;
    } catch (const nsdyn::Error& e) {
      fail(l, e.what());
    }
  }

  void interaction(const Node& n) {
    static const std::vector<std::string> laws = {
        "NewtonImpactNSL",      "NewtonImpactFrictionNSL",          "ComplementarityConditionNSL",
        "EqualityConditionNSL", "MixedComplementarityConditionNSL", "RelayNSL"};
    static const std::vector<std::string> relations = {
        "LagrangianLinearTIR", "LagrangianScleronomousR",
        "NewtonEulerR",        "SpherePlaneContact",
        "KneeJointR",          "PivotJointR",
        "PrismaticJointR",     "FixedJointR",
        "FirstOrderLinearR",   "FirstOrderLinearTIR"};
    std::vector<std::string> children = laws;
    children.insert(children.end(), relations.begin(), relations.end());
    check(n, {{"name", "systems"}, children});
    const std::string name = requiredAttribute(n, "name", "interaction name");
    validName(n, name);
    if (interactionIndex_.count(name))
      fail(n, "expected a new interaction name, found '" + name + "' a second time");

    // linked systems
    std::vector<std::string> names;
    std::stringstream in(requiredAttribute(n, "systems", "one or two system names"));
    for (std::string s; in >> s;) names.push_back(s);
    if (names.size() > 2)
      fail(n, "attribute 'systems': expected one or two system names, found " +
                  std::to_string(names.size()));
    std::vector<SP::DynamicalSystem> linked;
    for (const std::string& s : names) {
      SP::DynamicalSystem ds = systemNamed(s);
      if (!ds) {
        std::vector<std::string> defined;
        for (const auto& e : out_->systems) defined.push_back(e.first);
        fail(n, "reference to an undefined system '" + s + "' (defined: " + join(defined) + ")");
      }
      linked.push_back(ds);
    }
    if (linked.size() == 2 && linked[0] == linked[1])
      fail(n,
           "attribute 'systems': expected two different systems, found '" + names[0] + "' twice");
    const DynamicalSystemKind kind = linked[0]->kind();
    for (const auto& ds : linked)
      if (ds->kind() != kind)
        fail(n,
             "attribute 'systems': expected systems of one kind (Lagrangian, rigid bodies or "
             "first order), found " +
                 names[0] + " (" + linked[0]->className() + ") and " + names[1] + " (" +
                 linked[1]->className() + ")");
    std::size_t dof = 0;
    for (const auto& ds : linked) dof += ds->dimension();

    // one law and one relation
    Node lawNode, relationNode;
    for (Node c : n.children()) {
      if (c.type() != pugi::node_element) continue;
      const bool isLaw = std::find(laws.begin(), laws.end(), c.name()) != laws.end();
      Node& slot = isLaw ? lawNode : relationNode;
      if (slot)
        throw LoadError(file_, lineOf(c),
                        "<" + std::string(c.name()) + ">: expected one " +
                            (isLaw ? "law" : "relation") + " per interaction, found a second");
      slot = c;
    }
    if (!lawNode) fail(n, "expected a nonsmooth law (" + join(laws) + "), found none");
    if (!relationNode) fail(n, "expected a relation (" + join(relations) + "), found none");
    SP::NonSmoothLaw nsl = law(lawNode);
    const std::size_t m = nsl->size();
    const std::string rk = relationNode.name();
    auto kindName = [](DynamicalSystemKind k) {
      return k == DynamicalSystemKind::Lagrangian    ? std::string("Lagrangian")
             : k == DynamicalSystemKind::NewtonEuler ? std::string("rigid-body")
                                                     : std::string("first-order");
    };
    const DynamicalSystemKind relationKind =
        rk.rfind("Lagrangian", 0) == 0   ? DynamicalSystemKind::Lagrangian
        : rk.rfind("FirstOrder", 0) == 0 ? DynamicalSystemKind::FirstOrder
                                         : DynamicalSystemKind::NewtonEuler;
    if (relationKind != kind)
      throw LoadError(file_, lineOf(relationNode),
                      "<" + rk + ">: expected a " + kindName(kind) + " relation for the systems " +
                          join(names) + ", found a " + kindName(relationKind) + " one");
    SP::Relation relation;
    try {
      if (relationKind == DynamicalSystemKind::Lagrangian)
        relation = lagrangianR(relationNode, m, dof, linked);
      else if (relationKind == DynamicalSystemKind::NewtonEuler)
        relation = rigidBodyR(relationNode, m, linked, names);
      else
        relation = firstOrderR(relationNode, m, dof);
    } catch (const LoadError&) {
      throw;
    } catch (const nsdyn::Error& e) {
      fail(relationNode, e.what());
    }
    auto inter = std::make_shared<Interaction>(nsl, relation);
    try {
      model_->nonSmoothDynamicalSystem()->link(inter, linked[0],
                                               linked.size() > 1 ? linked[1] : nullptr);
      // the Kernel's checks of the relation against its law and systems, here
      // rather than at Model::initialize() (the line of the interaction)
      inter->checkConsistency();
    } catch (const nsdyn::Error& e) {
      fail(n, e.what());
    }
    interactionIndex_.emplace(name, out_->interactions.size());
    out_->interactions.emplace_back(name, inter);
  }

  SP::Relation lagrangianR(const Node& r, std::size_t m, std::size_t dof,
                           const std::vector<SP::DynamicalSystem>& linked) const {
    const std::string mdof = " (" + shape(m, dof) + ": law size x dof of the linked systems)";
    if (std::strcmp(r.name(), "LagrangianLinearTIR") == 0) {
      check(r, {{}, {"H", "b"}});
      SimpleMatrix H = matrixData(single(r, "H", true), m, dof, "H" + mdof);
      if (Node b = single(r, "b", false))
        return std::make_shared<LagrangianLinearTIR>(H, vectorData(b, m, "b (law size)"));
      return std::make_shared<LagrangianLinearTIR>(H);
    }
    check(r, {{}, {"h", "G"}});
    Node hn = single(r, "h", true), gn = single(r, "G", true);
    check(hn, {{"function"}, {}});
    check(gn, {{"function"}, {}});
    auto h = function<FunctionRegistry::VectorOfQ>(hn, dof);
    auto G = function<FunctionRegistry::MatrixOfQ>(gn, dof);
    SiconosVector q(dof);
    std::size_t at = 0;
    for (const auto& ds : linked) {
      q.setSegment(at, std::static_pointer_cast<LagrangianDS>(ds)->q());
      at += ds->dimension();
    }
    checkVectorSize(hn, probe(hn, [&] { return h(q); }), m, "h(q) (law size)");
    checkMatrixSize(gn, probe(gn, [&] { return G(q); }), m, dof, "G(q)" + mdof);
    return std::make_shared<LagrangianScleronomousR>(h, G);
  }

  // Relations of rigid bodies: constant NewtonEulerR, a sphere against a plane, joints.
  SP::Relation rigidBodyR(const Node& r, std::size_t m,
                          const std::vector<SP::DynamicalSystem>& linked,
                          const std::vector<std::string>& names) const {
    const std::string kind = r.name();
    std::vector<SP::NewtonEulerDS> bodies;
    for (const auto& ds : linked) bodies.push_back(std::static_pointer_cast<NewtonEulerDS>(ds));
    const std::size_t nb = bodies.size();
    if (kind == "NewtonEulerR") {
      check(r, {{}, {"C", "e"}});
      const SimpleMatrix C = matrixData(
          single(r, "C", true), m, 7 * nb,
          "C (" + shape(m, 7 * nb) + ": law size x 7 position coordinates per linked body)");
      if (Node e = single(r, "e", false))
        return std::make_shared<NewtonEulerR>(C, vectorData(e, m, "e (law size)"));
      return std::make_shared<NewtonEulerR>(C);
    }
    if (kind == "SpherePlaneContact") return spherePlane(r, m, nb);
    if (kind == "FixedJointR") {
      check(r, {{}, {}});
      return nb == 1 ? std::make_shared<FixedJointR>(bodies[0])
                     : std::make_shared<FixedJointR>(bodies[0], bodies[1]);
    }
    const bool absolute = [&] {
      requiredAttribute(
          r, "absolute",
          "true: point and axis in the world frame, false: in the frame of " + names[0]);
      return boolean(r, "absolute", true);
    }();
    if (kind == "KneeJointR") {
      check(r, {{"point", "absolute"}, {}});
      const SiconosVector P = vectorAttribute(r, "point", 3, "the joint point");
      return nb == 1 ? std::make_shared<KneeJointR>(P, absolute, bodies[0])
                     : std::make_shared<KneeJointR>(P, absolute, bodies[0], bodies[1]);
    }
    auto axisOf = [&] {
      const SiconosVector axis = vectorAttribute(r, "axis", 3, "the joint axis");
      if (!(axis.norm2() > 0.0))
        fail(r, "attribute 'axis': expected an axis of non-zero length, found " + axis.toString() +
                    " ('" + trim(r.attribute("axis").value()) + "')");
      return axis;
    };
    if (kind == "PivotJointR") {
      check(r, {{"point", "axis", "absolute"}, {}});
      const SiconosVector P = vectorAttribute(r, "point", 3, "the joint point");
      const SiconosVector axis = axisOf();
      return nb == 1 ? std::make_shared<PivotJointR>(P, axis, absolute, bodies[0])
                     : std::make_shared<PivotJointR>(P, axis, absolute, bodies[0], bodies[1]);
    }
    check(r, {{"axis", "absolute"}, {}});  // PrismaticJointR
    const SiconosVector axis = axisOf();
    return nb == 1 ? std::make_shared<PrismaticJointR>(axis, absolute, bodies[0])
                   : std::make_shared<PrismaticJointR>(axis, absolute, bodies[0], bodies[1]);
  }

  // A sphere of radius R (the first body, centre G1) against a plane N·x = c:
  // fixed (one body, c = offset) or carried by the second body (c = N·G2 + offset);
  // N in the world frame. gap = ((N·G1 − R) − N·G2) − offset, contact points
  // Pc1 = G1 − R N (on the sphere) and Pc2 = Pc1 − gap N (on the plane).
  SP::Relation spherePlane(const Node& r, std::size_t m, std::size_t nb) const {
    check(r, {{"radius", "normal", "offset"}, {}});
    const double R = number(r, "radius", std::nullopt, "radius of the sphere");
    if (!(R >= 0.0)) fail(r, "attribute 'radius': expected a radius >= 0, found " + numberText(R));
    SiconosVector N = vectorAttribute(r, "normal", 3, "the plane's normal (world frame)");
    const double length = N.norm2();
    if (!(length > 0.0))
      fail(r, "attribute 'normal': expected a normal of non-zero length, found " + N.toString());
    N /= length;
    const double offset = number(r, "offset", 0.0, "offset of the plane along its normal");
    if (m != 1 && m != 3)
      fail(r,
           "expected a law of size 1 (normal row: NewtonImpactNSL) or 3 (normal and "
           "tangent rows: NewtonImpactFrictionNSL dim=\"3\"), found size " +
               std::to_string(m));
    const bool two = nb == 2;
    const double n0 = N(0), n1 = N(1), n2 = N(2);
    NewtonEuler1DR::GapFunction gap = [R, offset, two, n0, n1, n2](const SiconosVector& q, double,
                                                                   NewtonEuler1DR::Geometry& g) {
      double d = n0 * q(0) + n1 * q(1) + n2 * q(2) - R;
      if (two) d = d - (n0 * q(7) + n1 * q(8) + n2 * q(9));
      d = d - offset;
      g.N = SiconosVector{n0, n1, n2};
      g.Pc1 = SiconosVector{q(0) - R * n0, q(1) - R * n1, q(2) - R * n2};
      if (two) g.Pc2 = SiconosVector{g.Pc1(0) - d * n0, g.Pc1(1) - d * n1, g.Pc1(2) - d * n2};
      return d;
    };
    if (m == 1) return std::make_shared<NewtonEuler1DR>(gap);
    return std::make_shared<NewtonEuler3DR>(gap);
  }

  SP::Relation firstOrderR(const Node& r, std::size_t m, std::size_t n) const {
    const bool ti = std::strcmp(r.name(), "FirstOrderLinearTIR") == 0;
    if (ti)
      check(r, {{}, {"C", "D", "B", "e"}});
    else
      check(r, {{}, {"C", "D", "B", "e", "F", "u"}});
    Node cn = single(r, "C", true), bn = single(r, "B", true), dn = single(r, "D", false),
         en = single(r, "e", false);
    const std::string cs = "C (" + shape(m, n) + ": law size x dimension of the linked systems)";
    const std::string bs = "B (" + shape(n, m) + ": dimension x law size)";
    const std::string ds = "D (" + shape(m, m) + ": law size)";
    if (ti) {
      SimpleMatrix C = matrixData(cn, m, n, cs), B = matrixData(bn, n, m, bs);
      SimpleMatrix D = dn ? matrixData(dn, m, m, ds) : SimpleMatrix(m, m);
      if (en)
        return std::make_shared<FirstOrderLinearTIR>(C, D, B, vectorData(en, m, "e (law size)"));
      if (dn) return std::make_shared<FirstOrderLinearTIR>(C, D, B);
      return std::make_shared<FirstOrderLinearTIR>(C, B);
    }
    // each of C, D, B, e: a constant or a function of t
    auto matrixOrFunction = [&](const Node& x, std::size_t rows, std::size_t cols,
                                const std::string& meaning, SimpleMatrix* constant,
                                FunctionRegistry::MatrixOfTime* f) {
      if (x.attribute("function")) {
        check(x, {{"function"}, {}});
        *f = function<FunctionRegistry::MatrixOfTime>(x, n);
        checkMatrixSize(x, probe(x, [&] { return (*f)(0.0); }), rows, cols, meaning);
      } else {
        *constant = matrixData(x, rows, cols, meaning);
      }
    };
    SimpleMatrix C, B, D;
    FunctionRegistry::MatrixOfTime cf, bf, df;
    matrixOrFunction(cn, m, n, cs, &C, &cf);
    matrixOrFunction(bn, n, m, bs, &B, &bf);
    auto rel = std::make_shared<FirstOrderLinearR>(C, B);
    if (cf) rel->setC(cf);
    if (bf) rel->setB(bf);
    if (dn) {
      matrixOrFunction(dn, m, m, ds, &D, &df);
      if (df)
        rel->setD(df);
      else
        rel->setD(D);
    }
    if (en) {
      if (en.attribute("function")) {
        check(en, {{"function"}, {}});
        auto f = function<FunctionRegistry::VectorOfTime>(en, n);
        checkVectorSize(en, probe(en, [&] { return f(0.0); }), m, "e(t) (law size)");
        rel->sete(f);
      } else {
        rel->sete(vectorData(en, m, "e (law size)"));
      }
    }
    Node fn = single(r, "F", false), un = single(r, "u", false);
    if (static_cast<bool>(fn) != static_cast<bool>(un))
      fail(r, std::string("expected both <F> and <u> (the F u term), found only <") +
                  (fn ? "F" : "u") + ">");
    if (fn) {
      if (un.attribute("function")) {
        check(un, {{"function"}, {}});
        auto u = function<FunctionRegistry::VectorOfTime>(un, n);
        const SiconosVector u0 = probe(un, [&] { return u(0.0); });
        rel->setF(matrixData(fn, m, u0.size(), "F (law size x size of u)"), u);
      } else {
        const SiconosVector u = vectorData(un, std::nullopt, "u");
        rel->setF(matrixData(fn, m, u.size(), "F (law size x size of u)"), u);
      }
    }
    return rel;
  }

  // ---- simulation -------------------------------------------------------------------
  // <options>: every attribute and group element comes from Numerics' option table
  // (nsd_option_table: `tolerance` on <options>, `nsgs.local_tolerance` as
  // <nsgs local-tolerance="..."/>); warm start is the problem's own attribute. The
  // options set must be read by the solver or its fallback.
  void applyOptions(const Node& o, NsdSolverOptions& opt, const NsdSolverEntry* solver,
                    const NsdSolverEntry* fallback) const {
    int count = 0;
    const NsdOptionEntry* table = nsd_option_table(&count);
    auto xmlName = [](std::string name) {
      for (char& c : name)
        if (c == '_') c = '-';
      return name;
    };
    // allowed attributes per element: "" for <options>, the group for its children
    std::map<std::string, std::vector<std::string>> allowed;
    for (int k = 0; k < count; ++k) {
      const std::string name = table[k].name;
      if (name == "warm_start") continue;
      const auto dot = name.find('.');
      if (dot == std::string::npos)
        allowed[""].push_back(xmlName(name));
      else
        allowed[name.substr(0, dot)].push_back(xmlName(name.substr(dot + 1)));
    }
    std::vector<std::string> groups;
    for (const auto& [group, names] : allowed)
      if (!group.empty()) groups.push_back(group);
    check(o, {allowed[""], groups});
    auto apply = [&](const Node& n, const std::string& prefix) {
      for (pugi::xml_attribute at : n.attributes()) {
        const std::string name = prefix + at.name();
        NsdReport report{};
        if (nsd_option_set(&opt, name.c_str(), at.value(), &report) != NSD_OK)
          fail(n, "attribute '" + std::string(at.name()) + "': " + report.message);
        const NsdOptionEntry* e = nsd_option_find(name.c_str());
        if (!nsd_option_applies(e, solver) && !(fallback && nsd_option_applies(e, fallback)))
          fail(n,
               "attribute '" + std::string(at.name()) + "': option " + e->name +
                   " is not read by the " + nsd_kind_name(solver->kind) + " solver '" +
                   solver->name + "'" +
                   (fallback ? std::string(" nor by its fallback '") + fallback->name + "'" : "") +
                   " (see nsdyn solve --list-options)");
      }
    };
    apply(o, "");
    for (const std::string& group : groups)
      if (Node x = single(o, group.c_str(), false)) {
        check(x, {allowed[group], {}});
        apply(x, group + ".");
      }
  }

  // A nonsmooth problem; @p withRole: an EventDriven LCP (attribute role).
  SP::OneStepNSProblem problem(const Node& p, bool withRole = false) const {
    const std::string kind = p.name();
    std::vector<std::string> attributes = {"solver", "fallback", "warm-start", "storage"};
    if (withRole) attributes.push_back("role");
    if (!withRole) attributes.push_back("mode");  // time stepping: tolerance or budget
    if (kind == "FrictionContact") attributes.push_back("dim");
    check(p, {attributes, {"options"}});
    const std::string solver = p.attribute("solver") ? trim(p.attribute("solver").value()) : "";
    SP::OneStepNSProblem problem;
    try {
      if (kind == "LCP")
        problem = std::make_shared<LCP>(solver.empty() ? "lemke" : solver);
      else if (kind == "MLCP")
        problem = std::make_shared<MLCP>(solver.empty() ? "lemke" : solver);
      else if (kind == "Relay")
        problem = std::make_shared<Relay>(solver.empty() ? "lemke" : solver);
      else
        problem = std::make_shared<FrictionContact>(
            intAttribute(p, "dim", std::nullopt, 2, "2 or 3"), solver);
    } catch (const LoadError&) {
      throw;
    } catch (const nsdyn::Error& e) {
      fail(p, e.what());
    }
    // the solver name, checked against Numerics' table of the kind
    if (!nsd_solver_find(problem->numericsKind(), problem->solverName().c_str())) {
      int count = 0;
      const NsdSolverEntry* table = nsd_solver_table(&count);
      std::vector<std::string> names;
      for (int k = 0; k < count; ++k)
        if (table[k].kind == problem->numericsKind()) names.push_back(table[k].name);
      fail(p, "attribute 'solver': expected one of " + join(names) + ", found '" +
                  problem->solverName() + "'");
    }
    if (p.attribute("fallback")) {
      const std::string fallback = trim(p.attribute("fallback").value());
      if (!nsd_solver_find(problem->numericsKind(), fallback.c_str())) {
        int count = 0;
        const NsdSolverEntry* table = nsd_solver_table(&count);
        std::vector<std::string> names;
        for (int k = 0; k < count; ++k)
          if (table[k].kind == problem->numericsKind()) names.push_back(table[k].name);
        fail(p,
             "attribute 'fallback': expected one of " + join(names) + ", found '" + fallback + "'");
      }
      problem->setFallbackSolver(fallback);
    }
    problem->setWarmStart(boolean(p, "warm-start", problem->warmStart()));
    SolveMode mode = SolveMode::Tolerance;
    parseSolveMode(choice(p, "mode", {"tolerance", "budget"}, "tolerance"), mode);
    if (mode == SolveMode::Budget && p.attribute("fallback"))
      fail(p,
           "attribute 'fallback': no fallback solver in mode=\"budget\" (the budget of a "
           "step is fixed), found '" +
               problem->fallbackSolver() + "'");
    problem->setSolveMode(mode);
    const std::string storage = choice(p, "storage", {"dense", "sparse-block"}, "dense");
    problem->setMatrixStorage(storage == "dense" ? OneStepNSProblem::MatrixStorage::Dense
                                                 : OneStepNSProblem::MatrixStorage::SparseBlock);
    if (Node o = single(p, "options", false))
      applyOptions(
          o, problem->optionsMutable(),
          nsd_solver_find(problem->numericsKind(), problem->solverName().c_str()),
          problem->fallbackSolver().empty()
              ? nullptr
              : nsd_solver_find(problem->numericsKind(), problem->fallbackSolver().c_str()));
    return problem;
  }

  SP::OneStepIntegrator integrator(const Node& i) const {
    const bool projection = std::strcmp(i.name(), "MoreauJeanDirectProjectionOSI") == 0;
    const bool moreauJean = std::strcmp(i.name(), "MoreauJeanOSI") == 0;
    if (projection)
      check(i, {{"theta", "systems", "activate-threshold", "deactivate-velocity-threshold"}, {}});
    else if (moreauJean)
      check(i, {{"theta", "systems", "constraints"}, {}});
    else
      check(i, {{"theta", "systems"}, {}});
    const double theta = number(i, "theta", 0.5, "theta in [0, 1]");
    if (!(theta >= 0.0 && theta <= 1.0))
      fail(i, "attribute 'theta': expected a number in [0, 1], found " + std::to_string(theta));
    SP::OneStepIntegrator osi;
    if (projection) {
      auto p = std::make_shared<MoreauJeanDirectProjectionOSI>(theta);
      p->setActivateThreshold(
          number(i, "activate-threshold", p->activateThreshold(), "activation threshold on y"));
      p->setDeactivateVelocityThreshold(number(i, "deactivate-velocity-threshold",
                                               p->deactivateVelocityThreshold(),
                                               "deactivation threshold on the velocity"));
      osi = p;
    } else if (moreauJean) {
      auto mj = std::make_shared<MoreauJeanOSI>(theta);
      mj->setConstraintsAtMidpoint(
          choice(i, "constraints", {"end-of-step", "midpoint"}, "end-of-step") == "midpoint");
      osi = mj;
    } else {
      osi = std::make_shared<EulerMoreauOSI>(theta);
    }
    if (i.attribute("systems")) {
      std::stringstream in(requiredAttribute(i, "systems", "system names"));
      for (std::string s; in >> s;) {
        SP::DynamicalSystem ds = systemNamed(s);
        if (!ds) fail(i, "reference to an undefined system '" + s + "'");
        if (!osi->accepts(*ds))
          fail(i, "expected systems the integrator accepts (" +
                      std::string(osi->className() == "EulerMoreauOSI"
                                      ? "first order"
                                      : "mechanical: Lagrangian systems and rigid bodies") +
                      "), found '" + s + "' (" + ds->className() + ")");
        osi->insertDynamicalSystem(ds);
      }
    }
    return osi;
  }

  // EventDriven: one CvodeOSI, the impact LCP and the acceleration LCP, event settings.
  std::shared_ptr<Simulation> eventDriven(const Node& n, const SP::TimeDiscretisation& td) const {
    check(n, {{"type", "t0", "T", "h", "steps", "on-failure"}, {"CvodeOSI", "LCP", "events"}});
    Node c = single(n, "CvodeOSI", true);
    check(c, {{"method", "rtol", "atol", "max-steps-per-event", "max-step", "max-order"}, {}});
    CvodeOSI::Options o;
    o.method = choice(c, "method", {"adams", "bdf"}, "adams") == "adams" ? CvodeOSI::Method::Adams
                                                                         : CvodeOSI::Method::BDF;
    o.rtol = number(c, "rtol", o.rtol, "relative tolerance");
    o.atol = number(c, "atol", o.atol, "absolute tolerance");
    o.maxStepsPerEvent =
        integer(c, "max-steps-per-event", o.maxStepsPerEvent, 1, "CVODE steps between events");
    o.maxStep = number(c, "max-step", o.maxStep, "largest internal step (s)");
    o.maxOrder = intAttribute(c, "max-order", o.maxOrder, 0, "largest order");
    auto osi = std::make_shared<CvodeOSI>(o);
    auto sim = std::make_shared<EventDriven>(td, osi);
    for (Node p : n.children("LCP")) {
      const std::string role = choice(p, "role", {"impact", "acceleration"}, "impact");
      SP::OneStepNSProblem lcp = problem(p, true);
      if (role == "impact")
        sim->setImpactProblem(lcp);
      else
        sim->setAccelerationProblem(lcp);
    }
    if (Node e = single(n, "events", false)) {
      check(e,
            {{"event-tolerance", "impact-velocity-threshold", "min-impact-interval", "max-events"},
             {}});
      EventDriven::Options& eo = sim->optionsMutable();
      eo.eventTolerance =
          number(e, "event-tolerance", eo.eventTolerance, "gap and velocity tolerance");
      eo.impactVelocityThreshold =
          number(e, "impact-velocity-threshold", eo.impactVelocityThreshold, "m/s");
      eo.minImpactInterval = number(e, "min-impact-interval", eo.minImpactInterval, "s");
      eo.maxEvents = integer(e, "max-events", eo.maxEvents, 1, "events");
    }
    return sim;
  }

  void simulation(const Node& n) {
    out_->simulationType = choice(
        n, "type", {"TimeStepping", "TimeSteppingDirectProjection", "EventDriven"}, "TimeStepping");
    const bool projection = out_->simulationType == "TimeSteppingDirectProjection";
    const std::vector<std::string> integrators =
        projection ? std::vector<std::string>{"MoreauJeanDirectProjectionOSI"}
                   : std::vector<std::string>{"MoreauJeanOSI", "EulerMoreauOSI"};
    static const std::vector<std::string> problems = {"LCP", "MLCP", "Relay", "FrictionContact"};
    std::vector<std::string> children = integrators;
    children.insert(children.end(), problems.begin(), problems.end());
    children.push_back("newton");
    if (projection) children.push_back("projection");
    if (out_->simulationType != "EventDriven")
      check(n, {{"type", "t0", "T", "h", "steps", "on-failure"}, children});
    out_->t0 = number(n, "t0", 0.0, "initial time");
    out_->T = number(n, "T", std::nullopt, "final time");
    out_->h = number(n, "h", std::nullopt, "time step");
    if (!(out_->h > 0))
      fail(n, "attribute 'h': expected a time step > 0, found " +
                  std::string(n.attribute("h").value()));
    if (!(out_->T > out_->t0))
      fail(n, "attribute 'T': expected a final time > t0 = " + std::to_string(out_->t0) +
                  ", found " + n.attribute("T").value());
    if (!(out_->h <= out_->T - out_->t0))
      fail(n, "attribute 'h': expected a time step <= T - t0 = " + numberText(out_->T - out_->t0) +
                  ", found " + numberText(out_->h) + " ('" + n.attribute("h").value() +
                  "'): one step would end past T");
    // the step count as a double first: T = 1e300, h = 1e-300 must not overflow a cast
    const double stepsByTime = std::ceil((out_->T - out_->t0) / out_->h);
    if (!(stepsByTime <= kMaxSteps))
      fail(n,
           "attributes 'T', 't0' and 'h': expected at most 1e15 time steps ((T - t0) / h, a "
           "count a 64-bit integer holds), found " +
               numberText(stepsByTime) + " (T = " + n.attribute("T").value() +
               ", h = " + n.attribute("h").value() + ")");
    const long byTime = static_cast<long>(stepsByTime);
    out_->steps = integer(n, "steps", byTime, 1, "number of steps");
    if (n.attribute("on-failure")) {
      out_->onFailureGiven = true;
      out_->stopOnFailure = choice(n, "on-failure", {"stop", "continue"}, "stop") == "stop";
    }

    auto td = std::make_shared<TimeDiscretisation>(out_->t0, out_->h);
    if (out_->scene && out_->simulationType != "TimeStepping")
      fail(n, "attribute 'type': expected TimeStepping for a model with a <scene>, found " +
                  out_->simulationType);
    if (out_->simulationType == "EventDriven") {
      initializeModel(n, eventDriven(n, td));
      return;
    }
    SP::TimeStepping sim;
    if (projection)
      sim = std::make_shared<TimeSteppingDirectProjection>(td, nullptr, nullptr);
    else
      sim = std::make_shared<TimeStepping>(td);
    Node problemNode;
    for (Node c : n.children()) {
      if (c.type() != pugi::node_element) continue;
      if (std::find(integrators.begin(), integrators.end(), c.name()) != integrators.end()) {
        sim->insertIntegrator(integrator(c));
      } else if (std::find(problems.begin(), problems.end(), c.name()) != problems.end()) {
        if (problemNode)
          throw LoadError(file_, lineOf(c),
                          "<" + std::string(c.name()) +
                              ">: expected one nonsmooth problem per simulation, found a second");
        problemNode = c;
        sim->insertNonSmoothProblem(problem(c));
      }
    }
    if (sim->integrators().empty())
      fail(n, "expected an integrator (" + join(integrators) + "), found none");
    if (out_->scene) {
      // the scene's contacts: FrictionContact(3) solves them
      if (!problemNode || std::strcmp(problemNode.name(), "FrictionContact") != 0 ||
          std::dynamic_pointer_cast<FrictionContact>(sim->oneStepNSProblem())->dim() != 3)
        fail(problemNode ? problemNode : n,
             "expected <FrictionContact dim=\"3\"> for the contacts of the <scene>, found " +
                 (problemNode ? "<" + std::string(problemNode.name()) + ">" +
                                    (problemNode.attribute("dim")
                                         ? std::string(" dim=\"") +
                                               problemNode.attribute("dim").value() + "\""
                                         : "")
                              : std::string("no nonsmooth problem")));
      sim->insertInteractionManager(out_->scene->contacts);
    }
    if (!problemNode && !out_->interactions.empty())
      fail(n, "expected a nonsmooth problem (" + join(problems) + ") for the " +
                  std::to_string(out_->interactions.size()) + " interactions, found none");
    if (Node x = single(n, "newton", false)) newtonOptions(x, *sim);
    if (projection)
      if (Node x = single(n, "projection", false))
        projectionOptions(x, static_cast<TimeSteppingDirectProjection&>(*sim));

    initializeModel(n, sim);
  }

  // <newton mode="auto" tolerance="1e-10" max-iterations="10"/>: TimeStepping's Newton loop.
  void newtonOptions(const Node& x, TimeStepping& sim) const {
    check(x, {{"mode", "tolerance", "max-iterations"}, {}});
    const std::string mode = choice(x, "mode", {"auto", "linear", "nonlinear"}, "auto");
    sim.setNewtonOptions(mode == "auto"     ? NewtonMode::Auto
                         : mode == "linear" ? NewtonMode::Linear
                                            : NewtonMode::Nonlinear);
    const double tolerance =
        number(x, "tolerance", sim.newtonTolerance(), "tolerance on |R - p| per system");
    if (!(tolerance > 0.0))
      fail(x, "attribute 'tolerance': expected a tolerance > 0, found " + numberText(tolerance));
    sim.setNewtonTolerance(tolerance);
    sim.setNewtonMaxIteration(intAttribute(x, "max-iterations", sim.newtonMaxIteration(), 1,
                                           "Newton iterations per step"));
  }

  // <projection max-iterations="20" unilateral-tolerance="1e-8" equality-tolerance="1e-8"
  // solver="enum"/>
  void projectionOptions(const Node& x, TimeSteppingDirectProjection& sim) const {
    check(x, {{"max-iterations", "unilateral-tolerance", "equality-tolerance", "solver"}, {}});
    sim.setProjectionMaxIteration(
        intAttribute(x, "max-iterations", sim.projectionMaxIteration(), 0, "projections per step"));
    const double unilateral =
        number(x, "unilateral-tolerance", sim.unilateralTolerance(), "largest penetration left");
    const double equality =
        number(x, "equality-tolerance", sim.equalityTolerance(), "largest joint violation left");
    if (!(unilateral > 0.0))
      fail(x, "attribute 'unilateral-tolerance': expected a tolerance > 0, found " +
                  numberText(unilateral));
    if (!(equality > 0.0))
      fail(x, "attribute 'equality-tolerance': expected a tolerance > 0, found " +
                  numberText(equality));
    sim.setConstraintTolUnilateral(unilateral);
    sim.setConstraintTol(equality);
    if (x.attribute("solver")) {
      const std::string solver = trim(x.attribute("solver").value());
      if (!nsd_solver_find(NSD_KIND_MLCP, solver.c_str())) {
        int count = 0;
        const NsdSolverEntry* table = nsd_solver_table(&count);
        std::vector<std::string> names;
        for (int k = 0; k < count; ++k)
          if (table[k].kind == NSD_KIND_MLCP) names.push_back(table[k].name);
        fail(x, "attribute 'solver': expected one of " + join(names) + ", found '" + solver + "'");
      }
      sim.setProjectionSolver(solver);
    }
  }

  // The Kernel's own checks (integrators for every system, laws the problem accepts, ...).
  void initializeModel(const Node& n, const std::shared_ptr<Simulation>& sim) {
    auto model = std::make_shared<Model>(out_->t0, out_->T, model_->nonSmoothDynamicalSystem());
    try {
      model->initialize(sim);
    } catch (const nsdyn::Error& e) {
      fail(n, std::string("the model does not initialise: ") + e.what());
    }
    model_ = model;
    out_->model = model;
    out_->simulation = sim;
  }

  // ---- scenes: bodies with shapes, generators, the contact manager ----------------
  using Vec3 = Shape::Vec3;

  static Vec3 vec3(const SiconosVector& v) { return {v(0), v(1), v(2)}; }
  static std::string vec3Text(const Vec3& v) {
    std::ostringstream s;
    s.precision(10);
    s << v[0] << " " << v[1] << " " << v[2];
    return s.str();
  }

  // A 3-vector attribute; @p fallback when absent (required when there is none).
  Vec3 vec3Attribute(const Node& n, const char* attr, std::optional<Vec3> fallback,
                     const std::string& meaning) const {
    if (!n.attribute(attr) && fallback) return *fallback;
    return vec3(vectorAttribute(n, attr, 3, meaning));
  }

  // A number attribute that must be > 0 (and finite).
  double positive(const Node& n, const char* attr, std::optional<double> fallback,
                  const std::string& meaning) const {
    const double v = number(n, attr, fallback, meaning);
    if (!(v > 0.0))
      fail(n, "attribute '" + std::string(attr) + "': expected " + meaning + " > 0, found " +
                  numberText(v));
    return v;
  }

  // A number attribute that must be >= 0.
  double nonNegative(const Node& n, const char* attr, double fallback,
                     const std::string& meaning) const {
    const double v = number(n, attr, fallback, meaning);
    if (!(v >= 0.0))
      fail(n, "attribute '" + std::string(attr) + "': expected " + meaning + " >= 0, found " +
                  numberText(v));
    return v;
  }

  // Three entries > 0 (half-extents).
  Vec3 positiveVec3(const Node& n, const char* attr, std::optional<Vec3> fallback,
                    const std::string& meaning) const {
    const Vec3 v = vec3Attribute(n, attr, fallback, meaning);
    for (double x : v)
      if (!(x > 0.0))
        fail(n, "attribute '" + std::string(attr) + "': expected " + meaning +
                    ", three entries > 0, found " + vec3Text(v));
    return v;
  }

  static Shape::Quat toQuat(const SiconosVector& q) { return {q(0), q(1), q(2), q(3)}; }

  static const std::vector<std::string>& shapeElements() {
    static const std::vector<std::string> names = {"SphereShape",     "BoxShape",
                                                   "CapsuleShape",    "CylinderShape",
                                                   "ConvexHullShape", "HalfSpaceShape"};
    return names;
  }
  static bool isShape(const Node& c) {
    return c.type() == pugi::node_element &&
           std::find(shapeElements().begin(), shapeElements().end(), c.name()) !=
               shapeElements().end();
  }

  // <SphereShape radius>, <BoxShape half-extents>, <CapsuleShape radius half-length>,
  // <CylinderShape radius half-length>, <ConvexHullShape points>, <HalfSpaceShape normal
  // offset>, each with an optional offset pose (<position>, <quaternion> or <axisAngle>).
  ShapeInstance shapeInstance(const Node& n) const {
    const std::string kind = n.name();
    const std::vector<std::string> pose = {"position", "quaternion", "axisAngle"};
    ShapeInstance si;
    try {
      if (kind == "SphereShape") {
        check(n, {{"radius"}, pose});
        si.shape =
            std::make_shared<SphereShape>(positive(n, "radius", std::nullopt, "the radius (m)"));
      } else if (kind == "BoxShape") {
        check(n, {{"half-extents"}, pose});
        si.shape = std::make_shared<BoxShape>(
            positiveVec3(n, "half-extents", std::nullopt, "the half-extents along x, y, z (m)"));
      } else if (kind == "CapsuleShape" || kind == "CylinderShape") {
        check(n, {{"radius", "half-length"}, pose});
        const double r = positive(n, "radius", std::nullopt, "the radius (m)");
        const double l = positive(n, "half-length", std::nullopt, "the half-length along z (m)");
        if (kind == "CapsuleShape")
          si.shape = std::make_shared<CapsuleShape>(r, l);
        else
          si.shape = std::make_shared<CylinderShape>(r, l);
      } else if (kind == "ConvexHullShape") {
        check(n, {{"points"}, pose});
        const std::string meaning = "the hull's points x y z, separated by ';' (shape frame)";
        const std::string text = requiredAttribute(n, "points", meaning);
        // counted before anything is split or evaluated (a 10^6-point hull took 905 MB, 70 s)
        const std::size_t rows =
            1 + static_cast<std::size_t>(std::count(text.begin(), text.end(), ';'));
        if (rows > kMaxHullPoints)
          fail(n, "attribute 'points': expected at most " + std::to_string(kMaxHullPoints) +
                      " points, found " + std::to_string(rows) + " (separated by ';')");
        std::vector<Vec3> points;
        std::vector<double> flat;
        for (const auto& row : splitEntries(text))
          for (const auto& e : row)
            flat.push_back(
                evaluate(n, e, "attribute 'points' entry " + std::to_string(flat.size())));
        if (flat.size() % 3 != 0)
          fail(n, "attribute 'points': expected " + meaning + ", 3 entries per point, found " +
                      std::to_string(flat.size()) + " entries");
        for (std::size_t k = 0; k < flat.size(); k += 3)
          points.push_back({flat[k], flat[k + 1], flat[k + 2]});
        if (points.size() < 4)
          fail(n, "attribute 'points': expected at least 4 points, not all in one plane, found " +
                      std::to_string(points.size()));
        si.shape = std::make_shared<ConvexHullShape>(points);
      } else {
        check(n, {{"normal", "offset"}, pose});
        const Vec3 normal = vec3Attribute(n, "normal", std::nullopt, "the outward normal (3)");
        if (!(std::abs(normal[0]) + std::abs(normal[1]) + std::abs(normal[2]) > 0.0))
          fail(n, "attribute 'normal': expected a normal of non-zero length, found " +
                      vec3Text(normal));
        si.shape = std::make_shared<HalfSpaceShape>(
            normal, number(n, "offset", 0.0, "offset along the normal (m)"));
      }
    } catch (const LoadError&) {
      throw;
    } catch (const nsdyn::Error& e) {
      fail(n, e.what());
    }
    if (Node p = single(n, "position", false))
      si.position = vec3(vectorData(p, 3, "the shape's position in the body frame (3)"));
    si.orientation = toQuat(orientationChildren(n));
    return si;
  }

  // At most kMaxBodyShapes shapes on a body (the contact detector's limit, which the Kernel
  // met only at Model::initialize(), blamed on <simulation>).
  void shapeCount(const Node& body) const {
    std::size_t count = 0;
    for (Node c : body.children())
      if (isShape(c)) ++count;
    if (count > kMaxBodyShapes)
      fail(body, "expected at most " + std::to_string(kMaxBodyShapes) +
                     " shapes on a body, found " + std::to_string(count));
  }

  int groupOf(const Node& n) const {
    return intAttribute(n, "group", 0, 0, "the body group, for materials");
  }

  // A new scene body name (dynamic bodies are systems too: a name no system has).
  void newSceneName(const Node& n, const std::string& name) {
    if (!sceneNames_.insert(name).second)
      fail(n, "expected a new body name, found '" + name + "' a second time");
  }

  // Add @p body (made at element @p n) to the contact manager and, when dynamic, to the
  // systems, with f_ext = m g.
  void addSceneBody(const Node& n, const std::string& name, BodyShapes body, int group) {
    LoadedScene& scene = *out_->scene;
    if (scene.bodyNames.size() >= limits_.sceneBodies)
      fail(n, "expected at most " + std::to_string(limits_.sceneBodies) +
                  " scene bodies (the loader's limit), found more");
    try {
      if (!body.isStatic()) {
        const double m = body.body()->scalarMass();
        body.body()->setFExt(
            SiconosVector({m * scene.gravity[0], m * scene.gravity[1], m * scene.gravity[2]}));
        addSystem(name, body.body());
      }
      scene.contacts->addBody(*model_->nonSmoothDynamicalSystem(), std::move(body), group);
    } catch (const nsdyn::Error& e) {
      fail(n, e.what());
    }
    bodyIndex_.emplace(name, scene.bodyNames.size());
    scene.bodyNames.push_back(name);
  }

  // A warning when a body falling under the scene's gravity moves more than the smallest
  // dynamic shape's bounding radius s in one step: after one step of fall its speed is g h
  // and it moves g h^2 per step, so contacts are missed from then on (h = 1000 put bodies
  // 4.9e6 m under the floor without a word). Warned when g h^2 > s, i.e. h > sqrt(s / g).
  void stepSizeCheck(const Node& simulationNode) {
    const LoadedScene& scene = *out_->scene;
    const double g =
        std::sqrt(scene.gravity[0] * scene.gravity[0] + scene.gravity[1] * scene.gravity[1] +
                  scene.gravity[2] * scene.gravity[2]);
    double smallest = INFINITY;
    for (const BodyShapes& b : scene.contacts->bodies())
      if (!b.isStatic())
        for (const auto& s : b.shapes())
          if (s.shape->isFinite()) smallest = std::min(smallest, s.shape->characteristicSize());
    const double h = out_->h;
    if (!(g > 0.0) || !std::isfinite(smallest) || !(g * h * h > smallest)) return;
    const std::string message =
        file_ + ":" + std::to_string(lineOf(simulationNode)) +
        ": <simulation>: h = " + timeText(h) +
        " s is too large for the scene: a body falling under its gravity (" + timeText(g) +
        " m/s^2) moves g h^2 = " + timeText(g * h * h, 3) +
        " m per step, more than the smallest body radius " + timeText(smallest) +
        " m, so contacts are missed (bodies pass through each other and the floor); h <= " +
        "sqrt(radius / g) = " + timeText(std::sqrt(smallest / g), 3) + " s avoids it";
    out_->warnings.push_back(message);
    std::cerr << "nsdyn: warning: " << message << "\n";
  }

  // <scene gravity="0 0 -9.81">: the contact manager, bodies and generators, in order.
  void scene(const Node& n) {
    check(n, {{"gravity"},
              {"ContactManager", "RigidBody", "StaticBody", "latticePacking", "randomPacking",
               "container", "hopper", "chute", "roughBase"}});
    out_->scene = std::make_shared<LoadedScene>();
    LoadedScene& scene = *out_->scene;
    scene.gravity = vec3Attribute(n, "gravity", Vec3{0.0, 0.0, 0.0}, "the gravity g (3, m/s^2)");
    for (const auto& s : out_->systems) sceneNames_.insert(s.first);
    contactManager(single(n, "ContactManager", false));
    for (Node c : n.children()) {
      if (c.type() != pugi::node_element) continue;
      const std::string kind = c.name();
      if (kind == "RigidBody")
        rigidBody(c);
      else if (kind == "StaticBody")
        staticBody(c);
      else if (kind == "latticePacking" || kind == "randomPacking")
        packing(c);
      else if (kind == "container" || kind == "hopper" || kind == "chute" || kind == "roughBase")
        staticGenerator(c);
    }
    if (scene.bodyNames.empty())
      fail(n, "expected bodies (<RigidBody>, <StaticBody> or a generator), found none");
  }

  // <ContactManager margin breaking-distance threads ... swept-detection stabilisation-factor
  // max-recovery-speed> with <material> children.
  // <recovery enabled slop relative-slop max-speed iterations tolerance>: the scene engine's
  // overlap recovery (OverlapRecoveryOptions), kept in LoadedScene::recovery.
  void overlapRecovery(const Node& n) {
    if (!n) return;
    check(n, {{"enabled", "slop", "relative-slop", "max-speed", "iterations", "tolerance"}, {}});
    OverlapRecoveryOptions& r = out_->scene->recovery;
    r.enabled = boolean(n, "enabled", true);
    r.slop = nonNegative(n, "slop", r.slop, "the allowed penetration (m), 0: relative-slop");
    r.relativeSlop = nonNegative(n, "relative-slop", r.relativeSlop,
                                 "the allowed penetration as a fraction of the smallest size");
    r.maxSpeed = positive(n, "max-speed", r.maxSpeed, "the recovery speed cap (m/s)");
    r.iterations = intAttribute(n, "iterations", r.iterations, 1, "Gauss-Seidel sweeps", 1000000);
    r.tolerance = positive(n, "tolerance", r.tolerance, "the stopping test of the sweeps");
  }

  void contactManager(const Node& n) {
    ContactManagerOptions o;
    std::vector<std::pair<std::pair<int, int>, ContactMaterial>> materials;
    std::optional<ContactMaterial> fallback;
    if (n) {
      check(n, {{"margin", "breaking-distance", "threads", "relative-margin", "relative-activation",
                 "overlap-warning-fraction", "warm-start", "cell-size", "cell-size-factor",
                 "max-cells-per-box", "ccd-max-iterations", "ccd-tolerance", "convex-manifold",
                 "swept-detection", "stabilisation-factor", "max-recovery-speed"},
                {"material", "recovery"}});
      overlapRecovery(single(n, "recovery", false));
      o.detection.margin = nonNegative(n, "margin", 0.0, "the detection margin (m)");
      o.detection.breakingDistance =
          number(n, "breaking-distance", o.detection.margin, "the breaking distance (m)");
      if (!(o.detection.breakingDistance >= o.detection.margin))
        fail(n, "attribute 'breaking-distance': expected a distance >= margin = " +
                    numberText(o.detection.margin) + ", found " +
                    numberText(o.detection.breakingDistance));
      o.detection.threads = intAttribute(n, "threads", 0, 0, "detection threads, 0: OpenMP default",
                                         kMaxDetectionThreads);
      o.relativeMargin = nonNegative(n, "relative-margin", o.relativeMargin,
                                     "a fraction of the smallest shape size");
      o.relativeActivation = nonNegative(n, "relative-activation", o.relativeActivation,
                                         "a fraction of the smallest shape size");
      o.overlapWarningFraction =
          nonNegative(n, "overlap-warning-fraction", o.overlapWarningFraction,
                      "a fraction of the smaller shape's size");
      o.warmStart = boolean(n, "warm-start", o.warmStart);
      o.sweptDetection = boolean(n, "swept-detection", o.sweptDetection);
      o.stabilisationFactor = number(n, "stabilisation-factor", o.stabilisationFactor,
                                     "a position-correction factor in [0, 1], 0: off");
      if (!(o.stabilisationFactor >= 0.0 && o.stabilisationFactor <= 1.0))
        fail(n,
             "attribute 'stabilisation-factor': expected a position-correction factor in [0, 1], "
             "found " +
                 numberText(o.stabilisationFactor));
      o.maxRecoverySpeed =
          positive(n, "max-recovery-speed", o.maxRecoverySpeed,
                   "the largest separating speed of the position correction (m/s)");
      o.detection.broadphase.cellSize = nonNegative(n, "cell-size", o.detection.broadphase.cellSize,
                                                    "the broadphase cell edge (m), 0: automatic");
      o.detection.broadphase.cellSizeFactor =
          positive(n, "cell-size-factor", o.detection.broadphase.cellSizeFactor,
                   "a factor of the median box edge");
      o.detection.broadphase.maxCellsPerBox = positive(
          n, "max-cells-per-box", o.detection.broadphase.maxCellsPerBox, "a number of cells");
      o.detection.ccd.maxIterations = static_cast<unsigned long>(
          integer(n, "ccd-max-iterations", static_cast<long>(o.detection.ccd.maxIterations), 1,
                  "polytope expansions of convexContact"));
      o.detection.ccd.tolerance = positive(n, "ccd-tolerance", o.detection.ccd.tolerance,
                                           "the depth tolerance of convexContact (m)");
      o.detection.ccd.manifold = boolean(n, "convex-manifold", o.detection.ccd.manifold);
      for (Node m : n.children("material")) {
        check(m, {{"groups", "mu", "restitution"}, {}});
        ContactMaterial mat;
        mat.mu = number(m, "mu", mat.mu, "the friction coefficient");
        mat.restitution =
            number(m, "restitution", mat.restitution, "the restitution coefficient in [0, 1]");
        if (!(mat.mu >= 0.0))
          fail(m,
               "attribute 'mu': expected a friction coefficient >= 0, found " + numberText(mat.mu));
        if (!(mat.restitution >= 0.0 && mat.restitution <= 1.0))
          fail(m, "attribute 'restitution': expected a coefficient in [0, 1], found " +
                      numberText(mat.restitution));
        if (!m.attribute("groups")) {
          if (fallback)
            fail(m, "expected one default <material> (without 'groups'), found a second");
          fallback = mat;
          continue;
        }
        const SiconosVector g = vectorAttribute(m, "groups", 2, "two body groups");
        for (std::size_t k = 0; k < 2; ++k)
          if (g(k) != std::floor(g(k)) || g(k) < 0.0 || g(k) > INT_MAX)
            fail(m, "attribute 'groups': expected two integers in [0, 2147483647], found '" +
                        trim(m.attribute("groups").value()) + "'");
        const std::pair<int, int> key{static_cast<int>(std::min(g(0), g(1))),
                                      static_cast<int>(std::max(g(0), g(1)))};
        for (const auto& other : materials)
          if (other.first == key)
            fail(m, "expected one <material> per pair of groups, found groups " +
                        std::to_string(key.first) + " " + std::to_string(key.second) +
                        " a second time");
        materials.emplace_back(key, mat);
      }
    }
    auto manager = std::make_shared<ContactManager>(o);
    if (fallback) manager->setDefaultMaterial(*fallback);
    for (const auto& m : materials) manager->setMaterial(m.first.first, m.first.second, m.second);
    out_->scene->contacts = manager;
  }

  // Position, orientation and velocities of a body element.
  void bodyPose(const Node& n, Vec3& position, Shape::Quat& orientation) const {
    if (Node p = single(n, "position", false))
      position =
          vec3(vectorData(p, 3, "the position of the body's reference frame (3, world frame)"));
    orientation = toQuat(orientationChildren(n));
  }

  // <RigidBody name group density|mass> with its shapes (<inertia> with a mass).
  void rigidBody(const Node& n) {
    std::vector<std::string> children = {"position",        "quaternion", "axisAngle", "velocity",
                                         "angularVelocity", "inertia",    "fExt",      "mExt"};
    children.insert(children.end(), shapeElements().begin(), shapeElements().end());
    check(n, {{"name", "group", "density", "mass"}, children});
    nsdyn::BodySpec spec;
    spec.name = requiredAttribute(n, "name", "body name");
    validName(n, spec.name);
    newSceneName(n, spec.name);
    const int group = groupOf(n);
    shapeCount(n);
    for (Node c : n.children()) {
      if (!isShape(c)) continue;
      if (std::strcmp(c.name(), "HalfSpaceShape") == 0)
        fail(c,
             "expected a finite shape on a dynamic body, found a half-space (put it in a "
             "<StaticBody>)");
      spec.shapes.push_back(shapeInstance(c));
    }
    if (spec.shapes.empty())
      fail(n,
           "expected at least one shape (SphereShape, BoxShape, CapsuleShape, CylinderShape, "
           "ConvexHullShape), found none");
    const bool density = n.attribute("density"), mass = n.attribute("mass");
    if (density && mass) fail(n, "expected either attribute 'density' or 'mass', found both");
    if (!density && !mass)
      fail(n,
           "expected attribute 'density' (kg/m^3) or 'mass' (kg) for a body with shapes, found "
           "neither");
    if (density) spec.density = positive(n, "density", std::nullopt, "the density (kg/m^3)");
    if (mass) spec.mass = positive(n, "mass", std::nullopt, "the mass (kg)");
    if (Node in = single(n, "inertia", false)) {
      if (!mass)
        fail(in,
             "expected <inertia> with attribute 'mass' only (a density gives the inertia), found "
             "'density'");
      const SimpleMatrix I = inertiaData(in);
      Shape::Mat3 J;
      for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 3; ++j) J[i][j] = I(i, j);
      spec.inertia = J;
    }
    bodyPose(n, spec.position, spec.orientation);
    if (Node v = single(n, "velocity", false)) {
      const SiconosVector x =
          vectorData(v, 3, "the velocity of the centre of mass (3, world frame)");
      for (std::size_t i = 0; i < 3; ++i) spec.velocity[i] = x(i);
    }
    if (Node w = single(n, "angularVelocity", false)) {
      const SiconosVector x = vectorData(w, 3, "the angular velocity (3, body frame)");
      for (std::size_t i = 0; i < 3; ++i) spec.velocity[3 + i] = x(i);
    }
    // extra loads: <fExt> (world frame, added to m g) and <mExt> (body frame), constant or of t
    std::optional<TimeVector> force, moment;
    if (Node f = single(n, "fExt", false))
      force = bodyLoad(f, "the external force added to m g (3, world frame)");
    if (Node f = single(n, "mExt", false))
      moment = bodyLoad(f, "the external moment m_ext (3, body frame)");
    BodyShapes body = [&] {
      try {
        return makeBody(spec);
      } catch (const nsdyn::Error& e) {
        fail(n, e.what());
      }
    }();
    const SP::NewtonEulerDS ds = body.body();
    addSceneBody(n, spec.name, std::move(body), group);
    if (force || moment) {
      // the loads as given (without the weight), for an engine that owns gravity
      SceneBodyLoads& loads = out_->scene->loads[out_->scene->bodyNames.size() - 1];
      if (force && force->function) loads.forceOfTime = force->function;
      if (force && !force->function)
        for (std::size_t i = 0; i < 3; ++i) loads.force[i] = force->constant(i);
      if (moment && moment->function) loads.momentOfTime = moment->function;
      if (moment && !moment->function)
        for (std::size_t i = 0; i < 3; ++i) loads.moment[i] = moment->constant(i);
    }
    if (force) {
      const double m = ds->scalarMass();
      const Vec3 weight{m * out_->scene->gravity[0], m * out_->scene->gravity[1],
                        m * out_->scene->gravity[2]};
      if (force->function) {
        const FunctionRegistry::VectorOfTime f = force->function;
        ds->setFExt([weight, f](double t) {
          const SiconosVector x = f(t);
          return SiconosVector({weight[0] + x(0), weight[1] + x(1), weight[2] + x(2)});
        });
      } else {
        const SiconosVector& x = force->constant;
        ds->setFExt(SiconosVector({weight[0] + x(0), weight[1] + x(1), weight[2] + x(2)}));
      }
    }
    if (moment) {
      if (moment->function)
        ds->setMExt(moment->function);
      else
        ds->setMExt(moment->constant);
    }
  }

  // <StaticBody name group> with its shapes (half-spaces too), at a fixed pose.
  void staticBody(const Node& n) {
    std::vector<std::string> children = {"position", "quaternion", "axisAngle"};
    children.insert(children.end(), shapeElements().begin(), shapeElements().end());
    check(n, {{"name", "group"}, children});
    const std::string name = requiredAttribute(n, "name", "body name");
    validName(n, name);
    newSceneName(n, name);
    const int group = groupOf(n);
    shapeCount(n);
    std::vector<ShapeInstance> shapes;
    for (Node c : n.children())
      if (isShape(c)) shapes.push_back(shapeInstance(c));
    if (shapes.empty()) fail(n, "expected at least one shape, found none");
    Vec3 position{0.0, 0.0, 0.0};
    Shape::Quat orientation{1.0, 0.0, 0.0, 0.0};
    bodyPose(n, position, orientation);
    BodyShapes body = [&] {
      try {
        return makeStaticBody(shapes, position, orientation);
      } catch (const nsdyn::Error& e) {
        fail(n, e.what());
      }
    }();
    addSceneBody(n, name, std::move(body), group);
  }

  // <particle kind radius length half-extents size-spread density random-orientation name-prefix>
  scenes::ParticleSpec particle(const Node& p) const {
    check(p, {{"kind", "radius", "length", "half-extents", "size-spread", "density",
               "random-orientation", "name-prefix"},
              {}});
    scenes::ParticleSpec s;
    const std::string kind = choice(p, "kind", {"sphere", "box", "capsule", "cylinder"}, "sphere");
    s.kind = kind == "sphere"    ? scenes::ParticleKind::Sphere
             : kind == "box"     ? scenes::ParticleKind::Box
             : kind == "capsule" ? scenes::ParticleKind::Capsule
                                 : scenes::ParticleKind::Cylinder;
    s.radius = positive(p, "radius", s.radius, "the radius (m)");
    s.length = positive(p, "length", s.length, "the length along the shape z axis (m)");
    s.halfExtents = positiveVec3(p, "half-extents", s.halfExtents, "the box half-extents (m)");
    s.sizeSpread = number(p, "size-spread", s.sizeSpread, "the relative size spread in [0, 1)");
    if (!(s.sizeSpread >= 0.0 && s.sizeSpread < 1.0))
      fail(p, "attribute 'size-spread': expected a relative spread in [0, 1), found " +
                  numberText(s.sizeSpread));
    s.density = positive(p, "density", s.density, "the density (kg/m^3)");
    s.randomOrientation = boolean(p, "random-orientation", s.randomOrientation);
    if (p.attribute("name-prefix")) {
      s.namePrefix = trim(p.attribute("name-prefix").value());
      validName(p, s.namePrefix);
    }
    return s;
  }

  // <region lower="x y z" upper="x y z"/>
  scenes::Region region(const Node& r) const {
    check(r, {{"lower", "upper"}, {}});
    scenes::Region g;
    g.lower = vec3Attribute(r, "lower", std::nullopt, "the lower corner (3, m)");
    g.upper = vec3Attribute(r, "upper", std::nullopt, "the upper corner (3, m)");
    for (std::size_t i = 0; i < 3; ++i)
      if (!(g.lower[i] < g.upper[i]))
        fail(r, "expected lower < upper in each coordinate, found lower = " + vec3Text(g.lower) +
                    ", upper = " + vec3Text(g.upper));
    return g;
  }

  // <latticePacking count gap seed group> / <randomPacking count seed max-attempts group>
  // with <particle> and <region>: bodies made at load time.
  void packing(const Node& n) {
    const bool lattice = std::strcmp(n.name(), "latticePacking") == 0;
    if (lattice)
      check(n, {{"count", "gap", "seed", "group"}, {"particle", "region"}});
    else
      check(n, {{"count", "seed", "max-attempts", "group"}, {"particle", "region"}});
    const scenes::ParticleSpec p = particle(single(n, "particle", true));
    const scenes::Region r = region(single(n, "region", true));
    const std::size_t most = std::min(kMaxSceneBodies, limits_.sceneBodies);
    const auto count = static_cast<std::size_t>(
        integer(n, "count", std::nullopt, 1, "number of particles", static_cast<long>(most)));
    const std::size_t before = out_->scene->bodyNames.size();
    if (count > most - std::min(most, before))
      fail(n, "attribute 'count': expected at most " +
                  std::to_string(most - std::min(most, before)) +
                  " particles (a scene holds at most " + std::to_string(most) + " bodies, " +
                  std::to_string(before) + " before this element), found " + std::to_string(count));
    const auto seed = static_cast<std::uint64_t>(integer(n, "seed", 1, 0, "random seed"));
    const int group = groupOf(n);
    std::vector<nsdyn::BodySpec> specs;
    try {
      if (lattice)
        specs = scenes::latticePacking(
            p, r, count, nonNegative(n, "gap", 0.0, "the gap between sites (m)"), seed);
      else
        specs = scenes::randomPacking(
            p, r, count, seed,
            static_cast<std::size_t>(integer(n, "max-attempts", 1000, 1, "attempts per particle")));
    } catch (const LoadError&) {
      throw;
    } catch (const nsdyn::Error& e) {
      fail(n, e.what());
    }
    for (const nsdyn::BodySpec& spec : specs) {
      newSceneName(n, spec.name);
      BodyShapes body = [&] {
        try {
          return makeBody(spec);
        } catch (const nsdyn::Error& e) {
          fail(n, e.what());
        }
      }();
      addSceneBody(n, spec.name, std::move(body), group);
    }
  }

  // <container>, <hopper>, <chute>: static parts made at load time.
  void staticGenerator(const Node& n) {
    const std::string kind = n.name();
    std::vector<scenes::StaticPart> parts;
    try {
      if (kind == "roughBase") {
        parts = roughBase(n);
      } else if (kind == "container") {
        check(n, {{"lower", "upper", "planes", "wall-thickness", "wall-height", "name-prefix",
                   "group"},
                  {}});
        scenes::ContainerSpec c;
        c.inner.lower =
            vec3Attribute(n, "lower", std::nullopt, "the inner region's lower corner (3, m)");
        c.inner.upper =
            vec3Attribute(n, "upper", std::nullopt, "the inner region's upper corner (3, m)");
        for (std::size_t i = 0; i < 3; ++i)
          if (!(c.inner.lower[i] < c.inner.upper[i]))
            fail(n, "expected lower < upper in each coordinate, found lower = " +
                        vec3Text(c.inner.lower) + ", upper = " + vec3Text(c.inner.upper));
        c.planes = boolean(n, "planes", c.planes);
        c.wallThickness = positive(n, "wall-thickness", c.wallThickness, "the wall thickness (m)");
        c.wallHeight =
            nonNegative(n, "wall-height", c.wallHeight, "the wall height (m), 0: the region's");
        c.namePrefix = namePrefix(n, c.namePrefix);
        parts = scenes::container(c);
      } else if (kind == "hopper") {
        check(n, {{"center", "outlet-width", "top-width", "angle", "outlet-height", "plates",
                   "depth", "side-walls", "wall-thickness", "floor", "name-prefix", "group"},
                  {}});
        scenes::HopperSpec h;
        h.center =
            vec3Attribute(n, "center", h.center, "the outlet centre x, y and the floor top z (m)");
        h.outletWidth = positive(n, "outlet-width", h.outletWidth, "the outlet width (m)");
        h.topWidth = positive(n, "top-width", h.topWidth, "the width at the top (m)");
        if (!(h.topWidth > h.outletWidth))
          fail(n, "attribute 'top-width': expected a width > outlet-width = " +
                      numberText(h.outletWidth) + ", found " + numberText(h.topWidth));
        h.angle = number(n, "angle", h.angle, "the plate angle from the horizontal (rad)");
        if (!(h.angle > 0.0 && h.angle < M_PI / 2))
          fail(n, "attribute 'angle': expected an angle in (0, pi/2) rad, found " +
                      numberText(h.angle));
        h.outletHeight =
            positive(n, "outlet-height", h.outletHeight, "the outlet height above the floor (m)");
        h.plates = intAttribute(n, "plates", h.plates, 2, "2 or 4 plates");
        if (h.plates != 2 && h.plates != 4)
          fail(n, "attribute 'plates': expected 2 or 4, found " + std::to_string(h.plates));
        h.depth = positive(n, "depth", h.depth, "the depth of a two-plate hopper (m)");
        h.sideWalls = boolean(n, "side-walls", h.sideWalls);
        h.wallThickness = positive(n, "wall-thickness", h.wallThickness, "the plate thickness (m)");
        h.floor = boolean(n, "floor", h.floor);
        h.namePrefix = namePrefix(n, h.namePrefix);
        parts = scenes::hopper(h);
      } else {
        check(n, {{"origin", "angle", "length", "width", "wall-height", "thickness", "planes",
                   "name-prefix", "group"},
                  {}});
        scenes::ChuteSpec c;
        c.origin = vec3Attribute(n, "origin", c.origin, "the top end of the bed surface (3, m)");
        c.angle = number(n, "angle", c.angle, "the inclination (rad)");
        if (!(c.angle > 0.0 && c.angle < M_PI / 2))
          fail(n, "attribute 'angle': expected an angle in (0, pi/2) rad, found " +
                      numberText(c.angle));
        c.length = positive(n, "length", c.length, "the bed length (m)");
        c.width = positive(n, "width", c.width, "the width between the walls (m)");
        c.wallHeight = positive(n, "wall-height", c.wallHeight, "the wall height (m)");
        c.thickness = positive(n, "thickness", c.thickness, "the bed and wall thickness (m)");
        c.planes = boolean(n, "planes", c.planes);
        c.namePrefix = namePrefix(n, c.namePrefix);
        parts = scenes::chute(c);
      }
    } catch (const LoadError&) {
      throw;
    } catch (const nsdyn::Error& e) {
      fail(n, e.what());
    }
    const int group = groupOf(n);
    for (scenes::StaticPart& part : parts) {
      newSceneName(n, part.name);
      addSceneBody(n, part.name, std::move(part.body), group);
    }
  }

  // <roughBase radius reach center name-prefix>: scenes::roughBase (static spheres of the
  // radius touching on a square lattice over a disc of the reach, named name-prefix + k).
  std::vector<scenes::StaticPart> roughBase(const Node& n) const {
    check(n, {{"radius", "reach", "center", "name-prefix", "group"}, {}});
    scenes::RoughBaseSpec b;
    b.radius = positive(n, "radius", std::nullopt, "the sphere radius (m)");
    b.reach = positive(n, "reach", std::nullopt, "the radius of the disc covered (m)");
    b.center = vec3Attribute(n, "center", b.center, "the disc centre x, y and the plane z (3, m)");
    b.namePrefix = namePrefix(n, b.namePrefix);
    // a loader's lower body limit (LoaderLimits), before the generator counts its sites:
    // at most (2 cells + 1)^2 of them
    const double cells = std::floor(b.reach / (2.0 * b.radius)),
                 room = static_cast<double>(
                     limits_.sceneBodies -
                     std::min(limits_.sceneBodies, out_->scene->bodyNames.size()));
    if (limits_.sceneBodies < kMaxSceneBodies && cells <= 2000.0 &&
        (2.0 * cells + 1.0) * (2.0 * cells + 1.0) > room)
      fail(n, "expected a base of at most " + std::to_string(static_cast<long>(room)) +
                  " spheres (the loader's limit), found reach / (2 radius) = " +
                  std::to_string(static_cast<long>(cells)));
    return scenes::roughBase(b);
  }

  std::string namePrefix(const Node& n, const std::string& fallback) const {
    if (!n.attribute("name-prefix")) return fallback;
    const std::string p = trim(n.attribute("name-prefix").value());
    validName(n, p);
    return p;
  }

  // A scene body read by an output column (LoadedScene::outputBodies).
  void noteOutputBody(const std::string& name) const {
    LoadedScene& scene = *out_->scene;
    const auto at = bodyIndex_.find(name);
    if (at == bodyIndex_.end()) return;
    const std::size_t index = at->second;
    if (outputNoted_.size() <= index) outputNoted_.resize(scene.bodyNames.size(), false);
    if (!outputNoted_[index]) {
      outputNoted_[index] = true;
      scene.outputBodies.push_back(index);
    }
  }

  // `scene.FIELD`: totals over the scene's bodies and contacts.
  Binding sceneBinding(const Reference& r) const {
    static const std::vector<std::string> names = {
        "kinetic_energy", "potential_energy", "contact_work", "contacts", "bodies", "max_z"};
    if (r.hasIndex || std::find(names.begin(), names.end(), r.field) == names.end())
      throw ExpressionError("'" + r.text() + "': expected scene.FIELD, FIELD one of " +
                            join(names));
    const ContactManager* cm = out_->scene->contacts.get();
    const std::shared_ptr<OutputClock> clock = out_->outputs.clock;
    const std::string field = r.field;
    const LoadedScene* scene = out_->scene.get();
    Binding b;
    b.kind = Binding::Kind::Getter;
    b.getter = [cm, clock, field, scene]() -> double {
      if (const SceneFigures* f = scene->figures.get()) {  // stepped by a SceneEngine
        if (field == "kinetic_energy") return f->kineticEnergy;
        if (field == "potential_energy") return f->potentialEnergy;
        if (field == "contact_work") return f->contactWork;
        if (field == "contacts") return f->contacts;
        if (field == "bodies") return f->bodies;
        return f->maxZ;
      }
      if (field == "contact_work") return cm->statistics().contactWork;
      if (field == "contacts") return static_cast<double>(cm->contacts().size());
      if (field == "bodies") return static_cast<double>(cm->bodies().size());
      double sum = 0.0;
      for (const BodyShapes& body : cm->bodies()) {
        if (body.isStatic()) continue;
        if (field == "kinetic_energy")
          sum += body.body()->kineticEnergy();
        else if (field == "potential_energy")
          sum += body.body()->potentialEnergy(clock->t);
        else
          sum = std::max(sum, body.body()->q()(2));
      }
      return sum;
    };
    return b;
  }

  // ---- outputs --------------------------------------------------------------------
  // A vector of the model that outputs read: a live vector (read in place) or
  // one computed when read.
  struct Source {
    const SiconosVector* live = nullptr;
    std::function<SiconosVector()> compute;
    std::size_t size = 0;
  };
  static Source liveSource(const SiconosVector& v) { return {&v, nullptr, v.size()}; }
  static Source computedSource(std::function<SiconosVector()> f, std::size_t size) {
    return {nullptr, std::move(f), size};
  }

  // Entry r.index of @p src, or its norm for norm(...).
  static Binding sourceBinding(const Reference& r, const Source& src) {
    Binding b;
    b.kind = Binding::Kind::Getter;
    if (r.norm) {
      if (src.live) {
        const SiconosVector* p = src.live;
        b.getter = [p] { return p->norm2(); };
      } else {
        auto f = src.compute;
        b.getter = [f] { return f().norm2(); };
      }
      return b;
    }
    if (!r.hasIndex)
      throw ExpressionError("'" + r.text() + "': expected an index [i], i < " +
                            std::to_string(src.size) + " (or norm(" + r.text() + "))");
    if (r.index >= src.size)
      throw ExpressionError("'" + r.text() + "': expected an index below " +
                            std::to_string(src.size) + ", found " + std::to_string(r.index));
    const std::size_t i = r.index;
    if (src.live) {
      const SiconosVector* p = src.live;
      b.getter = [p, i] { return (*p)(i); };
    } else {
      auto f = src.compute;
      b.getter = [f, i] { return f()(i); };
    }
    return b;
  }

  // A scalar of the model (no index, no norm).
  static Binding scalarBinding(const Reference& r, std::function<double()> getter) {
    if (r.hasIndex || r.norm)
      throw ExpressionError("'" + r.text() + "': " + r.field + " is a number (no index, no norm)");
    Binding b;
    b.kind = Binding::Kind::Getter;
    b.getter = std::move(getter);
    return b;
  }

  Binding systemBinding(const Reference& r, const SP::DynamicalSystem& ds) const {
    std::shared_ptr<OutputClock> clock = out_->outputs.clock;
    if (auto body = std::dynamic_pointer_cast<NewtonEulerDS>(ds)) {
      NewtonEulerDS* raw = body.get();
      if (r.field == "kinetic_energy")
        return scalarBinding(r, [raw] { return raw->kineticEnergy(); });
      if (r.field == "potential_energy")
        return scalarBinding(r, [raw, clock] { return raw->potentialEnergy(clock->t); });
      // only the source asked for is made (a scene's default VTK bodies ask 14 per body)
      const std::string& f = r.field;
      Source src;
      if (f == "q")
        src = liveSource(raw->q());
      else if (f == "v")
        src = liveSource(raw->velocity());
      else if (f == "p")
        src = liveSource(raw->p());
      else if (f == "q_prev")
        src = liveSource(raw->qMemory());
      else if (f == "v_prev")
        src = liveSource(raw->velocityMemory());
      else if (f == "forces")
        src = liveSource(raw->forces());
      else if (f == "bc_reaction" && raw->hasBoundaryConditions())
        src = liveSource(raw->boundaryReaction());
      else if (f == "bc_reaction")
        throw ExpressionError("'" + r.text() +
                              "': bc_reaction exists for bodies with a <boundaryCondition>");
      else if (f == "omega_world")
        src = computedSource([raw] { return raw->angularVelocityWorld(); }, 3);
      else if (f == "momentum")
        src = computedSource([raw] { return raw->linearMomentum(); }, 3);
      else if (f == "angular_momentum")
        src = computedSource([raw] { return raw->angularMomentumWorld(); }, 3);
      else if (f == "rotation")
        src = computedSource(
            [raw] {
              const SimpleMatrix R = raw->rotationMatrix();
              SiconosVector flat(9);
              for (std::size_t i = 0; i < 3; ++i)
                for (std::size_t j = 0; j < 3; ++j) flat(3 * i + j) = R(i, j);
              return flat;
            },
            9);
      else
        throw ExpressionError("'" + r.text() +
                              "': expected a field of a rigid body: q, v, p, q_prev, v_prev, "
                              "forces, bc_reaction, omega_world, momentum, angular_momentum, "
                              "rotation, kinetic_energy, potential_energy");
      return sourceBinding(r, src);
    }
    if (auto l = std::dynamic_pointer_cast<LagrangianDS>(ds)) {
      LagrangianDS* raw = l.get();
      if (r.field == "kinetic_energy")
        return scalarBinding(r, [raw] { return raw->kineticEnergy(); });
      std::map<std::string, Source> fields = {{"q", liveSource(raw->q())},
                                              {"v", liveSource(raw->velocity())},
                                              {"p", liveSource(raw->p())},
                                              {"q_prev", liveSource(raw->qMemory())},
                                              {"v_prev", liveSource(raw->velocityMemory())}};
      if (auto ed = std::dynamic_pointer_cast<EventDriven>(out_->simulation)) {
        EventDriven* sim = ed.get();
        fields["contact_force"] =
            computedSource([sim, raw] { return sim->contactForce(*raw); }, raw->dimension());
      } else if (r.field == "contact_force") {
        throw ExpressionError("'" + r.text() +
                              "': contact_force exists in EventDriven simulations only");
      }
      auto it = fields.find(r.field);
      if (it == fields.end())
        throw ExpressionError(
            "'" + r.text() +
            "': expected a field of a Lagrangian system: q, v, p, q_prev, v_prev, contact_force, "
            "kinetic_energy");
      return sourceBinding(r, it->second);
    }
    auto f = std::dynamic_pointer_cast<FirstOrderLinearDS>(ds);
    if (!f) throw ExpressionError("'" + r.text() + "': no fields for a " + ds->className());
    FirstOrderLinearDS* raw = f.get();
    const std::map<std::string, Source> fields = {
        {"x", liveSource(raw->x())},
        {"r", liveSource(raw->r())},
        {"x_prev", liveSource(raw->xMemory())},
        {"rhs",
         computedSource([raw, clock] { return raw->computeRhs(clock->t); }, raw->dimension())}};
    auto it = fields.find(r.field);
    if (it == fields.end())
      throw ExpressionError("'" + r.text() +
                            "': expected a field of a first-order system: x, r, x_prev, rhs");
    return sourceBinding(r, it->second);
  }

  Binding interactionBinding(const Reference& r, const SP::Interaction& inter) const {
    std::shared_ptr<OutputClock> clock = out_->outputs.clock;
    static const std::vector<std::string> names = {
        "y0",      "y1",      "y2",      "lambda0",      "lambda1",      "lambda2",
        "y0_prev", "y1_prev", "y2_prev", "lambda0_prev", "lambda1_prev", "lambda2_prev"};
    if (r.field == "contact_force") {
      Interaction* raw = inter.get();
      return sourceBinding(
          r, computedSource([raw, clock] { return raw->contactForce(clock->t); }, inter->dof()));
    }
    auto it = std::find(names.begin(), names.end(), r.field);
    if (it == names.end())
      throw ExpressionError("'" + r.text() + "': expected a field of an interaction: " +
                            join(names) + ", contact_force");
    const bool lambda = r.field[0] == 'l';
    const bool prev = r.field.find("_prev") != std::string::npos;
    const unsigned level = static_cast<unsigned>(r.field[lambda ? 6 : 1] - '0');
    const SiconosVector& v = lambda ? (prev ? inter->lambdaMemory(level) : inter->lambda(level))
                                    : (prev ? inter->yMemory(level) : inter->y(level));
    return sourceBinding(r, liveSource(v));
  }

  Binding outputBinding(const Reference& r) const {
    Binding b;
    b.kind = Binding::Kind::Getter;
    std::shared_ptr<OutputClock> clock = out_->outputs.clock;
    if (r.field.empty() && !r.hasIndex && !r.norm) {
      if (r.base == "t") {
        b.getter = [clock] { return clock->t; };
        return b;
      }
      if (r.base == "k") {
        b.getter = [clock] { return static_cast<double>(clock->k); };
        return b;
      }
      if (r.base == "h") {
        b.getter = [clock] { return clock->h; };
        return b;
      }
      if (parameters_.count(r.base)) return parameterBinding(r);
    }
    if (r.norm && r.field.empty() && parameters_.count(r.base)) return parameterBinding(r);
    if (SP::DynamicalSystem ds = systemNamed(r.base)) {
      if (out_->scene) noteOutputBody(r.base);
      return systemBinding(r, ds);
    }
    if (auto at = interactionIndex_.find(r.base); at != interactionIndex_.end())
      return interactionBinding(r, out_->interactions[at->second].second);
    if (r.base == "event" && !r.norm) return eventBinding(r);
    if (r.base == "step" && !r.norm) return stepBinding(r);
    if (r.base == "scene" && out_->scene && !r.norm) return sceneBinding(r);
    std::vector<std::string> known = {"t", "k", "h"};
    for (const auto& p : parameters_) known.push_back(p.first);
    for (const auto& s : out_->systems) known.push_back(s.first + ".FIELD[i]");
    for (const auto& i : out_->interactions) known.push_back(i.first + ".FIELD[i]");
    if (std::dynamic_pointer_cast<EventDriven>(out_->simulation))
      known.push_back("event.FIELD");
    else
      known.push_back("step.FIELD");
    if (out_->scene) known.push_back("scene.FIELD");
    throw ExpressionError("unknown name '" + r.text() + "' (expected one of: " + join(known) + ")");
  }

  // `step.FIELD`: statistics of the last step of a time-stepping run (0 before the first).
  Binding stepBinding(const Reference& r) const {
    if (std::dynamic_pointer_cast<EventDriven>(out_->simulation))
      throw ExpressionError("'" + r.text() + "': step statistics exist in time-stepping runs only");
    static const std::vector<std::string> names = {
        "newton_iterations", "newton_converged", "projections",    "active",
        "solver_iterations", "residual",         "above_tolerance"};
    if (r.hasIndex || std::find(names.begin(), names.end(), r.field) == names.end())
      throw ExpressionError("'" + r.text() + "': expected step.FIELD, FIELD one of " + join(names));
    double (*read)(const StepStatistics&) = nullptr;
    if (r.field == "newton_iterations")
      read = [](const StepStatistics& s) { return static_cast<double>(s.newtonIterations); };
    else if (r.field == "newton_converged")
      read = [](const StepStatistics& s) { return s.newtonConverged ? 1.0 : 0.0; };
    else if (r.field == "projections")
      read = [](const StepStatistics& s) { return static_cast<double>(s.projectionIterations); };
    else if (r.field == "active")
      read = [](const StepStatistics& s) { return static_cast<double>(s.activeRelations); };
    else if (r.field == "solver_iterations")
      read = [](const StepStatistics& s) { return static_cast<double>(s.iterations); };
    else if (r.field == "above_tolerance")
      read = [](const StepStatistics& s) { return s.aboveTolerance ? 1.0 : 0.0; };
    else
      read = [](const StepStatistics& s) { return s.residual; };
    const Simulation* sim = out_->simulation.get();
    const LoadedScene* scene = out_->scene.get();
    Binding b;
    b.kind = Binding::Kind::Getter;
    b.getter = [sim, scene, read] {
      if (scene && scene->figures) return read(scene->figures->step);  // a SceneEngine's step
      const std::vector<StepStatistics>& steps = sim->statistics();
      return steps.empty() ? 0.0 : read(steps.back());
    };
    return b;
  }

  // `event.FIELD`: statistics of the last processed event of an EventDriven
  // run (FIELD_prev: of the event before it); 0 while there is none.
  Binding eventBinding(const Reference& r) const {
    auto ed = std::dynamic_pointer_cast<EventDriven>(out_->simulation);
    if (!ed)
      throw ExpressionError("'" + r.text() +
                            "': event statistics exist in EventDriven simulations only");
    static const std::vector<std::string> names = {
        "nonsmooth",           "closed",   "resting",        "impacts",
        "switched_to_resting", "released", "impact_velocity"};
    std::string field = r.field;
    std::size_t back = 1;  // 1: the last event, 2: the one before it
    const std::string suffix = "_prev";
    if (field.size() > suffix.size() &&
        field.compare(field.size() - suffix.size(), suffix.size(), suffix) == 0) {
      field.resize(field.size() - suffix.size());
      back = 2;
    }
    if (r.hasIndex || std::find(names.begin(), names.end(), field) == names.end())
      throw ExpressionError("'" + r.text() +
                            "': expected event.FIELD or event.FIELD_prev, FIELD one of " +
                            join(names));
    double (*read)(const EventStatistics&) = nullptr;
    if (field == "nonsmooth")
      read = [](const EventStatistics& e) { return e.type == EventType::NonSmooth ? 1.0 : 0.0; };
    else if (field == "closed")
      read = [](const EventStatistics& e) { return static_cast<double>(e.closedRelations); };
    else if (field == "resting")
      read = [](const EventStatistics& e) { return static_cast<double>(e.restingRelations); };
    else if (field == "impacts")
      read = [](const EventStatistics& e) { return static_cast<double>(e.impacts); };
    else if (field == "switched_to_resting")
      read = [](const EventStatistics& e) { return static_cast<double>(e.switchedToResting); };
    else if (field == "released")
      read = [](const EventStatistics& e) { return static_cast<double>(e.released); };
    else
      read = [](const EventStatistics& e) { return e.maxImpactVelocity; };
    const EventDriven* sim = ed.get();
    Binding b;
    b.kind = Binding::Kind::Getter;
    b.getter = [sim, back, read] {
      const std::vector<EventStatistics>& events = sim->eventStatistics();
      return events.size() < back ? 0.0 : read(events[events.size() - back]);
    };
    return b;
  }

  Expression outputExpression(const Node& n, const char* attr, const std::string& meaning) const {
    const std::string text = requiredAttribute(n, attr, meaning);
    try {
      return Expression::compile(text, [this](const Reference& r) { return outputBinding(r); });
    } catch (const ExpressionError& e) {
      fail(n, "attribute '" + std::string(attr) + "': " + e.what());
    }
  }

  void outputs(const Node& n) {
    OutputsSpec& spec = out_->outputs;
    spec.clock->h = out_->h;
    spec.clock->t = out_->t0;
    if (n) {
      check(n, {{"format"}, {"output", "vtk", "sceneFiles"}});
      if (Node f = single(n, "sceneFiles", false)) {
        if (!out_->scene) fail(f, "expected a model with a <scene>, found none");
        check(f, {{"every", "vtk", "hdf5"}, {}});
        SceneFilesSpec& files = out_->scene->files;
        files.every = integer(f, "every", 1, 1, "steps between frames");
        files.vtk = boolean(f, "vtk", files.vtk);
        files.hdf5 = boolean(f, "hdf5", files.hdf5);
      }
      spec.format = choice(n, "format", {"csv", "hdf5"}, "csv");
      std::set<std::string> names;
      for (Node o : n.children("output")) {
        check(o, {{"name", "every", "initial-row", "before-rows", "max-rows"}, {"column", "plot"}});
        OutputSpec out;
        out.name = requiredAttribute(o, "name", "output name, the file or dataset name");
        validName(o, out.name, true);
        if (!names.insert(out.name).second)
          fail(o, "expected a new output name, found '" + out.name + "' a second time");
        out.every = integer(o, "every", 1, 1, "steps between rows");
        out.initialRow = boolean(o, "initial-row", true);
        out.beforeRows = boolean(o, "before-rows", false);
        out.maxRows = static_cast<std::size_t>(
            integer(o, "max-rows", 0, 1, "rows of the table, the run ends when it has them"));
        if (out.beforeRows && out_->simulationType != "EventDriven")
          fail(o,
               "attribute 'before-rows': expected an EventDriven simulation (rows before nonsmooth "
               "events), found " +
                   out_->simulationType);
        for (Node c : o.children("column")) {
          check(c, {{"name", "value", "initial", "sum", "before"}, {}});
          ColumnSpec col;
          col.name = requiredAttribute(c, "name", "column name");
          if (col.name.find_first_of(",\"\n") != std::string::npos)
            fail(c, "expected a column name without commas and quotes, found '" + col.name + "'");
          for (const ColumnSpec& other : out.columns)
            if (other.name == col.name)
              fail(c, "expected a new column name, found '" + col.name + "' a second time");
          col.value = outputExpression(c, "value", "an expression");
          col.sum = boolean(c, "sum", false);
          if (c.attribute("before")) {
            col.hasBefore = true;
            col.before = outputExpression(c, "before", "an expression");
          }
          if (c.attribute("initial")) {
            if (trim(c.attribute("initial").value()) == "next") {
              col.initialMode = ColumnSpec::Initial::NextRow;
            } else {
              col.initialMode = ColumnSpec::Initial::Expression;
              col.initial = outputExpression(c, "initial", "an expression or next");
            }
          }
          out.columns.push_back(std::move(col));
        }
        if (out.columns.empty()) fail(o, "expected at least one <column>, found none");
        if (Node p = single(o, "plot", false)) {
          check(p, {{"title"}, {"curve"}});
          out.plotTitle = p.attribute("title").value();
          for (Node c : p.children("curve")) {
            check(c, {{"column", "title", "panel"}, {}});
            const std::string column = requiredAttribute(c, "column", "a column name");
            CurveSpec curve;
            bool found = false;
            for (std::size_t i = 0; i < out.columns.size(); ++i)
              if (out.columns[i].name == column) curve.column = i, found = true;
            if (!found) {
              std::vector<std::string> cols;
              for (const ColumnSpec& col : out.columns) cols.push_back(col.name);
              fail(c, "reference to an undefined column '" + column + "' (columns: " + join(cols) +
                          ")");
            }
            curve.title = c.attribute("title") ? c.attribute("title").value() : column;
            curve.panel = c.attribute("panel").value();
            out.curves.push_back(curve);
          }
        }
        spec.outputs.push_back(std::move(out));
      }
      if (Node v = single(n, "vtk", false)) {
        check(v, {{"every"}, {"body"}});
        spec.vtk.every = integer(v, "every", 1, 1, "steps between frames");
        for (Node b : v.children("body")) {
          check(b, {{"system", "x", "y", "z", "radius"}, {}});
          BodySpec body;
          body.system = requiredAttribute(b, "system", "a Lagrangian system or rigid body name");
          SP::DynamicalSystem ds = systemNamed(body.system);
          if (!ds) fail(b, "reference to an undefined system '" + body.system + "'");
          defaultBody(body, ds);
          if (b.attribute("x")) body.x = outputExpression(b, "x", "an expression");
          if (b.attribute("y")) body.y = outputExpression(b, "y", "an expression");
          if (b.attribute("z")) body.z = outputExpression(b, "z", "an expression");
          body.radius = number(b, "radius", 0.0, "radius");
          spec.vtk.bodies.push_back(std::move(body));
        }
      } else {
        defaultVtk();
      }
    } else {
      defaultVtk();
    }
  }

  // x, y, z = q[0], q[1], q[2] where they exist (0 otherwise); the velocity
  // v[0..2] likewise; rigid bodies: their quaternion q[3..6] and angular
  // velocity in the world frame, others the identity and 0.
  void defaultBody(BodySpec& body, const SP::DynamicalSystem& ds) const {
    auto compile = [this](const std::string& text) {
      return Expression::compile(text, [this](const Reference& r) { return outputBinding(r); });
    };
    const std::string& S = body.system;
    body.rigid = ds->kind() == DynamicalSystemKind::NewtonEuler;
    const bool lagrangian = ds->kind() == DynamicalSystemKind::Lagrangian;
    Expression* target[3] = {&body.x, &body.y, &body.z};
    body.orientation[0] = compile("1");
    for (std::size_t i = 0; i < 3; ++i) {
      const std::string index = "[" + std::to_string(i) + "]";
      if (body.rigid || (lagrangian && i < ds->dimension())) {
        *target[i] = compile(S + ".q" + index);
        body.velocity[i] = compile(S + ".v" + index);
      }
      if (body.rigid) body.angularVelocity[i] = compile(S + ".omega_world" + index);
    }
    if (body.rigid)
      for (std::size_t j = 0; j < 4; ++j)
        body.orientation[j] = compile(S + ".q[" + std::to_string(3 + j) + "]");
  }

  void defaultVtk() {
    OutputsSpec& spec = out_->outputs;
    spec.vtk.every = spec.outputs.empty() ? 1 : spec.outputs.front().every;
    // a scene's bodies are drawn by the scene's own VTK files (SceneVtkWriter, with their
    // shapes and contacts): 14 expressions each here would cost ~2.9 KB per body, half the
    // load time, and copy every body's state at every row
    for (const auto& entry : out_->systems)
      if (entry.second->kind() != DynamicalSystemKind::FirstOrder &&
          !bodyIndex_.count(entry.first)) {
        BodySpec body;
        body.system = entry.first;
        defaultBody(body, entry.second);
        spec.vtk.bodies.push_back(std::move(body));
      }
  }

  std::string text_;  // the model file, parsed in place (the document points into it)
  LineIndex lines_;
  const std::string& file_;
  FunctionRegistry registry_;
  LoaderLimits limits_;
  std::map<std::string, double> parameters_;
  std::map<std::string, DefinedFunction> defined_;
  std::unique_ptr<LoadedModel> out_;
  std::set<std::string> sceneNames_;  // names of the scene's bodies and of the systems
  // Indices by name, so that a model of N bodies loads in O(N log N): out_->systems,
  // out_->scene->bodyNames, out_->interactions, and the scene bodies already in outputBodies.
  std::unordered_map<std::string, std::size_t> systemIndex_, bodyIndex_, interactionIndex_;
  mutable std::vector<bool> outputNoted_;
  SP::Model model_ = std::make_shared<Model>(0.0, 1.0);
};

}  // namespace

std::unique_ptr<LoadedModel> XmlLoader::loadFile(const std::string& path) const {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw LoadError(path, 0, "cannot open the model file: " + std::string(std::strerror(errno)));
  // read into one buffer of the file's size (a stringstream and its copy held it 3 times)
  std::string text;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size >= 0) {
    in.seekg(0, std::ios::beg);
    text.resize(static_cast<std::size_t>(size));
    in.read(&text[0], size);
    text.resize(static_cast<std::size_t>(in.gcount()));
  } else {  // not seekable (a pipe): read it as it comes
    in.clear();
    std::ostringstream rest;
    rest << in.rdbuf();
    text = rest.str();
  }
  if (in.bad())
    throw LoadError(path, 0, "cannot read the model file: " + std::string(std::strerror(errno)));
  return Loader(std::move(text), path, registry_, limits_).load();
}

std::unique_ptr<LoadedModel> XmlLoader::loadString(const std::string& xml,
                                                   const std::string& fileName) const {
  return Loader(xml, fileName, registry_, limits_).load();
}

}  // namespace nsdyn::io
