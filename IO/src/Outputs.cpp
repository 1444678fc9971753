// Recorder: output expressions evaluated into tables, step by step.
#include "nsdyn/io/Outputs.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "nsdyn/Error.hpp"
#include "nsdyn/io/WriteFault.hpp"

namespace nsdyn::io {

namespace fs = std::filesystem;

namespace {

// Records of @p width doubles in the regular file @p path; npos when it is missing or
// not a regular file.
std::size_t spoolRecords(const std::string& path, std::size_t width) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return static_cast<std::size_t>(-1);
  const std::uintmax_t bytes = fs::file_size(path, ec);
  if (ec) return static_cast<std::size_t>(-1);
  return static_cast<std::size_t>(bytes / (8 * std::max<std::size_t>(width, 1)));
}

// Append (or, @p truncate, write anew) @p count doubles to the spool @p path. The file is
// opened for each batch of rows (every few thousand rows): no handle stays open, and the
// rows on disk are complete whenever a checkpoint is written.
void writeSpool(const std::string& path, const double* values, std::size_t count, bool truncate) {
  std::FILE* f = openForWrite(path, truncate ? "wb" : "ab");
  if (!f) throw WriteError("output spool", "a writable file", writeFailure(path));
  const bool wrote = writeAll(f, values, count * sizeof(double), path);
  const int error = errno;
  const bool closed = closeWritten(f, path);
  if (!wrote) errno = error;
  if (!wrote || !closed) throw WriteError("output spool", "rows written", writeFailure(path));
}

// The spool @p to becomes the first @p records records of @p from: truncated in place
// when they are the same file, else a copy of those bytes (a restart into another folder).
void resumeSpool(const std::string& from, const std::string& to, std::size_t width,
                 std::size_t records) {
  const std::uintmax_t bytes = static_cast<std::uintmax_t>(records) * width * 8;
  std::error_code ec;
  if (records == 0) {
    fs::remove(to, ec);
    return;
  }
  if (fs::equivalent(from, to, ec)) {
    fs::resize_file(to, bytes, ec);
    if (ec)
      throw WriteError("output spool", "a file that can be truncated",
                       to + " (" + ec.message() + ")");
    return;
  }
  bool first = true;
  readSpool(from, width, records, [&](const double* v, std::size_t n) {
    writeSpool(to, v, n * width, first);
    first = false;
  });
}

}  // namespace

void checkSpool(const std::string& path, std::size_t width, std::size_t records,
                const std::string& what) {
  if (records == 0) return;
  const std::size_t have = spoolRecords(path, width);
  if (have == static_cast<std::size_t>(-1))
    throw Error("output spool " + path,
                "the spool file of " + what + " with " + std::to_string(records) + " rows",
                "no such file (it is written in the output folder of the run that wrote the "
                "checkpoint, and removed when that run writes its results)");
  if (have < records)
    throw Error("output spool " + path,
                "the spool file of " + what + " with " + std::to_string(records) + " rows",
                "a file of " + std::to_string(have) + " rows");
}

void readSpool(const std::string& path, std::size_t width, std::size_t records,
               const std::function<void(const double*, std::size_t)>& block,
               std::size_t blockRecords) {
  if (records == 0) return;
  checkSpool(path, width, records, "an output");
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw Error("output spool", "a readable file", path + " (" + std::strerror(errno) + ")");
  const std::size_t per = std::max<std::size_t>(blockRecords, 1);
  std::vector<double> buffer(std::min(records, per) * width);
  for (std::size_t done = 0; done < records;) {
    const std::size_t n = std::min(per, records - done);
    if (std::fread(buffer.data(), sizeof(double), n * width, f) != n * width) {
      std::fclose(f);
      throw Error("output spool", std::to_string(records) + " rows", path + " (read error)");
    }
    block(buffer.data(), n);
    done += n;
  }
  std::fclose(f);
}

std::size_t vtkFrameWidth(const VtkSpec& spec) {
  return 2 + 13 * spec.bodies.size();
}

Recorder::Recorder(const OutputsSpec& spec) : spec_(spec) {
  for (const OutputSpec& out : spec_.outputs) {
    Table table;
    table.name = out.name;
    for (const ColumnSpec& c : out.columns) table.columns.push_back(c.name);
    tables_.push_back(std::move(table));
    sums_.emplace_back(out.columns.size(), 0.0);
    pendingNext_.push_back(0);
  }
}

Recorder::~Recorder() {
  if (!keepSpool_) removeSpool();
}

void Recorder::streamTo(const std::string& dir, const std::string& model, std::size_t memoryRows) {
  std::error_code ec;
  const fs::path abs = fs::absolute(dir.empty() ? "." : dir, ec);
  dir_ = (ec ? fs::path(dir) : abs).lexically_normal().string();
  model_ = model;
  memoryRows_ = std::max<std::size_t>(memoryRows, 1);
  for (std::size_t o = 0; o < tables_.size(); ++o) tables_[o].spool = spoolPath(o);
}

