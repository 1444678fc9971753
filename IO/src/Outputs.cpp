// Recorder: output expressions evaluated into tables, step by step.
#include "nsdyn/io/Outputs.hpp"

#include <algorithm>

namespace nsdyn::io {

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
  if (limit == 0 || tables_[o].rows.size() < limit) tables_[o].rows.push_back(std::move(row));
}

bool Recorder::full() const {
  return !fullOutput().empty();
}

std::string Recorder::fullOutput() const {
  for (std::size_t o = 0; o < spec_.outputs.size(); ++o) {
    const std::size_t limit = spec_.outputs[o].maxRows;
    if (limit > 0 && tables_[o].rows.size() >= limit) return spec_.outputs[o].name;
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
