// Helpers of the io tests: the shared data files and the kind each folder
// holds, an owning problem, exact comparison of matrices and problems, and
// writing a problem into a string.
#pragma once
#include <cppunit/extensions/HelperMacros.h>
#include <cs.h>
#include <nsdyn/numerics.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "io_private.h"

namespace nsdyn::test::io {

/// A problem read from a file, freed on scope exit.
struct Problem {
  NsdProblem p = NsdProblem();
  Problem() = default;
  Problem(const Problem&) = delete;
  Problem& operator=(const Problem&) = delete;
  ~Problem() { nsd_problem_clear(&p); }
};

struct MatrixDeleter {
  void operator()(NsdMatrix* a) const { nsd_matrix_destroy(a); }
};
using MatrixPtr = std::unique_ptr<NsdMatrix, MatrixDeleter>;

inline std::string dataDir() {
  return std::string(NSDYN_SHARED_DIR) + "/data";
}

/// One shared data file and the folder it is in.
struct DataFile {
  std::string path;
  std::string folder;  // lcp, mlcp, fc2d, fc3d, gfc
  std::string name;    // file name
  bool hdf5() const { return nsd_io_has_hdf5_extension(path.c_str()) != 0; }
};

/// Problem files of the shared folders (every file but README.md), sorted.
inline std::vector<DataFile> dataFiles(const std::vector<std::string>& folders = {
                                           "lcp", "mlcp", "fc2d", "fc3d", "gfc"}) {
  std::vector<DataFile> files;
  for (const std::string& folder : folders) {
    std::vector<DataFile> in;
    for (const auto& entry : std::filesystem::directory_iterator(dataDir() + "/" + folder)) {
      if (!entry.is_regular_file()) continue;
      std::string name = entry.path().filename().string();
      if (name == "README.md") continue;
      in.push_back({entry.path().string(), folder, name});
    }
    std::sort(in.begin(), in.end(),
              [](const DataFile& a, const DataFile& b) { return a.name < b.name; });
    files.insert(files.end(), in.begin(), in.end());
  }
  return files;
}

/// The kind a file of the shared folders holds: the folder's kind; in gfc/ the
/// 2D files are named gfc2d_*, the others are 3D.
inline NsdProblemKind expectedKind(const DataFile& f) {
  if (f.folder == "lcp") return NSD_KIND_LCP;
  if (f.folder == "mlcp") return NSD_KIND_MLCP;
  if (f.folder == "fc2d") return NSD_KIND_FC2D;
  if (f.folder == "fc3d") return NSD_KIND_FC3D;
  return f.name.rfind("gfc2d", 0) == 0 ? NSD_KIND_GFC2D : NSD_KIND_GFC3D;
}

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void writeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

/// Folder for files written by the tests.
inline std::string scratchDir() {
  std::string dir = std::string(NSDYN_BINARY_DIR) + "/Testing/io";
  std::filesystem::create_directories(dir);
  return dir;
}

/// A problem written by nsd_write_problem_stream, as text.
inline std::string writeToString(const NsdProblem* p, NsdReport* rep) {
  FILE* f = std::tmpfile();
  CPPUNIT_ASSERT(f != nullptr);
  NsdStatus st = nsd_write_problem_stream(f, p, rep);
  std::string text;
  if (st == NSD_OK) {
    long size = std::ftell(f);
    std::rewind(f);
    text.resize(static_cast<size_t>(size));
    size_t got = std::fread(&text[0], 1, text.size(), f);
    text.resize(got);
  }
  std::fclose(f);
  return st == NSD_OK ? text : std::string();
}

/// Non-zero entries (column, row, value) of any storage, sorted.
inline std::vector<std::tuple<int, int, double>> nonZeros(const NsdMatrix* a) {
  std::vector<std::tuple<int, int, double>> e;
  if (a->storage == NSD_DENSE) {
    for (int j = 0; j < a->cols; ++j)
      for (int i = 0; i < a->rows; ++i) {
        double v = a->dense[i + static_cast<size_t>(j) * a->rows];
        if (v != 0) e.emplace_back(j, i, v);
      }
  } else if (a->storage == NSD_SPARSE_BLOCK) {
    const NsdSparseBlock* s = a->sbm;
    for (int br = 0; br < s->n_block_rows; ++br) {
      int r0 = br ? s->row_end[br - 1] : 0, h = s->row_end[br] - r0;
      for (int k = s->row_ptr[br]; k < s->row_ptr[br + 1]; ++k) {
        int bc = s->col_index[k], c0 = bc ? s->col_end[bc - 1] : 0, w = s->col_end[bc] - c0;
        const double* v = s->values + s->value_start[k];
        for (int c = 0; c < w; ++c)
          for (int r = 0; r < h; ++r)
            if (v[r + c * h] != 0) e.emplace_back(c0 + c, r0 + r, v[r + c * h]);
      }
    }
  } else {
    const cs_di* c = reinterpret_cast<const cs_di*>(a->csc);
    for (int j = 0; j < c->n; ++j)
      for (int k = c->p[j]; k < c->p[j + 1]; ++k)
        if (c->x[k] != 0) e.emplace_back(j, c->i[k], c->x[k]);
  }
  std::sort(e.begin(), e.end());
  // duplicates (possible in CSC) add up
  std::vector<std::tuple<int, int, double>> merged;
  for (const auto& t : e) {
    if (!merged.empty() && std::get<0>(merged.back()) == std::get<0>(t) &&
        std::get<1>(merged.back()) == std::get<1>(t))
      std::get<2>(merged.back()) += std::get<2>(t);
    else
      merged.push_back(t);
  }
  return merged;
}

/// "" if a and b hold the same storage with identical structure and values.
inline std::string matrixDifference(const NsdMatrix* a, const NsdMatrix* b) {
  if (!a || !b) return "missing matrix";
  if (a->storage != b->storage) return "storages differ";
  if (a->rows != b->rows || a->cols != b->cols) return "sizes differ";
  if (a->storage == NSD_DENSE) {
    size_t n = static_cast<size_t>(a->rows) * a->cols;
    for (size_t k = 0; k < n; ++k)
      if (a->dense[k] != b->dense[k]) return "dense value " + std::to_string(k) + " differs";
    return "";
  }
  if (a->storage == NSD_SPARSE_BLOCK) {
    const NsdSparseBlock *s = a->sbm, *t = b->sbm;
    if (s->n_blocks == 0 && t->n_blocks == 0) return "";
    if (s->n_block_rows != t->n_block_rows || s->n_block_cols != t->n_block_cols ||
        s->n_blocks != t->n_blocks)
      return "block grids differ";
    for (int r = 0; r < s->n_block_rows; ++r)
      if (s->row_end[r] != t->row_end[r]) return "rowEnd differs";
    for (int c = 0; c < s->n_block_cols; ++c)
      if (s->col_end[c] != t->col_end[c]) return "colEnd differs";
    for (int r = 0; r <= s->n_block_rows; ++r)
      if (s->row_ptr[r] != t->row_ptr[r]) return "rowPtr differs";
    for (int k = 0; k < s->n_blocks; ++k)
      if (s->col_index[k] != t->col_index[k] || s->value_start[k + 1] != t->value_start[k + 1])
        return "block " + std::to_string(k) + " differs";
    for (size_t v = 0; v < s->value_start[s->n_blocks]; ++v)
      if (s->values[v] != t->values[v]) return "block value " + std::to_string(v) + " differs";
    return "";
  }
  const cs_di* c = reinterpret_cast<const cs_di*>(a->csc);
  const cs_di* d = reinterpret_cast<const cs_di*>(b->csc);
  for (int j = 0; j <= c->n; ++j)
    if (c->p[j] != d->p[j]) return "column pointer " + std::to_string(j) + " differs";
  for (int k = 0; k < c->p[c->n]; ++k)
    if (c->i[k] != d->i[k] || c->x[k] != d->x[k]) return "entry " + std::to_string(k) + " differs";
  return "";
}

/// "" if a and b have the same sizes and the same non-zero entries.
inline std::string entryDifference(const NsdMatrix* a, const NsdMatrix* b) {
  if (!a || !b) return "missing matrix";
  if (a->rows != b->rows || a->cols != b->cols) return "sizes differ";
  return nonZeros(a) == nonZeros(b) ? "" : "entries differ";
}

inline std::string vectorDifference(const char* name, const double* a, const double* b, int n) {
  for (int k = 0; k < n; ++k)
    if (a[k] != b[k]) return std::string(name) + "[" + std::to_string(k) + "] differs";
  return "";
}

/// "" if two problems are equal: same kind, sizes and vectors; matrices
/// identical (@p same_storage) or with the same entries.
inline std::string problemDifference(const NsdProblem& a, const NsdProblem& b, bool same_storage) {
  auto matrices = [&](const NsdMatrix* x, const NsdMatrix* y) {
    return same_storage ? matrixDifference(x, y) : entryDifference(x, y);
  };
  if (a.kind != b.kind)
    return std::string("kinds differ: ") + nsd_kind_name(a.kind) + " " + nsd_kind_name(b.kind);
  std::string d;
  switch (a.kind) {
    case NSD_KIND_LCP:
      if (a.lcp->n != b.lcp->n) return "n differs";
      d = matrices(a.lcp->M, b.lcp->M);
      if (d.empty()) d = vectorDifference("q", a.lcp->q, b.lcp->q, a.lcp->n);
      return d;
    case NSD_KIND_MLCP: {
      const NsdMlcp *x = a.mlcp, *y = b.mlcp;
      if (x->size != y->size || x->n_eq != y->n_eq || x->n_comp != y->n_comp) return "sizes differ";
      for (int i = 0; i < x->size; ++i)
        if (x->is_comp[i] != y->is_comp[i] || x->lb[i] != y->lb[i] || x->ub[i] != y->ub[i])
          return "row kind " + std::to_string(i) + " differs";
      d = matrices(x->M, y->M);
      if (d.empty()) d = vectorDifference("q", x->q, y->q, x->size);
      return d;
    }
    case NSD_KIND_FC2D:
    case NSD_KIND_FC3D: {
      const NsdFc *x = a.fc, *y = b.fc;
      if (x->dim != y->dim || x->nc != y->nc) return "sizes differ";
      d = matrices(x->M, y->M);
      if (d.empty()) d = vectorDifference("q", x->q, y->q, x->dim * x->nc);
      if (d.empty()) d = vectorDifference("mu", x->mu, y->mu, x->nc);
      return d;
    }
    case NSD_KIND_GFC2D:
    case NSD_KIND_GFC3D: {
      const NsdGfc *x = a.gfc, *y = b.gfc;
      if (x->dim != y->dim || x->nc != y->nc || x->n != y->n) return "sizes differ";
      d = matrices(x->M, y->M);
      if (d.empty()) d = matrices(x->H, y->H);
      if (d.empty()) d = vectorDifference("q", x->q, y->q, x->n);
      if (d.empty()) d = vectorDifference("b", x->b, y->b, x->dim * x->nc);
      if (d.empty()) d = vectorDifference("mu", x->mu, y->mu, x->nc);
      return d;
    }
    case NSD_KIND_GMP: {
      const NsdGmp *x = a.gmp, *y = b.gmp;
      if (x->n != y->n || x->n_blocks != y->n_blocks) return "sizes differ";
      for (int k = 0; k < x->n_blocks; ++k)
        if (x->blocks[k].kind != y->blocks[k].kind || x->blocks[k].size != y->blocks[k].size ||
            x->blocks[k].mu != y->blocks[k].mu)
          return "block " + std::to_string(k) + " differs";
      d = matrices(x->W, y->W);
      if (d.empty()) d = vectorDifference("q", x->q, y->q, x->n);
      return d;
    }
    case NSD_KIND_RFC3D:
    case NSD_KIND_RFC2D: {
      const NsdRfc *x = a.rfc, *y = b.rfc;
      if (x->dim != y->dim || x->nc != y->nc) return "sizes differ";
      d = matrices(x->M, y->M);
      if (d.empty()) d = vectorDifference("q", x->q, y->q, x->dim * x->nc);
      if (d.empty()) d = vectorDifference("mu", x->mu, y->mu, x->nc);
      if (d.empty()) d = vectorDifference("mu_r", x->mu_r, y->mu_r, x->nc);
      return d;
    }
    case NSD_KIND_UNKNOWN:
      break;
  }
  return "unknown kind";
}

/// 1 if @p message starts with "NAME:LINE:" (a line number after the name).
inline bool namesFileAndLine(const std::string& message, const std::string& name,
                             long* line = nullptr) {
  if (message.compare(0, name.size() + 1, name + ":") != 0) return false;
  size_t k = name.size() + 1, digits = 0;
  long value = 0;
  while (k < message.size() && message[k] >= '0' && message[k] <= '9') {
    value = 10 * value + (message[k] - '0');
    ++k;
    ++digits;
  }
  if (line) *line = value;
  return digits > 0 && k < message.size() && message[k] == ':';
}

}  // namespace nsdyn::test::io
