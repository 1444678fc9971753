// `nsdyn render MODEL.xml`: PNG pictures of a scene run's bodies at chosen times. The model
// file gives the shapes (spheres, boxes, capsules, cylinders, convex hulls, planes), the
// run's VTK frames (NAME_bodies.pvd, NAME_contacts.pvd) the poses, velocities and contact
// forces; apps/render/nsdyn_render.py draws them offscreen with VTK (Debian's python3-vtk9,
// on an Xvfb server when there is no display). doc/scene-outputs.md, "Pictures".
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nsdyn/BodyShapes.hpp>
#include <nsdyn/BoxShape.hpp>
#include <nsdyn/CapsuleShape.hpp>
#include <nsdyn/ContactManager.hpp>
#include <nsdyn/ConvexHullShape.hpp>
#include <nsdyn/CylinderShape.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/SphereShape.hpp>
#include <nsdyn/TerrainShape.hpp>
#include <nsdyn/io/Writers.hpp>
#include <nsdyn/io/XmlLoader.hpp>

#include "commands.hpp"
#include "exit_status.hpp"
#include "render_frames.hpp"

extern char** environ;

namespace nsdyn::cli {

namespace {

struct RenderArgs {
  std::string model;
  std::string outputDir = ".";
  std::vector<double> times;  // empty: the last frame
  std::string color = "speed";
  bool rangeGiven = false;
  double range[2] = {0.0, 0.0};
  int width = 960, height = 720;
  double azimuth = 35.0, elevation = 25.0, zoom = 1.0;
  std::string png;     // one picture: its path
  std::string camera;  // --camera-file
};

bool parseNumber(const char* text, double* out) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text, &end);
  if (errno || end == text || *end || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

// "a,b,c" into numbers; false for an empty item or a non-number.
bool parseList(const std::string& text, std::vector<double>* out) {
  out->clear();
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    double v = 0.0;
    if (!parseNumber(text.substr(start, comma - start).c_str(), &v)) return false;
    out->push_back(v);
    start = comma + 1;
  }
  return !out->empty();
}

bool usageError(const std::string& message) {
  std::fprintf(stderr, "nsdyn render: %s\n%s", message.c_str(), renderUsage());
  return false;
}

bool parseRenderArgs(int argc, char** argv, RenderArgs* a) {
  for (int i = 0; i < argc; ++i) {
    const std::string opt = argv[i];
    const char* v = nullptr;
    auto value = [&]() {
      if (i + 1 >= argc) return usageError(opt + " needs a value");
      v = argv[++i];
      return true;
    };
    std::vector<double> list;
    if (opt == "--output") {
      if (!value()) return false;
      a->outputDir = v;
    } else if (opt == "--times") {
      if (!value()) return false;
      if (!parseList(v, &a->times))
        return usageError(opt + " " + v + ": expected times separated by commas (0.5,1,2)");
    } else if (opt == "--color") {
      if (!value()) return false;
      a->color = v;
      if (a->color != "speed" && a->color != "force" && a->color != "none")
        return usageError(opt + " " + v + ": expected speed, force or none");
    } else if (opt == "--range") {
      if (!value()) return false;
      if (!parseList(v, &list) || list.size() != 2 || !(list[0] < list[1]))
        return usageError(opt + " " + v + ": expected LO,HI with LO < HI");
      a->rangeGiven = true;
      a->range[0] = list[0];
      a->range[1] = list[1];
    } else if (opt == "--size") {
      if (!value()) return false;
      int w = 0, h = 0;
      char tail = 0;
      if (std::sscanf(v, "%dx%d%c", &w, &h, &tail) != 2 || w < 16 || h < 16 || w > 8192 || h > 8192)
        return usageError(opt + " " + v + ": expected WIDTHxHEIGHT in pixels, 16 to 8192 each");
      a->width = w;
      a->height = h;
    } else if (opt == "--azimuth" || opt == "--elevation" || opt == "--zoom") {
      if (!value()) return false;
      double x = 0.0;
      const bool zoom = opt == "--zoom";
      if (!parseNumber(v, &x) || (zoom && !(x > 0.0)) ||
          (opt == "--elevation" && !(std::fabs(x) < 90.0)))
        return usageError(opt + " " + v + ": expected " +
                          (zoom                   ? "a factor > 0"
                           : opt == "--elevation" ? "degrees in (-90, 90)"
                                                  : "degrees"));
      (zoom ? a->zoom : opt == "--azimuth" ? a->azimuth : a->elevation) = x;
    } else if (opt == "--png") {
      if (!value()) return false;
      a->png = v;
    } else if (opt == "--camera-file") {
      if (!value()) return false;
      a->camera = v;
    } else if (opt.size() > 1 && opt[0] == '-') {
      return usageError("unknown option " + opt);
    } else if (a->model.empty()) {
      a->model = opt;
    } else {
      return usageError("more than one MODEL (" + a->model + ", " + opt + ")");
    }
  }
  if (a->model.empty()) return usageError("no MODEL.xml given");
  if (!a->png.empty() && a->times.size() > 1)
    return usageError("--png FILE names one picture; --times asks for " +
                      std::to_string(a->times.size()));
  return true;
}

// --- the description handed to the renderer (JSON) -----------------------------------------

void putNumbers(std::string* s, const double* x, std::size_t n) {
  char buf[40];
  *s += '[';
  for (std::size_t i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof buf, "%s%.10g", i ? "," : "", x[i]);
    *s += buf;
  }
  *s += ']';
}

