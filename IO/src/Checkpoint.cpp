// Checkpoints in nsdyn's own format (format 4, doc/robustness.md). The model
// is rebuilt from its file at restart; the file holds the state that evolves
// during a run, taken through the Kernel's public accessors, and the model's
// fingerprint. The reader trusts nothing: every count is bounded by the bytes
// left, bools are 0 or 1, enums and ints are range-checked, then the checksum.
//
// Binary encoding: "NSDYNCKP", u32 format (4), u32 0, the records, u64
// FNV-1a of the records. Records: integers and counts as 8-byte little-endian,
// doubles as their 8-byte IEEE pattern, bools as one byte, strings as a count
// and the bytes. XML encoding: the same records as <tag>text</tag>, one a
// line, inside <nsdyn-checkpoint format="4">, then <checksum> (the FNV-1a of
// the records' binary encoding).
//
// This file saves and loads checkpoints; CheckpointFormat.cpp encodes and decodes the records
// (CheckpointFormat.hpp, CheckpointCodec.hpp), CheckpointFingerprint.cpp makes the model's
// fingerprint.
#include "nsdyn/io/Checkpoint.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "CheckpointFormat.hpp"
#include "nsdyn/Kernel.hpp"
#include "nsdyn/io/PartFile.hpp"

namespace nsdyn::io {
namespace {

using namespace ckpt;  // the records, encode, decode, differences (CheckpointFormat.hpp)

std::uint64_t interactionIndex(const LoadedModel& run, const Interaction& inter) {
  for (std::size_t i = 0; i < run.interactions.size(); ++i)
    if (run.interactions[i].second.get() == &inter) return i;
  throw Error("checkpoint", "an interaction of the model file", inter.name());
}

std::vector<IndexEntry> indexSet(const LoadedModel& run, unsigned level) {
  std::vector<IndexEntry> out;
  for (const auto& ur : run.model->nonSmoothDynamicalSystem()->topology().indexSet(level))
    out.push_back({interactionIndex(run, ur->interaction()), ur->relativePosition()});
  return out;
}

}  // namespace

void saveCheckpoint(const std::string& path, ArchiveFormat format, const LoadedModel& run,
                    const Recorder& recorder, const RunTotals& totals) {
  saveCheckpoint(path, format, run, recorder, totals, modelFingerprint(run));
}

void saveCheckpoint(const std::string& path, ArchiveFormat format, const LoadedModel& run,
                    const Recorder& recorder, const RunTotals& totals,
                    const ModelFingerprint& fingerprint) {
  if (run.simulationType == "EventDriven")
    throw Error("checkpoint", "a time-stepping run", run.simulationType + " run");
  const Simulation& sim = *run.simulation;
  Payload p;
  p.model = run.name;
  p.fingerprint = fingerprint;
  p.step = sim.currentStep();
  p.time = sim.startingTime();
  for (const auto& [name, ds] : run.systems) {
    SystemState s{name, ds->className(), {}};
    for (const SiconosVector* v : ds->checkpointState()) s.vectors.push_back(*v);
    p.systems.push_back(std::move(s));
  }
  for (const auto& [name, inter] : run.interactions) {
    InteractionState s{name, {}, {}};
    for (unsigned l = 0; l < Interaction::kLevels; ++l) {
      s.y.push_back(inter->y(l));
      s.lambda.push_back(inter->lambda(l));
    }
    p.interactions.push_back(std::move(s));
  }
  p.indexSet1 = indexSet(run, 1);
  p.indexSet2 = indexSet(run, 2);
  p.statistics = sim.statistics();
  // the spooled rows are on disk already (each batch is written whole): their count and
  // the spool's path only, so a checkpoint stays small however long the run
  for (std::size_t o = 0; o < recorder.tables().size(); ++o) {
    const Table& t = recorder.tables()[o];
    p.tables.push_back({t.name, t.columns, t.spool, t.spooledRows, t.rows,
                        const_cast<Recorder&>(recorder).sumsMutable()[o],
                        const_cast<Recorder&>(recorder).pendingNextMutable()[o] != 0});
  }
  p.frameSpool = recorder.frameSpoolPath();
  p.spooledFrames = recorder.spooledFrames();
  p.frames = recorder.frames();
  p.totals = totals;
  const std::string bytes = encode(p, format);

  // written under a temporary name, renamed when complete (WriteError on failure: the
  // previous checkpoint stays as it was)
  PartFile file(path, "checkpoint", "wb");
  file.write(bytes.data(), bytes.size());
  file.commit();
}

void checkCheckpointData(const std::string& data, const std::string& path, bool verifyChecksum) {
  Payload p;
  decode(data, path, p, verifyChecksum);
}

long loadCheckpoint(const std::string& path, LoadedModel& run, Recorder& recorder,
                    RunTotals& totals, const RestartOptions& options) {
  if (run.simulationType == "EventDriven")
    throw Error("checkpoint", "a time-stepping run", run.simulationType + " run");
  return loadCheckpointData(readFile(path), path, run, recorder, totals, options);
}

long loadCheckpointData(const std::string& data, const std::string& path, LoadedModel& run,
                        Recorder& recorder, RunTotals& totals, const RestartOptions& options) {
  if (run.simulationType == "EventDriven")
    throw Error("checkpoint", "a time-stepping run", run.simulationType + " run");
  Payload p;
  decode(data, path, p, true);

  // the checkpoint must describe this model
  const std::string where = "checkpoint " + path;
  if (p.model != run.name)
    throw Error(where, "a checkpoint of model '" + run.name + "'", "model '" + p.model + "'");
  {
    const ModelFingerprint now = options.fingerprint ? *options.fingerprint : modelFingerprint(run);
    if (now.digest() != p.fingerprint.digest()) {
      const std::vector<std::string> diff = differences(now, p.fingerprint);
      std::string list;
      for (std::size_t i = 0; i < diff.size() && i < 12; ++i) list += (i ? ", " : "") + diff[i];
      if (diff.size() > 12) list += ", ... (" + std::to_string(diff.size()) + " in all)";
      if (!options.force)
        throw Error(where, "the model file that wrote it",
                    "a model file that differs from the one that wrote the checkpoint (" + list +
                        "); --force-restart restarts anyway");
      if (options.differences) *options.differences = diff;
    }
  }
  if (p.systems.size() != run.systems.size() || p.interactions.size() != run.interactions.size())
    throw Error(where,
                std::to_string(run.systems.size()) + " systems and " +
                    std::to_string(run.interactions.size()) + " interactions",
                std::to_string(p.systems.size()) + " and " + std::to_string(p.interactions.size()));
  if (p.step < 0 || p.step > run.steps)
    throw Error(where, "a step in [0, " + std::to_string(run.steps) + "]", std::to_string(p.step));
  for (std::size_t i = 0; i < p.systems.size(); ++i) {
    const SystemState& s = p.systems[i];
    const auto& ds = run.systems[i].second;
    const std::vector<SiconosVector*> live = ds->checkpointState();
    if (s.name != run.systems[i].first || s.className != ds->className() ||
        s.vectors.size() != live.size())
      throw Error(
          where,
          "system '" + run.systems[i].first + "' (" + ds->className() + ", " +
              std::to_string(live.size()) + " state vectors)",
          "'" + s.name + "' (" + s.className + ", " + std::to_string(s.vectors.size()) + ")");
    for (std::size_t k = 0; k < live.size(); ++k)
      if (s.vectors[k].size() != live[k]->size())
        throw Error(where,
                    "state vector " + std::to_string(k) + " of " + s.name + " of size " +
                        std::to_string(live[k]->size()),
                    "size " + std::to_string(s.vectors[k].size()));
  }
  for (std::size_t i = 0; i < p.interactions.size(); ++i) {
    const InteractionState& s = p.interactions[i];
    const auto& inter = run.interactions[i].second;
    bool ok = s.name == run.interactions[i].first && s.y.size() == Interaction::kLevels &&
              s.lambda.size() == Interaction::kLevels;
    for (unsigned l = 0; ok && l < Interaction::kLevels; ++l)
      ok = s.y[l].size() == inter->size() && s.lambda[l].size() == inter->size();
    if (!ok)
      throw Error(where,
                  "interaction '" + run.interactions[i].first + "' of size " +
                      std::to_string(inter->size()),
                  "'" + s.name + "'");
  }
  if (p.tables.size() != recorder.tables().size())
    throw Error(where, std::to_string(recorder.tables().size()) + " outputs",
                std::to_string(p.tables.size()));
  for (std::size_t o = 0; o < p.tables.size(); ++o) {
    const Table& t = recorder.tables()[o];
    if (p.tables[o].name != t.name || p.tables[o].columns != t.columns ||
        p.tables[o].sums.size() != t.columns.size())
      throw Error(where, "output '" + t.name + "' with columns as in the model file",
                  "output '" + p.tables[o].name + "'");
    for (const auto& row : p.tables[o].rows)
      if (row.size() != t.columns.size())
        throw Error(where, "rows of " + std::to_string(t.columns.size()) + " values",
                    std::to_string(row.size()));
    // a row at most per step (and row 0) so far: bounds the spooled count before any
    // spool is read
    const std::uint64_t bound = static_cast<std::uint64_t>(p.step) + 1;
    if (p.tables[o].spooled > bound || p.tables[o].rows.size() > bound - p.tables[o].spooled)
      throw Error(where, "at most " + std::to_string(bound) + " rows of output '" + t.name + "'",
                  std::to_string(p.tables[o].spooled) + " spooled and " +
                      std::to_string(p.tables[o].rows.size()) + " in the file");
  }
  if (p.spooledFrames > static_cast<std::uint64_t>(p.step) + 1)
    throw Error(where, "at most " + std::to_string(p.step + 1) + " VTK frames",
                std::to_string(p.spooledFrames) + " spooled");
  // the spool files of the rows and frames not in the checkpoint: there, with enough rows
  try {
    for (std::size_t o = 0; o < p.tables.size(); ++o)
      checkSpool(p.tables[o].spool, p.tables[o].columns.size(),
                 static_cast<std::size_t>(p.tables[o].spooled),
                 "output '" + p.tables[o].name + "'");
    checkSpool(p.frameSpool, vtkFrameWidth(recorder.spec().vtk),
               static_cast<std::size_t>(p.spooledFrames), "the VTK frames");
  } catch (const Error& e) {
    throw Error(where + ": " + e.what());
  }
  const std::size_t bodies = recorder.spec().vtk.bodies.size();
  for (const VtkFrame& f : p.frames)
    if (f.points.size() != 3 * bodies || f.orientations.size() != 4 * bodies ||
        f.velocities.size() != 3 * bodies || f.angularVelocities.size() != 3 * bodies)
      throw Error(where, "VTK frames of " + std::to_string(bodies) + " bodies",
                  std::to_string(f.points.size() / 3));
  auto indexSetOf = [&](const std::vector<IndexEntry>& entries) {
    IndexSet set;
    const IndexSet& all = run.model->nonSmoothDynamicalSystem()->topology().indexSet(0);
    for (const IndexEntry& e : entries) {
      SP::UnitaryRelation found;
      for (const auto& ur : all)
        if (e.interaction < run.interactions.size() &&
            &ur->interaction() == run.interactions[e.interaction].second.get() &&
            ur->relativePosition() == e.position)
          found = ur;
      if (!found)
        throw Error(
            where, "index sets of the model's relations",
            "interaction " + std::to_string(e.interaction) + " row " + std::to_string(e.position));
      set.push_back(found);
    }
    return set;
  };
  IndexSet set1 = indexSetOf(p.indexSet1), set2 = indexSetOf(p.indexSet2);

  // the spooled rows first (file work that may still fail), rows written after the
  // checkpoint dropped: the recorder's spools become the checkpoint's first rows
  for (std::size_t o = 0; o < p.tables.size(); ++o) {
    recorder.tablesMutable()[o].rows = std::move(p.tables[o].rows);
    recorder.resumeRows(o, p.tables[o].spool, static_cast<std::size_t>(p.tables[o].spooled));
  }
  recorder.framesMutable() = std::move(p.frames);
  recorder.resumeFrames(p.frameSpool, static_cast<std::size_t>(p.spooledFrames));

  // restore: states (memories = current values, as after nextStep()), then outputs
  for (std::size_t i = 0; i < p.systems.size(); ++i) {
    const auto& ds = run.systems[i].second;
    const std::vector<SiconosVector*> live = ds->checkpointState();
    for (std::size_t k = 0; k < live.size(); ++k) *live[k] = p.systems[i].vectors[k];
    ds->swapInMemory();
  }
  for (std::size_t i = 0; i < p.interactions.size(); ++i) {
    Interaction& inter = *run.interactions[i].second;
    for (unsigned l = 0; l < Interaction::kLevels; ++l)
      inter.lambdaMutable(l) = p.interactions[i].lambda[l];
    // the relation's cached Jacobian at the restored state, then the saved outputs as they were
    inter.computeOutput(p.time);
    for (unsigned l = 0; l < Interaction::kLevels; ++l) inter.yMutable(l) = p.interactions[i].y[l];
    inter.swapInMemory();
  }
  Topology& topology = run.model->nonSmoothDynamicalSystem()->topologyMutable();
  topology.setIndexSet(1, std::move(set1));
  topology.setIndexSet(2, std::move(set2));
  run.simulation->restoreProgress(p.step, std::move(p.statistics));

  for (std::size_t o = 0; o < p.tables.size(); ++o) {
    recorder.sumsMutable()[o] = p.tables[o].sums;
    recorder.pendingNextMutable()[o] = p.tables[o].pendingNext ? 1 : 0;
  }
  totals = p.totals;
  return p.step;
}

}  // namespace nsdyn::io
