// Expressions of the XML model files: a recursive-descent parser building an
// immutable tree, evaluated in the written order.
#include "nsdyn/io/Expression.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <utility>
#include <vector>

namespace nsdyn::io {

std::string Reference::text() const {
  std::string s = base;
  if (!field.empty()) s += "." + field;
  if (hasIndex) s += "[" + std::to_string(index) + "]";
  return norm ? "norm(" + s + ")" : s;
}

struct Expression::Node {
  enum class Op {
    Constant,
    Q,
    V,
    Time,
    Getter,
    Negate,
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Call1,
    Call2,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    Equal,
    NotEqual,
    And,
    Or,
    Not,
    If
  };
  Op op = Op::Constant;
  double value = 0.0;
  std::size_t index = 0;
  std::function<double()> getter;
  double (*f1)(double) = nullptr;
  double (*f2)(double, double) = nullptr;
  std::shared_ptr<const Node> a, b, c;
  std::size_t depth = 1;  ///< height of the tree below (evaluation recursion)

  /// depth = 1 + the deepest child.
  void setDepth() { depth = 1 + std::max({a ? a->depth : 0, b ? b->depth : 0, c ? c->depth : 0}); }

  double eval(const Arguments& args) const {
    switch (op) {
      case Op::Constant:
        return value;
      case Op::Q:
        return (*args.q)(index);
      case Op::V:
        return (*args.v)(index);
      case Op::Time:
        return args.t;
      case Op::Getter:
        return getter();
      case Op::Negate:
        return -a->eval(args);
      case Op::Add:
        return a->eval(args) + b->eval(args);
      case Op::Sub:
        return a->eval(args) - b->eval(args);
      case Op::Mul:
        return a->eval(args) * b->eval(args);
      case Op::Div:
        return a->eval(args) / b->eval(args);
      case Op::Pow:
        return std::pow(a->eval(args), b->eval(args));
      case Op::Call1:
        return f1(a->eval(args));
      case Op::Call2:
        return f2(a->eval(args), b->eval(args));
      case Op::Less:
        return a->eval(args) < b->eval(args) ? 1.0 : 0.0;
      case Op::LessEqual:
        return a->eval(args) <= b->eval(args) ? 1.0 : 0.0;
      case Op::Greater:
        return a->eval(args) > b->eval(args) ? 1.0 : 0.0;
      case Op::GreaterEqual:
        return a->eval(args) >= b->eval(args) ? 1.0 : 0.0;
      case Op::Equal:
        return a->eval(args) == b->eval(args) ? 1.0 : 0.0;
      case Op::NotEqual:
        return a->eval(args) != b->eval(args) ? 1.0 : 0.0;
      case Op::And:
        return a->eval(args) != 0.0 && b->eval(args) != 0.0 ? 1.0 : 0.0;
      case Op::Or:
        return a->eval(args) != 0.0 || b->eval(args) != 0.0 ? 1.0 : 0.0;
      case Op::Not:
        return a->eval(args) == 0.0 ? 1.0 : 0.0;
      case Op::If:
        // only the chosen branch is evaluated
        return a->eval(args) != 0.0 ? b->eval(args) : c->eval(args);
    }
    return 0.0;
  }
  bool constant() const {
    switch (op) {
      case Op::Constant:
        return true;
      case Op::Q:
      case Op::V:
      case Op::Time:
      case Op::Getter:
        return false;
      default:
        return (!a || a->constant()) && (!b || b->constant()) && (!c || c->constant());
    }
  }
};

namespace {

using NodePtr = std::shared_ptr<const Expression::Node>;
using Op = Expression::Node::Op;

double signOf(double x) {
  return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
}
double minOf(double x, double y) {
  return std::fmin(x, y);
}
double maxOf(double x, double y) {
  return std::fmax(x, y);
}
double powOf(double x, double y) {
  return std::pow(x, y);
}
double atan2Of(double y, double x) {
  return std::atan2(y, x);
}

const std::map<std::string, double (*)(double)>& unaryFunctions() {
  static const std::map<std::string, double (*)(double)> table = {
      {"sin", [](double x) { return std::sin(x); }},
      {"cos", [](double x) { return std::cos(x); }},
      {"tan", [](double x) { return std::tan(x); }},
      {"asin", [](double x) { return std::asin(x); }},
      {"acos", [](double x) { return std::acos(x); }},
      {"atan", [](double x) { return std::atan(x); }},
      {"sinh", [](double x) { return std::sinh(x); }},
      {"cosh", [](double x) { return std::cosh(x); }},
      {"tanh", [](double x) { return std::tanh(x); }},
      {"exp", [](double x) { return std::exp(x); }},
      {"log", [](double x) { return std::log(x); }},
      {"log10", [](double x) { return std::log10(x); }},
      {"sqrt", [](double x) { return std::sqrt(x); }},
      {"abs", [](double x) { return std::fabs(x); }},
      {"floor", [](double x) { return std::floor(x); }},
      {"ceil", [](double x) { return std::ceil(x); }},
      {"sign", signOf}};
  return table;
}

const std::map<std::string, double (*)(double, double)>& binaryFunctions() {
  static const std::map<std::string, double (*)(double, double)> table = {
      {"atan2", atan2Of}, {"pow", powOf}, {"min", minOf}, {"max", maxOf}};
  return table;
}

NodePtr makeNode(Op op, NodePtr a = nullptr, NodePtr b = nullptr) {
  auto n = std::make_shared<Expression::Node>();
  n->op = op;
  n->a = std::move(a);
  n->b = std::move(b);
  n->setDepth();
  return n;
}

NodePtr constantNode(double value) {
  auto n = std::make_shared<Expression::Node>();
  n->value = value;
  return n;
}

class Parser {
 public:
  Parser(const std::string& text, const Resolver& resolve) : s_(text), resolve_(resolve) {}

