// Topology: systems as vertices, interactions as edges (Boost Graph), index sets.
#include "nsdyn/Topology.hpp"

#include <algorithm>

#include "nsdyn/Error.hpp"

namespace nsdyn {

void Topology::insertDynamicalSystem(const SP::DynamicalSystem& ds) {
  if (!ds) throw Error("Topology::insertDynamicalSystem", "a dynamical system", "null");
  if (vertexOf_.count(ds->number())) return;
  vertexOf_[ds->number()] = boost::add_vertex(ds, graph_);
  ++revision_;
}

void Topology::insertInteraction(const SP::Interaction& inter, const SP::DynamicalSystem& ds1,
                                 const SP::DynamicalSystem& ds2) {
  if (!inter) throw Error("Topology::insertInteraction", "an interaction", "null");
  if (edgeOf_.count(inter->number())) throw Error(inter->name(), "linked once", "a second link");
  if (!ds1) throw Error(inter->name(), "a dynamical system to link to", "null");
  inter->setDynamicalSystems(ds1, ds2);
  insertDynamicalSystem(ds1);
  if (ds2) insertDynamicalSystem(ds2);
  // one edge between the two systems (a self-loop for one system)
  const Vertex v1 = vertexOf_.at(ds1->number());
  const Vertex v2 = ds2 ? vertexOf_.at(ds2->number()) : v1;
  edgeOf_[inter->number()] = boost::add_edge(v1, v2, inter, graph_).first;
  // cut into unitary relations of the law's block size
  std::vector<SP::UnitaryRelation> urs;
  const std::size_t block = inter->nonSmoothLaw().unitaryBlockSize();
  for (std::size_t pos = 0; pos + block <= inter->size(); pos += block)
    urs.push_back(std::make_shared<UnitaryRelation>(inter, pos, block));
  unitaryOf_[inter->number()] = std::move(urs);
  ++revision_;
  rebuildIndexSet0();
}

bool Topology::removeInteraction(const SP::Interaction& inter) {
  if (!inter) return false;
  auto it = edgeOf_.find(inter->number());
  if (it == edgeOf_.end()) return false;
  boost::remove_edge(it->second, graph_);
  edgeOf_.erase(it);
  // drop its unitary relations from every index set
  const auto& urs = unitaryOf_[inter->number()];
  for (auto& set : indexSets_)
    set.erase(std::remove_if(set.begin(), set.end(),
                             [&](const SP::UnitaryRelation& u) {
                               return std::find(urs.begin(), urs.end(), u) != urs.end();
                             }),
              set.end());
  unitaryOf_.erase(inter->number());
  ++revision_;
  rebuildIndexSet0();
  return true;
}

bool Topology::hasDynamicalSystem(const DynamicalSystem& ds) const {
  auto it = vertexOf_.find(ds.number());
  return it != vertexOf_.end() && graph_[it->second].get() == &ds;
}

bool Topology::hasInteraction(const Interaction& inter) const {
  auto it = edgeOf_.find(inter.number());
  return it != edgeOf_.end() && graph_[it->second].get() == &inter;
}

std::vector<SP::DynamicalSystem> Topology::dynamicalSystems() const {
  std::vector<SP::DynamicalSystem> out;
  for (const auto& [number, v] : vertexOf_) out.push_back(graph_[v]);
  return out;
}

std::vector<SP::Interaction> Topology::interactions() const {
  std::vector<SP::Interaction> out;
  for (const auto& [number, e] : edgeOf_) out.push_back(graph_[e]);
  return out;
}

std::vector<SP::Interaction> Topology::interactionsOf(const DynamicalSystem& ds) const {
  std::vector<SP::Interaction> out;
  auto it = vertexOf_.find(ds.number());
  if (it == vertexOf_.end()) return out;
  for (auto [e, end] = boost::out_edges(it->second, graph_); e != end; ++e) {
    const SP::Interaction& inter = graph_[*e];
    if (std::find(out.begin(), out.end(), inter) == out.end()) out.push_back(inter);
  }
  std::sort(out.begin(), out.end(), [](const SP::Interaction& a, const SP::Interaction& b) {
    return a->number() < b->number();
  });
  return out;
}

std::vector<SP::DynamicalSystem> Topology::commonSystems(const UnitaryRelation& a,
                                                         const UnitaryRelation& b) const {
  std::vector<SP::DynamicalSystem> out;
  for (const auto& ds : a.interaction().dynamicalSystems())
    if (b.interaction().involves(*ds)) out.push_back(ds);
  std::sort(out.begin(), out.end(), [](const SP::DynamicalSystem& x, const SP::DynamicalSystem& y) {
    return x->number() < y->number();
  });
  return out;
}

const IndexSet& Topology::indexSet(unsigned level) const {
  if (level > 2) throw Error("Topology::indexSet", "level 0, 1 or 2", std::to_string(level));
  return indexSets_[level];
}

void Topology::setIndexSet(unsigned level, IndexSet set) {
  if (level != 1 && level != 2)
    throw Error("Topology::setIndexSet", "level 1 or 2", std::to_string(level));
  indexSets_[level] = std::move(set);
}

void Topology::rebuildIndexSet0() {
  // by interaction number, then relative position (unitaryOf_ is ordered by number)
  indexSets_[0].clear();
  for (const auto& [number, urs] : unitaryOf_)
    indexSets_[0].insert(indexSets_[0].end(), urs.begin(), urs.end());
}

}  // namespace nsdyn
