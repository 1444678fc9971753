// Checkpoints with Boost.Serialization. The model is rebuilt from its file
// at restart; the archive holds the state that evolves during a run, taken
// through the Kernel's public accessors (non-intrusive serialization).
#include "nsdyn/io/Checkpoint.hpp"

#include <boost/archive/archive_exception.hpp>
#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/archive/xml_iarchive.hpp>
#include <boost/archive/xml_oarchive.hpp>
#include <boost/serialization/nvp.hpp>
#include <boost/serialization/split_free.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "nsdyn/Kernel.hpp"

// ---- non-intrusive serialization of the Kernel value types -------------------------------
namespace boost::serialization {

template <class Archive>
void save(Archive& ar, const nsdyn::SiconosVector& v, unsigned) {
  std::vector<double> values = v.toStdVector();
  ar << make_nvp("values", values);
}
template <class Archive>
void load(Archive& ar, nsdyn::SiconosVector& v, unsigned) {
  std::vector<double> values;
  ar >> make_nvp("values", values);
  v = nsdyn::SiconosVector(values);
}

template <class Archive>
void save(Archive& ar, const nsdyn::StepStatistics& s, unsigned) {
  const int status = static_cast<int>(s.status);
  const std::uint64_t active = s.activeRelations, size = s.problemSize;
  const bool solved = s.solved;
  ar << make_nvp("step", s.step) << make_nvp("time", s.time) << make_nvp("active", active)
     << make_nvp("size", size) << make_nvp("solved", solved) << make_nvp("status", status)
     << make_nvp("iterations", s.iterations) << make_nvp("residual", s.residual)
     << make_nvp("seconds", s.seconds) << make_nvp("solver", s.solver)
     << make_nvp("message", s.message) << make_nvp("newtonIterations", s.newtonIterations)
     << make_nvp("newtonConverged", s.newtonConverged)
     << make_nvp("projectionIterations", s.projectionIterations);
}
template <class Archive>
void load(Archive& ar, nsdyn::StepStatistics& s, unsigned) {
  int status = 0;
  std::uint64_t active = 0, size = 0;
  bool solved = false;
  ar >> make_nvp("step", s.step) >> make_nvp("time", s.time) >> make_nvp("active", active) >>
      make_nvp("size", size) >> make_nvp("solved", solved) >> make_nvp("status", status) >>
      make_nvp("iterations", s.iterations) >> make_nvp("residual", s.residual) >>
      make_nvp("seconds", s.seconds) >> make_nvp("solver", s.solver) >>
      make_nvp("message", s.message) >> make_nvp("newtonIterations", s.newtonIterations) >>
      make_nvp("newtonConverged", s.newtonConverged) >>
      make_nvp("projectionIterations", s.projectionIterations);
  s.status = static_cast<NsdStatus>(status);
  s.activeRelations = static_cast<std::size_t>(active);
  s.problemSize = static_cast<std::size_t>(size);
  s.solved = solved;
}

template <class Archive>
void serialize(Archive& ar, nsdyn::io::VtkFrame& f, unsigned) {
  ar& make_nvp("step", f.step) & make_nvp("time", f.time) & make_nvp("points", f.points) &
      make_nvp("orientations", f.orientations) & make_nvp("velocities", f.velocities) &
      make_nvp("angularVelocities", f.angularVelocities);
}

template <class Archive>
void serialize(Archive& ar, nsdyn::io::RunTotals& t, unsigned) {
  ar& make_nvp("steps", t.steps) & make_nvp("activeSteps", t.activeSteps) &
      make_nvp("activations", t.activations) & make_nvp("solverCalls", t.solverCalls) &
      make_nvp("failedSolves", t.failedSolves) & make_nvp("totalIterations", t.totalIterations) &
      make_nvp("maxIterations", t.maxIterations) & make_nvp("maxResidual", t.maxResidual) &
      make_nvp("lastActive", t.lastActive) & make_nvp("solverSeconds", t.solverSeconds) &
      make_nvp("newtonSteps", t.newtonSteps) & make_nvp("newtonIterations", t.newtonIterations) &
      make_nvp("maxNewtonIterations", t.maxNewtonIterations) &
      make_nvp("newtonFailures", t.newtonFailures) & make_nvp("projections", t.projections) &
      make_nvp("maxProjections", t.maxProjections);
}

}  // namespace boost::serialization

BOOST_SERIALIZATION_SPLIT_FREE(nsdyn::SiconosVector)
BOOST_SERIALIZATION_SPLIT_FREE(nsdyn::StepStatistics)

namespace nsdyn::io {
namespace {

constexpr const char* kMagic = "nsdyn-checkpoint";
// 2: the vectors of DynamicalSystem::checkpointState() (rigid bodies, forces),
// Newton and projection statistics, orientations and velocities in VTK frames
constexpr int kVersion = 2;

// State of one system: the vectors of DynamicalSystem::checkpointState(), in
// its order (mechanical systems q, v, p, forces; first order x, r).
struct SystemState {
  std::string name, className;
  std::vector<SiconosVector> vectors;
  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    ar& boost::serialization::make_nvp("name", name) &
        boost::serialization::make_nvp("class", className) &
        boost::serialization::make_nvp("vectors", vectors);
  }
};

// y and λ of one interaction at each level.
struct InteractionState {
  std::string name;
  std::vector<SiconosVector> y, lambda;
  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    ar& boost::serialization::make_nvp("name", name) & boost::serialization::make_nvp("y", y) &
        boost::serialization::make_nvp("lambda", lambda);
  }
};

// A unitary relation of an index set: interaction (file order) and first row.
struct IndexEntry {
  std::uint64_t interaction = 0, position = 0;
  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    ar& boost::serialization::make_nvp("interaction", interaction) &
        boost::serialization::make_nvp("position", position);
  }
};

