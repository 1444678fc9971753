// Outputs of rigid-body scenes: three dynamic bodies (sphere, box, capsule), a
// static plane and a static wall, two contacts filled by hand, three frames.
// The .vtp/.pvd files are parsed back and the HDF5 datasets read back; values
// must match to 1e-12, and failures must be nsdyn::Error naming the path.
#include <cppunit/extensions/HelperMacros.h>
#include <hdf5.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/BoxShape.hpp"
#include "nsdyn/CapsuleShape.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/Quaternion.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/io/SceneHdf5Writer.hpp"
#include "nsdyn/io/SceneVtkWriter.hpp"

namespace fs = std::filesystem;
using nsdyn::BodyShapes;
using nsdyn::ContactSet;
using nsdyn::ShapeInstance;
using Vec3 = nsdyn::Shape::Vec3;

namespace {

constexpr double kTol = 1e-12;
constexpr double kH = 0.01;
constexpr double kPi = 3.14159265358979323846;

std::string scratch(const std::string& name) {
  const fs::path dir = fs::path(NSDYN_BINARY_DIR) / "Tests" / "IO" / "scene" /
                       ("scratch-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  CPPUNIT_ASSERT_MESSAGE(path, in.good());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The value of attribute @p attr in the first tag starting at or after @p from.
std::string attribute(const std::string& text, const std::string& attr, std::size_t from = 0) {
  const std::size_t at = text.find(" " + attr + "=\"", from);
  CPPUNIT_ASSERT_MESSAGE(attr, at != std::string::npos);
  const std::size_t start = at + attr.size() + 3;
  return text.substr(start, text.find('"', start) - start);
}

std::vector<double> numbersUntilClose(const std::string& text, std::size_t from) {
  const std::size_t begin = text.find('>', from) + 1;
  const std::size_t end = text.find("</DataArray>", begin);
  std::istringstream in(text.substr(begin, end - begin));
  std::vector<double> values;
  double v;
  while (in >> v) values.push_back(v);
  return values;
}

// A parsed .vtp file: number of points, points, named point-data arrays.
struct Vtp {
  std::string text;
  std::size_t points = 0;
  std::vector<double> coordinates;
  std::vector<double> array(const std::string& name, std::size_t components) const {
    const std::size_t at = text.find("Name=\"" + name + "\"");
    CPPUNIT_ASSERT_MESSAGE("array " + name, at != std::string::npos);
    const std::size_t tag = text.rfind("<DataArray", at);
    if (components > 1)
      CPPUNIT_ASSERT_EQUAL(std::to_string(components), attribute(text, "NumberOfComponents", tag));
    std::vector<double> values = numbersUntilClose(text, at);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(name, points * components, values.size());
    return values;
  }
};

Vtp readVtp(const std::string& path) {
  Vtp v;
  v.text = slurp(path);
  CPPUNIT_ASSERT(v.text.find("<VTKFile type=\"PolyData\"") != std::string::npos);
  CPPUNIT_ASSERT(v.text.find("</VTKFile>") != std::string::npos);
  v.points = std::stoul(attribute(v.text, "NumberOfPoints"));
  CPPUNIT_ASSERT_EQUAL(std::to_string(v.points), attribute(v.text, "NumberOfVerts"));
  v.coordinates = numbersUntilClose(v.text, v.text.find("<DataArray", v.text.find("<Points>")));
  CPPUNIT_ASSERT_EQUAL(3 * v.points, v.coordinates.size());
  return v;
}

void assertNear(const std::string& what, const std::vector<double>& expected,
                const std::vector<double>& found) {
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what, expected.size(), found.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + "[" + std::to_string(i) + "]", expected[i],
                                         found[i], kTol);
}

// The scene: 0 sphere, 1 plane (static), 2 box (rotated 90° about z), 3 wall (static box), 4
// capsule.
struct Scene {
  std::vector<BodyShapes> bodies;
  ContactSet contacts;
  nsdyn::Shape::Quat boxQ = nsdyn::quaternion::fromAxisAngle({0.0, 0.0, 1.0}, 0.5 * kPi);

  Scene() {
    auto sphere = std::make_shared<nsdyn::SphereShape>(0.5);
    auto box = std::make_shared<nsdyn::BoxShape>(Vec3{0.5, 0.25, 0.1});
    auto capsule = std::make_shared<nsdyn::CapsuleShape>(0.2, 0.3);
    auto plane = std::make_shared<nsdyn::HalfSpaceShape>(Vec3{0.0, 0.0, 1.0}, 0.0);
    auto wall = std::make_shared<nsdyn::BoxShape>(Vec3{0.1, 2.0, 1.0});
    bodies.push_back(nsdyn::makeBody({ShapeInstance{sphere}}, 1000.0, {0.0, 0.0, 0.5},
                                     {1.0, 0.0, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0, 0.0, 2.0}));
    bodies.push_back(nsdyn::makeStaticBody({ShapeInstance{plane}}));
    // body angular velocity (1, 0, 0): world (0, 1, 0) after the rotation about z
    bodies.push_back(nsdyn::makeBody({ShapeInstance{box}}, 500.0, {1.5, 0.0, 0.1}, boxQ,
                                     {0.0, -0.5, 0.0, 1.0, 0.0, 0.0}));
    bodies.push_back(nsdyn::makeStaticBody({ShapeInstance{wall}}, {2.1, 0.0, 1.0}));
    bodies.push_back(nsdyn::makeBody({ShapeInstance{capsule}}, 800.0, {-2.0, 1.0, 0.6}));

    contacts.resize(2);
    // contact 0: sphere (A) on the plane (B), n = +z: t1 = (1,0,0), t2 = (0,1,0)
    set(0, 0, 1, {0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, -1e-3},
        -1e-3, 0.5, {0.2, 0.05, -0.01}, {0.0, 0.1, -0.2});
    // contact 1: box (A) against the wall (B), n = −x: t1 = (0,0,1), t2 = (0,1,0)
    set(1, 2, 3, {-1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0}, {1.6, 0.2, 0.1}, {2.0, 0.2, 0.1},
        0.4, 0.3, {0.7, -0.1, 0.3}, {0.01, 0.0, 0.0});
  }

  void set(std::size_t c, int a, int b, const std::vector<double>& frame, const Vec3& pA,
           const Vec3& pB, double gap, double mu, const Vec3& impulse, const Vec3& u) {
    contacts.key[c] = c;
    contacts.bodyA[c] = a;
    contacts.bodyB[c] = b;
    for (std::size_t k = 0; k < 9; ++k) contacts.frame[9 * c + k] = frame[k];
    for (std::size_t k = 0; k < 3; ++k) {
      contacts.pointA[3 * c + k] = pA[k];
      contacts.pointB[3 * c + k] = pB[k];
      contacts.impulse[3 * c + k] = impulse[k];
      contacts.velocity[3 * c + k] = u[k];
    }
    contacts.gap[c] = gap;
    contacts.mu[c] = mu;
    contacts.active[c] = 1;
  }

  // Frame k: positions and velocities moved, impulses scaled; contact 1 inactive at k = 1.
  void advance(int k) {
    for (std::size_t b : {0u, 2u, 4u}) {
      nsdyn::NewtonEulerDS& ds = *bodies[b].body();
      ds.qMutable()(2) += 0.01 * k;
      ds.velocityMutable()(0) += 0.25 * k;
    }
    for (double& l : contacts.impulse) l *= 1.0 + 0.5 * k;
    contacts.active[1] = k == 1 ? 0 : 1;
  }

  // Force on A of contact c, world, (λn n + λt1 t1 + λt2 t2) / h.
  std::vector<double> force(std::size_t c) const {
    std::vector<double> f(3);
    for (std::size_t k = 0; k < 3; ++k)
      f[k] = (contacts.impulse[3 * c] * contacts.frame[9 * c + k] +
              contacts.impulse[3 * c + 1] * contacts.frame[9 * c + 3 + k] +
              contacts.impulse[3 * c + 2] * contacts.frame[9 * c + 6 + k]) /
             kH;
    return f;
  }
};

bool fileContains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

class SceneOutputsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SceneOutputsTest);
  CPPUNIT_TEST(vtkFrames);
  CPPUNIT_TEST(hdf5Datasets);
  CPPUNIT_TEST(bodyIds);
  CPPUNIT_TEST(errors);
  CPPUNIT_TEST_SUITE_END();