void putNumber(std::string* s, double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.10g", x);
  *s += buf;
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// One shape as JSON; shapes shared by many bodies are written once.
std::string shapeJson(const Shape& shape) {
  std::string s = "{\"kind\":";
  switch (shape.kind()) {
    case ShapeKind::Sphere: {
      const double r = static_cast<const SphereShape&>(shape).radius();
      s += "\"sphere\",\"radius\":";
      putNumber(&s, r);
      break;
    }
    case ShapeKind::Box:
      s += "\"box\",\"half_extents\":";
      putNumbers(&s, static_cast<const BoxShape&>(shape).halfExtents().data(), 3);
      break;
    case ShapeKind::Capsule:
    case ShapeKind::Cylinder: {
      const bool capsule = shape.kind() == ShapeKind::Capsule;
      const double rl[2] = {capsule ? static_cast<const CapsuleShape&>(shape).radius()
                                    : static_cast<const CylinderShape&>(shape).radius(),
                            capsule ? static_cast<const CapsuleShape&>(shape).halfLength()
                                    : static_cast<const CylinderShape&>(shape).halfLength()};
      s += capsule ? "\"capsule\",\"radius\":" : "\"cylinder\",\"radius\":";
      putNumber(&s, rl[0]);
      s += ",\"half_length\":";
      putNumber(&s, rl[1]);
      break;
    }
    case ShapeKind::ConvexHull: {
      const auto& hull = static_cast<const ConvexHullShape&>(shape);
      s += "\"hull\",\"vertices\":[";
      for (std::size_t i = 0; i < hull.vertices().size(); ++i) {
        if (i) s += ',';
        putNumbers(&s, hull.vertices()[i].data(), 3);
      }
      s += "],\"triangles\":[";
      for (std::size_t i = 0; i < hull.triangles().size(); ++i) {
        const auto& t = hull.triangles()[i];
        s += (i ? ",[" : "[") + std::to_string(t[0]) + ',' + std::to_string(t[1]) + ',' +
             std::to_string(t[2]) + ']';
      }
      s += ']';
      break;
    }
    case ShapeKind::TriangleMesh:
    case ShapeKind::Heightfield: {  // a terrain: its triangles, drawn as the hulls are
      const auto& terrain = static_cast<const TerrainShape&>(shape);
      s += "\"hull\",\"vertices\":[";
      for (std::size_t i = 0; i < terrain.vertexCount(); ++i) {
        if (i) s += ',';
        const Shape::Vec3 p = terrain.vertex(static_cast<std::int32_t>(i));
        putNumbers(&s, p.data(), 3);
      }
      s += "],\"triangles\":[";
      for (std::size_t i = 0; i < terrain.triangleCount(); ++i) {
        const auto t = terrain.triangleVertices(static_cast<std::int32_t>(i));
        s += (i ? ",[" : "[") + std::to_string(t[0]) + ',' + std::to_string(t[1]) + ',' +
             std::to_string(t[2]) + ']';
      }
      s += ']';
      break;
    }
    case ShapeKind::HalfSpace: {
      const auto& plane = static_cast<const HalfSpaceShape&>(shape);
      const double d = plane.offset();
      s += "\"plane\",\"normal\":";
      putNumbers(&s, plane.normal().data(), 3);
      s += ",\"offset\":";
      putNumber(&s, d);
      break;
    }
  }
  return s + '}';
}

// What the renderer needs: the shapes, the bodies (their shapes and offsets), one entry
// per picture (time, path, each body's pose and colour value).
std::string describe(const RenderArgs& a, const io::LoadedModel& model,
                     const std::vector<RenderFrame>& frames, const std::vector<std::string>& pngs) {
  const std::vector<BodyShapes>& bodies = model.scene->contacts->bodies();
  std::map<const Shape*, std::size_t> shapeIndex;
  std::string shapes, list;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    list += b ? ",{\"static\":" : "{\"static\":";
    list += bodies[b].isStatic() ? "true" : "false";
    list += ",\"shapes\":[";
    const std::vector<ShapeInstance>& instances = bodies[b].shapes();
    for (std::size_t k = 0; k < instances.size(); ++k) {
      const Shape* shape = instances[k].shape.get();
      auto found = shapeIndex.find(shape);
      if (found == shapeIndex.end()) {
        found = shapeIndex.emplace(shape, shapeIndex.size()).first;
        shapes += (found->second ? "," : "") + shapeJson(*shape);
      }
      double offset[8] = {static_cast<double>(found->second)};
      std::copy(instances[k].position.begin(), instances[k].position.end(), offset + 1);
      std::copy(instances[k].orientation.begin(), instances[k].orientation.end(), offset + 4);
      if (k) list += ',';
      putNumbers(&list, offset, 8);
    }
    list += "]}";
  }
  std::string s = "{\"format\":\"nsdyn-render-1\",\"name\":" + quoted(model.name) +
                  ",\"color\":" + quoted(a.color) + ",\"size\":[" + std::to_string(a.width) + ',' +
                  std::to_string(a.height) + "],\"view\":";
  const double view[3] = {a.azimuth, a.elevation, a.zoom};
  putNumbers(&s, view, 3);
  s += ",\"gravity\":";
  putNumbers(&s, model.scene->gravity.data(), 3);
  if (a.rangeGiven) {
    s += ",\"range\":";
    putNumbers(&s, a.range, 2);
  }
  if (!a.camera.empty()) s += ",\"camera_file\":" + quoted(a.camera);
  s += ",\"shapes\":[" + shapes + "],\"bodies\":[" + list + "],\"pictures\":[";
  for (std::size_t f = 0; f < frames.size(); ++f) {
    const RenderFrame& fr = frames[f];
    s += f ? ",{\"time\":" : "{\"time\":";
    putNumber(&s, fr.time);
    s += ",\"frame\":" + std::to_string(fr.index) + ",\"png\":" + quoted(pngs[f]) + ",\"q\":";
    putNumbers(&s, fr.q.data(), fr.q.size());
    s += ",\"value\":";
    putNumbers(&s, fr.value.data(), fr.value.size());
    s += '}';
  }
  return s + "]}\n";
}

