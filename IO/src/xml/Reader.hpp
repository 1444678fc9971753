/// @file Reader.hpp
/// @brief The typed readers of the XML loader (internal): attributes as numbers (expressions
///        of the parameters), integers in a range, booleans, choices, names and 3-vectors;
///        element data as vectors, matrices, functions of t or functions of the registry.
///        Every error is a LoadError naming the file, the line and the element.
#ifndef NSDYN_IO_XML_READER_HPP
#define NSDYN_IO_XML_READER_HPP

#include "Common.hpp"
#include "Schema.hpp"

#pragma GCC visibility push(hidden)

namespace nsdyn::io::xml {

/// A vector whose entries are expressions of t and the parameters: constant (no entry reads
/// t) or a function of t.
struct TimeVector {
  SiconosVector constant;
  FunctionRegistry::VectorOfTime function;  // empty when constant
};

/// The model file's text, its lines, its parameters and functions, and the readers of its
/// elements. The Loader (Loader.hpp) builds the model families with them.
class Reader {
 public:
  /// @p text is parsed in place: memory is the text once, its line index and what is kept.
  Reader(std::string text, const std::string& file, const FunctionRegistry& registry);

  // ---- places, errors, attributes (Reader.cpp) ----
  long lineOf(std::ptrdiff_t offset) const;
  long lineOf(const Node& n) const;
  [[noreturn]] void fail(const Node& n, const std::string& message) const;
  void check(const Node& n, const Allowed& allowed) const;
  Node single(const Node& parent, const char* name, bool required) const;
  std::string requiredAttribute(const Node& n, const char* name, const std::string& meaning) const;
  Binding parameterBinding(const Reference& ref) const;
  std::string parameterNames() const;
  double evaluate(const Node& n, const std::string& text, const std::string& what) const;
  double number(const Node& n, const char* attr, std::optional<double> fallback,
                const std::string& meaning) const;
  long integer(const Node& n, const char* attr, std::optional<long> fallback, long minimum,
               const std::string& meaning, long maximum = kMaxInteger) const;
  int intAttribute(const Node& n, const char* attr, std::optional<long> fallback, long minimum,
                   const std::string& meaning, long maximum = INT_MAX) const;
  bool boolean(const Node& n, const char* attr, bool fallback) const;
  std::string choice(const Node& n, const char* attr, const std::vector<std::string>& values,
                     const std::string& fallback) const;
  void validName(const Node& n, const std::string& name, bool fileName = false) const;
  SiconosVector vectorAttribute(const Node& n, const char* attr, std::size_t size,
                                const std::string& meaning) const;
  Vec3 vec3Attribute(const Node& n, const char* attr, std::optional<Vec3> fallback,
                     const std::string& meaning) const;
  double positive(const Node& n, const char* attr, std::optional<double> fallback,
                  const std::string& meaning) const;
  double nonNegative(const Node& n, const char* attr, double fallback,
                     const std::string& meaning) const;
  Vec3 positiveVec3(const Node& n, const char* attr, std::optional<Vec3> fallback,
                    const std::string& meaning) const;
  std::string namePrefix(const Node& n, const std::string& fallback) const;
  double restitution(const Node& l, const char* attr, std::optional<double> fallback,
                     const std::string& meaning) const;

  // ---- element data (ReaderValues.cpp) ----
  SiconosVector vectorData(const Node& n, std::optional<std::size_t> size,
                           const std::string& meaning) const;
  SimpleMatrix matrixData(const Node& n, std::optional<std::size_t> rowsWanted,
                          std::optional<std::size_t> colsWanted, const std::string& meaning) const;
  void checkVectorSize(const Node& n, const SiconosVector& v, std::size_t size,
                       const std::string& meaning) const;
  void checkMatrixSize(const Node& n, const SimpleMatrix& M, std::size_t rows, std::size_t cols,
                       const std::string& meaning) const;
  Binding timeBinding(const Reference& r) const;
  TimeVector timeVector(const Node& n, const std::string& text, std::size_t size,
                        const std::string& what) const;
  TimeVector bodyLoad(const Node& f, const std::string& meaning) const;
  SimpleMatrix inertiaData(const Node& in) const;
  SiconosVector orientationChildren(const Node& s) const;
  void checkMass(const Node& m, const SimpleMatrix& M, const std::string& what) const;

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

 protected:
  std::string text_;  // the model file, parsed in place (the document points into it)
  LineIndex lines_;
  const std::string& file_;
  FunctionRegistry registry_;
  std::map<std::string, double> parameters_;
  std::map<std::string, DefinedFunction> defined_;
};

}  // namespace nsdyn::io::xml

#pragma GCC visibility pop

#endif
