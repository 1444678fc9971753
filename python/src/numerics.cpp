// Numerics: problems from NumPy arrays / SciPy-style CSC matrices / files, nsd_solve with
// options by keyword from the option table, the solver and option tables themselves.
#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>

#include "bindings.hpp"

namespace nsdpy {
namespace {

struct MatrixDeleter {
  void operator()(NsdMatrix* a) const { nsd_matrix_destroy(a); }
};
using MatrixPtr = std::unique_ptr<NsdMatrix, MatrixDeleter>;

/// A problem of any kind, owning what NsdProblem holds.
struct Problem {
  NsdProblem p{};
  Problem() = default;
  Problem(const Problem&) = delete;
  Problem& operator=(const Problem&) = delete;
  ~Problem() { nsd_problem_clear(&p); }
  int size() const { return nsd_problem_size(&p); }
};

/// A dense or CSC NsdMatrix from a 2-D array or a SciPy-style sparse matrix.
MatrixPtr toMatrix(py::handle obj, const std::string& arg, py::ssize_t rows, py::ssize_t cols) {
  py::object o = py::reinterpret_borrow<py::object>(obj);
  const bool sparseLike = py::hasattr(o, "indptr") && py::hasattr(o, "indices") &&
                          py::hasattr(o, "data") && py::hasattr(o, "shape");
  bool csc = sparseLike;
  if (py::hasattr(o, "format") && py::hasattr(o, "tocsc")) {
    if (std::string(py::str(o.attr("format"))) != "csc") o = o.attr("tocsc")();
    csc = true;
  } else if (!sparseLike && py::hasattr(o, "tocsc") && !py::isinstance<py::array>(o)) {
    o = o.attr("tocsc")();
    csc = true;
  }
  if (csc) {
    py::tuple shape = py::tuple(o.attr("shape"));
    if (shape.size() != 2) throw py::value_error(arg + ": expected a 2-D sparse matrix");
    const auto r = shape[0].cast<py::ssize_t>(), c = shape[1].cast<py::ssize_t>();
    if ((rows >= 0 && r != rows) || (cols >= 0 && c != cols))
      throw py::value_error(arg + ": expected shape (" + std::to_string(rows) + ", " +
                            std::to_string(cols < 0 ? rows : cols) + "), found (" +
                            std::to_string(r) + ", " + std::to_string(c) + ")");
    const std::vector<double> indptr = toVector(o.attr("indptr"), arg + ".indptr", c + 1);
    const std::vector<double> indices = toVector(o.attr("indices"), arg + ".indices");
    const std::vector<double> data =
        toVector(o.attr("data"), arg + ".data", static_cast<py::ssize_t>(indices.size()));
    std::vector<int> p(indptr.begin(), indptr.end()), i(indices.begin(), indices.end());
    if (p.back() != static_cast<int>(indices.size()))
      throw py::value_error(arg + ": indptr[-1] = " + std::to_string(p.back()) +
                            " but indices has " + std::to_string(indices.size()) + " entries");
    NsdMatrix* a = nsd_matrix_create_csc(static_cast<int>(r), static_cast<int>(c), p.data(),
                                         i.data(), data.data());
    if (!a)
      throw py::value_error(arg +
                            ": inconsistent compressed columns (indptr, indices out of range)");
    return MatrixPtr(a);
  }
  Array a = readArray(obj, arg);
  if (a.shape.size() != 2 || (rows >= 0 && a.shape[0] != rows) ||
      (cols >= 0 && a.shape[1] != cols)) {
    std::string found = "(";
    for (std::size_t k = 0; k < a.shape.size(); ++k)
      found += (k ? ", " : "") + std::to_string(a.shape[k]);
    throw py::value_error(arg + ": expected a square matrix of shape (" +
                          (rows >= 0 ? std::to_string(rows) : std::string("n")) + ", " +
                          (cols >= 0 ? std::to_string(cols) : std::string("n")) +
                          "), found shape " + found + ")");
  }
  NsdMatrix* m = nsd_matrix_create_dense_from_rows(static_cast<int>(a.shape[0]),
                                                   static_cast<int>(a.shape[1]), a.values.data());
  if (!m) throw std::bad_alloc();
  return MatrixPtr(m);
}

std::shared_ptr<Problem> checked(std::shared_ptr<Problem> pb) {
  NsdReport rep{};
  int ok = 1;
  switch (pb->p.kind) {
    case NSD_KIND_LCP:
      ok = nsd_lcp_check(pb->p.lcp, &rep);
      break;
    case NSD_KIND_MLCP:
      ok = nsd_mlcp_check(pb->p.mlcp, &rep);
      break;
    case NSD_KIND_FC2D:
    case NSD_KIND_FC3D:
      ok = nsd_fc_check(pb->p.fc, &rep);
      break;
    case NSD_KIND_GFC2D:
    case NSD_KIND_GFC3D:
      ok = nsd_gfc_check(pb->p.gfc, &rep);
      break;
    default:
      break;
  }
  if (!ok) badInput(rep.message);
  return pb;
}

std::shared_ptr<Problem> makeLcp(py::handle M, py::handle q) {
  const std::vector<double> qv = toVector(q, "q");
  const auto n = static_cast<py::ssize_t>(qv.size());
  MatrixPtr a = toMatrix(M, "M", n, n);
  auto pb = std::make_shared<Problem>();
  pb->p.kind = NSD_KIND_LCP;
  pb->p.lcp = nsd_lcp_create(a.release(), qv.data());
  if (!pb->p.lcp) throw std::bad_alloc();
  return checked(pb);
}

std::shared_ptr<Problem> makeMlcp(py::handle M, py::handle q, py::object nEq, py::object isComp,
                                  py::object lb, py::object ub) {
  const std::vector<double> qv = toVector(q, "q");
  const auto n = static_cast<py::ssize_t>(qv.size());
  MatrixPtr a = toMatrix(M, "M", n, n);
  auto pb = std::make_shared<Problem>();
  pb->p.kind = NSD_KIND_MLCP;
  const int given = !nEq.is_none() + !isComp.is_none() + (!lb.is_none() || !ub.is_none());
  if (given != 1) throw py::value_error("mlcp: expected exactly one of n_eq, is_comp, or lb/ub");
  if (!nEq.is_none()) {
    const int ne = nEq.cast<int>();
    if (ne < 0 || ne > n)
      throw py::value_error("n_eq: expected an integer in [0, " + std::to_string(n) + "]");
    pb->p.mlcp = nsd_mlcp_create(ne, static_cast<int>(n) - ne, a.release(), qv.data());
  } else if (!isComp.is_none()) {
    const std::vector<double> c = toVector(isComp, "is_comp", n);
    std::vector<int> ci(c.begin(), c.end());
    pb->p.mlcp = nsd_mlcp_create_mixed(a.release(), qv.data(), ci.data());
  } else {
    std::vector<double> l =
        lb.is_none() ? std::vector<double>(qv.size(), -INFINITY) : toVector(lb, "lb", n, true);
    std::vector<double> u =
        ub.is_none() ? std::vector<double>(qv.size(), INFINITY) : toVector(ub, "ub", n, true);
    for (std::size_t i = 0; i < l.size(); ++i)
      if (std::isnan(l[i]) || std::isnan(u[i]))
        throw py::value_error("lb/ub: expected numbers or infinities, found NaN at index " +
                              std::to_string(i));
    pb->p.mlcp = nsd_mlcp_create_box(a.release(), qv.data(), l.data(), u.data());
  }
  if (!pb->p.mlcp) throw py::value_error("mlcp: the problem could not be created (sizes)");
  return checked(pb);
}

std::shared_ptr<Problem> makeFc(py::handle M, py::handle q, py::handle mu, int dim) {
  if (dim != 2 && dim != 3)
    throw py::value_error("dim: expected 2 or 3, found " + std::to_string(dim));
  const std::vector<double> qv = toVector(q, "q");
  if (qv.size() % static_cast<std::size_t>(dim) != 0)
    throw py::value_error("q: expected a size multiple of dim = " + std::to_string(dim) +
                          ", found " + std::to_string(qv.size()));
  const auto nc = static_cast<py::ssize_t>(qv.size()) / dim;
  const std::vector<double> muv = toVector(mu, "mu", nc);
  MatrixPtr a = toMatrix(M, "M", nc * dim, nc * dim);
  auto pb = std::make_shared<Problem>();
  pb->p.kind = dim == 2 ? NSD_KIND_FC2D : NSD_KIND_FC3D;
  pb->p.fc = nsd_fc_create(dim, static_cast<int>(nc), a.release(), qv.data(), muv.data());
  if (!pb->p.fc) throw std::bad_alloc();
  return checked(pb);
}

std::shared_ptr<Problem> makeGfc(py::handle M, py::handle H, py::handle q, py::handle b,
                                 py::handle mu, int dim) {
  if (dim != 2 && dim != 3)
    throw py::value_error("dim: expected 2 or 3, found " + std::to_string(dim));
  const std::vector<double> qv = toVector(q, "q"), bv = toVector(b, "b");
  if (bv.size() % static_cast<std::size_t>(dim) != 0)
    throw py::value_error("b: expected a size multiple of dim = " + std::to_string(dim));
  const auto n = static_cast<py::ssize_t>(qv.size()),
             nc = static_cast<py::ssize_t>(bv.size()) / dim;
  const std::vector<double> muv = toVector(mu, "mu", nc);
  MatrixPtr Mm = toMatrix(M, "M", n, n);
  MatrixPtr Hm = toMatrix(H, "H", n, nc * dim);
  auto pb = std::make_shared<Problem>();
  pb->p.kind = dim == 2 ? NSD_KIND_GFC2D : NSD_KIND_GFC3D;
  pb->p.gfc = nsd_gfc_create(dim, static_cast<int>(nc), Mm.release(), Hm.release(), qv.data(),
                             bv.data(), muv.data());
  if (!pb->p.gfc) throw std::bad_alloc();
  return checked(pb);
}

NsdProblemKind kindOf(const std::string& name) {
  if (name.empty() || name == "auto") return NSD_KIND_UNKNOWN;
  const NsdProblemKind k = nsd_kind_from_name(name.c_str());
  if (k == NSD_KIND_UNKNOWN)
    throw py::value_error(
        "kind: expected auto, lcp, mlcp, fc2d, fc3d, gfc2d, gfc3d, gmp, rfc3d or rfc2d, found '" +
        name + "'");
  return k;
}

std::shared_ptr<Problem> readProblem(const std::string& path, const std::string& kind) {
  auto pb = std::make_shared<Problem>();
  NsdReport rep{};
  if (nsd_read_problem(path.c_str(), kindOf(kind), &pb->p, &rep) != NSD_OK) badInput(rep.message);
  return pb;
}

void writeProblem(const Problem& pb, const std::string& path) {
  NsdReport rep{};
  const bool fclib =
      path.size() > 3 && (path.substr(path.size() - 3) == ".h5" ||
                          (path.size() > 5 && path.substr(path.size() - 5) == ".hdf5"));
  const NsdStatus s = fclib ? nsd_write_fclib(path.c_str(), &pb.p, nullptr, nullptr, &rep)
                            : nsd_write_problem(path.c_str(), &pb.p, &rep);
  if (s != NSD_OK) badInput(rep.message);
}

/// The report of a solve (NsdReport with its history copied).
struct Report {
  NsdStatus status = NSD_OK;
  int iterations = 0, driftJumps = 0;
  double residual = 0.0, seconds = 0.0;
  std::string solver, message;
  std::vector<double> history;
};

std::string optionText(py::handle value, const std::string& name) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::int_>(value)) return std::string(py::str(value));
  if (py::isinstance<py::float_>(value)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", value.cast<double>());
    return buf;
  }
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  throw py::type_error("option " + name + ": expected a number, a bool or a string, found " +
                       std::string(py::str(py::type::handle_of(value).attr("__name__"))));
}