  NodePtr parse() {
    skipBlanks();
    if (pos_ >= s_.size()) fail("an expression", "nothing");
    NodePtr n = expr();
    skipBlanks();
    if (pos_ < s_.size()) fail("an operator or the end of the expression", quoteRest());
    return n;
  }

 private:
  /// Deepest nesting and tree height accepted: hostile input (20,000 parentheses,
  /// 40,000 unary minus, a 100,000-term sum) gets an error, not a stack overflow.
  static constexpr std::size_t kMaxDepth = 256;

  [[noreturn]] void fail(const std::string& expected, const std::string& found) const {
    // long (hostile) expressions are quoted by their first 60 characters
    const std::string shown =
        s_.size() > 80 ? s_.substr(0, 60) + "... (" + std::to_string(s_.size()) + " characters)"
                       : s_;
    throw ExpressionError("in '" + shown + "' at character " + std::to_string(pos_ + 1) +
                          ": expected " + expected + ", found " + found);
  }
  /// Counts the parser's recursion (parentheses, prefix operators, arguments).
  struct Nesting {
    explicit Nesting(Parser& p) : p_(p) {
      if (++p_.nesting_ > kMaxDepth)
        p_.fail("an expression nested at most " + std::to_string(kMaxDepth) + " levels deep",
                "deeper nesting");
    }
    ~Nesting() { --p_.nesting_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    Parser& p_;
  };
  /// @p n, or an error when its tree is higher than kMaxDepth (long operator chains).
  NodePtr checkedDepth(NodePtr n) const {
    if (n->depth > kMaxDepth)
      fail("an expression of at most " + std::to_string(kMaxDepth) + " chained operations",
           "a longer chain");
    return n;
  }
  template <class... A>
  NodePtr node(A&&... args) const {
    return checkedDepth(makeNode(std::forward<A>(args)...));
  }
  std::size_t nesting_ = 0;
  std::string quoteRest() const {
    if (pos_ >= s_.size()) return "the end";
    return "'" + s_.substr(pos_, 12) + "'";
  }
  void skipBlanks() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skipBlanks();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool peekPair(char c1, char c2) {
    skipBlanks();
    return pos_ + 1 < s_.size() && s_[pos_] == c1 && s_[pos_ + 1] == c2;
  }
  void expect(char c) {
    if (!accept(c)) fail(std::string("'") + c + "'", quoteRest());
  }

