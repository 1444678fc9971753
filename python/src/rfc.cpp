// Numerics: rolling friction contact (nsd_rfc.h) from NumPy arrays or SciPy-style sparse
// matrices. Solved by nsdyn.solve like the other problems (solvers "nsgs", the default, and
// "pg"); read and written by nsdyn.read_problem / write_problem (kinds rfc3d, rfc2d).
#include <string>
#include <vector>

#include "bindings.hpp"

namespace nsdpy {
namespace {

/// nsdyn.rfc(M, q, mu, mu_r, dim=5): dim 5 (3D) or 3 (2D) unknowns per contact.
py::object makeRfc(py::handle M, py::handle q, py::handle mu, py::handle mu_r, int dim) {
  if (dim != 5 && dim != 3)
    throw py::value_error("dim: expected 5 (3D rolling) or 3 (2D rolling), found " +
                          std::to_string(dim));
  const std::vector<double> qv = toVector(q, "q");
  if (qv.size() % static_cast<std::size_t>(dim) != 0)
    throw py::value_error("q: expected a size multiple of dim = " + std::to_string(dim) +
                          ", found " + std::to_string(qv.size()));
  const auto nc = static_cast<py::ssize_t>(qv.size()) / dim;
  const std::vector<double> muv = toVector(mu, "mu", nc);
  const std::vector<double> murv = toVector(mu_r, "mu_r", nc);
  NsdMatrix* a = toMatrixCopy(M, "M", nc * dim, nc * dim);
  NsdProblem p{};
  p.kind = dim == 5 ? NSD_KIND_RFC3D : NSD_KIND_RFC2D;
  p.rfc = nsd_rfc_create(dim, static_cast<int>(nc), a, qv.data(), muv.data(), murv.data());
  if (!p.rfc) throw std::bad_alloc();
  NsdReport rep{};
  if (!nsd_rfc_check(p.rfc, &rep)) {
    nsd_problem_clear(&p);
    badInput(rep.message);
  }
  return wrapProblem(&p);
}

/// The rolling coefficients of a rolling problem.
std::vector<double> rfcMuR(py::handle problem) {
  const NsdProblem& p = problemOf(problem);
  if ((p.kind != NSD_KIND_RFC3D && p.kind != NSD_KIND_RFC2D) || !p.rfc)
    throw py::value_error(std::string("rfc_mu_r: expected an rfc3d or rfc2d problem, found ") +
                          nsd_kind_name(p.kind));
  return std::vector<double>(p.rfc->mu_r, p.rfc->mu_r + p.rfc->nc);
}

/// nsd_rfc_project_on_cone on a copy of y.
std::vector<double> projectRfc(py::handle y, double mu, double mu_r) {
  std::vector<double> v = toVector(y, "y");
  if (v.size() != 5 && v.size() != 3)
    throw py::value_error("y: expected 5 (3D) or 3 (2D) entries, found " +
                          std::to_string(v.size()));
  if (!(mu >= 0.0) || !(mu_r >= 0.0))
    throw py::value_error("mu, mu_r: expected finite values >= 0");
  nsd_rfc_project_on_cone(static_cast<int>(v.size()), mu, mu_r, v.data());
  return v;
}

}  // namespace

void initRfc(py::module_& m) {
  m.def("rfc", &makeRfc, py::arg("M"), py::arg("q"), py::arg("mu"), py::arg("mu_r"),
        py::arg("dim") = 5,
        "rolling friction contact u = M r + q: per contact r = (r_N, r_T1, r_T2, r_R1, r_R2) "
        "(dim 5) or (r_N, r_T, r_R) (dim 3), ||r_T|| <= mu r_N and ||r_R|| <= mu_r r_N with "
        "De Saxce's change of velocity; M: (n, n) array or sparse (CSC)");
  m.def("rfc_mu_r", &rfcMuR, py::arg("problem"), "the rolling coefficients of an rfc problem");
  m.def("rfc_project", &projectRfc, py::arg("y"), py::arg("mu"), py::arg("mu_r"),
        "the projection of y (5 or 3 entries, normal first) on the rolling friction cone");
}

}  // namespace nsdpy