// Rows of one output so far, with its running sums.
struct TableState {
  std::string name;
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  std::vector<double> sums;
  bool pendingNext = false;
  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    ar& boost::serialization::make_nvp("name", name) &
        boost::serialization::make_nvp("columns", columns) &
        boost::serialization::make_nvp("rows", rows) &
        boost::serialization::make_nvp("sums", sums) &
        boost::serialization::make_nvp("pendingNext", pendingNext);
  }
};

// Everything a checkpoint holds, in archive order.
struct Payload {
  std::string model;
  long step = 0;
  double time = 0.0;
  std::vector<SystemState> systems;
  std::vector<InteractionState> interactions;
  std::vector<IndexEntry> indexSet1, indexSet2;
  std::vector<StepStatistics> statistics;
  std::vector<TableState> tables;
  std::vector<VtkFrame> frames;
  RunTotals totals;
  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    using boost::serialization::make_nvp;
    ar& make_nvp("model", model) & make_nvp("step", step) & make_nvp("time", time) &
        make_nvp("systems", systems) & make_nvp("interactions", interactions) &
        make_nvp("indexSet1", indexSet1) & make_nvp("indexSet2", indexSet2) &
        make_nvp("statistics", statistics) & make_nvp("tables", tables) &
        make_nvp("frames", frames) & make_nvp("totals", totals);
  }
};

// FNV-1a 64-bit hash of the payload's canonical (binary archive) bytes.
std::uint64_t checksum(const Payload& payload) {
  std::ostringstream bytes(std::ios::binary);
  {
    boost::archive::binary_oarchive ar(bytes, boost::archive::no_header);
    ar << payload;
  }
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : bytes.str()) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

template <class Archive>
void writeArchive(std::ostream& out, const Payload& payload) {
  Archive ar(out);
  const std::string magic = kMagic;
  const int version = kVersion;
  const std::uint64_t sum = checksum(payload);
  ar << boost::serialization::make_nvp("magic", magic)
     << boost::serialization::make_nvp("version", version)
     << boost::serialization::make_nvp("payload", payload)
     << boost::serialization::make_nvp("checksum", sum);
}

template <class Archive>
void readArchive(std::istream& in, Payload& payload, const std::string& path) {
  Archive ar(in);
  std::string magic;
  int version = 0;
  ar >> boost::serialization::make_nvp("magic", magic);
  if (magic != kMagic) throw Error("checkpoint " + path, "an nsdyn checkpoint", "another archive");
  ar >> boost::serialization::make_nvp("version", version);
  if (version != kVersion)
    throw Error("checkpoint " + path, "format version " + std::to_string(kVersion),
                "version " + std::to_string(version));
  std::uint64_t sum = 0;
  ar >> boost::serialization::make_nvp("payload", payload) >>
      boost::serialization::make_nvp("checksum", sum);
  if (sum != checksum(payload))
    throw Error("checkpoint " + path, "a matching checksum", "a corrupted file (checksum differs)");
}

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
  if (run.simulationType == "EventDriven")
    throw Error("checkpoint", "a time-stepping run", run.simulationType + " run");
  const Simulation& sim = *run.simulation;
  Payload p;
  p.model = run.name;
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
  for (std::size_t o = 0; o < recorder.tables().size(); ++o) {
    const Table& t = recorder.tables()[o];
    p.tables.push_back({t.name, t.columns, t.rows, const_cast<Recorder&>(recorder).sumsMutable()[o],
                        const_cast<Recorder&>(recorder).pendingNextMutable()[o] != 0});
  }
  p.frames = recorder.frames();
  p.totals = totals;

  // written under a temporary name, renamed when complete
  const std::string tmp = path + ".part";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error("checkpoint", "a writable file", tmp + " (" + std::strerror(errno) + ")");
    if (format == ArchiveFormat::Binary)
      writeArchive<boost::archive::binary_oarchive>(out, p);
    else
      writeArchive<boost::archive::xml_oarchive>(out, p);
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw Error("checkpoint", "a complete file", tmp + " (write error)");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw Error("checkpoint", "a file that can be renamed to " + path,
                tmp + " (" + std::strerror(errno) + ")");
  }
}

long loadCheckpoint(const std::string& path, LoadedModel& run, Recorder& recorder,
                    RunTotals& totals) {
  if (run.simulationType == "EventDriven")
    throw Error("checkpoint", "a time-stepping run", run.simulationType + " run");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("checkpoint " + path, "a readable file", std::strerror(errno));
  // an XML archive starts with its declaration
  char head[5] = {0, 0, 0, 0, 0};
  in.read(head, 5);
  in.clear();
  in.seekg(0);
  const bool xml = std::strncmp(head, "<?xml", 5) == 0;
  Payload p;
  try {
    if (xml)
      readArchive<boost::archive::xml_iarchive>(in, p, path);
    else
      readArchive<boost::archive::binary_iarchive>(in, p, path);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error("checkpoint " + path, "a complete nsdyn checkpoint",
                std::string("a truncated or corrupted file (") + e.what() + ")");
  }

  // the checkpoint must describe this model
  const std::string where = "checkpoint " + path;
  if (p.model != run.name)
    throw Error(where, "a checkpoint of model '" + run.name + "'", "model '" + p.model + "'");
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
    recorder.tablesMutable()[o].rows = std::move(p.tables[o].rows);
    recorder.sumsMutable()[o] = p.tables[o].sums;
    recorder.pendingNextMutable()[o] = p.tables[o].pendingNext ? 1 : 0;
  }
  recorder.framesMutable() = std::move(p.frames);
  totals = p.totals;
  return p.step;
}

}  // namespace nsdyn::io
