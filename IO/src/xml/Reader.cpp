// Typed readers of attributes: numbers (expressions of the parameters), integers in a
// range, booleans, choices, names, 3-vectors; every error names the file, the line and the
// element (Reader::fail).

#include "Reader.hpp"

namespace nsdyn::io::xml {

Reader::Reader(std::string text, const std::string& file, const FunctionRegistry& registry)
    : text_(std::move(text)), lines_(text_), file_(file), registry_(registry) {}

long Reader::lineOf(std::ptrdiff_t offset) const {
  return offset < 0 ? 1 : lines_.line(static_cast<std::size_t>(offset));
}

long Reader::lineOf(const Node& n) const {
  return lineOf(n.offset_debug());
}

void Reader::fail(const Node& n, const std::string& message) const {
  throw LoadError(file_, lineOf(n), "<" + std::string(n.name()) + ">: " + message);
}

// Unknown attributes and elements, and stray text, are errors.
void Reader::check(const Node& n, const Allowed& allowed) const {
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
Node Reader::single(const Node& parent, const char* name, bool required) const {
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

std::string Reader::requiredAttribute(const Node& n, const char* name,
                                      const std::string& meaning) const {
  pugi::xml_attribute a = n.attribute(name);
  if (!a) fail(n, "expected attribute '" + std::string(name) + "' (" + meaning + "), found none");
  const std::string v = trim(a.value());
  if (v.empty())
    fail(n, "expected a value for attribute '" + std::string(name) + "' (" + meaning +
                "), found an empty one");
  return v;
}

Binding Reader::parameterBinding(const Reference& ref) const {
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

std::string Reader::parameterNames() const {
  std::vector<std::string> names;
  for (const auto& p : parameters_) names.push_back(p.first);
  return join(names);
}

double Reader::evaluate(const Node& n, const std::string& text, const std::string& what) const {
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

double Reader::number(const Node& n, const char* attr, std::optional<double> fallback,
                      const std::string& meaning) const {
  if (!n.attribute(attr)) {
    if (fallback) return *fallback;
    fail(n, "expected attribute '" + std::string(attr) + "' (" + meaning + "), found none");
  }
  const std::string text = requiredAttribute(n, attr, meaning);
  return evaluate(n, text, "attribute '" + std::string(attr) + "'");
}

// An integer attribute in [minimum, maximum]; a value out of range is refused, never cast.
long Reader::integer(const Node& n, const char* attr, std::optional<long> fallback, long minimum,
                     const std::string& meaning, long maximum) const {
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
int Reader::intAttribute(const Node& n, const char* attr, std::optional<long> fallback,
                         long minimum, const std::string& meaning, long maximum) const {
  return static_cast<int>(
      integer(n, attr, fallback, minimum, meaning, std::min<long>(maximum, INT_MAX)));
}

bool Reader::boolean(const Node& n, const char* attr, bool fallback) const {
  if (!n.attribute(attr)) return fallback;
  const std::string v = trim(n.attribute(attr).value());
  if (v == "true" || v == "1") return true;
  if (v == "false" || v == "0") return false;
  fail(n, "attribute '" + std::string(attr) + "': expected true or false, found '" + v + "'");
}

std::string Reader::choice(const Node& n, const char* attr, const std::vector<std::string>& values,
                           const std::string& fallback) const {
  if (!n.attribute(attr)) return fallback;
  const std::string v = trim(n.attribute(attr).value());
  if (std::find(values.begin(), values.end(), v) == values.end())
    fail(n, "attribute '" + std::string(attr) + "': expected one of " + join(values) + ", found '" +
                v + "'");
  return v;
}

// Names of letters, digits and '_' (not starting with a digit); file names
// (the run, the outputs) may also have '-'.
void Reader::validName(const Node& n, const std::string& name, bool fileName) const {
  bool ok = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char c : name)
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (fileName && c == '-'));
  if (!ok)
    fail(n, std::string("expected a name of letters, digits") + (fileName ? ", '-'" : "") +
                " and '_' (not starting with a digit), found '" + name + "'");
}

// A vector given by an attribute (entries as in element text), @p size entries.
SiconosVector Reader::vectorAttribute(const Node& n, const char* attr, std::size_t size,
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

// A 3-vector attribute; @p fallback when absent (required when there is none).
Vec3 Reader::vec3Attribute(const Node& n, const char* attr, std::optional<Vec3> fallback,
                           const std::string& meaning) const {
  if (!n.attribute(attr) && fallback) return *fallback;
  return vec3(vectorAttribute(n, attr, 3, meaning));
}

// A number attribute that must be > 0 (and finite).
double Reader::positive(const Node& n, const char* attr, std::optional<double> fallback,
                        const std::string& meaning) const {
  const double v = number(n, attr, fallback, meaning);
  if (!(v > 0.0))
    fail(n, "attribute '" + std::string(attr) + "': expected " + meaning + " > 0, found " +
                numberText(v));
  return v;
}

// A number attribute that must be >= 0.
double Reader::nonNegative(const Node& n, const char* attr, double fallback,
                           const std::string& meaning) const {
  const double v = number(n, attr, fallback, meaning);
  if (!(v >= 0.0))
    fail(n, "attribute '" + std::string(attr) + "': expected " + meaning + " >= 0, found " +
                numberText(v));
  return v;
}

// Three entries > 0 (half-extents).
Vec3 Reader::positiveVec3(const Node& n, const char* attr, std::optional<Vec3> fallback,
                          const std::string& meaning) const {
  const Vec3 v = vec3Attribute(n, attr, fallback, meaning);
  for (double x : v)
    if (!(x > 0.0))
      fail(n, "attribute '" + std::string(attr) + "': expected " + meaning +
                  ", three entries > 0, found " + vec3Text(v));
  return v;
}

std::string Reader::namePrefix(const Node& n, const std::string& fallback) const {
  if (!n.attribute("name-prefix")) return fallback;
  const std::string p = trim(n.attribute("name-prefix").value());
  validName(n, p);
  return p;
}

// A restitution coefficient: in [0, 1] (e > 1 creates energy at every impact).
double Reader::restitution(const Node& l, const char* attr, std::optional<double> fallback,
                           const std::string& meaning) const {
  const double e = number(l, attr, fallback, meaning);
  if (!(e >= 0.0 && e <= 1.0))
    fail(l, "attribute '" + std::string(attr) + "': expected a " + meaning + " in [0, 1], found " +
                numberText(e) + " ('" + l.attribute(attr).value() + "')");
  return e;
}

}  // namespace nsdyn::io::xml
