// Allocation failures (issue "Reliability", item 6): malloc, calloc and realloc fail at the
// k-th call made inside a library call, for every k until the call makes no more
// allocations; every failure must end in an error status (or a correct answer when the
// failed allocation was optional), never a crash, and leak nothing: the blocks allocated
// inside the call and not freed by it are counted (a small pointer table; no sanitizer,
// which would bring its own malloc: this program is not built under NSDYN_SANITIZE).
//   alloc_fail FILE SOLVER...   (exit status 0: every k passed; 1: a leak or a wrong answer)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nsdyn/numerics.h>

extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void __libc_free(void*);
}

namespace {

bool armed = false;
long countdown = -1;  // allocations left before the failing one (-1: none fails)
bool hit = false;     // the failing allocation happened

// live blocks allocated while armed: open addressing, tombstones, no allocation
constexpr std::size_t kSlots = std::size_t(1) << 20;
void* const kTomb = reinterpret_cast<void*>(1);
void* table[kSlots];
long live = 0;

std::size_t slot(const void* p) {
  return (reinterpret_cast<std::uintptr_t>(p) >> 4) * 0x9E3779B97F4A7C15ULL % kSlots;
}
void track(void* p) {
  for (std::size_t i = slot(p), n = 0; n < kSlots; i = (i + 1) % kSlots, ++n)
    if (table[i] == nullptr || table[i] == kTomb) {
      table[i] = p;
      ++live;
      return;
    }
}
void untrack(void* p) {
  for (std::size_t i = slot(p), n = 0; n < kSlots && table[i] != nullptr; i = (i + 1) % kSlots, ++n)
    if (table[i] == p) {
      table[i] = kTomb;
      --live;
      return;
    }
}
bool failNow() {
  if (!armed || countdown < 0) return false;
  if (countdown == 0) {
    hit = true;
    countdown = -1;  // only one allocation fails
    return true;
  }
  --countdown;
  return false;
}

}  // namespace

extern "C" {
void* malloc(size_t n) {
  if (failNow()) return nullptr;
  void* p = __libc_malloc(n);
  if (armed && p) track(p);
  return p;
}
void* calloc(size_t n, size_t s) {
  if (failNow()) return nullptr;
  void* p = __libc_calloc(n, s);
  if (armed && p) track(p);
  return p;
}
void* realloc(void* old, size_t n) {
  if (n != 0 && failNow()) return nullptr;
  void* p = __libc_realloc(old, n);
  if (armed) {
    if (old && (p || n == 0)) untrack(old);
    if (p) track(p);
  }
  return p;
}
void free(void* p) {
  if (armed && p) untrack(p);
  __libc_free(p);
}
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: alloc_fail FILE SOLVER...\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  if (text.empty()) {
    std::fprintf(stderr, "alloc_fail: cannot read %s\n", argv[1]);
    return 2;
  }
  int bad = 0;
  for (int s = 2; s < argc; ++s) {
    const char* solver = argv[s];
    NsdSolverOptions opt;
    nsd_solver_options_default(&opt);
    opt.tolerance = 1e-8;
    opt.max_iterations = 2000;
    opt.threads = 1;
    // warm-up outside the sweep (lazy initialisations of the runtimes)
    {
      NsdProblem p{};
      NsdReport rep{};
      if (nsd_read_problem_text(text.data(), text.size(), argv[1], NSD_KIND_UNKNOWN, &p, &rep) !=
          NSD_OK) {
        std::fprintf(stderr, "alloc_fail: %s: %s\n", argv[1], rep.message);
        return 2;
      }
      std::vector<double> x(static_cast<size_t>(nsd_problem_size(&p))), y(x.size());
      nsd_solve(&p, solver, x.data(), y.data(), &opt, &rep);
      nsd_problem_clear(&p);
    }
    long k = 0, errors = 0, answers = 0;
    for (;; ++k) {
      NsdProblem p{};
      NsdReport rep{};
      std::vector<double> x, y;
      hit = false;
      countdown = k;
      armed = true;
      NsdStatus status =
          nsd_read_problem_text(text.data(), text.size(), argv[1], NSD_KIND_UNKNOWN, &p, &rep);
      armed = false;
      if (status == NSD_OK) {
        x.assign(static_cast<size_t>(nsd_problem_size(&p)), 0.0);
        y.assign(x.size(), 0.0);
        armed = true;
        status = nsd_solve(&p, solver, x.data(), y.data(), &opt, &rep);
        nsd_problem_clear(&p);
        armed = false;
      } else {
        armed = true;
        nsd_problem_clear(&p);
        armed = false;
      }
      if (live != 0) {
        std::fprintf(
            stderr,
            "alloc_fail: %s, %s: allocation %ld failed: %ld blocks leaked (status %s: %s)\n",
            argv[1], solver, k, live, nsd_status_name(status), rep.message);
        std::memset(table, 0, sizeof table);
        live = 0;
        ++bad;
      }
      if (!hit) break;  // the call made fewer than k + 1 allocations: the sweep is complete
      if (status == NSD_OK) {
        ++answers;
        if (!(rep.residual <= opt.tolerance)) {
          std::fprintf(stderr,
                       "alloc_fail: %s, %s: allocation %ld failed, status ok with residual %g\n",
                       argv[1], solver, k, rep.residual);
          ++bad;
        }
      } else {
        ++errors;
      }
    }
    std::printf(
        "%s, %s: %ld allocations swept, %ld ended in an error, %ld still answered correctly\n",
        argv[1], solver, k, errors, answers);
  }
  return bad == 0 ? 0 : 1;
}
