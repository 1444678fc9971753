// The VTK frames of a scene run, read back for `nsdyn render` (apps/render_frames.hpp).
#include "render_frames.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <pugixml.hpp>

#include <nsdyn/Error.hpp>
#include <nsdyn/io/Writers.hpp>

namespace nsdyn::cli {

namespace {

struct Collection {
  std::vector<double> times;
  std::vector<std::string> files;
};

pugi::xml_document load(const std::string& path) {
  pugi::xml_document doc;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw Error(path, "a readable file", std::strerror(errno));
  std::fclose(f);
  const pugi::xml_parse_result r = doc.load_file(path.c_str());
  if (!r)
    throw Error(path + ":offset " + std::to_string(r.offset), "well-formed VTK XML",
                r.description());
  return doc;
}

Collection readCollection(const std::string& dir, const std::string& file) {
  const std::string path = io::joinPath(dir, file);
  std::FILE* probe = std::fopen(path.c_str(), "rb");
  if (!probe)
    throw Error(path,
                "the VTK frames of a run of this model in this folder (nsdyn run MODEL.xml "
                "--vtk --output DIR, or <sceneFiles vtk=\"true\"/>; nsdyn render --output DIR)",
                std::string("no such file (") + std::strerror(errno) + ")");
  std::fclose(probe);
  const pugi::xml_document doc = load(path);
  Collection c;
  for (pugi::xml_node d : doc.child("VTKFile").child("Collection").children("DataSet")) {
    const char* t = d.attribute("timestep").value();
    char* end = nullptr;
    const double time = std::strtod(t, &end);
    if (end == t || *end || !std::isfinite(time) || !*d.attribute("file").value())
      throw Error(
          path, "DataSet elements with a finite timestep and a file",
          std::string("timestep=\"") + t + "\" file=\"" + d.attribute("file").value() + "\"");
    c.times.push_back(time);
    c.files.push_back(d.attribute("file").value());
  }
  if (c.times.empty()) throw Error(path, "at least one frame (DataSet)", "none");
  return c;
}

// The numbers of a DataArray, checked to be @p count.
std::vector<double> numbers(const std::string& path, pugi::xml_node array, const char* name,
                            std::size_t count) {
  if (!array) throw Error(path, std::string("a DataArray ") + name, "none");
  std::vector<double> out;
  out.reserve(count);
  const char* s = array.child_value();
  while (true) {
    while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r') ++s;
    if (!*s) break;
    char* end = nullptr;
    const double v = std::strtod(s, &end);
    if (end == s || !std::isfinite(v))
      throw Error(
          path, std::string("finite numbers in DataArray ") + name,
          std::string("'") + std::string(s, std::min<std::size_t>(std::strlen(s), 20)) + "'");
    out.push_back(v);
    s = end;
  }
  if (out.size() != count)
    throw Error(path, std::string("DataArray ") + name + " of " + std::to_string(count) + " values",
                std::to_string(out.size()));
  return out;
}

pugi::xml_node pointArray(pugi::xml_node piece, const char* name) {
  return piece.child("PointData").find_child_by_attribute("DataArray", "Name", name);
}

struct Piece {
  std::string path;
  pugi::xml_document doc;
  pugi::xml_node node;
  std::size_t points = 0;
};

void openPiece(const std::string& dir, const std::string& file, Piece* p) {
  p->path = io::joinPath(dir, file);
  p->doc = load(p->path);
  p->node = p->doc.child("VTKFile").child("PolyData").child("Piece");
  const char* n = p->node.attribute("NumberOfPoints").value();
  char* end = nullptr;
  const long count = std::strtol(n, &end, 10);
  if (!p->node || end == n || *end || count < 0)
    throw Error(p->path, "a PolyData Piece with NumberOfPoints", std::string("'") + n + "'");
  p->points = static_cast<std::size_t>(count);
}

// The frame of index @p k: the model's poses, replaced by the frame's for its bodies.
RenderFrame readFrame(const std::string& dir, const Collection& bodiesPvd,
                      const Collection* contactsPvd, std::size_t k,
                      const std::vector<BodyShapes>& bodies) {
  RenderFrame f;
  f.index = static_cast<long>(k);
  f.time = bodiesPvd.times[k];
  const std::size_t nb = bodies.size();
  f.q.assign(7 * nb, 0.0);
  f.value.assign(nb, 0.0);
  for (std::size_t b = 0; b < nb; ++b) {
    const auto x = bodies[b].position();
    const auto o = bodies[b].orientation();
    for (std::size_t i = 0; i < 3; ++i) f.q[7 * b + i] = x[i];
    for (std::size_t i = 0; i < 4; ++i) f.q[7 * b + 3 + i] = o[i];
  }
  Piece p;
  openPiece(dir, bodiesPvd.files[k], &p);
  const std::size_t n = p.points;
  const std::vector<double> x =
      numbers(p.path, p.node.child("Points").child("DataArray"), "of the Points", 3 * n);
  const std::vector<double> id = numbers(p.path, pointArray(p.node, "body"), "body", n);
  const std::vector<double> o =
      numbers(p.path, pointArray(p.node, "orientation"), "orientation", 4 * n);
  const std::vector<double> v = numbers(p.path, pointArray(p.node, "velocity"), "velocity", 3 * n);
  for (std::size_t i = 0; i < n; ++i) {
    const double b = id[i];
    if (!(b >= 0.0) || b != std::floor(b) || b >= static_cast<double>(nb))
      throw Error(p.path,
                  "body indices within [0, " + std::to_string(nb) +
                      ") (the bodies of the model: is the frame of another model?)",
                  std::to_string(b));
    const std::size_t j = static_cast<std::size_t>(b);
    for (std::size_t c = 0; c < 3; ++c) f.q[7 * j + c] = x[3 * i + c];
    for (std::size_t c = 0; c < 4; ++c) f.q[7 * j + 3 + c] = o[4 * i + c];
    if (!contactsPvd && !bodies[j].isStatic())
      f.value[j] = std::sqrt(v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] +
                             v[3 * i + 2] * v[3 * i + 2]);
  }
  if (contactsPvd) {
    Piece c;
    openPiece(dir, contactsPvd->files[k], &c);
    const std::size_t m = c.points;
    const std::vector<double> force = numbers(c.path, pointArray(c.node, "force"), "force", 3 * m);
    const std::vector<double> a = numbers(c.path, pointArray(c.node, "bodyA"), "bodyA", m);
    const std::vector<double> bb = numbers(c.path, pointArray(c.node, "bodyB"), "bodyB", m);
    for (std::size_t i = 0; i < m; ++i) {
      const double norm =
          std::sqrt(force[3 * i] * force[3 * i] + force[3 * i + 1] * force[3 * i + 1] +
                    force[3 * i + 2] * force[3 * i + 2]);
      for (double b : {a[i], bb[i]}) {
        if (!(b >= 0.0) || b != std::floor(b) || b >= static_cast<double>(nb))
          throw Error(c.path, "body indices within [0, " + std::to_string(nb) + ")",
                      std::to_string(b));
        const std::size_t j = static_cast<std::size_t>(b);
        if (!bodies[j].isStatic()) f.value[j] += norm;
      }
    }
  }
  return f;
}

std::string number(double x) {
  char s[32];
  std::snprintf(s, sizeof s, "%g", x);
  return s;
}

}  // namespace