std::string Recorder::spoolPath(std::size_t o) const {
  return streaming() ? (fs::path(dir_) / ("." + tables_[o].name + ".rows.part")).string() : "";
}

std::string Recorder::frameSpoolPath() const {
  return streaming() ? (fs::path(dir_) / ("." + model_ + ".frames.part")).string() : "";
}

void Recorder::removeSpool() {
  if (!streaming()) return;
  for (std::size_t o = 0; o < tables_.size(); ++o) std::remove(spoolPath(o).c_str());
  std::remove(frameSpoolPath().c_str());
}

void Recorder::spillRows(std::size_t o) {
  Table& t = tables_[o];
  if (t.rows.empty()) return;
  const std::size_t width = t.columns.size();
  std::vector<double> block;
  block.reserve(t.rows.size() * width);
  for (const std::vector<double>& row : t.rows) block.insert(block.end(), row.begin(), row.end());
  writeSpool(t.spool, block.data(), block.size(), t.spooledRows == 0);
  t.spooledRows += t.rows.size();
  t.rows.clear();
  t.rows.shrink_to_fit();
}

void Recorder::spillFrames() {
  if (frames_.empty()) return;
  std::vector<double> block;
  block.reserve(frames_.size() * vtkFrameWidth(spec_.vtk));
  for (const VtkFrame& f : frames_) {
    block.push_back(static_cast<double>(f.step));
    block.push_back(f.time);
    for (const auto* v : {&f.points, &f.orientations, &f.velocities, &f.angularVelocities})
      block.insert(block.end(), v->begin(), v->end());
  }
  writeSpool(frameSpoolPath(), block.data(), block.size(), spooledFrames_ == 0);
  spooledFrames_ += frames_.size();
  frames_.clear();
  frames_.shrink_to_fit();
}

void Recorder::resumeRows(std::size_t o, const std::string& from, std::size_t rows) {
  Table& t = tables_[o];
  const std::size_t width = t.columns.size();
  if (streaming()) {
    resumeSpool(from, t.spool, width, rows);
    t.spooledRows = rows;
    return;
  }
  std::vector<std::vector<double>> spooled;
  readSpool(from, width, rows, [&](const double* v, std::size_t n) {
    for (std::size_t r = 0; r < n; ++r) spooled.emplace_back(v + r * width, v + (r + 1) * width);
  });
  t.rows.insert(t.rows.begin(), std::make_move_iterator(spooled.begin()),
                std::make_move_iterator(spooled.end()));
}

void Recorder::resumeFrames(const std::string& from, std::size_t frames) {
  const std::size_t width = vtkFrameWidth(spec_.vtk);
  if (streaming()) {
    resumeSpool(from, frameSpoolPath(), width, frames);
    spooledFrames_ = frames;
    return;
  }
  const std::size_t n = spec_.vtk.bodies.size();
  std::vector<VtkFrame> spooled;
  readSpool(from, width, frames, [&](const double* v, std::size_t count) {
    for (std::size_t r = 0; r < count; ++r, v += width) {
      VtkFrame f;
      f.step = static_cast<long>(v[0]);
      f.time = v[1];
      const double* p = v + 2;
      f.points.assign(p, p + 3 * n);
      f.orientations.assign(p + 3 * n, p + 7 * n);
      f.velocities.assign(p + 7 * n, p + 10 * n);
      f.angularVelocities.assign(p + 10 * n, p + 13 * n);
      spooled.push_back(std::move(f));
    }
  });
  frames_.insert(frames_.begin(), std::make_move_iterator(spooled.begin()),
                 std::make_move_iterator(spooled.end()));
}

void Recorder::recordInitial(double t0) {
  OutputClock& clock = *spec_.clock;
  clock.t = t0;
  clock.k = 0;
  for (std::size_t o = 0; o < spec_.outputs.size(); ++o) {
    const OutputSpec& out = spec_.outputs[o];
    if (!out.initialRow) continue;
    std::vector<double> row(out.columns.size(), 0.0);
    for (std::size_t c = 0; c < out.columns.size(); ++c) {
      const ColumnSpec& col = out.columns[c];
      switch (col.initialMode) {
        case ColumnSpec::Initial::Evaluate:
          row[c] = col.sum ? 0.0 : col.value.evaluate();
          break;
        case ColumnSpec::Initial::Expression:
          row[c] = col.initial.evaluate();
          break;
        case ColumnSpec::Initial::NextRow:
          pendingNext_[o] = 1;
          break;
      }
    }
    append(o, std::move(row));
  }
  if (vtkEnabled_) recordFrame(0, t0);
}

