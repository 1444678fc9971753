/// @file FunctionRegistry.hpp
/// @brief Named C++ callables that XML model files refer to by name
///        (user functions of the nonlinear systems and relations).
#ifndef NSDYN_IO_FUNCTIONREGISTRY_HPP
#define NSDYN_IO_FUNCTIONREGISTRY_HPP

#include <functional>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "nsdyn/SiconosVector.hpp"
#include "nsdyn/SimpleMatrix.hpp"
#include "nsdyn/io/IoExport.hpp"

namespace nsdyn::io {

/// A registry of named user functions, of six signatures: a vector or a
/// matrix of t; of q; of (q, v, t). They match the Kernel's callables:
///  - vector of t: LagrangianDS F_ext(t), FirstOrderLinearDS b(t), FirstOrderLinearR e(t), u(t);
///  - matrix of t: FirstOrderLinearDS A(t), FirstOrderLinearR C(t), D(t), B(t);
///  - vector of q: LagrangianScleronomousR h(q);
///  - matrix of q: LagrangianScleronomousR G(q), LagrangianDS M(q);
///  - vector of (q, v, t): LagrangianDS F_int(q, v, t);
///  - matrix of (q, v, t): LagrangianDS ∂F_int/∂q, ∂F_int/∂v.
/// A driver (or a plugin, see XmlLoader) adds its functions before loading a
/// file; the functions defined in the file itself (`<function>`) are added
/// by the loader. Names are unique: adding a name twice replaces the first.
class NSDYN_IO_API FunctionRegistry {
 public:
  using VectorOfTime = std::function<SiconosVector(double t)>;
  using MatrixOfTime = std::function<SimpleMatrix(double t)>;
  using VectorOfQ = std::function<SiconosVector(const SiconosVector& q)>;
  using MatrixOfQ = std::function<SimpleMatrix(const SiconosVector& q)>;
  using VectorOfQVT =
      std::function<SiconosVector(const SiconosVector& q, const SiconosVector& v, double t)>;
  using MatrixOfQVT =
      std::function<SimpleMatrix(const SiconosVector& q, const SiconosVector& v, double t)>;
  using Function =
      std::variant<VectorOfTime, MatrixOfTime, VectorOfQ, MatrixOfQ, VectorOfQVT, MatrixOfQVT>;

  void add(const std::string& name, VectorOfTime f) { functions_[name] = std::move(f); }
  void add(const std::string& name, MatrixOfTime f) { functions_[name] = std::move(f); }
  void add(const std::string& name, VectorOfQ f) { functions_[name] = std::move(f); }
  void add(const std::string& name, MatrixOfQ f) { functions_[name] = std::move(f); }
  void add(const std::string& name, VectorOfQVT f) { functions_[name] = std::move(f); }
  void add(const std::string& name, MatrixOfQVT f) { functions_[name] = std::move(f); }

  bool has(const std::string& name) const { return functions_.count(name) != 0; }
  /// The function named @p name; nullptr when absent.
  const Function* find(const std::string& name) const {
    auto it = functions_.find(name);
    return it == functions_.end() ? nullptr : &it->second;
  }
  /// Registered names, sorted.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& entry : functions_) out.push_back(entry.first);
    return out;
  }
  /// Human-readable signature of @p f, e.g. "vector of (q)".
  static const char* signature(const Function& f) {
    static const char* const kNames[] = {"vector of (t)",       "matrix of (t)",
                                         "vector of (q)",       "matrix of (q)",
                                         "vector of (q, v, t)", "matrix of (q, v, t)"};
    return kNames[f.index()];
  }

 private:
  std::map<std::string, Function> functions_;
};

}  // namespace nsdyn::io

/// Entry point a plugin library (named by `<plugin library="..."/>` in a model
/// file) exports with C linkage; the loader calls it once with its registry.
/// Signature: extern "C" void nsdyn_register_functions(nsdyn::io::FunctionRegistry* registry);
#define NSDYN_PLUGIN_ENTRY_POINT "nsdyn_register_functions"

#endif