// --- the renderer process ---------------------------------------------------------------------

std::string renderScript() {
  if (const char* env = std::getenv("NSDYN_RENDER_SCRIPT")) return env;
  // an installed nsdyn: PREFIX/bin/nsdyn and PREFIX/share/nsdyn/nsdyn_render.py
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    std::string dir(exe);
    dir = dir.substr(0, dir.rfind('/'));
    const std::string installed = dir + "/../share/nsdyn/nsdyn_render.py";
    struct stat st;
    if (stat(installed.c_str(), &st) == 0) return installed;
  }
  return NSDYN_RENDER_SCRIPT;  // the source tree's (a build-tree nsdyn)
}

std::string renderPython() {
  if (const char* env = std::getenv("NSDYN_RENDER_PYTHON")) return env;
  return NSDYN_RENDER_PYTHON;
}

// Runs the renderer on @p description; its exit status mapped to ours.
int runRenderer(const std::string& description) {
  const std::string python = renderPython(), script = renderScript();
  std::vector<std::string> args{python, script, description};
  std::vector<char*> argv;
  for (std::string& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, python.c_str(), nullptr, nullptr, argv.data(), environ);
  if (spawned != 0) {
    std::fprintf(stderr,
                 "nsdyn render: the rendering stack is missing: cannot start the Python "
                 "interpreter %s (%s); install python3 and python3-vtk9 "
                 "(scripts/install-deps.sh) or set NSDYN_RENDER_PYTHON\n",
                 python.c_str(), std::strerror(spawned));
    return kExitUnavailable;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      std::fprintf(stderr, "nsdyn render: waiting for the renderer: %s\n", std::strerror(errno));
      return kExitInternal;
    }
  }
  if (WIFSIGNALED(status)) {
    std::fprintf(stderr,
                 "nsdyn render: the renderer (%s %s) stopped on signal %d (%s): VTK could not "
                 "draw here (no usable OpenGL context on the X display?); no picture written\n",
                 python.c_str(), script.c_str(), WTERMSIG(status), strsignal(WTERMSIG(status)));
    return kExitUnavailable;
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : kExitInternal;
  if (code == kExitOk || code == kExitUnavailable || code == kExitIo) return code;
  if (code == 2 && access(script.c_str(), R_OK) != 0) {
    std::fprintf(stderr,
                 "nsdyn render: the rendering stack is missing: no renderer script %s "
                 "(set NSDYN_RENDER_SCRIPT)\n",
                 script.c_str());
    return kExitUnavailable;
  }
  std::fprintf(stderr, "nsdyn render: the renderer %s exited with status %d\n", script.c_str(),
               code);
  return kExitInternal;
}

}  // namespace

