// The layout of SheetMaterial's materialData (SheetMaterial.hpp): a header, the spring
// constant of every directed bond, then per point the offsets and entries of the triplets
// (virtual bonds along the normal) the point is the centre (+K) or an end (−K) of.
#ifndef NSDYN_KERNEL_PERIDYNAMICS_SHEETMATERIALDATA_HPP
#define NSDYN_KERNEL_PERIDYNAMICS_SHEETMATERIALDATA_HPP

#include <cstddef>
#include <string>

#include "nsdyn/Error.hpp"
#include "nsdyn/PeridynamicBody.hpp"

namespace nsdyn::peridynamics::sheet {

/// Header: c, D, P (bulk triplets per point), n (points), bonds (directed).
constexpr std::size_t kHeader = 5;
/// Values per triplet entry: three bond indices and the signed stiffness.
constexpr std::size_t kEntry = 4;

/// Read-only view of a prepared body's data; nsdyn::Error when the data does not match the
/// body (prepare() not called since the bonds changed).
struct View {
  const double* spring;   ///< k per directed bond
  const double* offset;   ///< n + 1 entry offsets
  const double* entries;  ///< kEntry values per entry
  double c, D, P;

  View(const PeridynamicBody& body, const std::string& who) {
    const auto& d = body.materialData();
    const std::size_t n = body.size(), nb = body.bondCount();
    bool ok = d.size() >= kHeader + nb + n + 1 && d[3] == static_cast<double>(n) &&
              d[4] == static_cast<double>(nb);
    if (ok) {
      const double entriesCount = d[kHeader + nb + n];
      ok = d.size() == kHeader + nb + n + 1 + kEntry * static_cast<std::size_t>(entriesCount);
    }
    if (!ok)
      throw Error(who,
                  "sheet material data for " + std::to_string(n) + " points and " +
                      std::to_string(nb) + " bonds (call body.refresh())",
                  std::to_string(d.size()) + " values");
    c = d[0];
    D = d[1];
    P = d[2];
    spring = d.data() + kHeader;
    offset = spring + nb;
    entries = offset + n + 1;
  }
};

}  // namespace nsdyn::peridynamics::sheet

#endif
