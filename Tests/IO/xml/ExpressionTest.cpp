// Expressions: precedence, evaluation order, functions, references, errors.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <string>

#include <nsdyn/io/Expression.hpp>

using nsdyn::io::Arguments;
using nsdyn::io::Binding;
using nsdyn::io::Expression;
using nsdyn::io::ExpressionError;
using nsdyn::io::Reference;

namespace {

// Names: a = 2, b = 3, q[i] and t as arguments.
Binding resolve(const Reference& r) {
  Binding b;
  if (r.norm && r.base == "v" && r.field == "w")
    b.value = 5.0;  // norm(v.w): the resolver decides what the vector is
  else if (r.norm)
    throw ExpressionError("no vector '" + r.text() + "'");
  else if (r.base == "a" && r.field.empty() && !r.hasIndex)
    b.value = 2.0;
  else if (r.base == "b" && r.field.empty() && !r.hasIndex)
    b.value = 3.0;
  else if (r.base == "q" && r.hasIndex)
    b.kind = Binding::Kind::Q, b.index = r.index;
  else if (r.base == "t" && !r.hasIndex)
    b.kind = Binding::Kind::Time;
  else
    throw ExpressionError("unknown name '" + r.text() + "'");
  return b;
}

double eval(const std::string& text) {
  return Expression::compile(text, resolve).evaluate();
}

std::string errorOf(const std::string& text) {
  try {
    Expression::compile(text, resolve);
  } catch (const ExpressionError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

class ExpressionTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ExpressionTest);
  CPPUNIT_TEST(precedence);
  CPPUNIT_TEST(hostileNestingIsAnError);
  CPPUNIT_TEST(evaluatesInWrittenOrder);
  CPPUNIT_TEST(functionsAndConstants);
  CPPUNIT_TEST(arguments);
  CPPUNIT_TEST(conditions);
  CPPUNIT_TEST(errorsSayWhere);
  CPPUNIT_TEST(normOfAVector);
  CPPUNIT_TEST_SUITE_END();

 public:
  void normOfAVector() {
    // norm(S.field) is one reference, resolved with `norm` set (no index)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(11.0, eval("2*norm(v.w) + 1"), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(25.0, eval("norm( v.w )^2"), 0.0);
    CPPUNIT_ASSERT(errorOf("norm(a)").find("no vector 'norm(a)'") != std::string::npos);
    CPPUNIT_ASSERT(errorOf("norm(v.w[0])").find("expected ')'") != std::string::npos);
    CPPUNIT_ASSERT(errorOf("norm(1)").find("expected a name") != std::string::npos);
  }

  // shared/fuzz-findings/02: deep nesting used to overflow the stack
  void hostileNestingIsAnError() {
    const std::string parens = std::string(20000, '(') + "1" + std::string(20000, ')');
    const std::string minus = std::string(40000, '-') + "1";
    std::string chain = "1", powers = "1";
    for (int i = 0; i < 100000; ++i) chain += "+1";
    for (int i = 0; i < 50000; ++i) powers += "^1";
    for (const std::string& text : {parens, minus, chain, powers}) {
      const std::string e = errorOf(text);
      CPPUNIT_ASSERT_MESSAGE(e, e.find("expected an expression") != std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(e, e.size() < 300);  // quoted by its first characters only
    }
    // nesting within the limit still evaluates
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, eval(std::string(200, '(') + "1" + std::string(200, ')')),
                                 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, eval(std::string(100, '-') + "1"), 0.0);
    std::string sum = "0";
    for (int i = 0; i < 200; ++i) sum += "+1";
    CPPUNIT_ASSERT_DOUBLES_EQUAL(200.0, eval(sum), 0.0);
  }

  void precedence() {
    CPPUNIT_ASSERT_DOUBLES_EQUAL(7.0, eval("1 + 2*3"), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(9.0, eval("(1 + 2)*3"), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-4.0, eval("-2^2"), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(512.0, eval("2^3^2"), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-6.0, eval("a*-b"), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, eval("a - b + 2"), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1e-6, eval("1e-6"), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, eval(".5"), 0.0);
  }
  void evaluatesInWrittenOrder() {
    // ((0.1*0.2)*0.3) differs from 0.1*(0.2*0.3) in binary; C++ order wins
    CPPUNIT_ASSERT_EQUAL(0.1 * 0.2 * 0.3, eval("0.1*0.2*0.3"));
    CPPUNIT_ASSERT_EQUAL(1.0 / 3.0 / 7.0, eval("1/3/7"));
    CPPUNIT_ASSERT_EQUAL(0.1 + 0.2 - 0.3, eval("0.1 + 0.2 - 0.3"));
  }
  void functionsAndConstants() {
    CPPUNIT_ASSERT_EQUAL(std::atan(1.0), eval("atan(1)"));
    CPPUNIT_ASSERT_EQUAL(M_PI, eval("pi"));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, eval("max(a, b)"), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.5, eval("abs(-2.5)"), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, eval("sign(-3)"), 0.0);
    CPPUNIT_ASSERT_EQUAL(std::atan2(1.0, 2.0), eval("atan2(1, 2)"));
    CPPUNIT_ASSERT(Expression::compile("a*b", resolve).isConstant());
  }
  void arguments() {
    const Expression e = Expression::compile("q[1] - 0.5*cos(q[0]) + t", resolve);
    CPPUNIT_ASSERT(!e.isConstant());
    const nsdyn::SiconosVector q{0.3, 2.0};
    Arguments args;
    args.q = &q;
    args.t = 10.0;
    CPPUNIT_ASSERT_EQUAL(2.0 - 0.5 * std::cos(0.3) + 10.0, e.evaluate(args));
  }
  void conditions() {
    CPPUNIT_ASSERT_EQUAL(1.0, eval("a < b"));
    CPPUNIT_ASSERT_EQUAL(0.0, eval("a > b"));
    CPPUNIT_ASSERT_EQUAL(1.0, eval("a <= 2"));
    CPPUNIT_ASSERT_EQUAL(1.0, eval("b >= 3"));
    CPPUNIT_ASSERT_EQUAL(1.0, eval("a == 2"));
    CPPUNIT_ASSERT_EQUAL(0.0, eval("a != 2"));
    // comparisons below + and -, && below comparisons, || below &&
    CPPUNIT_ASSERT_EQUAL(1.0, eval("a + 1 == b"));
    CPPUNIT_ASSERT_EQUAL(1.0, eval("a < b && b < 4"));
    CPPUNIT_ASSERT_EQUAL(1.0, eval("a > b || b > a && 1"));
    CPPUNIT_ASSERT_EQUAL(0.0, eval("(a > b || b > a) && 0"));
    CPPUNIT_ASSERT_EQUAL(1.0, eval("!(a > b)"));
    CPPUNIT_ASSERT_EQUAL(0.0, eval("!a"));
    CPPUNIT_ASSERT_EQUAL(10.0, eval("if(a < b, 10, 20)"));
    CPPUNIT_ASSERT_EQUAL(20.0, eval("if(a - 2, 10, 20)"));
    // only the chosen branch is evaluated: q is not given here
    CPPUNIT_ASSERT_EQUAL(5.0, eval("if(1, 5, q[0])"));
    // a pulse of t, evaluated as C++ would
    const Expression pulse = Expression::compile(
        "if(t > a && t < a + 0.5, b*sin(pi*(t - a)/0.5)*sin(pi*(t - a)/0.5), 0)", resolve);
    CPPUNIT_ASSERT(!pulse.isConstant());
    Arguments args;
    args.t = 2.1;
    const double s = std::sin(M_PI * (2.1 - 2.0) / 0.5);
    CPPUNIT_ASSERT_EQUAL(3.0 * s * s, pulse.evaluate(args));
    args.t = 2.5;
    CPPUNIT_ASSERT_EQUAL(0.0, pulse.evaluate(args));
    CPPUNIT_ASSERT(errorOf("if(1, 2)").find("expected 3 arguments for if") != std::string::npos);
    CPPUNIT_ASSERT(errorOf("a <").find("expected a number, a name or '('") != std::string::npos);
  }
  void errorsSayWhere() {
    CPPUNIT_ASSERT_EQUAL(
        std::string("in '1 +' at character 4: expected a number, a name or '(', found the end"),
        errorOf("1 +"));
    CPPUNIT_ASSERT(
        errorOf("2 3").find("at character 3: expected an operator or the end of the expression") !=
        std::string::npos);
    CPPUNIT_ASSERT(errorOf("(1 + 2").find("expected ')'") != std::string::npos);
    CPPUNIT_ASSERT(errorOf("foo(1)").find("expected a function") != std::string::npos);
    CPPUNIT_ASSERT(errorOf("max(1)").find("expected 2 arguments for max") != std::string::npos);
    CPPUNIT_ASSERT(errorOf("c + 1").find("at character 1: unknown name 'c'") != std::string::npos);
    CPPUNIT_ASSERT(errorOf("q[-1]").find("expected an index") != std::string::npos);
    CPPUNIT_ASSERT(errorOf("").find("expected an expression, found nothing") != std::string::npos);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ExpressionTest);
