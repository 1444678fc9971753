// Outputs of the peridynamic examples: VTK frames, points CSV, damage map, line fit.
#include "peridynamic_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "nsdyn/Error.hpp"

namespace nsdyn::examples {

SceneEngineOptions sceneEngineOptions(double h, double theta, double g, double tolerance,
                                      int maxIterations, int threads) {
  SceneEngineOptions eo;
  eo.h = h;
  eo.theta = theta;
  eo.gravity = {0.0, 0.0, -g};
  eo.solver = "nsgs";
  eo.solverOptions.tolerance = tolerance;
  eo.solverOptions.max_iterations = maxIterations;
  eo.contacts.detection.threads = threads;
  return eo;
}

PeridynamicFrames::PeridynamicFrames(const std::string& dir, const std::string& name, int frames,
                                     double duration)
    : frames_(frames), duration_(duration) {
  if (frames_ > 0) writer_ = std::make_unique<io::PeridynamicVtkWriter>(dir, name);
}

bool PeridynamicFrames::write(double time, double h, const PeridynamicBody& body) {
  if (!writer_) return false;
  const std::size_t next = writer_->frameCount();
  if (next > static_cast<std::size_t>(frames_)) return false;
  const double due = duration_ * static_cast<double>(next) / frames_;
  if (time + 0.5 * h < due) return false;
  writer_->writeFrame(time, body);
  return true;
}

std::string PeridynamicFrames::finish() {
  return writer_ ? writer_->finish() : std::string();
}

void writePointsCsv(const std::string& path, const PeridynamicBody& body,
                    const std::string& extraName, const std::vector<double>& extra) {
  const bool withExtra = !extraName.empty();
  if (withExtra && extra.size() != body.size())
    throw Error("points CSV " + path, "one '" + extraName + "' value per point",
                std::to_string(extra.size()) + " values for " + std::to_string(body.size()));
  const std::string part = path + ".part";
  std::FILE* f = std::fopen(part.c_str(), "w");
  if (!f) throw Error("points CSV", "a writable file", path);
  bool ok =
      std::fprintf(f, "x,y,z,X,Y,Z,damage%s%s\n", withExtra ? "," : "", extraName.c_str()) > 0;
  for (std::size_t i = 0; i < body.size() && ok; ++i) {
    const double* x = &body.x[3 * i];
    const double* X = &body.X[3 * i];
    ok = std::fprintf(f, "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.6g", x[0], x[1], x[2], X[0], X[1], X[2],
                      body.damage[i]) > 0;
    if (ok && withExtra) ok = std::fprintf(f, ",%.9g", extra[i]) > 0;
    if (ok) ok = std::fputc('\n', f) != EOF;
  }
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(part.c_str(), path.c_str()) != 0) {
    std::remove(part.c_str());
    throw Error("points CSV", "a complete file", path);
  }
}

bool damageMapPng(const std::string& csvPath, const std::string& pngPath, const std::string& title,
                  int xColumn, int yColumn, int colourColumn, double scale,
                  const std::string& xLabel, const std::string& yLabel, double pointSize) {
  const std::string script = pngPath + ".gp";
  std::FILE* gp = std::fopen(script.c_str(), "w");
  if (!gp) return false;
  std::fprintf(gp, "set terminal pngcairo size 900,900 noenhanced\nset output '%s'\n",
               pngPath.c_str());
  std::fprintf(gp, "set datafile separator ','\nset title '%s'\nset size ratio -1\n",
               title.c_str());
  std::fprintf(gp, "set xlabel '%s'\nset ylabel '%s'\nset cblabel 'damage'\n", xLabel.c_str(),
               yLabel.c_str());
  std::fprintf(gp,
               "set cbrange [0:1]\nset palette defined (0 '#f4f4f4', 0.3 '#f2c14e', "
               "0.6 '#d1495b', 1 '#1b1b1b')\nunset key\n");
  std::fprintf(gp,
               "plot '%s' every ::1 using ($%d*%.17g):($%d*%.17g):%d with points pt 5 ps %g "
               "lc palette\n",
               csvPath.c_str(), xColumn, scale, yColumn, scale, colourColumn, pointSize);
  std::fclose(gp);
  const std::string cmd = "gnuplot '" + script + "' > /dev/null 2>&1";
  const bool ok = std::system(cmd.c_str()) == 0;
  std::remove(script.c_str());
  return ok;
}

LineFit fitLine(const std::vector<std::array<double, 2>>& points) {
  LineFit fit;
  fit.points = points.size();
  if (points.empty()) return fit;
  double cx = 0.0, cy = 0.0;
  for (const auto& p : points) cx += p[0], cy += p[1];
  cx /= points.size(), cy /= points.size();
  double sxx = 0.0, syy = 0.0, sxy = 0.0;
  for (const auto& p : points) {
    const double dx = p[0] - cx, dy = p[1] - cy;
    sxx += dx * dx, syy += dy * dy, sxy += dx * dy;
  }
  sxx /= points.size(), syy /= points.size(), sxy /= points.size();
  // the larger eigenvalue of the 2×2 covariance and its eigenvector
  const double mean = 0.5 * (sxx + syy), diff = 0.5 * (sxx - syy);
  const double root = std::sqrt(diff * diff + sxy * sxy);
  const double angle = 0.5 * std::atan2(2.0 * sxy, sxx - syy);
  fit.centroid = {cx, cy};
  fit.direction = {std::cos(angle), std::sin(angle)};
  fit.along = std::sqrt(std::max(0.0, mean + root));
  fit.across = std::sqrt(std::max(0.0, mean - root));
  return fit;
}

void printFileLine(const char* label, const std::string& path) {
  std::printf("  %-24s %s\n", (std::string(label) + ":").c_str(), path.c_str());
}

}  // namespace nsdyn::examples
