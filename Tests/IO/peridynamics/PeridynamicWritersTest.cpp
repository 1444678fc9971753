// Outputs of peridynamic bodies: the VTK frames of a small body parsed back (point count,
// arrays, values, the stress in ParaView's order, the .pvd), the HDF5 datasets read back
// equal to the body's arrays, nothing under a final name on failure, bad input refused.
#include <cppunit/extensions/HelperMacros.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <pugixml.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "nsdyn/Error.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"
#include "nsdyn/io/PeridynamicHdf5Writer.hpp"
#include "nsdyn/io/PeridynamicVtkWriter.hpp"

#include "pd_scratch.hpp"

namespace fs = std::filesystem;
using nsdyn::PeridynamicBody;

namespace {

// A material whose stress is known: point i has σ = (i + 1) × (1, 2, 3, 4, 5, 6) in the
// material's order (xx yy zz yz xz xy); no forces (the writers read the stress only).
class StubMaterial : public nsdyn::PeridynamicMaterial {
 public:
  StubMaterial() : PeridynamicMaterial(nsdyn::PeridynamicElasticity{1e6, 0.25}) {}
  std::string kind() const override { return "stub"; }
  void check(const PeridynamicBody&) const override {}
  void prepare(PeridynamicBody&) const override {}
  double energy(const PeridynamicBody&, const double*) const override { return 0.0; }
  double forces(const PeridynamicBody& b, const double*, double* f) const override {
    for (std::size_t k = 0; k < 3 * b.size(); ++k) f[k] = 0.0;
    return 0.0;
  }
  void implicitStiffness(const PeridynamicBody& b, const double*, double* a) const override {
    for (std::size_t k = 0; k < b.size(); ++k) a[k] = 0.0;
  }
  void tangent(const PeridynamicBody&, const double*, double*, double*) const override {}
  bool exactTangent() const override { return false; }
  void stress(const PeridynamicBody& b, const double*, double* s) const override {
    for (std::size_t i = 0; i < b.size(); ++i)
      for (std::size_t c = 0; c < 6; ++c) s[6 * i + c] = static_cast<double>((i + 1) * (c + 1));
  }
  double waveSpeed(double) const override { return 1.0; }
};

// A 3 × 2 × 2 lattice of spacing 0.1 (12 points), moved and with velocities set per point.
std::unique_ptr<PeridynamicBody> smallBody(const std::string& name = "block") {
  const double dx = 0.1;
  std::vector<double> X, V;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i) {
        X.insert(X.end(), {dx * i, dx * j, dx * k});
        V.push_back(dx * dx * dx);
      }
  nsdyn::PeridynamicBodyOptions o;
  o.name = name;
  o.spacing = dx;
  o.horizon = 0.3;
  o.density = 1000.0;
  auto body = std::make_unique<PeridynamicBody>(X, V, o, std::make_shared<const StubMaterial>());
  for (std::size_t i = 0; i < body->size(); ++i)
    for (std::size_t c = 0; c < 3; ++c) {
      body->x[3 * i + c] = body->X[3 * i + c] + 0.001 * static_cast<double>(i + c);
      body->v[3 * i + c] = 0.5 * static_cast<double>(i) - static_cast<double>(c);
    }
  body->prescribed[2] = 1;
  body->damage[5] = 0.25;
  return body;
}

using pd_io_test::scratch;

std::vector<double> numbers(const char* text) {
  std::istringstream in(text);
  std::vector<double> out;
  for (double x; in >> x;) out.push_back(x);
  return out;
}

pugi::xml_node arrayNamed(const pugi::xml_node& pointData, const std::string& name) {
  for (pugi::xml_node a : pointData.children("DataArray"))
    if (name == a.attribute("Name").value()) return a;
  return pugi::xml_node();
}

}  // namespace

class PeridynamicWritersTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PeridynamicWritersTest);
  CPPUNIT_TEST(vtkFramesParseBack);
  CPPUNIT_TEST(vtkRefusesAnotherBody);
  CPPUNIT_TEST(hdf5ReadsBack);
  CPPUNIT_TEST(hdf5RefusesAnotherBodyAndDiscards);
  CPPUNIT_TEST_SUITE_END();

 public:
  void vtkFramesParseBack() {
    const std::string dir = scratch("vtk");
    auto body = smallBody();
    nsdyn::io::PeridynamicVtkWriter writer(dir, "run_block");
    writer.writeFrame(0.0, *body);
    for (double& x : body->x) x += 0.01;
    writer.writeFrame(0.5, *body);
    const std::string pvd = writer.finish();
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), writer.frameCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), writer.files().size());
    for (const auto& e : fs::directory_iterator(dir))  // no .part left
      CPPUNIT_ASSERT_MESSAGE(e.path().string(), e.path().extension() != ".part");

    pugi::xml_document doc;
    CPPUNIT_ASSERT(doc.load_file((dir + "/run_block_000001.vtp").c_str()));
    pugi::xml_node piece = doc.child("VTKFile").child("PolyData").child("Piece");
    CPPUNIT_ASSERT_EQUAL(std::string("PolyData"),
                         std::string(doc.child("VTKFile").attribute("type").value()));
    CPPUNIT_ASSERT_EQUAL(12, piece.attribute("NumberOfPoints").as_int());
    CPPUNIT_ASSERT_EQUAL(12, piece.attribute("NumberOfVerts").as_int());
    const std::vector<double> points =
        numbers(piece.child("Points").child("DataArray").child_value());
    CPPUNIT_ASSERT_EQUAL(std::size_t(36), points.size());
    for (std::size_t k = 0; k < 36; ++k) CPPUNIT_ASSERT_EQUAL(body->x[k], points[k]);

    pugi::xml_node data = piece.child("PointData");
    const std::vector<std::pair<std::string, int>> arrays = {
        {"displacement", 3}, {"velocity", 3},   {"damage", 1}, {"stress", 6},
        {"von_mises", 1},    {"prescribed", 1}, {"volume", 1}, {"reference", 3}};
    for (const auto& [name, components] : arrays) {
      pugi::xml_node a = arrayNamed(data, name);
      CPPUNIT_ASSERT_MESSAGE(name, a);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(name, std::size_t(12 * components),
                                   numbers(a.child_value()).size());
    }
    const std::vector<double> u = numbers(arrayNamed(data, "displacement").child_value());
    const std::vector<double> v = numbers(arrayNamed(data, "velocity").child_value());
    for (std::size_t k = 0; k < 36; ++k) {
      CPPUNIT_ASSERT_EQUAL(body->x[k] - body->X[k], u[k]);
      CPPUNIT_ASSERT_EQUAL(body->v[k], v[k]);
    }
    CPPUNIT_ASSERT_EQUAL(0.25, numbers(arrayNamed(data, "damage").child_value())[5]);
    const std::vector<double> prescribed = numbers(arrayNamed(data, "prescribed").child_value());
    CPPUNIT_ASSERT_EQUAL(1.0, prescribed[2]);
    CPPUNIT_ASSERT_EQUAL(0.0, prescribed[3]);
    CPPUNIT_ASSERT_EQUAL(std::string("Int32"),
                         std::string(arrayNamed(data, "prescribed").attribute("type").value()));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1e-3, numbers(arrayNamed(data, "volume").child_value())[7], 1e-18);
    // stress of point 3: 4 × (1..6) in the material's order xx yy zz yz xz xy, written as
    // xx yy zz xy yz xz (ParaView's symmetric tensor)
    pugi::xml_node stress = arrayNamed(data, "stress");
    const std::vector<double> s = numbers(stress.child_value());
    const double expected[6] = {4, 8, 12, 24, 16, 20};
    for (std::size_t c = 0; c < 6; ++c) CPPUNIT_ASSERT_EQUAL(expected[c], s[18 + c]);
    CPPUNIT_ASSERT_EQUAL(std::string("XY"),
                         std::string(stress.attribute("ComponentName3").value()));
    // von Mises of (1, 2, 3, 4, 5, 6): √(½(1 + 1 + 4) + 3 (16 + 25 + 36)) = √234
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::sqrt(234.0),
                                 numbers(arrayNamed(data, "von_mises").child_value())[0], 1e-12);

    pugi::xml_document collection;
    CPPUNIT_ASSERT(collection.load_file(pvd.c_str()));
    std::vector<std::string> files;
    std::vector<double> times;
    for (pugi::xml_node d : collection.child("VTKFile").child("Collection").children("DataSet")) {
      files.emplace_back(d.attribute("file").value());
      times.push_back(d.attribute("timestep").as_double());
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), files.size());
    CPPUNIT_ASSERT_EQUAL(std::string("run_block_000000.vtp"), files[0]);
    CPPUNIT_ASSERT_EQUAL(0.5, times[1]);
    fs::remove_all(dir);
  }

  void vtkRefusesAnotherBody() {
    const std::string dir = scratch("vtk-bad");
    auto body = smallBody();
    CPPUNIT_ASSERT_THROW(nsdyn::io::PeridynamicVtkWriter(dir, "a/b"), nsdyn::Error);
    nsdyn::io::PeridynamicVtkWriter writer(dir, "w");
    writer.writeFrame(0.0, *body);
    std::vector<double> X(3 * 13, 0.0), V(13, 1e-3);
    for (std::size_t i = 0; i < 13; ++i) X[3 * i] = 0.1 * static_cast<double>(i);
    nsdyn::PeridynamicBodyOptions o;
    o.name = "other";
    o.spacing = 0.1;
    o.horizon = 0.3;
    o.density = 1.0;
    PeridynamicBody other(X, V, o, std::make_shared<const StubMaterial>());
    try {
      writer.writeFrame(0.1, other);
      CPPUNIT_FAIL("a body of another size was written");
    } catch (const nsdyn::Error& e) {
      const std::string what = e.what();
      CPPUNIT_ASSERT_MESSAGE(what, what.find("12 points") != std::string::npos &&
                                       what.find("13 points") != std::string::npos);
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), writer.frameCount());
    CPPUNIT_ASSERT(!fs::exists(dir + "/w_000001.vtp"));
    fs::remove_all(dir);
  }

  void hdf5ReadsBack() {
    const std::string dir = scratch("hdf5");
    const std::string path = dir + "/run_peridynamics.hdf5";
    auto a = smallBody("a");
    auto b = smallBody("b");
    std::vector<std::vector<double>> xs;
    {
      nsdyn::io::PeridynamicHdf5Writer writer(path);
      for (int k = 0; k < 3; ++k) {
        writer.writeStep(0.1 * k, {a.get(), b.get()});
        xs.push_back(a->x);
        for (double& x : a->x) x += 0.5;
        a->damage[1] = 0.1 * k;
      }
      CPPUNIT_ASSERT(fs::exists(path + ".part"));
      CPPUNIT_ASSERT(!fs::exists(path));
      writer.close();
    }
    CPPUNIT_ASSERT(!fs::exists(path + ".part"));
    std::vector<std::size_t> dims;
    const std::vector<double> t = nsdyn::io::readHdf5Doubles(path, "time", dims);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), dims.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), t.size());
    CPPUNIT_ASSERT_EQUAL(0.2, t[2]);
    const std::vector<double> X =
        nsdyn::io::readHdf5Doubles(path, "peridynamics/a/reference", dims);
    CPPUNIT_ASSERT(dims == std::vector<std::size_t>({12, 3}));
    CPPUNIT_ASSERT(X == a->X);
    const std::vector<double> vol = nsdyn::io::readHdf5Doubles(path, "peridynamics/b/volume", dims);
    CPPUNIT_ASSERT(vol == b->volume);
    const std::vector<double> pre =
        nsdyn::io::readHdf5Doubles(path, "peridynamics/a/prescribed", dims);
    CPPUNIT_ASSERT_EQUAL(1.0, pre[2]);
    const std::vector<double> pos =
        nsdyn::io::readHdf5Doubles(path, "peridynamics/a/positions", dims);
    CPPUNIT_ASSERT(dims == std::vector<std::size_t>({3, 12, 3}));
    for (std::size_t k = 0; k < 3; ++k)
      for (std::size_t j = 0; j < 36; ++j) CPPUNIT_ASSERT_EQUAL(xs[k][j], pos[36 * k + j]);
    const std::vector<double> vel =
        nsdyn::io::readHdf5Doubles(path, "peridynamics/b/velocities", dims);
    CPPUNIT_ASSERT(dims == std::vector<std::size_t>({3, 12, 3}));
    for (std::size_t j = 0; j < 36; ++j) CPPUNIT_ASSERT_EQUAL(b->v[j], vel[72 + j]);
    const std::vector<double> damage =
        nsdyn::io::readHdf5Doubles(path, "peridynamics/a/damage", dims);
    CPPUNIT_ASSERT(dims == std::vector<std::size_t>({3, 12}));
    CPPUNIT_ASSERT_EQUAL(0.1, damage[24 + 1]);  // step 2: damage[1] set to 0.1 after step 1
    CPPUNIT_ASSERT_EQUAL(0.25, damage[5]);
    CPPUNIT_ASSERT_THROW(nsdyn::io::readHdf5Doubles(path, "peridynamics/c/damage", dims),
                         nsdyn::Error);
    fs::remove_all(dir);
  }

  void hdf5RefusesAnotherBodyAndDiscards() {
    const std::string dir = scratch("hdf5-bad");
    const std::string path = dir + "/p.hdf5";
    auto a = smallBody("a");
    auto b = smallBody("a");
    {
      nsdyn::io::PeridynamicHdf5Writer writer(path);
      try {
        writer.writeStep(0.0, {a.get(), b.get()});
        CPPUNIT_FAIL("two bodies named a were written");
      } catch (const nsdyn::Error& e) {
        CPPUNIT_ASSERT_MESSAGE(e.what(),
                               std::string(e.what()).find("'a' twice") != std::string::npos);
      }
      writer.writeStep(0.0, {a.get()});
      CPPUNIT_ASSERT_THROW(writer.writeStep(0.1, {a.get(), b.get()}), nsdyn::Error);
      CPPUNIT_ASSERT_EQUAL(std::size_t(1), writer.steps());
      writer.discard();
    }
    CPPUNIT_ASSERT(!fs::exists(path));
    CPPUNIT_ASSERT(!fs::exists(path + ".part"));
    fs::remove_all(dir);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PeridynamicWritersTest);