std::string solverList(NsdProblemKind kind) {
  int count = 0;
  const NsdSolverEntry* t = nsd_solver_table(&count);
  std::string s;
  for (int i = 0; i < count; ++i)
    if (t[i].kind == kind) s += (s.empty() ? "" : ", ") + std::string(t[i].name);
  return s;
}

/// Options: defaults, then each keyword through nsd_solver_option_set (refused when the
/// solver does not read it). "a__b" is the option "a.b".
void applyOptions(const NsdSolverEntry* entry, NsdSolverOptions& opt, const py::dict& options) {
  for (auto item : options) {
    std::string name = py::str(item.first);
    for (std::size_t k; (k = name.find("__")) != std::string::npos;) name.replace(k, 2, ".");
    if (item.second.is_none()) continue;
    const std::string text = optionText(item.second, name);
    NsdReport rep{};
    if (nsd_solver_option_set(entry, &opt, name.c_str(), text.c_str(), &rep) != NSD_OK)
      badInput(rep.message);
  }
}

py::tuple solve(const Problem& pb, const std::string& solver, py::object tolerance,
                py::object maxIterations, py::object x0, int historyCapacity, py::kwargs kwargs) {
  const NsdProblemKind kind = pb.p.kind;
  const std::string name = solver.empty() ? std::string("auto") : solver;
  const NsdSolverEntry* entry = nsd_solver_find(kind, name.c_str());
  if (!entry) {
    const char* dflt = nsd_solver_default(kind);
    if (name == "auto" && dflt) entry = nsd_solver_find(kind, dflt);
    if (!entry)
      badInput("solver: no solver '" + name + "' for " + nsd_kind_name(kind) +
               " problems; expected one of: " + solverList(kind));
  }
  NsdSolverOptions opt;
  nsd_solver_options_default(&opt);
  py::dict options;
  if (!tolerance.is_none()) options["tolerance"] = tolerance;
  if (!maxIterations.is_none()) options["max_iterations"] = maxIterations;
  for (auto item : kwargs) options[item.first] = item.second;
  const int n = pb.size();
  std::vector<double> x(static_cast<std::size_t>(n), 0.0), y(static_cast<std::size_t>(n), 0.0);
  if (!x0.is_none()) {
    x = toVector(x0, "x0", n);
    if (!options.contains("warm_start")) options["warm_start"] = py::bool_(true);
  }
  applyOptions(entry, opt, options);
  if (historyCapacity < 0) throw py::value_error("history: expected a capacity >= 0");
  Report out;
  out.history.assign(static_cast<std::size_t>(historyCapacity), 0.0);
  NsdReport rep{};
  rep.history = historyCapacity > 0 ? out.history.data() : nullptr;
  rep.history_capacity = historyCapacity;
  NsdStatus s;
  {
    py::gil_scoped_release release;
    s = nsd_solve(&pb.p, entry->name, x.data(), y.data(), &opt, &rep);
  }
  if (s == NSD_BAD_INPUT) badInput(rep.message);
  out.status = s;
  out.iterations = rep.iterations;
  out.driftJumps = rep.drift_jumps;
  out.residual = rep.residual;
  out.seconds = rep.seconds;
  out.solver = rep.solver;
  out.message = rep.message;
  out.history.resize(
      static_cast<std::size_t>(std::max(0, std::min(rep.history_length, historyCapacity))));
  return py::make_tuple(toNumpy(x), toNumpy(y), out);
}

