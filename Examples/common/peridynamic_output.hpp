/// @file peridynamic_output.hpp
/// @brief Outputs of the peridynamic examples (KalthoffWinkler, GlassPlate): VTK frames of a
///        body on a regular time grid, a CSV of its points and a damage map drawn by gnuplot,
///        the principal line of a set of points (crack paths) and the closing file lines.
#ifndef NSDYN_EXAMPLES_PERIDYNAMIC_OUTPUT_HPP
#define NSDYN_EXAMPLES_PERIDYNAMIC_OUTPUT_HPP

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/io/PeridynamicVtkWriter.hpp"

namespace nsdyn::examples {

/// VTK frames of one body (nsdyn::io::PeridynamicVtkWriter: `dir/name_NNNNNN.vtp`, then
/// `dir/name.pvd`) at t = 0, T/frames, 2T/frames, ..., T: due() says when the next one is.
/// frames = 0 writes none.
class PeridynamicFrames {
 public:
  PeridynamicFrames(const std::string& dir, const std::string& name, int frames, double duration);
  /// Writes a frame of @p body when @p time has reached the next frame time (within half
  /// a step @p h); returns whether it wrote one.
  bool write(double time, double h, const PeridynamicBody& body);
  /// The .pvd path after finish(), "" when no frame was asked for.
  std::string finish();
  std::size_t count() const { return writer_ ? writer_->frameCount() : 0; }

 private:
  std::unique_ptr<io::PeridynamicVtkWriter> writer_;
  int frames_;
  double duration_;
};

/// `path`: one row per point, columns x, y, z (current position), X, Y, Z (reference),
/// damage, then @p extraName with @p extra[i] when given (same length as the body).
/// Written under `path.part`, renamed when complete (nsdyn::Error naming the path).
void writePointsCsv(const std::string& path, const PeridynamicBody& body,
                    const std::string& extraName = "", const std::vector<double>& extra = {});

/// A damage map from a points CSV (columns 1-based as gnuplot counts): each point drawn at
/// (@p xColumn, @p yColumn) coloured by @p colourColumn on a white→red→black palette in
/// [0, 1], axes in the CSV's unit scaled by @p scale (e.g. 1000 for mm), equal aspect, squares
/// of gnuplot point size @p pointSize (about 8 pixels each).
/// Returns false when gnuplot is missing or fails (nothing drawn).
bool damageMapPng(const std::string& csvPath, const std::string& pngPath, const std::string& title,
                  int xColumn, int yColumn, int colourColumn, double scale,
                  const std::string& xLabel, const std::string& yLabel, double pointSize);

/// The principal line of a set of 2D points (total least squares): its centroid, unit
/// direction (first principal axis) and the spread along and across it (root mean squares).
struct LineFit {
  std::size_t points = 0;
  std::array<double, 2> centroid{0.0, 0.0};
  std::array<double, 2> direction{1.0, 0.0};
  double along = 0.0, across = 0.0;
};
LineFit fitLine(const std::vector<std::array<double, 2>>& points);

/// The SceneEngine options of the peridynamic scene examples (ClothDrape, RubberBlockIncline):
/// step @p h, @p theta, gravity (0, 0, −@p g), NSGS to @p tolerance within @p maxIterations,
/// contact detection on @p threads threads.
SceneEngineOptions sceneEngineOptions(double h, double theta, double g, double tolerance,
                                      int maxIterations, int threads);

/// `  LABEL: PATH` aligned as the other examples' closing lines.
void printFileLine(const char* label, const std::string& path);

}  // namespace nsdyn::examples

#endif
