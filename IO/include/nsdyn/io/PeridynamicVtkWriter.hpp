/// @file PeridynamicVtkWriter.hpp
/// @brief VTK XML frames of a peridynamic body (its points, with displacement, velocity,
///        damage, stress, ...) for ParaView: one .vtp file per frame, one .pvd collection.
#ifndef NSDYN_IO_PERIDYNAMICVTKWRITER_HPP
#define NSDYN_IO_PERIDYNAMICVTKWRITER_HPP

#include <cstddef>
#include <string>
#include <vector>

#include "nsdyn/io/IoExport.hpp"

namespace nsdyn {
class PeridynamicBody;
}

namespace nsdyn::io {

/// Writes one peridynamic body frame by frame (doc/scene-outputs.md, "Peridynamic bodies"):
///  - `dir/name_NNNNNN.vtp`: PolyData, one vertex per point at its current position x.
///    Point data: "displacement" (3: x − X), "velocity" (3), "damage" (broken share of the
///    point's initial bonds, in [0, 1]), "stress" (6: the Cauchy stress of the material,
///    components xx yy zz xy yz xz, the order in which ParaView reads a symmetric tensor;
///    named by ComponentName attributes), "von_mises" (the von Mises stress of it),
///    "prescribed" (Int32: 1 for a prescribed point), "volume" (m³), "reference" (3: X).
///  - finish(): `dir/name.pvd` listing the frames with their times.
/// Numbers are written in ASCII with 17 significant digits (exact round trip). Every file is
/// written under a temporary name (`path.part`) and renamed when complete; a path is listed
/// in files() only once that succeeded. Failures throw nsdyn::Error (WriteError for a file
/// that cannot be written) naming the path.
class NSDYN_IO_API PeridynamicVtkWriter {
 public:
  /// Frames go to @p dir (created with its parents; nsdyn::Error naming it if that fails),
  /// file names start with @p name (not empty, no '/').
  PeridynamicVtkWriter(std::string dir, std::string name);

  /// Write frame number frameCount() of @p body at time @p time. The body must keep its
  /// point count from frame to frame (nsdyn::Error otherwise, nothing written).
  void writeFrame(double time, const PeridynamicBody& body);
  /// Write (or rewrite, with the frames so far) the .pvd file; returns its path.
  std::string finish();

  std::size_t frameCount() const { return times_.size(); }
  /// Every file written so far (.vtp in order, then the .pvd once finish() ran).
  const std::vector<std::string>& files() const { return files_; }
  std::string pvdPath() const;

 private:
  std::string dir_, name_;
  std::size_t points_ = 0;
  std::vector<double> times_;
  std::vector<std::string> frames_;  // names relative to dir_
  std::vector<std::string> files_;
};

}  // namespace nsdyn::io

#endif