py::dict optionDict(const NsdOptionEntry& e) {
  static const char* types[] = {"int", "uint", "double", "bool", "choice"};
  py::dict d;
  d["name"] = e.name;
  d["keyword"] = [&] {
    std::string k = e.name;
    for (std::size_t p; (p = k.find('.')) != std::string::npos;) k.replace(p, 1, "__");
    return k;
  }();
  d["type"] = types[e.type];
  if (e.type == NSD_OPTION_CHOICE) {
    py::list choices;
    std::string c = e.choices ? e.choices : "";
    std::stringstream ss(c);
    for (std::string item; std::getline(ss, item, ',');) choices.append(item);
    d["choices"] = choices;
    d["default"] = py::list(choices)[static_cast<std::size_t>(e.default_value)];
  } else if (e.type == NSD_OPTION_BOOL) {
    d["default"] = py::bool_(e.default_value != 0.0);
  } else if (e.type == NSD_OPTION_DOUBLE) {
    d["default"] = e.default_value;
  } else {
    d["default"] = static_cast<long long>(e.default_value);
  }
  d["min"] = e.min;
  d["max"] = e.max;
  d["min_open"] = py::bool_(e.min_open != 0);
  d["max_open"] = py::bool_(e.max_open != 0);
  d["tag"] = e.tag ? py::object(py::str(e.tag)) : py::object(py::none());
  d["doc"] = e.doc ? e.doc : "";
  return d;
}

}  // namespace

