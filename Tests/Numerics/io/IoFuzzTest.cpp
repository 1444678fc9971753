// Seeded mutation fuzzing of the .dat reader (Numerics/src/io): byte flips,
// insertions, deletions, duplicated ranges and replaced numbers over the
// shared files. Reading never crashes (run it in the sanitizer build), every
// refusal names the file and the line, and whatever reads also writes and
// reads back identical.
//
//   test_io IoFuzzTest iterations=N seed=S     more or other mutations
#include <cppunit/extensions/HelperMacros.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "io_test_util.hpp"
#include "test_params.hpp"

using namespace nsdyn::test::io;

namespace {

// Files larger than this are fuzzed in a small share of the iterations.
const size_t kSmallFile = 64 * 1024;
const double kLargeShare = 0.03;

// Values that stress sizes and number parsing.
const char* const kTokens[] = {"-1",    "0",     "1",   "2147483648", "99999999", "100000001",
                               "1e308", "1e999", "nan", "-inf",       "-0",       "3",
                               ":",     "col",   "x",   "0x1p3",      "\n",       "2-by-2,"};

class Mutator {
 public:
  explicit Mutator(unsigned seed) : gen_(seed) {}
  size_t below(size_t n) { return n ? static_cast<size_t>(gen_() % n) : 0; }
  double uniform() { return std::uniform_real_distribution<double>(0, 1)(gen_); }

  // One random edit of @p s.
  void mutate(std::string& s) {
    size_t at = below(s.size() + 1);
    switch (below(6)) {
      case 0:  // flip a byte to any value
        if (!s.empty()) s[below(s.size())] = static_cast<char>(below(256));
        break;
      case 1:  // a byte from the characters numbers are made of
        if (!s.empty()) s[below(s.size())] = "0123456789-+.eE \n\t:"[below(19)];
        break;
      case 2:  // insert a byte
        s.insert(at, 1, static_cast<char>(below(256)));
        break;
      case 3:  // delete a few bytes
        s.erase(at, 1 + below(8));
        break;
      case 4: {  // duplicate a range
        size_t n = below(64);
        std::string range = s.substr(at, n);
        s.insert(below(s.size() + 1), range);
        break;
      }
      default: {  // replace the token at a random place by a stressing one
        if (s.empty()) break;
        size_t b = below(s.size()), e = b;
        while (b > 0 && !isspace(static_cast<unsigned char>(s[b - 1]))) --b;
        while (e < s.size() && !isspace(static_cast<unsigned char>(s[e]))) ++e;
        s.replace(b, e - b, kTokens[below(sizeof kTokens / sizeof kTokens[0])]);
        break;
      }
    }
  }

 private:
  std::mt19937 gen_;
};

}  // namespace

class IoFuzzTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(IoFuzzTest);
  CPPUNIT_TEST(mutatedFilesNeverCrash);
  CPPUNIT_TEST_SUITE_END();

 public:
  void mutatedFilesNeverCrash() {
    const int iterations = std::stoi(nsdyn::test::param("iterations", "5000"));
    Mutator rng(static_cast<unsigned>(std::stoul(nsdyn::test::param("seed", "20240611"))));

    // the shared .dat files, small and large
    std::vector<DataFile> small, large;
    std::vector<std::string> small_text, large_text;
    for (const DataFile& f : dataFiles()) {
      if (f.hdf5()) continue;
      std::string text = readFile(f.path);
      (text.size() <= kSmallFile ? small : large).push_back(f);
      (text.size() <= kSmallFile ? small_text : large_text).push_back(text);
    }
    CPPUNIT_ASSERT(!small.empty() && !large.empty());

    int accepted = 0;
    for (int it = 0; it < iterations; ++it) {
      bool big = rng.uniform() < kLargeShare;
      size_t k = rng.below(big ? large.size() : small.size());
      const DataFile& f = big ? large[k] : small[k];
      std::string text = big ? large_text[k] : small_text[k];
      for (size_t m = 1 + rng.below(3); m > 0; --m) rng.mutate(text);

      // an exact-size buffer, so that any read past the end is caught
      std::unique_ptr<char[]> buffer(new char[text.size() ? text.size() : 1]);
      std::copy(text.begin(), text.end(), buffer.get());
      for (NsdProblemKind kind : {expectedKind(f), NSD_KIND_UNKNOWN}) {
        Problem p;
        NsdReport rep = NsdReport();
        NsdStatus st =
            nsd_read_problem_text(buffer.get(), text.size(), f.name.c_str(), kind, &p.p, &rep);
        std::string what = f.name + " iteration " + std::to_string(it) + ": " + rep.message;
        if (st != NSD_OK) {
          CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_BAD_INPUT, st);
          CPPUNIT_ASSERT_MESSAGE(what, namesFileAndLine(rep.message, f.name));
          continue;
        }

        // accepted: a valid problem that writes and reads back the same
        ++accepted;
        std::string written = writeToString(&p.p, &rep);
        CPPUNIT_ASSERT_MESSAGE(what + " write: " + rep.message, !written.empty());
        Problem back;
        CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_OK,
                                     nsd_read_problem_text(written.data(), written.size(), "w.dat",
                                                           p.p.kind, &back.p, &rep));
        std::string d = problemDifference(p.p, back.p, true);
        CPPUNIT_ASSERT_MESSAGE(what + " " + d, d.empty());
      }
    }
    CPPUNIT_ASSERT(accepted > 0);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(IoFuzzTest);
