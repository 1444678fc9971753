/// @file Expression.hpp
/// @brief Arithmetic expressions of the XML model files: numbers, parameters,
///        function arguments and (in outputs) the variables of the model.
#ifndef NSDYN_IO_EXPRESSION_HPP
#define NSDYN_IO_EXPRESSION_HPP

#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "nsdyn/SiconosVector.hpp"
#include "nsdyn/io/IoExport.hpp"

namespace nsdyn::io {

/// A malformed expression or a name it cannot use; the message says where
/// in the text (character position) and what was expected.
class NSDYN_IO_API ExpressionError : public std::runtime_error {
 public:
  explicit ExpressionError(const std::string& message) : std::runtime_error(message) {}
};

/// A name met in an expression: `base`, `base[index]`, or `base.field[index]`;
/// or `norm(base.field)`, the Euclidean norm of a whole vector of the model
/// (`norm` set, no index). Resolvers that read no vectors refuse `norm`.
struct NSDYN_IO_API Reference {
  std::string base;       ///< identifier before any '.' or '['
  std::string field;      ///< after '.', empty when none
  bool hasIndex = false;  ///< a `[index]` follows
  std::size_t index = 0;  ///< 0-based index
  bool norm = false;      ///< `norm(base.field)`: the 2-norm of the whole vector
  /// The reference as written, e.g. "ball.q[0]" or "norm(contact.contact_force)".
  std::string text() const;
};

/// Arguments of a user function evaluated from an expression: vectors q and
/// v (nullptr when the function does not take them) and the time t.
struct NSDYN_IO_API Arguments {
  const SiconosVector* q = nullptr;
  const SiconosVector* v = nullptr;
  double t = 0.0;
};

/// What a Reference stands for, decided once when the expression is compiled.
struct NSDYN_IO_API Binding {
  enum class Kind {
    Constant,  ///< a number known at load time (parameters, pi)
    Q,         ///< entry `index` of the argument q
    V,         ///< entry `index` of the argument v
    Time,      ///< the argument t
    Getter     ///< a value read at each evaluation (model variables)
  };
  Kind kind = Kind::Constant;
  double value = 0.0;
  std::size_t index = 0;
  std::function<double()> getter;
};

/// Resolves a Reference; throws ExpressionError naming what is allowed when
/// the reference is unknown.
using Resolver = std::function<Binding(const Reference&)>;

/// A compiled expression.
///
/// Grammar (usual precedence, left to right; `^` right associative):
///   expr   := and ('||' and)*
///   and    := cmp ('&&' cmp)*
///   cmp    := sum (('<' | '<=' | '>' | '>=' | '==' | '!=') sum)*
///   sum    := term (('+' | '-') term)*
///   term   := unary (('*' | '/') unary)*
///   unary  := ('-' | '+' | '!') unary | power
///   power  := atom ('^' unary)?
///   atom   := number | '(' expr ')' | name '(' expr (',' expr)* ')'
///           | 'norm' '(' name ('.' name)? ')'
///           | name ('.' name)? ('[' integer ']')?
/// Comparisons and logical operators give 1 or 0 (any value but 0 is true).
/// Functions: sin cos tan asin acos atan atan2 sinh cosh tanh exp log log10
/// sqrt abs floor ceil pow min max sign, and `if(c, a, b)`: a when c is not
/// 0, else b (only the chosen one is evaluated); `norm(S.field)` is a
/// Reference with `norm` set (a vector of the model, resolved as one value). Evaluation follows the
/// written order, so `0.5*m*v*v` computes ((0.5*m)*v)*v as C++ would.
class NSDYN_IO_API Expression {
 public:
  /// The constant 0.
  Expression();

  /// Compile @p text, resolving names with @p resolve; ExpressionError on a
  /// syntax error or an unknown name (the message gives the position).
  static Expression compile(const std::string& text, const Resolver& resolve);

  /// Value with the given arguments (none needed for constant expressions).
  double evaluate(const Arguments& args = Arguments()) const;
  /// True when the expression uses no argument and no getter.
  bool isConstant() const;
  const std::string& text() const { return text_; }

  struct Node;

 private:
  std::shared_ptr<const Node> root_;
  std::string text_;
};

}  // namespace nsdyn::io

#endif