NsdMatrix* toMatrixCopy(py::handle obj, const std::string& arg, py::ssize_t rows,
                        py::ssize_t cols) {
  return toMatrix(obj, arg, rows, cols).release();
}

py::object wrapProblem(NsdProblem* p) {
  auto pb = std::make_shared<Problem>();
  pb->p = *p;
  *p = NsdProblem{};
  return py::cast(pb);
}

const NsdProblem& problemOf(py::handle obj) {
  if (!py::isinstance<Problem>(obj))
    throw py::type_error("expected an nsdyn.Problem, found " + shortRepr(obj));
  return obj.cast<const Problem&>().p;
}

void initNumerics(py::module_& m) {
  py::class_<Problem, std::shared_ptr<Problem>>(
      m, "Problem", "A Numerics problem (LCP, MLCP, FC2D/FC3D, GFC2D/GFC3D).")
      .def_property_readonly("kind",
                             [](const Problem& p) { return std::string(nsd_kind_name(p.p.kind)); })
      .def_property_readonly("size", &Problem::size, "unknowns (z, or r)")
      .def_property_readonly("contacts",
                             [](const Problem& p) { return nsd_problem_contacts(&p.p); })
      .def_property_readonly(
          "M",
          [](const Problem& p) -> py::object {
            const NsdMatrix* a = p.p.lcp    ? p.p.lcp->M
                                 : p.p.mlcp ? p.p.mlcp->M
                                 : p.p.fc   ? p.p.fc->M
                                 : p.p.gfc  ? p.p.gfc->M
                                            : nullptr;
            if (!a) return py::none();
            py::array_t<double> out(
                {static_cast<py::ssize_t>(a->rows), static_cast<py::ssize_t>(a->cols)});
            auto v = out.mutable_unchecked<2>();
            for (int i = 0; i < a->rows; ++i)
              for (int j = 0; j < a->cols; ++j) v(i, j) = nsd_matrix_get(a, i, j);
            return std::move(out);
          },
          "the matrix as a dense NumPy array (a copy)")
      .def_property_readonly("q",
                             [](const Problem& p) -> py::object {
                               const int n = p.p.gfc ? p.p.gfc->n : p.size();
                               const double* q = p.p.lcp    ? p.p.lcp->q
                                                 : p.p.mlcp ? p.p.mlcp->q
                                                 : p.p.fc   ? p.p.fc->q
                                                 : p.p.gfc  ? p.p.gfc->q
                                                            : nullptr;
                               if (!q) return py::none();
                               return toNumpy(q, {n});
                             })
      .def_property_readonly("mu",
                             [](const Problem& p) -> py::object {
                               if (p.p.fc) return toNumpy(p.p.fc->mu, {p.p.fc->nc});
                               if (p.p.gfc) return toNumpy(p.p.gfc->mu, {p.p.gfc->nc});
                               return py::none();
                             })
      .def(
          "error",
          [](const Problem& p, py::handle x) {
            const std::vector<double> v = toVector(x, "x", p.size());
            return nsd_problem_error(&p.p, v.data());
          },
          py::arg("x"), "the problem's Siconos error measure of x")
      .def("write", &writeProblem, py::arg("path"),
           "write as .dat (Siconos) or, for .h5/.hdf5, FCLIB")
      .def("__repr__", [](const Problem& p) {
        return "<nsdyn.Problem " + std::string(nsd_kind_name(p.p.kind)) + " size " +
               std::to_string(p.size()) + ">";
      });

  py::class_<Report>(m, "Report", "What a solve did (NsdReport).")
      .def_property_readonly(
          "status", [](const Report& r) { return std::string(nsd_status_name(r.status)); },
          "converged, max_iterations or failed")
      .def_property_readonly("status_code",
                             [](const Report& r) { return static_cast<int>(r.status); })
      .def_property_readonly("converged", [](const Report& r) { return r.status == NSD_OK; })
      .def_readonly("iterations", &Report::iterations)
      .def_readonly("residual", &Report::residual)
      .def_readonly("drift_jumps", &Report::driftJumps,
                    "drift jumps taken (options nsgs.drift, apgd.drift)")
      .def_readonly("seconds", &Report::seconds)
      .def_readonly("solver", &Report::solver)
      .def_readonly("message", &Report::message)
      .def_property_readonly(
          "history", [](const Report& r) { return toNumpy(r.history); }, "residual per iteration")
      .def("__bool__", [](const Report& r) { return r.status == NSD_OK; })
      .def("__repr__", [](const Report& r) {
        char buf[160];
        std::snprintf(
            buf, sizeof buf, "<nsdyn.Report %s: %s, %d iterations, residual %.3g, %.3g s>",
            r.solver.c_str(), nsd_status_name(r.status), r.iterations, r.residual, r.seconds);
        return std::string(buf);
      });

  m.def("lcp", &makeLcp, py::arg("M"), py::arg("q"),
        "LCP w = M z + q, 0 <= z _|_ w >= 0. M: (n, n) array or sparse (CSC, or .tocsc())");
  m.def("mlcp", &makeMlcp, py::arg("M"), py::arg("q"), py::kw_only(), py::arg("n_eq") = py::none(),
        py::arg("is_comp") = py::none(), py::arg("lb") = py::none(), py::arg("ub") = py::none(),
        "MLCP: n_eq equality rows first, or a row kind per row (is_comp), or box bounds lb/ub");
  m.def("fc", &makeFc, py::arg("M"), py::arg("q"), py::arg("mu"), py::arg("dim") = 3,
        "friction contact u = M r + q (dim 2 or 3, normal first), mu per contact");
  m.def("gfc", &makeGfc, py::arg("M"), py::arg("H"), py::arg("q"), py::arg("b"), py::arg("mu"),
        py::arg("dim") = 3, "global friction contact M v = q + H r, u = H^T v + b");
  m.def("read_problem", &readProblem, py::arg("path"), py::arg("kind") = "auto",
        "read a Siconos .dat file or an FCLIB .hdf5 file");
  m.def("_solve", &solve, py::arg("problem"), py::arg("solver") = "auto",
        py::arg("tolerance") = py::none(), py::arg("max_iterations") = py::none(),
        py::arg("x0") = py::none(), py::arg("history") = 100000);
  m.def(
      "solvers",
      [](const std::string& kind) {
        const NsdProblemKind k = kindOf(kind);
        int count = 0;
        const NsdSolverEntry* t = nsd_solver_table(&count);
        py::list out;
        for (int i = 0; i < count; ++i) {
          if (k != NSD_KIND_UNKNOWN && t[i].kind != k) continue;
          py::dict d;
          d["name"] = t[i].name;
          d["kind"] = nsd_kind_name(t[i].kind);
          d["description"] = t[i].description ? t[i].description : "";
          d["default"] = py::bool_(t[i].is_default != 0);
          d["direct"] = py::bool_(t[i].direct != 0);
          d["warm_start"] = py::bool_(t[i].warm_start != 0);
          py::list opts;
          int oc = 0;
          const NsdOptionEntry* ot = nsd_option_table(&oc);
          for (int j = 0; j < oc; ++j)
            if (nsd_option_applies(&ot[j], &t[i])) opts.append(ot[j].name);
          d["options"] = opts;
          out.append(d);
        }
        return out;
      },
      py::arg("kind") = "auto", "the solver table (nsd_solver_table), of one kind or all");
  m.def(
      "options",
      []() {
        int count = 0;
        const NsdOptionEntry* t = nsd_option_table(&count);
        py::list out;
        for (int i = 0; i < count; ++i) out.append(optionDict(t[i]));
        return out;
      },
      "the option table (nsd_option_table): name, keyword, type, default, range, doc");
  m.def(
      "option_doc",
      [](const std::string& name) {
        std::string n = name;
        for (std::size_t p; (p = n.find("__")) != std::string::npos;) n.replace(p, 2, ".");
        const NsdOptionEntry* e = nsd_option_find(n.c_str());
        if (!e) {
          NsdSolverOptions o;
          nsd_solver_options_default(&o);
          NsdReport rep{};
          nsd_option_set(&o, n.c_str(), "0", &rep);
          badInput(rep.message);
        }
        return optionDict(*e);
      },
      py::arg("name"));
  m.def("status_name",
        [](int s) { return std::string(nsd_status_name(static_cast<NsdStatus>(s))); });
}

}  // namespace nsdpy
