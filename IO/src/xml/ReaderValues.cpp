// Readers of element data: vectors and matrices (entries as text), functions of t,
// functions of the registry and their sizes, an inertia, an orientation, a body load, a mass
// matrix check.

#include "Reader.hpp"

namespace nsdyn::io::xml {

SiconosVector Reader::vectorData(const Node& n, std::optional<std::size_t> size,
                                 const std::string& meaning) const {
  check(n, {schema::allowed("vector"), {}, true});
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

SimpleMatrix Reader::matrixData(const Node& n, std::optional<std::size_t> rowsWanted,
                                std::optional<std::size_t> colsWanted,
                                const std::string& meaning) const {
  check(n, {schema::allowed("matrix"), {}, true});
  const std::string form = choice(n, "form", schema::values("matrix", "form"), "full");
  const auto text = splitEntries(n.text().get());
  if (text.empty()) fail(n, "expected the entries of " + meaning + ", found none");
  std::vector<std::vector<double>> values;
  for (const auto& row : text) {
    std::vector<double> r;
    for (const auto& entry : row)
      r.push_back(evaluate(
          n, entry, "row " + std::to_string(values.size()) + " entry " + std::to_string(r.size())));
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
      rows = n.attribute("rows")
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
                    " entries (as row 0), found " + std::to_string(values[i].size()) + " in row " +
                    std::to_string(i));
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

void Reader::checkVectorSize(const Node& n, const SiconosVector& v, std::size_t size,
                             const std::string& meaning) const {
  if (v.size() != size)
    fail(n, "expected " + meaning + " of size " + std::to_string(size) + ", found " +
                std::to_string(v.size()) + " from function '" + n.attribute("function").value() +
                "'");
}

void Reader::checkMatrixSize(const Node& n, const SimpleMatrix& M, std::size_t rows,
                             std::size_t cols, const std::string& meaning) const {
  if (M.rows() != rows || M.cols() != cols)
    fail(n, "expected " + meaning + " of size " + shape(rows, cols) + ", found " +
                shape(M.rows(), M.cols()) + " from function '" + n.attribute("function").value() +
                "'");
}

Binding Reader::timeBinding(const Reference& r) const {
  if (r.base == "t" && r.field.empty() && !r.hasIndex && !r.norm) {
    Binding b;
    b.kind = Binding::Kind::Time;
    return b;
  }
  try {
    return parameterBinding(r);
  } catch (const ExpressionError&) {
    throw ExpressionError("unknown name '" + r.text() + "' (expected t or a parameter" +
                          (parameters_.empty() ? std::string(")") : ": " + parameterNames() + ")"));
  }
}

// The entries of @p text (of element @p n, @p what for messages): @p size of them.
TimeVector Reader::timeVector(const Node& n, const std::string& text, std::size_t size,
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

// <fExt>/<mExt> of a body: 3 entries (expressions of t allowed) or a function of t. A
// function of t is checked at each evaluation: a value that is not finite stops the run
// with the body's name, the element's line, the entry, its value and t (it reached the
// solver as "LAPACK error -8" or "body 1: v_free[3] = -nan").
TimeVector Reader::bodyLoad(const Node& f, const std::string& meaning) const {
  TimeVector load;
  if (f.attribute("function")) {
    check(f, {schema::allowed("functionRef"), {}});
    auto g = function<FunctionRegistry::VectorOfTime>(f, 0);
    checkVectorSize(f, probe(f, [&] { return g(0.0); }), 3, meaning);
    load = {SiconosVector(), g};
  } else {
    check(f, {schema::allowed("vector"), {}, true});
    if (f.attribute("size") && integer(f, "size", std::nullopt, 1, "number of entries") != 3)
      fail(f,
           "attribute 'size': expected 3 (" + meaning + "), found " + f.attribute("size").value());
    load = timeVector(f, f.text().get(), 3, meaning);
  }
  if (load.function) {
    const std::string where = file_ + ":" + std::to_string(lineOf(f)) + ": <" + f.name() +
                              "> of body '" + f.parent().attribute("name").value() + "'";
    const std::string text = f.attribute("function")
                                 ? std::string("function '") + f.attribute("function").value() + "'"
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
SimpleMatrix Reader::inertiaData(const Node& in) const {
  const std::string meaning =
      "the inertia (3x3, body frame: 9 entries, or 3 with form=\"diagonal\")";
  const auto rows = splitEntries(in.text().get());
  if (!in.attribute("rows") && !in.attribute("cols") && !in.attribute("form") && rows.size() == 1 &&
      rows.front().size() == 9) {
    check(in, {{}, {}, true});  // the 9-entry form: without the matrix attributes
    SimpleMatrix I(3, 3);
    for (std::size_t k = 0; k < 9; ++k)
      I(k / 3, k % 3) = evaluate(
          in, rows.front()[k], "row " + std::to_string(k / 3) + " entry " + std::to_string(k % 3));
    return I;
  }
  return matrixData(in, 3, 3, meaning);
}

// The orientation of @p s: its <quaternion> (unit) or <axisAngle> child; the identity
// when it has neither.
SiconosVector Reader::orientationChildren(const Node& s) const {
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
    check(an, {schema::allowed("axisAngleType"), {}});
    const SiconosVector axis = vectorAttribute(an, "axis", 3, "the rotation axis (body -> world)");
    const double angle = number(an, "angle", std::nullopt, "rotation angle in radians");
    if (!(axis.norm2() > 0.0))
      fail(an, "attribute 'axis': expected an axis of non-zero length, found " + axis.toString());
    const quaternion::Quat r = quaternion::fromAxisAngle({axis(0), axis(1), axis(2)}, angle);
    quat = SiconosVector{r[0], r[1], r[2], r[3]};
  }
  return quat;
}

// A mass matrix: symmetric and positive definite (Cholesky), or the run fails at every
// step (a negative mass makes every LCP of the run unsolvable). The value is named.
void Reader::checkMass(const Node& m, const SimpleMatrix& M, const std::string& what) const {
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
        fail(m, "expected " + what + " symmetric, found " + at(i, j) + " = " + numberText(M(i, j)) +
                    " and " + at(j, i) + " = " + numberText(M(j, i)));
  // Cholesky on the lower triangle: a pivot <= 0 means not positive definite
  std::vector<double> L(n * n, 0.0);
  for (std::size_t j = 0; j < n; ++j) {
    double d = M(j, j);
    for (std::size_t k = 0; k < j; ++k) d -= L[j * n + k] * L[j * n + k];
    if (!(d > 1e-14 * scale))
      fail(m, "expected " + what + " positive definite, found a Cholesky pivot " + numberText(d) +
                  " at row " + std::to_string(j) + " (its leading " + std::to_string(j + 1) + "x" +
                  std::to_string(j + 1) + " block is singular or indefinite)");
    L[j * n + j] = std::sqrt(d);
    for (std::size_t i = j + 1; i < n; ++i) {
      double v = M(i, j);
      for (std::size_t k = 0; k < j; ++k) v -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = v / L[j * n + j];
    }
  }
}

}  // namespace nsdyn::io::xml
