/// @file BodyArrays.hpp
/// @brief Bodies of one rank as a struct of arrays (global id, centre, bounding radius).
#ifndef NSDYN_PARALLEL_BODYARRAYS_HPP
#define NSDYN_PARALLEL_BODYARRAYS_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "nsdyn/parallel/ParallelExport.hpp"

namespace nsdyn {
namespace parallel {

/// N bodies as parallel arrays: body k has the global id id[k] (≥ 0, unique over all
/// ranks), its centre (x[k], y[k], z[k]) and a bounding radius radius[k] (> 0: the body
/// lies in the ball of that radius about the centre). No object per body; the arrays of
/// Decomposition are sorted by id.
struct NSDYN_PARALLEL_API BodyArrays {
  std::vector<std::int64_t> id;
  std::vector<double> x, y, z, radius;
  /// Per-body state that travels with the body (migration and ghost copies): `width`
  /// doubles per body in `data` (body k at data[width k ..)); width 0: none. Every rank
  /// of a Decomposition must use the same width (checked collectively).
  int width = 0;
  std::vector<double> data;

  std::size_t size() const { return id.size(); }
  bool empty() const { return id.empty(); }
  void clear();
  void reserve(std::size_t n);
  /// Appends a body; with width > 0, @p state points at its `width` values (nullptr: zeros).
  void push_back(std::int64_t gid, double px, double py, double pz, double r,
                 const double* state = nullptr);
  /// The state of body k (width values).
  double* state(std::size_t k) { return data.data() + static_cast<std::size_t>(width) * k; }
  const double* state(std::size_t k) const {
    return data.data() + static_cast<std::size_t>(width) * k;
  }
  /// Appends body k of @p other.
  void append(const BodyArrays& other, std::size_t k);
  /// Sorts every array by id (stable; ids are meant to be unique).
  void sortById();
  /// "" when the arrays have one size (data: width per body, width ≥ 0), every id ≥ 0, every
  /// coordinate finite and every radius finite and > 0; otherwise the first fault, naming the
  /// body's id
  /// ("body 17: position (nan, 0, 1) not finite"). Local: no communication.
  std::string firstFault() const;
};

}  // namespace parallel
}  // namespace nsdyn

#endif