  // Logical and comparison operators, below + and - in precedence.
  NodePtr expr() {
    const Nesting guard(*this);
    NodePtr n = conjunction();
    while (acceptPair('|', '|')) n = node(Op::Or, n, conjunction());
    return n;
  }
  NodePtr conjunction() {
    NodePtr n = comparison();
    while (acceptPair('&', '&')) n = node(Op::And, n, comparison());
    return n;
  }
  NodePtr comparison() {
    NodePtr n = sum();
    for (;;) {
      if (acceptPair('<', '='))
        n = node(Op::LessEqual, n, sum());
      else if (acceptPair('>', '='))
        n = node(Op::GreaterEqual, n, sum());
      else if (acceptPair('=', '='))
        n = node(Op::Equal, n, sum());
      else if (acceptPair('!', '='))
        n = node(Op::NotEqual, n, sum());
      else if (accept('<'))
        n = node(Op::Less, n, sum());
      else if (accept('>'))
        n = node(Op::Greater, n, sum());
      else
        return n;
    }
  }
  // The two characters @p c1 @p c2 next (blanks before them skipped).
  bool acceptPair(char c1, char c2) {
    skipBlanks();
    if (pos_ + 1 < s_.size() && s_[pos_] == c1 && s_[pos_ + 1] == c2) {
      pos_ += 2;
      return true;
    }
    return false;
  }
  NodePtr sum() {
    NodePtr n = term();
    for (;;) {
      if (accept('+'))
        n = node(Op::Add, n, term());
      else if (accept('-'))
        n = node(Op::Sub, n, term());
      else
        return n;
    }
  }
  NodePtr term() {
    NodePtr n = unary();
    for (;;) {
      if (accept('*'))
        n = node(Op::Mul, n, unary());
      else if (accept('/'))
        n = node(Op::Div, n, unary());
      else
        return n;
    }
  }
  NodePtr unary() {
    if (accept('-')) {
      const Nesting guard(*this);
      return node(Op::Negate, unary());
    }
    if (!peekPair('!', '=') && accept('!')) {
      const Nesting guard(*this);
      return node(Op::Not, unary());
    }
    if (accept('+')) {
      const Nesting guard(*this);
      return unary();
    }
    return power();
  }
  NodePtr power() {
    NodePtr n = atom();
    if (accept('^')) {
      const Nesting guard(*this);  // a^b^c... recurses to the right
      n = node(Op::Pow, n, unary());
    }
    return n;
  }