void Recorder::recordStep(long k, double t) {
  OutputClock& clock = *spec_.clock;
  clock.t = t;
  clock.k = k;
  for (std::size_t o = 0; o < spec_.outputs.size(); ++o) {
    const OutputSpec& out = spec_.outputs[o];
    // sums run over every step, rows only every `every` steps
    for (std::size_t c = 0; c < out.columns.size(); ++c)
      if (out.columns[c].sum) sums_[o][c] += out.columns[c].value.evaluate();
    if (k % out.every != 0) continue;
    std::vector<double> row(out.columns.size(), 0.0);
    for (std::size_t c = 0; c < out.columns.size(); ++c)
      row[c] = out.columns[c].sum ? sums_[o][c] : out.columns[c].value.evaluate();
    if (pendingNext_[o]) {
      std::vector<double>& first = tables_[o].rows.front();
      for (std::size_t c = 0; c < out.columns.size(); ++c)
        if (out.columns[c].initialMode == ColumnSpec::Initial::NextRow) first[c] = row[c];
      pendingNext_[o] = 0;
    }
    append(o, std::move(row));
  }
  if (vtkEnabled_ && k % spec_.vtk.every == 0) recordFrame(k, t);
}

void Recorder::recordEvent(long k, double t, bool nonSmooth) {
  if (nonSmooth) {
    OutputClock& clock = *spec_.clock;
    clock.t = t;
    clock.k = k;
    for (std::size_t o = 0; o < spec_.outputs.size(); ++o) {
      const OutputSpec& out = spec_.outputs[o];
      if (!out.beforeRows || k % out.every != 0) continue;
      std::vector<double> row(out.columns.size(), 0.0);
      for (std::size_t c = 0; c < out.columns.size(); ++c) {
        const ColumnSpec& col = out.columns[c];
        row[c] =
            col.hasBefore ? col.before.evaluate() : (col.sum ? sums_[o][c] : col.value.evaluate());
      }
      append(o, std::move(row));
    }
  }
  recordStep(k, t);
}

void Recorder::append(std::size_t o, std::vector<double> row) {
  const std::size_t limit = spec_.outputs[o].maxRows;
  Table& t = tables_[o];
  if (limit != 0 && t.rowCount() >= limit) return;
  t.rows.push_back(std::move(row));
  // row 0 waiting for the next row's values (initial="next") stays in memory until then
  if (streaming() && t.rows.size() >= memoryRows_ && !pendingNext_[o]) spillRows(o);
}

bool Recorder::full() const {
  return !fullOutput().empty();
}

std::string Recorder::fullOutput() const {
  for (std::size_t o = 0; o < spec_.outputs.size(); ++o) {
    const std::size_t limit = spec_.outputs[o].maxRows;
    if (limit > 0 && tables_[o].rowCount() >= limit) return spec_.outputs[o].name;
  }
  return "";
}

void Recorder::recordFrame(long k, double t) {
  VtkFrame frame;
  frame.step = k;
  frame.time = t;
  for (const BodySpec& body : spec_.vtk.bodies) {
    frame.points.push_back(body.x.evaluate());
    frame.points.push_back(body.y.evaluate());
    frame.points.push_back(body.z.evaluate());
    for (const Expression& e : body.orientation) frame.orientations.push_back(e.evaluate());
    for (const Expression& e : body.velocity) frame.velocities.push_back(e.evaluate());
    for (const Expression& e : body.angularVelocity)
      frame.angularVelocities.push_back(e.evaluate());
  }
  frames_.push_back(std::move(frame));
  // frames of many bodies are large: the window counts doubles too (64 Ki)
  const std::size_t width = vtkFrameWidth(spec_.vtk);
  if (streaming() &&
      frames_.size() >= std::max<std::size_t>(1, std::min(memoryRows_, 65536 / width)))
    spillFrames();
}

void RunTotals::add(const StepStatistics& s) {
  ++steps;
  const long active = static_cast<long>(s.activeRelations);
  if (active > 0) ++activeSteps;
  if (active > lastActive) activations += active - lastActive;
  lastActive = active;
  if (s.solved) {
    ++solverCalls;
    if (s.status != NSD_OK) ++failedSolves;
    fallbackSolves += s.fallbacks;
    if (s.aboveTolerance) ++aboveTolerance;
  }
  totalIterations += s.iterations;
  maxIterations = std::max(maxIterations, s.iterations);
  maxResidual = std::max(maxResidual, s.residual);
  solverSeconds += s.seconds;
  if (s.newtonIterations > 0) {
    ++newtonSteps;
    newtonIterations += s.newtonIterations;
    maxNewtonIterations = std::max(maxNewtonIterations, s.newtonIterations);
    if (!s.newtonConverged) ++newtonFailures;
  }
  projections += s.projectionIterations;
  maxProjections = std::max(maxProjections, s.projectionIterations);
}

}  // namespace nsdyn::io
