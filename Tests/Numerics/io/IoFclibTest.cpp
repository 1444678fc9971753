// FCLIB HDF5 files (Numerics/src/io/io_fclib.c): the shared .hdf5 files,
// write -> read round trips of every friction problem, and damaged files,
// each refused with NSD_BAD_INPUT naming the file and the dataset.
#include <cppunit/extensions/HelperMacros.h>
#include <hdf5.h>

#include <cmath>
#include <string>
#include <vector>

#include "io_test_util.hpp"

using namespace nsdyn::test::io;

namespace {

// A copy of an FCLIB file written by nsd_write_fclib from a shared problem.
std::string writtenCopy(const std::string& source, const std::string& name) {
  Problem p;
  NsdReport rep = NsdReport();
  std::string path = dataDir() + "/" + source;
  CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                               nsd_read_problem(path.c_str(), NSD_KIND_UNKNOWN, &p.p, &rep));
  std::string out = scratchDir() + "/" + name;
  CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                               nsd_write_fclib(out.c_str(), &p.p, "copy", nullptr, &rep));
  return out;
}

// Replace dataset @p path of @p file by @p count values of @p type.
void replaceDataset(const std::string& file, const char* path, hid_t type, const void* values,
                    hsize_t count) {
  hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  CPPUNIT_ASSERT(f >= 0);
  if (H5Lexists(f, path, H5P_DEFAULT) > 0) H5Ldelete(f, path, H5P_DEFAULT);
  if (values) {
    hid_t space = H5Screate_simple(1, &count, nullptr);
    hid_t d = H5Dcreate2(f, path, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    CPPUNIT_ASSERT(d >= 0);
    CPPUNIT_ASSERT(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0);
    H5Dclose(d);
    H5Sclose(space);
  }
  H5Fclose(f);
}

// Reading @p file fails with NSD_BAD_INPUT and a message naming it and @p part.
void expectRefused(const std::string& file, const std::string& part) {
  Problem p;
  NsdReport rep = NsdReport();
  NsdStatus st = nsd_read_fclib(file.c_str(), &p.p, &rep);
  std::string message = rep.message;
  CPPUNIT_ASSERT_EQUAL_MESSAGE(message, NSD_BAD_INPUT, st);
  CPPUNIT_ASSERT_MESSAGE(message, message.rfind(file + ": ", 0) == 0);
  CPPUNIT_ASSERT_MESSAGE(message + "\n  should contain: " + part,
                         message.find(part) != std::string::npos);
  CPPUNIT_ASSERT(p.p.kind == NSD_KIND_UNKNOWN);
}

}  // namespace

class IoFclibTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(IoFclibTest);
  CPPUNIT_TEST(readsSharedFiles);
  CPPUNIT_TEST(roundTripsEveryFrictionProblem);
  CPPUNIT_TEST(readsTripletAndCsrGroups);
  CPPUNIT_TEST(refusesDamagedFiles);
  CPPUNIT_TEST(refusesFilesThatCrashLibhdf5);
  CPPUNIT_TEST(refusesOtherFilesAndKinds);
  CPPUNIT_TEST_SUITE_END();

 public:
  void readsSharedFiles() {
    // local: W (CSR in the file) as 3 x 3 blocks
    {
      Problem p;
      NsdReport rep = NsdReport();
      std::string path = dataDir() + "/fc3d/Capsules-i125-1213.hdf5";
      CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK, nsd_read_fclib(path.c_str(), &p.p, &rep));
      CPPUNIT_ASSERT_EQUAL(NSD_KIND_FC3D, p.p.kind);
      CPPUNIT_ASSERT_EQUAL(286, p.p.fc->nc);
      CPPUNIT_ASSERT_EQUAL(NSD_SPARSE_BLOCK, p.p.fc->M->storage);
      CPPUNIT_ASSERT_EQUAL(286, p.p.fc->M->sbm->n_block_rows);
      CPPUNIT_ASSERT_EQUAL(3, p.p.fc->M->sbm->row_end[0]);
    }
    // global: M and H (triplets in the file) as CSC
    struct Global {
      const char* file;
      int n, nc;
    } globals[] = {{"gfc/Box_Stacks-i0122-82-5.hdf5", 450, 82},
                   {"gfc/Spheres-i099-356-679.hdf5", 12000, 356}};
    for (const Global& g : globals) {
      Problem p;
      NsdReport rep = NsdReport();
      std::string path = dataDir() + "/" + g.file;
      CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                   nsd_read_problem(path.c_str(), NSD_KIND_GFC3D, &p.p, &rep));
      CPPUNIT_ASSERT_EQUAL(g.n, p.p.gfc->n);
      CPPUNIT_ASSERT_EQUAL(g.nc, p.p.gfc->nc);
      CPPUNIT_ASSERT_EQUAL(NSD_CSC, p.p.gfc->M->storage);
      CPPUNIT_ASSERT_EQUAL(NSD_CSC, p.p.gfc->H->storage);
      CPPUNIT_ASSERT_EQUAL(3 * g.nc, p.p.gfc->H->cols);
    }
  }

  void roundTripsEveryFrictionProblem() {
    // every local and global problem, .dat or .hdf5: same entries and vectors
    for (const DataFile& f : dataFiles({"fc2d", "fc3d", "gfc"})) {
      Problem p;
      NsdReport rep = NsdReport();
      CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_problem(f.path.c_str(), expectedKind(f), &p.p, &rep));
      std::string out = scratchDir() + "/roundtrip.hdf5";
      CPPUNIT_ASSERT_EQUAL_MESSAGE(
          f.name + ": " + rep.message, NSD_OK,
          nsd_write_fclib(out.c_str(), &p.p, f.name.c_str(), "round trip", &rep));
      Problem back;
      CPPUNIT_ASSERT_EQUAL_MESSAGE(f.name + ": " + rep.message, NSD_OK,
                                   nsd_read_problem(out.c_str(), NSD_KIND_UNKNOWN, &back.p, &rep));
      std::string d = problemDifference(p.p, back.p, false);
      CPPUNIT_ASSERT_MESSAGE(f.name + ": " + d, d.empty());
      if (p.p.fc && p.p.fc->nc > 0) CPPUNIT_ASSERT_EQUAL(NSD_SPARSE_BLOCK, back.p.fc->M->storage);
    }
  }

  void readsTripletAndCsrGroups() {
    // the same W as CSC (as written), triplets and CSR give the same problem
    std::string file = writtenCopy("fc3d/FC3D_Example1_SBM.dat", "formats.hdf5");
    Problem csc;
    NsdReport rep = NsdReport();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_fclib(file.c_str(), &csc.p, &rep));
    const NsdMatrix* W = csc.p.fc->M;

    // triplets (p = column indices, i = row indices), with nzmax > nz
    std::vector<int> rows, cols;
    std::vector<double> values;
    for (int j = 0; j < W->cols; ++j)
      for (int i = 0; i < W->rows; ++i)
        if (nsd_matrix_get(W, i, j) != 0) {
          rows.push_back(i);
          cols.push_back(j);
          values.push_back(nsd_matrix_get(W, i, j));
        }
    int nz = static_cast<int>(values.size()), nzmax = nz + 5;
    replaceDataset(file, "/fclib_local/W/nz", H5T_NATIVE_INT, &nz, 1);
    replaceDataset(file, "/fclib_local/W/nzmax", H5T_NATIVE_INT, &nzmax, 1);
    replaceDataset(file, "/fclib_local/W/p", H5T_NATIVE_INT, cols.data(), cols.size());
    replaceDataset(file, "/fclib_local/W/i", H5T_NATIVE_INT, rows.data(), rows.size());
    replaceDataset(file, "/fclib_local/W/x", H5T_NATIVE_DOUBLE, values.data(), values.size());
    Problem triplet;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                 nsd_read_fclib(file.c_str(), &triplet.p, &rep));
    CPPUNIT_ASSERT_EQUAL(std::string(""), problemDifference(csc.p, triplet.p, false));

    // CSR: row pointers, column indices
    std::vector<int> ptr(1, 0), idx;
    std::vector<double> x;
    for (int i = 0; i < W->rows; ++i) {
      for (int j = 0; j < W->cols; ++j)
        if (nsd_matrix_get(W, i, j) != 0) {
          idx.push_back(j);
          x.push_back(nsd_matrix_get(W, i, j));
        }
      ptr.push_back(static_cast<int>(idx.size()));
    }
    int csr = -2;
    replaceDataset(file, "/fclib_local/W/nz", H5T_NATIVE_INT, &csr, 1);
    replaceDataset(file, "/fclib_local/W/p", H5T_NATIVE_INT, ptr.data(), ptr.size());
    replaceDataset(file, "/fclib_local/W/i", H5T_NATIVE_INT, idx.data(), idx.size());
    replaceDataset(file, "/fclib_local/W/x", H5T_NATIVE_DOUBLE, x.data(), x.size());
    Problem rowwise;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                 nsd_read_fclib(file.c_str(), &rowwise.p, &rep));
    CPPUNIT_ASSERT_EQUAL(std::string(""), problemDifference(csc.p, rowwise.p, false));
  }

  // shared/fuzz-findings/06: files that crash libhdf5 1.10 or make it allocate
  // gigabytes are read first in a child process; the caller gets bad input
  void refusesFilesThatCrashLibhdf5() {
    const std::string dir = std::string(NSDYN_SHARED_DIR) + "/fuzz-findings/06-fclib-libhdf5/";
    for (const char* name :
         {"segv-H5F__accum_read.hdf5", "segv-H5VM_memcpyvv.hdf5", "oom-4GiB-tconv-H5Dread.hdf5"}) {
      const std::string path = dir + name;
      NsdProblem p{};
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL_MESSAGE(path, NSD_BAD_INPUT, nsd_read_fclib(path.c_str(), &p, &rep));
      CPPUNIT_ASSERT_MESSAGE(rep.message, std::string(rep.message).find(path) != std::string::npos);
      nsd_problem_clear(&p);
    }
  }

  void refusesDamagedFiles() {
    const std::string local = "fc3d/FC3D_Example1_SBM.dat", global = "gfc/GFC3D_Example1.dat";
    int four = 4, big = 1000, minus3 = -3, out_of_range = 99;
    double reals[2] = {1.0, 2.0}, nan_q[9], negative_mu[3] = {0.1, -0.5, 0.1};
    for (double& v : nan_q) v = NAN;
    std::vector<int> short_p(3, 0), decreasing_p = {0, 3, 2, 9, 9, 9, 9, 9, 9, 9};

    // each damage: a dataset replaced (or removed, values = NULL), the dataset named
    struct Damage {
      const std::string& source;
      const char* path;
      hid_t type;
      const void* values;
      hsize_t count;
      const char* part;
    } damages[] = {
        {local, "/fclib_local/vectors/mu", H5T_NATIVE_DOUBLE, nullptr, 0,
         "/fclib_local/vectors/mu: expected a dataset, found none"},
        {local, "/fclib_local/spacedim", H5T_NATIVE_INT, &four, 1,
         "/fclib_local/spacedim: expected an integer in [2, 3], found 4"},
        {local, "/fclib_local/W/nz", H5T_NATIVE_DOUBLE, reals, 1,
         "/fclib_local/W/nz: expected integer values"},
        {local, "/fclib_local/W/nz", H5T_NATIVE_INT, &minus3, 1,
         "/fclib_local/W/nz: expected an integer in [-2, 100000000]"},
        {local, "/fclib_local/W/m", H5T_NATIVE_INT, reals, 0,
         "/fclib_local/W/m: expected at least 1 values, found 0"},
        {local, "/fclib_local/W/p", H5T_NATIVE_INT, short_p.data(), short_p.size(),
         "/fclib_local/W/p: expected at least 10 values, found 3"},
        {local, "/fclib_local/W/p", H5T_NATIVE_INT, decreasing_p.data(), decreasing_p.size(),
         "/fclib_local/W/p: expected non-decreasing pointers"},
        {local, "/fclib_local/W/i", H5T_NATIVE_INT, short_p.data(), short_p.size(),
         "/fclib_local/W/i: expected at least"},
        {local, "/fclib_local/W/n", H5T_NATIVE_INT, &big, 1,
         "/fclib_local/W/p: expected at least 1001 values"},
        {local, "/fclib_local/vectors/q", H5T_NATIVE_DOUBLE, nan_q, 9,
         "/fclib_local/vectors/q: expected finite values, found nan"},
        {local, "/fclib_local/vectors/mu", H5T_NATIVE_DOUBLE, negative_mu, 3, "expected mu >= 0"},
        {global, "/fclib_global/H/nz", H5T_NATIVE_INT, &out_of_range, 1,
         "/fclib_global/H/p: expected at least 99 values"},
        {global, "/fclib_global/vectors/w", H5T_NATIVE_DOUBLE, reals, 2,
         "/fclib_global/vectors/w: expected at least 3 values, found 2"},
        {global, "/fclib_global/M", H5T_NATIVE_INT, nullptr, 0,
         "/fclib_global/M: expected a matrix group, found none"},
    };
    int n = 0;
    for (const Damage& d : damages) {
      std::string file = writtenCopy(d.source, "damaged" + std::to_string(n++) + ".hdf5");
      replaceDataset(file, d.path, d.type, d.values, d.count);
      expectRefused(file, d.part);
    }

    // a triplet index out of range
    std::string file = writtenCopy(global, "damaged_index.hdf5");
    int nz = 1, col = 0, row = 5000;
    double x = 1;
    replaceDataset(file, "/fclib_global/H/nz", H5T_NATIVE_INT, &nz, 1);
    replaceDataset(file, "/fclib_global/H/p", H5T_NATIVE_INT, &col, 1);
    replaceDataset(file, "/fclib_global/H/i", H5T_NATIVE_INT, &row, 1);
    replaceDataset(file, "/fclib_global/H/x", H5T_NATIVE_DOUBLE, &x, 1);
    expectRefused(file, "/fclib_global/H/i: expected values in [0, 2], found 5000 at index 0");
  }

  void refusesOtherFilesAndKinds() {
    NsdReport rep = NsdReport();
    // missing, text, truncated, and HDF5 without an FCLIB group
    std::string missing = scratchDir() + "/missing.hdf5";
    expectRefused(missing, "cannot open");
    std::string text = scratchDir() + "/text.hdf5";
    writeFile(text, "3\n1\n0\n3\n3\n3\t3\n1 0 0 0 1 0 0 0 1\n1 2 3\n0.5\n");
    expectRefused(text, "expected an HDF5 file");
    std::string whole = readFile(dataDir() + "/fc3d/Capsules-i125-1213.hdf5");
    for (size_t cut : {size_t(0), size_t(7), size_t(600), whole.size() / 2, whole.size() - 1}) {
      std::string truncated = scratchDir() + "/truncated.hdf5";
      writeFile(truncated, whole.substr(0, cut));
      Problem p;
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_read_fclib(truncated.c_str(), &p.p, &rep));
    }
    std::string bare = scratchDir() + "/bare.hdf5";
    hid_t f = H5Fcreate(bare.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    H5Fclose(f);
    expectRefused(bare, "expected a group /fclib_local or /fclib_global, found neither");

    // an HDF5 file is recognised by its signature whatever its name
    std::string copy = writtenCopy("fc3d/FC3D_Example1_SBM.dat", "signature.hdf5");
    std::string renamed = scratchDir() + "/signature.dat";
    writeFile(renamed, readFile(copy));
    Problem p;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                 nsd_read_problem(renamed.c_str(), NSD_KIND_FC3D, &p.p, &rep));

    // a kind that does not match the file
    Problem q;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_read_problem(copy.c_str(), NSD_KIND_GFC3D, &q.p, &rep));
    CPPUNIT_ASSERT(std::string(rep.message).find("expected a gfc3d problem, found fc3d") !=
                   std::string::npos);
    CPPUNIT_ASSERT(q.p.fc == nullptr);

    // only friction problems are written
    Problem lcp;
    std::string path = dataDir() + "/lcp/lcp_CPS_1.dat";
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_problem(path.c_str(), NSD_KIND_LCP, &lcp.p, &rep));
    std::string out = scratchDir() + "/lcp.hdf5";
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                         nsd_write_fclib(out.c_str(), &lcp.p, nullptr, nullptr, &rep));
    std::string nowhere = scratchDir() + "/no/such/folder/x.hdf5";
    CPPUNIT_ASSERT_EQUAL(NSD_FAILED,
                         nsd_write_fclib(nowhere.c_str(), &p.p, nullptr, nullptr, &rep));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(IoFclibTest);
