// The scene HDF5 file carries what Siconos's mechanics tools read (IO/src/SceneHdf5Siconos.cpp):
// shapes in data/ref (primitives with Siconos's parameters, convex vertex lists, a Box for a
// half-space), objects and contactors in data/input (ids, kind, mass, pose, offsets turned for
// Siconos's y-axis cylinders and capsules), the friction laws in data/nslaws, and the time
// series as before. siconos_tools_check.py runs Siconos's own tools on the same scene.
#include <cppunit/extensions/HelperMacros.h>
#include <hdf5.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "SiconosScene.hpp"

namespace fs = std::filesystem;

namespace {

constexpr int kSteps = 60;

struct File {
  hid_t id;
  explicit File(const std::string& path) : id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT)) {
    CPPUNIT_ASSERT_MESSAGE("opened " + path, id >= 0);
  }
  ~File() { H5Fclose(id); }
  bool has(const std::string& object) const {
    return H5Lexists(id, object.c_str(), H5P_DEFAULT) > 0;
  }
  // the attribute @p name of @p object as doubles
  std::vector<double> numbers(const std::string& object, const char* name) const {
    hid_t a = H5Aopen_by_name(id, object.c_str(), name, H5P_DEFAULT, H5P_DEFAULT);
    CPPUNIT_ASSERT_MESSAGE(object + " attribute " + name, a >= 0);
    hid_t space = H5Aget_space(a);
    std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    H5Aread(a, H5T_NATIVE_DOUBLE, v.data());
    H5Sclose(space);
    H5Aclose(a);
    return v;
  }
  double number(const std::string& object, const char* name) const {
    const std::vector<double> v = numbers(object, name);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), v.size());
    return v[0];
  }
  // a variable-length string attribute (what h5py reads as a str)
  std::string text(const std::string& object, const char* name) const {
    hid_t a = H5Aopen_by_name(id, object.c_str(), name, H5P_DEFAULT, H5P_DEFAULT);
    CPPUNIT_ASSERT_MESSAGE(object + " attribute " + name, a >= 0);
    hid_t type = H5Aget_type(a);
    CPPUNIT_ASSERT_MESSAGE(object + " " + name + " variable-length", H5Tis_variable_str(type) > 0);
    char* s = nullptr;
    H5Aread(a, type, &s);
    std::string out = s ? s : "";
    H5free_memory(s);
    H5Tclose(type);
    H5Aclose(a);
    return out;
  }
  // the values of the dataset @p object
  std::vector<double> data(const std::string& object) const {
    hid_t d = H5Dopen2(id, object.c_str(), H5P_DEFAULT);
    CPPUNIT_ASSERT_MESSAGE(object, d >= 0);
    hid_t space = H5Dget_space(d);
    std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    if (!v.empty()) H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    H5Sclose(space);
    H5Dclose(d);
    return v;
  }
  // the names in group @p group
  std::vector<std::string> children(const std::string& group) const {
    hid_t g = H5Gopen2(id, group.c_str(), H5P_DEFAULT);
    CPPUNIT_ASSERT_MESSAGE(group, g >= 0);
    H5G_info_t info;
    H5Gget_info(g, &info);
    std::vector<std::string> names;
    for (hsize_t k = 0; k < info.nlinks; ++k) {
      char name[256];
      H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, k, name, sizeof name, H5P_DEFAULT);
      names.emplace_back(name);
    }
    H5Gclose(g);
    return names;
  }
};

void near(const std::string& what, const std::vector<double>& expected,
          const std::vector<double>& actual, double tol = 1e-12) {
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what, expected.size(), actual.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + "[" + std::to_string(i) + "]", expected[i],
                                         actual[i], tol);
}

}  // namespace

class SiconosLayoutTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SiconosLayoutTest);
  CPPUNIT_TEST(groupsAndObjects);
  CPPUNIT_TEST(shapesAndContactors);
  CPPUNIT_TEST(lawsAndSeries);
  CPPUNIT_TEST_SUITE_END();

  std::string dir_, path_;

 public:
  void setUp() override {
    dir_ = (fs::path(NSDYN_BINARY_DIR) / "Tests" / "IO" / "scene" /
            ("scratch-siconos-" + std::to_string(::getpid())))
               .string();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    path_ = dir_ + "/scene.hdf5";
    siconos_scene::write(path_, kSteps);
  }
  void tearDown() override { fs::remove_all(dir_); }

  // the groups Siconos's MechanicsHdf5 opens; one object per body with its id, kind, mass
  void groupsAndObjects() {
    File f(path_);
    for (const char* g : {"data/ref", "data/input", "data/nslaws", "data/log"})
      CPPUNIT_ASSERT_MESSAGE(g, f.has(g));
    const std::vector<std::string> objects = f.children("data/input");
    CPPUNIT_ASSERT_EQUAL(std::size_t(7), objects.size());
    const auto engine = siconos_scene::build();
    const nsdyn::BodyStore& s = engine->bodies();
    const int ids[7] = {-1, -2, 1, 2, 3, 4, 5};
    for (std::size_t b = 0; b < 7; ++b) {
      const std::string o = "data/input/body" + std::to_string(b);
      CPPUNIT_ASSERT_MESSAGE(o, f.has(o));
      CPPUNIT_ASSERT_EQUAL_MESSAGE(o, double(ids[b]), f.number(o, "id"));
      CPPUNIT_ASSERT_EQUAL(std::string(b < 2 ? "static" : "dynamic"), f.text(o, "type"));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(b < 2 ? 0.0 : s.mass[b], f.number(o, "mass"), 1e-15);
      near(o + " translation", {s.q[7 * b], s.q[7 * b + 1], s.q[7 * b + 2]},
           f.numbers(o, "translation"));
      near(o + " orientation", {s.q[7 * b + 3], s.q[7 * b + 4], s.q[7 * b + 5], s.q[7 * b + 6]},
           f.numbers(o, "orientation"));
      near(o + " center_of_mass", {0, 0, 0}, f.numbers(o, "center_of_mass"));
      if (b >= 2)
        near(o + " inertia", std::vector<double>(&s.inertia[9 * b], &s.inertia[9 * b + 9]),
             f.numbers(o, "inertia"));
    }
    // the sphere's mass: 1000 kg/m³ × 4/3 π 0.05³
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1000.0 * 4.0 / 3.0 * M_PI * 0.000125,
                                 f.number("data/input/body2", "mass"), 1e-12);
  }

  // each contactor names a shape of data/ref with Siconos's parameters and its offset
  void shapesAndContactors() {
    File f(path_);
    const auto contactor = [&](int b) {
      const std::string o = "data/input/body" + std::to_string(b);
      const std::vector<std::string> c = f.children(o);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(o, std::size_t(1), c.size());
      const std::string path = o + "/" + c[0];
      const std::string shape = "data/ref/" + f.text(path, "shape_name");
      CPPUNIT_ASSERT_MESSAGE(shape, f.has(shape));
      CPPUNIT_ASSERT_EQUAL(c[0], f.text(path, "instance_name"));
      return std::make_pair(path, shape);
    };
    const auto primitive = [&](int b, const std::string& name, const std::vector<double>& params) {
      const auto [c, shape] = contactor(b);
      CPPUNIT_ASSERT_EQUAL(std::string("primitive"), f.text(shape, "type"));
      CPPUNIT_ASSERT_EQUAL(name, f.text(shape, "primitive"));
      near(shape, params, f.data(shape));
      return c;
    };
    const double s = std::sqrt(0.5);
    // sphere: radius; box: full lengths, no offset
    near("sphere offset", {0, 0, 0}, f.numbers(primitive(2, "Sphere", {0.05}), "translation"));
    near("box turn", {1, 0, 0, 0},
         f.numbers(primitive(3, "Box", {0.1, 0.06, 0.04}), "orientation"));
    primitive(1, "Box", {0.04, 0.6, 0.2});  // the static wall
    // capsule: radius, segment length; its offset turned by +90° about x (y onto our z)
    const std::string cap = primitive(4, "Capsule", {0.02, 0.1});
    near("capsule offset (about its centre of mass)", {0, 0, 0}, f.numbers(cap, "translation"));
    const Quat turn = nsdyn::quaternion::multiply(nsdyn::quaternion::fromAxisAngle({0, 1, 0}, 0.3),
                                                  Quat{s, s, 0, 0});
    near("capsule turn", {turn[0], turn[1], turn[2], turn[3]}, f.numbers(cap, "orientation"));
    near("cylinder turn", {s, s, 0, 0},
         f.numbers(primitive(5, "Cylinder", {0.03, 0.08}), "orientation"));
    // convex hull: its vertices, 4 × 3
    const auto [hull, hullShape] = contactor(6);
    CPPUNIT_ASSERT_EQUAL(std::string("convex"), f.text(hullShape, "type"));
    near("hull vertices", {0.04, 0, 0, -0.03, 0.03, 0, -0.03, -0.03, 0, 0, 0, 0.05},
         f.data(hullShape));
    // floor: a Box of the scene's size, its top face on z = 0, under the scene's centre
    const auto [floor, floorShape] = contactor(0);
    CPPUNIT_ASSERT_EQUAL(std::string("Box"), f.text(floorShape, "primitive"));
    const std::vector<double> size = f.data(floorShape);
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), size.size());
    CPPUNIT_ASSERT(size[0] > 1.0 && size[0] < 3.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.02 * size[0], size[2], 1e-15);
    const std::vector<double> at = f.numbers(floor, "translation");
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.5 * size[2], at[2], 1e-15);
    near("floor turn", {1, 0, 0, 0}, f.numbers(floor, "orientation"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(7), f.children("data/ref").size());
  }

  // one friction law per μ met in the contacts; the time series as before
  void lawsAndSeries() {
    File f(path_);
    const std::vector<std::string> laws = f.children("data/nslaws");
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), laws.size());
    const std::string law = "data/nslaws/" + laws[0];
    CPPUNIT_ASSERT_EQUAL(std::string("NewtonImpactFrictionNSL"), f.text(law, "type"));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.4, f.number(law, "mu"), 0.0);
    CPPUNIT_ASSERT_EQUAL(std::size_t(5 * 9 * (kSteps + 1)), f.data("data/dynamic").size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2 * 9), f.data("data/static").size());
    CPPUNIT_ASSERT(!nsdyn::io::readSceneHdf5Dataset(path_, "data/cf").empty());
  }

 private:
  using Quat = siconos_scene::Quat;
};

CPPUNIT_TEST_SUITE_REGISTRATION(SiconosLayoutTest);
