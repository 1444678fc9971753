// Numerics: what the global friction-contact problem (nsd_gfc.h) adds to nsdyn.solve, which
// returns r and u: the global velocity v = M^-1 (q + H r), the Siconos GFC error of (r, v)
// and the reduced (local) problem W = H^T M^-1 H.
#include <string>
#include <vector>

#include "bindings.hpp"

namespace nsdpy {
namespace {

const NsdGfc* gfcOf(py::handle problem, const char* what) {
  const NsdProblem& p = problemOf(problem);
  if ((p.kind != NSD_KIND_GFC2D && p.kind != NSD_KIND_GFC3D) || !p.gfc)
    throw py::value_error(std::string(what) + ": expected a gfc2d or gfc3d problem, found " +
                          nsd_kind_name(p.kind));
  return p.gfc;
}

py::array_t<double> gfcVelocity(py::handle problem, py::handle r) {
  const NsdGfc* g = gfcOf(problem, "gfc_velocity");
  const std::vector<double> rv = toVector(r, "r", static_cast<py::ssize_t>(g->dim) * g->nc);
  std::vector<double> v(static_cast<size_t>(g->n), 0.0);
  NsdReport rep{};
  NsdStatus st;
  {
    py::gil_scoped_release release;
    st = nsd_gfc_velocity(g, rv.data(), v.data(), &rep);
  }
  if (st != NSD_OK) badInput(rep.message);
  return toNumpy(v);
}

double gfcError(py::handle problem, py::handle r, py::handle v) {
  const NsdGfc* g = gfcOf(problem, "gfc_error");
  const std::vector<double> rv = toVector(r, "r", static_cast<py::ssize_t>(g->dim) * g->nc);
  const std::vector<double> vv = toVector(v, "v", g->n);
  return nsd_gfc_error(g, rv.data(), vv.data(), nullptr);
}

py::object gfcReduce(py::handle problem) {
  const NsdGfc* g = gfcOf(problem, "gfc_reduce");
  NsdReport rep{};
  NsdFc* fc;
  {
    py::gil_scoped_release release;
    fc = nsd_gfc_reduce(g, &rep);
  }
  if (!fc) badInput(rep.message);
  NsdProblem p{};
  p.kind = g->dim == 3 ? NSD_KIND_FC3D : NSD_KIND_FC2D;
  p.fc = fc;
  return wrapProblem(&p);
}

}  // namespace

void initGfc(py::module_& m) {
  m.def("gfc_velocity", &gfcVelocity, py::arg("problem"), py::arg("r"),
        "global velocity v = M^-1 (q + H r) of a gfc problem (sparse factor of M); "
        "nsdyn.BadInputError when M is singular");
  m.def("gfc_error", &gfcError, py::arg("problem"), py::arg("r"), py::arg("v"),
        "Siconos's global friction-contact error of (r, v) (doc/global-friction.md)");
  m.def("gfc_reduce", &gfcReduce, py::arg("problem"),
        "the local problem of a gfc problem: fc with W = H^T M^-1 H, q = H^T M^-1 q + b");
}

}  // namespace nsdpy