const char* renderUsage() {
  return "nsdyn render MODEL.xml [options]   pictures of a scene run (its VTK frames)\n"
         "  --output DIR              the run's results folder: frames read from it, pictures\n"
         "                            written to it (default: current directory)\n"
         "  --times T1,T2,...         the times to draw (the nearest frame each; default: the\n"
         "                            last frame)\n"
         "  --color speed|force|none  colour of the dynamic bodies: speed (m/s, default),\n"
         "                            contact force on the body (N, sum of |F| of its contacts)\n"
         "  --range LO,HI             the colour scale (default: 0 to the largest value drawn)\n"
         "  --size WxH                picture size in pixels (default 960x720)\n"
         "  --azimuth DEG             camera direction about the vertical (default 35)\n"
         "  --elevation DEG           camera height above the horizontal (default 25)\n"
         "  --zoom F                  > 1 closer (default 1: the whole scene in view)\n"
         "  --png FILE                the picture's path (one time only; default\n"
         "                            DIR/NAME_snapshot_NNNNNN.png, NNNNNN the frame)\n"
         "  --camera-file FILE        write each picture's camera (JSON) to FILE\n"
         "needs Debian's python3-vtk9 and, without a display, xvfb (scripts/install-deps.sh)\n"
         "exit status: 0 written, 2 usage error, 3 bad model or frames (no <scene>, no\n"
         "  NAME_bodies.pvd: run with --vtk), 4 a picture could not be written, 5 internal\n"
         "  error, 6 the rendering stack is missing (VTK, an X display or Xvfb)\n";
}

int renderCommand(int argc, char** argv) {
  RenderArgs a;
  if (!parseRenderArgs(argc, argv, &a)) return kExitUsage;
  std::unique_ptr<io::LoadedModel> model;
  try {
    model = io::XmlLoader().loadFile(a.model);
  } catch (const nsdyn::Error& e) {
    std::fprintf(stderr, "nsdyn render: %s\n", e.what());
    return kExitBadInput;
  }
  if (!model->scene) {
    std::fprintf(stderr,
                 "nsdyn render: %s has no <scene>: pictures are drawn of scene bodies with "
                 "shapes\n",
                 a.model.c_str());
    return kExitBadInput;
  }
  std::vector<RenderFrame> frames;
  try {
    frames = readRenderFrames(a.outputDir, model->name, model->scene->contacts->bodies(), a.times,
                              a.color == "force");
  } catch (const RenderTimeError& e) {
    std::fprintf(stderr, "nsdyn render: %s\n", e.what());
    return kExitUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nsdyn render: %s\n", e.what());
    return kExitBadInput;
  }
  std::vector<std::string> pngs;
  for (const RenderFrame& f : frames) {
    char name[64];
    std::snprintf(name, sizeof name, "_snapshot_%06ld.png", f.index);
    pngs.push_back(a.png.empty() ? io::joinPath(a.outputDir, model->name + name) : a.png);
  }
  // the description beside the pictures, removed once drawn
  const std::string description = io::joinPath(
      a.outputDir, "." + model->name + "_render_" + std::to_string(getpid()) + ".json");
  {
    const std::string text = describe(a, *model, frames, pngs);
    std::FILE* f = std::fopen(description.c_str(), "w");
    const bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (f && std::fclose(f) != 0) f = nullptr;
    if (!ok || !f) {
      std::fprintf(stderr, "nsdyn render: cannot write %s: %s\n", description.c_str(),
                   std::strerror(errno));
      std::remove(description.c_str());
      return kExitIo;
    }
  }
  const int status = runRenderer(description);
  std::remove(description.c_str());
  return status;
}

}  // namespace nsdyn::cli