  std::string identifier() {
    skipBlanks();
    const std::size_t start = pos_;
    if (pos_ < s_.size() &&
        (std::isalpha(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
      ++pos_;
      while (pos_ < s_.size() &&
             (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
        ++pos_;
    }
    if (pos_ == start) fail("a name", quoteRest());
    return s_.substr(start, pos_ - start);
  }

  NodePtr atom() {
    skipBlanks();
    if (pos_ >= s_.size()) fail("a number, a name or '('", "the end");
    const char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      NodePtr n = expr();
      expect(')');
      return n;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name();
    fail("a number, a name or '('", quoteRest());
  }

  NodePtr number() {
    const char* begin = s_.c_str() + pos_;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(begin, &end);
    if (end == begin) fail("a number", quoteRest());
    if (errno == ERANGE && std::isinf(v))
      fail("a finite number", "'" + std::string(begin, static_cast<const char*>(end)) + "'");
    pos_ += static_cast<std::size_t>(end - begin);
    return constantNode(v);
  }

  NodePtr name() {
    const std::size_t start = pos_;
    Reference ref;
    ref.base = identifier();
    // norm(S.field): the norm of a whole vector, resolved as one reference
    if (ref.base == "norm" && accept('(')) {
      ref.norm = true;
      ref.base = identifier();
      if (pos_ < s_.size() && s_[pos_] == '.') {
        ++pos_;
        ref.field = identifier();
      }
      expect(')');
      return resolved(ref, start);
    }
    // a function call
    if (accept('(')) {
      std::vector<NodePtr> args{expr()};
      while (accept(',')) args.push_back(expr());
      expect(')');
      if (ref.base == "if") {
        if (args.size() != 3)
          fail("3 arguments for if (condition, value if true, value if false)",
               std::to_string(args.size()));
        auto n = std::make_shared<Expression::Node>();
        n->op = Op::If;
        n->a = args[0];
        n->b = args[1];
        n->c = args[2];
        n->setDepth();
        return checkedDepth(n);
      }
      auto u = unaryFunctions().find(ref.base);
      auto b = binaryFunctions().find(ref.base);
      if (u != unaryFunctions().end()) {
        if (args.size() != 1) fail("1 argument for " + ref.base, std::to_string(args.size()));
        auto n = std::make_shared<Expression::Node>();
        n->op = Op::Call1;
        n->f1 = u->second;
        n->a = args[0];
        n->setDepth();
        return checkedDepth(n);
      }
      if (b != binaryFunctions().end()) {
        if (args.size() != 2) fail("2 arguments for " + ref.base, std::to_string(args.size()));
        auto n = std::make_shared<Expression::Node>();
        n->op = Op::Call2;
        n->f2 = b->second;
        n->a = args[0];
        n->b = args[1];
        n->setDepth();
        return checkedDepth(n);
      }
      pos_ = start;
      fail(
          "a function (sin cos tan asin acos atan atan2 sinh cosh tanh exp log log10 sqrt abs "
          "floor ceil pow min max sign if norm)",
          "'" + ref.base + "'");
    }
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      ref.field = identifier();
    }
    if (accept('[')) {
      skipBlanks();
      const char* begin = s_.c_str() + pos_;
      char* end = nullptr;
      errno = 0;
      const long v = std::strtol(begin, &end, 10);
      if (end == begin || errno || v < 0) fail("an index (integer >= 0)", quoteRest());
      pos_ += static_cast<std::size_t>(end - begin);
      ref.hasIndex = true;
      ref.index = static_cast<std::size_t>(v);
      expect(']');
    }
    if (ref.base == "pi" && ref.field.empty() && !ref.hasIndex) return constantNode(M_PI);
    return resolved(ref, start);
  }

  // The node of a reference, as the resolver binds it (@p start: its position, for messages).
  NodePtr resolved(const Reference& ref, std::size_t start) {
    Binding binding;
    try {
      binding = resolve_(ref);
    } catch (const ExpressionError& e) {
      throw ExpressionError("in '" + s_ + "' at character " + std::to_string(start + 1) + ": " +
                            e.what());
    }
    auto n = std::make_shared<Expression::Node>();
    switch (binding.kind) {
      case Binding::Kind::Constant:
        n->op = Op::Constant;
        n->value = binding.value;
        break;
      case Binding::Kind::Q:
        n->op = Op::Q;
        n->index = binding.index;
        break;
      case Binding::Kind::V:
        n->op = Op::V;
        n->index = binding.index;
        break;
      case Binding::Kind::Time:
        n->op = Op::Time;
        break;
      case Binding::Kind::Getter:
        n->op = Op::Getter;
        n->getter = binding.getter;
        break;
    }
    return n;
  }

  const std::string& s_;
  const Resolver& resolve_;
  std::size_t pos_ = 0;
};

}  // namespace

Expression::Expression() : root_(constantNode(0.0)), text_("0") {}

Expression Expression::compile(const std::string& text, const Resolver& resolve) {
  Expression e;
  e.root_ = Parser(text, resolve).parse();
  e.text_ = text;
  return e;
}

double Expression::evaluate(const Arguments& args) const {
  return root_->eval(args);
}

bool Expression::isConstant() const {
  return root_->constant();
}

}  // namespace nsdyn::io