 public:
  void vtkFrames() {
    const std::string dir = scratch("vtk") + "/frames";  // created by the writer
    Scene scene;
    nsdyn::io::SceneVtkWriter writer(dir, "scene");
    for (int k = 0; k < 3; ++k) {
      scene.advance(k);
      writer.writeFrame(k * kH, kH, scene.bodies, scene.contacts);
      CPPUNIT_ASSERT_EQUAL(static_cast<std::size_t>(k + 1), writer.frameCount());

      // bodies: the plane is left out
      const Vtp b = readVtp(dir + "/scene_bodies_00000" + std::to_string(k) + ".vtp");
      CPPUNIT_ASSERT_EQUAL(std::size_t{4}, b.points);
      assertNear("body", {0, 2, 3, 4}, b.array("body", 1));
      std::vector<double> x, v, w;
      for (std::size_t i : {0u, 2u, 3u, 4u}) {
        const Vec3 p = scene.bodies[i].position();
        x.insert(x.end(), p.begin(), p.end());
        if (scene.bodies[i].isStatic()) {
          v.insert(v.end(), {0.0, 0.0, 0.0});
          w.insert(w.end(), {0.0, 0.0, 0.0});
        } else {
          const nsdyn::NewtonEulerDS& ds = *scene.bodies[i].body();
          const nsdyn::SiconosVector ww = ds.angularVelocityWorld();
          v.insert(v.end(), {ds.velocity()(0), ds.velocity()(1), ds.velocity()(2)});
          w.insert(w.end(), {ww(0), ww(1), ww(2)});
        }
      }
      assertNear("points", x, b.coordinates);
      assertNear("velocity", v, b.array("velocity", 3));
      assertNear("angular_velocity", w, b.array("angular_velocity", 3));
      // the box: world angular velocity R (1,0,0) = (0,1,0); the sphere: (0,0,2)
      assertNear("box angular velocity", {0.0, 1.0, 0.0}, {w[3], w[4], w[5]});
      assertNear("sphere angular velocity", {0.0, 0.0, 2.0}, {w[0], w[1], w[2]});
      assertNear("velocity of the sphere", {1.0 + 0.25 * (k * (k + 1) / 2), 0.0, 0.0},
                 {v[0], v[1], v[2]});
      const nsdyn::Shape::Quat& q = scene.boxQ;
      assertNear("orientation", {1, 0, 0, 0, q[0], q[1], q[2], q[3], 1, 0, 0, 0, 1, 0, 0, 0},
                 b.array("orientation", 4));
      assertNear("shape_kind", {0, 1, 1, 2}, b.array("shape_kind", 1));
      assertNear("half_extents", {0.5, 0.5, 0.5, 0.5, 0.25, 0.1, 0.1, 2.0, 1.0, 0.2, 0.2, 0.5},
                 b.array("half_extents", 3));
      assertNear("radius", {0.5, 0.0, 0.0, 0.2}, b.array("radius", 1));
      assertNear("half_length", {0.0, 0.0, 0.0, 0.3}, b.array("half_length", 1));
      const std::vector<double> size = b.array("shape_size", 1);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, size[0], kTol);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(scene.bodies[2].shapes()[0].shape->characteristicSize(), size[1],
                                   kTol);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, size[3], kTol);
      // glyph tensor of the box, column-major: columns R e_j · 2 half_extents_j
      const std::vector<double> tensor = b.array("glyph_tensor", 9);
      assertNear("box glyph tensor", {0.0, 1.0, 0.0, -0.5, 0.0, 0.0, 0.0, 0.0, 0.2},
                 std::vector<double>(tensor.begin() + 9, tensor.begin() + 18));
      assertNear("sphere glyph tensor", {1, 0, 0, 0, 1, 0, 0, 0, 1},
                 std::vector<double>(tensor.begin(), tensor.begin() + 9));