std::vector<RenderFrame> readRenderFrames(const std::string& dir, const std::string& name,
                                          const std::vector<BodyShapes>& bodies,
                                          const std::vector<double>& times, bool force) {
  const Collection b = readCollection(dir, name + "_bodies.pvd");
  Collection c;
  if (force) {
    c = readCollection(dir, name + "_contacts.pvd");
    if (c.times != b.times)
      throw Error(io::joinPath(dir, name + "_contacts.pvd"),
                  "the frame times of " + name + "_bodies.pvd (" + std::to_string(b.times.size()) +
                      " frames)",
                  std::to_string(c.times.size()) + " frames, other times");
  }
  std::vector<std::size_t> chosen;
  if (times.empty()) chosen.push_back(b.times.size() - 1);
  const double first = b.times.front(), last = b.times.back();
  const double slack = 1e-9 * std::max(1.0, std::fabs(last - first));
  for (double t : times) {
    if (t < first - slack || t > last + slack)
      throw RenderTimeError("--times " + number(t) + ": outside the frames of " +
                            io::joinPath(dir, name + "_bodies.pvd") + " (t = " + number(first) +
                            " ... " + number(last) + ", " + std::to_string(b.times.size()) +
                            " frames)");
    std::size_t best = 0;
    for (std::size_t k = 1; k < b.times.size(); ++k)
      if (std::fabs(b.times[k] - t) < std::fabs(b.times[best] - t)) best = k;
    chosen.push_back(best);
  }
  std::vector<RenderFrame> frames;
  for (std::size_t k : chosen) frames.push_back(readFrame(dir, b, force ? &c : nullptr, k, bodies));
  return frames;
}

}  // namespace nsdyn::cli
