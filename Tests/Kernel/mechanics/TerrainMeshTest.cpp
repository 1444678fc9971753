// Terrain shapes (Kernel/src/mechanics/terrain): the triangle BVH against brute force, the
// checks of bad meshes and heightfields (messages), OBJ and STL files read by assimp, the
// heightfield's implicit triangles, terrainContacts on floors (internal edges, hulls).
#include <cppunit/extensions/HelperMacros.h>

#include <unistd.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>
#include <string>

#include <png.h>
#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/BoxShape.hpp>
#include <nsdyn/CapsuleShape.hpp>
#include <nsdyn/ContactDetector.hpp>
#include <nsdyn/ConvexHullShape.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/HeightfieldShape.hpp>
#include <nsdyn/SphereShape.hpp>
#include <nsdyn/TriangleMeshShape.hpp>
#include <nsdyn/TriangleNarrowphase.hpp>

using namespace nsdyn;
using Vec3 = Shape::Vec3;
using Tri = TerrainShape::Triangle;

namespace {

template <class F>
std::string errorOf(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  CPPUNIT_FAIL("no nsdyn::Error thrown");
  return "";
}

void contains(const std::string& text, const std::string& part) {
  CPPUNIT_ASSERT_MESSAGE(text + " lacks " + part, text.find(part) != std::string::npos);
}

/// A bumpy n x n grid mesh (heights from a fixed formula) of 1 m cells.
TriangleMeshShape bumpyGrid(int n) {
  std::vector<Vec3> v;
  std::vector<Tri> t;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) v.push_back({1.0 * i, 1.0 * j, 0.3 * std::sin(0.7 * i + 1.3 * j)});
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const int a = j * (n + 1) + i;
      t.push_back({a, a + 1, a + n + 2});
      t.push_back({a, a + n + 2, a + n + 1});
    }
  return TriangleMeshShape(v, t, "bumpy");
}

std::string tempPath(const std::string& name) {
  return "/tmp/nsdyn_terrain_" + std::to_string(::getpid()) + "_" + name;
}

const std::vector<Vec3> kSquare{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};

// A PNG file of w x h pixels in @p format (libpng's simplified writer).
bool writePng(const std::string& path, png_uint_32 format, int w, int h, const void* data) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(w);
  image.height = static_cast<png_uint_32>(h);
  image.format = format;
  return png_image_write_to_file(&image, path.c_str(), 0, data, 0, nullptr) != 0;
}

}  // namespace

class TerrainMeshTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(TerrainMeshTest);
  CPPUNIT_TEST(bvhEqualsBruteForce);
  CPPUNIT_TEST(adjacency);
  CPPUNIT_TEST(badMeshes);
  CPPUNIT_TEST(meshFiles);
  CPPUNIT_TEST(heightfield);
  CPPUNIT_TEST(heightfieldFromImage);
  CPPUNIT_TEST(internalEdgesOfAFloor);
  CPPUNIT_TEST(hullOnAMeshFloor);
  CPPUNIT_TEST(detectorOnAHeightfield);
  CPPUNIT_TEST_SUITE_END();

 public:
  /// 500 random boxes: the BVH's triangles are those whose AABB meets the box.
  void bvhEqualsBruteForce() {
    const TriangleMeshShape mesh = bumpyGrid(30);  // 1,800 triangles
    CPPUNIT_ASSERT_EQUAL(std::size_t(1800), mesh.triangleCount());
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-2.0, 32.0), size(0.0, 4.0), z(-0.6, 0.6);
    std::vector<std::int32_t> got;
    std::size_t total = 0;
    for (int k = 0; k < 500; ++k) {
      Shape::Aabb box;
      box.min = {u(rng), u(rng), z(rng)};
      box.max = {box.min[0] + size(rng), box.min[1] + size(rng), box.min[2] + 0.2 * size(rng)};
      mesh.queryTriangles(box, got);
      std::vector<std::int32_t> expected;
      for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
        const Tri tv = mesh.triangleVertices(static_cast<std::int32_t>(t));
        bool meets = true;
        for (std::size_t d = 0; d < 3; ++d) {
          double lo = INFINITY, hi = -INFINITY;
          for (std::int32_t v : tv) {
            lo = std::min(lo, mesh.vertex(v)[d]);
            hi = std::max(hi, mesh.vertex(v)[d]);
          }
          if (hi < box.min[d] || box.max[d] < lo) meets = false;
        }
        if (meets) expected.push_back(static_cast<std::int32_t>(t));
      }
      CPPUNIT_ASSERT(expected == got);
      total += got.size();
    }
    CPPUNIT_ASSERT(total > 1000);  // the boxes met triangles
  }

  void adjacency() {
    const TriangleMeshShape m(kSquare, {{0, 1, 2}, {0, 2, 3}});
    CPPUNIT_ASSERT_EQUAL(std::int32_t(1), m.edgeNeighbour(0, 2));  // edge 2 → 0
    CPPUNIT_ASSERT_EQUAL(std::int32_t(0), m.edgeNeighbour(1, 0));
    CPPUNIT_ASSERT_EQUAL(std::int32_t(-1), m.edgeNeighbour(0, 0));
    CPPUNIT_ASSERT(!m.interiorVertex(0));
    const TriangleMeshShape g = bumpyGrid(4);
    CPPUNIT_ASSERT(g.interiorVertex(6) && !g.interiorVertex(5));
    std::vector<std::int32_t> around;
    g.vertexTriangles(6, around);
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), around.size());
    CPPUNIT_ASSERT(g.bvhNodeCount() > 1);
  }

  void badMeshes() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CPPUNIT_ASSERT_EQUAL(std::string("floor: expected a mesh with at least one vertex and one "
                                     "triangle, found 4 vertices and 0 triangles"),
                         errorOf([&] { TriangleMeshShape(kSquare, {}, "floor"); }));
    std::vector<Vec3> v = kSquare;
    v[2][1] = nan;
    CPPUNIT_ASSERT_EQUAL(
        std::string("floor vertex #2: expected finite coordinates, found (1, nan, 0)"),
        errorOf([&] {
          TriangleMeshShape(v, {{0, 1, 2}}, "floor");
        }));
    CPPUNIT_ASSERT_EQUAL(
        std::string("floor triangle #1: expected vertex indices in [0, 4), found index 7"),
        errorOf([&] {
          TriangleMeshShape(kSquare, {{0, 1, 2}, {0, 2, 7}}, "floor");
        }));
    const std::string degenerate = errorOf([&] {
      TriangleMeshShape({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}, {{0, 1, 2}}, "floor");
    });
    contains(degenerate, "floor triangle #0: expected a non-degenerate triangle");
    contains(degenerate, "found vertices 0, 1, 2 with area 0");
    contains(errorOf([&] {
               TriangleMeshShape(kSquare, {{0, 1, 1}}, "floor");
             }),
             "floor triangle #0: expected a non-degenerate triangle");
    CPPUNIT_ASSERT_EQUAL(
        std::string("floor edge (0, 2): expected consistently wound neighbours (their common "
                    "edge in opposite directions), found triangles #0 and #1 both run 2 -> 0"),
        errorOf([&] {
          TriangleMeshShape(kSquare, {{0, 1, 2}, {0, 3, 2}}, "floor");
        }));
    std::vector<Vec3> fin = kSquare;
    fin.push_back({0.5, 0.5, 1.0});
    CPPUNIT_ASSERT_EQUAL(
        std::string("floor edge (0, 2): expected at most two triangles per edge (a manifold "
                    "mesh), found triangles #0 #1 #2"),
        errorOf([&] {
          TriangleMeshShape(fin, {{0, 1, 2}, {0, 2, 3}, {2, 0, 4}}, "floor");
        }));
  }

  /// An OBJ (two quads, triangulated) and an STL (ASCII, facets repeating their vertices).
  void meshFiles() {
    const std::string obj = tempPath("floor.obj");
    {
      std::ofstream f(obj);
      f << "# a 2 x 1 floor\nv 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 1 0\nv 1 1 0\nv 2 1 0\n"
           "f 1 2 5 4\nf 2 3 6 5\n";
    }
    const auto m = TriangleMeshShape::fromFile(obj, 2.0);
    std::remove(obj.c_str());
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), m->vertexCount());  // joined
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), m->triangleCount());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0, m->localBounds().max[0], 0.0);  // scaled
    for (std::int32_t t = 0; t < 4; ++t)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, m->faceNormal(t)[2], 0.0);

    const std::string stl = tempPath("floor.stl");
    {
      std::ofstream f(stl);
      f << "solid floor\n"
           " facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 1 1 0\n"
           "  endloop\n endfacet\n"
           " facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 1 0\n   vertex 0 1 0\n"
           "  endloop\n endfacet\nendsolid floor\n";
    }
    const auto s = TriangleMeshShape::fromFile(stl);
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), s->vertexCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), s->triangleCount());
    CPPUNIT_ASSERT_EQUAL(std::int32_t(1), s->edgeNeighbour(0, 2));

    // a non-manifold STL: the file named in the message
    {
      std::ofstream f(stl);
      f << "solid fin\n";
      const char* tris[3] = {"0 0 0|1 0 0|1 1 0", "0 0 0|1 1 0|0 1 0", "1 1 0|0 0 0|0.5 0.5 1"};
      for (const char* t : tris) {
        std::string x(t);
        for (char& ch : x)
          if (ch == '|') ch = '\n';
        f << " facet normal 0 0 1\n  outer loop\n";
        std::size_t at = 0;
        for (int k = 0; k < 3; ++k) {
          const std::size_t end = x.find('\n', at);
          f << "   vertex " << x.substr(at, end - at) << "\n";
          at = end + 1;
        }
        f << "  endloop\n endfacet\n";
      }
      f << "endsolid fin\n";
    }
    const std::string fin = errorOf([&] { TriangleMeshShape::fromFile(stl); });
    std::remove(stl.c_str());
    contains(fin, stl + " edge (0, 2): expected at most two triangles per edge");
    contains(errorOf([&] { TriangleMeshShape::fromFile(tempPath("missing.obj")); }),
             tempPath("missing.obj") + ": expected a readable mesh file");
    const std::string empty = tempPath("empty.obj");
    {
      std::ofstream f(empty);
      f << "v 0 0 0\nv 1 0 0\n";
    }
    const std::string noTriangle = errorOf([&] { TriangleMeshShape::fromFile(empty); });
    std::remove(empty.c_str());
    contains(noTriangle, empty + ": expected a");
  }

  void heightfield() {
    const HeightfieldShape h(4, 3, 0.5, 0.25, {0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0});
    CPPUNIT_ASSERT_EQUAL(std::size_t(12), h.triangleCount());
    near(h.vertex(0), {-0.75, -0.25, 0.0});
    near(h.vertex(6), {0.25, 0.0, 2.0});
    // every neighbour is mutual and shares the edge in the opposite direction
    for (std::int32_t t = 0; t < 12; ++t)
      for (int e = 0; e < 3; ++e) {
        const std::int32_t g = h.edgeNeighbour(t, e);
        if (g < 0) continue;
        const Tri a = h.triangleVertices(t), b = h.triangleVertices(g);
        bool found = false;
        for (int f = 0; f < 3; ++f)
          if (b[f] == a[(e + 1) % 3] && b[(f + 1) % 3] == a[e]) {
            found = true;
            CPPUNIT_ASSERT_EQUAL(t, h.edgeNeighbour(g, f));
          }
        CPPUNIT_ASSERT(found);
      }
    for (std::int32_t t = 0; t < 12; ++t) CPPUNIT_ASSERT(h.faceNormal(t)[2] > 0.0);  // up
    std::vector<std::int32_t> around;
    h.vertexTriangles(5, around);
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), around.size());
    CPPUNIT_ASSERT(h.interiorVertex(5) && !h.interiorVertex(4));
    // bad input
    std::vector<double> hole(12, 0.0);
    hole[6] = std::numeric_limits<double>::quiet_NaN();
    CPPUNIT_ASSERT_EQUAL(std::string("terrain: expected finite heights (a heightfield has no "
                                     "hole), found height (2, 1) = nan"),
                         errorOf([&] { HeightfieldShape(4, 3, 0.5, 0.5, hole, "terrain"); }));
    contains(errorOf([&] { HeightfieldShape(4, 3, 0.5, 0.5, std::vector<double>(11, 0.0)); }),
             "HeightfieldShape: expected nx * ny = 12 heights, found 11");
    contains(errorOf([&] { HeightfieldShape(1, 3, 0.5, 0.5, {0, 0, 0}); }), "at least 2 x 2");
    contains(errorOf([&] { HeightfieldShape(2, 2, -0.5, 0.5, {0, 0, 0, 0}); }), "dx = -0.5");
  }

  /// HeightfieldShape::fromImage on PNG files written here by libpng: 8-bit and 16-bit grey
  /// and RGB, the heights level / full level scaled and offset, the top image row the far
  /// (+y) edge; bad files refused naming the file.
  void heightfieldFromImage() {
    // a 3 x 2 image, row 0 on top
    const std::vector<unsigned char> grey = {0, 51, 255, 102, 204, 153};
    const std::string g8 = tempPath("grey8.png");
    CPPUNIT_ASSERT(writePng(g8, PNG_FORMAT_GRAY, 3, 2, grey.data()));
    auto h = HeightfieldShape::fromImage(g8, 0.5, 0.25, 2.0, -1.0);
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), h->nx());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), h->ny());
    CPPUNIT_ASSERT_EQUAL(0.5, h->dx());
    CPPUNIT_ASSERT_EQUAL(0.25, h->dy());
    // grid row j = 1 - image row
    const std::vector<unsigned char> levels = {102, 204, 153, 0, 51, 255};
    for (std::size_t k = 0; k < 6; ++k)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0 + 2.0 * levels[k] / 255.0, h->heights()[k], 1e-15);
    // 16 bits: the full range of levels
    const std::vector<std::uint16_t> deep = {0, 65535, 32768, 1, 40000, 12345};
    const std::string g16 = tempPath("grey16.png");
    CPPUNIT_ASSERT(writePng(g16, PNG_FORMAT_LINEAR_Y, 3, 2, deep.data()));
    h = HeightfieldShape::fromImage(g16, 1.0, 1.0, 65.535);
    const std::vector<std::uint16_t> deepGrid = {1, 40000, 12345, 0, 65535, 32768};
    for (std::size_t k = 0; k < 6; ++k)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(deepGrid[k] * 1e-3, h->heights()[k], 1e-12);
    // colour with equal channels: the grey levels
    std::vector<unsigned char> rgb(3 * grey.size());
    for (std::size_t k = 0; k < rgb.size(); ++k) rgb[k] = grey[k / 3];
    const std::string c8 = tempPath("rgb.png");
    CPPUNIT_ASSERT(writePng(c8, PNG_FORMAT_RGB, 3, 2, rgb.data()));
    h = HeightfieldShape::fromImage(c8, 0.5, 0.25, 2.0, -1.0);
    for (std::size_t k = 0; k < 6; ++k)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0 + 2.0 * levels[k] / 255.0, h->heights()[k], 1e-15);
    // bad files and values
    contains(errorOf([] { HeightfieldShape::fromImage("/nonexistent/h.png", 1, 1, 1); }),
             "/nonexistent/h.png: expected a readable PNG image");
    const std::string text = tempPath("text.png");
    std::ofstream(text) << "not an image\n";
    contains(errorOf([&] { HeightfieldShape::fromImage(text, 1, 1, 1); }),
             "not a PNG file (wrong signature)");
    const std::string thin = tempPath("thin.png");
    CPPUNIT_ASSERT(writePng(thin, PNG_FORMAT_GRAY, 1, 3, grey.data()));
    contains(errorOf([&] { HeightfieldShape::fromImage(thin, 1, 1, 1); }),
             "expected an image of 2 x 2 to 4096 x 4096 pixels, found 1 x 3");
    const std::string cut = tempPath("cut.png");
    {
      std::ifstream in(g8, std::ios::binary);
      std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    }
    contains(errorOf([&] { HeightfieldShape::fromImage(cut, 1, 1, 1); }),
             "expected a valid PNG image");
    contains(errorOf([&] { HeightfieldShape::fromImage(g8, 0.0, 1, 1); }), "dx = 0");
    contains(errorOf([&] { HeightfieldShape::fromImage(g8, 1, 1, std::nan("")); }),
             "heightScale = nan");
    for (const std::string& f : {g8, g16, c8, text, thin, cut}) std::remove(f.c_str());
  }

  /// A sphere over an internal edge and an internal vertex of a flat floor, and a box whose
  /// corner dips over an internal diagonal: the face normal only, one group (featureB 0).
  void internalEdgesOfAFloor() {
    const TriangleMeshShape floor(kSquare, {{0, 1, 2}, {0, 2, 3}});
    const SphereShape sphere(0.2);
    narrowphase::ContactList out;
    narrowphase::Pose p;
    p.position = {0.5, 0.52, 0.19};  // beside the diagonal
    CPPUNIT_ASSERT_EQUAL(
        1, narrowphase::terrainContacts(sphere, p, floor, narrowphase::Pose(), 0.0, out));
    near(out[0].normal, {0, 0, 1});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.01, out[0].gap, 1e-15);
    CPPUNIT_ASSERT_EQUAL(0, out[0].featureB);
    // the box: 4 corners on the plane z = 0, all with normal +z
    const BoxShape box({0.2, 0.1, 0.05});
    out.clear();
    p.position = {0.5, 0.5, 0.0499};
    CPPUNIT_ASSERT_EQUAL(
        4, narrowphase::terrainContacts(box, p, floor, narrowphase::Pose(), 0.0, out));
    for (const auto& c : out) {
      near(c.normal, {0, 0, 1});
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-1e-4, c.gap, 1e-15);
      CPPUNIT_ASSERT(c.featureA < 8);  // box vertices
    }
    // a ridge (convex internal edge): a sphere above it keeps the edge normal (in the cone)
    const TriangleMeshShape ridge(
        {{-1, 0, -1}, {0, 0, 0}, {0, 1, 0}, {-1, 1, -1}, {1, 0, -1}, {1, 1, -1}},
        {{0, 1, 2}, {0, 2, 3}, {1, 4, 5}, {1, 5, 2}}, "ridge");
    out.clear();
    p.position = {0.0, 0.5, 0.15};
    CPPUNIT_ASSERT_EQUAL(
        1, narrowphase::terrainContacts(sphere, p, ridge, narrowphase::Pose(), 0.0, out));
    near(out[0].normal, {0, 0, 1}, 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.05, out[0].gap, 1e-15);
  }

  /// A cube hull resting on a two-triangle floor across the diagonal: 4 points (a manifold),
  /// normal +z, gaps those of the plane.
  void hullOnAMeshFloor() {
    const TriangleMeshShape floor({{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}},
                                  {{0, 1, 2}, {0, 2, 3}});
    std::vector<Vec3> cube;
    for (int k = 0; k < 8; ++k)
      cube.push_back({(k & 1) ? 0.1 : -0.1, (k & 2) ? 0.1 : -0.1, (k & 4) ? 0.1 : -0.1});
    const ConvexHullShape hull(cube);
    narrowphase::Pose p;
    p.position = {0.0, 0.0, 0.0999};
    narrowphase::ContactList out;
    CPPUNIT_ASSERT_EQUAL(
        4, narrowphase::terrainContacts(hull, p, floor, narrowphase::Pose(), 0.0, out));
    for (const auto& c : out) {
      near(c.normal, {0, 0, 1}, 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-1e-4, c.gap, 1e-9);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, std::abs(c.pointA[0]), 1e-9);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, std::abs(c.pointA[1]), 1e-9);
    }
  }

  /// 300 spheres, boxes and capsules just above a bumpy heightfield, and a mesh: the
  /// detector's contacts (broadphase against the terrains' boxes, triangles from the BVH or the
  /// grid) equal the brute-force ones, on 1 and 3 threads.
  void detectorOnAHeightfield() {
    std::vector<double> z(41 * 41);
    for (std::size_t k = 0; k < z.size(); ++k)
      z[k] = 0.2 * std::sin(0.3 * static_cast<double>(k % 41)) *
             std::cos(0.2 * static_cast<double>(k / 41));
    std::vector<BodyShapes> bodies;
    ShapeInstance field, mesh;
    field.shape = std::make_shared<HeightfieldShape>(41, 41, 0.25, 0.25, z, "field");
    mesh.shape = std::make_shared<TriangleMeshShape>(bumpyGrid(6));
    bodies.push_back(makeStaticBody({field}));
    bodies.push_back(makeStaticBody({mesh}, {-3.0, -3.0, -0.5}));
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(-4.8, 4.8), a(-1.0, 1.0);
    const SP::Shape shapes[3] = {std::make_shared<SphereShape>(0.15),
                                 std::make_shared<BoxShape>(Vec3{0.2, 0.1, 0.12}),
                                 std::make_shared<CapsuleShape>(0.08, 0.15)};
    for (int k = 0; k < 300; ++k) {
      ShapeInstance i;
      i.shape = shapes[k % 3];
      const double x = u(rng), y = u(rng);
      const Vec3 axis{a(rng), a(rng), a(rng) + 2.5};
      bodies.push_back(makeBody({i}, 1000.0, {x, y, 0.1 + 0.2 * a(rng)},
                                quaternion::fromAxisAngle(axis, 3.0 * a(rng))));
    }
    ContactDetector::Options o;
    o.margin = 0.01;
    o.breakingDistance = 0.01;
    o.threads = 1;
    ContactDetector d(bodies, o);
    const std::vector<DetectedContact> one = d.detect();
    const std::vector<DetectedContact> brute = d.detectBruteForce();
    CPPUNIT_ASSERT(one.size() > 100);
    CPPUNIT_ASSERT_EQUAL(brute.size(), one.size());
    CPPUNIT_ASSERT(std::memcmp(one.data(), brute.data(), one.size() * sizeof(DetectedContact)) ==
                   0);
    for (std::size_t k = 1; k < one.size(); ++k) CPPUNIT_ASSERT(one[k - 1].key < one[k].key);
    o.threads = 3;
    d.setOptions(o);
    const std::vector<DetectedContact>& three = d.detect();
    CPPUNIT_ASSERT(std::memcmp(one.data(), three.data(), one.size() * sizeof(DetectedContact)) ==
                   0);
  }

 private:
  static void near(const Vec3& a, const Vec3& b, double tol = 0.0) {
    for (std::size_t k = 0; k < 3; ++k) CPPUNIT_ASSERT_DOUBLES_EQUAL(b[k], a[k], tol);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(TerrainMeshTest);