      // contacts: the active ones, at the midpoints
      const Vtp c = readVtp(dir + "/scene_contacts_00000" + std::to_string(k) + ".vtp");
      const std::vector<std::size_t> active =
          k == 1 ? std::vector<std::size_t>{0} : std::vector<std::size_t>{0, 1};
      CPPUNIT_ASSERT_EQUAL(active.size(), c.points);
      std::vector<double> mid, normal, force, normalForce, gap, idA, idB;
      const ContactSet& cs = scene.contacts;
      for (std::size_t a : active) {
        for (std::size_t j = 0; j < 3; ++j) {
          mid.push_back(0.5 * (cs.pointA[3 * a + j] + cs.pointB[3 * a + j]));
          normal.push_back(cs.frame[9 * a + j]);
        }
        const std::vector<double> f = scene.force(a);
        force.insert(force.end(), f.begin(), f.end());
        normalForce.push_back(cs.impulse[3 * a] / kH);
        gap.push_back(cs.gap[a]);
        idA.push_back(cs.bodyA[a]);
        idB.push_back(cs.bodyB[a]);
      }
      assertNear("contact points", mid, c.coordinates);
      assertNear("normal", normal, c.array("normal", 3));
      assertNear("force", force, c.array("force", 3));
      assertNear("normal_force", normalForce, c.array("normal_force", 1));
      assertNear("gap", gap, c.array("gap", 1));
      assertNear("bodyA", idA, c.array("bodyA", 1));
      assertNear("bodyB", idB, c.array("bodyB", 1));
      if (k == 0) {
        // sphere on the plane, by hand: λ = (0.2, 0.05, −0.01) → f = (5, −1, 20)
        assertNear("force by hand", {5.0, -1.0, 20.0}, {force[0], force[1], force[2]});
        // box on the wall: λ = (0.7, −0.1, 0.3), n = −x, t1 = z, t2 = y → f = (−70, 30, −10)
        assertNear("force by hand", {-70.0, 30.0, -10.0}, {force[3], force[4], force[5]});
      }
    }
    const std::vector<std::string> pvds = writer.finish();
    CPPUNIT_ASSERT_EQUAL(std::size_t{2}, pvds.size());
    CPPUNIT_ASSERT_EQUAL(dir + "/scene_bodies.pvd", pvds[0]);
    CPPUNIT_ASSERT_EQUAL(dir + "/scene_contacts.pvd", pvds[1]);
    for (const std::string& kind : {std::string("bodies"), std::string("contacts")}) {
      const std::string pvd = slurp(dir + "/scene_" + kind + ".pvd");
      CPPUNIT_ASSERT(fileContains(pvd, "<VTKFile type=\"Collection\""));
      std::size_t at = 0;
      for (int k = 0; k < 3; ++k) {
        at = pvd.find("<DataSet", at);
        CPPUNIT_ASSERT(at != std::string::npos);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(k * kH, std::stod(attribute(pvd, "timestep", at)), 0.0);
        const std::string file = attribute(pvd, "file", at);
        CPPUNIT_ASSERT_EQUAL("scene_" + kind + "_00000" + std::to_string(k) + ".vtp", file);
        CPPUNIT_ASSERT(fs::exists(dir + "/" + file));
        ++at;
      }
      CPPUNIT_ASSERT(pvd.find("<DataSet", at) == std::string::npos);
    }
    // every file reported exists, no temporary file is left
    CPPUNIT_ASSERT_EQUAL(std::size_t{8}, writer.files().size());
    for (const std::string& f : writer.files()) CPPUNIT_ASSERT_MESSAGE(f, fs::exists(f));
    std::size_t count = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
      CPPUNIT_ASSERT_MESSAGE(e.path().string(), e.path().extension() != ".part");
      ++count;
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t{8}, count);
  }

  void hdf5Datasets() {
    const std::string path = scratch("hdf5") + "/scene.hdf5";
    Scene scene;
    std::vector<std::vector<double>> expectedDynamic, expectedVelocities, expectedCf;
    {
      nsdyn::io::SceneHdf5Writer writer(path, kH);
      for (int k = 0; k < 3; ++k) {
        scene.advance(k);
        const double t = (k + 1) * kH;
        writer.writeStep(t, scene.bodies, scene.contacts);
        writer.writeSolver(t, 10 + k, 1e-9 * (k + 1), 0.0);
        writer.writeEnergy(t, 1.0 + k, 2.0 - k, -0.1 * k, 3.0 - 0.1 * k);
        const int ids[] = {1, 0, 2, 0, 3};
        for (std::size_t b : {0u, 2u, 4u}) {
          const nsdyn::NewtonEulerDS& ds = *scene.bodies[b].body();
          const Vec3 x = scene.bodies[b].position();
          const nsdyn::Shape::Quat q = scene.bodies[b].orientation();
          const nsdyn::SiconosVector w = ds.angularVelocityWorld();
          const double id = ids[b];
          expectedDynamic.push_back({t, id, x[0], x[1], x[2], q[0], q[1], q[2], q[3]});
          expectedVelocities.push_back(
              {t, id, ds.velocity()(0), ds.velocity()(1), ds.velocity()(2), w(0), w(1), w(2)});
        }
        const ContactSet& cs = scene.contacts;
        const double idA[] = {1, 2}, idB[] = {-1, -2};
        for (std::size_t c = 0; c < 2; ++c) {
          if (!cs.active[c]) continue;
          const std::vector<double> f = scene.force(c);
          expectedCf.push_back({t,
                                cs.mu[c],
                                cs.pointA[3 * c],
                                cs.pointA[3 * c + 1],
                                cs.pointA[3 * c + 2],
                                cs.pointB[3 * c],
                                cs.pointB[3 * c + 1],
                                cs.pointB[3 * c + 2],
                                cs.frame[9 * c],
                                cs.frame[9 * c + 1],
                                cs.frame[9 * c + 2],
                                f[0],
                                f[1],
                                f[2],
                                cs.gap[c],
                                0.0,
                                0.0,
                                cs.velocity[3 * c],
                                cs.velocity[3 * c + 1],
                                cs.velocity[3 * c + 2],
                                cs.impulse[3 * c],
                                cs.impulse[3 * c + 1],
                                cs.impulse[3 * c + 2],
                                static_cast<double>(c),
                                idA[c],
                                idB[c]});
        }
      }
      CPPUNIT_ASSERT_EQUAL(std::size_t{5}, writer.rows("cf"));
      writer.close();
    }
    using nsdyn::io::readSceneHdf5Dataset;
    auto check = [&](const std::string& name, const std::vector<std::vector<double>>& expected) {
      const auto rows = readSceneHdf5Dataset(path, name);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(name, expected.size(), rows.size());
      for (std::size_t r = 0; r < rows.size(); ++r)
        assertNear(name + " row " + std::to_string(r), expected[r], rows[r]);
    };
    CPPUNIT_ASSERT_EQUAL(std::size_t{9}, expectedDynamic.size());
    check("data/dynamic", expectedDynamic);
    check("data/velocities", expectedVelocities);
    CPPUNIT_ASSERT_EQUAL(std::size_t{5}, expectedCf.size());
    check("data/cf", expectedCf);
    check("data/static", {{0.0, -1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0},
                          {0.0, -2.0, 2.1, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0}});
    check("data/solv", {{0.01, 10, 1e-9, 0}, {0.02, 11, 2e-9, 0}, {0.03, 12, 3e-9, 0}});
    check("data/energy", {{0.01, 1, 2, 0, 3}, {0.02, 2, 1, -0.1, 2.9}, {0.03, 3, 0, -0.2, 2.8}});
    // the sphere's row at the first step, by hand
    const auto dyn = readSceneHdf5Dataset(path, "data/dynamic");
    assertNear("sphere at t = h", {0.01, 1, 0, 0, 0.5, 1, 0, 0, 0}, dyn[0]);
    CPPUNIT_ASSERT_EQUAL(std::size_t{26}, readSceneHdf5Dataset(path, "data/cf")[0].size());

    // attributes
    hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    CPPUNIT_ASSERT(file >= 0);
    double h = 0.0;
    hid_t attr = H5Aopen(file, "h", H5P_DEFAULT);
    CPPUNIT_ASSERT(attr >= 0 && H5Aread(attr, H5T_NATIVE_DOUBLE, &h) >= 0);
    H5Aclose(attr);
    CPPUNIT_ASSERT_EQUAL(kH, h);
    const char* counts[] = {"number_of_bodies", "number_of_dynamic_bodies",
                            "number_of_static_bodies"};
    const long long expected[] = {5, 3, 2};
    for (int i = 0; i < 3; ++i) {
      long long n = 0;
      attr = H5Aopen(file, counts[i], H5P_DEFAULT);
      CPPUNIT_ASSERT(attr >= 0 && H5Aread(attr, H5T_NATIVE_LLONG, &n) >= 0);
      H5Aclose(attr);
      CPPUNIT_ASSERT_EQUAL(expected[i], n);
    }
    attr = H5Aopen(file, "format", H5P_DEFAULT);
    CPPUNIT_ASSERT(attr >= 0);
    hid_t type = H5Aget_type(attr);
    std::string format(H5Tget_size(type), '\0');
    CPPUNIT_ASSERT(H5Aread(attr, type, &format[0]) >= 0);
    H5Tclose(type);
    H5Aclose(attr);
    H5Fclose(file);
    CPPUNIT_ASSERT_EQUAL(std::string(nsdyn::io::SceneHdf5Writer::kFormat), format);

    CPPUNIT_ASSERT_THROW(readSceneHdf5Dataset(path, "data/nothing"), nsdyn::Error);
    CPPUNIT_ASSERT_THROW(readSceneHdf5Dataset(path + ".missing", "data/cf"), nsdyn::Error);
  }

  void bodyIds() {
    Scene scene;
    using W = nsdyn::io::SceneHdf5Writer;
    const int expected[] = {1, -1, 2, -2, 3};
    for (std::size_t b = 0; b < 5; ++b)
      CPPUNIT_ASSERT_EQUAL(expected[b], W::bodyId(scene.bodies, b));
    CPPUNIT_ASSERT_THROW(W::bodyId(scene.bodies, 5), nsdyn::Error);
  }

  void errors() {
    const std::string dir = scratch("errors");
    const std::string blocker = dir + "/a-file";
    std::ofstream(blocker) << "not a directory\n";
    auto message = [](auto&& f) {
      try {
        f();
      } catch (const nsdyn::Error& e) {
        return std::string(e.what());
      }
      return std::string();
    };
    const std::string vtk =
        message([&] { nsdyn::io::SceneVtkWriter w(blocker + "/out", "scene"); });
    CPPUNIT_ASSERT_MESSAGE(vtk, fileContains(vtk, blocker));
    const std::string h5 =
        message([&] { nsdyn::io::SceneHdf5Writer w(blocker + "/scene.hdf5", kH); });
    CPPUNIT_ASSERT_MESSAGE(h5, fileContains(h5, blocker + "/scene.hdf5"));
    CPPUNIT_ASSERT_THROW(nsdyn::io::SceneHdf5Writer(dir + "/x.hdf5", 0.0), nsdyn::Error);

    // a directory that disappears: the frame is not written nor reported
    Scene scene;
    const std::string gone = dir + "/gone";
    nsdyn::io::SceneVtkWriter writer(gone, "scene");
    fs::remove_all(gone);
    std::ofstream(gone) << "now a file\n";
    const std::string frame =
        message([&] { writer.writeFrame(0.0, kH, scene.bodies, scene.contacts); });
    CPPUNIT_ASSERT_MESSAGE(frame, fileContains(frame, gone + "/scene_bodies_000000.vtp"));
    CPPUNIT_ASSERT(writer.files().empty());
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, writer.frameCount());

    // bad contact data: nothing written
    nsdyn::io::SceneVtkWriter ok(dir + "/ok", "scene");
    scene.contacts.bodyB[1] = 7;
    CPPUNIT_ASSERT_THROW(ok.writeFrame(0.0, kH, scene.bodies, scene.contacts), nsdyn::Error);
    CPPUNIT_ASSERT_THROW(ok.writeFrame(0.0, -1.0, scene.bodies, scene.contacts), nsdyn::Error);
    scene.contacts.bodyB[1] = 3;
    scene.contacts.gap.pop_back();
    CPPUNIT_ASSERT_THROW(ok.writeFrame(0.0, kH, scene.bodies, scene.contacts), nsdyn::Error);
    CPPUNIT_ASSERT(ok.files().empty());
    CPPUNIT_ASSERT(fs::is_empty(dir + "/ok"));
    {
      nsdyn::io::SceneHdf5Writer w(dir + "/bad.hdf5", kH);
      CPPUNIT_ASSERT_THROW(w.writeStep(0.0, scene.bodies, scene.contacts), nsdyn::Error);
      scene.contacts.gap.push_back(0.4);
      w.writeStep(0.0, scene.bodies, scene.contacts);
      std::vector<BodyShapes> fewer(scene.bodies.begin(), scene.bodies.end() - 1);
      scene.contacts.resize(0);
      CPPUNIT_ASSERT_THROW(w.writeStep(kH, fewer, scene.contacts), nsdyn::Error);
      CPPUNIT_ASSERT_EQUAL(std::size_t{3}, w.rows("dynamic"));
      w.close();
      CPPUNIT_ASSERT_THROW(w.writeSolver(0.0, 1, 0.0), nsdyn::Error);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SceneOutputsTest);
