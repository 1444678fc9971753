// Numerics: the generic mechanical problem (nsd_gmp.h) from NumPy arrays or SciPy-style
// sparse matrices and a list of blocks; its blocks read back. Solved by nsdyn.solve like the
// other problems (solvers "newton", the default, and "nsgs").
#include <string>
#include <vector>

#include "bindings.hpp"

namespace nsdpy {
namespace {

/// A block kind from "equality", "lcp", "fc2d", "fc3d" or its Siconos code 0, 2, 3, 4.
NsdGmpBlockKind blockKind(py::handle obj, const std::string& arg) {
  if (py::isinstance<py::str>(obj)) {
    const std::string s = obj.cast<std::string>();
    for (NsdGmpBlockKind k : {NSD_GMP_LCP, NSD_GMP_EQUALITY, NSD_GMP_FC2D, NSD_GMP_FC3D})
      if (s == nsd_gmp_block_kind_name(k)) return k;
    throw py::value_error(arg + ": expected 'equality', 'lcp', 'fc2d' or 'fc3d', found '" + s +
                          "'");
  }
  const long long v = toInteger(obj, arg, 0, 4);
  if (v == 1)
    throw py::value_error(arg + ": expected 0 (lcp), 2 (equality), 3 (fc2d) or 4 (fc3d), found 1");
  return static_cast<NsdGmpBlockKind>(v);
}

/// nsdyn.gmp(W, q, blocks): blocks a list of (kind, size) or (kind, size, mu).
py::object makeGmp(py::handle W, py::handle q, py::handle blocks) {
  const std::vector<double> qv = toVector(q, "q");
  const auto n = static_cast<py::ssize_t>(qv.size());
  if (!py::isinstance<py::sequence>(blocks) || py::isinstance<py::str>(blocks))
    throw py::type_error("blocks: expected a list of (kind, size[, mu]) tuples");
  std::vector<NsdGmpBlock> bl;
  for (py::handle item : py::reinterpret_borrow<py::sequence>(blocks)) {
    const std::string arg = "blocks[" + std::to_string(bl.size()) + "]";
    if (!py::isinstance<py::sequence>(item) || py::isinstance<py::str>(item))
      throw py::type_error(arg + ": expected a (kind, size[, mu]) tuple, found " + shortRepr(item));
    const auto t = py::reinterpret_borrow<py::sequence>(item);
    if (t.size() != 2 && t.size() != 3)
      throw py::value_error(arg + ": expected (kind, size[, mu]), found " + shortRepr(item));
    NsdGmpBlock b{};
    b.kind = blockKind(t[0], arg + ".kind");
    b.size = static_cast<int>(toInteger(t[1], arg + ".size", 1, 100000000));
    b.mu = t.size() == 3 ? toReal(t[2], arg + ".mu") : 0.0;
    if ((b.kind == NSD_GMP_FC2D || b.kind == NSD_GMP_FC3D) && t.size() != 3)
      throw py::value_error(arg + ": a friction cone needs its mu: (kind, size, mu)");
    bl.push_back(b);
  }
  NsdMatrix* a = toMatrixCopy(W, "W", n, n);
  NsdProblem p{};
  p.kind = NSD_KIND_GMP;
  p.gmp = nsd_gmp_create(a, qv.data(), static_cast<int>(bl.size()), bl.data());
  if (!p.gmp) throw std::bad_alloc();
  NsdReport rep{};
  if (!nsd_gmp_check(p.gmp, &rep)) {
    nsd_problem_clear(&p);
    badInput(rep.message);
  }
  return wrapProblem(&p);
}

py::list gmpBlocks(py::handle problem) {
  const NsdProblem& p = problemOf(problem);
  if (p.kind != NSD_KIND_GMP || !p.gmp)
    throw py::value_error(std::string("gmp_blocks: expected a gmp problem, found ") +
                          nsd_kind_name(p.kind));
  py::list out;
  for (int b = 0; b < p.gmp->n_blocks; ++b) {
    py::dict d;
    d["kind"] = nsd_gmp_block_kind_name(p.gmp->blocks[b].kind);
    d["start"] = p.gmp->start[b];
    d["size"] = p.gmp->blocks[b].size;
    d["mu"] = p.gmp->blocks[b].mu;
    out.append(d);
  }
  return out;
}

}  // namespace

void initGmp(py::module_& m) {
  m.def("gmp", &makeGmp, py::arg("W"), py::arg("q"), py::arg("blocks"),
        "generic mechanical problem u = W r + q, rows cut into blocks (kind, size[, mu]) with kind "
        "'equality' (u = 0), 'lcp' (0 <= r _|_ u >= 0), 'fc2d'/'fc3d' (a friction cone, mu); "
        "W: (n, n) array or sparse (CSC)");
  m.def("gmp_blocks", &gmpBlocks, py::arg("problem"),
        "the blocks of a gmp problem: kind, start, size, mu");
}

}  // namespace nsdpy
